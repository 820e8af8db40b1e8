//! The one transport trait, and the request and outcome it carries.
//!
//! A [`Transport`] takes a JSON-RPC request and returns the HTTP outcome: status,
//! headers, and a body read up to a size limit. It does not decode the body; the
//! [`Client`](super::Client) does that once, at the top.
//!
//! [`HttpTransport`] (reqwest: hyper and rustls natively, the JS host's `fetch` on
//! wasm32, where the transport's futures are not `Send`) and [`MockTransport`] (scripted
//! answers, for tests) are two implementations; a recorded cassette or an in-process node
//! can be others ([`Client::with_transport`](super::Client::with_transport)). Retry, failover,
//! the overall deadline, size limits and redaction are layers in
//! [`layers`](super::layers): each is itself a `Transport` wrapping another.
//!
//! # Why a trait of our own, not tower
//!
//! A tower `Service` takes `&mut self`, has `poll_ready`, and composes through generic
//! types that every user crate monomorphizes again. This trait is object safe (`&self`,
//! a boxed future), so the whole stack is `Arc<dyn Transport>`: it compiles once inside
//! near-rpc, adds no dependency, and a user transport is one method to write.

#[cfg(target_arch = "wasm32")]
mod fetch;
mod http;
mod mock;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

pub(crate) use http::http_client;
pub use http::{HttpTransport, PathStyle, RedirectPolicy, DEFAULT_TIMEOUT, MAX_REDIRECTS};
pub use mock::{MockReply, MockTransport};
pub use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use super::redact::Secrets;
use super::rt::Instant;

/// The future a [`Transport`] returns.
#[cfg(not(target_arch = "wasm32"))]
pub type TransportFuture<'a> =
    Pin<Box<dyn Future<Output = Result<HttpResponse, TransportError>> + Send + 'a>>;
/// The future a [`Transport`] returns: not `Send` on wasm32, where a `fetch` future
/// holds JS values that never leave their thread.
#[cfg(target_arch = "wasm32")]
pub type TransportFuture<'a> =
    Pin<Box<dyn Future<Output = Result<HttpResponse, TransportError>> + 'a>>;

/// A shared, type-erased transport: what layers wrap and the client holds.
pub type BoxTransport = Arc<dyn Transport>;

/// Sends one JSON-RPC request and returns the HTTP outcome.
///
/// Implementations must honour [`RpcRequest::max_response_bytes`] while reading (stop
/// reading and fail with [`TransportErrorKind::TooLarge`] past it) and
/// [`RpcRequest::deadline`] where they can. A non-2xx status is an `Ok` outcome: deciding
/// what it means is the layers' and the client's job.
pub trait Transport: Send + Sync + fmt::Debug {
    /// Sends `request`.
    fn send(&self, request: RpcRequest) -> TransportFuture<'_>;

    /// Where requests go, as it may be printed (no credentials):
    /// `https://rpc.example.org/***`.
    fn describe(&self) -> String;

    /// The secret values this transport holds (API keys, key-looking URL parts), so that
    /// the redaction layer can mask them wherever a server echoes them.
    fn secrets(&self) -> Secrets {
        Secrets::default()
    }
}

impl<T: Transport + ?Sized> Transport for Arc<T> {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        (**self).send(request)
    }

    fn describe(&self) -> String {
        (**self).describe()
    }

    fn secrets(&self) -> Secrets {
        (**self).secrets()
    }
}

/// The default largest response body (genesis configs and large blocks fit well under
/// it).
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 32 * 1024 * 1024;

/// One JSON-RPC request on its way to a node. Cheap to clone (the body is shared), so
/// retries and failover resend it without copying.
#[derive(Clone, Debug)]
pub struct RpcRequest {
    /// The JSON-RPC method name.
    pub method: &'static str,
    /// The request id, as sent in the body (`"id": "<id>"`).
    pub id: u64,
    /// The encoded JSON-RPC request.
    pub body: bytes::Bytes,
    /// Whether the method submits a transaction ([`RpcMethod::SUBMITS_TRANSACTION`](crate::methods::RpcMethod::SUBMITS_TRANSACTION)):
    /// such a request is never sent twice once bytes may have reached a node.
    pub submits_transaction: bool,
    /// The largest response body to read.
    pub max_response_bytes: usize,
    /// When the whole call must be over, across retries and endpoints (on wasm32, where
    /// std has no clock, `web_time::Instant`: the JS host's `performance.now()`).
    pub deadline: Option<Instant>,
    /// Send only to the endpoint at this position in the client's order (the one that
    /// answered an earlier call, [`HttpResponse::endpoint_index`]), never failing over:
    /// what one node said about a transaction is asked again of that node alone.
    pub pinned_endpoint: Option<usize>,
}

impl RpcRequest {
    /// A request with the default limits and no deadline.
    pub fn new(
        method: &'static str,
        id: u64,
        body: impl Into<bytes::Bytes>,
        submits_transaction: bool,
    ) -> Self {
        Self {
            method,
            id,
            body: body.into(),
            submits_transaction,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
            deadline: None,
            pinned_endpoint: None,
        }
    }

    /// The time left before the deadline (`None`: no deadline).
    pub fn time_left(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }
}

