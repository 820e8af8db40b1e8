//! The client's error: transport failures, HTTP statuses, JSON-RPC errors and responses
//! that don't decode, kept apart. No variant holds or prints a secret: endpoints show
//! without their path, and API-key headers are never recorded.

use std::fmt;
use std::time::Duration;

use serde::Serialize;

use super::endpoint::Endpoint;
use crate::decode::DecodeError;
use crate::ErrorWrapper;

/// At most this much of a response body is kept in an error.
pub const ERROR_BODY_LIMIT: usize = 4096;

/// A failed call of method `M`, whose handler errors are `E`.
#[derive(Debug)]
pub enum Error<E> {
    /// The params could not be encoded as JSON.
    Encode {
        /// The method called.
        method: &'static str,
        /// What serde said.
        message: String,
    },
    /// No HTTP response: connect, TLS or timeout failure.
    Transport {
        /// The method called.
        method: &'static str,
        /// The node (redacted).
        endpoint: Endpoint,
        /// What failed.
        kind: TransportKind,
        /// The underlying message, without the URL.
        message: String,
    },
    /// An HTTP error status with no JSON-RPC body.
    Http {
        /// The method called.
        method: &'static str,
        /// The node (redacted).
        endpoint: Endpoint,
        /// The status code.
        status: u16,
        /// The start of the body, for diagnosis.
        body: String,
        /// `Retry-After`, when sent.
        retry_after: Option<Duration>,
    },
    /// The node answered with a JSON-RPC error (with any HTTP status: nearcore uses 200,
    /// 400, 408, 422 and 500).
    Rpc {
        /// The method called.
        method: &'static str,
        /// The node (redacted).
        endpoint: Endpoint,
        /// The HTTP status.
        status: u16,
        /// The typed error.
        error: Box<ErrorWrapper<E>>,
        /// `Retry-After`, when sent.
        retry_after: Option<Duration>,
    },
    /// The response could not be decoded.
    Decode {
        /// The method called.
        method: &'static str,
        /// The node (redacted).
        endpoint: Endpoint,
        /// The HTTP status.
        status: u16,
        /// Where and why decoding failed.
        error: DecodeError,
        /// The start of the body.
        body: String,
    },
    /// The response body was larger than the configured limit.
    TooLarge {
        /// The method called.
        method: &'static str,
        /// The node (redacted).
        endpoint: Endpoint,
        /// The HTTP status.
        status: u16,
        /// The limit, in bytes.
        limit: usize,
    },
}

/// What kind of transport failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportKind {
    /// The connection could not be made (DNS, refused, reset).
    Connect,
    /// The TLS handshake failed.
    Tls,
    /// The request timed out.
    Timeout,
    /// The connection broke while sending or receiving.
    Other,
}

impl fmt::Display for TransportKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Connect => "connect",
            Self::Tls => "TLS",
            Self::Timeout => "timeout",
            Self::Other => "connection",
        })
    }
}

/// HTTP statuses worth retrying: timeout, rate limit, and gateway trouble.
const RETRYABLE_STATUSES: [u16; 5] = [408, 429, 502, 503, 504];

impl<E: Serialize> Error<E> {
    /// Whether trying again (after a wait, maybe elsewhere) may succeed: transport
    /// failures, HTTP 408/429/502/503/504 and the node's `TIMEOUT_ERROR`; not request
    /// validation errors, most handler errors, or undecodable responses.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Transport { .. } => true,
            Self::Http { status, .. } => RETRYABLE_STATUSES.contains(status),
            Self::Rpc { status, error, .. } => {
                RETRYABLE_STATUSES.contains(status)
                    || handler_error_name(error).as_deref() == Some("TIMEOUT_ERROR")
            }
            Self::Encode { .. } | Self::Decode { .. } | Self::TooLarge { .. } => false,
        }
    }
}

impl<E> Error<E> {
    /// `Retry-After` sent with the failure.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::Http { retry_after, .. } | Self::Rpc { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// The HTTP status, when there was a response.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Http { status, .. }
            | Self::Rpc { status, .. }
            | Self::Decode { status, .. }
            | Self::TooLarge { status, .. } => Some(*status),
            Self::Encode { .. } | Self::Transport { .. } => None,
        }
    }

    /// The JSON-RPC error, when the node sent one.
    pub fn rpc_error(&self) -> Option<&ErrorWrapper<E>> {
        match self {
            Self::Rpc { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The wire `name` of a handler error's cause (`"TIMEOUT_ERROR"`, ...).
fn handler_error_name<E: Serialize>(error: &ErrorWrapper<E>) -> Option<String> {
    match &error.cause {
        crate::ErrorCause::Handler(cause) => serde_json::to_value(cause)
            .ok()?
            .get("name")?
            .as_str()
            .map(str::to_owned),
        _ => None,
    }
}

impl<E: fmt::Debug> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Encode { method, message } => {
                write!(f, "cannot encode the params of `{method}`: {message}")
            }
            Self::Transport {
                method,
                endpoint,
                kind,
                message,
            } => {
                write!(
                    f,
                    "{kind} error calling `{method}` on {endpoint}: {message}"
                )
            }
            Self::Http {
                method,
                endpoint,
                status,
                body,
                ..
            } => {
                write!(f, "HTTP {status} calling `{method}` on {endpoint}")?;
                let snippet: String = body.chars().take(200).collect();
                if !snippet.trim().is_empty() {
                    write!(f, ": {}", snippet.trim())?;
                }
                Ok(())
            }
            Self::Rpc {
                method,
                endpoint,
                status,
                error,
                ..
            } => {
                write!(
                    f,
                    "`{method}` on {endpoint} failed (HTTP {status}): {error}"
                )
            }
            Self::Decode {
                method,
                endpoint,
                status,
                error,
                ..
            } => {
                write!(f, "cannot decode the response of `{method}` from {endpoint} (HTTP {status}): {error}")
            }
            Self::TooLarge {
                method,
                endpoint,
                limit,
                ..
            } => {
                write!(
                    f,
                    "the response of `{method}` from {endpoint} is larger than {limit} bytes"
                )
            }
        }
    }
}

impl<E: fmt::Debug> std::error::Error for Error<E> {}

/// The first [`ERROR_BODY_LIMIT`] bytes of a body, as text.
pub(crate) fn body_snippet(body: &[u8]) -> String {
    let end = body.len().min(ERROR_BODY_LIMIT);
    String::from_utf8_lossy(&body[..end]).into_owned()
}
