//! The client against a real HTTP server on loopback: request bodies and paths for both
//! path styles, every error class, retries and Retry-After, timeouts, failover, the size
//! limit, and redaction of API keys on every error path; the waits (backoff,
//! Retry-After, the deadline) with a scripted transport on tokio's paused clock. The
//! hostile cases (redirects, echoes, bad URLs, endless bodies, wrong ids, TLS) are in
//! `client_hostile.rs`.

#![cfg(feature = "client")]

use crate::support;

use std::time::{Duration, Instant};

use near_rpc::client::layers::RetryPolicy;
use near_rpc::client::transport::{PathStyle, TransportError, TransportErrorKind};
use near_rpc::client::{ApiKey, ClientBuilder, Error, ErrorKind};
use near_rpc::types::{RpcBlockRequest, RpcTransactionError, SyncCheckpoint, TxExecutionStatus};
use near_rpc::{envelope::ErrorCause, methods, BlockId, CryptoHash};
use near_rpc::{Client, Finality};
use serde_json::json;
use support::{refused_url, Reply, TestServer};

const KEY: &str = "SeCrEt-ApI-KeY-42";

/// Retries without waiting: these tests count attempts over real sockets, under which
/// tokio's clock cannot be paused, so no real time passes between attempts. The waits
/// are measured on the paused clock, with a scripted transport
/// (`retries_back_off_and_then_succeed`, `retry_after_is_honoured`).
fn fast_retry() -> RetryPolicy {
    RetryPolicy {
        initial_backoff: Duration::ZERO,
        max_backoff: Duration::ZERO,
        ..RetryPolicy::default()
    }
}

fn builder(url: &str) -> ClientBuilder {
    Client::builder()
        .endpoint(url)
        .expect("valid URL")
        .retry(fast_retry())
}

const STATUS_OK: &str =
    r#"{"jsonrpc":"2.0","id":"1","result":{"final_execution_status":"INCLUDED"}}"#;
const HASH: &str = "11111111111111111111111111111111";

fn tx_ref() -> (CryptoHash, near_rpc::AccountId) {
    (HASH.parse().unwrap(), "alice.near".parse().unwrap())
}

fn block_final() -> RpcBlockRequest {
    RpcBlockRequest {
        block_reference: Finality::Final.into(),
    }
}

/// No error text may reveal the key, whatever the error.
fn assert_redacted<E: std::fmt::Debug + serde::Serialize>(error: &Error<E>) {
    let shown = format!("{error} {error:?}");
    assert!(!shown.contains(KEY), "the API key leaked: {shown}");
}

#[tokio::test]
async fn json_rpc_post_to_the_base_url() {
    let server = TestServer::start(vec![Reply::json(STATUS_OK)]);
    let client = builder(&server.url(&format!("/{KEY}"))).build().unwrap();
    let response = client.tx_status(tx_ref(), None).await.unwrap();
    assert_eq!(response.final_execution_status, TxExecutionStatus::Included);
    assert!(response.outcome.is_none());

    let request = &server.requests()[0];
    assert_eq!(
        (request.http_method.as_str(), request.path.as_str()),
        ("POST", &*format!("/{KEY}"))
    );
    assert_eq!(request.header("content-type"), Some("application/json"));
    let body = request.json();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["method"], "EXPERIMENTAL_tx_status");
    assert!(body["id"].is_string(), "ids are strings by default: {body}");
    assert_eq!(
        body["params"],
        json!({"tx_hash": HASH, "sender_account_id": "alice.near", "wait_until": "EXECUTED_OPTIMISTIC"})
    );
}

#[tokio::test]
async fn method_in_path_transport_and_header_keys() {
    let server = TestServer::start(vec![Reply::json(
        r#"{"jsonrpc":"2.0","id":1,"result":{"final_execution_status":"FINAL"}}"#,
    )]);
    let client = builder(&server.url("/v1"))
        .path_style(PathStyle::MethodInPath)
        .api_key(ApiKey::x_api_key(KEY).unwrap())
        .build()
        .unwrap();
    let response = client
        .tx(tx_ref(), Some(TxExecutionStatus::Final))
        .await
        .unwrap();
    assert_eq!(response.final_execution_status, TxExecutionStatus::Final);
    let request = &server.requests()[0];
    assert_eq!(request.path, "/v1/tx");
    assert_eq!(request.header("x-api-key"), Some(KEY));
    assert_eq!(request.json()["params"]["wait_until"], "FINAL");
    assert!(!format!("{client:?}").contains(KEY));

    let server = TestServer::start(vec![Reply::json(STATUS_OK)]);
    let client = builder(&server.url(""))
        .api_key(ApiKey::bearer(KEY).unwrap())
        .build()
        .unwrap();
    client.tx_status(tx_ref(), None).await.unwrap();
    assert_eq!(
        server.requests()[0].header("authorization"),
        Some(&*format!("Bearer {KEY}"))
    );
}

