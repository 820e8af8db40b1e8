//! `RpcMethod::decode_response` (the native decoders, `src/de/native`) and serde's path
//! (`decode::from_slice`: serde's visitors for the envelope, the payload transcribed and
//! decoded natively, `src/de/via_native.rs`) agree on every recorded response: the same
//! value, or a failure at the same path. The broken bodies of `decode_paths.rs` check the
//! failures in depth.

use crate::common;

use near_rpc::decode;
use near_rpc::methods::{self, EnvelopeOf, MethodVisitor, RpcMethod};

/// Decodes a body both ways; `Some(difference)` when they disagree.
struct Compare<'a>(&'a [u8]);

impl MethodVisitor for Compare<'_> {
    type Output = Option<String>;
    fn visit<M: RpcMethod>(self) -> Self::Output {
        let native = M::decode_response(self.0);
        let serde = decode::from_slice::<EnvelopeOf<M>>(self.0);
        match (native, serde) {
            (Ok(native), Ok(serde)) => {
                let (native, serde) = (format!("{native:?}"), format!("{serde:?}"));
                (native != serde).then(|| format!("decoded differently:\n{native}\n{serde}"))
            }
            (Err(native), Err(serde)) => (native.path() != serde.path())
                .then(|| format!("failed at different paths: native {native}, serde {serde}")),
            (Ok(_), Err(serde)) => Some(format!("only serde failed: {serde}")),
            (Err(native), Ok(_)) => Some(format!("only native failed: {native}")),
        }
    }
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn native_and_serde_decoders_agree_on_every_recorded_response() {
    let shared = common::shared_dir();
    let (mut compared, mut decoded, mut differences) = (0, 0, Vec::new());
    for fixture in common::fixtures(&shared) {
        if fixture.kind != "response" || !methods::ALL.contains(&fixture.method.as_str()) {
            continue;
        }
        let bytes = std::fs::read(&fixture.path).expect("read");
        let mut bodies = vec![bytes.clone()];
        // Pretty-printed too, so that whitespace everywhere is read.
        if let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes) {
            bodies.push(serde_json::to_vec_pretty(&value).expect("encodes"));
        }
        for body in &bodies {
            compared += 1;
            decoded += usize::from(methods::visit(&fixture.method, ProbeOk(body)) == Some(true));
            if let Some(Some(difference)) = methods::visit(&fixture.method, Compare(body)) {
                differences.push(format!("{}: {difference}", fixture.path.display()));
            }
        }
    }
    assert!(compared > 200, "only {compared} bodies compared");
    assert!(decoded > 150, "only {decoded} of {compared} bodies decoded");
    assert!(
        differences.is_empty(),
        "{} of {compared} bodies differ:\n{}",
        differences.len(),
        differences.join("\n")
    );
}

/// Whether the native decoder accepts the body.
struct ProbeOk<'a>(&'a [u8]);

impl MethodVisitor for ProbeOk<'_> {
    type Output = bool;
    fn visit<M: RpcMethod>(self) -> bool {
        M::decode_response(self.0).is_ok()
    }
}

/// A hostile node's body nested a hundred thousand deep, where the types skip it (an
/// unknown field, the id) or keep it whole (an unknown variant): refused as serde_json
/// refuses it, both ways, on a small stack, never a stack overflow (found by the fuzzer).
#[test]
fn bodies_nested_too_deep_are_refused_without_exhausting_the_stack() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let bodies = [
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"block_hash":"11111111111111111111111111111111","changes":[],"extra":{deep}}}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","result":{{"block_hash":"11111111111111111111111111111111","changes":[]}},"id":{deep}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"final_execution_status":"NONE","status":{{"Later":{deep}}}}}}}"#
        ),
    ];
    let outcomes = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            bodies
                .iter()
                .flat_map(|body| {
                    let changes = methods::ExperimentalChangesInBlockMethod::decode_response;
                    let tx = methods::ExperimentalTxStatusMethod::decode_response;
                    [
                            changes(body.as_bytes()).map(drop),
                            decode::from_slice::<
                                EnvelopeOf<methods::ExperimentalChangesInBlockMethod>,
                            >(body.as_bytes())
                            .map(drop),
                            tx(body.as_bytes()).map(drop),
                            decode::from_slice::<EnvelopeOf<methods::ExperimentalTxStatusMethod>>(
                                body.as_bytes(),
                            )
                            .map(drop),
                        ]
                })
                .collect::<Vec<_>>()
        })
        .expect("spawns")
        .join()
        .expect("no stack overflow, no panic");
    // Per body: the changes decoder natively and through serde, then the transaction
    // decoder both ways. Where a type skips the deep value or keeps it whole, the native
    // reader stops at serde_json's depth; the envelope's serde impl goes through the same
    // reader, so both ways agree.
    let recursion = "recursion limit exceeded";
    let expected = [
        [recursion, recursion, recursion, recursion],
        [
            "JSON-RPC id",
            "JSON-RPC id",
            "missing field",
            "missing field",
        ],
        [recursion, recursion, recursion, recursion],
    ];
    for (outcome, expected) in outcomes.iter().zip(expected.iter().flatten()) {
        let err = outcome.as_ref().expect_err("refused");
        assert!(
            err.message().contains(expected),
            "{err}, expected {expected}"
        );
    }
}

/// Text that is not JSON is a syntax error both ways, at the root (no path), with
/// serde_json's position, for every method, wherever the text stops being JSON: never
/// a type error of the first value read.
#[test]
fn text_that_is_not_json_is_a_syntax_error_both_ways() {
    struct Both<'a>(&'a [u8]);
    impl MethodVisitor for Both<'_> {
        type Output = [Result<(), decode::DecodeError>; 2];
        fn visit<M: RpcMethod>(self) -> Self::Output {
            [
                M::decode_response(self.0).map(drop),
                decode::from_slice::<EnvelopeOf<M>>(self.0).map(drop),
            ]
        }
    }
    let bodies: &[&[u8]] = &[
        b"",
        b"   ",
        b"hello",
        b"nul",
        b"<html>502 Bad Gateway</html>",
        b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\":",
        b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {}} trailing",
        b"[1,",
        b"{'jsonrpc': '2.0'}",
        b"\xff\xfe",
    ];
    for method in methods::ALL {
        for body in bodies {
            for (way, result) in ["native", "serde"]
                .into_iter()
                .zip(methods::visit(method, Both(body)).expect("a method"))
            {
                let error = result.expect_err("not JSON");
                let shown = String::from_utf8_lossy(body);
                assert_eq!(error.path(), "", "{method} {way} {shown:?}: {error}");
                let message = error.message();
                assert!(
                    !message.starts_with("invalid type") && !message.starts_with("missing field"),
                    "{method} {way} {shown:?}: a type error, not the syntax: {message}"
                );
                assert!(
                    message.contains(" at line ") || message.contains("EOF"),
                    "{method} {way} {shown:?}: no position: {message}"
                );
            }
        }
    }
}
