//! Archival routing: a read that a regular node cannot answer because the block is older
//! than what it keeps goes again to the archival endpoints, and only such reads.
//!
//! A regular node garbage-collects blocks, chunks, state and transactions older than a
//! few epochs (nearcore `chain/chain/src/garbage_collection.rs`; block headers stay), and
//! says so in one of these answers, which go to the archival endpoints:
//!
//! - `GARBAGE_COLLECTED_BLOCK` (`query` and the views, whose state at that block is gone;
//!   nearcore `chain/jsonrpc-primitives/src/types/query.rs`): always;
//! - `UNKNOWN_BLOCK` (`block`, `chunk`, `changes`, the views, ...: the block itself is
//!   gone, or was never there): when the request names a block by hash (a regular node
//!   cannot tell an old hash from one that does not exist), by `sync_checkpoint:
//!   "genesis"`, or by a height below the earliest block the node keeps
//!   (`sync_info.earliest_block_height` of its `status`, asked of the node that answered,
//!   once, only then). A height above it (not produced yet, or skipped) and a `finality`
//!   (the node's own head) stay with the regular node's answer;
//! - `UNKNOWN_CHUNK` to `chunk` by chunk hash: a collected chunk is unknown too;
//! - `UNKNOWN_TRANSACTION` to `tx` and `EXPERIMENTAL_tx_status`: a transaction's status
//!   is collected with its blocks (nearcore `chain/chain/src/garbage_collection.rs`
//!   clears its outcomes). The archival answer replaces the regular one only when it is a
//!   result: an archival node that does not know the transaction either (a fresh one it
//!   has not seen yet), or fails, leaves the regular node's `UNKNOWN_TRANSACTION`, so the
//!   write path reads exactly what it would without archival endpoints.
//!
//! Never routed: transactions (`send_tx`, `broadcast_tx_*`: a submission goes where it
//! was sent, and nowhere else), requests pinned to an endpoint (the write path asks the
//! node that refused a transaction, and no other), and any other answer. Archival
//! endpoints get no request first: a regular node answers everything it can.
//!
//! Both sides are full stacks of their own (retries, then failover in order among their
//! endpoints). Archival endpoints are numbered after the regular ones
//! ([`HttpResponse::endpoint_index`]), so that a position names one endpoint whichever
//! side answered, and a request pinned to an archival position goes to it.

use std::sync::Arc;

use serde_json::Value;

use super::super::transport::{BoxTransport, HttpResponse, RpcRequest, Transport};
use super::super::transport::{TransportError, TransportFuture};
use crate::client::redact::Secrets;
use crate::de::native::Peek;

/// The archival-routing layer over the regular endpoints' stack and the archival
/// endpoints' stack.
#[derive(Debug)]
pub struct Archival {
    regular: BoxTransport,
    regular_count: usize,
    archival: BoxTransport,
    label: Arc<str>,
}

/// What to do with a regular node's answer.
#[derive(Debug, PartialEq, Eq)]
enum Route {
    /// Keep it.
    Keep,
    /// Ask the archival endpoints, and return what they answer.
    Archival,
    /// Ask the archival endpoints if the height is below the earliest block the node
    /// that answered keeps.
    IfBelowKept(u64),
    /// Ask the archival endpoints, and return their answer only if it is a result.
    ArchivalIfKnown,
}

impl Archival {
    /// Routes over `regular` (a stack over `regular_count` endpoints, numbered from 0)
    /// and `archival` (numbered from `regular_count`).
    pub fn new(regular: BoxTransport, regular_count: usize, archival: BoxTransport) -> Self {
        let label = format!("{} (archival: {})", regular.describe(), archival.describe()).into();
        Self {
            regular,
            regular_count,
            archival,
            label,
        }
    }

