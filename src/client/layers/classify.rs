//! What an outcome means for retry and failover: an answer to pass up, or a failure of
//! the endpoint that another attempt or another endpoint may not have.

use super::super::transport::{HttpResponse, TransportError, TransportErrorKind};
use crate::de::native::Peek;

/// HTTP statuses worth retrying: timeout, rate limit, and gateway trouble.
pub const RETRYABLE_STATUSES: [u16; 5] = [408, 429, 502, 503, 504];

/// The meaning of one outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Final: a result, a permanent JSON-RPC error (bad params, unknown account), or a
    /// failure no other attempt would change (a response over the size limit).
    Final,
    /// The endpoint could not answer; another endpoint may.
    Failure {
        /// Whether the same request may succeed later: transport failures, HTTP
        /// 408/429/502/503/504, the node's `TIMEOUT_ERROR`.
        retryable: bool,
        /// Whether the request certainly never reached a node.
        nothing_sent: bool,
    },
}

impl Verdict {
    /// Whether the same request may succeed later.
    pub fn retryable(self) -> bool {
        matches!(
            self,
            Verdict::Failure {
                retryable: true,
                ..
            }
        )
    }
}

/// The verdict on one outcome. Reads at most the JSON-RPC envelope of the body, and for a
/// 2xx body without an `"error"` key not even that.
pub fn verdict(outcome: &Result<HttpResponse, TransportError>) -> Verdict {
    match outcome {
        Ok(response) => response_verdict(response),
        Err(error) => error_verdict(error),
    }
}

/// The verdict on a transport error.
pub(crate) fn error_verdict(error: &TransportError) -> Verdict {
    let failure = |retryable, nothing_sent| Verdict::Failure {
        retryable,
        nothing_sent,
    };
    match &error.kind {
        // Unsent, unless an earlier attempt of the same call (a retry) may have arrived.
        TransportErrorKind::Connect | TransportErrorKind::Tls => {
            failure(true, error.nothing_sent())
        }
        TransportErrorKind::Timeout | TransportErrorKind::Connection => failure(true, false),
        TransportErrorKind::Redirect { .. } | TransportErrorKind::Other => failure(false, false),
        TransportErrorKind::AllEndpointsFailed(attempts) => {
            let retryable = attempts.iter().any(|a| verdict(&a.outcome).retryable());
            failure(retryable, error.nothing_sent())
        }
        TransportErrorKind::TooLarge { .. }
        | TransportErrorKind::RequestTooLarge { .. }
        | TransportErrorKind::Deadline { .. } => Verdict::Final,
    }
}

/// The verdict on an HTTP response.
pub(crate) fn response_verdict(response: &HttpResponse) -> Verdict {
    let status_retryable = RETRYABLE_STATUSES.contains(&response.status);
    let failure = |retryable| Verdict::Failure {
        retryable,
        nothing_sent: false,
    };
    match peek(response) {
        // An HTML page from a proxy, a gateway's text, an empty body.
        Body::NotJsonRpc => failure(status_retryable),
        Body::Result if response.is_success() => Verdict::Final,
        // A non-2xx status is a failure even with a `result` in the body.
        Body::Result => failure(status_retryable),
        Body::Error(_) if status_retryable => failure(true),
        Body::Error(ErrorClass::Timeout) => failure(true),
        Body::Error(ErrorClass::Internal) => failure(false),
        Body::Error(ErrorClass::Permanent) => Verdict::Final,
    }
}

enum Body {
    NotJsonRpc,
    Result,
    Error(ErrorClass),
}

enum ErrorClass {
    /// `TIMEOUT_ERROR`: the node gave up waiting; it may not next time.
    Timeout,
    /// `INTERNAL_ERROR`: this node is in trouble; another may not be.
    Internal,
    /// Anything else is the node's answer about the request itself.
    Permanent,
}

