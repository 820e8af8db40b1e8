//! The JSON-RPC client (feature `client`, on by default).
//!
//! One generic [`Client::call`] serves every method of [`crate::methods`]; wrappers cover
//! the common ones. Calls time out, retry with backoff (read methods only, unless asked),
//! fail over between endpoints in order, cap the response size, and never print a
//! secret.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use near_rpc::client::Client;
//! use near_rpc::types::Finality;
//!
//! let client = Client::builder().endpoint("https://rpc.mainnet.near.org")?.build()?;
//! let config = client.protocol_config_at(Finality::Final).await?;
//! println!("protocol {:?}", config.protocol_version);
//! # Ok(()) }
//! ```

mod endpoint;
mod error;
mod retry;
mod wrappers;

#[cfg(feature = "blocking")]
pub mod blocking;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::header::{HeaderValue, CONTENT_TYPE, RETRY_AFTER};

pub use endpoint::{ApiKey, Endpoint, InvalidApiKey, InvalidEndpoint};
pub use error::{Error, TransportKind, ERROR_BODY_LIMIT};
pub use retry::{RetryPolicy, WRITE_METHODS};
pub use wrappers::{TxRef, DEFAULT_WAIT_UNTIL};

use crate::{decode, ErrorWrapper, Request, Response, RpcMethod};

/// How a request reaches the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Transport {
    /// The standard JSON-RPC POST to the base URL.
    #[default]
    JsonRpc,
    /// POST to `{base_url}/{method}`, as the spec's `paths` describe (some gateways route
    /// by path).
    MethodInPath,
}

/// Builds a [`Client`].
#[derive(Debug, Clone)]
pub struct ClientBuilder {
    endpoints: Vec<Endpoint>,
    api_key: Option<ApiKey>,
    transport: Transport,
    timeout: Duration,
    retry: RetryPolicy,
    max_response_bytes: usize,
}

/// The default time one attempt may take.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The default response size limit (genesis configs and large blocks fit well under it).
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 32 * 1024 * 1024;

impl Default for ClientBuilder {
    fn default() -> Self {
        Self {
            endpoints: Vec::new(),
            api_key: None,
            transport: Transport::default(),
            timeout: DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
        }
    }
}

/// Why a client could not be built.
#[derive(Debug)]
pub enum BuildError {
    /// No endpoint was given.
    NoEndpoint,
    /// An endpoint URL is not valid.
    InvalidEndpoint(InvalidEndpoint),
    /// The HTTP client could not be set up (TLS roots, ...).
    Http(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoEndpoint => f.write_str("no endpoint given"),
            Self::InvalidEndpoint(e) => e.fmt(f),
            Self::Http(message) => write!(f, "cannot set up HTTP: {message}"),
        }
    }
}

impl std::error::Error for BuildError {}

impl From<InvalidEndpoint> for BuildError {
    fn from(e: InvalidEndpoint) -> Self {
        Self::InvalidEndpoint(e)
    }
}

impl ClientBuilder {
    /// Adds an endpoint; with several, a failing call moves on to the next, in order.
    pub fn endpoint(mut self, url: &str) -> Result<Self, InvalidEndpoint> {
        self.endpoints.push(url.parse()?);
        Ok(self)
    }

    /// Adds an already parsed endpoint.
    pub fn add_endpoint(mut self, endpoint: Endpoint) -> Self {
        self.endpoints.push(endpoint);
        self
    }

    /// Sends an API key header with every request.
    pub fn api_key(mut self, key: ApiKey) -> Self {
        self.api_key = Some(key);
        self
    }

    /// Chooses how requests reach the node.
    pub fn transport(mut self, transport: Transport) -> Self {
        self.transport = transport;
        self
    }

    /// The time one attempt may take (default [`DEFAULT_TIMEOUT`]).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The retry policy (default [`RetryPolicy::default`]).
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// The largest response body accepted (default [`DEFAULT_MAX_RESPONSE_BYTES`]).
    pub fn max_response_bytes(mut self, limit: usize) -> Self {
        self.max_response_bytes = limit;
        self
    }

    /// Builds the client.
    pub fn build(self) -> Result<Client, BuildError> {
        if self.endpoints.is_empty() {
            return Err(BuildError::NoEndpoint);
        }
        let http = reqwest::Client::builder()
            .user_agent(concat!("near-rpc/", env!("CARGO_PKG_VERSION")))
            .build()
            // reqwest's builder errors carry no URL; strip it anyway.
            .map_err(|e| BuildError::Http(e.without_url().to_string()))?;
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                config: self,
                next_id: AtomicU64::new(1),
                jitter: Mutex::new(retry::Jitter::new()),
            }),
        })
    }
}