    async fn route(&self, request: RpcRequest) -> Result<HttpResponse, TransportError> {
        if let Some(index) = request.pinned_endpoint {
            if let Some(archival_index) = index.checked_sub(self.regular_count) {
                let mut pinned = request;
                pinned.pinned_endpoint = Some(archival_index);
                return self.to_archival(pinned, "pinned").await;
            }
            return self.regular.send(request).await;
        }
        let outcome = self.regular.send(request.clone()).await;
        if request.submits_transaction {
            return outcome;
        }
        let route = match &outcome {
            Ok(response) => route(&request, response),
            Err(_) => Route::Keep,
        };
        let cause = match (&route, &outcome) {
            (Route::Keep, _) | (_, Err(_)) => String::new(),
            (_, Ok(response)) => match crate::de::native::peek(&response.body) {
                Peek::Error { cause, .. } => cause.unwrap_or_default(),
                _ => String::new(),
            },
        };
        match route {
            Route::Keep => outcome,
            Route::Archival => self.to_archival(request, &cause).await,
            Route::IfBelowKept(height) => {
                let answered_by = outcome.as_ref().map_or(0, |r| r.endpoint_index);
                match self.earliest_kept(&request, answered_by).await {
                    Some(earliest) if height >= earliest => outcome,
                    // Below it, or the node would not say: the archival endpoints know.
                    _ => self.to_archival(request, &cause).await,
                }
            }
            Route::ArchivalIfKnown => {
                let archival = self.to_archival(request, &cause).await;
                match &archival {
                    Ok(response) if is_result(response) => archival,
                    _ => outcome,
                }
            }
        }
    }

    /// `request` to the archival endpoints, their positions after the regular ones; `why`
    /// (the regular node's cause, or `pinned`) goes to the trace.
    async fn to_archival(
        &self,
        request: RpcRequest,
        why: &str,
    ) -> Result<HttpResponse, TransportError> {
        super::trace::to_archival(&request, why);
        let mut outcome = self.archival.send(request).await;
        match &mut outcome {
            Ok(response) => response.endpoint_index += self.regular_count,
            Err(error) => error.endpoint_index += self.regular_count,
        }
        outcome
    }

    /// The earliest block height the regular endpoint at `index` keeps (its `status`'s
    /// `sync_info.earliest_block_height`), if it says.
    async fn earliest_kept(&self, request: &RpcRequest, index: usize) -> Option<u64> {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":"{}","method":"status","params":[]}}"#,
            request.id
        );
        let mut status = RpcRequest::new("status", request.id, body, false);
        status.max_response_bytes = request.max_response_bytes;
        status.deadline = request.deadline;
        status.pinned_endpoint = Some(index);
        let response = self.regular.send(status).await.ok()?;
        if !response.is_success() {
            return None;
        }
        let json: Value = serde_json::from_slice(&response.body).ok()?;
        json.pointer("/result/sync_info/earliest_block_height")?
            .as_u64()
    }
}

/// Whether a response is a JSON-RPC result.
fn is_result(response: &HttpResponse) -> bool {
    response.is_success() && matches!(crate::de::native::peek(&response.body), Peek::Result)
}

/// Where a regular node's answer sends `request`.
fn route(request: &RpcRequest, response: &HttpResponse) -> Route {
    // A 2xx body without an `"error"` key is a result: not even peeked at.
    if response.is_success() && memchr::memmem::find(&response.body, b"\"error\"").is_none() {
        return Route::Keep;
    }
    let Peek::Error {
        cause: Some(cause), ..
    } = crate::de::native::peek(&response.body)
    else {
        return Route::Keep;
    };
    match (cause.as_str(), request.method) {
        ("GARBAGE_COLLECTED_BLOCK", _) => Route::Archival,
        ("UNKNOWN_BLOCK", _) => match named_block(request) {
            Named::Hash => Route::Archival,
            Named::Height(height) => Route::IfBelowKept(height),
            Named::Head => Route::Keep,
        },
        ("UNKNOWN_CHUNK", "chunk") => Route::Archival,
        ("UNKNOWN_TRANSACTION", "tx" | "EXPERIMENTAL_tx_status") => Route::ArchivalIfKnown,
        _ => Route::Keep,
    }
}

/// The block a request names.
#[derive(Debug, PartialEq, Eq)]
enum Named {
    /// A height.
    Height(u64),
    /// A hash (or anything else that is no height and no head: the archival endpoints
    /// judge it).
    Hash,
    /// The node's own head (a `finality`, `earliest_available`, no block at all).
    Head,
}

