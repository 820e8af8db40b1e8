//! A mock NEAR JSON-RPC node for tests: a small coherent chain authored here that
//! executes the transactions sent to it ([`runtime`] says how), contracts written in
//! Rust ([`Contract`]), per-method overrides, injected faults, recorded requests, and
//! record/replay of a real node.
//!
//! [Its README](https://crates.io/crates/near-rpc-mock) is the guide: a write flow with a
//! Rust contract, faults and overrides, and what it executes.
//!
//! Not executed: Wasm (contracts are Rust), promises and cross-contract calls, global
//! contracts, deterministic state init, gas keys (refused with a message saying so).
//! Stake locks and unlocks at once, not at an epoch's end; every outcome's
//! `gas_profile` is `null`; an ETH-implicit account a transfer creates gets no wallet
//! contract; views read the current state whatever block they name. Contract methods
//! burn [`fees::CALL_BASE_GAS`] plus [`fees::CALL_GAS_PER_BYTE`] per byte of arguments
//! and state written, which `EXPERIMENTAL_protocol_config` does not show.
//!
//! It runs two ways, sharing one request handler:
//!
//! - **in-process**, as a [`Transport`](near_rpc::client::transport::Transport) of
//!   near-rpc's client: no socket ([`MockNode::client`]);
//! - **over HTTP** on `127.0.0.1` with an ephemeral port, for any client in any language
//!   ([`MockNode::start`]); the server stops, its open connections with it, when the
//!   [`MockServer`] is dropped, or when [`MockServer::stop`] returns.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! use near_rpc::methods;
//! use near_rpc_mock::{Fault, FaultRule, MockNode};
//!
//! let node = MockNode::new();
//! node.inject(FaultRule::new(Fault::status(503)).for_method("status").times(1));
//! let status = node.client().call::<methods::StatusMethod>(()).await.unwrap(); // retried once
//! assert_eq!(status.chain_id, "mock");
//! assert_eq!(node.requests_for("status").len(), 2);
//! # }
//! ```
//!
//! Saved chains ([`MockNode::load`]) and the credential files written for them
//! ([`MockNode::write_credentials`]) are safe with files from anyone, on shared
//! machines: a file is read up to [`state_file::MAX_FILE_BYTES`], its account ids must
//! be NEAR account ids and its numbers within what the runtime can add up without
//! overflow (each refusal names the JSON path, and the limit), so a loaded chain never
//! panics or wraps; key files land only in `DIR/mock`, as `<account_id>.json`, 0600,
//! in folders no other user can write to, replacing (never following) whatever was at
//! their name. [`state_file`] and [`MockNode::write_credentials`] say exactly what is
//! checked.
//!
//! Users add it as a dev-dependency; near-rpc itself does not depend on it.
//!
//! ## Over HTTP, under hostile input
//!
//! The server runs in CI and on shared machines, and `near-rpc record` runs it in front
//! of a provider holding the user's API key, so under hostile input it stays safe and
//! alive. What it guarantees, for the mock node and the recording proxy ([`Recorder`])
//! alike (the numbers are [`ServerOptions`]' defaults and constants):
//!
//! - **Only local clients, no web pages.** A request whose `Host` is not
//!   `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT` (the listening port; without it
//!   only on port 80) is refused with 403: a web page that rebinds its own name to
//!   127.0.0.1 (DNS rebinding) still sends its name. A request with an `Origin` header,
//!   which browsers add to the requests of web pages, is refused with 403 unless that
//!   origin was allowed ([`ServerOptions::allow_origin`]; `--allow-origin`). A request
//!   with no `Host`, or two, is refused with 400. Refused requests never reach the node
//!   (nor its request log) or the upstream.
//! - **A request runs only when it arrived whole.** The body is exactly the
//!   `content-length` bytes after the head; a client that closes before they all arrive,
//!   or lets the body deadline (30 s) pass, gets nothing run, nothing logged and no
//!   answer that pretends it ran (408 at the deadline). Bytes past the declared length are
//!   the next request's (pipelining): they are read as a request head, and refused (400)
//!   when they are not one. Bodies are delimited by `content-length` only:
//!   `transfer-encoding: chunked` is refused with 411 (resend with a length), another
//!   transfer coding with 501, both headers together with 400, as are two
//!   `content-length`s, and one that is not plain digits (`+1`, `1 0`, `1,1`) or does not
//!   fit a number; a length over 16 MiB is refused with 413. A malformed request line or
//!   header line is refused with 400. Every refusal closes the connection (after reading
//!   what the client still sends, for a moment, so that it reads the answer rather than
//!   a reset).
//! - **Deadlines.** The whole request head must arrive within 10 s of the server
//!   starting to wait for it (on a kept-alive connection, from the previous answer): a
//!   client that trickles a byte at a time is answered 408 and closed at the deadline,
//!   and an idle connection is closed. The body has 30 s from the end of its head, an
//!   answer 30 s to be taken by the client.
//! - **Bounded memory.** Heads up to 64 KiB (431 beyond), bodies up to 16 MiB, at most
//!   64 MiB of bodies read or being answered at once (a request whose body does not fit
//!   waits, before its body is read, for others to finish), at most 256 connections at
//!   once (the next ones wait in the listen backlog until one closes), and a body of
//!   more than 262,144 JSON values refused with 413 before it is parsed (parsed, a value
//!   takes 32 bytes or more: a 16 MiB `[0,0,...]` would take over 256 MiB). The mock
//!   node's request log is bounded too ([`RequestLog`]).
//! - **It keeps accepting.** An error of `accept` that concerns one connection is
//!   skipped; any other (out of file descriptors, `EMFILE`/`ENFILE`, or of memory) makes
//!   the server wait, 10 ms doubling up to 1 s on the runtime's clock, and try again, for
//!   as long as it runs: it accepts again once descriptors are free.
//!
//! In process ([`MockNode::client`]) none of this applies: nothing comes off a wire.