/// An HTTP response, its body read in full (within the size limit).
#[derive(Clone, Debug)]
pub struct HttpResponse {
    /// Which endpoint answered, as it may be printed.
    pub endpoint: Arc<str>,
    /// Its position in the client's order of endpoints (0 with one), set by the failover
    /// layer: labels may repeat, positions don't.
    pub endpoint_index: usize,
    /// The HTTP status.
    pub status: u16,
    /// The response headers.
    pub headers: HeaderMap,
    /// The body.
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// A response with no headers.
    pub fn new(endpoint: impl Into<Arc<str>>, status: u16, body: impl Into<Vec<u8>>) -> Self {
        Self {
            endpoint: endpoint.into(),
            endpoint_index: 0,
            status,
            headers: HeaderMap::new(),
            body: body.into(),
        }
    }

    /// `Retry-After` in seconds, when the server sent it. (The HTTP-date form is not
    /// used by NEAR RPC providers; it is ignored, and the backoff applies.)
    pub fn retry_after(&self) -> Option<Duration> {
        let value = self.headers.get(reqwest::header::RETRY_AFTER)?;
        let seconds = value.to_str().ok()?.trim().parse::<u64>().ok()?;
        Some(Duration::from_secs(seconds))
    }

    /// Whether the status is 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// A request that got no usable HTTP response.
#[derive(Clone, Debug)]
pub struct TransportError {
    /// Which endpoint, as it may be printed.
    pub endpoint: Arc<str>,
    /// Its position in the client's order of endpoints (0 with one), set by the failover
    /// layer.
    pub endpoint_index: usize,
    /// What went wrong.
    pub kind: TransportErrorKind,
    /// The underlying message (no URL, secrets masked).
    pub message: String,
    /// Whether an earlier attempt of the same request (a retry) may have reached a
    /// node: then [`TransportError::nothing_sent`] is false, whatever this attempt's
    /// kind.
    pub sent_before: bool,
}

impl TransportError {
    /// An error of `kind` at `endpoint`.
    pub fn new(
        endpoint: impl Into<Arc<str>>,
        kind: TransportErrorKind,
        message: impl Into<String>,
    ) -> Self {
        Self {
            endpoint: endpoint.into(),
            endpoint_index: 0,
            kind,
            message: message.into(),
            sent_before: false,
        }
    }

    /// Whether the request certainly never reached a node (the connection or TLS
    /// handshake failed, or it was over the size limit, on every attempt), so that
    /// sending it elsewhere is safe even for a transaction.
    pub fn nothing_sent(&self) -> bool {
        if self.sent_before {
            return false;
        }
        match &self.kind {
            TransportErrorKind::Connect
            | TransportErrorKind::Tls
            | TransportErrorKind::RequestTooLarge { .. } => true,
            // No attempt at all proves nothing.
            TransportErrorKind::AllEndpointsFailed(attempts) => {
                !attempts.is_empty()
                    && attempts
                        .iter()
                        .all(|a| a.outcome.as_ref().is_err_and(TransportError::nothing_sent))
            }
            _ => false,
        }
    }
}

impl fmt::Display for TransportError {
    /// What went wrong, without the endpoint: the error that carries this one (the
    /// client's [`Error`](crate::client::Error)) names it, and so does
    /// [`endpoint`](Self::endpoint).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if !self.message.is_empty() {
            write!(f, ": {}", self.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for TransportError {}

/// What kind of transport failure.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum TransportErrorKind {
    /// The connection could not be made (DNS, refused): nothing was sent.
    Connect,
    /// The TLS handshake failed: nothing was sent.
    Tls,
    /// The attempt timed out.
    Timeout,
    /// The connection broke while sending or receiving.
    Connection,
    /// The server redirected, and the redirect policy refused to follow.
    Redirect {
        /// The 3xx status (0 where a browser hides it from the page: wasm32's
        /// "opaque redirect", whose target is hidden too).
        status: u16,
        /// The target, redacted like an endpoint (`https://other.example.org/***`).
        location: String,
    },
    /// The response body was larger than the limit; reading stopped there.
    TooLarge {
        /// The HTTP status.
        status: u16,
        /// The limit, in bytes.
        limit: usize,
    },
    /// The request body was larger than the limit; nothing was sent.
    RequestTooLarge {
        /// The request's size, in bytes.
        size: usize,
        /// The limit, in bytes.
        limit: usize,
    },
    /// The call's overall deadline passed.
    Deadline {
        /// The deadline, from the start of the call.
        limit: Duration,
    },
    /// Every endpoint failed; each attempt of the last round, in order.
    AllEndpointsFailed(Vec<Attempt>),
    /// Anything else.
    Other,
}

impl fmt::Display for TransportErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Connect => f.write_str("connect error"),
            Self::Tls => f.write_str("TLS handshake failed"),
            Self::Timeout => f.write_str("timeout"),
            Self::Connection => f.write_str("connection error"),
            Self::Redirect { status: 0, .. } => {
                f.write_str("redirect refused (the browser hides its status and target)")
            }
            Self::Redirect { status, location } => {
                write!(f, "redirect refused (HTTP {status} to {location})")
            }
            Self::TooLarge { status, limit } => {
                write!(f, "response larger than {limit} bytes (HTTP {status})")
            }
            Self::RequestTooLarge { size, limit } => {
                write!(f, "request of {size} bytes is larger than {limit} bytes")
            }
            Self::Deadline { limit } => write!(f, "deadline of {limit:?} passed"),
            Self::AllEndpointsFailed(attempts) => {
                write!(f, "all {} endpoints failed", attempts.len())
            }
            Self::Other => f.write_str("transport error"),
        }
    }
}

/// One endpoint's outcome within a failover round.
#[derive(Clone, Debug)]
pub struct Attempt {
    /// The endpoint, as it may be printed.
    pub endpoint: Arc<str>,
    /// What it answered.
    pub outcome: Result<HttpResponse, TransportError>,
}
