//! The client against endpoints that misbehave: redirects, servers that echo the API key
//! back, bad URLs, endless bodies, wrong ids, TLS spoken to a plain server, failover
//! under every kind of endpoint failure. Real HTTP on loopback throughout.
//!
//! The redaction test is a product: every place a key can be given × every place a
//! server can echo it (and so every error variant that carries server text) × one or
//! two endpoints, each checked in every place an error is printed.

#![cfg(feature = "client")]

use crate::support;

use std::time::Duration;

use near_rpc::client::layers::RetryPolicy;
use near_rpc::client::transport::{
    RedirectPolicy, TransportError, TransportErrorKind, DEFAULT_MAX_RESPONSE_BYTES,
};
use near_rpc::client::{ApiKey, ClientBuilder, Endpoint, Error, ErrorKind};
use near_rpc::methods;
use near_rpc::types::{
    RpcBlockRequest, RpcSendTransactionRequest, RpcTransactionError, SignedTransaction,
};
use near_rpc::{Client, ErrorReport, Finality};
use support::{refused_url, Reply, TestServer};

const KEY: &str = "sk1live9QmX4tR7zW2pL8vN3c";

const RESULT: &str = r#"{"jsonrpc":"2.0","id":"1","result":{"final_execution_status":"FINAL"}}"#;

fn tx_ref() -> (near_rpc::CryptoHash, near_rpc::AccountId) {
    (
        "11111111111111111111111111111111".parse().unwrap(),
        "alice.near".parse().unwrap(),
    )
}

fn no_retry(builder: ClientBuilder) -> ClientBuilder {
    builder.retry(RetryPolicy::none())
}

/// Every way an error is printed, joined.
fn printed<E: std::fmt::Debug + serde::Serialize>(error: &Error<E>) -> String {
    let mut text = format!("{error}\n{error:?}");
    let mut source = std::error::Error::source(error);
    while let Some(s) = source {
        text.push_str(&format!("\n{s}\n{s:?}"));
        source = s.source();
    }
    text
}

#[derive(Debug, Clone, Copy)]
enum KeyPlace {
    Path,
    Query,
    Header,
    Bearer,
    /// A label of the host (`http://KEY.invalid:1/`): no server is reached.
    HostLabel,
    /// The URL's user-info (`http://user:KEY@host/`), which goes out as Basic auth.
    UserInfo,
}

impl KeyPlace {
    const ALL: [KeyPlace; 6] = [
        Self::Path,
        Self::Query,
        Self::Header,
        Self::Bearer,
        Self::HostLabel,
        Self::UserInfo,
    ];

    /// The endpoint URL the key is given in (or beside).
    fn url(self, server: &TestServer) -> String {
        match self {
            Self::Path => server.url(&format!("/v1/{KEY}")),
            Self::Query => server.url(&format!("/?apiKey={KEY}")),
            Self::Header | Self::Bearer => server.url("/"),
            // `.invalid` never resolves (RFC 6761), and port 1 is refused anyway.
            Self::HostLabel => format!("http://{KEY}.invalid:1/"),
            Self::UserInfo => server
                .url("/")
                .replacen("://", &format!("://user:{KEY}@"), 1),
        }
    }

    /// Whether requests reach the server (and so whether its echo comes back).
    fn reaches_server(self) -> bool {
        !matches!(self, Self::HostLabel)
    }

    fn builder(self, server: &TestServer) -> ClientBuilder {
        let builder = Client::builder().endpoint(&self.url(server)).unwrap();
        match self {
            Self::Path | Self::Query | Self::HostLabel | Self::UserInfo => builder,
            Self::Header => builder.api_key(ApiKey::x_api_key(KEY).unwrap()),
            Self::Bearer => builder.api_key(ApiKey::bearer(KEY).unwrap()),
        }
    }
}

/// Whether `shown` has the key or a part of it, in any case (a host name is lowercased
/// by URL parsing, so the key may come back in lower case).
fn shows_key(shown: &str) -> bool {
    let shown = shown.to_ascii_lowercase();
    shown.contains(&KEY.to_ascii_lowercase()) || shown.contains("qmx4tr7z")
}

