//! The HTTP/1.1 server on loopback: one task per connection, kept alive for request
//! after request (pipelined ones too) until the client closes it or asks to
//! (`connection: close`, or HTTP/1.0), every reply shape of [`HttpReply`] put on the
//! wire as it says, a broken one included (which then closes the connection). The
//! connections' tasks belong to the task that accepts them: when it stops, they stop,
//! so a stopped server answers nothing, not even on a connection kept alive.
//!
//! What it guarantees under hostile input (who may call, bodies run only whole,
//! deadlines, bounded memory, accepting after running out of descriptors) is listed in
//! the crate's docs, and tested over real sockets in `mock/tests/server.rs`.

use std::fmt;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;

use crate::wire::HttpReply;
use crate::wire::RawRequest;
use crate::wire::Shape;

/// How long a refused connection is still read from (and what it sends dropped) before it
/// closes, so that the client reads the refusal instead of a reset.
const LINGER: Duration = Duration::from_secs(2);
/// The first and the longest wait after `accept` failed for want of descriptors or memory.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(10);
const ACCEPT_BACKOFF_MAX: Duration = Duration::from_secs(1);

/// What the HTTP server accepts and how long it waits, for the mock node
/// (`MockNode::serve_with`) and the recording proxy (`Recorder::start_with`). The
/// defaults are those of
/// [`ServerOptions::new`]; the module's guarantees (see the crate's docs) hold whatever
/// is set.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    port: u16,
    allowed_origins: Vec<Origin>,
    max_connections: usize,
    head_timeout: Duration,
    body_timeout: Duration,
    write_timeout: Duration,
}

impl ServerOptions {
    /// The largest request head (request line and headers) read; a larger one is
    /// refused with 431.
    pub const MAX_HEAD_BYTES: usize = 64 * 1024;
    /// The largest request body accepted; a larger `content-length` is refused with 413
    /// before any of the body is read.
    pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
    /// The most body bytes read or being answered at once, all connections together.
    pub const BODY_BYTES_IN_FLIGHT: usize = 4 * Self::MAX_BODY_BYTES;
    /// The most JSON values a body may hold (counted, before it is parsed, as its commas,
    /// colons and opening brackets outside strings, plus one); more is refused with 413.
    pub const MAX_JSON_VALUES: usize = 1 << 18;
    /// The default of [`ServerOptions::max_connections`].
    pub const DEFAULT_MAX_CONNECTIONS: usize = 256;
    /// The default of [`ServerOptions::head_timeout`].
    pub const DEFAULT_HEAD_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default of [`ServerOptions::body_timeout`].
    pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
    /// The default of [`ServerOptions::write_timeout`].
    pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(30);

    /// Any free port, no origin allowed, the default limits.
    pub fn new() -> Self {
        Self {
            port: 0,
            allowed_origins: Vec::new(),
            max_connections: Self::DEFAULT_MAX_CONNECTIONS,
            head_timeout: Self::DEFAULT_HEAD_TIMEOUT,
            body_timeout: Self::DEFAULT_BODY_TIMEOUT,
            write_timeout: Self::DEFAULT_WRITE_TIMEOUT,
        }
    }

    /// Listens on `127.0.0.1:port` (0, the default: any free port).
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }

    /// Accepts requests that carry `origin` in their `Origin` header (those of a web
    /// page served from there); requests with any other `Origin` are refused. That page's
    /// answers carry `Access-Control-Allow-Origin`, and its browser's CORS preflight
    /// (`OPTIONS`) is answered, so it may read them. Call once per origin.
    pub fn allow_origin(mut self, origin: Origin) -> Self {
        if !self.allowed_origins.contains(&origin) {
            self.allowed_origins.push(origin);
        }
        self
    }

    /// The origins allowed so far.
    pub fn allowed_origins(&self) -> &[Origin] {
        &self.allowed_origins
    }

    /// Serves at most `n` connections at once (256 by default; 0 counts as 1, as no
    /// connection at all would serve nothing): the next ones wait, unanswered, in the
    /// listen backlog until one closes (a client that opens many sees its later
    /// connections wait, not fail).
    pub fn max_connections(mut self, n: usize) -> Self {
        self.max_connections = n.clamp(1, Semaphore::MAX_PERMITS);
        self
    }

    /// How long the whole request head may take to arrive, from when the server starts
    /// waiting for it (10 s by default). Also how long a kept-alive connection may stay
    /// idle.
    pub fn head_timeout(mut self, timeout: Duration) -> Self {
        self.head_timeout = timeout;
        self
    }

    /// How long the whole body may take to arrive, from the end of its head (30 s by
    /// default).
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// How long the client may take to read a whole answer (30 s by default); past it,
    /// the connection closes.
    pub fn write_timeout(mut self, timeout: Duration) -> Self {
        self.write_timeout = timeout;
        self
    }
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self::new()
    }
}

