//! The JSON-RPC client (feature `client`, on by default).
//!
//! One generic [`Client::call`] serves every method of [`crate::methods`]; shortcuts
//! cover the common ones. Under it sits a stack of [`layers`] over one
//! [`transport::Transport`] per endpoint:
//!
//! ```text
//! Client::call  encode params, decode the outcome, check the response id
//!   Redact      mask every configured secret in whatever comes back
//!   Deadline    one deadline per call (default 60 s), across retries and endpoints
//!   SizeLimit   request ≤ 10 MiB, response ≤ 32 MiB (enforced while streaming)
//!   Archival    a read of a block the regular nodes no longer keep, again to the
//!               archival endpoints (only with `ClientBuilder::archival`)
//!   Retry       ≤ 3 retries (more than 10 refused), backoff 250 ms doubling to 8 s,
//!               Retry-After honoured between that floor and 60 s
//!   Fallback    the endpoints in order (with several)
//!   RateLimit   an endpoint's request budget (only with `ClientBuilder::rate_limit`)
//!   HttpTransport per endpoint: 30 s per attempt, redirects within the origin only
//! ```
//!
//! Writes: a [`Signer`] (an account and its key, from near-cli's credential files or the
//! environment) configured once with [`Client::with_signer`] gives a [`SigningClient`],
//! whose builders send: [`transfer`](SigningClient::transfer),
//! [`call`](SigningClient::call) (arguments, gas, deposit),
//! [`transaction`](SigningClient::transaction) (several actions), a NEP-366 delegate
//! action signed for a relayer ([`TransactionBuilder::delegate`]) and relayed by one
//! ([`SigningClient::relay`]). They, [`Client::send`] and the other write shortcuts (which
//! take the signer each time) go through one write path, never signing one intent anew
//! unless the node that received it refused it and does not know it ([`SendError`] says
//! what happened, and carries every transaction signed).
//! [`Client::prepare`] and [`Client::send_signed`] split a send in two, so that the
//! transaction can be kept before any byte of it is sent. [`SendError`]'s docs hold the
//! write path: what each answer leads to, and the exact guarantee.
//!
//! Verified reads: [`Client::verified`] gives a [`VerifiedClient`] whose head follows the
//! chain's light-client blocks and whose transaction statuses come with every outcome
//! proven against it.
//!
//! Transactions (`send_tx`, `broadcast_tx_*`, marked by
//! [`RpcMethod::SUBMITS_TRANSACTION`]) are retried or failed over only when they
//! certainly reached no node. API keys go only to the endpoint they were given for, and
//! never appear in Display, Debug or an error, even when a server echoes them.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use near_rpc::{Client, Finality};
//!
//! let client = Client::builder().endpoint("https://rpc.mainnet.near.org")?.build()?;
//! let config = client.protocol_config_at(Finality::Final).await?;
//! println!("protocol {:?}", config.protocol_version);
//! # Ok(()) }
//! ```

mod builders;
mod endpoint;
mod error;
pub mod layers;
#[cfg(test)]
mod print_once;
mod redact;
mod rt;
mod send;
mod shortcuts;
mod signer;
pub mod transport;
mod verified;

#[cfg(feature = "blocking")]
pub mod blocking;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use builders::{
    CallBuilder, DelegateBuilder, SigningClient, TransactionBuilder, DEFAULT_DELEGATE_BLOCKS,
};
pub use endpoint::{ApiKey, Endpoint, InvalidApiKey, InvalidEndpoint};
pub use error::{Error, ErrorKind, ERROR_BODY_LIMIT};
pub use redact::{looks_like_secret, Secrets, MASK};
pub use send::{
    SendError, SendErrorKind, MAX_NONCE_RESIGNS, MAX_RESIGNS, RESOLVE_ATTEMPTS, RESOLVE_BACKOFF,
};
pub use shortcuts::{
    AtBlock, ChunkRef, ContractArgs, Epoch, GasPrice, Input, NodeInfo, RawArgs, TxRef,
    DEFAULT_CALL_GAS, DEFAULT_WAIT_UNTIL, SHORTCUTS, WRITE_SHORTCUTS,
};
#[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]
pub use shortcuts::{MAX_KEY_PAGES, PAGED_SHORTCUTS, SPICE_PROOF_SHORTCUTS};
pub use signer::{Signer, SignerError, BLOCK_HASH_REUSE};
pub use verified::{Verified, VerifiedClient, VerifyError, MAX_SYNC_BLOCKS};

