//! The wire's vocabulary: how one request arrives ([`RawRequest`](crate::RawRequest), before
//! it is read as JSON-RPC), how an answer goes out ([`HttpReply`], shaped by [`Shape`]),
//! and what a per-method handler answers ([`Reply`]); with the JSON-RPC envelope every
//! answer of the node is wrapped in.

use std::time::Duration;

use serde_json::{json, Value};

use crate::handler::RpcError;

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

/// A request as it arrives, before it is read as JSON-RPC.
#[derive(Clone, Debug, Default)]
pub(crate) struct RawRequest {
    pub http_method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// The JSON-RPC envelope of an answer.
pub(crate) fn envelope(id: &Value, answer: Result<Value, RpcError>) -> HttpReply {
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
pub(crate) fn with_id(mut reply: HttpReply, id: &Value) -> HttpReply {
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