fn peek(response: &HttpResponse) -> Body {
    let body = &response.body;
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        return Body::NotJsonRpc;
    }
    // The common case, a large 2xx result, is not parsed twice.
    if response.is_success() && memchr::memmem::find(body, b"\"error\"").is_none() {
        return Body::Result;
    }
    // The decoder's own rules for the envelope and the error object.
    match crate::de::native::peek(body) {
        Peek::NotJsonRpc => Body::NotJsonRpc,
        Peek::Result => Body::Result,
        Peek::Error { name, cause } => Body::Error(match (name.as_deref(), cause.as_deref()) {
            (_, Some("TIMEOUT_ERROR")) => ErrorClass::Timeout,
            (Some("INTERNAL_ERROR"), _) => ErrorClass::Internal,
            _ => ErrorClass::Permanent,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(status: u16, body: &str) -> Result<HttpResponse, TransportError> {
        Ok(HttpResponse::new("e", status, body))
    }

    const fn failure(retryable: bool) -> Verdict {
        Verdict::Failure {
            retryable,
            nothing_sent: false,
        }
    }

    #[test]
    fn responses() {
        let handler = |cause: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":"1","error":{{"name":"HANDLER_ERROR","cause":{{"name":"{cause}"}}}}}}"#
            )
        };
        let internal = r#"{"jsonrpc":"2.0","id":"1","error":{"name":"INTERNAL_ERROR","cause":{"name":"INTERNAL_ERROR"}}}"#;
        let result = r#"{"jsonrpc":"2.0","id":"1","result":{"error":"inside the result"}}"#;
        let cases = [
            (200, result.to_owned(), Verdict::Final),
            (200, handler("UNKNOWN_ACCOUNT"), Verdict::Final),
            (422, handler("UNKNOWN_BLOCK"), Verdict::Final),
            (200, handler("TIMEOUT_ERROR"), failure(true)),
            (408, handler("TIMEOUT_ERROR"), failure(true)),
            (429, handler("UNKNOWN_ACCOUNT"), failure(true)),
            (500, internal.to_owned(), failure(false)),
            (503, result.to_owned(), failure(true)),
            (404, result.to_owned(), failure(false)),
            (
                200,
                "<html>captive portal</html>".to_owned(),
                failure(false),
            ),
            (502, "<html>bad gateway</html>".to_owned(), failure(true)),
            (401, r#"{"message":"bad key"}"#.to_owned(), failure(false)),
            (
                200,
                r#"{"error":"rate limited"}"#.to_owned(),
                failure(false),
            ),
            (200, String::new(), failure(false)),
            // What the decoder refuses is no JSON-RPC error either: another endpoint
            // may do better.
            (
                200,
                handler("UNKNOWN_BLOCK").replace(r#""error""#, r#""error":{},"error""#),
                failure(false),
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":"1","error":{"name":"HANDLER_ERROR","cause":5}}"#
                    .to_owned(),
                failure(false),
            ),
            (
                200,
                format!("{} trailing", handler("UNKNOWN_BLOCK")),
                failure(false),
            ),
            (
                200,
                r#"{"jsonrpc":"2.0","id":"1","error":{"cause":{"name":"TIMEOUT_ERROR"}}}"#
                    .to_owned(),
                failure(false),
            ),
            // `"error": null` is no error.
            (
                200,
                r#"{"jsonrpc":"2.0","id":"1","error":null,"result":1}"#.to_owned(),
                Verdict::Final,
            ),
        ];
        for (status, body, expected) in cases {
            assert_eq!(
                verdict(&response(status, &body)),
                expected,
                "{status} {body}"
            );
        }
    }

    #[test]
    fn transport_errors() {
        let error = |kind| Err(TransportError::new("e", kind, ""));
        let sent = |retryable, nothing_sent| Verdict::Failure {
            retryable,
            nothing_sent,
        };
        assert_eq!(
            verdict(&error(TransportErrorKind::Connect)),
            sent(true, true)
        );
        assert_eq!(verdict(&error(TransportErrorKind::Tls)), sent(true, true));
        assert_eq!(
            verdict(&error(TransportErrorKind::Timeout)),
            sent(true, false)
        );
        let redirect = TransportErrorKind::Redirect {
            status: 301,
            location: "https://elsewhere".into(),
        };
        assert_eq!(verdict(&error(redirect)), sent(false, false));
        let large = TransportErrorKind::TooLarge {
            status: 200,
            limit: 1,
        };
        assert_eq!(verdict(&error(large)), Verdict::Final);
    }
}
