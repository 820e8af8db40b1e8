//! Every error kind that has a cause prints that cause once: a level's `Display` says
//! only its own failure, the cause is its `source()`, and `ErrorReport` joins the chain
//! with each level exactly once. One value of each such kind is built here (the client's
//! call errors, the builder's, verified reads', the write path's, block ids').

use serde_json::json;

use super::transport::{TransportError, TransportErrorKind};
use super::{BuildError, Error, ErrorKind, SendError, SendErrorKind, VerifyError};
use crate::de::decode::DecodeError;
use crate::primitives::BlockId;
use crate::primitives::CryptoHash;
use crate::report::ErrorReport;
use crate::types::SpecErrorWrapper;
use crate::types::{
    RpcLightClientNextBlockError, RpcLightClientProofError, RpcQueryError, RpcTransactionError,
};
use crate::verify::{BlockError, BlockStep, ProofError, ProofStep};

const ENDPOINT: &str = "https://rpc.example.org";

fn transport<E>(method: &'static str, kind: TransportErrorKind, message: &str) -> Error<E> {
    let error = TransportError::new(ENDPOINT, kind, message);
    Error::new(
        method,
        Some(ENDPOINT.to_owned()),
        ErrorKind::Transport(error),
    )
}

fn decode<E>(method: &'static str) -> Error<E> {
    Error::new(
        method,
        Some(ENDPOINT.to_owned()),
        ErrorKind::Decode {
            status: 200,
            error: DecodeError::new("result.header.height", "invalid type: string, expected u64"),
            body: r#"{"jsonrpc":"2.0","id":"1","result":{"header":{"height":"x"}}}"#.to_owned(),
        },
    )
}

fn rpc(method: &'static str, error: serde_json::Value) -> Error<RpcTransactionError> {
    let error: SpecErrorWrapper<RpcTransactionError> =
        serde_json::from_value(error).expect("an error object");
    Error::new(
        method,
        Some(ENDPOINT.to_owned()),
        ErrorKind::Rpc {
            status: 200,
            error: Box::new(error),
            retry_after: None,
        },
    )
}

fn invalid_nonce() -> serde_json::Value {
    json!({"name": "HANDLER_ERROR", "cause": {"name": "INVALID_TRANSACTION", "info": {}},
           "code": -32000, "message": "Server error",
           "data": {"TxExecutionError": {"InvalidTxError": {"InvalidNonce":
               {"tx_nonce": 5, "ak_nonce": 9}}}}})
}

/// One value of every error kind that has a source, named.
fn sourced() -> Vec<(&'static str, Box<dyn std::error::Error>)> {
    let timeout = || TransportErrorKind::Timeout;
    let invalid_endpoint = "no scheme".parse::<super::Endpoint>().unwrap_err();
    let block_id = "not a block".parse::<BlockId>().unwrap_err();
    let id = CryptoHash::hash_bytes(b"outcome");
    let tx = || transport::<RpcTransactionError>("send_tx", timeout(), "operation timed out");
    vec![
        (
            "Error, Transport",
            Box::new(transport::<RpcQueryError>(
                "query",
                TransportErrorKind::Connect,
                "tcp connect error: connection refused",
            )),
        ),
        (
            "Error, Transport (redirect)",
            Box::new(transport::<RpcQueryError>(
                "query",
                TransportErrorKind::Redirect {
                    status: 302,
                    location: "https://other.example.org/***".to_owned(),
                },
                "",
            )),
        ),
        ("Error, Decode", Box::new(decode::<RpcQueryError>("block"))),
        (
            "BuildError::InvalidEndpoint",
            Box::new(BuildError::InvalidEndpoint(invalid_endpoint)),
        ),
        (
            "VerifyError::Status",
            Box::new(VerifyError::Status(Box::new(tx()))),
        ),
        (
            "VerifyError::NextBlock",
            Box::new(VerifyError::NextBlock(Box::new(transport::<
                RpcLightClientNextBlockError,
            >(
                "next_light_client_block",
                timeout(),
                "operation timed out",
            )))),
        ),
        (
            "VerifyError::Proof",
            Box::new(VerifyError::Proof(Box::new(decode::<
                RpcLightClientProofError,
            >(
                "light_client_proof"
            )))),
        ),
        (
            "VerifyError::Block",
            Box::new(VerifyError::Block(BlockError {
                step: BlockStep::Height,
                message: "height 7 is not above the head's 9".to_owned(),
            })),
        ),
        (
            "VerifyError::Outcome",
            Box::new(VerifyError::Outcome {
                id,
                error: ProofError {
                    step: ProofStep::OutcomeProof,
                    message: "the path ends at a different root".to_owned(),
                },
            }),
        ),
        ("ParseBlockIdError", Box::new(block_id)),
        (
            "SendError, AccessKey",
            Box::new(SendError::new(
                SendErrorKind::AccessKey(transport("query", timeout(), "operation timed out")),
                Vec::new(),
            )),
        ),
        (
            "SendError, Rejected",
            Box::new(SendError::new(
                SendErrorKind::Rejected(rpc("send_tx", invalid_nonce())),
                Vec::new(),
            )),
        ),
        (
            "SendError, Rejected (never sent)",
            Box::new(SendError::new(
                SendErrorKind::Rejected(transport(
                    "send_tx",
                    TransportErrorKind::Connect,
                    "tcp connect error: connection refused",
                )),
                Vec::new(),
            )),
        ),
        (
            "SendError, Unresolved",
            Box::new(SendError::new(SendErrorKind::Unresolved(tx()), Vec::new())),
        ),
    ]
}

