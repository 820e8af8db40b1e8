//! The client's error: the call's context (method, endpoint, the retry verdict) once, and
//! a `#[non_exhaustive]` kind of what went wrong with the transport's error nested, the
//! shape of smithy-rs's `SdkError` and alloy's `RpcError`. No part holds or prints a
//! secret: endpoints show as their origin only, and every text that came from a server
//! passed through the redaction layer.

use std::fmt;
use std::time::Duration;

use serde::Serialize;

use super::transport::{TransportError, TransportErrorKind};
use crate::de::decode::DecodeError;
use crate::report::ErrorReport;
use crate::types::SpecErrorWrapper;

/// At most this much of a response body is kept in an error's `body` text.
pub const ERROR_BODY_LIMIT: usize = 4096;

/// A failed call of one method, whose handler errors are `E`: where it failed (the
/// method, the endpoint), what happened ([`ErrorKind`]), and whether another attempt may
/// succeed, decided once by the same rule the retry layer follows.
///
/// Match on [`Error::kind`]; the accessors answer the common questions without a match:
///
/// ```no_run
/// # async fn run(client: near_rpc::Client) {
/// use near_rpc::client::transport::TransportErrorKind;
/// use near_rpc::client::ErrorKind;
/// use near_rpc::types::RpcQueryError;
/// use near_rpc::ErrorReport;
///
/// match client.view_account("nobody.near").await {
///     Ok(account) => println!("{}", account.amount),
///     Err(e) if matches!(e.handler_error(), Some(RpcQueryError::UnknownAccount { .. })) => {
///         println!("no such account")
///     }
///     Err(e) => match e.kind() {
///         ErrorKind::Transport(t) if matches!(t.kind, TransportErrorKind::Timeout) => {
///             eprintln!("{} timed out; retryable: {}", e.method(), e.is_retryable())
///         }
///         ErrorKind::Rpc { error, .. } => eprintln!("the node refused: {error}"),
///         _ => eprintln!("{}", ErrorReport(&e)),
///     },
/// }
/// # }
/// ```
#[derive(Debug)]
pub struct Error<E> {
    method: &'static str,
    endpoint: Option<String>,
    // The position of the endpoint that failed or answered, when one did.
    endpoint_index: Option<usize>,
    retryable: bool,
    nothing_sent: bool,
    // Boxed: the context is what a `Result` carries on the happy path's stack.
    kind: Box<ErrorKind<E>>,
}

/// What went wrong in a call. The HTTP status and the node's answer are kept wherever
/// there was one.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind<E> {
    /// The params could not be encoded (including signed transactions and function-call
    /// args that are not valid base64): a usage error, nothing was sent.
    Encode {
        /// What was wrong.
        message: String,
    },
    /// No usable HTTP response: connect, TLS or timeout failure, a broken connection, a
    /// refused redirect, a body over the size limit (either way), the call's deadline.
    Transport(TransportError),
    /// An HTTP error status without a JSON-RPC error in the body (an HTML page, a
    /// gateway's text, or even a JSON-RPC `result`: a non-2xx status is never a success).
    Http {
        /// The status code.
        status: u16,
        /// The start of the body, for diagnosis.
        body: String,
        /// The whole body as JSON, when it is JSON.
        json: Option<Box<serde_json::Value>>,
        /// `Retry-After`, when sent.
        retry_after: Option<Duration>,
    },
    /// The node answered with a JSON-RPC error (with any HTTP status: nearcore uses 200,
    /// 400, 408, 422 and 500), or put a handler error inside a `result`.
    Rpc {
        /// The HTTP status.
        status: u16,
        /// The typed error.
        error: Box<SpecErrorWrapper<E>>,
        /// `Retry-After`, when sent.
        retry_after: Option<Duration>,
    },
    /// The response could not be decoded.
    Decode {
        /// The HTTP status.
        status: u16,
        /// Where and why decoding failed.
        error: DecodeError,
        /// The start of the body.
        body: String,
    },
    /// The response's `id` is not the request's: it answers some other request.
    IdMismatch {
        /// The id sent.
        expected: String,
        /// The id received (`null` when absent).
        got: String,
    },
    /// The node answered, but not with what the shortcut asked for (a `query` for an
    /// account answered with contract code, say).
    UnexpectedAnswer {
        /// What came instead.
        message: String,
    },
    /// Every endpoint failed: each one's failure, in order.
    AllEndpointsFailed(Vec<Error<E>>),
}