use crate::envelope::{ErrorWrapper, Id};
use crate::methods::RpcMethod;
use crate::types::{BlockReference, Finality, TxExecutionStatus};
use layers::{
    Archival, Deadline, Fallback, RateBudget, RateLimit, Redact, Retry, RetryPolicy, SizeLimit,
    DEFAULT_DEADLINE, DEFAULT_MAX_REQUEST_BYTES,
};
use transport::{
    BoxTransport, HttpResponse, HttpTransport, PathStyle, RedirectPolicy, RpcRequest, Transport,
    TransportError, TransportErrorKind, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT,
};

/// Builds a [`Client`].
#[derive(Debug, Clone)]
pub struct ClientBuilder {
    endpoints: Vec<(Endpoint, Option<ApiKey>)>,
    pending_key: Option<ApiKey>,
    transports: Vec<BoxTransport>,
    path_style: PathStyle,
    redirects: RedirectPolicy,
    timeout: Duration,
    deadline: Duration,
    retry: RetryPolicy,
    max_request_bytes: usize,
    max_response_bytes: usize,
    archival: Vec<(Endpoint, Option<ApiKey>)>,
    archival_transports: Vec<BoxTransport>,
    // The endpoint added last, which `api_key` and `rate_limit` apply to.
    last: Option<Leg>,
    // Each budget with the endpoint it was given after (`None`: before any).
    budgets: Vec<(Option<Leg>, RateBudget)>,
}

/// One endpoint of a [`ClientBuilder`]: its kind and position among its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leg {
    Url(usize),
    Transport(usize),
    ArchivalUrl(usize),
    ArchivalTransport(usize),
}

impl Default for ClientBuilder {
    fn default() -> Self {
        Self {
            endpoints: Vec::new(),
            pending_key: None,
            transports: Vec::new(),
            path_style: PathStyle::default(),
            redirects: RedirectPolicy::default(),
            timeout: DEFAULT_TIMEOUT,
            deadline: DEFAULT_DEADLINE,
            retry: RetryPolicy::default(),
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            archival: Vec::new(),
            archival_transports: Vec::new(),
            last: None,
            budgets: Vec::new(),
        }
    }
}

/// Why a client could not be built.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// No endpoint was given.
    NoEndpoint,
    /// An endpoint URL is not valid.
    InvalidEndpoint(InvalidEndpoint),
    /// An API key was given but no endpoint to send it to.
    KeyWithoutEndpoint,
    /// The HTTP client could not be set up (TLS roots, ...).
    Http(String),
    /// An option was set beyond the most the client allows (it is refused, not capped).
    OutOfRange {
        /// The option (`RetryPolicy::max_retries`).
        option: &'static str,
        /// The value given.
        value: u64,
        /// The most allowed.
        max: u64,
    },
    /// An option's value cannot be used (a rate budget of no requests), or the option
    /// was given where it cannot apply.
    InvalidOption {
        /// The option (`RateBudget burst`).
        option: &'static str,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoEndpoint => f.write_str("no endpoint given"),
            Self::InvalidEndpoint(_) => f.write_str("cannot use the endpoint given"),
            Self::KeyWithoutEndpoint => {
                f.write_str("an API key was given before any endpoint it could go to")
            }
            Self::Http(message) => write!(f, "cannot set up HTTP: {message}"),
            Self::OutOfRange { option, value, max } => {
                write!(f, "{option} is {value}, more than the most allowed, {max}")
            }
            Self::InvalidOption { option, reason } => write!(f, "{option}: {reason}"),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::InvalidEndpoint(e) => Some(e),
            _ => None,
        }
    }
}

impl From<InvalidEndpoint> for BuildError {
    fn from(e: InvalidEndpoint) -> Self {
        Self::InvalidEndpoint(e)
    }
}

