//! Record and replay. A [`Recorder`] is a loopback proxy to a real node that writes
//! every request/response pair to a cassette file (JSON lines); a node made with
//! [`MockNode::replaying`](crate::MockNode::replaying) answers from it, matching on
//! method and params.
//!
//! A cassette holds methods, params, statuses and response bodies, never a URL or a
//! header: an API key in the upstream URL or header is not written, and a key the node
//! echoes in a body is masked by near-rpc's redaction layer before it is written.

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};

use near_rpc::client::layers::Redact;
use near_rpc::client::transport::{BoxTransport, RpcRequest, Transport};
use near_rpc::ErrorReport;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::task::JoinHandle;

use crate::server::ServerOptions;
use crate::wire::HttpReply;
use crate::wire::RawRequest;

/// One recorded request and its answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    /// The JSON-RPC method.
    pub method: String,
    /// Its params.
    pub params: Value,
    /// The HTTP status of the answer.
    pub status: u16,
    /// The answer's body (the whole JSON-RPC response; not JSON: a string).
    pub response: Value,
}

/// Recorded exchanges.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cassette {
    /// In the order they happened.
    pub exchanges: Vec<Exchange>,
}

impl Cassette {
    /// Reads a cassette file (one JSON exchange per line). A bad line is an error
    /// naming its number.
    pub fn load(path: &Path) -> io::Result<Self> {
        let file = std::fs::File::open(path)?;
        let mut exchanges = Vec::new();
        for (n, line) in io::BufReader::new(file).lines().enumerate() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let exchange = serde_json::from_str(&line).map_err(|e| {
                io::Error::new(io::ErrorKind::InvalidData, format!("line {}: {e}", n + 1))
            })?;
            exchanges.push(exchange);
        }
        Ok(Self { exchanges })
    }

    /// The recorded answer to `method` with `params`, the first that matches.
    pub(crate) fn find(&self, method: &str, params: &Value) -> Option<HttpReply> {
        let exchange = self
            .exchanges
            .iter()
            .find(|e| e.method == method && e.params == *params)?;
        let body = match &exchange.response {
            Value::String(text) => text.clone(),
            json => json.to_string(),
        };
        Some(HttpReply::status(exchange.status, &body))
    }
}

/// A recording proxy on `127.0.0.1`; it stops when dropped. Every exchange is appended
/// to the cassette file as it happens.
#[derive(Debug)]
pub struct Recorder {
    url: String,
    accept: JoinHandle<()>,
}

impl Recorder {
    /// Proxies to `upstream` (near-rpc's HTTP transport, or any transport), writing to
    /// `out` (created or truncated), listening on `127.0.0.1:port` (0: any free port)
    /// with the default [`ServerOptions`].
    pub async fn start(
        upstream: impl Transport + 'static,
        out: &Path,
        port: u16,
    ) -> io::Result<Self> {
        Self::start_with(upstream, out, ServerOptions::new().port(port)).await
    }

    /// Proxies to `upstream`, writing to `out`, listening as `options` say. The server's
    /// guarantees hold (see the crate's docs): a request from a web page or to another
    /// host name is refused before it reaches `upstream`, and only whole requests are
    /// forwarded.
    pub async fn start_with(
        upstream: impl Transport + 'static,
        out: &Path,
        options: ServerOptions,
    ) -> io::Result<Self> {
        let file = Arc::new(Mutex::new(std::fs::File::create(out)?));
        // Masks whatever secret of the upstream a response echoes.
        let upstream: BoxTransport = Arc::new(Redact::new(Arc::new(upstream)));
        let handler: crate::server::Handler = Arc::new(move |request: RawRequest| {
            let upstream = upstream.clone();
            let file = file.clone();
            Box::pin(async move { forward(&upstream, &file, request).await })
        });
        let (url, accept) = crate::server::listen(handler, options).await?;
        Ok(Self { url, accept })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

async fn forward(
    upstream: &BoxTransport,
    file: &Mutex<std::fs::File>,
    request: RawRequest,
) -> HttpReply {
    let parsed: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    let method = parsed["method"].as_str().unwrap_or_default().to_owned();
    let id = parsed["id"].as_u64().unwrap_or(0);
    // The transport wants a static name (for errors and logs): the spec's, when it is one.
    let name = near_rpc::methods::ALL
        .iter()
        .find(|m| **m == method)
        .copied()
        .unwrap_or("(not a spec method)");
    // A recording proxy never knows if the request was a transaction: it sends it once.
    let rpc = RpcRequest::new(name, id, request.body, true);
    match upstream.send(rpc).await {
        Ok(response) => {
            let text = String::from_utf8_lossy(&response.body).into_owned();
            let exchange = Exchange {
                method,
                params: parsed["params"].clone(),
                status: response.status,
                response: serde_json::from_str(&text).unwrap_or(Value::String(text.clone())),
            };
            if let (Ok(line), Ok(mut file)) = (serde_json::to_string(&exchange), file.lock()) {
                let _ = writeln!(file, "{line}");
                let _ = file.flush();
            }
            let mut reply = HttpReply::status(response.status, &text).keep_id();
            reply.body = response.body;
            reply
        }
        Err(error) => HttpReply::status(
            502,
            &format!(
                "the upstream node {} failed: {}",
                error.endpoint,
                ErrorReport(&error)
            ),
        ),
    }
}