impl<E> Error<E> {
    /// An error of `kind` in a call of `method` to `endpoint`: for tests and transports
    /// of your own. It is not retryable, and counts as sent unless it is an encoding
    /// error; the client's own errors carry the retry layer's verdict instead.
    pub fn new(method: &'static str, endpoint: Option<String>, kind: ErrorKind<E>) -> Self {
        let nothing_sent = matches!(kind, ErrorKind::Encode { .. });
        Self {
            method,
            endpoint,
            endpoint_index: None,
            retryable: false,
            nothing_sent,
            kind: Box::new(kind),
        }
    }

    /// The caller's params could not be encoded: nothing was sent.
    pub(crate) fn encode(method: &'static str, message: String) -> Self {
        Self::new(method, None, ErrorKind::Encode { message })
    }

    /// The node answered with something other than what was asked for.
    pub(crate) fn unexpected(method: &'static str, message: String) -> Self {
        Self::new(method, None, ErrorKind::UnexpectedAnswer { message })
    }

    /// The retry layer's verdict on the outcome this error comes from.
    pub(crate) fn with_verdict(mut self, retryable: bool, nothing_sent: bool) -> Self {
        self.retryable = retryable;
        self.nothing_sent = nothing_sent;
        self
    }

    /// The position (in the client's order) of the one endpoint this error came from.
    pub(crate) fn with_endpoint_index(mut self, index: usize) -> Self {
        self.endpoint_index = Some(index);
        self
    }

    /// The position of the one endpoint that answered or failed, when there was one:
    /// where a question about the same transaction must go.
    pub(crate) fn endpoint_index(&self) -> Option<usize> {
        self.endpoint_index
    }

    /// The method called.
    pub fn method(&self) -> &'static str {
        self.method
    }

    /// The endpoint that failed, as it may be printed (its origin, secrets masked);
    /// `None` when no endpoint was involved (an encoding error) or several were.
    pub fn endpoint(&self) -> Option<&str> {
        self.endpoint.as_deref()
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind<E> {
        &self.kind
    }

    /// What went wrong, by value.
    pub fn into_kind(self) -> ErrorKind<E> {
        *self.kind
    }

    /// Whether trying again (after a wait, maybe elsewhere) may succeed: transport
    /// failures, an answer with HTTP 408/429/502/503/504 (whatever its body, even one
    /// that does not decode or answers another id) and the node's `TIMEOUT_ERROR`; not
    /// request validation errors, other handler errors, undecodable 2xx responses,
    /// refused redirects or wrong ids with another status. This is the verdict the retry
    /// layer gave the same outcome ([`layers::verdict`](super::layers::verdict)), not a
    /// second rule.
    pub fn is_retryable(&self) -> bool {
        self.retryable
    }

    /// Whether no byte of the request can have reached a node (an encoding error, a
    /// request over the size limit, no connection or TLS session on any endpoint or in
    /// any retry), so that sending it again is safe even for a transaction.
    pub fn nothing_sent(&self) -> bool {
        self.nothing_sent
    }

    /// The transport's error, when the call got no usable HTTP response.
    pub fn transport_error(&self) -> Option<&TransportError> {
        match &*self.kind {
            ErrorKind::Transport(error) => Some(error),
            _ => None,
        }
    }

    /// `Retry-After` sent with the failure (the longest, over several endpoints).
    pub fn retry_after(&self) -> Option<Duration> {
        match &*self.kind {
            ErrorKind::Http { retry_after, .. } | ErrorKind::Rpc { retry_after, .. } => {
                *retry_after
            }
            ErrorKind::AllEndpointsFailed(failures) => {
                failures.iter().filter_map(Self::retry_after).max()
            }
            _ => None,
        }
    }

    /// The HTTP status, when there was a response (the last endpoint's, over several).
    pub fn status(&self) -> Option<u16> {
        match &*self.kind {
            ErrorKind::Http { status, .. }
            | ErrorKind::Rpc { status, .. }
            | ErrorKind::Decode { status, .. } => Some(*status),
            ErrorKind::Transport(error) => match &error.kind {
                TransportErrorKind::Redirect { status, .. }
                | TransportErrorKind::TooLarge { status, .. } => Some(*status),
                _ => None,
            },
            ErrorKind::AllEndpointsFailed(failures) => failures.last()?.status(),
            _ => None,
        }
    }

    /// The JSON-RPC error, when the node sent one (the last endpoint's, over several).
    pub fn rpc_error(&self) -> Option<&SpecErrorWrapper<E>> {
        match &*self.kind {
            ErrorKind::Rpc { error, .. } => Some(error),
            ErrorKind::AllEndpointsFailed(failures) => failures.last()?.rpc_error(),
            _ => None,
        }
    }

    /// The method's typed handler error (the `cause` of a `HANDLER_ERROR`, or an error
    /// a legacy node reported inside a `query` result), when the node sent one.
    ///
    /// ```no_run
    /// # async fn run(client: near_rpc::Client) {
    /// use near_rpc::types::RpcQueryError;
    ///
    /// match client.view_account("nobody.near").await {
    ///     Ok(account) => println!("{}", account.amount),
    ///     Err(e) if matches!(e.handler_error(), Some(RpcQueryError::UnknownAccount { .. })) => {
    ///         println!("no such account")
    ///     }
    ///     Err(e) => eprintln!("{e}"),
    /// }
    /// # }
    /// ```
    pub fn handler_error(&self) -> Option<&E> {
        match &self.rpc_error()?.cause {
            crate::envelope::ErrorCause::Handler(cause) => Some(cause),
            _ => None,
        }
    }

    /// Whether the error is the caller's own: params that could not be encoded, or a
    /// request over the size limit. Nothing was sent.
    pub fn is_usage(&self) -> bool {
        match &*self.kind {
            ErrorKind::Encode { .. } => true,
            ErrorKind::Transport(error) => {
                matches!(error.kind, TransportErrorKind::RequestTooLarge { .. })
            }
            _ => false,
        }
    }
}