mod block_tree;
mod cassette;
pub mod chain;
pub mod contract;
mod credentials;
pub mod fees;
mod handler;
pub mod light_client;
pub mod runtime;
mod server;
pub mod state_file;
mod transport;
mod window;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{json, Value};

pub use cassette::{Cassette, Exchange, Recorder};
pub use chain::Chain;
pub use contract::{Call, Contract};
pub use handler::RpcError;
pub use server::{BackgroundServer, InvalidOrigin, MockServer, Origin, ServerOptions};
pub use state_file::StateError;

/// A loopback URL where nothing listens: a dead endpoint, for failover tests.
pub fn unused_url() -> String {
    match std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()) {
        Ok(address) => format!("http://{address}"),
        Err(e) => panic!("cannot bind 127.0.0.1: {e}"),
    }
}

/// How one request is answered on the wire (by the HTTP server) or in process (by the
/// transport): the low-level form every reply, override and fault comes down to.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpReply {
    /// The HTTP status.
    pub status: u16,
    /// Response headers.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
    /// A wait before answering.
    pub delay: Duration,
    /// How it goes on the wire.
    pub shape: Shape,
}

/// How an [`HttpReply`] goes on the wire.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Status, headers, `content-length`, body; a JSON body's top-level `id` becomes the
    /// request's, as nodes echo it.
    Normal,
    /// As [`Shape::Normal`], but the body's `id` is kept as written.
    KeepId,
    /// `body` is the whole HTTP response, bytes as they are (a malformed or truncated
    /// response).
    Raw,
    /// The body is cut short: its `content-length` promises 100 more bytes, then the
    /// connection closes.
    Truncated,
    /// The connection closes without an answer.
    Drop,
    /// A chunked 200 repeating `body` until the client stops reading (at most 256 MiB).
    Endless,
}

impl HttpReply {
    /// HTTP 200 with a JSON body.
    pub fn json(body: &str) -> Self {
        Self::status(200, body)
    }

    /// Any status with `body` (`content-type: application/json`).
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
                    r#"{{"jsonrpc":"2.0","id":"1","result":"{}"#,
                    "x".repeat(65_536)
                ),
            )
        }
    }

    /// An HTML page with any status, as a proxy or gateway sends it.
    pub fn html(status: u16, page: &str) -> Self {
        Self {
            headers: vec![("content-type".into(), "text/html".into())],
            ..Self::status(status, page)
        }
    }

    /// A redirect to `location`.
    pub fn redirect(status: u16, location: &str) -> Self {
        Self::status(status, "").header("location", location)
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

    /// Sends the body's `id` as written.
    pub fn keep_id(mut self) -> Self {
        self.shape = Shape::KeepId;
        self
    }

    /// The body cut short (see [`Shape::Truncated`]).
    pub fn truncated(mut self) -> Self {
        self.shape = Shape::Truncated;
        self
    }
}

