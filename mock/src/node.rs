//! The mock node ([`MockNode`]): the chain and the rules around it (overrides, faults,
//! scripts, a cassette to replay, the request log), and the one handler behind both the
//! HTTP server and the in-process transport, which records a request, answers it from
//! the first of those that applies, and waits, producing blocks, for a transaction that
//! a request waits on.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;

use crate::cassette::Cassette;
use crate::chain::{self, Chain};
use crate::contract::Contract;
use crate::credentials::KeyKind;
use crate::fault::apply;
use crate::fault::{Fault, FaultRule};
use crate::handler::{self, RpcError};
use crate::request_log::value_bytes;
use crate::request_log::{Recorded, RequestLog};
use crate::state_file::StateError;
use crate::wire::{envelope, with_id};
use crate::wire::{HttpReply, RawRequest, Reply};
use crate::{credentials, runtime};

/// A loopback URL where nothing listens: a dead endpoint, for failover tests.
pub fn unused_url() -> String {
    match std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()) {
        Ok(address) => format!("http://{address}"),
        Err(e) => panic!("cannot bind 127.0.0.1: {e}"),
    }
}

type Handler = Arc<dyn Fn(&Value) -> Reply + Send + Sync>;

/// The node's shared state (the window of recent blocks, `window.rs`, reads its chain).
pub(crate) struct State {
    pub(crate) chain: Chain,
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
    pub(crate) state: Arc<Mutex<State>>,
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

    /// Gives `account_id` the mock's gas key for it, funded with `balance` yoctoNEAR
    /// from the account, with `num_nonces` nonce indexes (see [`Chain::add_gas_key`]);
    /// [`MockNode::write_credentials`] then writes its key file too.
    pub fn add_gas_key(
        &self,
        account_id: &str,
        num_nonces: u16,
        balance: u128,
    ) -> Result<near_rpc::PublicKey, String> {
        self.lock()
            .chain
            .add_gas_key(account_id, num_nonces, balance)
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
    /// a client can sign for ([`Chain::signers`]), and `DIR/mock/<account_id>@gas-key.json`
    /// (the same fields, the gas key's) for every account holding the mock's gas key for
    /// it ([`Chain::gas_key_signers`], [`MockNode::add_gas_key`]); returns their paths,
    /// the access keys' first. The keys guard
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
        let (signers, gas_keys) = {
            let state = self.lock();
            (state.chain.signers(), state.chain.gas_key_signers())
        };
        let files: Vec<_> = signers
            .into_iter()
            .map(|(id, key)| (id, key, KeyKind::Access))
            .chain(
                gas_keys
                    .into_iter()
                    .map(|(id, key)| (id, key, KeyKind::Gas)),
            )
            .collect();
        credentials::write_all(dir, chain::CHAIN_ID, &files)
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
