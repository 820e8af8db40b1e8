//! A scripted transport for tests: it answers each request with the next canned reply
//! (the last one repeats) and records what it was sent. No socket, no runtime needs
//! beyond a timer for delays.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::header::{HeaderName, HeaderValue};

use super::{HeaderMap, HttpResponse, RpcRequest, Transport, TransportError};
use super::{TransportErrorKind, TransportFuture};
use crate::client::redact::Secrets;

/// One canned answer of a [`MockTransport`].
#[derive(Clone, Debug)]
pub struct MockReply {
    outcome: Result<(u16, HeaderMap, Vec<u8>), TransportErrorKind>,
    delay: Duration,
    echo_id: bool,
}

impl MockReply {
    /// HTTP 200 with `body`.
    pub fn json(body: impl Into<Vec<u8>>) -> Self {
        Self::status(200, body)
    }

    /// Any status with `body`. A JSON body's top-level `id` is replaced by the request's,
    /// as a node would echo it (see [`MockReply::keep_id`]).
    pub fn status(status: u16, body: impl Into<Vec<u8>>) -> Self {
        Self {
            outcome: Ok((status, HeaderMap::new(), body.into())),
            delay: Duration::ZERO,
            echo_id: true,
        }
    }

    /// A transport failure of `kind`.
    pub fn error(kind: TransportErrorKind) -> Self {
        Self {
            outcome: Err(kind),
            delay: Duration::ZERO,
            echo_id: false,
        }
    }

    /// Adds a response header. (A name or value HTTP can't carry is left out.)
    pub fn header(mut self, name: &str, value: &str) -> Self {
        if let Ok((_, headers, _)) = &mut self.outcome {
            if let (Ok(name), Ok(value)) = (
                HeaderName::from_bytes(name.as_bytes()),
                HeaderValue::from_str(value),
            ) {
                headers.append(name, value);
            }
        }
        self
    }

    /// Waits before answering.
    pub fn delayed(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// Sends the body's `id` as written, even when it is not the request's.
    pub fn keep_id(mut self) -> Self {
        self.echo_id = false;
        self
    }
}

/// A transport answering from a script; see [`MockReply`].
///
/// ```
/// # tokio_test_block_on(async {
/// use near_rpc::client::transport::{MockReply, MockTransport};
/// use near_rpc::{Client, Finality};
///
/// let node = MockTransport::new(
///     "mock",
///     [MockReply::json(r#"{"jsonrpc":"2.0","id":"1","result":{"protocol_version":73}}"#)],
/// );
/// let client = Client::with_transport(node.clone());
/// let config = client.protocol_config_at(Finality::Final).await.unwrap();
/// assert_eq!(config.protocol_version, Some(73));
/// assert_eq!(node.requests()[0].method, "EXPERIMENTAL_protocol_config");
/// # });
/// # fn tokio_test_block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(f)
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct MockTransport {
    state: Arc<State>,
}

#[derive(Debug)]
struct State {
    label: Arc<str>,
    replies: Vec<MockReply>,
    sent: Mutex<Vec<RpcRequest>>,
    secrets: Mutex<Vec<String>>,
}

impl MockTransport {
    /// A transport called `label` (as errors show it) answering `replies` in order; after
    /// the last, the last repeats. With no reply, every request fails to connect.
    pub fn new(label: &str, replies: impl IntoIterator<Item = MockReply>) -> Self {
        Self {
            state: Arc::new(State {
                label: label.into(),
                replies: replies.into_iter().collect(),
                sent: Mutex::new(Vec::new()),
                secrets: Mutex::new(Vec::new()),
            }),
        }
    }

    /// Declares `secret` as a credential of this transport, to be redacted.
    pub fn with_secret(self, secret: &str) -> Self {
        if let Ok(mut secrets) = self.state.secrets.lock() {
            secrets.push(secret.to_owned());
        }
        self
    }

    /// Every request sent so far, in order.
    pub fn requests(&self) -> Vec<RpcRequest> {
        self.state
            .sent
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default()
    }

    async fn answer(&self, request: RpcRequest) -> Result<HttpResponse, TransportError> {
        let state = &self.state;
        let index = {
            let mut sent = state.sent.lock().unwrap_or_else(|p| p.into_inner());
            sent.push(request.clone());
            sent.len() - 1
        };
        let Some(reply) = state.replies.get(index).or(state.replies.last()) else {
            return Err(TransportError::new(
                state.label.clone(),
                TransportErrorKind::Connect,
                "the mock has no reply",
            ));
        };
        if !reply.delay.is_zero() {
            crate::client::rt::time::sleep(reply.delay).await;
        }
        let (status, headers, mut body) = match &reply.outcome {
            Ok(answer) => answer.clone(),
            Err(kind) => {
                return Err(TransportError::new(
                    state.label.clone(),
                    kind.clone(),
                    "scripted failure",
                ))
            }
        };
        if body.len() > request.max_response_bytes {
            let kind = TransportErrorKind::TooLarge {
                status,
                limit: request.max_response_bytes,
            };
            return Err(TransportError::new(state.label.clone(), kind, ""));
        }
        if reply.echo_id {
            body = echo_id(body, request.id);
        }
        Ok(HttpResponse {
            endpoint: state.label.clone(),
            endpoint_index: 0,
            status,
            headers,
            body,
        })
    }
}

/// A JSON object body with its `id` set to `id`; any other body as it is.
fn echo_id(body: Vec<u8>, id: u64) -> Vec<u8> {
    match serde_json::from_slice::<serde_json::Value>(&body) {
        Ok(serde_json::Value::Object(mut object)) if object.contains_key("id") => {
            object.insert("id".into(), id.to_string().into());
            serde_json::to_vec(&object).unwrap_or(body)
        }
        _ => body,
    }
}

impl Transport for MockTransport {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        Box::pin(self.answer(request))
    }

    fn describe(&self) -> String {
        self.state.label.to_string()
    }

    fn secrets(&self) -> Secrets {
        let secrets = self.state.secrets.lock().map(|s| s.clone());
        Secrets::new(secrets.unwrap_or_default())
    }
}