/// Where a server echoes the key, and the error that results.
#[derive(Debug, Clone, Copy)]
enum Echo {
    HtmlPage,
    RpcMessage,
    RpcData,
    Header,
    UndecodableBody,
    BadValue,
    Id,
    RedirectTarget,
}

impl Echo {
    const ALL: [Echo; 8] = [
        Self::HtmlPage,
        Self::RpcMessage,
        Self::RpcData,
        Self::Header,
        Self::UndecodableBody,
        Self::BadValue,
        Self::Id,
        Self::RedirectTarget,
    ];

    fn reply(self) -> Reply {
        let rpc = |message: &str, data: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":"1","error":{{"name":"HANDLER_ERROR","cause":{{"name":"UNKNOWN_TRANSACTION","info":{{"requested_transaction_hash":"11111111111111111111111111111111"}}}},"code":-32000,"message":"{message}","data":"{data}"}}}}"#
            )
        };
        match self {
            Self::HtmlPage => Reply::status(401, &format!("<html>invalid key {KEY}</html>")),
            Self::RpcMessage => Reply::status(200, &rpc(&format!("key {KEY} unknown"), "x")),
            Self::RpcData => Reply::status(400, &rpc("bad", &format!("for {KEY}"))),
            Self::Header => Reply::status(429, "slow down").header("x-echo", KEY),
            Self::UndecodableBody => Reply::json(&format!(
                r#"{{"jsonrpc":"2.0","id":"1","result":{{"k":"{KEY}""#
            )),
            Self::BadValue => Reply::json(&format!(
                r#"{{"jsonrpc":"2.0","id":"1","result":{{"final_execution_status":"{KEY}x","status":1}}}}"#
            )),
            Self::Id => Reply::json(&format!(
                r#"{{"jsonrpc":"2.0","id":"{KEY}","result":{{"final_execution_status":"FINAL"}}}}"#
            ))
            .keep_id(),
            Self::RedirectTarget => {
                Reply::redirect(302, &format!("https://{KEY}.example/{KEY}?k={KEY}"))
            }
        }
    }

    fn expected(self, error: &Error<RpcTransactionError>) -> bool {
        match self {
            Self::HtmlPage | Self::Header => matches!(error.kind(), ErrorKind::Http { .. }),
            Self::RpcMessage | Self::RpcData => matches!(error.kind(), ErrorKind::Rpc { .. }),
            Self::UndecodableBody | Self::BadValue => {
                matches!(error.kind(), ErrorKind::Decode { .. })
            }
            Self::Id => matches!(error.kind(), ErrorKind::IdMismatch { .. }),
            Self::RedirectTarget => matches!(
                error.kind(),
                ErrorKind::Transport(TransportError {
                    kind: TransportErrorKind::Redirect { .. },
                    ..
                })
            ),
        }
    }
}

