//! Faults the node injects on purpose, for a client's failure paths: what goes wrong
//! ([`Fault`]), when ([`FaultRule`]), and how a fault turns a normal answer into the
//! misbehaving one.

use std::time::Duration;

use serde_json::{json, Value};

use crate::handler::RpcError;
use crate::wire::envelope;
use crate::wire::HttpReply;

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
    pub(crate) fault: Fault,
    method: Option<String>,
    nth: Option<usize>,
    pub(crate) remaining: Option<usize>,
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

    pub(crate) fn matches(&self, method: &str, count: usize) -> bool {
        self.remaining != Some(0)
            && self.method.as_deref().is_none_or(|m| m == method)
            && self.nth.is_none_or(|n| n == count)
    }
}

/// `answer` as `fault` changes it (`id`: the request's).
pub(crate) fn apply(fault: Fault, answer: HttpReply, id: &Value) -> HttpReply {
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
