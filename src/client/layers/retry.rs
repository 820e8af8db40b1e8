//! Retries with exponential backoff and full jitter, `Retry-After` within a floor and a
//! ceiling, and a hard bound on the count.

use std::sync::Mutex;
use std::time::Duration;

use super::super::transport::{BoxTransport, HttpResponse, RpcRequest, Transport};
use super::super::transport::{TransportError, TransportErrorKind, TransportFuture};
use super::{verdict, Verdict};
use crate::client::redact::Secrets;

/// The most retries a call gets. [`ClientBuilder::build`](crate::client::ClientBuilder::build)
/// refuses a [`RetryPolicy::max_retries`] above it; a [`Retry`] layer built directly
/// never exceeds it either.
pub const MAX_RETRIES: u32 = 10;

/// When and how long to wait before trying a call again.
///
/// Transactions ([`RpcRequest::submits_transaction`]) are retried only when the request
/// certainly never reached a node, unless [`RetryPolicy::retry_writes`] is set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt, 0 (no retrying) to [`MAX_RETRIES`]; a client
    /// builder refuses more.
    pub max_retries: u32,
    /// Backoff before the first retry; it doubles with each retry.
    pub initial_backoff: Duration,
    /// The most a backoff grows to.
    pub max_backoff: Duration,
    /// The longest `Retry-After` the client waits for; a longer one ends the call.
    pub max_retry_after: Duration,
    /// Whether transactions are retried after bytes may have reached a node.
    pub retry_writes: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 3,
            initial_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
            retry_writes: false,
        }
    }
}

impl RetryPolicy {
    /// No retries.
    pub fn none() -> Self {
        Self {
            max_retries: 0,
            ..Self::default()
        }
    }

    /// How many retries a request gets: `max_retries`, and never more than
    /// [`MAX_RETRIES`] (the bound of a layer built without the client builder's check).
    pub fn retries(&self) -> u32 {
        self.max_retries.min(MAX_RETRIES)
    }

    /// The backoff ceiling before retry number `retry` (0-based).
    fn backoff(&self, retry: u32) -> Duration {
        self.initial_backoff
            .saturating_mul(1u32.checked_shl(retry).unwrap_or(u32::MAX))
            .min(self.max_backoff)
    }

    /// The wait before retry number `retry` (0-based). Without `Retry-After`: a random
    /// duration up to the exponential backoff. With it: what the server asked, but never
    /// less than the backoff (a `Retry-After: 0` storm must not become a tight loop);
    /// `None` when the server asks for longer than [`RetryPolicy::max_retry_after`].
    pub fn delay(
        &self,
        retry: u32,
        retry_after: Option<Duration>,
        random: u64,
    ) -> Option<Duration> {
        let ceiling = self.backoff(retry);
        if let Some(wait) = retry_after {
            return (wait <= self.max_retry_after).then_some(wait.max(ceiling));
        }
        let nanos = u64::try_from(ceiling.as_nanos()).unwrap_or(u64::MAX);
        Some(Duration::from_nanos(random % nanos.saturating_add(1)))
    }
}

/// The retry layer.
#[derive(Debug)]
pub struct Retry {
    inner: BoxTransport,
    policy: RetryPolicy,
    jitter: Mutex<Jitter>,
}

impl Retry {
    /// Retries `inner` under `policy`.
    pub fn new(inner: BoxTransport, policy: RetryPolicy) -> Self {
        Self {
            inner,
            policy,
            jitter: Mutex::new(Jitter::new()),
        }
    }

    async fn send_with_retries(&self, request: RpcRequest) -> Result<HttpResponse, TransportError> {
        let mut retry = 0;
        // Whether an attempt so far may have reached a node: a later attempt that
        // certainly did not must not make the whole call look unsent.
        let mut sent_before = false;
        loop {
            let send = self.inner.send(request.clone());
            let mut outcome = super::trace::attempt(&request, retry + 1, send).await;
            if let Err(error) = &mut outcome {
                error.sent_before |= sent_before;
            }
            let Verdict::Failure {
                retryable: true,
                nothing_sent,
            } = verdict(&outcome)
            else {
                return outcome;
            };
            sent_before |= !nothing_sent;
            let may_repeat =
                !request.submits_transaction || nothing_sent || self.policy.retry_writes;
            if retry >= self.policy.retries() || !may_repeat {
                return outcome;
            }
            let random = self.jitter.lock().map_or(0, |mut j| j.next_u64());
            let Some(delay) = self.policy.delay(retry, retry_after(&outcome), random) else {
                return outcome;
            };
            // Waiting past the deadline would only trade this failure for a timeout.
            if request.time_left().is_some_and(|left| delay >= left) {
                return outcome;
            }
            super::trace::retrying(&request, retry, delay, &outcome);
            crate::client::rt::time::sleep(delay).await;
            retry += 1;
        }
    }
}

