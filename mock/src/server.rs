//! The HTTP/1.1 server on loopback: one task per connection, one request per
//! connection (`connection: close`), every reply shape of [`HttpReply`] put on the wire
//! as it says, a broken one included.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

use crate::{HttpReply, MockNode, RawRequest, Shape};

/// The largest request head and body the server reads.
const MAX_HEAD: usize = 64 * 1024;
const MAX_BODY: usize = 16 * 1024 * 1024;
/// A connection that sends nothing for this long is closed.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// A running mock server; it stops when dropped. Dereferences to its [`MockNode`].
#[derive(Debug)]
pub struct MockServer {
    node: MockNode,
    url: String,
    accept: JoinHandle<()>,
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
                    drop(server);
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
        let reply = handler.handle(request);
        Box::pin(async move { reply })
    });
    let (url, accept) = listen(handler, port).await?;
    Ok(MockServer { node, url, accept })
}

/// Accepts connections on `127.0.0.1:port` until the returned task is aborted.
pub(crate) async fn listen(handler: Handler, port: u16) -> io::Result<(String, JoinHandle<()>)> {
    let listener = TcpListener::bind(("127.0.0.1", port)).await?;
    let url = format!("http://{}", listener.local_addr()?);
    let accept = tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let handler = handler.clone();
            tokio::spawn(async move {
                let mut stream = stream;
                if let Some(request) = read_request(&mut stream).await {
                    let reply = handler(request).await;
                    write_reply(stream, reply).await;
                }
            });
        }
    });
    Ok((url, accept))
}

async fn read_request(stream: &mut TcpStream) -> Option<RawRequest> {
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    let header_end = loop {
        let n = tokio::time::timeout(READ_TIMEOUT, stream.read(&mut buf))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
        if let Some(at) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if data.len() > MAX_HEAD {
            return None;
        }
    };
    let head = String::from_utf8_lossy(&data[..header_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or_default().split(' ');
    let http_method = first.next().unwrap_or_default().to_owned();
    let path = first.next().unwrap_or_default().to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0)
        .min(MAX_BODY);
    while data.len() < header_end + length {
        let n = tokio::time::timeout(READ_TIMEOUT, stream.read(&mut buf))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            break;
        }
        data.extend_from_slice(&buf[..n]);
    }
    data.truncate(header_end + length);
    Some(RawRequest {
        http_method,
        path,
        headers,
        body: data[header_end..].to_vec(),
    })
}

async fn write_reply(mut stream: TcpStream, reply: HttpReply) {
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let _ = stream.set_nodelay(true);
    match reply.shape {
        Shape::Drop => {}
        Shape::Raw => {
            let _ = stream.write_all(&reply.body).await;
        }
        Shape::Endless => {
            let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
            if stream.write_all(head.as_bytes()).await.is_err() {
                return;
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
                    return;
                }
            }
        }
        Shape::Normal | Shape::KeepId | Shape::Truncated => {
            let declared = reply.body.len()
                + if reply.shape == Shape::Truncated {
                    100
                } else {
                    0
                };
            let mut head = format!(
                "HTTP/1.1 {} {}\r\ncontent-length: {declared}\r\nconnection: close\r\n",
                reply.status,
                reason(reply.status)
            );
            for (name, value) in &reply.headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes()).await;
            let _ = stream.write_all(&reply.body).await;
            let _ = stream.flush().await;
        }
    }
    let _ = stream.shutdown().await;
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