impl ClientBuilder {
    /// Adds an endpoint; with several, a failing call moves on to the next, in order.
    pub fn endpoint(self, url: &str) -> Result<Self, InvalidEndpoint> {
        Ok(self.add_endpoint(url.parse()?))
    }

    /// Adds an already parsed endpoint.
    pub fn add_endpoint(mut self, endpoint: Endpoint) -> Self {
        let key = self.pending_key.take();
        self.endpoints.push((endpoint, key));
        self.last = Some(Leg::Url(self.endpoints.len() - 1));
        self
    }

    /// Sends `key` to the endpoint added last, and to no other: a key never leaves the
    /// endpoint it was given for. (Given before any endpoint, it goes to the next one
    /// added.)
    pub fn api_key(mut self, key: ApiKey) -> Self {
        if let Some(Leg::ArchivalUrl(index)) = self.last {
            self.archival[index].1 = Some(key);
            return self;
        }
        match self.endpoints.last_mut() {
            Some((_, slot)) => *slot = Some(key),
            None => self.pending_key = Some(key),
        }
        self
    }

    /// Adds a transport of your own (a WASM fetch, a recorded cassette, a mock node) as
    /// one more endpoint, after the URLs added so far.
    pub fn transport(mut self, transport: impl Transport + 'static) -> Self {
        self.transports.push(Arc::new(transport));
        self.last = Some(Leg::Transport(self.transports.len() - 1));
        self
    }

    /// Adds an archival endpoint (several allowed, tried in order). A read that the
    /// regular endpoints answer with `GARBAGE_COLLECTED_BLOCK`, or `UNKNOWN_BLOCK` for a
    /// block below what they keep, is sent again to the archival endpoints, and only such
    /// reads: transactions never go to them ([`layers::Archival`] has the exact rules).
    /// [`ClientBuilder::api_key`] and [`ClientBuilder::rate_limit`] given right after
    /// apply to it.
    pub fn archival(mut self, url: &str) -> Result<Self, InvalidEndpoint> {
        self.archival.push((url.parse()?, None));
        self.last = Some(Leg::ArchivalUrl(self.archival.len() - 1));
        Ok(self)
    }

    /// Adds a transport of your own as an archival endpoint, after the archival URLs
    /// (see [`ClientBuilder::archival`]).
    pub fn archival_transport(mut self, transport: impl Transport + 'static) -> Self {
        self.archival_transports.push(Arc::new(transport));
        self.last = Some(Leg::ArchivalTransport(self.archival_transports.len() - 1));
        self
    }