/// A way to misbehave, for the client's failure paths.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Fault {
    /// Answer normally, after a wait.
    Latency(Duration),
    /// An HTTP status with nearcore's `INTERNAL_ERROR` JSON-RPC body, or with plain text.
    Status {
        /// The status.
        status: u16,
        /// Whether the body is a JSON-RPC error.
        json_rpc: bool,
    },
    /// HTTP 429 (or another status) with `Retry-After`.
    RetryAfter {
        /// The status.
        status: u16,
        /// The seconds to wait.
        seconds: u64,
    },
    /// An HTML error page, as a proxy sends it.
    HtmlPage {
        /// The status.
        status: u16,
    },
    /// The normal answer, cut short.
    Truncated,
    /// A body of `bytes` bytes (a JSON-RPC result that is one long string).
    Oversized {
        /// Its size.
        bytes: usize,
    },
    /// The connection closes without an answer.
    DropConnection,
    /// A redirect to `location`.
    Redirect {
        /// The 3xx status.
        status: u16,
        /// Where to.
        location: String,
    },
    /// The normal answer with another request's id.
    WrongId,
}

impl Fault {
    /// An HTTP status with a JSON-RPC body.
    pub fn status(status: u16) -> Self {
        Self::Status {
            status,
            json_rpc: true,
        }
    }
}

/// When a [`Fault`] applies: to a method, to the n-th request, a number of times.
#[derive(Clone, Debug)]
pub struct FaultRule {
    fault: Fault,
    method: Option<String>,
    nth: Option<usize>,
    remaining: Option<usize>,
}

impl FaultRule {
    /// `fault` on every request, until limited.
    pub fn new(fault: Fault) -> Self {
        Self {
            fault,
            method: None,
            nth: None,
            remaining: None,
        }
    }

    /// Only requests of `method`.
    pub fn for_method(mut self, method: &str) -> Self {
        self.method = Some(method.to_owned());
        self
    }

    /// Only the `n`-th request the node receives (from 1).
    pub fn nth_request(mut self, n: usize) -> Self {
        self.nth = Some(n);
        self
    }

    /// At most `n` times.
    pub fn times(mut self, n: usize) -> Self {
        self.remaining = Some(n);
        self
    }

    fn matches(&self, method: &str, count: usize) -> bool {
        self.remaining != Some(0)
            && self.method.as_deref().is_none_or(|m| m == method)
            && self.nth.is_none_or(|n| n == count)
    }
}

/// What a per-method handler answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A `result`.
    Result(Value),
    /// An `error` member, and the HTTP status to send it with.
    Error(RpcError),
    /// A reply built by hand.
    Http(HttpReply),
}

impl Reply {
    /// A `HANDLER_ERROR` with cause `name` and `info`, as nearcore sends it.
    pub fn handler_error(name: &str, info: Value) -> Self {
        Self::Error(RpcError::handler(name, info, name.to_lowercase()))
    }
}

type Handler = Arc<dyn Fn(&Value) -> Reply + Send + Sync>;

/// A request the node received, as its log keeps it: the bytes, bounded by
/// [`RequestLog`], never a parsed copy ([`Recorded::params`] parses when asked).
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// The JSON-RPC method (empty when the body was not a JSON-RPC request, or when its
    /// method is longer than [`RequestLog::FIELD_BYTES`], which no node's is).
    pub method: String,
    /// The id (`null` when absent, or when it takes more than
    /// [`RequestLog::FIELD_BYTES`] as JSON).
    pub id: Value,
    /// The HTTP method (`POST`; empty in process).
    pub http_method: String,
    /// The request path (`/` in process).
    pub path: String,
    /// The request headers, names lower-case (none in process).
    pub headers: Vec<(String, String)>,
    /// The raw body, or its first [`RequestLog::body_bytes`] bytes when it was longer
    /// ([`Recorded::truncated`]).
    pub body: Vec<u8>,
    /// How long the body was as received (more than `body.len()` when truncated).
    pub body_len: usize,
}

impl Recorded {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the log kept only the first part of the body ([`RequestLog::body_bytes`]):
    /// the request was answered whole, but [`Recorded::json`] and [`Recorded::params`]
    /// can no longer read it.
    pub fn truncated(&self) -> bool {
        self.body.len() < self.body_len
    }

