//! A real HTTP/1.1 server on loopback for client tests: it answers scripted replies in
//! order and records every request. No HTTP client is mocked.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One scripted reply.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub delay: Duration,
    pub shape: Shape,
}

/// How the reply goes on the wire.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Status, headers, `content-length`, body; a JSON body's `id` echoes the request's.
    Normal,
    /// As written, `id` included.
    KeepId,
    /// These bytes and nothing else (a truncated or malformed response).
    Raw,
    /// The connection closes without an answer.
    Drop,
    /// A chunked body of `body` repeated until the client stops reading (at most 256 MiB).
    Endless,
}

impl Reply {
    /// A 200 with a JSON body.
    pub fn json(body: &str) -> Self {
        Self::status(200, body)
    }

    /// Any status with a body.
    pub fn status(status: u16, body: &str) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.as_bytes().to_vec(),
            delay: Duration::ZERO,
            shape: Shape::Normal,
        }
    }

    /// Exactly these bytes on the wire.
    pub fn raw(bytes: &str) -> Self {
        Self {
            shape: Shape::Raw,
            ..Self::status(200, bytes)
        }
    }

    /// Closes the connection without answering.
    pub fn drop_connection() -> Self {
        Self {
            shape: Shape::Drop,
            ..Self::status(200, "")
        }
    }

    /// A 200 whose chunked body never ends.
    pub fn endless() -> Self {
        Self {
            shape: Shape::Endless,
            ..Self::status(
                200,
                &format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":\"{}",
                    "x".repeat(65_536)
                ),
            )
        }
    }

    /// A redirect to `location`.
    pub fn redirect(status: u16, location: &str) -> Self {
        Self::status(status, "").header("location", location)
    }

    /// Sends the body's `id` as written.
    pub fn keep_id(mut self) -> Self {
        self.shape = Shape::KeepId;
        self
    }

    /// Adds a header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Waits before answering.
    pub fn delayed(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

/// A request the server received.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("request body is JSON")
    }

    /// A header's value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The server; it stops when dropped.
pub struct TestServer {
    port: u16,
    requests: Arc<Mutex<Vec<Recorded>>>,
    stop: Arc<AtomicBool>,
}

impl TestServer {
    /// Starts serving `replies` in order; after the last, the last one repeats.
    pub fn start(replies: Vec<Reply>) -> Self {
        assert!(!replies.is_empty());
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("addr").port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let next = Arc::new(AtomicUsize::new(0));
        let replies = Arc::new(replies);
        let (rec, stopping) = (requests.clone(), stop.clone());
        std::thread::spawn(move || {
            // Bounded: it ends when the test drops the server, or after 60 s.
            let deadline = std::time::Instant::now() + Duration::from_secs(60);
            while !stopping.load(Ordering::Relaxed) && std::time::Instant::now() < deadline {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let index = next.fetch_add(1, Ordering::SeqCst).min(replies.len() - 1);
                        let reply = replies[index].clone();
                        let rec = rec.clone();
                        std::thread::spawn(move || serve(stream, reply, rec));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(2)),
                }
            }
        });
        Self {
            port,
            requests,
            stop,
        }
    }

    /// The base URL, with an optional path (where an API key may go).
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().expect("lock").clone()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// A loopback URL where nothing listens (connection refused).
pub fn refused_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

fn serve(mut stream: TcpStream, reply: Reply, requests: Arc<Mutex<Vec<Recorded>>>) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    let header_end = loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => data.extend_from_slice(&buf[..n]),
        }
        if let Some(pos) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos + 4;
        }
    };
    let head = String::from_utf8_lossy(&data[..header_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or_default().split(' ');
    let (method, path) = (
        first.next().unwrap_or_default(),
        first.next().unwrap_or_default(),
    );
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let length = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    while data.len() < header_end + length {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => data.extend_from_slice(&buf[..n]),
        }
    }
    let body = data[header_end..].to_vec();
    requests.lock().expect("lock").push(Recorded {
        method: method.to_owned(),
        path: path.to_owned(),
        headers,
        body,
    });
    std::thread::sleep(reply.delay);
    let body = match reply.shape {
        Shape::Drop => return,
        Shape::Raw => {
            let _ = stream.write_all(&reply.body);
            return;
        }
        Shape::Endless => return serve_endless(stream, &reply.body),
        Shape::Normal => echo_id(&reply.body, &requests),
        Shape::KeepId => reply.body.clone(),
    };
    let mut response = format!(
        "HTTP/1.1 {} Status\r\ncontent-length: {}\r\nconnection: close\r\n",
        reply.status,
        body.len()
    );
    for (name, value) in &reply.headers {
        response.push_str(&format!("{name}: {value}\r\n"));
    }
    response.push_str("\r\n");
    let _ = stream.write_all(response.as_bytes());
    let _ = stream.write_all(&body);
    let _ = stream.flush();
}

/// The body with its top-level `id` set to the last recorded request's, as nodes echo it.
fn echo_id(body: &[u8], requests: &Mutex<Vec<Recorded>>) -> Vec<u8> {
    let request_id = requests
        .lock()
        .expect("lock")
        .last()
        .and_then(|r| serde_json::from_slice::<serde_json::Value>(&r.body).ok())
        .and_then(|v| v.get("id").cloned());
    match (
        serde_json::from_slice::<serde_json::Value>(body),
        request_id,
    ) {
        (Ok(serde_json::Value::Object(mut object)), Some(id)) if object.contains_key("id") => {
            object.insert("id".into(), id);
            serde_json::to_vec(&object).expect("JSON")
        }
        _ => body.to_vec(),
    }
}

/// A chunked 200 that repeats `chunk` until the client hangs up (bounded at 256 MiB).
fn serve_endless(mut stream: TcpStream, chunk: &[u8]) {
    let head =
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let frame = [format!("{:x}\r\n", chunk.len()).as_bytes(), chunk, b"\r\n"].concat();
    for _ in 0..(256 * 1024 * 1024 / chunk.len().max(1)) {
        if stream.write_all(&frame).is_err() {
            return;
        }
    }
}
