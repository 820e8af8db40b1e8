//! The HTTP/1.1 server on loopback: one task per connection, kept alive for request
//! after request (pipelined ones too) until the client closes it or asks to
//! (`connection: close`, or HTTP/1.0), every reply shape of [`HttpReply`] put on the
//! wire as it says, a broken one included (which then closes the connection). The
//! connections' tasks belong to the task that accepts them: when it stops, they stop,
//! so a stopped server answers nothing, not even on a connection kept alive.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::{JoinHandle, JoinSet};

use crate::{HttpReply, MockNode, RawRequest, Shape};

/// The largest request head and body the server reads.
const MAX_HEAD: usize = 64 * 1024;
const MAX_BODY: usize = 16 * 1024 * 1024;
/// A connection that sends nothing for this long is closed.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// A running mock server. Dereferences to its [`MockNode`].
///
/// It stops when dropped: the listener closes, and so does every open connection,
/// kept-alive ones included, as the runtime cancels their tasks (moments later, as
/// dropping cannot wait). [`MockServer::stop`] returns once all of that is done.
#[derive(Debug)]
pub struct MockServer {
    node: MockNode,
    url: String,
    accept: JoinHandle<()>,
    stop: Option<oneshot::Sender<()>>,
}

impl MockServer {
    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The node behind it.
    pub fn node(&self) -> &MockNode {
        &self.node
    }

    /// Stops the server and waits until it has: the listener is closed and every
    /// connection has ended (a request being answered is cut off), so that nothing
    /// answers at its URL any more, not even a client's pooled connection.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        // Ends once the accept task has closed its connections; an error only says it
        // had already ended.
        let _ = (&mut self.accept).await;
    }
}

impl std::ops::Deref for MockServer {
    type Target = MockNode;

