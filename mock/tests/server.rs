//! The HTTP server under hostile input, over real loopback sockets: who may call
//! (`Host`, `Origin`), bodies delimited by one plain `content-length` and run only when
//! whole, deadlines on the head, the body and the answer, connections capped, bodies in
//! flight capped, descriptors running out, the request log bounded in bytes. Timing runs
//! on tokio's paused clock (one thread: the clock moves only when every task waits).

use std::time::Duration;

use near_rpc::client::transport::HttpTransport;
use near_rpc::tx::{Action, SignedTransaction};
use near_rpc::NearToken;
use near_rpc_mock::{HttpReply, MockNode, Origin, Recorder, RequestLog, ServerOptions};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{timeout, Instant};

/// `127.0.0.1:PORT` of a server's URL.
fn address(url: &str) -> String {
    url.trim_start_matches("http://").to_owned()
}

/// A POST of `body` to `host`, asking to close after the answer, with `extra` headers
/// (each ending in `\r\n`).
fn post(host: &str, extra: &str, body: &str) -> String {
    format!(
        "POST / HTTP/1.1\r\nhost: {host}\r\ncontent-type: application/json\r\nconnection: close\r\n{extra}content-length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Reads until the server closes the connection (a reset after the answer counts as
/// closed); fails the test if it stays open for 10 minutes of the test's clock.
async fn read_to_close(stream: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let read = timeout(Duration::from_secs(600), stream.read_to_end(&mut bytes))
        .await
        .expect("the server closes the connection");
    if let Err(e) = read {
        assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset, "{e}");
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Sends `raw` on a new connection and reads what comes back until it closes.
async fn send_raw(address: &str, raw: &[u8]) -> String {
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(raw).await.unwrap();
    read_to_close(&mut stream).await
}

/// Reads one answer (head and `content-length` bytes of body) from a kept connection.
async fn read_answer(stream: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length: usize = text[..end]
                .lines()
                .find_map(|l| l.strip_prefix("content-length: "))
                .map_or(0, |n| n.parse().unwrap());
            if bytes.len() >= end + 4 + length {
                return text;
            }
        }
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "closed before the answer ended: {text}");
        bytes.extend_from_slice(&chunk[..n]);
    }
}

/// The status of an answer (`""` when there was none).
fn status(answer: &str) -> &str {
    answer.split(' ').nth(1).unwrap_or_default()
}