    /// The body as JSON (`null` when it is not JSON, or was truncated).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// The params, read from the body now (`null` when absent, when the body is not a
    /// JSON object, or when it was truncated).
    pub fn params(&self) -> Value {
        match self.json() {
            Value::Object(mut body) => body.remove("params").unwrap_or(Value::Null),
            _ => Value::Null,
        }
    }

    /// What the log counts this request as: its bytes, and the record's own size.
    fn footprint(&self) -> usize {
        let headers: usize = self
            .headers
            .iter()
            .map(|(n, v)| std::mem::size_of::<(String, String)>() + n.len() + v.len())
            .sum();
        std::mem::size_of::<Self>()
            + self.method.len()
            + value_bytes(&self.id, usize::MAX).unwrap_or(0)
            + self.http_method.len()
            + self.path.len()
            + headers
            + self.body.len()
    }
}

/// The length of `value` as JSON text (what the log counts it for), or `None` past
/// `limit`: counted as it is written out, never held.
fn value_bytes(value: &Value, limit: usize) -> Option<usize> {
    /// Counts what is written, and fails past the limit.
    struct Count {
        bytes: usize,
        limit: usize,
    }
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.bytes += buf.len();
            if self.bytes > self.limit {
                return Err(std::io::Error::other("past the limit"));
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    if value.is_null() {
        return Some(0);
    }
    let mut count = Count { bytes: 0, limit };
    serde_json::to_writer(&mut count, value).ok()?;
    Some(count.bytes)
}

/// How much of the requests a node keeps ([`MockNode::requests`]), so that a node that
/// runs long or is sent large bodies holds a bounded number of bytes: past a bound the
/// oldest requests go first, and each body is kept up to a length, with the length it
/// had beside it ([`Recorded::body_len`], [`Recorded::truncated`]). Counting by number
/// ([`FaultRule::nth_request`], scripts, [`MockNode::requests_received`]) is unaffected.
///
/// The default ([`RequestLog::DEFAULT`]) keeps any number of requests within 64 MiB in
/// all, each body up to 1 MiB: every request a test sends, in full, unless it sends
/// more than that. Set with [`MockNode::set_request_log`]; `near-rpc mock` keeps less.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestLog {
    /// The most requests kept (`None`: as many as `bytes` allows).
    pub requests: Option<usize>,
    /// The most bytes the log holds, all requests together: each request's body as
    /// kept, its headers, method, path and id, and the record's own size.
    pub bytes: usize,
    /// The most bytes of each body kept; the rest is dropped from the log (not from
    /// the request, which is answered whole).
    pub body_bytes: usize,
}

impl RequestLog {
    /// Any number of requests within 64 MiB, each body up to 1 MiB.
    pub const DEFAULT: Self = Self {
        requests: None,
        bytes: 64 * 1024 * 1024,
        body_bytes: 1024 * 1024,
    };

    /// The longest method name, and the longest id as JSON, a record keeps.
    pub const FIELD_BYTES: usize = 256;
}

impl Default for RequestLog {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A request as it arrives, before it is read as JSON-RPC.
#[derive(Clone, Debug, Default)]
pub(crate) struct RawRequest {
    pub http_method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

struct State {
    chain: Chain,
    handlers: HashMap<String, Handler>,
    faults: Vec<FaultRule>,
    script: Vec<HttpReply>,
    /// How many requests came before the script was set: its first reply answers the next.
    script_from: usize,
    replay: Option<Cassette>,
    /// The last requests, each with what it counts for in the log's bytes.
    requests: VecDeque<(usize, Recorded)>,
    /// The sum of the kept requests' counts.
    requests_bytes: usize,
    /// How many requests arrived, kept or not.
    received: usize,
    /// What the log keeps.
    request_log: RequestLog,
    block_time: Duration,
}

impl Default for State {
    fn default() -> Self {
        Self {
            chain: Chain::default(),
            handlers: HashMap::new(),
            faults: Vec::new(),
            script: Vec::new(),
            script_from: 0,
            replay: None,
            requests: VecDeque::new(),
            requests_bytes: 0,
            received: 0,
            request_log: RequestLog::DEFAULT,
            block_time: Duration::from_millis(5),
        }
    }
}

/// The mock node. Cheap to clone; clones share the chain, the rules and the record.
#[derive(Clone, Default)]
pub struct MockNode {
    state: Arc<Mutex<State>>,
}

impl std::fmt::Debug for MockNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.lock();
        f.debug_struct("MockNode")
            .field("head", &state.chain.head())
            .field("handlers", &state.handlers.keys().collect::<Vec<_>>())
            .field("faults", &state.faults)
            .field("requests", &state.requests.len())
            .finish()
    }
}