#[tokio::test]
async fn no_key_is_ever_printed_whatever_the_server_echoes() {
    let mut checked = 0;
    for place in KeyPlace::ALL {
        // A place where no server is reached gets no echo: one run (with each endpoint
        // count) checks its connection error.
        let echoes: &[Echo] = if place.reaches_server() {
            &Echo::ALL
        } else {
            &Echo::ALL[..1]
        };
        for &echo in echoes {
            for second_endpoint in [false, true] {
                let server = TestServer::start(vec![echo.reply()]);
                let endpoint: Endpoint = place.url(&server).parse().unwrap();
                for shown in [endpoint.to_string(), format!("{endpoint:?}")] {
                    assert!(!shows_key(&shown), "{place:?}: {shown}");
                }
                let mut builder = no_retry(place.builder(&server));
                if second_endpoint {
                    // Failing too, so that the error lists both endpoints.
                    builder = builder.endpoint(&refused_url()).unwrap();
                }
                assert!(
                    !shows_key(&format!("{builder:?}")),
                    "{place:?}: {builder:?}"
                );
                let client = builder.build().unwrap();
                assert!(!shows_key(&format!("{client:?}")), "{place:?}: {client:?}");
                let err = client.tx_status(tx_ref(), None).await.unwrap_err();
                let shown = printed(&err);
                assert!(!shows_key(&shown), "{place:?} × {echo:?}: {shown}");
                let single = match err.kind() {
                    ErrorKind::AllEndpointsFailed(failures) => {
                        assert!(second_endpoint, "{err}");
                        assert_eq!(failures.len(), 2, "{err}");
                        &failures[0]
                    }
                    _ => &err,
                };
                if place.reaches_server() {
                    assert!(echo.expected(single), "{place:?} × {echo:?}: {err}");
                    // The echoed text itself is kept, masked.
                    if matches!(echo, Echo::HtmlPage | Echo::RpcMessage) {
                        assert!(shown.contains("***"), "{shown}");
                    }
                } else {
                    assert!(
                        matches!(
                            single.kind(),
                            ErrorKind::Transport(TransportError {
                                kind: TransportErrorKind::Connect,
                                ..
                            })
                        ),
                        "{place:?}: {single}"
                    );
                    // The endpoint is still named, its key label masked.
                    assert!(shown.contains("http://***.invalid:1"), "{shown}");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 5 * 8 * 2 + 2);
}

/// A key in the URL's user-info goes out as `Authorization: Basic base64(user:KEY)`; a
/// server echoing that header back (or the decoded key, in any case) shows neither.
#[tokio::test]
async fn a_user_info_key_echoed_as_its_basic_auth_encoding_is_masked() {
    use base64::Engine as _;
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("user:{KEY}"));
    let page = format!(
        "<html>bad credentials: Basic {basic} ({}, {})</html>",
        KEY.to_ascii_lowercase(),
        KEY.to_ascii_uppercase()
    );
    let server = TestServer::start(vec![Reply::status(401, &page)]);
    let client = no_retry(KeyPlace::UserInfo.builder(&server))
        .build()
        .unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert_eq!(
        server.requests()[0].header("authorization"),
        Some(format!("Basic {basic}").as_str())
    );
    let shown = printed(&err);
    assert!(!shown.contains(&basic), "{shown}");
    assert!(!shows_key(&shown), "{shown}");
    assert!(shown.contains("Basic ***"), "{shown}");
}

#[tokio::test]
async fn a_key_goes_only_to_its_own_endpoint() {
    let first = TestServer::start(vec![Reply::status(503, "down")]);
    let second = TestServer::start(vec![Reply::json(RESULT)]);
    let client = Client::builder()
        .endpoint(&first.url(""))
        .unwrap()
        .api_key(ApiKey::x_api_key(KEY).unwrap())
        .endpoint(&second.url(""))
        .unwrap()
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    client.tx_status(tx_ref(), None).await.unwrap();
    assert_eq!(first.requests()[0].header("x-api-key"), Some(KEY));
    assert_eq!(second.requests()[0].header("x-api-key"), None);
    assert!(Client::builder()
        .api_key(ApiKey::x_api_key(KEY).unwrap())
        .build()
        .is_err());
}

#[tokio::test]
async fn cross_origin_redirects_are_refused_by_default() {
    let elsewhere = TestServer::start(vec![Reply::json(RESULT)]);
    let target = elsewhere.url(&format!("/{KEY}"));
    let server = TestServer::start(vec![Reply::redirect(307, &target)]);
    let client = no_retry(KeyPlace::Header.builder(&server)).build().unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    let ErrorKind::Transport(TransportError {
        kind: TransportErrorKind::Redirect {
            status, location, ..
        },
        ..
    }) = err.kind()
    else {
        panic!("{err}")
    };
    assert_eq!(*status, 307);
    assert_eq!(location, &format!("{}/***", elsewhere.url("")));
    let report = ErrorReport(&err).to_string();
    assert!(report.contains("307"), "{report}");
    assert!(!printed(&err).contains(KEY));
    assert!(
        elsewhere.requests().is_empty(),
        "nothing reached the other origin"
    );
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn followed_redirects_carry_no_credentials_and_no_referer() {
    for place in [KeyPlace::Header, KeyPlace::Bearer, KeyPlace::UserInfo] {
        // Within the origin, followed by default.
        let server = TestServer::start(vec![Reply::redirect(308, "/moved"), Reply::json(RESULT)]);
        let client = place.builder(&server).build().unwrap();
        client.tx_status(tx_ref(), None).await.unwrap();
        let requests = server.requests();
        assert_eq!(requests.len(), 2);
        assert!(
            requests[0].header("x-api-key").is_some()
                || requests[0].header("authorization").is_some()
        );
        assert_eq!(requests[1].path, "/moved");
        assert_eq!(requests[1].http_method, "POST");
        for name in ["x-api-key", "authorization", "referer"] {
            assert_eq!(requests[1].header(name), None, "{place:?}: {name}");
        }
        assert_eq!(requests[1].json()["method"], "EXPERIMENTAL_tx_status");

        // To another origin, only when asked, and still without credentials.
        let elsewhere = TestServer::start(vec![Reply::json(RESULT)]);
        let server = TestServer::start(vec![Reply::redirect(301, &elsewhere.url("/x"))]);
        let client = place
            .builder(&server)
            .redirects(RedirectPolicy::Any)
            .build()
            .unwrap();
        client.tx_status(tx_ref(), None).await.unwrap();
        let request = &elsewhere.requests()[0];
        for name in ["x-api-key", "authorization", "referer"] {
            assert_eq!(request.header(name), None, "{place:?}: {name}");
        }
    }
}

#[tokio::test]
async fn redirect_policy_none_and_loops_end_with_an_error() {
    let server = TestServer::start(vec![Reply::redirect(302, "/again")]);
    let client = no_retry(Client::builder().endpoint(&server.url("")).unwrap())
        .build()
        .unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Transport(TransportError {
                kind: TransportErrorKind::Redirect { status: 302, .. },
                ..
            })
        ),
        "{err}"
    );
    assert_eq!(server.requests().len(), 6, "one request and five redirects");

    let server = TestServer::start(vec![Reply::redirect(302, "/again")]);
    let client = no_retry(Client::builder().endpoint(&server.url("")).unwrap())
        .redirects(RedirectPolicy::None)
        .build()
        .unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Transport(TransportError {
                kind: TransportErrorKind::Redirect { .. },
                ..
            })
        ),
        "{err}"
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn bad_urls_are_refused_at_build_time_without_the_key() {
    let bad = [
        format!("ftp://h.io/{KEY}"),
        format!("https:///{KEY}"),
        format!("https://{KEY}"),
        format!("https://{KEY}/v1"),
        KEY.to_owned(),
        format!("h.io/{KEY}"),
        format!("https://h.io/{KEY}#frag"),
        format!("https://h.io:70000/{KEY}"),
        format!("javascript:{KEY}"),
        format!("https://h.io/{KEY} "),
    ];
    for url in bad {
        let err = Client::builder().endpoint(&url).unwrap_err();
        assert!(!err.to_string().contains(KEY), "{url}: {err}");
        assert!(!format!("{err:?}").contains(KEY), "{url}: {err:?}");
    }
}

#[tokio::test]
async fn failover_is_independent_of_retries() {
    let failures = [
        Reply::status(200, "<html>proxy error</html>"),
        Reply::status(404, "not found"),
        Reply::status(429, "slow down"),
        Reply::status(500, "oops"),
        Reply::status(503, RESULT),
        Reply::drop_connection(),
        Reply::raw("HTTP/1.1 200 OK\r\ncontent-length: 500\r\n\r\n{\"jsonrpc\""),
    ];
    for failure in failures {
        let dead = refused_url();
        let failing = TestServer::start(vec![failure.clone()]);
        let good = TestServer::start(vec![Reply::json(RESULT)]);
        let client = Client::builder()
            .endpoint(&dead)
            .unwrap()
            .endpoint(&failing.url(""))
            .unwrap()
            .endpoint(&good.url(""))
            .unwrap()
            .retry(RetryPolicy::none())
            .build()
            .unwrap();
        client
            .tx_status(tx_ref(), None)
            .await
            .unwrap_or_else(|e| panic!("{failure:?}: {e}"));
        assert_eq!(failing.requests().len(), 1, "{failure:?}");
        assert_eq!(good.requests().len(), 1, "{failure:?}");
    }
}

#[tokio::test]
async fn permanent_errors_are_answers_not_failed_over() {
    let unknown = r#"{"jsonrpc":"2.0","id":"1","error":{"name":"HANDLER_ERROR","cause":{"name":"UNKNOWN_TRANSACTION","info":{"requested_transaction_hash":"11111111111111111111111111111111"}}}}"#;
    let invalid = r#"{"jsonrpc":"2.0","id":"1","error":{"name":"REQUEST_VALIDATION_ERROR","cause":{"name":"PARSE_ERROR","info":{"error_message":"bad"}}}}"#;
    for (status, body) in [(200, unknown), (422, unknown), (400, invalid)] {
        let first = TestServer::start(vec![Reply::status(status, body)]);
        let second = TestServer::start(vec![Reply::json(RESULT)]);
        let client = Client::builder()
            .endpoint(&first.url(""))
            .unwrap()
            .endpoint(&second.url(""))
            .unwrap()
            .build()
            .unwrap();
        let err = client.tx_status(tx_ref(), None).await.unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Rpc { .. }), "{err}");
        assert_eq!((first.requests().len(), second.requests().len()), (1, 0));
    }
}