impl<E: fmt::Debug + Serialize> fmt::Display for Error<E> {
    /// This level's failure in one line: the call (method, endpoint) and what went wrong
    /// with it. A transport or decoding failure is the [`source`](std::error::Error::source)
    /// and is not repeated here: print the whole chain with
    /// [`ErrorReport`](crate::ErrorReport).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let method = self.method;
        let endpoint = self.endpoint.as_deref().unwrap_or("the node");
        match &*self.kind {
            ErrorKind::Encode { message } => {
                write!(f, "cannot encode the params of `{method}`: {message}")
            }
            ErrorKind::Transport(_) => write!(f, "calling `{method}` on {endpoint} failed"),
            ErrorKind::Http { status, body, .. } => {
                write!(f, "HTTP {status} calling `{method}` on {endpoint}")?;
                let snippet: String = body.chars().take(200).collect();
                let snippet = snippet.split_whitespace().collect::<Vec<_>>().join(" ");
                if !snippet.is_empty() {
                    write!(f, ": {snippet}")?;
                }
                Ok(())
            }
            ErrorKind::Rpc { status, error, .. } => {
                write!(f, "`{method}` on {endpoint} failed (HTTP {status}): {error}")
            }
            ErrorKind::Decode { status, .. } => write!(
                f,
                "cannot decode the response of `{method}` from {endpoint} (HTTP {status})"
            ),
            ErrorKind::IdMismatch { expected, got } => write!(
                f,
                "the response of `{method}` from {endpoint} has id {got}, not the request's {expected}"
            ),
            ErrorKind::UnexpectedAnswer { message } => {
                write!(f, "unexpected answer to `{method}`: {message}")
            }
            // No one source: each failure is printed whole, with its own causes.
            ErrorKind::AllEndpointsFailed(failures) => {
                write!(f, "`{method}` failed on every endpoint:")?;
                for (i, failure) in failures.iter().enumerate() {
                    write!(f, " [{}] {}", i + 1, ErrorReport(failure))?;
                    if i + 1 < failures.len() {
                        f.write_str(";")?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl<E: fmt::Debug + Serialize> std::error::Error for Error<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &*self.kind {
            ErrorKind::Transport(error) => Some(error),
            ErrorKind::Decode { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The first [`ERROR_BODY_LIMIT`] bytes of a body, as text.
pub(crate) fn body_snippet(body: &[u8]) -> String {
    let end = body.len().min(ERROR_BODY_LIMIT);
    String::from_utf8_lossy(&body[..end]).into_owned()
}