impl MockNode {
    /// A node with the default chain, in process (see [`MockNode::start`] for HTTP).
    pub fn new() -> Self {
        Self::default()
    }

    /// A node answering from a recorded [`Cassette`] (matching on method and params),
    /// and from the default chain for requests the cassette lacks.
    pub fn replaying(cassette: Cassette) -> Self {
        Self::new().with_replay(cassette)
    }

    /// This node, answering from `cassette` first (see [`MockNode::replaying`]).
    pub fn with_replay(self, cassette: Cassette) -> Self {
        self.lock().replay = Some(cassette);
        self
    }

    /// A node with the chain saved at `path` ([`MockNode::save`]).
    pub fn load(path: &std::path::Path) -> Result<Self, StateError> {
        let node = Self::new();
        node.lock().chain = Chain::load(path)?;
        Ok(node)
    }

    /// Saves the chain to `path`, to start a node from later ([`MockNode::load`]).
    pub fn save(&self, path: &std::path::Path) -> std::io::Result<()> {
        self.lock().chain.save(path)
    }

    /// Starts a node with the default chain on `127.0.0.1` at an ephemeral port.
    pub async fn start() -> MockServer {
        match Self::new().serve(0).await {
            Ok(server) => server,
            // Binding port 0 on loopback fails only when the machine has no loopback.
            Err(e) => panic!("cannot listen on 127.0.0.1: {e}"),
        }
    }

    /// Serves this node on `127.0.0.1:port` (0: any free port) until the returned
    /// server is dropped or stopped ([`MockServer::stop`]), with the default
    /// [`ServerOptions`].
    pub async fn serve(&self, port: u16) -> std::io::Result<MockServer> {
        self.serve_with(ServerOptions::new().port(port)).await
    }

    /// Serves this node as `options` say (port, allowed origins, limits) until the
    /// returned server is dropped or stopped.
    pub async fn serve_with(&self, options: ServerOptions) -> std::io::Result<MockServer> {
        server::serve(self.clone(), options).await
    }

    /// Serves this node on `127.0.0.1:port` from a thread of its own, so that blocking
    /// code and other processes can call it; it stops when the returned server is
    /// dropped. Needs no runtime.
    pub fn serve_in_background(&self, port: u16) -> std::io::Result<BackgroundServer> {
        self.serve_in_background_with(ServerOptions::new().port(port))
    }

    /// Serves this node as `options` say from a thread of its own (see
    /// [`MockNode::serve_in_background`]).
    pub fn serve_in_background_with(
        &self,
        options: ServerOptions,
    ) -> std::io::Result<BackgroundServer> {
        server::serve_in_background(self.clone(), options)
    }

    /// A node with the default chain serving from a thread of its own at an ephemeral
    /// port (see [`MockNode::serve_in_background`]).
    pub fn start_in_background() -> BackgroundServer {
        match Self::new().serve_in_background(0) {
            Ok(server) => server,
            Err(e) => panic!("cannot listen on 127.0.0.1: {e}"),
        }
    }

    /// A node answering `replies` in order whatever is asked (see [`MockNode::script`]),
    /// served from a thread of its own at an ephemeral port.
    pub fn start_scripted(replies: Vec<HttpReply>) -> BackgroundServer {
        let node = Self::new();
        node.script(replies);
        match node.serve_in_background(0) {
            Ok(server) => server,
            Err(e) => panic!("cannot listen on 127.0.0.1: {e}"),
        }
    }

