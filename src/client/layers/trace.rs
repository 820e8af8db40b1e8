//! Tracing (feature `tracing`, on by default): a span per call, per attempt and per
//! endpoint tried, and events for retries, failovers, archival reads and rate waits, through the `tracing` crate
//! (already in every client build's tree, by hyper and h2).
//!
//! ```text
//! near_rpc.call      method, id; then status, latency_ms, error
//!   near_rpc.attempt   attempt (1, 2, ...)           one per try of the retry layer
//!     near_rpc.endpoint  endpoint, endpoint_index; then status, bytes, latency_ms, error
//! ```
//!
//! Spans are at DEBUG, the retry and failover events at DEBUG. No field holds a secret:
//! an endpoint is its printable form (`https://rpc.example.org/***`, a key-like host
//! label masked), an error is its kind (`connect error`, `HTTP 503`), never a message or
//! a body; request and response bodies are never recorded.
//!
//! Without the feature, the functions here compile to nothing but the future they are
//! given.

use std::future::Future;
use std::time::Duration;

use super::super::transport::{HttpResponse, RpcRequest, TransportError};

/// One outcome of a transport.
type Outcome = Result<HttpResponse, TransportError>;

/// `send`, as attempt number `attempt` (1 for the first) of `request`.
pub(crate) async fn attempt(
    request: &RpcRequest,
    attempt: u32,
    send: impl Future<Output = Outcome>,
) -> Outcome {
    #[cfg(feature = "tracing")]
    {
        use tracing::Instrument as _;
        let span = tracing::debug_span!("near_rpc.attempt", method = request.method, attempt);
        send.instrument(span).await
    }
    #[cfg(not(feature = "tracing"))]
    {
        let _ = (request, attempt);
        send.await
    }
}

/// The retry layer is about to wait `delay` and try `request` again after `outcome`.
pub(crate) fn retrying(request: &RpcRequest, retry: u32, delay: Duration, outcome: &Outcome) {
    #[cfg(feature = "tracing")]
    tracing::debug!(
        method = request.method,
        retry = retry + 1,
        delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
        after = %summary(outcome),
        "near_rpc: retrying"
    );
    #[cfg(not(feature = "tracing"))]
    let _ = (request, retry, delay, outcome);
}

/// The failover layer moves `request` on from the endpoint at `index` after `outcome`.
pub(crate) fn failing_over(request: &RpcRequest, index: usize, outcome: &Outcome) {
    #[cfg(feature = "tracing")]
    tracing::debug!(
        method = request.method,
        from_index = index,
        after = %summary(outcome),
        "near_rpc: failing over to the next endpoint"
    );
    #[cfg(not(feature = "tracing"))]
    let _ = (request, index, outcome);
}

/// The archival layer sends `request` to the archival endpoints after the regular node
/// answered `cause`.
pub(crate) fn to_archival(request: &RpcRequest, cause: &str) {
    #[cfg(feature = "tracing")]
    tracing::debug!(
        method = request.method,
        cause,
        "near_rpc: reading from the archival endpoints"
    );
    #[cfg(not(feature = "tracing"))]
    let _ = (request, cause);
}

/// The rate-limit layer holds `request` for `wait`, within the endpoint's budget.
pub(crate) fn waiting_for_budget(request: &RpcRequest, wait: Duration) {
    #[cfg(feature = "tracing")]
    tracing::debug!(
        method = request.method,
        wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
        "near_rpc: waiting for the rate budget"
    );
    #[cfg(not(feature = "tracing"))]
    let _ = (request, wait);
}

/// An outcome as it may be recorded: the HTTP status or the error's kind.
#[cfg(feature = "tracing")]
fn summary(outcome: &Outcome) -> String {
    match outcome {
        Ok(response) => format!("HTTP {}", response.status),
        // The kind only: its Display holds no URL but a redacted redirect target; the
        // message is left out, whatever it says.
        Err(error) => error.kind.to_string(),
    }
}

#[cfg(feature = "tracing")]
pub(crate) use spans::{Call, Endpoint};

#[cfg(feature = "tracing")]
mod spans {
    use crate::client::rt::Instant;

    use tracing::field::Empty;
    use tracing::Instrument as _;

    use super::super::super::transport::{BoxTransport, HttpResponse, RpcRequest, Transport};
    use super::super::super::transport::{TransportError, TransportFuture};
    use super::summary;
    use crate::client::redact::Secrets;

    /// The call span, outermost in the stack.
    #[derive(Debug)]
    pub(crate) struct Call {
        inner: BoxTransport,
    }

    impl Call {
        pub(crate) fn new(inner: BoxTransport) -> Self {
            Self { inner }
        }

        async fn traced(&self, request: RpcRequest) -> Result<HttpResponse, TransportError> {
            let span = tracing::debug_span!(
                "near_rpc.call",
                method = request.method,
                id = request.id,
                status = Empty,
                latency_ms = Empty,
                error = Empty,
            );
            let started = Instant::now();
            let outcome = self.inner.send(request).instrument(span.clone()).await;
            record(&span, &outcome, started);
            outcome
        }
    }

    impl Transport for Call {
        fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
            Box::pin(self.traced(request))
        }

        fn describe(&self) -> String {
            self.inner.describe()
        }

        fn secrets(&self) -> Secrets {
            self.inner.secrets()
        }
    }

    /// The span of one endpoint's try, over that endpoint's transport.
    #[derive(Debug)]
    pub(crate) struct Endpoint {
        inner: BoxTransport,
        index: usize,
        label: String,
    }

    impl Endpoint {
        /// Traces `inner`, the endpoint at position `index`.
        pub(crate) fn new(inner: BoxTransport, index: usize) -> Self {
            let label = inner.describe();
            Self {
                inner,
                index,
                label,
            }
        }

        async fn traced(&self, request: RpcRequest) -> Result<HttpResponse, TransportError> {
            let span = tracing::debug_span!(
                "near_rpc.endpoint",
                method = request.method,
                endpoint = %self.label,
                endpoint_index = self.index,
                status = Empty,
                bytes = Empty,
                latency_ms = Empty,
                error = Empty,
            );
            let started = Instant::now();
            let outcome = self.inner.send(request).instrument(span.clone()).await;
            record(&span, &outcome, started);
            if let Ok(response) = &outcome {
                span.record("bytes", response.body.len());
            }
            outcome
        }
    }

    impl Transport for Endpoint {
        fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
            Box::pin(self.traced(request))
        }

        fn describe(&self) -> String {
            self.inner.describe()
        }

        fn secrets(&self) -> Secrets {
            self.inner.secrets()
        }
    }

    /// Records the outcome's status or error kind, and the time taken.
    fn record(
        span: &tracing::Span,
        outcome: &Result<HttpResponse, TransportError>,
        started: Instant,
    ) {
        let latency = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        span.record("latency_ms", latency);
        match outcome {
            Ok(response) => {
                span.record("status", response.status);
            }
            Err(_) => {
                span.record("error", summary(outcome).as_str());
            }
        }
    }
}
