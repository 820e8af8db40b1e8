//! The mock node as users meet it: over HTTP and in process, with overrides, faults,
//! recorded requests, record and replay.

use std::time::Duration;

use near_rpc::client::layers::RetryPolicy;
use near_rpc::client::transport::HttpTransport;
use near_rpc::client::transport::{TransportError, TransportErrorKind};
use near_rpc::client::{Error, ErrorKind};
use near_rpc::methods;
use near_rpc::types::{RpcBlockRequest, RpcGasPriceRequest};
use near_rpc::{Client, Finality};
use near_rpc_mock::{Cassette, Fault, FaultRule, HttpReply, MockNode, Recorder, Reply};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn final_block() -> RpcBlockRequest {
    RpcBlockRequest {
        block_reference: Finality::Final.into(),
    }
}

/// One client per way of reaching the node, without retries so every fault shows.
fn clients(node: &MockNode, url: &str) -> [(&'static str, Client); 2] {
    let in_process = Client::builder()
        .transport(node.clone())
        .retry(RetryPolicy::none())
        .max_response_bytes(64 * 1024)
        .build()
        .unwrap();
    let http = Client::builder()
        .endpoint(url)
        .unwrap()
        .retry(RetryPolicy::none())
        .max_response_bytes(64 * 1024)
        .build()
        .unwrap();
    [("in process", in_process), ("HTTP", http)]
}

#[tokio::test]
async fn the_server_answers_records_and_stops() {
    let server = MockNode::start().await;
    let url = server.url().to_owned();
    let client = Client::builder()
        .endpoint(&format!("{url}/some/path"))
        .unwrap()
        .api_key(near_rpc::client::ApiKey::x_api_key("test-key-123").unwrap())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    let block = client
        .call::<methods::BlockMethod>(final_block())
        .await
        .unwrap();
    assert_eq!(block.header.height, near_rpc_mock::chain::INITIAL_HEAD - 2);
    let seen = server.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].method, "block");
    assert_eq!(seen[0].params(), json!({"finality": "final"}));
    assert_eq!(seen[0].path, "/some/path");
    assert_eq!(seen[0].http_method, "POST");
    assert_eq!(seen[0].header("x-api-key"), Some("test-key-123"));

    // A connection kept alive, answered once before the server stops.
    let address = url.trim_start_matches("http://").to_owned();
    let mut kept = tokio::net::TcpStream::connect(&address).await.unwrap();
    let answer = exchange(&mut kept).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("connection: keep-alive"), "{answer}");

    server.stop().await;
    // The kept connection is closed: the next request on it gets no answer.
    let _ = kept.write_all(&block_request(&address)).await;
    let mut rest = Vec::new();
    match kept.read_to_end(&mut rest).await {
        Ok(_) => assert!(
            rest.is_empty(),
            "answered after stopping: {}",
            String::from_utf8_lossy(&rest)
        ),
        // Reset, as a closed socket that is written to may be: no answer either.
        Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset, "{e}"),
    }
    // The client's pooled connection gets no answer either, and a new one is refused.
    let err = client
        .call::<methods::BlockMethod>(final_block())
        .await
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Transport(_)), "{err}");
    let err = Client::builder()
        .endpoint(&url)
        .unwrap()
        .retry(RetryPolicy::none())
        .build()
        .unwrap()
        .call::<methods::BlockMethod>(final_block())
        .await
        .unwrap_err();
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

/// A keep-alive HTTP request for the final block, to the server at `host`.
fn block_request(host: &str) -> Vec<u8> {
    let body =
        json!({"jsonrpc": "2.0", "id": "1", "method": "block", "params": {"finality": "final"}})
            .to_string();
    format!(
        "POST / HTTP/1.1\r\nhost: {host}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Sends [`block_request`] on `stream` and reads its whole answer (head and body), the
/// connection left open.
async fn exchange(stream: &mut tokio::net::TcpStream) -> String {
    let host = stream.peer_addr().unwrap().to_string();
    stream.write_all(&block_request(&host)).await.unwrap();
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length: usize = text[..end]
                .lines()
                .find_map(|l| l.strip_prefix("content-length: "))
                .expect("a content-length")
                .parse()
                .unwrap();
            if bytes.len() >= end + 4 + length {
                return text;
            }
        }
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the connection closed mid-answer");
        bytes.extend_from_slice(&chunk[..n]);
    }
}