/// The block `request`'s params name: `block_id` (a height or a hash),
/// `sync_checkpoint`, a `finality`, or the positional `[block_id]` of `gas_price` and
/// `validators`.
fn named_block(request: &RpcRequest) -> Named {
    let Ok(json) = serde_json::from_slice::<Value>(&request.body) else {
        return Named::Hash;
    };
    let params = &json["params"];
    let id = match params {
        Value::Array(items) => items.first().unwrap_or(&Value::Null),
        Value::Object(members) => {
            if let Some(id) = members.get("block_id") {
                id
            } else if members.contains_key("finality") {
                return Named::Head;
            } else {
                return match members.get("sync_checkpoint").and_then(Value::as_str) {
                    Some("genesis") => Named::Hash,
                    Some(_) => Named::Head,
                    // `chunk` by chunk id, `light_client_proof` by its head: hashes.
                    None => Named::Hash,
                };
            }
        }
        _ => &Value::Null,
    };
    match id {
        Value::Null => Named::Head,
        Value::Number(n) => n.as_u64().map_or(Named::Hash, Named::Height),
        _ => Named::Hash,
    }
}

impl Transport for Archival {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        Box::pin(self.route(request))
    }

    fn describe(&self) -> String {
        self.label.to_string()
    }

    fn secrets(&self) -> Secrets {
        self.regular.secrets().union(&self.archival.secrets())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{block_on, RESULT};
    use super::super::{Fallback, Retry, RetryPolicy};
    use super::*;
    use crate::client::transport::{MockReply, MockTransport, TransportErrorKind};

    fn request(method: &'static str, params: &str) -> RpcRequest {
        let body = format!(r#"{{"jsonrpc":"2.0","id":"1","method":"{method}","params":{params}}}"#);
        let write = matches!(
            method,
            "send_tx" | "broadcast_tx_async" | "broadcast_tx_commit"
        );
        RpcRequest::new(method, 1, body, write)
    }

    fn handler_error(cause: &str) -> MockReply {
        MockReply::json(format!(
            r#"{{"jsonrpc":"2.0","id":"1","error":{{"name":"HANDLER_ERROR","cause":{{"name":"{cause}","info":{{}}}},"code":-32000,"message":"Server error","data":"x"}}}}"#
        ))
    }

    fn status(earliest: u64, latest: u64) -> MockReply {
        MockReply::json(format!(
            r#"{{"jsonrpc":"2.0","id":"1","result":{{"sync_info":{{"earliest_block_height":{earliest},"latest_block_height":{latest}}}}}}}"#
        ))
    }

    /// The layer over one regular and one archival scripted endpoint.
    fn layer(regular: &MockTransport, archival: &MockTransport) -> Archival {
        Archival::new(Arc::new(regular.clone()), 1, Arc::new(archival.clone()))
    }

    fn methods(mock: &MockTransport) -> Vec<&'static str> {
        mock.requests().iter().map(|r| r.method).collect()
    }

    /// `GARBAGE_COLLECTED_BLOCK` goes to the archival endpoint, which gets exactly that
    /// read, and its answer comes back numbered after the regular endpoint.
    #[test]
    fn a_garbage_collected_read_goes_to_the_archival_endpoint() {
        let regular = MockTransport::new("regular", [handler_error("GARBAGE_COLLECTED_BLOCK")]);
        let archival = MockTransport::new("archival", [MockReply::json(RESULT)]);
        let query = request(
            "query",
            r#"{"request_type":"view_account","account_id":"a.near","block_id":5}"#,
        );
        let response = block_on(layer(&regular, &archival).send(query.clone())).unwrap();
        assert_eq!(
            (response.endpoint.as_ref(), response.endpoint_index),
            ("archival", 1)
        );
        assert_eq!(methods(&regular), ["query"]);
        let sent = archival.requests();
        assert_eq!(sent.len(), 1);
        assert_eq!((sent[0].method, &sent[0].body), ("query", &query.body));
    }

    /// What a regular node answers otherwise stays with it: no archival request at all.
    #[test]
    fn other_answers_stay_with_the_regular_node() {
        let answers = [
            MockReply::json(RESULT),
            handler_error("UNKNOWN_ACCOUNT"),
            handler_error("UNKNOWN_TRANSACTION"),
            MockReply::status(503, "busy"),
            MockReply::error(TransportErrorKind::Connect),
        ];
        for answer in answers {
            let described = format!("{answer:?}");
            let regular = MockTransport::new("regular", [answer]);
            let archival = MockTransport::new("archival", [MockReply::json(RESULT)]);
            let _ = block_on(layer(&regular, &archival).send(request(
                "query",
                r#"{"request_type":"view_account","account_id":"a.near","block_id":5}"#,
            )));
            assert!(archival.requests().is_empty(), "{described}");
        }
    }

    /// A transaction never goes to the archival endpoints, whatever the regular node
    /// says; nor does a request pinned to a regular endpoint.
    #[test]
    fn writes_and_pinned_requests_never_go() {
        for cause in [
            "GARBAGE_COLLECTED_BLOCK",
            "UNKNOWN_BLOCK",
            "UNKNOWN_TRANSACTION",
        ] {
            for method in ["send_tx", "broadcast_tx_async", "broadcast_tx_commit"] {
                let regular = MockTransport::new("regular", [handler_error(cause)]);
                let archival = MockTransport::new("archival", [MockReply::json(RESULT)]);
                let response = block_on(
                    layer(&regular, &archival)
                        .send(request(method, r#"{"signed_tx_base64":"AA=="}"#)),
                )
                .unwrap();
                assert_eq!(response.endpoint.as_ref(), "regular", "{method} {cause}");
                assert!(archival.requests().is_empty(), "{method} {cause}");
            }
            let regular = MockTransport::new("regular", [handler_error(cause)]);
            let archival = MockTransport::new("archival", [MockReply::json(RESULT)]);
            let mut pinned = request(
                "EXPERIMENTAL_tx_status",
                r#"{"tx_hash":"x","sender_account_id":"a.near"}"#,
            );
            pinned.pinned_endpoint = Some(0);
            block_on(layer(&regular, &archival).send(pinned)).unwrap();
            assert!(archival.requests().is_empty(), "pinned {cause}");
        }
    }

    /// `UNKNOWN_BLOCK` for a height goes only when the height is below the earliest block
    /// the answering node keeps: above its head (not produced yet), it stays.
    #[test]
    fn unknown_block_goes_only_below_what_the_node_keeps() {
        // (params, routed, whether the node is asked what it keeps)
        let cases = [
            (r#"{"block_id":5}"#, true, true),
            (r#"{"block_id":99}"#, false, true),
            (r#"{"block_id":150}"#, false, true),
            (
                r#"{"block_id":"9Yz1aSzdF8gNc5PsNYgsr7gZeqbyXzLd8oNYMQZaXKob"}"#,
                true,
                false,
            ),
            (r#"{"sync_checkpoint":"genesis"}"#, true, false),
            (r#"{"sync_checkpoint":"earliest_available"}"#, false, false),
            (r#"{"finality":"final"}"#, false, false),
            (r#"[5]"#, true, true),
            (r#"[120]"#, false, true),
            (r#"[null]"#, false, false),
        ];
        for (params, routed, asks) in cases {
            let regular =
                MockTransport::new("regular", [handler_error("UNKNOWN_BLOCK"), status(10, 100)]);
            let archival = MockTransport::new("archival", [MockReply::json(RESULT)]);
            let response =
                block_on(layer(&regular, &archival).send(request("block", params))).unwrap();
            assert_eq!(archival.requests().len(), usize::from(routed), "{params}");
            let expected = if routed { "archival" } else { "regular" };
            assert_eq!(response.endpoint.as_ref(), expected, "{params}");
            let expected: &[&str] = if asks {
                &["block", "status"]
            } else {
                &["block"]
            };
            assert_eq!(methods(&regular), expected, "{params}");
        }
        // A node that will not say what it keeps: the archival endpoint judges.
        let regular = MockTransport::new(
            "regular",
            [
                handler_error("UNKNOWN_BLOCK"),
                MockReply::status(503, "busy"),
            ],
        );
        let archival = MockTransport::new("archival", [MockReply::json(RESULT)]);
        block_on(layer(&regular, &archival).send(request("block", r#"{"block_id":150}"#))).unwrap();
        assert_eq!(methods(&archival), ["block"]);
    }

    /// A transaction's status goes when the regular node does not know it, and the
    /// archival answer replaces the regular one only when it is a result.
    #[test]
    fn tx_status_takes_the_archival_answer_only_when_known() {
        let params = r#"{"tx_hash":"x","sender_account_id":"a.near"}"#;
        for (archival_answer, from_archival) in [
            (MockReply::json(RESULT), true),
            (handler_error("UNKNOWN_TRANSACTION"), false),
            (handler_error("TIMEOUT_ERROR"), false),
            (MockReply::error(TransportErrorKind::Connect), false),
        ] {
            let described = format!("{archival_answer:?}");
            let regular = MockTransport::new("regular", [handler_error("UNKNOWN_TRANSACTION")]);
            let archival = MockTransport::new("archival", [archival_answer]);
            let response =
                block_on(layer(&regular, &archival).send(request("tx", params))).unwrap();
            let expected = if from_archival { "archival" } else { "regular" };
            assert_eq!(response.endpoint.as_ref(), expected, "{described}");
            assert!(!archival.requests().is_empty(), "{described}");
        }
    }

    /// The archival side is retried and fails over among its own endpoints, in order;
    /// the regular side is never asked again.
    #[test]
    fn archival_endpoints_retry_and_fail_over_among_themselves() {
        let regular = MockTransport::new("regular", [handler_error("GARBAGE_COLLECTED_BLOCK")]);
        let first = MockTransport::new(
            "archival-1",
            [MockReply::error(TransportErrorKind::Connect)],
        );
        let second = MockTransport::new(
            "archival-2",
            [MockReply::status(503, "busy"), MockReply::json(RESULT)],
        );
        let archival: BoxTransport = Arc::new(Retry::new(
            Arc::new(Fallback::new(vec![
                Arc::new(first.clone()),
                Arc::new(second.clone()),
            ])),
            RetryPolicy::default(),
        ));
        let regulars: BoxTransport = Arc::new(Fallback::new(vec![
            Arc::new(regular.clone()),
            Arc::new(MockTransport::new("regular-2", [MockReply::json(RESULT)])),
        ]));
        let layer = Archival::new(regulars, 2, archival);
        let response = block_on(layer.send(request("query", r#"{"block_id":3}"#))).unwrap();
        assert_eq!(
            (response.endpoint.as_ref(), response.endpoint_index),
            ("archival-2", 3)
        );
        assert_eq!(regular.requests().len(), 1);
        // Round one: first fails to connect, second is busy; round two: first again, then
        // second answers.
        assert_eq!((first.requests().len(), second.requests().len()), (2, 2));

        // Pinned to an archival position, a request goes to that endpoint alone.
        let mut pinned = request("block", r#"{"block_id":3}"#);
        pinned.pinned_endpoint = Some(3);
        let response = block_on(layer.send(pinned)).unwrap();
        assert_eq!(response.endpoint_index, 3);
        assert_eq!(regular.requests().len(), 1);
        assert_eq!((first.requests().len(), second.requests().len()), (2, 3));
    }

    #[test]
    fn secrets_and_label_cover_both_sides() {
        let regular = MockTransport::new("regular", []).with_secret("k1-secret-value");
        let archival = MockTransport::new("archival", []).with_secret("k2-secret-value");
        let layer = layer(&regular, &archival);
        let scrubbed = layer
            .secrets()
            .scrub("k1-secret-value k2-secret-value")
            .into_owned();
        assert!(!scrubbed.contains("secret"), "{scrubbed}");
        assert_eq!(layer.describe(), "regular (archival: archival)");
    }
}
