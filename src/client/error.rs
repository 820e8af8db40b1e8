//! The client's error: what went wrong, kept apart by kind, with the HTTP status and the
//! node's answer wherever there was one. No variant holds or prints a secret: endpoints
//! show as their origin only, and every text that came from a server passed through the
//! redaction layer.

use std::fmt;
use std::time::Duration;

use serde::Serialize;

use super::layers::RETRYABLE_STATUSES;
use crate::decode::DecodeError;
use crate::ErrorWrapper;

/// At most this much of a response body is kept in an error's `body` text.
pub const ERROR_BODY_LIMIT: usize = 4096;

/// A failed call of one method, whose handler errors are `E`.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error<E> {
    /// The params could not be encoded (including signed transactions and function-call
    /// args that are not valid base64): a usage error, nothing was sent.
    Encode {
        /// The method called.
        method: &'static str,
        /// What was wrong.
        message: String,
    },
    /// No HTTP response: connect, TLS or timeout failure, or a broken connection.
    Transport {
        /// The method called.
        method: &'static str,
        /// The node (redacted).
        endpoint: String,
        /// What failed.
        kind: TransportKind,
        /// The underlying message, without the URL.
        message: String,
    },
    /// The node redirected, and the redirect policy refused to follow.
    Redirect {
        /// The method called.
        method: &'static str,
        /// The node (redacted).
        endpoint: String,
        /// The 3xx status.
        status: u16,
        /// Where it pointed (redacted like an endpoint).
        location: String,
    },
    /// An HTTP error status without a JSON-RPC error in the body (an HTML page, a
    /// gateway's text, or even a JSON-RPC `result`: a non-2xx status is never a success).
    Http {
        /// The method called.
        method: &'static str,
        /// The node (redacted).
        endpoint: String,
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
    /// 400, 408, 422 and 500).
    Rpc {
        /// The method called.
        method: &'static str,
        /// The node (redacted).
        endpoint: String,
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
        endpoint: String,
        /// The HTTP status.
        status: u16,
        /// Where and why decoding failed.
        error: DecodeError,
        /// The start of the body.
        body: String,
    },
    /// The response's `id` is not the request's: it answers some other request.
    IdMismatch {
        /// The method called.
        method: &'static str,
        /// The node (redacted).
        endpoint: String,
        /// The id sent.
        expected: String,
        /// The id received (`null` when absent).
        got: String,
    },
    /// The response body was larger than the limit; reading stopped there.
    TooLarge {
        /// The method called.
        method: &'static str,
        /// The node (redacted).
        endpoint: String,
        /// The HTTP status.
        status: u16,
        /// The limit, in bytes.
        limit: usize,
    },
    /// The request was larger than the limit; nothing was sent.
    RequestTooLarge {
        /// The method called.
        method: &'static str,
        /// The request's size, in bytes.
        size: usize,
        /// The limit, in bytes.
        limit: usize,
    },
    /// The call's overall deadline passed (across retries and endpoints).
    Deadline {
        /// The method called.
        method: &'static str,
        /// The deadline.
        limit: Duration,
    },
    /// The node answered, but not with what the shortcut asked for (a `query` for an
    /// account answered with contract code, say).
    UnexpectedAnswer {
        /// The method called.
        method: &'static str,
        /// What came instead.
        message: String,
    },
    /// Every endpoint failed: each one's failure, in order.
    AllEndpointsFailed {
        /// The method called.
        method: &'static str,
        /// One error per endpoint tried.
        failures: Vec<Error<E>>,
    },
}

/// What kind of transport failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportKind {
    /// The connection could not be made (DNS, refused): nothing was sent.
    Connect,
    /// The TLS handshake failed (bad certificate, not TLS): nothing was sent.
    Tls,
    /// The attempt timed out.
    Timeout,
    /// The connection broke while sending or receiving.
    Connection,
    /// Anything else.
    Other,
}

impl fmt::Display for TransportKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Connect => "connect",
            Self::Tls => "TLS",
            Self::Timeout => "timeout",
            Self::Connection => "connection",
            Self::Other => "transport",
        })
    }
}

impl<E: Serialize> Error<E> {
    /// Whether trying again (after a wait, maybe elsewhere) may succeed: transport
    /// failures, HTTP 408/429/502/503/504 (whatever the body) and the node's
    /// `TIMEOUT_ERROR`; not request
    /// validation errors, other handler errors, undecodable responses, refused redirects
    /// or wrong ids. The retry layer decides by the same rules.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Transport { kind, .. } => *kind != TransportKind::Other,
            Self::Http { status, .. } => RETRYABLE_STATUSES.contains(status),
            Self::Rpc { status, error, .. } => {
                RETRYABLE_STATUSES.contains(status)
                    || handler_error_name(error).as_deref() == Some("TIMEOUT_ERROR")
            }
            Self::AllEndpointsFailed { failures, .. } => failures.iter().any(Self::is_retryable),
            // A rate limiter's or gateway's body that looks like JSON-RPC but isn't ours.
            Self::Decode { status, .. } => RETRYABLE_STATUSES.contains(status),
            Self::Encode { .. }
            | Self::Redirect { .. }
            | Self::IdMismatch { .. }
            | Self::TooLarge { .. }
            | Self::RequestTooLarge { .. }
            | Self::Deadline { .. }
            | Self::UnexpectedAnswer { .. } => false,
        }
    }
}