#[tokio::test]
async fn every_fault_reaches_the_client_as_its_own_error() {
    type Check = fn(&Error<near_rpc::types::RpcBlockError>) -> bool;
    let cases: Vec<(Fault, Check)> = vec![
        (Fault::status(503), |e| {
            matches!(e.kind(), ErrorKind::Rpc { status: 503, .. })
        }),
        (
            Fault::Status {
                status: 502,
                json_rpc: false,
            },
            |e| matches!(e.kind(), ErrorKind::Http { status: 502, .. }),
        ),
        (
            Fault::RetryAfter {
                status: 429,
                seconds: 7,
            },
            |e| {
                matches!(e.kind(), ErrorKind::Http { status: 429, .. })
                    && e.retry_after() == Some(Duration::from_secs(7))
            },
        ),
        (
            Fault::HtmlPage { status: 502 },
            |e| matches!(e.kind(), ErrorKind::Http { status: 502, body, .. } if body.contains("<html>")),
        ),
        (Fault::Truncated, |e| {
            matches!(e.kind(), ErrorKind::Transport(_))
        }),
        (Fault::Oversized { bytes: 100_000 }, |e| {
            matches!(
                e.kind(),
                ErrorKind::Transport(TransportError {
                    kind: TransportErrorKind::TooLarge { .. },
                    ..
                })
            )
        }),
        (Fault::DropConnection, |e| {
            matches!(e.kind(), ErrorKind::Transport(_))
        }),
        (
            Fault::Redirect {
                status: 307,
                location: "https://elsewhere.example/".into(),
            },
            |e| {
                matches!(
                    e.kind(),
                    ErrorKind::Transport(TransportError {
                        kind: TransportErrorKind::Redirect { status: 307, .. },
                        ..
                    }) | ErrorKind::Http { status: 307, .. }
                )
            },
        ),
        (Fault::WrongId, |e| {
            matches!(e.kind(), ErrorKind::IdMismatch { .. })
        }),
    ];
    for (fault, expected) in cases {
        let server = MockNode::start().await;
        server.inject(FaultRule::new(fault.clone()).for_method("block"));
        for (how, client) in clients(&server, server.url()) {
            let err = client
                .call::<methods::BlockMethod>(final_block())
                .await
                .unwrap_err();
            assert!(expected(&err), "{fault:?} {how}: {err}");
            // Other methods are untouched.
            client.call::<methods::StatusMethod>(()).await.unwrap();
        }
    }
}

#[tokio::test]
async fn latency_is_felt_and_bounded_by_the_deadline() {
    let node = MockNode::new();
    node.inject(FaultRule::new(Fault::Latency(Duration::from_secs(5))).for_method("status"));
    let client = Client::builder()
        .transport(node.clone())
        .deadline(Duration::from_millis(200))
        .build()
        .unwrap();
    let err = client.call::<methods::StatusMethod>(()).await.unwrap_err();
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
}

#[tokio::test]
async fn faults_by_request_number_and_count() {
    let node = MockNode::new();
    node.inject(FaultRule::new(Fault::status(503)).nth_request(2));
    node.inject(
        FaultRule::new(Fault::status(504))
            .for_method("status")
            .times(2),
    );
    let client = Client::builder()
        .transport(node.clone())
        .retry(RetryPolicy {
            initial_backoff: Duration::from_millis(1),
            ..RetryPolicy::default()
        })
        .build()
        .unwrap();
    client
        .call::<methods::BlockMethod>(final_block())
        .await
        .unwrap();
    // Request 2 is the 503 (the first rule that matches wins), requests 3 and 4 the two
    // 504s, request 5 the answer.
    client.call::<methods::StatusMethod>(()).await.unwrap();
    let seen: Vec<String> = node.requests().iter().map(|r| r.method.clone()).collect();
    assert_eq!(seen, ["block", "status", "status", "status", "status"]);
    client.call::<methods::StatusMethod>(()).await.unwrap();
    assert_eq!(
        node.requests_for("status").len(),
        5,
        "both rules are used up"
    );
}

