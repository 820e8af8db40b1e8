//! `RpcMethod::decode_response` (the native decoders, `src/de/native`) and serde's path
//! (`decode::from_slice`: serde's visitors for the envelope, the payload transcribed and
//! decoded natively, `src/de/via_native.rs`) agree on every recorded response: the same
//! value, or a failure at the same path. The broken bodies of `decode_paths.rs` check the
//! failures in depth.

use crate::common;

use near_rpc::{decode, methods, EnvelopeOf, MethodVisitor, RpcMethod};

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