    /// Gives the endpoint added last (URL or transport, regular or archival) a request
    /// budget: its requests wait for their turn instead of earning HTTP 429 (off by
    /// default; [`layers::RateLimit`]). Every attempt to that endpoint, retries included,
    /// spends from it; other endpoints have their own. [`ClientBuilder::build`] fails
    /// with [`BuildError::InvalidOption`] when it is given before any endpoint, or
    /// allows no request.
    ///
    /// ```
    /// use near_rpc::client::layers::RateBudget;
    /// use near_rpc::Client;
    ///
    /// // Check your provider's plan for its figures.
    /// let client = Client::builder()
    ///     .endpoint("https://rpc.example.org")?
    ///     .rate_limit(RateBudget::per_second(20).burst(5))
    ///     .build()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rate_limit(mut self, budget: RateBudget) -> Self {
        self.budgets.push((self.last, budget));
        self
    }

    /// Where HTTP requests are posted (default [`PathStyle::JsonRpc`]).
    pub fn path_style(mut self, style: PathStyle) -> Self {
        self.path_style = style;
        self
    }

    /// Which redirects are followed (default [`RedirectPolicy::SameOrigin`]).
    pub fn redirects(mut self, policy: RedirectPolicy) -> Self {
        self.redirects = policy;
        self
    }

    /// The time one attempt may take (default [`DEFAULT_TIMEOUT`]).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The time a whole call may take, across retries and endpoints (default
    /// [`DEFAULT_DEADLINE`]).
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// The retry policy (default [`RetryPolicy::default`]). A `max_retries` above
    /// [`layers::MAX_RETRIES`] makes [`ClientBuilder::build`] fail with
    /// [`BuildError::OutOfRange`].
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// The largest response body accepted (default [`DEFAULT_MAX_RESPONSE_BYTES`]).
    pub fn max_response_bytes(mut self, limit: usize) -> Self {
        self.max_response_bytes = limit;
        self
    }

    /// The largest request body sent (default [`DEFAULT_MAX_REQUEST_BYTES`]).
    pub fn max_request_bytes(mut self, limit: usize) -> Self {
        self.max_request_bytes = limit;
        self
    }

    /// Builds the client. Fails on an API key without an endpoint, no endpoint at all, a
    /// retry count over [`layers::MAX_RETRIES`], or an HTTP client that cannot be set up.
    pub fn build(self) -> Result<Client, BuildError> {
        if self.pending_key.is_some() {
            return Err(BuildError::KeyWithoutEndpoint);
        }
        // Refused rather than capped: a count asked for and silently not given would
        // surprise whoever relies on it.
        if self.retry.max_retries > layers::MAX_RETRIES {
            return Err(BuildError::OutOfRange {
                option: "RetryPolicy::max_retries",
                value: u64::from(self.retry.max_retries),
                max: u64::from(layers::MAX_RETRIES),
            });
        }
        for (leg, budget) in &self.budgets {
            let reason = match (leg, budget.invalid()) {
                (None, _) => "given before any endpoint it could apply to".to_owned(),
                (_, Some((option, value))) => {
                    return Err(BuildError::InvalidOption {
                        option,
                        reason: format!("{value} allows no request"),
                    })
                }
                _ => continue,
            };
            return Err(BuildError::InvalidOption {
                option: "ClientBuilder::rate_limit",
                reason,
            });
        }
        let needs_http = !self.endpoints.is_empty() || !self.archival.is_empty();
        let http = needs_http.then(transport::http_client).transpose()?;
        let mut legs = self.http_legs(http.as_ref(), &self.endpoints, Leg::Url);
        legs.extend(self.own_legs(&self.transports, Leg::Transport));
        if legs.is_empty() {
            return Err(BuildError::NoEndpoint);
        }
        let mut archival = self.http_legs(http.as_ref(), &self.archival, Leg::ArchivalUrl);
        archival.extend(self.own_legs(&self.archival_transports, Leg::ArchivalTransport));
        Ok(Client::from_stack(
            self.stack(legs, archival),
            format!("{self:?}"),
        ))
    }

    /// One HTTP transport per endpoint, each within its budget if it has one.
    fn http_legs(
        &self,
        http: Option<&reqwest::Client>,
        endpoints: &[(Endpoint, Option<ApiKey>)],
        leg: fn(usize) -> Leg,
    ) -> Vec<BoxTransport> {
        let Some(http) = http else {
            return Vec::new();
        };
        let transports = endpoints.iter().map(|(endpoint, key)| {
            let mut transport = HttpTransport::with_client(http.clone(), endpoint.clone())
                .path_style(self.path_style)
                .redirects(self.redirects)
                .timeout(self.timeout);
            if let Some(key) = key {
                transport = transport.api_key(key.clone());
            }
            Arc::new(transport) as BoxTransport
        });
        self.within_budgets(transports, leg)
    }

    /// The transports given, each within its budget if it has one.
    fn own_legs(&self, transports: &[BoxTransport], leg: fn(usize) -> Leg) -> Vec<BoxTransport> {
        self.within_budgets(transports.iter().cloned(), leg)
    }

    fn within_budgets(
        &self,
        transports: impl Iterator<Item = BoxTransport>,
        leg: fn(usize) -> Leg,
    ) -> Vec<BoxTransport> {
        transports
            .enumerate()
            .map(|(index, transport)| {
                // The last budget given for an endpoint is its budget.
                let budget = self
                    .budgets
                    .iter()
                    .rev()
                    .find(|(l, _)| *l == Some(leg(index)));
                match budget {
                    Some((_, budget)) => Arc::new(RateLimit::new(transport, *budget)),
                    None => transport,
                }
            })
            .collect()
    }

    /// The layers over the transports, outermost first as the module docs list them.
    fn stack(&self, legs: Vec<BoxTransport>, archival: Vec<BoxTransport>) -> BoxTransport {
        let regular_count = legs.len();
        #[cfg(feature = "tracing")]
        let (legs, archival) = {
            let traced = |legs: Vec<BoxTransport>, from: usize| -> Vec<BoxTransport> {
                legs.into_iter()
                    .enumerate()
                    .map(|(i, leg)| {
                        Arc::new(layers::trace::Endpoint::new(leg, from + i)) as BoxTransport
                    })
                    .collect()
            };
            (traced(legs, 0), traced(archival, regular_count))
        };
        let regular = self.retried(legs);
        let routed = match archival.is_empty() {
            true => regular,
            false => Arc::new(Archival::new(
                regular,
                regular_count,
                self.retried(archival),
            )),
        };
        let limited = Arc::new(SizeLimit::new(
            routed,
            self.max_request_bytes,
            self.max_response_bytes,
        ));
        let deadline = Arc::new(Deadline::new(limited, self.deadline));
        let redacted = Arc::new(Redact::new(deadline));
        #[cfg(feature = "tracing")]
        let redacted = Arc::new(layers::trace::Call::new(redacted));
        redacted
    }

    /// Retries over failover among `legs` (one leg: no failover).
    fn retried(&self, mut legs: Vec<BoxTransport>) -> BoxTransport {
        let base: BoxTransport = match legs.len() {
            1 => legs.remove(0),
            _ => Arc::new(Fallback::new(legs)),
        };
        Arc::new(Retry::new(base, self.retry.clone()))
    }
}