/// The longest `Retry-After` among the outcome's responses.
fn retry_after(outcome: &Result<HttpResponse, TransportError>) -> Option<Duration> {
    match outcome {
        Ok(response) => response.retry_after(),
        Err(TransportError {
            kind: TransportErrorKind::AllEndpointsFailed(attempts),
            ..
        }) => attempts
            .iter()
            .filter_map(|a| retry_after(&a.outcome))
            .max(),
        Err(_) => None,
    }
}

impl Transport for Retry {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        Box::pin(self.send_with_retries(request))
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn secrets(&self) -> Secrets {
        self.inner.secrets()
    }
}

/// A small xorshift generator for jitter: retries need spread, not cryptographic
/// randomness, and this avoids a dependency.
#[derive(Debug)]
pub struct Jitter(u64);

impl Jitter {
    /// Seeded from the clock and an address, so that clients started together differ.
    pub fn new() -> Self {
        use crate::client::rt::{SystemTime, UNIX_EPOCH};
        let time = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let local = 0u8;
        let address = &local as *const u8 as u64;
        Self((time ^ address.rotate_left(32)) | 1)
    }

    /// The next pseudo-random number.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

impl Default for Jitter {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Instant;

    use super::super::test_support::{block_on, read, write, RESULT};
    use super::*;
    use crate::client::transport::{MockReply, MockTransport};

    fn retry(mock: &MockTransport, policy: RetryPolicy) -> Retry {
        Retry::new(Arc::new(mock.clone()), policy)
    }

    #[test]
    fn retries_transient_failures_then_succeeds() {
        let mock = MockTransport::new(
            "m",
            [
                MockReply::status(503, "busy"),
                MockReply::error(TransportErrorKind::Timeout),
                MockReply::json(RESULT),
            ],
        );
        let outcome = block_on(retry(&mock, RetryPolicy::default()).send(read()));
        assert_eq!(outcome.unwrap().status, 200);
        assert_eq!(mock.requests().len(), 3);
    }

    #[test]
    fn the_count_is_bounded_even_when_asked_for_more() {
        let mock = MockTransport::new("m", [MockReply::status(503, "busy")]);
        let policy = RetryPolicy {
            max_retries: u32::MAX,
            ..RetryPolicy::default()
        };
        let outcome = block_on(retry(&mock, policy).send(read()));
        assert_eq!(outcome.unwrap().status, 503);
        assert_eq!(mock.requests().len(), 1 + MAX_RETRIES as usize);
    }

    #[test]
    fn final_answers_and_permanent_failures_are_not_retried() {
        let unknown = r#"{"jsonrpc":"2.0","id":"1","error":{"name":"HANDLER_ERROR","cause":{"name":"UNKNOWN_ACCOUNT"}}}"#;
        for reply in [
            MockReply::json(unknown),
            MockReply::status(404, "not found"),
            MockReply::error(TransportErrorKind::TooLarge {
                status: 200,
                limit: 1,
            }),
        ] {
            let mock = MockTransport::new("m", [reply]);
            let _ = block_on(retry(&mock, RetryPolicy::default()).send(read()));
            assert_eq!(mock.requests().len(), 1);
        }
    }

    #[test]
    fn retry_after_zero_still_backs_off() {
        let mock = MockTransport::new(
            "m",
            [MockReply::status(429, "slow down").header("retry-after", "0")],
        );
        let policy = RetryPolicy::default();
        let outcome = block_on(async {
            let started = tokio::time::Instant::now();
            let outcome = retry(&mock, policy.clone()).send(read()).await;
            (outcome, started.elapsed())
        });
        // 250 ms + 500 ms + 1 s of (paused, auto-advancing) time: the backoff floor.
        assert_eq!(outcome.1, Duration::from_millis(1750));
        assert_eq!(mock.requests().len(), 4);
    }

    #[test]
    fn retry_after_is_honoured_up_to_the_ceiling() {
        let mock = MockTransport::new(
            "m",
            [
                MockReply::status(503, "busy").header("retry-after", "7"),
                MockReply::json(RESULT),
            ],
        );
        let (outcome, waited) = block_on(async {
            let started = tokio::time::Instant::now();
            let outcome = retry(&mock, RetryPolicy::default()).send(read()).await;
            (outcome, started.elapsed())
        });
        assert!(outcome.is_ok());
        assert_eq!(waited, Duration::from_secs(7));

        let mock = MockTransport::new(
            "m",
            [MockReply::status(503, "busy").header("retry-after", "3600")],
        );
        let outcome = block_on(retry(&mock, RetryPolicy::default()).send(read()));
        assert_eq!(outcome.unwrap().status, 503);
        assert_eq!(mock.requests().len(), 1);
    }