/// A web origin allowed to call the server ([`ServerOptions::allow_origin`]): what a
/// browser sends in `Origin`, `SCHEME://HOST[:PORT]` (`http://localhost:5173`), compared
/// ignoring ASCII case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin(String);

impl Origin {
    /// The origin, lower-case.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether an `Origin` header's value is this origin.
    fn matches(&self, header: &str) -> bool {
        self.0.eq_ignore_ascii_case(header)
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for Origin {
    type Err = InvalidOrigin;

    fn from_str(text: &str) -> Result<Self, InvalidOrigin> {
        let invalid = |reason| Err(InvalidOrigin { reason });
        match text {
            "*" => return invalid("`*` would let every web page in; list the origins one by one"),
            "null" => {
                return invalid(
                    "`null` is what sandboxed and local pages send: any page can send it",
                )
            }
            _ => {}
        }
        let Some((scheme, rest)) = text.split_once("://") else {
            return invalid("no `://` after a scheme");
        };
        let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        if !scheme_ok {
            return invalid("the scheme is not letters, digits, `+`, `-` or `.` after a letter");
        }
        if rest.contains('/') || rest.contains('?') || rest.contains('#') {
            return invalid("an origin has no path, query or fragment (not even a trailing `/`)");
        }
        if rest.contains('@') {
            return invalid("an origin has no user name or password");
        }
        if rest.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return invalid("it holds a space or a control character");
        }
        // The port is what follows the last `:` after an IPv6 address's `]`.
        let after_host = rest.rfind(']').map_or(0, |at| at + 1);
        let (host, port) = match rest[after_host..].rfind(':') {
            Some(at) => (&rest[..after_host + at], Some(&rest[after_host + at + 1..])),
            None => (rest, None),
        };
        if host.is_empty() {
            return invalid("no host");
        }
        if let Some(port) = port {
            if port.is_empty()
                || !port.bytes().all(|b| b.is_ascii_digit())
                || port.parse::<u16>().is_err()
            {
                return invalid("the port is not a number from 0 to 65535");
            }
        }
        Ok(Self(text.to_ascii_lowercase()))
    }
}

/// Why a text is not an [`Origin`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidOrigin {
    reason: &'static str,
}

impl fmt::Display for InvalidOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not a web origin (SCHEME://HOST[:PORT], as a browser sends it, e.g. http://localhost:5173): {}",
            self.reason
        )
    }
}

impl std::error::Error for InvalidOrigin {}

/// What answers a request: the mock node, or the recording proxy.
pub(crate) type Handler =
    Arc<dyn Fn(RawRequest) -> Pin<Box<dyn Future<Output = HttpReply> + Send>> + Send + Sync>;

/// Accepts connections on `127.0.0.1` until the returned task is aborted; its
/// connections end with it.
pub(crate) async fn listen(
    handler: Handler,
    options: ServerOptions,
) -> io::Result<(String, JoinHandle<()>)> {
    listen_until(handler, options, std::future::pending()).await
}

/// What every connection of a server shares.
struct Shared {
    handler: Handler,
    options: ServerOptions,
    /// The `Host` values that name this server, lower-case.
    hosts: Vec<String>,
    /// Permits for body bytes, [`ServerOptions::BODY_BYTES_IN_FLIGHT`] in all.
    bodies: Arc<Semaphore>,
}