/// An async NEAR JSON-RPC client. Cheap to clone; clones share connections.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
    // Where views are read (`Client::at`); latest final by default.
    read_at: BlockReference,
    // What writes wait for (`Client::waiting_until`).
    wait_until: TxExecutionStatus,
}

struct Inner {
    transport: BoxTransport,
    next_id: AtomicU64,
    // The builder's Debug (endpoints and keys redacted by their own Debug).
    config: String,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("config", &format_args!("{}", self.inner.config))
            .finish()
    }
}

impl Client {
    /// A builder with the defaults.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// A client of one endpoint with the defaults.
    pub fn new(url: &str) -> Result<Self, BuildError> {
        Self::builder().endpoint(url)?.build()
    }

    /// A client over a transport of your own, with the default layers (redaction,
    /// deadline, size limits, retries) above it.
    pub fn with_transport(transport: impl Transport + 'static) -> Self {
        let builder = Self::builder();
        let stack = builder.stack(vec![Arc::new(transport)], Vec::new());
        Self::from_stack(stack, format!("{builder:?}"))
    }

    /// This client with `signer` configured once: its writes sign with it
    /// (`client.with_signer(signer).transfer("bob.near", amount).await`), its reads are
    /// this client's. Shares this client's connections; call it once per account.
    ///
    /// ```no_run
    /// # async fn run(client: near_rpc::Client) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::{NearToken, Signer};
    ///
    /// let alice = client.with_signer(Signer::from_file("alice.near.json")?);
    /// let outcome = alice.transfer("bob.near", NearToken::from_near(1)).await?;
    /// # Ok(()) }
    /// ```
    pub fn with_signer(&self, signer: Signer) -> SigningClient {
        SigningClient::new(self.clone(), signer)
    }

    fn from_stack(transport: BoxTransport, config: String) -> Self {
        let config = transport.secrets().scrub(&config).into_owned();
        Self {
            inner: Arc::new(Inner {
                transport,
                next_id: AtomicU64::new(1),
                config,
            }),
            read_at: Finality::Final.into(),
            wait_until: DEFAULT_WAIT_UNTIL,
        }
    }

    /// Calls method `M` with `params`: the typed result, or a typed error.
    ///
    /// ```no_run
    /// # async fn run(client: near_rpc::Client) -> Result<(), Box<dyn std::error::Error>> {
    /// use near_rpc::{methods::BlockMethod, types::RpcBlockRequest, Finality};
    ///
    /// let request = RpcBlockRequest { block_reference: Finality::Final.into() };
    /// let block = client.call::<BlockMethod>(request).await?;
    /// # Ok(()) }
    /// ```
    pub async fn call<M: RpcMethod>(
        &self,
        params: M::Params,
    ) -> Result<M::Result, Error<M::Error>> {
        self.call_answered::<M>(params)
            .await
            .map(|answer| answer.result)
    }