#[tokio::test]
async fn core_method_wrappers_send_the_right_params() {
    let config = r#"{"jsonrpc":"2.0","id":"1","result":{"protocol_version":73}}"#;
    let server = TestServer::start(vec![Reply::json(config)]);
    let client = builder(&server.url("")).build().unwrap();
    let at_final = client.protocol_config_at(Finality::Final).await.unwrap();
    assert_eq!(at_final.protocol_version, Some(73));
    client
        .protocol_config_at(BlockId::Height(42))
        .await
        .unwrap();
    client
        .protocol_config_at(SyncCheckpoint::Genesis)
        .await
        .unwrap();
    // That result is no genesis config: the decode error names what is missing.
    let err = client.genesis_config().await.unwrap_err();
    let ErrorKind::Decode {
        error, status: 200, ..
    } = err.kind()
    else {
        panic!("{err}")
    };
    assert_eq!(error.path(), "result", "{err}");
    assert!(error.message().contains("missing field"), "{err}");
    let params: Vec<_> = server
        .requests()
        .iter()
        .map(|r| r.json()["params"].clone())
        .collect();
    assert_eq!(
        params,
        [
            json!({"finality": "final"}),
            json!({"block_id": 42}),
            json!({"sync_checkpoint": "genesis"}),
            json!(null)
        ]
    );
}

#[tokio::test]
async fn json_rpc_errors_are_decoded_whatever_the_http_status() {
    for status in [200, 400, 408, 422, 500] {
        let body = r#"{"jsonrpc":"2.0","id":"1","error":{"name":"HANDLER_ERROR",
            "cause":{"name":"UNKNOWN_TRANSACTION","info":{"requested_transaction_hash":"11111111111111111111111111111111"}},
            "code":-32000,"message":"Server error","data":"tx not found"}}"#;
        let server = TestServer::start(vec![Reply::status(status, body)]);
        let client = builder(&server.url(&format!("/{KEY}")))
            .retry(RetryPolicy::none())
            .build()
            .unwrap();
        let err = client.tx_status(tx_ref(), None).await.unwrap_err();
        assert_redacted(&err);
        let ErrorKind::Rpc {
            status: got, error, ..
        } = err.kind()
        else {
            panic!("HTTP {status}: {err}")
        };
        assert_eq!(*got, status);
        assert!(
            matches!(
                error.cause,
                ErrorCause::Handler(RpcTransactionError::UnknownTransaction { .. })
            ),
            "{err}"
        );
        assert_eq!(
            (error.code, error.message.as_deref()),
            (Some(-32000), Some("Server error"))
        );
        assert_eq!(error.data, Some(json!("tx not found")));
        assert_eq!(err.is_retryable(), status == 408, "HTTP {status}");
    }
}

#[tokio::test]
async fn validation_errors_and_internal_errors_are_typed() {
    let body = r#"{"jsonrpc":"2.0","id":"1","error":{"name":"REQUEST_VALIDATION_ERROR",
        "cause":{"name":"PARSE_ERROR","info":{"error_message":"bad params"}},"code":-32700,"message":"Parse error"}}"#;
    let server = TestServer::start(vec![Reply::status(400, body)]);
    let client = builder(&server.url("")).build().unwrap();
    let err = client
        .call::<methods::BlockMethod>(block_final())
        .await
        .unwrap_err();
    let rpc = err.rpc_error().expect("a JSON-RPC error");
    assert!(
        matches!(rpc.cause, ErrorCause::RequestValidation(_)),
        "{err}"
    );
    assert!(!err.is_retryable());
    assert_eq!(
        server.requests().len(),
        1,
        "validation errors are not retried"
    );
}

#[tokio::test]
async fn http_errors_without_a_json_rpc_body_keep_status_and_body() {
    let server = TestServer::start(vec![Reply::status(502, "<html>bad gateway</html>")]);
    let client = builder(&server.url(&format!("/{KEY}")))
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let err = client
        .call::<methods::BlockMethod>(block_final())
        .await
        .unwrap_err();
    assert_redacted(&err);
    let ErrorKind::Http {
        status: 502,
        body,
        json: None,
        ..
    } = err.kind()
    else {
        panic!("{err}")
    };
    assert!(body.contains("bad gateway"));
    assert!(err.is_retryable());
    assert!(err.to_string().contains("HTTP 502"), "{err}");
}

