//! One deadline for the whole call: every attempt, every endpoint and every wait between
//! them. The transports below see it in [`RpcRequest::deadline`] (the HTTP transport cuts
//! its own timeout to what is left; the retry layer does not sleep past it); this layer
//! enforces it whatever they do.

use std::time::Duration;

use super::super::transport::{BoxTransport, HttpResponse, RpcRequest, Transport};
use super::super::transport::{TransportError, TransportErrorKind, TransportFuture};
use crate::client::redact::Secrets;
use crate::client::rt::{time, Instant};

/// The default deadline of one call: two full attempts at the default 30 s timeout, so
/// that a slow first endpoint still leaves a second one its chance.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(60);

/// The deadline layer.
#[derive(Debug)]
pub struct Deadline {
    inner: BoxTransport,
    limit: Duration,
}

impl Deadline {
    /// Ends every call through `inner` after `limit`.
    pub fn new(inner: BoxTransport, limit: Duration) -> Self {
        Self { inner, limit }
    }

    async fn send_within(&self, mut request: RpcRequest) -> Result<HttpResponse, TransportError> {
        let deadline = Instant::now() + self.limit;
        request.deadline = Some(request.deadline.map_or(deadline, |d| d.min(deadline)));
        let passed = || {
            Err(TransportError::new(
                self.inner.describe(),
                TransportErrorKind::Deadline { limit: self.limit },
                "",
            ))
        };
        match time::timeout(self.limit, self.inner.send(request)).await {
            // A transport that cut its own timeout to the deadline times out with it.
            Ok(Err(TransportError {
                kind: TransportErrorKind::Timeout,
                ..
            })) if Instant::now() >= deadline => passed(),
            Ok(outcome) => outcome,
            Err(_) => passed(),
        }
    }
}

impl Transport for Deadline {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        Box::pin(self.send_within(request))
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn secrets(&self) -> Secrets {
        self.inner.secrets()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::test_support::{block_on, read, RESULT};
    use super::super::{Retry, RetryPolicy};
    use super::*;
    use crate::client::transport::{MockReply, MockTransport};

    #[test]
    fn a_slow_answer_ends_at_the_deadline() {
        let mock = MockTransport::new(
            "m",
            [MockReply::json(RESULT).delayed(Duration::from_secs(120))],
        );
        let layer = Deadline::new(Arc::new(mock), Duration::from_secs(5));
        let (outcome, waited) = block_on(async {
            let started = tokio::time::Instant::now();
            (layer.send(read()).await, started.elapsed())
        });
        let error = outcome.unwrap_err();
        assert!(
            matches!(error.kind, TransportErrorKind::Deadline { .. }),
            "{error}"
        );
        assert_eq!(waited, Duration::from_secs(5));
    }

    #[test]
    fn retries_stop_at_the_deadline() {
        let mock = MockTransport::new(
            "m",
            [MockReply::status(503, "busy").delayed(Duration::from_secs(2))],
        );
        let policy = RetryPolicy {
            max_retries: 10,
            ..RetryPolicy::default()
        };
        let layer = Deadline::new(
            Arc::new(Retry::new(Arc::new(mock.clone()), policy)),
            Duration::from_secs(7),
        );
        let (outcome, waited) = block_on(async {
            let started = tokio::time::Instant::now();
            (layer.send(read()).await, started.elapsed())
        });
        // Attempts of 2 s with backoff between: the deadline falls in the fourth.
        let error = outcome.unwrap_err();
        assert!(
            matches!(error.kind, TransportErrorKind::Deadline { .. }),
            "{error}"
        );
        assert_eq!(waited, Duration::from_secs(7));
        assert!(mock.requests().len() < 11);
        assert!(mock.requests().iter().all(|r| r.deadline.is_some()));
    }
}