#[tokio::test]
async fn every_endpoint_failing_lists_each_failure() {
    let a = refused_url();
    let b = TestServer::start(vec![Reply::status(502, "<html>bad gateway</html>")]);
    let c = TestServer::start(vec![Reply::status(200, "<html>captive portal</html>")]);
    let client = Client::builder()
        .endpoint(&format!("{a}/{KEY}"))
        .unwrap()
        .endpoint(&b.url(""))
        .unwrap()
        .endpoint(&c.url(""))
        .unwrap()
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    let ErrorKind::AllEndpointsFailed(failures) = err.kind() else {
        panic!("{err}")
    };
    assert!(matches!(
        failures[0].kind(),
        ErrorKind::Transport(TransportError {
            kind: TransportErrorKind::Connect,
            ..
        })
    ));
    assert!(matches!(
        failures[1].kind(),
        ErrorKind::Http { status: 502, .. }
    ));
    assert!(matches!(
        failures[2].kind(),
        ErrorKind::Decode { status: 200, .. }
    ));
    let shown = err.to_string();
    for endpoint in [format!("{a}/***"), b.url(""), c.url("")] {
        assert!(shown.contains(&endpoint), "{endpoint} in {shown}");
    }
    assert!(!shown.contains(KEY));
    assert!(err.is_retryable(), "the 502 may pass");
}