    /// [`Client::call`], keeping who answered (for errors found inside a result).
    async fn call_answered<M: RpcMethod>(
        &self,
        params: M::Params,
    ) -> Result<Answered<M::Result>, Error<M::Error>> {
        self.call_routed::<M>(params, None).await
    }

    /// [`Client::call`] to the endpoint at `index` alone (no failover): what the write
    /// path asks of the node that refused a transaction.
    pub(crate) async fn call_pinned<M: RpcMethod>(
        &self,
        params: M::Params,
        index: usize,
    ) -> Result<M::Result, Error<M::Error>> {
        self.call_routed::<M>(params, Some(index))
            .await
            .map(|answer| answer.result)
    }

    async fn call_routed<M: RpcMethod>(
        &self,
        params: M::Params,
        pinned: Option<usize>,
    ) -> Result<Answered<M::Result>, Error<M::Error>> {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let body = M::encode_request(id, &params).map_err(|e| {
            Error::new(
                M::NAME,
                None,
                ErrorKind::Encode {
                    message: e.to_string(),
                },
            )
        })?;
        let mut request = RpcRequest::new(M::NAME, id, body, M::SUBMITS_TRANSACTION);
        request.pinned_endpoint = pinned;
        let outcome = self.inner.transport.send(request).await;
        outcome_to_result::<M>(outcome, id)
    }
}

/// A successful result, the method, endpoint and status it came with, and the body it
/// was read from.
struct Answered<T> {
    result: T,
    method: &'static str,
    endpoint: String,
    endpoint_index: usize,
    status: u16,
    body: Vec<u8>,
}

impl<T> Answered<T> {
    /// The error a node reported inside a successful `result`, as a handler error with
    /// the node's text.
    fn handler_error<E>(&self, cause: E, text: &str) -> Error<E> {
        let error = Box::new(ErrorWrapper {
            cause: crate::envelope::ErrorCause::Handler(cause),
            code: None,
            message: None,
            data: Some(serde_json::Value::String(text.to_owned())),
        });
        let kind = ErrorKind::Rpc {
            status: self.status,
            error,
            retry_after: None,
        };
        Error::new(self.method, Some(self.endpoint.clone()), kind)
            .with_endpoint_index(self.endpoint_index)
    }
}

/// The typed result of one outcome of the transport stack. An error carries the retry
/// layer's verdict on the same outcome, so the client and the layers never disagree; a
/// success asks for none (classifying a 2xx body scans it).
fn outcome_to_result<M: RpcMethod>(
    outcome: Result<HttpResponse, TransportError>,
    id: u64,
) -> Result<Answered<M::Result>, Error<M::Error>> {
    match outcome {
        Ok(response) => decode_response::<M>(response, id),
        Err(error) => Err(transport_error::<M>(error, id)),
    }
}

fn transport_error<M: RpcMethod>(error: TransportError, id: u64) -> Error<M::Error> {
    let retryable = layers::error_verdict(&error).retryable();
    let nothing_sent = error.nothing_sent();
    transport_error_kind::<M>(error, id).with_verdict(retryable, nothing_sent)
}

fn transport_error_kind<M: RpcMethod>(error: TransportError, id: u64) -> Error<M::Error> {
    match error.kind {
        TransportErrorKind::AllEndpointsFailed(attempts) => {
            let failures = attempts
                .into_iter()
                // An attempt is only recorded as a failure; one that decodes after all
                // (the classification read less than the decoder) has no error to show.
                .filter_map(|a| outcome_to_result::<M>(a.outcome, id).err())
                .collect();
            Error::new(M::NAME, None, ErrorKind::AllEndpointsFailed(failures))
        }
        // The call's own limits are no endpoint's failure (their label is the stack's).
        TransportErrorKind::Deadline { .. } | TransportErrorKind::RequestTooLarge { .. } => {
            Error::new(M::NAME, None, ErrorKind::Transport(error))
        }
        _ => {
            let index = error.endpoint_index;
            Error::new(
                M::NAME,
                Some(error.endpoint.to_string()),
                ErrorKind::Transport(error),
            )
            .with_endpoint_index(index)
        }
    }
}