/// Accepts connections on `127.0.0.1:port` until `stop` completes, then ends every
/// connection and waits for them before the returned task ends; or until the task is
/// aborted, which drops the connections' set and so aborts them.
pub(crate) async fn listen_until(
    handler: Handler,
    options: ServerOptions,
    stop: impl Future<Output = ()> + Send + 'static,
) -> io::Result<(String, JoinHandle<()>)> {
    let listener = TcpListener::bind(("127.0.0.1", options.port)).await?;
    let address = listener.local_addr()?;
    let url = format!("http://{address}");
    let port = address.port();
    let mut hosts: Vec<String> = ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .map(|host| format!("{host}:{port}"))
        .collect();
    if port == 80 {
        // HTTP's default port goes unnamed.
        hosts.extend(["127.0.0.1", "localhost", "[::1]"].map(String::from));
    }
    let slots = Arc::new(Semaphore::new(options.max_connections));
    let shared = Arc::new(Shared {
        handler,
        options,
        hosts,
        bodies: Arc::new(Semaphore::new(ServerOptions::BODY_BYTES_IN_FLIGHT)),
    });
    let accept = tokio::spawn(async move {
        let mut connections = JoinSet::new();
        let mut stop = std::pin::pin!(stop);
        let mut backoff = ACCEPT_BACKOFF;
        // A connection's slot, taken before accepting: past the limit, connections wait
        // in the listen backlog.
        let mut slot: Option<OwnedSemaphorePermit> = None;
        loop {
            let permit = match slot.take() {
                Some(permit) => permit,
                None => tokio::select! {
                    () = &mut stop => break,
                    permit = slots.clone().acquire_owned() => match permit {
                        Ok(permit) => permit,
                        // Never closed.
                        Err(_) => break,
                    },
                    Some(_) = connections.join_next(), if !connections.is_empty() => continue,
                },
            };
            tokio::select! {
                () = &mut stop => break,
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => {
                        backoff = ACCEPT_BACKOFF;
                        connections.spawn(connection(shared.clone(), stream, permit));
                    }
                    // A client that left before it was accepted, or a signal: the
                    // listener is fine.
                    Err(e) if is_transient(&e) => slot = Some(permit),
                    // Out of descriptors (EMFILE, ENFILE), of memory, or worse: they may
                    // be back once connections close, so wait and try again.
                    Err(_) => {
                        slot = Some(permit);
                        tokio::select! {
                            () = &mut stop => break,
                            () = tokio::time::sleep(backoff) => {}
                        }
                        backoff = (backoff * 2).min(ACCEPT_BACKOFF_MAX);
                    }
                },
                // Finished connections are reaped, so that a long-running node's set
                // holds only the open ones.
                Some(_) = connections.join_next(), if !connections.is_empty() => {
                    slot = Some(permit);
                }
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

/// Serves one connection: request after request until either side closes it. `_slot`
/// is its place among the connections served at once, given back when it ends.
async fn connection(shared: Arc<Shared>, stream: TcpStream, _slot: OwnedSemaphorePermit) {
    let _ = stream.set_nodelay(true);
    let mut connection = Connection {
        stream,
        buffer: Vec::new(),
        scanned: 0,
        shared: shared.clone(),
    };
    loop {
        match connection.next_request().await {
            Next::Request {
                request,
                keep_alive,
                permit,
                origin,
            } => {
                let mut reply = match &origin {
                    // A browser's CORS preflight, for a page whose origin is allowed:
                    // answered here, never run or logged as a call.
                    Some(_) if request.http_method == "OPTIONS" => preflight(),
                    _ => (shared.handler)(request).await,
                };
                drop(permit);
                // The page may read the answer (CORS): only an allowed origin gets here.
                if let Some(origin) = origin {
                    reply
                        .headers
                        .push(("access-control-allow-origin".into(), origin));
                    reply.headers.push(("vary".into(), "origin".into()));
                }
                if !connection.write(reply, keep_alive).await {
                    break;
                }
            }
            // Answered, then the connection closes: what follows could not be read as
            // a request.
            Next::Refuse(status, message) => {
                let body = json!({ "error": message }).to_string();
                connection
                    .write(HttpReply::status(status, &body), false)
                    .await;
                connection.linger().await;
                break;
            }
            Next::Closed => break,
        }
    }
    let _ = connection.stream.shutdown().await;
}

/// What a connection sends next.
enum Next {
    /// A request whole, whether the connection may stay open after its answer, and the
    /// permit for its body's bytes, held until it is answered.
    Request {
        request: RawRequest,
        keep_alive: bool,
        permit: Option<OwnedSemaphorePermit>,
        /// The allowed origin the request came from (a web page's), if any.
        origin: Option<String>,
    },
    /// A request that is not run: the status and why.
    Refuse(u16, String),
    /// The client closed the connection, or left it idle past the head deadline, or
    /// left before its request arrived whole: nothing to answer.
    Closed,
}

/// What reading more of the stream gave.
enum Filled {
    Data,
    End,
    Deadline,
}

/// A client's connection: its stream and what was read past the last request.
struct Connection {
    stream: TcpStream,
    buffer: Vec<u8>,
    /// How much of `buffer` is known to hold no end of head.
    scanned: usize,
    shared: Arc<Shared>,
}

/// A request head, checked.
struct Head {
    http_method: String,
    path: String,
    headers: Vec<(String, String)>,
    length: usize,
    keep_alive: bool,
    expect_continue: bool,
    /// The `Origin` the request came with, once checked to be allowed.
    origin: Option<String>,
}

impl Connection {
    /// Reads more of the stream into the buffer, until `deadline`.
    async fn fill(&mut self, deadline: Instant) -> Filled {
        let mut chunk = [0u8; 8192];
        match tokio::time::timeout_at(deadline, self.stream.read(&mut chunk)).await {
            Ok(Ok(n)) if n > 0 => {
                self.buffer.extend_from_slice(&chunk[..n]);
                Filled::Data
            }
            Ok(_) => Filled::End,
            Err(_) => Filled::Deadline,
        }
    }

    /// The next request, whole, or why there is none.
    async fn next_request(&mut self) -> Next {
        let shared = self.shared.clone();
        let options = &shared.options;
        let head_deadline = Instant::now() + options.head_timeout;
        let head_end = loop {
            // Empty lines before a request line are skipped (RFC 9112, section 2.2).
            let blank = self
                .buffer
                .chunks(2)
                .take_while(|pair| *pair == b"\r\n")
                .count();
            if blank > 0 {
                self.buffer.drain(..blank * 2);
                self.scanned = 0;
            }
            let from = self.scanned.saturating_sub(3);
            if let Some(at) = self.buffer[from..]
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
            {
                break from + at + 4;
            }
            // Scanned once, whatever the client trickles.
            self.scanned = self.buffer.len();
            if self.buffer.len() > ServerOptions::MAX_HEAD_BYTES {
                return refuse(431, "the request head is larger than 64 KiB");
            }
            match self.fill(head_deadline).await {
                Filled::Data => {}
                Filled::End => return Next::Closed,
                Filled::Deadline if self.buffer.is_empty() => return Next::Closed,
                Filled::Deadline => {
                    return Next::Refuse(
                        408,
                        format!(
                            "the request head did not arrive within {} ms",
                            options.head_timeout.as_millis()
                        ),
                    )
                }
            }
        };
        self.scanned = 0;
        if head_end > ServerOptions::MAX_HEAD_BYTES {
            return refuse(431, "the request head is larger than 64 KiB");
        }
        let head = match check_head(&self.buffer[..head_end - 4], &self.shared) {
            Ok(head) => head,
            Err((status, message)) => return Next::Refuse(status, message),
        };
        self.buffer.drain(..head_end);
        let permit = match head.length {
            0 => None,
            length => {
                // At most MAX_BODY_BYTES, which fits.
                let permits = u32::try_from(length).unwrap_or(u32::MAX);
                match self.shared.bodies.clone().acquire_many_owned(permits).await {
                    Ok(permit) => Some(permit),
                    Err(_) => return Next::Closed,
                }
            }
        };
        if head.expect_continue && head.length > 0 && self.buffer.is_empty() {
            let written = tokio::time::timeout(
                options.write_timeout,
                self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n"),
            )
            .await;
            if !matches!(written, Ok(Ok(()))) {
                return Next::Closed;
            }
        }
        // The body in a buffer of its own, exactly its length: what it holds is what the
        // permit counts, and the connection's buffer stays small.
        let mut body = Vec::with_capacity(head.length);
        let already = head.length.min(self.buffer.len());
        body.extend_from_slice(&self.buffer[..already]);
        self.buffer.drain(..already);
        let body_deadline = Instant::now() + options.body_timeout;
        while body.len() < head.length {
            // Nothing past the body is read into it: the next request's bytes stay.
            let left = (head.length - body.len()) as u64;
            let mut rest = (&mut self.stream).take(left);
            match tokio::time::timeout_at(body_deadline, rest.read_buf(&mut body)).await {
                Ok(Ok(n)) if n > 0 => {}
                // The client left before its body arrived: nothing runs.
                Ok(_) => return Next::Closed,
                Err(_) => {
                    return Next::Refuse(
                        408,
                        format!(
                            "the body did not arrive within {} ms: {} of its {} bytes came; nothing was run",
                            options.body_timeout.as_millis(),
                            body.len(),
                            head.length
                        ),
                    )
                }
            }
        }
        if json_values(&body) > ServerOptions::MAX_JSON_VALUES {
            return Next::Refuse(
                413,
                format!(
                    "the body holds more than {} JSON values; nothing was run",
                    ServerOptions::MAX_JSON_VALUES
                ),
            );
        }
        Next::Request {
            request: RawRequest {
                http_method: head.http_method,
                path: head.path,
                headers: head.headers,
                body,
            },
            keep_alive: head.keep_alive,
            permit,
            origin: head.origin,
        }
    }

    /// Puts `reply` on the wire within the write deadline; whether the connection may
    /// carry another request.
    async fn write(&mut self, reply: HttpReply, keep_alive: bool) -> bool {
        if !reply.delay.is_zero() {
            tokio::time::sleep(reply.delay).await;
        }
        let deadline = self.shared.options.write_timeout;
        tokio::time::timeout(deadline, write_reply(&mut self.stream, reply, keep_alive))
            .await
            .unwrap_or(false)
    }

    /// After a refusal: closes the sending side, then reads and drops what the client
    /// still sends (the rest of a request), for a moment at most, so that the refusal
    /// is read rather than lost to a reset.
    async fn linger(&mut self) {
        let _ = self.stream.shutdown().await;
        let deadline = Instant::now() + LINGER;
        let mut chunk = [0u8; 8192];
        let mut dropped = 0usize;
        while dropped <= ServerOptions::MAX_BODY_BYTES {
            match tokio::time::timeout_at(deadline, self.stream.read(&mut chunk)).await {
                Ok(Ok(n)) if n > 0 => dropped += n,
                _ => break,
            }
        }
    }
}

/// A refusal with a fixed reason.
fn refuse(status: u16, message: &str) -> Next {
    Next::Refuse(status, message.to_owned())
}

/// Reads a request head (without its final blank line) and checks it: its syntax, who
/// it comes from, how its body is delimited.
fn check_head(bytes: &[u8], shared: &Shared) -> Result<Head, (u16, String)> {
    let bad = |status: u16, message: &str| Err((status, message.to_owned()));
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.split("\r\n");
    let mut parts = lines.next().unwrap_or_default().split(' ');
    let (Some(http_method), Some(path), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return bad(400, "the request line is not METHOD TARGET HTTP/1.1");
    };
    if http_method.is_empty()
        || !http_method.bytes().all(is_token)
        || path.is_empty()
        || path.bytes().any(|b| b <= b' ' || b == 0x7f)
    {
        return bad(400, "the request line is not METHOD TARGET HTTP/1.1");
    }
    let http_1_1 = match version {
        "HTTP/1.1" => true,
        "HTTP/1.0" => false,
        v if v.starts_with("HTTP/") => return bad(505, "only HTTP/1.1 and HTTP/1.0 are served"),
        _ => return bad(400, "the request line is not METHOD TARGET HTTP/1.1"),
    };
    let mut headers = Vec::new();
    for line in lines {
        if line.starts_with([' ', '\t']) {
            return bad(
                400,
                "a header line is folded onto the next (obsolete line folding)",
            );
        }
        let Some((name, value)) = line.split_once(':') else {
            return bad(400, "a header line is not NAME: VALUE");
        };
        if name.is_empty() || !name.bytes().all(is_token) {
            return bad(
                400,
                "a header name is not a token (a space before its colon?)",
            );
        }
        let value = value.trim_matches([' ', '\t']);
        if value.chars().any(|c| c.is_control() && c != '\t') {
            return bad(400, "a header value holds a control character");
        }
        headers.push((name.to_ascii_lowercase(), value.to_owned()));
    }
    let all = |name: &str| -> Vec<&str> {
        headers
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    };

    // Who is asking: a local client, not a web page (DNS rebinding changes where a name
    // points, not the name a browser puts in `Host`).
    match all("host").as_slice() {
        [host] => {
            if !shared.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
                return bad(
                    403,
                    "the host header does not name this server (127.0.0.1, localhost or [::1] with its port): a web page's request (DNS rebinding)?",
                );
            }
        }
        [] => return bad(400, "no host header"),
        _ => return bad(400, "more than one host header"),
    }
    let origins = all("origin");
    // All allowed (checked below), so any of them is the page's.
    let origin = origins.first().map(|o| (*o).to_owned());
    if !origins.is_empty() {
        let allowed = |origin: &&str| {
            shared
                .options
                .allowed_origins
                .iter()
                .any(|o| o.matches(origin))
        };
        if !origins.iter().all(allowed) {
            return bad(
                403,
                "requests from web pages (an origin header) are refused unless their origin is allowed (--allow-origin)",
            );
        }
    } else if all("sec-fetch-site")
        .iter()
        .any(|site| !matches!(site.to_ascii_lowercase().as_str(), "none" | "same-origin"))
    {
        // A browser marks every request it sends; one another site's page made (an
        // image, a form, a link followed) may carry no origin but says where it is from.
        return bad(
            403,
            "a web page of another site sent this (sec-fetch-site): refused, as requests with an origin header are",
        );
    }

    // How the body is delimited: by one plain content-length, nothing else.
    let lengths = all("content-length");
    let codings = all("transfer-encoding");
    if !codings.is_empty() {
        if !lengths.is_empty() {
            return bad(400, "both a transfer-encoding and a content-length");
        }
        let last = codings
            .last()
            .and_then(|v| v.rsplit(',').next())
            .unwrap_or_default()
            .trim();
        return if last.eq_ignore_ascii_case("chunked") {
            bad(411, "send the body with a content-length")
        } else {
            bad(
                501,
                "no transfer-encoding is understood; send the body with a content-length",
            )
        };
    }
    let length = match lengths.as_slice() {
        [] => 0,
        [value] => {
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
                return bad(400, "the content-length is not a number");
            }
            match value.parse::<u64>() {
                Err(_) => return bad(400, "the content-length is too large to be a number"),
                Ok(n) if n > ServerOptions::MAX_BODY_BYTES as u64 => {
                    return bad(413, "the body is larger than 16 MiB")
                }
                // At most MAX_BODY_BYTES.
                Ok(n) => usize::try_from(n).unwrap_or(usize::MAX),
            }
        }
        _ => return bad(400, "more than one content-length"),
    };
    let expect_continue = match all("expect").as_slice() {
        [] => false,
        [value] if value.eq_ignore_ascii_case("100-continue") => true,
        _ => return bad(417, "only `expect: 100-continue` is understood"),
    };
    let tokens = all("connection").join(",").to_ascii_lowercase();
    let has = |token: &str| tokens.split(',').any(|t| t.trim() == token);
    let keep_alive = if has("close") {
        false
    } else {
        has("keep-alive") || http_1_1
    };
    Ok(Head {
        http_method: http_method.to_owned(),
        path: path.to_owned(),
        headers,
        length,
        keep_alive,
        expect_continue,
        origin,
    })
}

/// The answer to an allowed page's CORS preflight (`OPTIONS`): it may POST with a
/// `content-type` (`application/json` is not one a page may send unasked), the only
/// request header the server reads; the browser may keep the answer ten minutes.
fn preflight() -> HttpReply {
    HttpReply {
        status: 200,
        headers: vec![
            ("access-control-allow-methods".into(), "POST".into()),
            ("access-control-allow-headers".into(), "content-type".into()),
            ("access-control-max-age".into(), "600".into()),
        ],
        body: Vec::new(),
        delay: Duration::ZERO,
        shape: Shape::KeepId,
    }
}

/// A character of an HTTP token (methods, header names; RFC 9110, section 5.6.2).
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// An upper bound of the values `body` holds as JSON, counted without parsing it: one,
/// plus its commas, colons and opening brackets outside strings.
fn json_values(body: &[u8]) -> usize {
    let mut count = 1;
    let mut in_string = false;
    let mut escaped = false;
    for &b in body {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            match b {
                b'"' => in_string = true,
                b',' | b':' | b'[' | b'{' => count += 1,
                _ => {}
            }
        }
    }
    count
}

/// Puts `reply` on the wire (its delay waited); whether the connection may carry
/// another request.
async fn write_reply(stream: &mut TcpStream, reply: HttpReply, keep_alive: bool) -> bool {
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
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        417 => "Expectation Failed",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        _ => "Status",
    }
}