    /// A near-rpc client talking to this node in process, with the client's default
    /// layers (retries included) over it.
    pub fn client(&self) -> near_rpc::client::Client {
        near_rpc::client::Client::with_transport(self.clone())
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A test that panicked while holding the lock leaves the state usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reads or changes the chain.
    pub fn with_chain<T>(&self, f: impl FnOnce(&mut Chain) -> T) -> T {
        f(&mut self.lock().chain)
    }

    /// A signer for the mock's account `account_id` (its key, [`chain::secret_key`]),
    /// for near-rpc's write path; `None` if the account has no such full-access key.
    pub fn signer(&self, account_id: &str) -> Option<near_rpc::client::Signer> {
        let signers = self.lock().chain.signers();
        let (id, key) = signers.into_iter().find(|(id, _)| id == account_id)?;
        Some(near_rpc::client::Signer::new(id.parse().ok()?, key))
    }

    /// Registers a contract (see [`Chain::register`]).
    pub fn register(&self, contract: Contract) {
        self.lock().chain.register(contract);
    }

    /// Deploys a contract on an account directly (see [`Chain::deploy`]).
    pub fn deploy(&self, account_id: &str, contract: Contract) {
        self.lock().chain.deploy(account_id, contract);
    }

    /// Writes a near-cli credential file, `DIR/mock/<account_id>.json`, for every account
    /// a client can sign for ([`Chain::signers`]); returns their paths. The keys guard
    /// nothing (they are derived from the accounts' names), but the files are written
    /// readable by their owner only (0600), as near-cli writes them, and never outside
    /// `DIR/mock`, whatever the chain (a saved one is anyone's):
    ///
    /// - every account id must be a NEAR account id, checked before any file is written
    ///   (a chain loaded from a file has been checked already);
    /// - `DIR` and `DIR/mock` are created 0700 when missing. On Unix an existing one
    ///   writable by group or others, or owned by another user than the one writing
    ///   (root aside), is refused, not fixed: its permissions are its owner's to change
    ///   (`chmod go-w DIR`). `DIR/mock` must not be a symbolic link;
    /// - each file is created anew (0600, never through a link planted at its name) and
    ///   renamed over `<account_id>.json`, so a file or link there is replaced, not
    ///   followed or kept with its mode.
    ///
    /// An error names the path or the account at fault.
    pub fn write_credentials(
        &self,
        dir: &std::path::Path,
    ) -> std::io::Result<Vec<std::path::PathBuf>> {
        let signers = self.lock().chain.signers();
        credentials::write_all(dir, chain::CHAIN_ID, &signers)
    }

    /// Produces `n` more blocks (including what was submitted, executing what is due).
    pub fn advance(&self, n: u64) {
        self.lock().chain.advance(n);
    }

    /// Answers `method` with `handler(params)` from now on.
    pub fn on(&self, method: &str, handler: impl Fn(&Value) -> Reply + Send + Sync + 'static) {
        self.lock()
            .handlers
            .insert(method.to_owned(), Arc::new(handler));
    }

    /// Answers `method` with this `result`.
    pub fn respond_json(&self, method: &str, result: Value) {
        self.on(method, move |_| Reply::Result(result.clone()));
    }

    /// Answers method `M` with this typed result.
    pub fn respond_with<M: near_rpc::methods::RpcMethod>(&self, result: M::Result) {
        let reply = match serde_json::to_value(&result) {
            Ok(value) => Reply::Result(value),
            Err(e) => Reply::Error(RpcError::internal(format!("cannot encode the result: {e}"))),
        };
        self.on(M::NAME, move |_| reply.clone());
    }

    /// Adds a fault rule; the first matching rule applies.
    pub fn inject(&self, rule: FaultRule) {
        self.lock().faults.push(rule);
    }

    /// Answers the next requests with `replies`, in order, whatever they ask; after the
    /// last, the last repeats. Overrides everything else.
    pub fn script(&self, replies: Vec<HttpReply>) {
        let mut state = self.lock();
        state.script_from = state.received;
        state.script = replies;
    }

    /// Keeps at most the last `limit` requests ([`MockNode::requests`]), within the
    /// log's bytes ([`RequestLog`]); counting by number ([`FaultRule::nth_request`],
    /// scripts) is unaffected.
    pub fn keep_requests(&self, limit: usize) {
        let mut state = self.lock();
        state.request_log.requests = Some(limit);
        state.trim_requests();
    }

    /// Bounds what the request log keeps (see [`RequestLog`]; the kept requests are
    /// trimmed to it now, their bodies as they were kept).
    pub fn set_request_log(&self, log: RequestLog) {
        let mut state = self.lock();
        state.request_log = log;
        state.trim_requests();
    }

    /// The requests received so far, oldest first: all of them unless the log's bounds
    /// ([`RequestLog`]) dropped the oldest, each body whole unless longer than the log
    /// keeps ([`Recorded::truncated`]).
    pub fn requests(&self) -> Vec<Recorded> {
        self.lock()
            .requests
            .iter()
            .map(|(_, r)| r.clone())
            .collect()
    }

    /// The requests of `method` (see [`MockNode::requests`]).
    pub fn requests_for(&self, method: &str) -> Vec<Recorded> {
        let state = self.lock();
        state
            .requests
            .iter()
            .map(|(_, r)| r)
            .filter(|r| r.method == method)
            .cloned()
            .collect()
    }

    /// How many requests the node has received, kept in its log or not.
    pub fn requests_received(&self) -> usize {
        self.lock().received
    }

    /// How long the node waits, while a request waits for a transaction, before it
    /// produces the next block: the window in which other requests join that block.
    /// 5 ms unless set; a test with paused time does not wait it.
    pub fn set_block_time(&self, block_time: Duration) {
        self.lock().block_time = block_time;
    }

    /// The one handler behind both the HTTP server and the in-process transport.
    pub(crate) async fn handle(&self, request: RawRequest) -> HttpReply {
        let (wait, id, fault) = match self.begin(request) {
            Begun::Reply(reply) => return reply,
            Begun::Wait { wait, id, fault } => (wait, id, fault),
        };
        let answer = envelope(&id, self.wait(wait).await);
        match fault {
            None => answer,
            Some(fault) => apply(fault, answer, &id),
        }
    }

    /// Produces blocks, one per block time, until the transaction reaches the level
    /// (another waiting request's block counts too).
    async fn wait(&self, wait: handler::Wait) -> Result<Value, RpcError> {
        for waited in 0..=runtime::MAX_WAIT_BLOCKS {
            let (block_time, head) = {
                let state = self.lock();
                if let Some(answer) = handler::resume(&state.chain, &wait) {
                    return answer;
                }
                (state.block_time, state.chain.head())
            };
            if waited == runtime::MAX_WAIT_BLOCKS {
                break;
            }
            tokio::time::sleep(block_time).await;
            let mut state = self.lock();
            if state.chain.head() == head {
                state.chain.advance(1);
            }
        }
        Err(handler::timeout(&wait, runtime::MAX_WAIT_BLOCKS))
    }

    /// Records a request and answers it, unless it waits for a transaction.
    fn begin(&self, request: RawRequest) -> Begun {
        let mut state = self.lock();
        let mut parsed: Option<Value> = serde_json::from_slice(&request.body).ok();
        let method = parsed
            .as_ref()
            .and_then(|p| p["method"].as_str())
            .unwrap_or_default()
            .to_owned();
        // Taken, not copied: the body and its parsed form are the request's largest parts.
        let params = parsed
            .as_mut()
            .and_then(|p| p.get_mut("params"))
            .map_or(Value::Null, Value::take);
        let id = parsed.as_ref().map_or(Value::Null, |p| p["id"].clone());
        let is_json = parsed.is_some();
        // The rest of the parsed body is not needed past this point.
        drop(parsed);
        state.log(request, &method, &id);
        state.received += 1;
        let count = state.received;
        if !state.script.is_empty() {
            let at = (count - 1 - state.script_from).min(state.script.len() - 1);
            return Begun::Reply(with_id(state.script[at].clone(), &id));
        }
        let fault = state
            .faults
            .iter_mut()
            .find(|rule| rule.matches(&method, count))
            .map(|rule| {
                rule.remaining = rule.remaining.map(|n| n - 1);
                rule.fault.clone()
            });
        let answer = if !is_json {
            envelope(&id, Err(RpcError::parse("the body is not JSON")))
        } else {
            let reply = match state.handlers.get(&method).cloned() {
                Some(handler) => {
                    drop(state);
                    handler(&params)
                }
                None => match state.replay.as_ref().and_then(|c| c.find(&method, &params)) {
                    Some(recorded) => Reply::Http(recorded),
                    None => match handler::step(&mut state.chain, &method, &params) {
                        handler::Step::Now(Ok(result)) => Reply::Result(result),
                        handler::Step::Now(Err(e)) => Reply::Error(e),
                        handler::Step::Wait(wait) => return Begun::Wait { wait, id, fault },
                    },
                },
            };
            match reply {
                Reply::Result(result) => envelope(&id, Ok(result)),
                Reply::Error(error) => envelope(&id, Err(error)),
                Reply::Http(reply) => with_id(reply, &id),
            }
        };
        Begun::Reply(match fault {
            None => answer,
            Some(fault) => apply(fault, answer, &id),
        })
    }
}

impl State {
    /// Adds a request to the log, within its bounds.
    fn log(&mut self, request: RawRequest, method: &str, id: &Value) {
        let log = self.request_log;
        let RawRequest {
            http_method,
            path,
            headers,
            mut body,
        } = request;
        let body_len = body.len();
        if body_len > log.body_bytes {
            // A copy of the kept part, so that the whole body's memory goes now.
            body = body[..log.body_bytes].to_vec();
        }
        let recorded = Recorded {
            method: if method.len() <= RequestLog::FIELD_BYTES {
                method.to_owned()
            } else {
                String::new()
            },
            id: if value_bytes(id, RequestLog::FIELD_BYTES).is_some() {
                id.clone()
            } else {
                Value::Null
            },
            http_method,
            path,
            headers,
            body,
            body_len,
        };
        let footprint = recorded.footprint();
        self.requests.push_back((footprint, recorded));
        self.requests_bytes += footprint;
        self.trim_requests();
    }