/// A `health` request kept alive.
fn health(host: &str) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"health","params":[]}"#;
    format!(
        "POST / HTTP/1.1\r\nhost: {host}\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// A transfer of 1 yoctoNEAR from alice to bob, signed for the node's chain, and the
/// `send_tx` body that submits it.
fn transfer(node: &MockNode) -> (SignedTransaction, String) {
    let signed = node.with_chain(|c| {
        c.sign(
            "alice.mock",
            "bob.mock",
            vec![Action::transfer(NearToken::from_yoctonear(1))],
        )
    });
    let body = json!({
        "jsonrpc": "2.0",
        "id": "tx",
        "method": "send_tx",
        "params": {"signed_tx_base64": signed.to_base64(), "wait_until": "NONE"},
    })
    .to_string();
    (signed, body)
}

/// Whether the chain took `signed`: it is among its transactions, or alice's key's nonce
/// or balance moved from `before`.
fn ran(node: &MockNode, signed: &SignedTransaction, before: (u64, u128)) -> bool {
    node.with_chain(|c| c.transaction(&signed.hash()).is_some()) || alice(node) != before
}

/// Alice's key's nonce and her balance.
fn alice(node: &MockNode) -> (u64, u128) {
    node.with_chain(|c| {
        let account = c.account("alice.mock").unwrap();
        (account.keys[0].nonce, account.amount)
    })
}

#[tokio::test(start_paused = true)]
async fn only_local_clients_and_no_web_pages_unless_allowed() {
    let node = MockNode::new();
    let server = node
        .serve_with(ServerOptions::new().allow_origin("http://localhost:5173".parse().unwrap()))
        .await
        .unwrap();
    let address = address(server.url());
    let port = address.rsplit(':').next().unwrap().to_owned();
    let (signed, body) = transfer(&node);
    let before = alice(&node);

    // A name that is not this server: a web page whose name was pointed at 127.0.0.1.
    for host in [
        "evil.example".to_owned(),
        format!("evil.example:{port}"),
        format!("127.0.0.2:{port}"),
        format!("0.0.0.0:{port}"),
        format!("localhost.:{port}"),
        format!("127.0.0.1:{}", port.parse::<u16>().unwrap() ^ 1),
        "127.0.0.1".to_owned(),
    ] {
        let answer = send_raw(&address, post(&host, "", &body).as_bytes()).await;
        assert_eq!(status(&answer), "403", "{host}: {answer}");
        assert!(answer.contains("host header"), "{host}: {answer}");
        assert_eq!(answer.matches("HTTP/1.1").count(), 1, "{answer}");
    }
    // No host, or two.
    let bare = post("x", "", &body).replace("host: x\r\n", "");
    assert_eq!(status(&send_raw(&address, bare.as_bytes()).await), "400");
    let twice = post(&address, &format!("host: {address}\r\n"), &body);
    assert_eq!(status(&send_raw(&address, twice.as_bytes()).await), "400");
    // A web page's request: an origin not allowed, even this server's own.
    for origin in [
        "http://evil.example".to_owned(),
        format!("http://127.0.0.1:{port}"),
        "http://localhost:5174".to_owned(),
        "null".to_owned(),
    ] {
        let raw = post(&address, &format!("origin: {origin}\r\n"), &body);
        let answer = send_raw(&address, raw.as_bytes()).await;
        assert_eq!(status(&answer), "403", "{origin}: {answer}");
        assert!(answer.contains("--allow-origin"), "{answer}");
    }
    // A page of another site with no origin (an image, a form): browsers say where
    // the request comes from.
    for site in ["cross-site", "same-site", "Cross-Site"] {
        let raw = post(&address, &format!("sec-fetch-site: {site}\r\n"), &body);
        let answer = send_raw(&address, raw.as_bytes()).await;
        assert_eq!(status(&answer), "403", "{site}: {answer}");
        assert!(answer.contains("sec-fetch-site"), "{answer}");
    }
    // One allowed origin beside one that is not.
    let raw = post(
        &address,
        "origin: http://localhost:5173\r\norigin: http://evil.example\r\n",
        &body,
    );
    assert_eq!(status(&send_raw(&address, raw.as_bytes()).await), "403");
    assert_eq!(
        node.requests_received(),
        0,
        "nothing refused reached the node"
    );
    assert!(!ran(&node, &signed, before), "a refused send_tx ran");

    // This server's names, with its port, in any case; the allowed origin in any case.
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("LocalHost:{port}"),
        format!("[::1]:{port}"),
    ] {
        let answer = send_raw(
            &address,
            health(&host)
                .replace("\r\n\r\n", "\r\nconnection: close\r\n\r\n")
                .as_bytes(),
        )
        .await;
        assert_eq!(status(&answer), "200", "{host}: {answer}");
    }
    for origin in ["http://localhost:5173", "HTTP://LOCALHOST:5173"] {
        let answer = send_raw(
            &address,
            health(&address)
                .replace(
                    "\r\n\r\n",
                    &format!("\r\norigin: {origin}\r\nconnection: close\r\n\r\n"),
                )
                .as_bytes(),
        )
        .await;
        assert_eq!(status(&answer), "200", "{origin}: {answer}");
    }
    // What a browser says of a request typed in its address bar, or its own page's.
    for site in ["none", "same-origin"] {
        let answer = send_raw(
            &address,
            health(&address)
                .replace(
                    "\r\n\r\n",
                    &format!("\r\nsec-fetch-site: {site}\r\nconnection: close\r\n\r\n"),
                )
                .as_bytes(),
        )
        .await;
        assert_eq!(status(&answer), "200", "{site}: {answer}");
    }
    assert_eq!(node.requests_received(), 8);
    let answer = send_raw(&address, post(&address, "", &body).as_bytes()).await;
    assert_eq!(status(&answer), "200", "{answer}");
    assert!(
        ran(&node, &signed, before),
        "the same send_tx, from a local client, runs"
    );
}