#[tokio::test]
async fn overrides_fixed_closure_and_typed() {
    let node = MockNode::new();
    node.respond_json("gas_price", json!({"gas_price": "123"}));
    node.on("block", |params| {
        if params["finality"] == "final" {
            Reply::handler_error("UNKNOWN_BLOCK", json!({"block_reference": params}))
        } else {
            Reply::Http(HttpReply::status(503, "closed"))
        }
    });
    let client = node.client();
    let price = client
        .call::<methods::GasPriceMethod>(RpcGasPriceRequest { block_id: None })
        .await
        .unwrap();
    assert_eq!(price.gas_price.as_yoctonear(), 123);
    let err = client
        .call::<methods::BlockMethod>(final_block())
        .await
        .unwrap_err();
    let rpc = err.rpc_error().expect("a JSON-RPC error");
    assert!(
        matches!(
            rpc.cause,
            near_rpc::envelope::ErrorCause::Handler(near_rpc::types::RpcBlockError::UnknownBlock(
                _
            ))
        ),
        "{err}"
    );

    // Typed: whatever the method's result type is.
    let mut config = client
        .call::<methods::ExperimentalProtocolConfigMethod>(
            near_rpc::types::RpcProtocolConfigRequest {
                block_reference: Finality::Final.into(),
            },
        )
        .await
        .unwrap();
    config.protocol_version = Some(99);
    node.respond_with::<methods::ExperimentalProtocolConfigMethod>(config);
    let again = client.protocol_config_at(Finality::Final).await.unwrap();
    assert_eq!(again.protocol_version, Some(99));
}

#[tokio::test]
async fn unhandled_methods_answer_as_nearcore_does() {
    let server = MockNode::start().await;
    let raw = reqwest_like_post(
        server.url(),
        r#"{"jsonrpc":"2.0","id":1,"method":"no_such","params":null}"#,
    )
    .await;
    assert_eq!(raw.0, 400);
    let body: serde_json::Value = serde_json::from_str(&raw.1).unwrap();
    assert_eq!(body["error"]["cause"]["name"], "METHOD_NOT_FOUND");
    assert_eq!(body["error"]["code"], -32601);
    assert_eq!(body["id"], 1, "numeric ids are echoed as numbers");
    let raw = reqwest_like_post(server.url(), "not json").await;
    assert_eq!(raw.0, 400);
    assert!(raw.1.contains("PARSE_ERROR"), "{}", raw.1);
}

/// A POST with any body, through near-rpc's HTTP transport (no JSON-RPC framing added).
async fn reqwest_like_post(url: &str, body: &str) -> (u16, String) {
    use near_rpc::client::transport::{RpcRequest, Transport};
    let transport = HttpTransport::new(url.parse().unwrap()).unwrap();
    let response = transport
        .send(RpcRequest::new("raw", 1, body.as_bytes().to_vec(), false))
        .await
        .unwrap();
    (response.status, String::from_utf8(response.body).unwrap())
}