impl<E> Error<E> {
    /// The method called.
    pub fn method(&self) -> &'static str {
        match self {
            Self::Encode { method, .. }
            | Self::Transport { method, .. }
            | Self::Redirect { method, .. }
            | Self::Http { method, .. }
            | Self::Rpc { method, .. }
            | Self::Decode { method, .. }
            | Self::IdMismatch { method, .. }
            | Self::TooLarge { method, .. }
            | Self::RequestTooLarge { method, .. }
            | Self::Deadline { method, .. }
            | Self::UnexpectedAnswer { method, .. }
            | Self::AllEndpointsFailed { method, .. } => method,
        }
    }

    /// `Retry-After` sent with the failure (the longest, over several endpoints).
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::Http { retry_after, .. } | Self::Rpc { retry_after, .. } => *retry_after,
            Self::AllEndpointsFailed { failures, .. } => {
                failures.iter().filter_map(Self::retry_after).max()
            }
            _ => None,
        }
    }

    /// The HTTP status, when there was a response (the last endpoint's, over several).
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Http { status, .. }
            | Self::Rpc { status, .. }
            | Self::Redirect { status, .. }
            | Self::Decode { status, .. }
            | Self::TooLarge { status, .. } => Some(*status),
            Self::AllEndpointsFailed { failures, .. } => failures.last()?.status(),
            _ => None,
        }
    }

    /// The JSON-RPC error, when the node sent one (the last endpoint's, over several).
    pub fn rpc_error(&self) -> Option<&ErrorWrapper<E>> {
        match self {
            Self::Rpc { error, .. } => Some(error),
            Self::AllEndpointsFailed { failures, .. } => failures.last()?.rpc_error(),
            _ => None,
        }
    }

    /// The method's typed handler error (the `cause` of a `HANDLER_ERROR`, or an error
    /// a legacy node reported inside a `query` result), when the node sent one.
    ///
    /// ```no_run
    /// # async fn run(client: near_rpc::client::Client) {
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
            crate::ErrorCause::Handler(cause) => Some(cause),
            _ => None,
        }
    }

    /// Whether the error is the caller's own: params that could not be encoded, or a
    /// request over the size limit. Nothing was sent.
    pub fn is_usage(&self) -> bool {
        matches!(self, Self::Encode { .. } | Self::RequestTooLarge { .. })
    }
}

/// The wire `name` of a handler error's cause (`"TIMEOUT_ERROR"`, ...).
fn handler_error_name<E: Serialize>(error: &ErrorWrapper<E>) -> Option<String> {
    match &error.cause {
        crate::ErrorCause::Handler(cause) => crate::envelope::tag_of(cause),
        _ => None,
    }
}

impl<E: fmt::Debug + Serialize> fmt::Display for Error<E> {
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
            } => write!(
                f,
                "{kind} error calling `{method}` on {endpoint}: {message}"
            ),
            Self::Redirect {
                method,
                endpoint,
                status,
                location,
            } => write!(
                f,
                "`{method}` on {endpoint}: HTTP {status} redirect to {location} not followed"
            ),
            Self::Http {
                method,
                endpoint,
                status,
                body,
                ..
            } => {
                write!(f, "HTTP {status} calling `{method}` on {endpoint}")?;
                let snippet: String = body.chars().take(200).collect();
                let snippet = snippet.split_whitespace().collect::<Vec<_>>().join(" ");
                if !snippet.is_empty() {
                    write!(f, ": {snippet}")?;
                }
                Ok(())
            }
            Self::Rpc {
                method,
                endpoint,
                status,
                error,
                ..
            } => write!(
                f,
                "`{method}` on {endpoint} failed (HTTP {status}): {error}"
            ),
            Self::Decode {
                method,
                endpoint,
                status,
                error,
                ..
            } => write!(
                f,
                "cannot decode the response of `{method}` from {endpoint} (HTTP {status}): {error}"
            ),
            Self::IdMismatch {
                method,
                endpoint,
                expected,
                got,
            } => write!(
                f,
                "the response of `{method}` from {endpoint} has id {got}, not the request's {expected}"
            ),
            Self::TooLarge {
                method,
                endpoint,
                limit,
                ..
            } => write!(
                f,
                "the response of `{method}` from {endpoint} is larger than {limit} bytes"
            ),
            Self::RequestTooLarge {
                method,
                size,
                limit,
            } => write!(
                f,
                "the request of `{method}` is {size} bytes, over the {limit}-byte limit"
            ),
            Self::Deadline { method, limit } => {
                write!(f, "`{method}` did not finish within its {limit:?} deadline")
            }
            Self::UnexpectedAnswer { method, message } => {
                write!(f, "unexpected answer to `{method}`: {message}")
            }
            Self::AllEndpointsFailed { method, failures } => {
                write!(f, "`{method}` failed on every endpoint:")?;
                for (i, failure) in failures.iter().enumerate() {
                    write!(f, " [{}] {failure}", i + 1)?;
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
        match self {
            Self::Decode { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The first [`ERROR_BODY_LIMIT`] bytes of a body, as text.
pub(crate) fn body_snippet(body: &[u8]) -> String {
    let end = body.len().min(ERROR_BODY_LIMIT);
    String::from_utf8_lossy(&body[..end]).into_owned()
}