fn send_tx() -> RpcSendTransactionRequest {
    RpcSendTransactionRequest {
        signed_tx_base64: SignedTransaction("AAAA".into()),
        wait_until: None,
    }
}

#[tokio::test]
async fn transactions_fail_over_only_when_nothing_was_sent() {
    let good = TestServer::start(vec![Reply::json(RESULT)]);
    let client = Client::builder()
        .endpoint(&refused_url())
        .unwrap()
        .endpoint(&good.url(""))
        .unwrap()
        .build()
        .unwrap();
    client
        .call::<methods::SendTxMethod>(send_tx())
        .await
        .unwrap();
    assert_eq!(
        good.requests().len(),
        1,
        "connection refused: safe to move on"
    );

    for reached in [
        Reply::status(503, "busy"),
        Reply::drop_connection(),
        Reply::status(200, "<html/>"),
    ] {
        let first = TestServer::start(vec![reached.clone()]);
        let second = TestServer::start(vec![Reply::json(RESULT)]);
        let client = Client::builder()
            .endpoint(&first.url(""))
            .unwrap()
            .endpoint(&second.url(""))
            .unwrap()
            .build()
            .unwrap();
        client
            .call::<methods::SendTxMethod>(send_tx())
            .await
            .unwrap_err();
        assert_eq!(first.requests().len(), 1, "{reached:?}: never sent twice");
        assert!(
            second.requests().is_empty(),
            "{reached:?}: never sent elsewhere"
        );
    }
}