#[tokio::test]
async fn record_then_replay() {
    const KEY: &str = "rec0rd1ngK3yXYZ";
    let upstream = MockNode::start().await;
    upstream.on("status", move |_| {
        let mut status = near_rpc_mock::Chain::new().status();
        status["chain_id"] = json!(format!("echoes {KEY}"));
        Reply::Result(status)
    });
    let dir = std::env::temp_dir().join(format!("near-rpc-mock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cassette.jsonl");
    let upstream_url = format!("{}/{KEY}", upstream.url());
    let transport = HttpTransport::new(upstream_url.parse().unwrap()).unwrap();
    let recorder = Recorder::start(transport, &file, 0).await.unwrap();
    let client = Client::new(recorder.url()).unwrap();
    let block = client
        .call::<methods::BlockMethod>(final_block())
        .await
        .unwrap();
    let status = client.call::<methods::StatusMethod>(()).await.unwrap();
    assert_eq!(
        status.chain_id, "echoes ***",
        "the echoed key is masked on the way"
    );
    drop(recorder);
    assert_eq!(upstream.requests()[0].path, format!("/{KEY}"));

    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains(KEY), "{text}");
    let cassette = Cassette::load(&file).unwrap();
    assert_eq!(cassette.exchanges.len(), 2);

    // The replay answers the recorded requests, whatever the chain says now.
    let replay = MockNode::replaying(cassette);
    replay.advance(50);
    let client = replay.client();
    assert_eq!(
        client
            .call::<methods::BlockMethod>(final_block())
            .await
            .unwrap(),
        block
    );
    assert_eq!(
        client
            .call::<methods::StatusMethod>(())
            .await
            .unwrap()
            .chain_id,
        "echoes ***"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // A broken cassette names its line.
    let bad = std::env::temp_dir().join(format!("near-rpc-bad-{}.jsonl", std::process::id()));
    std::fs::write(&bad, "{\"method\":\"block\"}\n").unwrap();
    let err = Cassette::load(&bad).unwrap_err();
    assert!(err.to_string().contains("line 1"), "{err}");
    std::fs::remove_file(&bad).unwrap();
}

#[tokio::test]
async fn a_script_starts_with_the_next_request() {
    let node = MockNode::new();
    let client = Client::builder()
        .transport(node.clone())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    client.call::<methods::StatusMethod>(()).await.unwrap();
    node.script(vec![
        HttpReply::status(503, "first"),
        HttpReply::json(r#"{"jsonrpc":"2.0","id":"1","result":null}"#),
    ]);
    let err = client.call::<methods::HealthMethod>(()).await.unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Http { status: 503, .. }),
        "{err}"
    );
    client.call::<methods::HealthMethod>(()).await.unwrap();
    client.call::<methods::HealthMethod>(()).await.unwrap();
    assert_eq!(node.requests().len(), 4);
}

/// One connection carries request after request, pipelined ones too; a body the server
/// cannot delimit (chunked, too large, a length that is no number) is refused and the
/// connection closed, so that none of its bytes is read as a request.
#[tokio::test]
async fn connections_stay_open_and_bodies_are_delimited() {
    let server = MockNode::start().await;
    let address = server.url().trim_start_matches("http://").to_owned();
    let request = |id: u32| {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"health","params":[]}}"#);
        format!(
            "POST / HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
    // Two at once, then a third on the same connection.
    stream
        .write_all(format!("{}{}", request(1), request(2)).as_bytes())
        .await
        .unwrap();
    stream.write_all(request(3).as_bytes()).await.unwrap();
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    while seen.matches("HTTP/1.1 200").count() < 3 {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buf))
            .await
            .expect("answers within the deadline")
            .unwrap();
        assert!(n > 0, "closed early: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    assert!(seen.contains("connection: keep-alive"), "{seen}");
    for id in [1, 2, 3] {
        assert!(seen.contains(&format!(r#""id":{id}"#)), "{seen}");
    }
    assert_eq!(server.requests_for("health").len(), 3);

    for (head, status) in [
        ("transfer-encoding: chunked\r\n", "411"),
        ("content-length: 99999999999\r\n", "413"),
        ("content-length: ten\r\n", "400"),
    ] {
        let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
        let smuggled = request(9);
        let raw = format!("POST / HTTP/1.1\r\nhost: {address}\r\n{head}\r\n{smuggled}");
        stream.write_all(raw.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
            .await
            .expect("the server closes the connection")
            .unwrap();
        let answer = String::from_utf8_lossy(&answer);
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{head}: {answer}"
        );
        assert_eq!(
            answer.matches("HTTP/1.1").count(),
            1,
            "nothing after: {answer}"
        );
    }
    assert_eq!(
        server.requests_for("health").len(),
        3,
        "no smuggled request was answered"
    );
}

/// A node that keeps its last requests only still counts every one.
#[tokio::test]
async fn a_node_can_keep_only_its_last_requests() {
    let node = MockNode::new();
    node.keep_requests(2);
    node.inject(FaultRule::new(Fault::status(503)).nth_request(4));
    let client = Client::builder()
        .transport(node.clone())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    for _ in 0..3 {
        client.call::<methods::StatusMethod>(()).await.unwrap();
    }
    assert_eq!(node.requests().len(), 2);
    // The fourth request is still the fourth.
    assert!(client.call::<methods::StatusMethod>(()).await.is_err());
    assert_eq!(node.requests().len(), 2);
}