fn decode_response<M: RpcMethod>(
    response: HttpResponse,
    id: u64,
) -> Result<Answered<M::Result>, Error<M::Error>> {
    let method = M::NAME;
    let HttpResponse {
        endpoint,
        status,
        body,
        ..
    } = &response;
    let endpoint = endpoint.to_string();
    let status = *status;
    let retry_after = response.retry_after();
    let error = |kind| {
        // A response reached a node: nothing_sent is false.
        let retryable = layers::response_verdict(&response).retryable();
        Error::new(method, Some(endpoint.clone()), kind)
            .with_verdict(retryable, false)
            .with_endpoint_index(response.endpoint_index)
    };
    let http_error = |json| {
        error(ErrorKind::Http {
            status,
            body: error::body_snippet(body),
            json,
            retry_after,
        })
    };
    let decode_error = |decoding| {
        error(ErrorKind::Decode {
            status,
            error: decoding,
            body: error::body_snippet(body),
        })
    };
    // Decoding is compiled in near-rpc for every generated method: this generic
    // function, instantiated in the caller's crate, only moves the pieces.
    let decoded = M::decode_response(body);
    let envelope = match decoded {
        Ok(envelope) => envelope,
        // An error status whose body is not JSON-RPC (a gateway's HTML page, a rate
        // limiter's text) is an HTTP error; a JSON-RPC body that doesn't decode is a
        // decoding error whatever the status.
        Err(decoding) if !response.is_success() => {
            // Read as JSON once: to tell JSON-RPC from a page, and to keep it.
            let json: Option<serde_json::Value> = serde_json::from_slice(body).ok();
            if json.as_ref().is_some_and(|v| v.get("jsonrpc").is_some()) {
                return Err(decode_error(decoding));
            }
            return Err(http_error(json.map(Box::new)));
        }
        Err(decoding) => return Err(decode_error(decoding)),
    };
    if !id_matches(envelope.id.as_ref(), id, envelope.payload.is_err()) {
        return Err(error(ErrorKind::IdMismatch {
            expected: id.to_string(),
            got: envelope
                .id
                .as_ref()
                .map_or_else(|| "null".to_owned(), Id::to_string),
        }));
    }
    match envelope.payload {
        Ok(result) if response.is_success() => Ok(Answered {
            result,
            method,
            endpoint,
            endpoint_index: response.endpoint_index,
            status,
            body: response.body,
        }),
        // A non-2xx status is never a success, whatever the body says.
        Ok(_) => Err(http_error(serde_json::from_slice(body).ok().map(Box::new))),
        Err(rpc) => Err(error(ErrorKind::Rpc {
            status,
            error: Box::new(rpc),
            retry_after,
        })),
    }
}

/// Whether a response id answers request `id`. Nodes echo the id as sent (a string
/// here), some proxies turn it into a number; a JSON-RPC error may have a null id
/// (the server could not read the request's).
fn id_matches(got: Option<&Id>, id: u64, is_error: bool) -> bool {
    match got {
        Some(Id::Number(n)) => *n == id,
        Some(Id::String(s)) => *s == id.to_string(),
        None => is_error,
    }
}

#[cfg(test)]
mod tests {
    use super::transport::{MockReply, MockTransport};
    use super::*;
    use crate::methods;
    use crate::types::{Finality, RpcBlockRequest};