    fn deref(&self) -> &MockNode {
        &self.node
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// A mock server on a thread of its own, with its own runtime: for blocking tests and
/// for tests that run another process against it. It stops when dropped.
#[derive(Debug)]
pub struct BackgroundServer {
    node: MockNode,
    url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl BackgroundServer {
    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The URL with `path` after it (where an API key may go).
    pub fn url_with(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }
}

impl std::ops::Deref for BackgroundServer {
    type Target = MockNode;

    fn deref(&self) -> &MockNode {
        &self.node
    }
}

impl Drop for BackgroundServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

pub(crate) fn serve_in_background(node: MockNode, port: u16) -> io::Result<BackgroundServer> {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (ready, url) = std::sync::mpsc::channel::<io::Result<String>>();
    let served = node.clone();
    let thread = std::thread::spawn(move || {
        let runtime = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(e) => {
                let _ = ready.send(Err(e));
                return;
            }
        };
        runtime.block_on(async move {
            match serve(served, port).await {
                Ok(server) => {
                    let _ = ready.send(Ok(server.url().to_owned()));
                    // Until the handle is dropped (or dropped without a word).
                    let _ = stopped.await;
                    server.stop().await;
                }
                Err(e) => {
                    let _ = ready.send(Err(e));
                }
            }
        });
    });
    let url = url
        .recv()
        .map_err(|_| io::Error::other("the server thread ended before listening"))??;
    Ok(BackgroundServer {
        node,
        url,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// What answers a request: the mock node, or the recording proxy.
pub(crate) type Handler =
    Arc<dyn Fn(RawRequest) -> Pin<Box<dyn Future<Output = HttpReply> + Send>> + Send + Sync>;

pub(crate) async fn serve(node: MockNode, port: u16) -> io::Result<MockServer> {
    let handler = node.clone();
    let handler: Handler = Arc::new(move |request| {
        let node = handler.clone();
        Box::pin(async move { node.handle(request).await })
    });
    let (stop, stopped) = oneshot::channel();
    let (url, accept) = listen_until(handler, port, async move {
        // A sender dropped without a word stops the server too.
        let _ = stopped.await;
    })
    .await?;
    Ok(MockServer {
        node,
        url,
        accept,
        stop: Some(stop),
    })
}

/// Accepts connections on `127.0.0.1:port` until the returned task is aborted; its
/// connections end with it.
pub(crate) async fn listen(handler: Handler, port: u16) -> io::Result<(String, JoinHandle<()>)> {
    listen_until(handler, port, std::future::pending()).await
}

/// Accepts connections on `127.0.0.1:port` until `stop` completes, then ends every
/// connection and waits for them before the returned task ends; or until the task is
/// aborted, which drops the connections' set and so aborts them.
async fn listen_until(
    handler: Handler,
    port: u16,
    stop: impl Future<Output = ()> + Send + 'static,
) -> io::Result<(String, JoinHandle<()>)> {
    let listener = TcpListener::bind(("127.0.0.1", port)).await?;
    let url = format!("http://{}", listener.local_addr()?);
    let accept = tokio::spawn(async move {
        let mut connections = JoinSet::new();
        let mut stop = std::pin::pin!(stop);
        loop {
            tokio::select! {
                () = &mut stop => break,
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => {
                        connections.spawn(connection(handler.clone(), stream));
                    }
                    // A client that left before it was accepted, or a signal: the
                    // listener is fine.
                    Err(e) if is_transient(&e) => {}
                    // Out of descriptors or worse: no more connections, but those
                    // open are served until the server stops.
                    Err(_) => {
                        stop.await;
                        break;
                    }
                },
                // Finished connections are reaped, so that a long-running node's set
                // holds only the open ones.
                Some(_) = connections.join_next(), if !connections.is_empty() => {}
            }
        }
        drop(listener);
        connections.shutdown().await;
    });
    Ok((url, accept))
}

/// An error of `accept` that concerns one connection, not the listener.
fn is_transient(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::Interrupted
    )
}

/// Serves one connection: request after request until either side closes it.
async fn connection(handler: Handler, stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let mut connection = Connection {
        stream,
        buffer: Vec::new(),
    };
    loop {
        let reply = match connection.next_request().await {
            Some(Next::Request(request, keep_alive)) => {
                let reply = handler(request).await;
                (reply, keep_alive)
            }
            // A body the server cannot delimit: answered, then the connection closes
            // (its next bytes could be read as a request).
            Some(Next::Refuse(status, message)) => (
                HttpReply::status(status, &format!("{{\"error\":\"{message}\"}}")),
                false,
            ),
            None => break,
        };
        if !write_reply(&mut connection.stream, reply.0, reply.1).await {
            break;
        }
    }
    let _ = connection.stream.shutdown().await;
}

/// What a connection sends next.
enum Next {
    /// A request, and whether the connection may stay open after its answer.
    Request(RawRequest, bool),
    /// A request whose body cannot be read as one: the status and why.
    Refuse(u16, &'static str),
}

/// A client's connection: its stream and what was read past the last request.
struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl Connection {
    /// Reads more of the stream; false at its end, on an error or after a quiet spell.
    async fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 8192];
        match tokio::time::timeout(READ_TIMEOUT, self.stream.read(&mut chunk)).await {
            Ok(Ok(n)) if n > 0 => {
                self.buffer.extend_from_slice(&chunk[..n]);
                true
            }
            _ => false,
        }
    }

    /// The next request, and whether the connection may stay open after its answer.
    async fn next_request(&mut self) -> Option<Next> {
        let header_end = loop {
            if let Some(at) = self.buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            if self.buffer.len() > MAX_HEAD || !self.fill().await {
                return None;
            }
        };
        let head = String::from_utf8_lossy(&self.buffer[..header_end]).into_owned();
        let mut lines = head.split("\r\n");
        let mut first = lines.next().unwrap_or_default().split(' ');
        let http_method = first.next().unwrap_or_default().to_owned();
        let path = first.next().unwrap_or_default().to_owned();
        let version = first.next().unwrap_or_default().to_owned();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let header = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.to_ascii_lowercase())
        };
        if header("transfer-encoding").is_some() {
            return Some(Next::Refuse(411, "send the body with a content-length"));
        }
        let length = match header("content-length") {
            None => 0,
            Some(value) => match value.parse::<usize>() {
                Ok(length) if length <= MAX_BODY => length,
                Ok(_) => return Some(Next::Refuse(413, "the body is larger than 16 MiB")),
                Err(_) => return Some(Next::Refuse(400, "the content-length is not a number")),
            },
        };
        let keep_alive = match header("connection").as_deref() {
            Some("close") => false,
            Some("keep-alive") => true,
            _ => version != "HTTP/1.0",
        };
        let mut complete = true;
        while self.buffer.len() < header_end + length {
            if !self.fill().await {
                complete = false;
                break;
            }
        }
        let end = (header_end + length).min(self.buffer.len());
        let body = self.buffer[header_end..end].to_vec();
        self.buffer.drain(..end);
        Some(Next::Request(
            RawRequest {
                http_method,
                path,
                headers,
                body,
            },
            keep_alive && complete,
        ))
    }
}

/// Puts `reply` on the wire; whether the connection may carry another request.
async fn write_reply(stream: &mut TcpStream, reply: HttpReply, keep_alive: bool) -> bool {
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    match reply.shape {
        Shape::Drop => false,
        Shape::Raw => {
            let _ = stream.write_all(&reply.body).await;
            false
        }
        Shape::Endless => {
            let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
            if stream.write_all(head.as_bytes()).await.is_err() {
                return false;
            }
            let frame = [
                format!("{:x}\r\n", reply.body.len()).as_bytes(),
                &reply.body,
                b"\r\n",
            ]
            .concat();
            // Bounded: 256 MiB, or until the client hangs up.
            for _ in 0..(256 * 1024 * 1024 / reply.body.len().max(1)) {
                if stream.write_all(&frame).await.is_err() {
                    break;
                }
            }
            false
        }
        Shape::Normal | Shape::KeepId | Shape::Truncated => {
            let truncated = reply.shape == Shape::Truncated;
            let declared = reply.body.len() + if truncated { 100 } else { 0 };
            let keep_alive = keep_alive && !truncated;
            let mut head = format!(
                "HTTP/1.1 {} {}\r\ncontent-length: {declared}\r\nconnection: {}\r\n",
                reply.status,
                reason(reply.status),
                if keep_alive { "keep-alive" } else { "close" }
            );
            for (name, value) in &reply.headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            let mut bytes = head.into_bytes();
            bytes.extend_from_slice(&reply.body);
            stream.write_all(&bytes).await.is_ok() && stream.flush().await.is_ok() && keep_alive
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        411 => "Length Required",
        413 => "Content Too Large",
        408 => "Request Timeout",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Status",
    }
}