/// An async NEAR JSON-RPC client. Cheap to clone; clones share connections.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    http: reqwest::Client,
    config: ClientBuilder,
    next_id: AtomicU64,
    jitter: Mutex<retry::Jitter>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.inner.config;
        f.debug_struct("Client")
            .field("endpoints", &c.endpoints)
            .field("api_key", &c.api_key)
            .field("transport", &c.transport)
            .field("timeout", &c.timeout)
            .field("retry", &c.retry)
            .field("max_response_bytes", &c.max_response_bytes)
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

    /// Calls method `M` with `params`: the typed result, or a typed error.
    ///
    /// Failures worth retrying ([`Error::is_retryable`]) are retried by the retry policy,
    /// each retry on the next endpoint in order.
    pub async fn call<M: RpcMethod>(
        &self,
        params: M::Params,
    ) -> Result<M::Result, Error<M::Error>> {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let request = Request::new(M::NAME, params).with_id(id.to_string());
        let body = serde_json::to_vec(&request).map_err(|e| Error::Encode {
            method: M::NAME,
            message: e.to_string(),
        })?;
        let config = &self.inner.config;
        let retries = config.retry.retries_for(M::NAME);
        let mut attempt = 0;
        loop {
            let endpoint = &config.endpoints[attempt as usize % config.endpoints.len()];
            let error = match self.send_once::<M>(endpoint, &body).await {
                Ok(result) => return Ok(result),
                Err(error) => error,
            };
            if attempt >= retries || !error.is_retryable() {
                return Err(error);
            }
            let random = self.inner.jitter.lock().map_or(0, |mut j| j.next());
            let Some(delay) = config.retry.delay(attempt, error.retry_after(), random) else {
                return Err(error);
            };
            tokio::time::sleep(delay).await;
            attempt += 1;
        }
    }

    /// One attempt against one endpoint.
    async fn send_once<M: RpcMethod>(
        &self,
        endpoint: &Endpoint,
        body: &[u8],
    ) -> Result<M::Result, Error<M::Error>> {
        let config = &self.inner.config;
        let method = (config.transport == Transport::MethodInPath).then_some(M::NAME);
        let mut request = self
            .inner
            .http
            .post(endpoint.url_for(method))
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .timeout(config.timeout)
            .body(body.to_vec());
        if let Some(key) = &config.api_key {
            request = key.apply(request);
        }
        let transport_error = |e: reqwest::Error| Error::Transport {
            method: M::NAME,
            endpoint: endpoint.clone(),
            kind: transport_kind(&e),
            message: describe_transport_error(e),
        };
        let mut response = request.send().await.map_err(transport_error)?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(retry::parse_retry_after);
        let mut bytes = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(transport_error)? {
            if bytes.len() + chunk.len() > config.max_response_bytes {
                return Err(Error::TooLarge {
                    method: M::NAME,
                    endpoint: endpoint.clone(),
                    status,
                    limit: config.max_response_bytes,
                });
            }
            bytes.extend_from_slice(&chunk);
        }
        let decoded = decode::from_slice::<Response<M::Result, ErrorWrapper<M::Error>>>(&bytes);
        match decoded {
            Ok(response) => match response.payload {
                Ok(result) => Ok(result),
                Err(error) => Err(Error::Rpc {
                    method: M::NAME,
                    endpoint: endpoint.clone(),
                    status,
                    error: Box::new(error),
                    retry_after,
                }),
            },
            // An error status whose body is not JSON-RPC at all (a gateway's HTML page,
            // a rate limiter's text) is an HTTP error; a JSON-RPC body that doesn't
            // decode is a decoding error whatever the status.
            Err(_) if status >= 400 && !looks_like_json_rpc(&bytes) => Err(Error::Http {
                method: M::NAME,
                endpoint: endpoint.clone(),
                status,
                body: error::body_snippet(&bytes),
                retry_after,
            }),
            Err(error) => Err(Error::Decode {
                method: M::NAME,
                endpoint: endpoint.clone(),
                status,
                error,
                body: error::body_snippet(&bytes),
            }),
        }
    }
}

fn looks_like_json_rpc(body: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(body).is_ok_and(|v| v.get("jsonrpc").is_some())
}

fn transport_kind(e: &reqwest::Error) -> TransportKind {
    if e.is_timeout() {
        TransportKind::Timeout
    } else if e.is_connect() {
        let chain = error_chain(e);
        if chain.contains("certificate") || chain.contains("tls") || chain.contains("TLS") {
            TransportKind::Tls
        } else {
            TransportKind::Connect
        }
    } else {
        TransportKind::Other
    }
}

/// The error and its sources, without the URL (which may hold an API key).
fn describe_transport_error(e: reqwest::Error) -> String {
    error_chain(&e.without_url())
}

fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let s_text = s.to_string();
        if !text.contains(&s_text) {
            text.push_str(": ");
            text.push_str(&s_text);
        }
        source = s.source();
    }
    text
}