#[test]
fn origins_are_checked_when_allowed() {
    for good in [
        "http://localhost:5173",
        "https://app.example",
        "http://[::1]:8080",
        "chrome-extension://abcdefgh",
    ] {
        let origin: Origin = good.parse().unwrap_or_else(|e| panic!("{good}: {e}"));
        assert_eq!(origin.as_str(), good);
    }
    assert_eq!(
        "HTTP://LocalHost:5173".parse::<Origin>().unwrap().as_str(),
        "http://localhost:5173"
    );
    for (bad, why) in [
        ("*", "every web page"),
        ("null", "sandboxed"),
        ("localhost:5173", "://"),
        ("http://localhost:5173/", "no path"),
        ("http://localhost:5173/app", "no path"),
        ("http://user@localhost", "user name"),
        ("http://localhost:99999", "port"),
        ("http://localhost:", "port"),
        ("http://", "no host"),
        ("1http://x", "scheme"),
        ("http://local host", "space"),
    ] {
        let error = bad.parse::<Origin>().unwrap_err().to_string();
        assert!(error.contains(why), "{bad}: {error}");
        assert!(error.starts_with("not a web origin"), "{error}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_body_shorter_than_its_length_never_runs() {
    let node = MockNode::new();
    let server = node.serve(0).await.unwrap();
    let address = address(server.url());
    let (signed, body) = transfer(&node);
    let before = alice(&node);
    // The whole JSON request, but 10 bytes fewer than declared.
    let short = format!(
        "POST / HTTP/1.1\r\nhost: {address}\r\ncontent-length: {}\r\n\r\n{body}",
        body.len() + 10
    );

    // The client leaves: no answer, nothing run, nothing logged.
    let mut stream = TcpStream::connect(&address).await.unwrap();
    stream.write_all(short.as_bytes()).await.unwrap();
    stream.shutdown().await.unwrap();
    let answer = read_to_close(&mut stream).await;
    assert_eq!(answer, "", "an answer to a request that did not arrive");
    assert!(!ran(&node, &signed, before));

    // The client stays: 408 at the body deadline, nothing run.
    let started = Instant::now();
    let mut stream = TcpStream::connect(&address).await.unwrap();
    stream.write_all(short.as_bytes()).await.unwrap();
    let answer = read_to_close(&mut stream).await;
    assert_eq!(status(&answer), "408", "{answer}");
    assert!(answer.contains("nothing was run"), "{answer}");
    assert_eq!(started.elapsed(), ServerOptions::DEFAULT_BODY_TIMEOUT);
    assert!(!ran(&node, &signed, before));
    assert_eq!(node.requests_received(), 0);

    // A body longer than declared: the declared part is the request (not JSON here, so
    // a parse error), the rest is not a request head, and is refused as such.
    let long = format!(
        "POST / HTTP/1.1\r\nhost: {address}\r\ncontent-length: {}\r\n\r\n{body}\r\n\r\n",
        body.len() - 1
    );
    let answer = send_raw(&address, long.as_bytes()).await;
    assert_eq!(status(&answer), "400", "{answer}");
    assert!(answer.contains("PARSE_ERROR"), "{answer}");
    assert!(answer.contains("not METHOD TARGET HTTP/1.1"), "{answer}");
    assert!(!ran(&node, &signed, before));

    // The same request with its length right runs: the checks above could fail.
    let answer = send_raw(&address, post(&address, "", &body).as_bytes()).await;
    assert_eq!(status(&answer), "200", "{answer}");
    assert!(ran(&node, &signed, before));
}

#[tokio::test(start_paused = true)]
async fn bodies_are_delimited_by_one_plain_content_length() {
    let node = MockNode::new();
    let server = node.serve(0).await.unwrap();
    let address = address(server.url());
    let (signed, body) = transfer(&node);
    let before = alice(&node);
    let n = body.len();
    for (head, expected) in [
        (
            format!("content-length: {n}\r\ncontent-length: {n}\r\n"),
            "400",
        ),
        (
            format!("content-length: {n}\r\ncontent-length: {}\r\n", n + 1),
            "400",
        ),
        (format!("content-length: {n}, {n}\r\n"), "400"),
        (format!("content-length: +{n}\r\n"), "400"),
        (format!("content-length: -{n}\r\n"), "400"),
        ("content-length: 1 0\r\n".to_owned(), "400"),
        ("content-length: 0x10\r\n".to_owned(), "400"),
        (
            "content-length: 99999999999999999999999\r\n".to_owned(),
            "400",
        ),
        ("content-length: 99999999999\r\n".to_owned(), "413"),
        ("transfer-encoding: chunked\r\n".to_owned(), "411"),
        ("transfer-encoding: gzip\r\n".to_owned(), "501"),
        (
            format!("transfer-encoding: chunked\r\ncontent-length: {n}\r\n"),
            "400",
        ),
        (format!("content-length : {n}\r\n"), "400"),
        (format!("x-padding: a\r\n content-length: {n}\r\n"), "400"),
        (format!("content-length: {n}\r\nx-bad: a\x01b\r\n"), "400"),
        (format!("content-length: {n}\r\nexpect: 200-ok\r\n"), "417"),
    ] {
        let raw = format!("POST / HTTP/1.1\r\nhost: {address}\r\n{head}\r\n{body}");
        let answer = send_raw(&address, raw.as_bytes()).await;
        assert_eq!(status(&answer), expected, "{head:?}: {answer}");
        assert_eq!(answer.matches("HTTP/1.1").count(), 1, "{head:?}: {answer}");
    }
    for line in [
        "POST /  HTTP/1.1",
        "POST / HTTP/1.1 extra",
        "POST /",
        "POST / HTTP/2.0",
        "PO ST / HTTP/1.1",
        "GARBAGE",
    ] {
        let raw = format!("{line}\r\nhost: {address}\r\ncontent-length: {n}\r\n\r\n{body}");
        let answer = send_raw(&address, raw.as_bytes()).await;
        assert!(
            ["400", "505"].contains(&status(&answer)),
            "{line}: {answer}"
        );
    }
    assert_eq!(node.requests_received(), 0);
    assert!(!ran(&node, &signed, before));
}

#[tokio::test(start_paused = true)]
async fn a_trickled_head_is_cut_at_its_deadline() {
    let node = MockNode::new();
    let server = node.serve(0).await.unwrap();
    let address = address(server.url());

    // A byte a second: each read comes well within any per-read timeout.
    let started = Instant::now();
    let stream = TcpStream::connect(&address).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let trickle = tokio::spawn(async move {
        writer.write_all(b"POST / HTTP/1.1\r\n").await.unwrap();
        for _ in 0..600 {
            if writer.write_all(b"x").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
    let mut answer = Vec::new();
    let _ = timeout(Duration::from_secs(600), reader.read_to_end(&mut answer))
        .await
        .expect("closed at the head deadline");
    let answer = String::from_utf8_lossy(&answer);
    assert_eq!(status(&answer), "408", "{answer}");
    assert_eq!(started.elapsed(), ServerOptions::DEFAULT_HEAD_TIMEOUT);
    trickle.abort();

    // A connection that sends nothing is closed at the same deadline, silently.
    let started = Instant::now();
    let mut idle = TcpStream::connect(&address).await.unwrap();
    assert_eq!(read_to_close(&mut idle).await, "");
    assert_eq!(started.elapsed(), ServerOptions::DEFAULT_HEAD_TIMEOUT);

    // A kept-alive connection: the deadline starts again after each answer.
    let mut kept = TcpStream::connect(&address).await.unwrap();
    kept.write_all(health(&address).as_bytes()).await.unwrap();
    assert_eq!(status(&read_answer(&mut kept).await), "200");
    tokio::time::sleep(Duration::from_secs(9)).await;
    kept.write_all(health(&address).as_bytes()).await.unwrap();
    assert_eq!(status(&read_answer(&mut kept).await), "200");
    assert_eq!(node.requests_received(), 2);

    // A body trickled after its head is cut at the body deadline, and not run.
    let started = Instant::now();
    let stream = TcpStream::connect(&address).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let head = format!("POST / HTTP/1.1\r\nhost: {address}\r\ncontent-length: 1000\r\n\r\n");
    let trickle = tokio::spawn(async move {
        writer.write_all(head.as_bytes()).await.unwrap();
        for _ in 0..600 {
            if writer.write_all(b" ").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
    let mut answer = Vec::new();
    let _ = timeout(Duration::from_secs(600), reader.read_to_end(&mut answer))
        .await
        .expect("closed at the body deadline");
    let answer = String::from_utf8_lossy(&answer);
    assert_eq!(status(&answer), "408", "{answer}");
    assert_eq!(started.elapsed(), ServerOptions::DEFAULT_BODY_TIMEOUT);
    trickle.abort();
    assert_eq!(node.requests_received(), 2);
}

#[tokio::test(start_paused = true)]
async fn a_client_that_does_not_read_is_cut_off_at_the_write_deadline() {
    let node = MockNode::new();
    node.script(vec![HttpReply::endless()]);
    let server = node.serve(0).await.unwrap();
    let address = address(server.url());
    let mut stream = TcpStream::connect(&address).await.unwrap();
    stream.write_all(health(&address).as_bytes()).await.unwrap();
    // Nobody reads: the server's writes wait on a full socket.
    tokio::time::sleep(ServerOptions::DEFAULT_WRITE_TIMEOUT + Duration::from_secs(1)).await;
    let mut total = 0usize;
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        match timeout(Duration::from_secs(1), stream.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => total += n,
            Err(_) => panic!("still open past the write deadline, {total} bytes read"),
        }
    }
    // What the sockets' buffers held, far from the 256 MiB the answer would have been.
    assert!(total < 64 * 1024 * 1024, "{total}");
}

#[tokio::test(start_paused = true)]
async fn connections_past_the_limit_wait_until_one_closes() {
    let node = MockNode::new();
    let server = node
        .serve_with(ServerOptions::new().max_connections(2))
        .await
        .unwrap();
    let address = address(server.url());
    let mut first = TcpStream::connect(&address).await.unwrap();
    let mut second = TcpStream::connect(&address).await.unwrap();
    for stream in [&mut first, &mut second] {
        stream.write_all(health(&address).as_bytes()).await.unwrap();
        assert_eq!(status(&read_answer(stream).await), "200");
    }
    // The third connects (the kernel's backlog takes it) but is not served.
    let mut third = TcpStream::connect(&address).await.unwrap();
    third.write_all(health(&address).as_bytes()).await.unwrap();
    let mut byte = [0u8; 1];
    assert!(
        timeout(Duration::from_secs(5), third.read(&mut byte))
            .await
            .is_err(),
        "served past the limit"
    );
    assert_eq!(node.requests_received(), 2);
    // Once one closes, the third is served, and the second still is.
    drop(first);
    let answer = timeout(Duration::from_secs(1), read_answer(&mut third))
        .await
        .expect("served once a connection closed");
    assert_eq!(status(&answer), "200");
    second.write_all(health(&address).as_bytes()).await.unwrap();
    assert_eq!(status(&read_answer(&mut second).await), "200");
    assert_eq!(node.requests_received(), 4);
}

#[tokio::test(start_paused = true)]
async fn large_bodies_wait_for_room_before_they_are_read() {
    let node = MockNode::new();
    let server = node.serve(0).await.unwrap();
    let address = address(server.url());
    let head = |expect: &str| {
        format!(
            "POST / HTTP/1.1\r\nhost: {address}\r\n{expect}content-length: {}\r\n\r\n",
            ServerOptions::MAX_BODY_BYTES
        )
    };
    // With room, `expect: 100-continue` is answered at once.
    let mut probe = TcpStream::connect(&address).await.unwrap();
    probe
        .write_all(head("expect: 100-continue\r\n").as_bytes())
        .await
        .unwrap();
    let mut chunk = [0u8; 64];
    let n = timeout(Duration::from_secs(1), probe.read(&mut chunk))
        .await
        .expect("a 100 at once")
        .unwrap();
    assert!(chunk[..n].starts_with(b"HTTP/1.1 100 Continue\r\n\r\n"));
    drop(probe);
    // Bodies of the largest size awaited on as many connections as fill the room.
    let mut holders = Vec::new();
    for _ in 0..ServerOptions::BODY_BYTES_IN_FLIGHT / ServerOptions::MAX_BODY_BYTES {
        let mut stream = TcpStream::connect(&address).await.unwrap();
        stream.write_all(head("").as_bytes()).await.unwrap();
        holders.push(stream);
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut waiting = TcpStream::connect(&address).await.unwrap();
    waiting
        .write_all(head("expect: 100-continue\r\n").as_bytes())
        .await
        .unwrap();
    assert!(
        timeout(Duration::from_secs(5), waiting.read(&mut chunk))
            .await
            .is_err(),
        "a body asked for past the room for bodies"
    );
    // One leaves: its room goes to the waiting one.
    drop(holders.pop());
    let n = timeout(Duration::from_secs(1), waiting.read(&mut chunk))
        .await
        .expect("a 100 once there is room")
        .unwrap();
    assert!(chunk[..n].starts_with(b"HTTP/1.1 100 Continue\r\n\r\n"));
    assert_eq!(node.requests_received(), 0);
}

#[tokio::test(start_paused = true)]
async fn bodies_of_too_many_json_values_are_refused_before_parsing() {
    let node = MockNode::new();
    let server = node.serve(0).await.unwrap();
    let address = address(server.url());
    let zeros = |n: usize| {
        let mut body = String::from(r#"{"jsonrpc":"2.0","id":1,"method":"health","params":["#);
        body.push_str(&"0,".repeat(n - 1));
        body.push_str("0]}");
        body
    };
    let answer = send_raw(&address, post(&address, "", &zeros(300_000)).as_bytes()).await;
    assert_eq!(status(&answer), "413", "{answer}");
    assert_eq!(node.requests_received(), 0);
    // Within the bound, and a long string (one value) of any length, reach the node.
    let answer = send_raw(&address, post(&address, "", &zeros(200_000)).as_bytes()).await;
    assert_ne!(status(&answer), "413", "{answer}");
    let long = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"health","params":["{}"]}}"#,
        "0,".repeat(1_000_000)
    );
    let answer = send_raw(&address, post(&address, "", &long).as_bytes()).await;
    assert_ne!(status(&answer), "413", "{answer}");
    assert_eq!(node.requests_received(), 2);
}

#[tokio::test(start_paused = true)]
async fn the_request_log_keeps_bounded_bytes() {
    let node = MockNode::new();
    let log = RequestLog {
        requests: None,
        bytes: 16 * 1024,
        body_bytes: 1024,
    };
    node.set_request_log(log);
    let server = node.serve(0).await.unwrap();
    let address = address(server.url());
    let body = |id: usize| {
        json!({"jsonrpc": "2.0", "id": id, "method": "health", "params": {"pad": "x".repeat(4000)}})
            .to_string()
    };
    for id in 1..=50 {
        let answer = send_raw(&address, post(&address, "", &body(id)).as_bytes()).await;
        assert_eq!(status(&answer), "200", "answered whole: {answer}");
    }
    assert_eq!(node.requests_received(), 50);
    let kept = node.requests();
    // Each keeps its first 1 KiB of body, so 16 KiB holds fewer than 16.
    assert!(!kept.is_empty() && kept.len() < 16, "{}", kept.len());
    assert_eq!(kept.last().unwrap().id, json!(50));
    for request in &kept {
        assert!(request.truncated());
        assert_eq!(request.body.len(), 1024);
        assert_eq!(
            request.body_len,
            body(1).len() + request.id.to_string().len() - 1
        );
        assert_eq!(request.method, "health", "taken from the whole body");
        assert_eq!(request.params(), serde_json::Value::Null);
    }

    // By default a body of 4 KiB is kept whole; a method or id over 256 bytes is not.
    node.set_request_log(RequestLog::default());
    send_raw(&address, post(&address, "", &body(51)).as_bytes()).await;
    let last = node.requests().pop().unwrap();
    assert!(!last.truncated());
    assert_eq!(last.params()["pad"].as_str().unwrap().len(), 4000);
    let odd = json!({"jsonrpc": "2.0", "id": "i".repeat(300), "method": "m".repeat(300)});
    send_raw(&address, post(&address, "", &odd.to_string()).as_bytes()).await;
    let last = node.requests().pop().unwrap();
    assert_eq!(
        (last.method.as_str(), &last.id),
        ("", &serde_json::Value::Null)
    );
    assert_eq!(last.json(), odd, "the body keeps them");
    node.keep_requests(1);
    assert_eq!(node.requests().len(), 1);
    assert_eq!(node.requests_received(), 52);
}

#[tokio::test]
async fn record_refuses_before_reaching_the_upstream() {
    let upstream = MockNode::start().await;
    let dir = std::env::temp_dir().join(format!("near-rpc-mock-server-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cassette.jsonl");
    let transport = HttpTransport::new(upstream.url().parse().unwrap()).unwrap();
    let options = ServerOptions::new().allow_origin("http://localhost:5173".parse().unwrap());
    let recorder = Recorder::start_with(transport, &file, options)
        .await
        .unwrap();
    let address = address(recorder.url());
    let (signed, body) = transfer(&upstream);
    let before = alice(&upstream);
    let short = format!(
        "POST / HTTP/1.1\r\nhost: {address}\r\ncontent-length: {}\r\n\r\n{body}",
        body.len() + 10
    );
    for (raw, expected) in [
        (post("evil.example", "", &body), "403"),
        (
            post(&address, "origin: http://evil.example\r\n", &body),
            "403",
        ),
        (
            post(&address, "transfer-encoding: chunked\r\n", &body),
            "400",
        ),
    ] {
        let answer = send_raw(&address, raw.as_bytes()).await;
        assert_eq!(status(&answer), expected, "{answer}");
    }
    let mut stream = TcpStream::connect(&address).await.unwrap();
    stream.write_all(short.as_bytes()).await.unwrap();
    stream.shutdown().await.unwrap();
    assert_eq!(read_to_close(&mut stream).await, "");
    assert!(upstream.requests().is_empty(), "{:?}", upstream.requests());
    assert!(!ran(&upstream, &signed, before));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "");

    // The allowed origin goes through: the refusals above could have.
    let raw = post(&address, "origin: http://localhost:5173\r\n", &body);
    let answer = send_raw(&address, raw.as_bytes()).await;
    assert_eq!(status(&answer), "200", "{answer}");
    assert_eq!(upstream.requests_for("send_tx").len(), 1);
    assert!(ran(&upstream, &signed, before));
    drop(recorder);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The environment variable that makes the test below run as the child it starts.
#[cfg(unix)]
const DESCRIPTORS_CHILD: &str = "NEAR_RPC_MOCK_TEST_DESCRIPTORS_CHILD";

/// The server keeps accepting after running out of file descriptors. It runs in a child
/// process (this test binary again, this test alone), whose descriptor limit it lowers.
#[cfg(unix)]
#[test]
fn accepting_resumes_after_running_out_of_descriptors() {
    if std::env::var_os(DESCRIPTORS_CHILD).is_some() {
        return out_of_descriptors();
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "accepting_resumes_after_running_out_of_descriptors",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(DESCRIPTORS_CHILD, "1")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("not served without descriptors; served once they were free"),
        "the child did not run the check: {stdout}\n{stderr}"
    );
}

/// The child's side: takes every descriptor but one, connects with that one, and shows
/// the server cannot accept until descriptors are free, then does.
#[cfg(unix)]
fn out_of_descriptors() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .unwrap();
    runtime.block_on(async {
        let node = MockNode::new();
        let server = node.serve(0).await.unwrap();
        let address = address(server.url());
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: both calls only read or write the struct given.
        unsafe {
            assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
            limit.rlim_cur = limit.rlim_cur.min(256);
            assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
        }
        let mut taken = Vec::new();
        loop {
            match std::fs::File::open("/dev/null") {
                Ok(file) => taken.push(file),
                Err(e) if e.raw_os_error() == Some(libc::EMFILE) => break,
                Err(e) => panic!("{e}"),
            }
        }
        assert!(taken.len() > 1, "too few descriptors to take");
        // One for the client's socket; the server has none left to accept it with.
        taken.pop();
        let mut client = TcpStream::connect(&address).await.unwrap();
        client.write_all(health(&address).as_bytes()).await.unwrap();
        let mut byte = [0u8; 1];
        assert!(
            timeout(Duration::from_secs(5), client.peek(&mut byte))
                .await
                .is_err(),
            "served without a descriptor to accept with"
        );
        assert_eq!(node.requests_received(), 0);
        drop(taken);
        let answer = timeout(Duration::from_secs(2), read_answer(&mut client))
            .await
            .expect("accepted again once descriptors were free");
        assert_eq!(status(&answer), "200", "{answer}");
        println!("not served without descriptors; served once they were free");
    });
}

/// An allowed page's browser gets CORS answers: its preflight (`OPTIONS`) is answered by
/// the server without reaching the node, and its POST's answer names its origin. Other
/// origins, and local clients without one, get no CORS header.
#[tokio::test(start_paused = true)]
async fn an_allowed_page_gets_cors_answers_and_no_one_else_does() {
    let node = MockNode::new();
    let page = "http://localhost:5173";
    let server = node
        .serve_with(ServerOptions::new().allow_origin(page.parse().unwrap()))
        .await
        .unwrap();
    let address = address(server.url());
    let preflight = |origin: &str| {
        format!(
            "OPTIONS / HTTP/1.1\r\nhost: {address}\r\norigin: {origin}\r\naccess-control-request-method: POST\r\naccess-control-request-headers: content-type\r\nconnection: close\r\n\r\n"
        )
    };
    let header = |answer: &str, name: &str| -> Option<String> {
        let head = answer.split("\r\n\r\n").next().unwrap();
        head.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")).map(str::to_owned))
    };

    let answer = send_raw(&address, preflight(page).as_bytes()).await;
    assert_eq!(status(&answer), "200", "{answer}");
    assert_eq!(
        header(&answer, "access-control-allow-origin").as_deref(),
        Some(page)
    );
    assert_eq!(
        header(&answer, "access-control-allow-methods").as_deref(),
        Some("POST")
    );
    assert_eq!(
        header(&answer, "access-control-allow-headers").as_deref(),
        Some("content-type")
    );
    assert_eq!(node.requests_received(), 0, "a preflight is not a call");

    let answer = send_raw(&address, preflight("http://evil.example").as_bytes()).await;
    assert_eq!(status(&answer), "403", "{answer}");
    assert_eq!(header(&answer, "access-control-allow-origin"), None);

    let body = json!({"jsonrpc": "2.0", "id": "1", "method": "status", "params": []}).to_string();
    let raw = post(&address, &format!("origin: {page}\r\n"), &body);
    let answer = send_raw(&address, raw.as_bytes()).await;
    assert_eq!(status(&answer), "200", "{answer}");
    assert_eq!(
        header(&answer, "access-control-allow-origin").as_deref(),
        Some(page)
    );
    assert!(answer.contains("\"chain_id\""), "{answer}");

    let answer = send_raw(&address, post(&address, "", &body).as_bytes()).await;
    assert_eq!(status(&answer), "200", "{answer}");
    assert_eq!(header(&answer, "access-control-allow-origin"), None);
    assert_eq!(node.requests_received(), 2);
}