#[tokio::test]
async fn undecodable_responses_name_the_path_and_keep_the_body() {
    let body = r#"{"jsonrpc":"2.0","id":"1","result":{"final_execution_status":"INCLUDED",
        "status":{"SuccessValue":""},"transaction":{},"transaction_outcome":5,"receipts_outcome":[]}}"#;
    let server = TestServer::start(vec![Reply::json(body)]);
    let client = builder(&server.url(&format!("/{KEY}"))).build().unwrap();
    let err = client.tx(tx_ref(), None).await.unwrap_err();
    assert_redacted(&err);
    let ErrorKind::Decode {
        error,
        body: kept,
        status: 200,
        ..
    } = err.kind()
    else {
        panic!("{err}")
    };
    assert!(error.path().starts_with("result"), "{err}");
    assert!(kept.contains("transaction_outcome"));
    assert!(!err.is_retryable());
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn oversized_responses_are_refused() {
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":"1","result":"{}"}}"#,
        "x".repeat(100_000)
    );
    let server = TestServer::start(vec![Reply::json(&big)]);
    let client = builder(&server.url(&format!("/{KEY}")))
        .max_response_bytes(10_000)
        .build()
        .unwrap();
    let err = client
        .call::<methods::BlockMethod>(block_final())
        .await
        .unwrap_err();
    assert_redacted(&err);
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Transport(TransportError {
                kind: TransportErrorKind::TooLarge { limit: 10_000, .. },
                ..
            })
        ),
        "{err}"
    );
}

#[tokio::test]
async fn timeouts_are_transport_errors() {
    let server = TestServer::start(vec![Reply::json(STATUS_OK).delayed(Duration::from_secs(3))]);
    let client = builder(&server.url(&format!("/{KEY}")))
        .timeout(Duration::from_millis(200))
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let started = Instant::now();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_redacted(&err);
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Transport(TransportError {
                kind: TransportErrorKind::Timeout,
                ..
            })
        ),
        "{err}"
    );
    assert!(err.is_retryable());
}

#[tokio::test]
async fn connection_failures_are_transport_errors_without_the_key() {
    let url = format!("{}/{KEY}", refused_url());
    let client = builder(&url).retry(RetryPolicy::none()).build().unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert_redacted(&err);
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Transport(TransportError {
                kind: TransportErrorKind::Connect,
                ..
            })
        ),
        "{err}"
    );
}

/// A scripted transport that notes when, on tokio's clock, each attempt reaches it.
#[derive(Debug, Clone)]
struct Timed {
    inner: near_rpc::client::transport::MockTransport,
    at: std::sync::Arc<std::sync::Mutex<Vec<tokio::time::Instant>>>,
}

impl Timed {
    fn new(replies: Vec<near_rpc::client::transport::MockReply>) -> Self {
        Self {
            inner: near_rpc::client::transport::MockTransport::new("node", replies),
            at: Default::default(),
        }
    }

    /// The waits between consecutive attempts.
    fn gaps(&self) -> Vec<Duration> {
        let at = self.at.lock().unwrap();
        at.windows(2).map(|w| w[1] - w[0]).collect()
    }
}

impl near_rpc::client::transport::Transport for Timed {
    fn send(
        &self,
        request: near_rpc::client::transport::RpcRequest,
    ) -> near_rpc::client::transport::TransportFuture<'_> {
        self.at.lock().unwrap().push(tokio::time::Instant::now());
        self.inner.send(request)
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }
}

/// Each retry waits, on tokio's paused clock, a jittered time within its exponential
/// ceiling (the default policy: up to 250 ms, then up to 500 ms), never none, and the
/// call then succeeds. (A zero draw of the jitter is one chance in 250 million.)
#[tokio::test(start_paused = true)]
async fn retries_back_off_and_then_succeed() {
    use near_rpc::client::transport::MockReply;
    let timed = Timed::new(vec![
        MockReply::status(503, "busy"),
        MockReply::status(429, "slow down"),
        MockReply::json(STATUS_OK),
    ]);
    let client = Client::builder().transport(timed.clone()).build().unwrap();
    client.tx_status(tx_ref(), None).await.unwrap();
    let gaps = timed.gaps();
    assert_eq!(gaps.len(), 2, "three attempts: {gaps:?}");
    let policy = RetryPolicy::default();
    for (retry, gap) in gaps.into_iter().enumerate() {
        let ceiling = policy.initial_backoff * (1 << retry);
        assert!(
            gap > Duration::ZERO && gap <= ceiling,
            "retry {retry} waited {gap:?}; its ceiling is {ceiling:?}"
        );
    }
}