    /// Every error carries the verdict the retry layer gave its outcome: retryable or
    /// not, and whether nothing was sent, decided once (`layers::verdict`).
    #[test]
    fn errors_carry_the_retry_layers_verdict() {
        let handler = |cause: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":"1","error":{{"name":"HANDLER_ERROR","cause":{{"name":"{cause}"}}}}}}"#
            )
        };
        let internal = r#"{"jsonrpc":"2.0","id":"1","error":{"name":"INTERNAL_ERROR","cause":{"name":"INTERNAL_ERROR","info":{"error_message":"x"}}}}"#;
        let result = r#"{"jsonrpc":"2.0","id":"1","result":null}"#;
        let status = |code: u16, body: &str| MockReply::status(code, body.as_bytes().to_vec());
        // (reply, retryable, nothing sent)
        let cases = [
            (status(200, &handler("UNKNOWN_BLOCK")), false, false),
            (status(200, &handler("TIMEOUT_ERROR")), true, false),
            (status(408, &handler("TIMEOUT_ERROR")), true, false),
            (status(429, &handler("UNKNOWN_BLOCK")), true, false),
            (
                status(
                    429,
                    &handler("UNKNOWN_BLOCK").replace(r#""}}}"#, r#"","info":{}}}}"#),
                ),
                true,
                false,
            ),
            (status(500, internal), false, false),
            (status(503, result), true, false),
            (status(404, "not found"), false, false),
            (status(502, "<html>bad gateway</html>"), true, false),
            (status(200, "<html>proxy</html>"), false, false),
            (status(429, "slow down"), true, false),
            (MockReply::error(TransportErrorKind::Connect), true, true),
            (MockReply::error(TransportErrorKind::Tls), true, true),
            (MockReply::error(TransportErrorKind::Timeout), true, false),
            (
                MockReply::error(TransportErrorKind::Connection),
                true,
                false,
            ),
            (MockReply::error(TransportErrorKind::Other), false, false),
        ];
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        for (reply, retryable, nothing_sent) in cases {
            let described = format!("{reply:?}");
            let client = Client::builder()
                .transport(MockTransport::new("mock", [reply]))
                .retry(RetryPolicy::none())
                .build()
                .unwrap();
            let request = RpcBlockRequest {
                block_reference: Finality::Final.into(),
            };
            let err = runtime
                .block_on(client.call::<methods::BlockMethod>(request))
                .unwrap_err();
            assert_eq!(err.is_retryable(), retryable, "{described}: {err}");
            assert_eq!(err.nothing_sent(), nothing_sent, "{described}: {err}");
            assert_eq!(err.method(), "block");
        }
    }

    /// `nothing_sent` over several endpoints and the call's own limits: true only when no
    /// attempt anywhere can have reached a node.
    #[test]
    fn nothing_sent_holds_only_when_no_attempt_can_have_arrived() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let call = |client: Client| {
            let request = RpcBlockRequest {
                block_reference: Finality::Final.into(),
            };
            runtime
                .block_on(client.call::<methods::BlockMethod>(request))
                .unwrap_err()
        };
        let error = |kind| MockReply::error(kind);
        // (first endpoint, second endpoint, nothing sent)
        let cases = [
            (
                error(TransportErrorKind::Connect),
                error(TransportErrorKind::Tls),
                true,
            ),
            (
                error(TransportErrorKind::Connect),
                error(TransportErrorKind::Timeout),
                false,
            ),
            (
                error(TransportErrorKind::Timeout),
                error(TransportErrorKind::Connect),
                false,
            ),
            (
                error(TransportErrorKind::Connect),
                MockReply::status(503, "busy"),
                false,
            ),
        ];
        for (first, second, unsent) in cases {
            let described = format!("{first:?} then {second:?}");
            let client = Client::builder()
                .transport(MockTransport::new("a", [first]))
                .transport(MockTransport::new("b", [second]))
                .retry(RetryPolicy::none())
                .build()
                .unwrap();
            let err = call(client);
            assert!(
                matches!(err.kind(), ErrorKind::AllEndpointsFailed(failures) if failures.len() == 2),
                "{described}: {err}"
            );
            assert_eq!(err.nothing_sent(), unsent, "{described}: {err}");
            assert_eq!(err.endpoint(), None, "{described}: several endpoints");
        }
        // A request over the limit is refused before any endpoint sees it.
        let mock = MockTransport::new("a", [MockReply::json(r#"{}"#)]);
        let client = Client::builder()
            .transport(mock.clone())
            .max_request_bytes(10)
            .build()
            .unwrap();
        let err = call(client);
        assert!(err.nothing_sent() && err.is_usage(), "{err}");
        assert_eq!(err.endpoint(), None, "{err}");
        assert!(mock.requests().is_empty());
    }
}
