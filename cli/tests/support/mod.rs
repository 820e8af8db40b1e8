//! A loopback HTTP/1.1 server for the CLI tests, plus a runner for the built binary.
//!
//! The server answers scripted replies in order (the last one repeats) and records every
//! request. One connection carries one request (`connection: close`). It serves from a
//! single thread, stops and joins when dropped, and gives up on its own after a deadline,
//! so a test can never hang on it.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a server may live, and how long one run of the binary may take.
const DEADLINE: Duration = Duration::from_secs(60);

/// One scripted reply.
#[derive(Clone, Debug)]
pub struct Reply {
    status: u16,
    content_type: &'static str,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    delay: Duration,
}

impl Reply {
    /// HTTP 200 with a JSON body.
    pub fn json(body: &str) -> Self {
        Self::with_status(200, body)
    }

    /// Any status with a JSON body.
    pub fn with_status(status: u16, body: &str) -> Self {
        Self {
            status,
            content_type: "application/json",
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
            delay: Duration::ZERO,
        }
    }

    /// Any status with an HTML page.
    pub fn html(status: u16, page: &str) -> Self {
        Self {
            content_type: "text/html",
            ..Self::with_status(status, page)
        }
    }

    /// Adds a response header.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Waits this long before answering.
    pub fn after(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

/// A request as the server saw it.
#[derive(Clone, Debug)]
pub struct Seen {
    /// `POST`, ...
    pub method: String,
    /// The request target, e.g. `/` or `/KEY/block`.
    pub path: String,
    /// The headers, names lowercased.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Seen {
    /// The body as JSON (`Value::Null` if it is not JSON, which then fails the test's
    /// assertions).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// A header's value, by lowercase name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The server; dropping it stops it.
pub struct Server {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts answering `replies` in order.
    pub fn start(replies: Vec<Reply>) -> Self {
        assert!(!replies.is_empty(), "a server needs at least one reply");
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener
            .set_nonblocking(true)
            .expect("non-blocking listener");
        let port = listener.local_addr().expect("local address").port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (seen, stop) = (seen.clone(), stop.clone());
            std::thread::spawn(move || serve(listener, replies, seen, stop))
        };
        Self {
            port,
            seen,
            stop,
            thread: Some(thread),
        }
    }

    /// The server's URL with `path` appended (`""` for the bare origin).
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// The requests seen so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The only request seen (fails the test otherwise).
    pub fn only_request(&self) -> Seen {
        let seen = self.seen();
        assert_eq!(seen.len(), 1, "expected one request, got {seen:?}");
        seen[0].clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A loopback URL on which nothing listens.
pub fn refused_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    let port = listener.local_addr().expect("local address").port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

fn serve(
    listener: TcpListener,
    replies: Vec<Reply>,
    seen: Arc<Mutex<Vec<Seen>>>,
    stop: Arc<AtomicBool>,
) {
    let started = Instant::now();
    let mut next = 0;
    while !stop.load(Ordering::SeqCst) && started.elapsed() < DEADLINE {
        match listener.accept() {
            Ok((stream, _)) => {
                let reply = &replies[next.min(replies.len() - 1)];
                next += 1;
                if let Some(request) = read_request(&stream) {
                    if let Ok(mut seen) = seen.lock() {
                        seen.push(request);
                    }
                    answer(stream, reply, &stop);
                }
            }
            Err(_) => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

fn read_request(mut stream: &TcpStream) -> Option<Seen> {
    stream.set_nonblocking(false).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut data = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&data[..head_end]).into_owned();
    let mut lines = head.lines();
    let mut request_line = lines.next()?.split_whitespace();
    let method = request_line.next()?.to_owned();
    let path = request_line.next()?.to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, value)| value.parse().ok())
        .unwrap_or(0);
    while data.len() < head_end + length {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 {
            break;
        }
        data.extend_from_slice(&chunk[..n]);
    }
    Some(Seen {
        method,
        path,
        headers,
        body: data[head_end..].to_vec(),
    })
}

fn answer(mut stream: TcpStream, reply: &Reply, stop: &AtomicBool) {
    // Wait in small steps, so that dropping the server never waits for a long delay.
    let until = Instant::now() + reply.delay;
    while Instant::now() < until && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut head = format!(
        "HTTP/1.1 {} Scripted\r\ncontent-type: {}\r\ncontent-length: {}\r\nconnection: close\r\n",
        reply.status,
        reply.content_type,
        reply.body.len()
    );
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&reply.body);
    let _ = stream.flush();
}

/// The outcome of one run of the binary.
#[derive(Debug)]
pub struct Run {
    /// The exit status (-1 when killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// Stdout as JSON (fails the test if it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        match serde_json::from_str(&self.stdout) {
            Ok(value) => value,
            Err(e) => panic!("stdout is not JSON ({e}): {self:?}"),
        }
    }

    /// Asserts neither output contains `secret`.
    pub fn assert_hides(&self, secret: &str) {
        assert!(
            !self.stdout.contains(secret) && !self.stderr.contains(secret),
            "`{secret}` was printed: {self:?}"
        );
    }
}

/// Runs `near-rpc` with `args` and no input.
pub fn near_rpc(args: &[&str]) -> Run {
    near_rpc_with_stdin(args, b"")
}

/// Runs `near-rpc` with `args`, feeding `stdin`; kills it if it outlives the deadline.
pub fn near_rpc_with_stdin(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_near-rpc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start near-rpc");
    let input = stdin.to_vec();
    let mut child_stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = child_stdin.write_all(&input);
    });
    let mut child_stdout = child.stdout.take().expect("stdout");
    let mut child_stderr = child.stderr.take().expect("stderr");
    let stdout = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = child_stdout.read_to_string(&mut text);
        text
    });
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = child_stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for near-rpc") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("near-rpc {args:?} did not finish within {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let _ = writer.join();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}