/// `Retry-After` sets the wait before the retry (on tokio's paused clock: the scripted
/// transport answers in process, so the virtual time measured is the client's own wait).
#[tokio::test(start_paused = true)]
async fn retry_after_is_honoured() {
    use near_rpc::client::transport::{MockReply, MockTransport};
    let mock = MockTransport::new(
        "node",
        [
            MockReply::status(503, "busy").header("retry-after", "7"),
            MockReply::json(STATUS_OK),
        ],
    );
    let client = near_rpc::Client::builder()
        .transport(mock.clone())
        .build()
        .unwrap();
    let started = tokio::time::Instant::now();
    client.tx_status(tx_ref(), None).await.unwrap();
    // The header's 7 s, not the backoff's 250 ms (nor its jitter).
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_secs(7) && waited < Duration::from_secs(8),
        "waited {waited:?}"
    );
    assert_eq!(mock.requests().len(), 2);
}

/// A `Retry-After` longer than the policy allows ends the call with the error, over HTTP.
#[tokio::test]
async fn a_retry_after_past_the_policy_ends_the_call() {
    let server = TestServer::start(vec![
        Reply::status(429, "later").header("retry-after", "3600")
    ]);
    let client = builder(&server.url("")).build().unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert_eq!(err.retry_after(), Some(Duration::from_secs(3600)));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn retries_give_up_after_the_limit() {
    let server = TestServer::start(vec![Reply::status(503, "busy")]);
    let client = builder(&server.url("")).build().unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert_eq!(err.status(), Some(503));
    assert_eq!(server.requests().len(), 4, "one attempt and three retries");

    let server = TestServer::start(vec![Reply::status(503, "busy").header("retry-after", "0")]);
    let client = builder(&server.url("")).build().unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert_eq!(err.status(), Some(503));
    assert_eq!(
        server.requests().len(),
        4,
        "Retry-After: 0 is still bounded"
    );
}

#[tokio::test]
async fn timeout_error_from_the_node_is_retried() {
    let timeout = r#"{"jsonrpc":"2.0","id":"1","error":{"name":"HANDLER_ERROR","cause":{"name":"TIMEOUT_ERROR"},"code":-32000,"message":"Server error"}}"#;
    let server = TestServer::start(vec![Reply::status(200, timeout), Reply::json(STATUS_OK)]);
    let client = builder(&server.url("")).build().unwrap();
    client.tx_status(tx_ref(), None).await.unwrap();
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn writes_are_not_retried_unless_the_caller_opts_in() {
    let params = || near_rpc::types::RpcSendTransactionRequest {
        signed_tx_base64: near_rpc::types::SignedTransaction("AAAA".into()),
        wait_until: None,
    };
    let server = TestServer::start(vec![Reply::status(503, "busy"), Reply::json(STATUS_OK)]);
    let client = builder(&server.url("")).build().unwrap();
    let err = client
        .call::<methods::SendTxMethod>(params())
        .await
        .unwrap_err();
    assert!(
        err.is_retryable(),
        "retryable in general, but not for a write"
    );
    assert_eq!(
        server.requests().len(),
        1,
        "send_tx must not be retried by default"
    );

    let server = TestServer::start(vec![Reply::status(503, "busy"), Reply::json(STATUS_OK)]);
    let retry = RetryPolicy {
        retry_writes: true,
        ..fast_retry()
    };
    let client = builder(&server.url("")).retry(retry).build().unwrap();
    client
        .call::<methods::SendTxMethod>(params())
        .await
        .unwrap();
    assert_eq!(server.requests().len(), 2);
}

/// A refused endpoint, then one answering 503, then a good one, then a spare: the call
/// goes down the list in order and stops at the first answer (the failing one was
/// reached, so it came before the good one; the spare after it never was).
#[tokio::test]
async fn failover_moves_to_the_next_endpoint_in_order() {
    let failing = TestServer::start(vec![Reply::status(503, "busy")]);
    let good = TestServer::start(vec![Reply::json(STATUS_OK)]);
    let spare = TestServer::start(vec![Reply::json(STATUS_OK)]);
    let client = Client::builder()
        .endpoint(&format!("{}/{KEY}", refused_url()))
        .unwrap()
        .endpoint(&failing.url(""))
        .unwrap()
        .endpoint(&good.url(""))
        .unwrap()
        .endpoint(&spare.url(""))
        .unwrap()
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    client.tx_status(tx_ref(), None).await.unwrap();
    let counts = [&failing, &good, &spare].map(|server| server.requests().len());
    assert_eq!(counts, [1, 1, 0]);
}

/// One deadline for the whole call, on tokio's paused clock: the first endpoint fails
/// after 3 s, the second would answer 3 s later, and the 5 s deadline ends the call at
/// exactly 5 s, in the second endpoint's attempt. (A deadline per endpoint would have let
/// the second answer, at 6 s.)
#[tokio::test(start_paused = true)]
async fn the_deadline_bounds_the_whole_call() {
    use near_rpc::client::transport::{MockReply, MockTransport};
    let slow = Duration::from_secs(3);
    let first = MockTransport::new("first", [MockReply::status(503, "busy").delayed(slow)]);
    let second = MockTransport::new("second", [MockReply::json(STATUS_OK).delayed(slow)]);
    let client = Client::builder()
        .transport(first.clone())
        .transport(second.clone())
        .deadline(Duration::from_secs(5))
        .build()
        .unwrap();
    let started = tokio::time::Instant::now();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert_eq!(started.elapsed(), Duration::from_secs(5));
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Transport(TransportError {
                kind: TransportErrorKind::Deadline { .. },
                ..
            })
        ),
        "{err}"
    );
    assert_eq!((first.requests().len(), second.requests().len()), (1, 1));
}