/// The chain of an error: itself, then each source.
fn levels(error: &dyn std::error::Error) -> Vec<&dyn std::error::Error> {
    let mut levels = vec![error];
    let mut next = error.source();
    while let Some(level) = next {
        levels.push(level);
        next = level.source();
    }
    levels
}

#[test]
fn every_sourced_error_prints_its_cause_once() {
    for (name, error) in sourced() {
        let levels = levels(&*error);
        assert!(levels.len() > 1, "{name}: no source");
        let texts: Vec<String> = levels.iter().map(ToString::to_string).collect();
        for pair in texts.windows(2) {
            let (parent, cause) = (&pair[0], &pair[1]);
            assert!(!parent.is_empty() && !cause.is_empty(), "{name}: {texts:?}");
            assert!(
                !parent.contains(cause.as_str()),
                "{name}: {parent:?} repeats its cause {cause:?}"
            );
            // Nor any clause of it (`kind: message`): a parent that printed the cause's
            // message beside its own words would repeat it all the same.
            for clause in cause.split(": ").filter(|c| c.len() >= 12) {
                assert!(
                    !parent.contains(clause),
                    "{name}: {parent:?} repeats {clause:?} of its cause {cause:?}"
                );
            }
        }
        let report = ErrorReport(&*error).to_string();
        assert_eq!(report, texts.join(": "), "{name}");
        for text in &texts {
            assert_eq!(
                report.matches(text.as_str()).count(),
                1,
                "{name}: {text:?} is not in {report:?} exactly once"
            );
        }
    }
}

/// What each level says, so that the rule is not kept by printing nothing: the call
/// and its endpoint once (the transport's error does not repeat it), and every cause
/// in the report. Every endpoint failing has no one source: its text has each
/// failure's whole report.
#[test]
fn the_report_keeps_every_level() {
    let error = transport::<RpcQueryError>(
        "query",
        TransportErrorKind::Connect,
        "tcp connect error: connection refused",
    );
    assert_eq!(
        ErrorReport(&error).to_string(),
        "calling `query` on https://rpc.example.org failed: connect error: tcp connect \
         error: connection refused"
    );

    let error = decode::<RpcQueryError>("block");
    assert_eq!(
        ErrorReport(&error).to_string(),
        "cannot decode the response of `block` from https://rpc.example.org (HTTP 200): \
         at result.header.height: invalid type: string, expected u64"
    );

    let all = Error::<RpcQueryError>::new(
        "query",
        None,
        ErrorKind::AllEndpointsFailed(vec![
            transport("query", TransportErrorKind::Timeout, "operation timed out"),
            decode("query"),
        ]),
    );
    assert_eq!(
        all.to_string(),
        "`query` failed on every endpoint: [1] calling `query` on https://rpc.example.org \
         failed: timeout: operation timed out; [2] cannot decode the response of `query` \
         from https://rpc.example.org (HTTP 200): at result.header.height: invalid type: \
         string, expected u64"
    );

    let error = "not a block".parse::<BlockId>().unwrap_err();
    let report = ErrorReport(&error).to_string();
    assert!(
        report.starts_with("neither a block height (u64) nor a block hash: "),
        "{report}"
    );
    assert!(report.len() > "neither a block height (u64) nor a block hash: ".len());

    let error = SendError::new(
        SendErrorKind::Rejected(rpc("send_tx", invalid_nonce())),
        Vec::new(),
    );
    let report = ErrorReport(&error).to_string();
    assert!(report.starts_with("transaction was refused: "), "{report}");
    assert!(report.contains("INVALID_TRANSACTION"), "{report}");
}