    /// A wait that would end past the deadline is not begun: the failure comes back at
    /// once (no time passes on the paused clock), not after the wait, and unretried.
    #[test]
    fn no_wait_past_the_deadline() {
        let mock = MockTransport::new(
            "m",
            [MockReply::status(503, "busy").header("retry-after", "30")],
        );
        let mut request = read();
        request.deadline = Some(Instant::now() + Duration::from_secs(5));
        let (outcome, waited) = block_on(async {
            let started = tokio::time::Instant::now();
            let outcome = retry(&mock, RetryPolicy::default()).send(request).await;
            (outcome, started.elapsed())
        });
        assert_eq!(outcome.unwrap().status, 503);
        assert_eq!(waited, Duration::ZERO);
        assert_eq!(mock.requests().len(), 1);
    }

    #[test]
    fn transactions_are_repeated_only_when_nothing_was_sent() {
        let mock = MockTransport::new(
            "m",
            [
                MockReply::error(TransportErrorKind::Connect),
                MockReply::status(503, "busy"),
                MockReply::json(RESULT),
            ],
        );
        let outcome = block_on(retry(&mock, RetryPolicy::default()).send(write()));
        assert_eq!(outcome.unwrap().status, 503, "stops at the 503");
        assert_eq!(mock.requests().len(), 2);

        let mock = MockTransport::new(
            "m",
            [MockReply::status(503, "busy"), MockReply::json(RESULT)],
        );
        let policy = RetryPolicy {
            retry_writes: true,
            ..RetryPolicy::default()
        };
        let outcome = block_on(retry(&mock, policy).send(write()));
        assert_eq!(outcome.unwrap().status, 200);
    }

    /// A retried write whose last attempt could not connect was not unsent if an
    /// earlier attempt may have arrived: the caller must not take it for refused.
    #[test]
    fn an_unsent_last_attempt_does_not_hide_an_earlier_one() {
        let policy = RetryPolicy {
            retry_writes: true,
            ..RetryPolicy::default()
        };
        // (replies, whether the final error may claim nothing was sent)
        let cases = [
            (
                vec![
                    MockReply::error(TransportErrorKind::Timeout),
                    MockReply::error(TransportErrorKind::Connect),
                ],
                false,
            ),
            (
                vec![
                    MockReply::status(503, "busy"),
                    MockReply::error(TransportErrorKind::Tls),
                ],
                false,
            ),
            (
                vec![
                    MockReply::error(TransportErrorKind::Connect),
                    MockReply::error(TransportErrorKind::Tls),
                ],
                true,
            ),
        ];
        for (replies, unsent) in cases {
            let described = format!("{replies:?}");
            let mut replies = replies;
            // Every later attempt fails to connect, up to the retry cap.
            replies.extend((0..3).map(|_| MockReply::error(TransportErrorKind::Connect)));
            let mock = MockTransport::new("m", replies);
            let error = block_on(retry(&mock, policy.clone()).send(write())).unwrap_err();
            assert_eq!(error.nothing_sent(), unsent, "{described}: {error}");
            let Verdict::Failure { nothing_sent, .. } = verdict(&Err(error)) else {
                panic!("{described}: final")
            };
            assert_eq!(nothing_sent, unsent, "{described}");
        }
    }

    /// The ceiling doubles from 250 ms and stops at 8 s; the wait is a random draw up to
    /// it (full jitter).
    #[test]
    fn backoff_grows_is_capped_and_jittered() {
        let policy = RetryPolicy::default();
        // A draw of `n` nanoseconds waits `n` while `n` is within the ceiling: the
        // largest wait of each retry is its ceiling, reached.
        let draw = |retry, wait: Duration| {
            let nanos = u64::try_from(wait.as_nanos()).unwrap();
            policy.delay(retry, None, nanos).unwrap()
        };
        for (retry, ceiling) in [(0, 250), (1, 500), (2, 1000), (3, 2000), (5, 8000)] {
            let ceiling = Duration::from_millis(ceiling);
            assert_eq!(draw(retry, ceiling), ceiling, "retry {retry}");
            // One nanosecond more wraps around to no wait: the ceiling is the largest.
            assert_eq!(
                draw(retry, ceiling + Duration::from_nanos(1)),
                Duration::ZERO
            );
        }
        // Capped: uncapped, retry 6's ceiling would be 16 s, and so would this wait.
        assert!(draw(6, Duration::from_secs(16)) < Duration::from_secs(8));
        assert_eq!(draw(40, Duration::from_secs(8)), Duration::from_secs(8));
        assert_eq!(policy.delay(40, None, 0), Some(Duration::ZERO));
        let mut jitter = Jitter::new();
        let delays: Vec<_> = (0..8)
            .map(|_| policy.delay(3, None, jitter.next_u64()))
            .collect();
        assert!(
            delays.windows(2).any(|w| w[0] != w[1]),
            "no jitter: {delays:?}"
        );
    }
}