#[tokio::test]
async fn a_non_2xx_status_is_an_error_even_with_a_result() {
    let server = TestServer::start(vec![Reply::status(503, RESULT)]);
    let client = no_retry(Client::builder().endpoint(&server.url("")).unwrap())
        .build()
        .unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    let ErrorKind::Http {
        status: 503, json, ..
    } = err.kind()
    else {
        panic!("{err}")
    };
    let json = json.as_ref().expect("the body is kept");
    assert_eq!(json["result"]["final_execution_status"], "FINAL");
}

#[tokio::test]
async fn response_ids_must_match() {
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":"999","result":{"final_execution_status":"FINAL"}}"#,
            false,
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"result":{"final_execution_status":"FINAL"}}"#,
            false,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{"final_execution_status":"FINAL"}}"#,
            true,
        ),
        (
            r#"{"jsonrpc":"2.0","id":"1","result":{"final_execution_status":"FINAL"}}"#,
            true,
        ),
    ];
    for (body, ok) in cases {
        let server = TestServer::start(vec![Reply::json(body).keep_id()]);
        let client = Client::new(&server.url("")).unwrap();
        let outcome = client.tx_status(tx_ref(), None).await;
        match (outcome, ok) {
            (Ok(_), true) => {}
            (Err(err), false) => match err.kind() {
                ErrorKind::IdMismatch { expected, .. } => assert_eq!(expected, "1"),
                _ => panic!("{body}: {err:?}"),
            },
            (other, _) => panic!("{body}: {other:?}"),
        }
    }
    // No id at all is not a JSON-RPC response: a decoding error naming the field.
    let server = TestServer::start(vec![Reply::json(
        r#"{"jsonrpc":"2.0","result":{"final_execution_status":"FINAL"}}"#,
    )
    .keep_id()]);
    let err = Client::new(&server.url(""))
        .unwrap()
        .tx_status(tx_ref(), None)
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Decode { error, .. } if error.message().contains("`id`")),
        "{err}"
    );
}

#[tokio::test]
async fn bodies_over_the_limit_are_never_read_whole() {
    // Declared too large: refused before the body is read.
    let server = TestServer::start(vec![Reply::raw(
        "HTTP/1.1 200 OK\r\ncontent-length: 1073741824\r\n\r\n{",
    )]);
    let client = Client::builder()
        .endpoint(&server.url(""))
        .unwrap()
        .max_response_bytes(1024)
        .build()
        .unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Transport(TransportError {
                kind: TransportErrorKind::TooLarge { limit: 1024, .. },
                ..
            })
        ),
        "{err}"
    );

    // Chunked and endless: reading stops at the default limit.
    let server = TestServer::start(vec![Reply::endless()]);
    let client = Client::new(&server.url("")).unwrap();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Transport(TransportError { kind: TransportErrorKind::TooLarge { limit, .. }, .. }) if *limit == DEFAULT_MAX_RESPONSE_BYTES),
        "{err}"
    );
    assert_eq!(server.requests().len(), 1, "too large is not retried");
}

#[tokio::test]
async fn oversized_requests_are_never_sent() {
    let server = TestServer::start(vec![Reply::json(RESULT)]);
    let client = Client::builder()
        .endpoint(&server.url(""))
        .unwrap()
        .max_request_bytes(100)
        .build()
        .unwrap();
    let mut request = send_tx();
    request.signed_tx_base64 = SignedTransaction("A".repeat(400));
    let err = client
        .call::<methods::SendTxMethod>(request)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Transport(TransportError {
                kind: TransportErrorKind::RequestTooLarge { limit: 100, .. },
                ..
            })
        ),
        "{err}"
    );
    assert!(err.is_usage());
    assert!(server.requests().is_empty());
}

