//! What the node keeps of the requests it receives ([`Recorded`]), within the bounds
//! of a [`RequestLog`]: the bytes as they came, never a parsed copy.

use serde_json::Value;

#[cfg(doc)]
use crate::fault::FaultRule;

/// A request the node received, as its log keeps it: the bytes, bounded by
/// [`RequestLog`], never a parsed copy ([`Recorded::params`] parses when asked).
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// The JSON-RPC method (empty when the body was not a JSON-RPC request, or when its
    /// method is longer than [`RequestLog::FIELD_BYTES`], which no node's is).
    pub method: String,
    /// The id (`null` when absent, or when it takes more than
    /// [`RequestLog::FIELD_BYTES`] as JSON).
    pub id: Value,
    /// The HTTP method (`POST`; empty in process).
    pub http_method: String,
    /// The request path (`/` in process).
    pub path: String,
    /// The request headers, names lower-case (none in process).
    pub headers: Vec<(String, String)>,
    /// The raw body, or its first [`RequestLog::body_bytes`] bytes when it was longer
    /// ([`Recorded::truncated`]).
    pub body: Vec<u8>,
    /// How long the body was as received (more than `body.len()` when truncated).
    pub body_len: usize,
}

impl Recorded {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the log kept only the first part of the body ([`RequestLog::body_bytes`]):
    /// the request was answered whole, but [`Recorded::json`] and [`Recorded::params`]
    /// can no longer read it.
    pub fn truncated(&self) -> bool {
        self.body.len() < self.body_len
    }

    /// The body as JSON (`null` when it is not JSON, or was truncated).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    /// The params, read from the body now (`null` when absent, when the body is not a
    /// JSON object, or when it was truncated).
    pub fn params(&self) -> Value {
        match self.json() {
            Value::Object(mut body) => body.remove("params").unwrap_or(Value::Null),
            _ => Value::Null,
        }
    }

    /// What the log counts this request as: its bytes, and the record's own size.
    pub(crate) fn footprint(&self) -> usize {
        let headers: usize = self
            .headers
            .iter()
            .map(|(n, v)| std::mem::size_of::<(String, String)>() + n.len() + v.len())
            .sum();
        std::mem::size_of::<Self>()
            + self.method.len()
            + value_bytes(&self.id, usize::MAX).unwrap_or(0)
            + self.http_method.len()
            + self.path.len()
            + headers
            + self.body.len()
    }
}

/// The length of `value` as JSON text (what the log counts it for), or `None` past
/// `limit`: counted as it is written out, never held.
pub(crate) fn value_bytes(value: &Value, limit: usize) -> Option<usize> {
    /// Counts what is written, and fails past the limit.
    struct Count {
        bytes: usize,
        limit: usize,
    }
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.bytes += buf.len();
            if self.bytes > self.limit {
                return Err(std::io::Error::other("past the limit"));
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    if value.is_null() {
        return Some(0);
    }
    let mut count = Count { bytes: 0, limit };
    serde_json::to_writer(&mut count, value).ok()?;
    Some(count.bytes)
}

/// How much of the requests a node keeps ([`MockNode::requests`]), so that a node that
/// runs long or is sent large bodies holds a bounded number of bytes: past a bound the
/// oldest requests go first, and each body is kept up to a length, with the length it
/// had beside it ([`Recorded::body_len`], [`Recorded::truncated`]). Counting by number
/// ([`FaultRule::nth_request`], scripts, [`MockNode::requests_received`]) is unaffected.
///
/// The default ([`RequestLog::DEFAULT`]) keeps any number of requests within 64 MiB in
/// all, each body up to 1 MiB: every request a test sends, in full, unless it sends
/// more than that. Set with [`MockNode::set_request_log`]; `near-rpc mock` keeps less.
///
/// [`MockNode::requests`]: crate::node::MockNode::requests
/// [`MockNode::requests_received`]: crate::node::MockNode::requests_received
/// [`MockNode::set_request_log`]: crate::node::MockNode::set_request_log
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestLog {
    /// The most requests kept (`None`: as many as `bytes` allows).
    pub requests: Option<usize>,
    /// The most bytes the log holds, all requests together: each request's body as
    /// kept, its headers, method, path and id, and the record's own size.
    pub bytes: usize,
    /// The most bytes of each body kept; the rest is dropped from the log (not from
    /// the request, which is answered whole).
    pub body_bytes: usize,
}

impl RequestLog {
    /// Any number of requests within 64 MiB, each body up to 1 MiB.
    pub const DEFAULT: Self = Self {
        requests: None,
        bytes: 64 * 1024 * 1024,
        body_bytes: 1024 * 1024,
    };

    /// The longest method name, and the longest id as JSON, a record keeps.
    pub const FIELD_BYTES: usize = 256;
}

impl Default for RequestLog {
    fn default() -> Self {
        Self::DEFAULT
    }
}