#[test]
fn building_needs_an_endpoint_and_validates_it() {
    assert!(Client::builder().build().is_err());
    let err = Client::builder()
        .endpoint(&format!("ftp://h.io/{KEY}"))
        .unwrap_err();
    assert!(!err.to_string().contains(KEY));
}

/// A retry count above the cap is refused by `build`, naming the option, the value and
/// the cap, rather than silently capped; the cap itself is accepted.
#[test]
fn a_retry_count_over_the_cap_is_refused_not_capped() {
    use near_rpc::client::layers::MAX_RETRIES;
    use near_rpc::client::BuildError;
    let with = |max_retries: u32| {
        builder("http://127.0.0.1:1")
            .retry(RetryPolicy {
                max_retries,
                ..fast_retry()
            })
            .build()
    };
    with(0).unwrap();
    with(MAX_RETRIES).unwrap();
    for value in [MAX_RETRIES + 1, u32::MAX] {
        let err = with(value).unwrap_err();
        assert!(
            matches!(
                err,
                BuildError::OutOfRange { option: "RetryPolicy::max_retries", value: v, max }
                    if v == u64::from(value) && max == u64::from(MAX_RETRIES)
            ),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "RetryPolicy::max_retries is {value}, more than the most allowed, {MAX_RETRIES}"
            )
        );
    }
}

#[tokio::test]
async fn decoding_errors_inside_a_query_answer_name_the_full_path() {
    let account = r#"{"jsonrpc":"2.0","id":"1","result":{"block_hash":"11111111111111111111111111111111",
        "block_height":1,"amount":"1","locked":"0","code_hash":"11111111111111111111111111111111",
        "storage_usage":"many","storage_paid_at":0}}"#;
    let call = r#"{"jsonrpc":"2.0","id":"1","result":{"block_hash":"11111111111111111111111111111111",
        "block_height":1,"result":[1,2,"x"],"logs":[]}}"#;
    for (body, path) in [
        (account, "result.storage_usage"),
        (call, "result.result[2]"),
    ] {
        let server = TestServer::start(vec![Reply::json(body)]);
        let client = builder(&server.url("")).build().unwrap();
        let request = near_rpc::types::RpcQueryRequest {
            block_reference: Finality::Final.into(),
            kind: near_rpc::types::RpcQueryRequestKind::ViewAccount {
                account_id: "alice.near".parse().unwrap(),
            },
        };
        let err = client
            .call::<methods::QueryMethod>(request)
            .await
            .unwrap_err();
        let ErrorKind::Decode { error, .. } = err.kind() else {
            panic!("{err}")
        };
        assert_eq!(error.path(), path, "{err}");
    }
}