/// Over HTTP, a deadline ends a call to slow endpoints with a deadline error, well before
/// their answers. (That the deadline is one for the whole call, not one per endpoint, is
/// measured on the paused clock: `client.rs`, `the_deadline_bounds_the_whole_call`.)
#[tokio::test]
async fn a_deadline_ends_a_call_to_slow_endpoints() {
    let slow = Reply::json(RESULT).delayed(Duration::from_secs(3));
    let first = TestServer::start(vec![slow.clone()]);
    let second = TestServer::start(vec![slow]);
    let client = Client::builder()
        .endpoint(&first.url(""))
        .unwrap()
        .endpoint(&second.url(""))
        .unwrap()
        .deadline(Duration::from_millis(500))
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let err = client.tx_status(tx_ref(), None).await.unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let deadline = |e: &Error<_>| {
        matches!(
            e.kind(),
            ErrorKind::Transport(TransportError {
                kind: TransportErrorKind::Deadline { .. },
                ..
            })
        )
    };
    let ended = match err.kind() {
        ErrorKind::AllEndpointsFailed(failures) => failures.iter().any(deadline),
        _ => deadline(&err),
    };
    assert!(ended, "{err}");
}

/// A server that answers anything with `reply` and hangs up.
fn blurting_server(reply: &'static [u8]) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("https://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        // Bounded: one connection per attempt, no retries in the test.
        if let Ok((mut stream, _)) = listener.accept() {
            // Read the client's hello first: closing a socket with unread data sends a
            // reset, which the client may see before the reply (a connect error, not TLS).
            let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(2)));
            let mut hello = [0u8; 4096];
            let _ = stream.read(&mut hello);
            let _ = stream.write_all(reply);
            let _ = stream.shutdown(std::net::Shutdown::Write);
            // Until the client hangs up, so nothing it sends is left unread.
            while matches!(stream.read(&mut hello), Ok(n) if n > 0) {}
        }
    });
    url
}

#[tokio::test]
async fn tls_failures_are_their_own_kind() {
    // An https URL to servers that speak plain HTTP, or nothing: the handshake fails.
    for reply in [&b"HTTP/1.1 400 Bad Request\r\n\r\n"[..], b""] {
        let url = blurting_server(reply);
        let client = no_retry(Client::builder().endpoint(&format!("{url}/{KEY}")).unwrap())
            .build()
            .unwrap();
        let err = client.tx_status(tx_ref(), None).await.unwrap_err();
        assert!(
            matches!(
                err.kind(),
                ErrorKind::Transport(TransportError {
                    kind: TransportErrorKind::Tls,
                    ..
                })
            ),
            "{err}"
        );
        assert!(!printed(&err).contains(KEY));
    }
}

#[tokio::test]
async fn broken_connections_are_transport_errors() {
    for reply in [
        Reply::drop_connection(),
        Reply::raw("HTTP/1.1 200 OK\r\ncontent-length: 500\r\n\r\n{\"jsonrpc\""),
        Reply::raw("NOT HTTP AT ALL\r\n\r\n"),
    ] {
        let server = TestServer::start(vec![reply.clone()]);
        let client = no_retry(Client::builder().endpoint(&server.url("")).unwrap())
            .build()
            .unwrap();
        let err = client
            .call::<methods::BlockMethod>(RpcBlockRequest {
                block_reference: Finality::Final.into(),
            })
            .await
            .unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::Transport(_)),
            "{reply:?}: {err}"
        );
        assert!(err.is_retryable(), "{reply:?}");
    }
}

#[tokio::test]
async fn base64_that_does_not_decode_is_a_usage_error_before_sending() {
    let server = TestServer::start(vec![Reply::json(RESULT)]);
    let client = Client::new(&server.url("")).unwrap();
    let mut request = send_tx();
    request.signed_tx_base64 = SignedTransaction("not base64!".into());
    let err = client
        .call::<methods::SendTxMethod>(request)
        .await
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Encode { .. }), "{err}");
    assert!(err.is_usage());
    assert!(err.to_string().contains("not valid base64"), "{err}");

    let bad_args = near_rpc::types::RpcQueryRequest {
        block_reference: Finality::Final.into(),
        kind: near_rpc::types::RpcQueryRequestKind::CallFunction {
            account_id: "contract.near".parse().unwrap(),
            method_name: "get".into(),
            args_base64: near_rpc::types::FunctionArgs("{\"json\":1}".into()),
        },
    };
    let err = client
        .call::<methods::QueryMethod>(bad_args)
        .await
        .unwrap_err();
    assert!(err.is_usage(), "{err}");
    assert!(err.to_string().contains("function-call args"), "{err}");
    assert!(server.requests().is_empty(), "nothing was sent");
}