    /// Drops the oldest requests until the log is within its bounds.
    fn trim_requests(&mut self) {
        let log = self.request_log;
        while self.requests_bytes > log.bytes
            || log
                .requests
                .is_some_and(|limit| self.requests.len() > limit)
        {
            match self.requests.pop_front() {
                Some((footprint, _)) => self.requests_bytes -= footprint,
                None => break,
            }
        }
    }
}

/// A request begun: answered, or waiting for a transaction.
enum Begun {
    Reply(HttpReply),
    Wait {
        wait: handler::Wait,
        id: Value,
        fault: Option<Fault>,
    },
}

/// The JSON-RPC envelope of an answer.
fn envelope(id: &Value, answer: Result<Value, RpcError>) -> HttpReply {
    let (status, body) = match answer {
        Ok(result) => (200, json!({"jsonrpc": "2.0", "id": id, "result": result})),
        Err(e) => (
            e.status,
            json!({"jsonrpc": "2.0", "id": id, "error": e.error}),
        ),
    };
    HttpReply::status(status, &body.to_string()).keep_id()
}

/// `reply` with its JSON body's `id` set to `id`, unless it keeps its own.
fn with_id(mut reply: HttpReply, id: &Value) -> HttpReply {
    if reply.shape == Shape::Normal {
        if let Ok(Value::Object(mut body)) = serde_json::from_slice::<Value>(&reply.body) {
            if body.contains_key("id") {
                body.insert("id".into(), id.clone());
                reply.body = Value::Object(body).to_string().into_bytes();
            }
        }
        reply.shape = Shape::KeepId;
    }
    reply
}

fn apply(fault: Fault, answer: HttpReply, id: &Value) -> HttpReply {
    match fault {
        Fault::Latency(delay) => answer.delayed(delay),
        Fault::Status {
            status,
            json_rpc: true,
        } => {
            let mut reply = envelope(id, Err(RpcError::internal("injected fault")));
            reply.status = status;
            reply
        }
        Fault::Status { status, .. } => HttpReply {
            headers: vec![("content-type".into(), "text/plain".into())],
            ..HttpReply::status(status, "injected fault")
        },
        Fault::RetryAfter { status, seconds } => HttpReply::status(status, "rate limited")
            .header("retry-after", &seconds.to_string()),
        Fault::HtmlPage { status } => HttpReply {
            headers: vec![("content-type".into(), "text/html".into())],
            ..HttpReply::status(
                status,
                "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>",
            )
        },
        Fault::Truncated => answer.truncated(),
        Fault::Oversized { bytes } => {
            let frame = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":""}}"#);
            let filler = bytes.saturating_sub(frame.len());
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"{}"}}"#, "x".repeat(filler));
            HttpReply::json(&body).keep_id()
        }
        Fault::DropConnection => HttpReply::drop_connection(),
        Fault::Redirect { status, location } => HttpReply::redirect(status, &location),
        Fault::WrongId => {
            let wrong = json!(format!("not-{}", id.as_str().map_or(id.to_string(), str::to_owned)));
            let mut reply = answer;
            if let Ok(Value::Object(mut body)) = serde_json::from_slice::<Value>(&reply.body) {
                body.insert("id".into(), wrong);
                reply.body = Value::Object(body).to_string().into_bytes();
            }
            reply
        }
    }
}
