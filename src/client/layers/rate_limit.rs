//! A request budget per endpoint (a token bucket: a rate and a burst) that makes a call
//! wait for its turn instead of earning the provider's HTTP 429.
//!
//! Off by default; [`ClientBuilder::rate_limit`](crate::client::ClientBuilder::rate_limit)
//! gives the endpoint added last its own budget. The layer sits under the failover, one per
//! endpoint, so every attempt (a retry, a failover, the write path's status checks) spends
//! from the budget of the endpoint it goes to, and one endpoint's budget never slows
//! another.
//!
//! The bucket holds at most `burst` tokens and gains one every `per / requests`; a
//! request takes one token, waiting for it when there is none. Waiters are served in
//! the order they came (a fair queue: only the first sleeps). A waiter takes its token
//! only when its wait ends and its request goes: a call cancelled while waiting (its
//! deadline passed, its future dropped) has spent nothing, and the next waiter's turn
//! comes as early as it would have without it.

use std::fmt;
use std::time::Duration;

use crate::client::rt::time::{self, Instant};
use tokio::sync::Mutex;

use super::super::transport::{BoxTransport, HttpResponse, RpcRequest, Transport};
use super::super::transport::{TransportError, TransportFuture};
use crate::client::redact::Secrets;

/// A request budget: `requests` every `per`, with bursts of up to `burst` requests.
///
/// Hosted providers publish their plans' limits; NEAR's list of RPC providers
/// (<https://docs.near.org/api/rpc/providers>) shows, for example, free tiers of 20
/// requests per second (BlockPI, GetBlock), 15 (NOWNodes, QuickNode) and 100 (dRPC).
/// These figures change: check your provider's plan, and set the budget a little under it
/// if other clients share your key.
///
/// ```
/// use std::time::Duration;
/// use near_rpc::client::layers::RateBudget;
///
/// // 20 requests per second, at most 5 at once.
/// let budget = RateBudget::per_second(20).burst(5);
/// assert_eq!(budget.interval(), Duration::from_millis(50));
/// // 600 requests per minute.
/// let budget = RateBudget::new(600, Duration::from_secs(60));
/// assert_eq!(budget.interval(), Duration::from_millis(100));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateBudget {
    requests: u32,
    per: Duration,
    burst: u32,
}

impl RateBudget {
    /// `requests` every `per`, with a burst of 1 (evenly spaced).
    /// [`ClientBuilder::build`](crate::client::ClientBuilder::build) refuses a budget of
    /// no requests or over no time.
    pub fn new(requests: u32, per: Duration) -> Self {
        Self {
            requests,
            per,
            burst: 1,
        }
    }

    /// `requests` per second, with a burst of 1.
    pub fn per_second(requests: u32) -> Self {
        Self::new(requests, Duration::from_secs(1))
    }

    /// Lets up to `burst` requests go at once after a quiet spell (the bucket's size; 0 is
    /// refused by the client builder).
    pub fn burst(mut self, burst: u32) -> Self {
        self.burst = burst;
        self
    }

    /// The time between two requests at the steady rate: `per / requests`.
    pub fn interval(&self) -> Duration {
        self.per / self.requests.max(1)
    }

    /// The requests per [`RateBudget::period`].
    pub fn requests(&self) -> u32 {
        self.requests
    }

    /// The period the requests are counted over.
    pub fn period(&self) -> Duration {
        self.per
    }

    /// The largest burst.
    pub fn burst_size(&self) -> u32 {
        self.burst
    }

    /// What is wrong with this budget, if anything: the option and its value.
    pub(crate) fn invalid(&self) -> Option<(&'static str, u64)> {
        if self.requests == 0 {
            Some(("RateBudget requests", 0))
        } else if self.burst == 0 {
            Some(("RateBudget burst", 0))
        } else if self.interval().is_zero() {
            let nanos = u64::try_from(self.per.as_nanos()).unwrap_or(u64::MAX);
            Some(("RateBudget period (ns)", nanos))
        } else {
            None
        }
    }
}

/// The rate-limit layer over one endpoint.
pub struct RateLimit {
    inner: BoxTransport,
    budget: RateBudget,
    // When the bucket would be empty again if no time passed ("theoretical arrival
    // time"): `None` until the first request, a full bucket. Held across the wait, so the
    // lock's fair queue is the waiters' queue.
    empty_at: Mutex<Option<Instant>>,
}

impl fmt::Debug for RateLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimit")
            .field("inner", &self.inner)
            .field("budget", &self.budget)
            .finish()
    }
}

impl RateLimit {
    /// Sends to `inner` within `budget`. (A budget the builder would refuse is used as if
    /// its zeroes were ones.)
    pub fn new(inner: BoxTransport, budget: RateBudget) -> Self {
        Self {
            inner,
            budget,
            empty_at: Mutex::new(None),
        }
    }

    /// The budget.
    pub fn budget(&self) -> RateBudget {
        self.budget
    }

    /// Waits for a token and takes it.
    async fn take_token(&self, request: &RpcRequest) {
        let interval = self.budget.interval().max(Duration::from_nanos(1));
        // With a full bucket, `burst` requests may go before it is empty: the bucket is
        // empty `interval * burst` after it was full, and a request may go while it is
        // not yet empty for one interval more.
        let slack = interval.saturating_mul(self.budget.burst.max(1) - 1);
        let mut empty_at = self.empty_at.lock().await;
        let now = Instant::now();
        let since = empty_at.map_or(now, |at| at.max(now));
        let go_at = since.checked_sub(slack).unwrap_or(now).max(now);
        if go_at > now {
            super::trace::waiting_for_budget(request, go_at - now);
            // Cancelled here, the call leaves `empty_at` as it was: no token spent.
            time::sleep_until(go_at).await;
        }
        *empty_at = Some(since + interval);
    }

    async fn send_within_budget(
        &self,
        request: RpcRequest,
    ) -> Result<HttpResponse, TransportError> {
        self.take_token(&request).await;
        self.inner.send(request).await
    }
}

impl Transport for RateLimit {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        Box::pin(self.send_within_budget(request))
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
    use super::*;
    use crate::client::transport::{MockReply, MockTransport};

    /// The virtual time at which each of `n` concurrent requests reached the endpoint.
    async fn send_times(layer: Arc<RateLimit>, n: usize) -> Vec<Duration> {
        let started = Instant::now();
        let mut tasks = Vec::new();
        for _ in 0..n {
            let layer = layer.clone();
            tasks.push(tokio::spawn(async move {
                layer.send(read()).await.unwrap();
                started.elapsed()
            }));
        }
        let mut times = Vec::new();
        for task in tasks {
            times.push(task.await.unwrap());
        }
        times.sort();
        times
    }

    fn layer(mock: &MockTransport, budget: RateBudget) -> Arc<RateLimit> {
        Arc::new(RateLimit::new(Arc::new(mock.clone()), budget))
    }

    /// N requests at burst B and rate R: the first B at once, then one every 1/R, so
    /// the last goes at (N - B) / R.
    #[test]
    fn n_requests_take_exactly_the_budgets_time() {
        for (rate, burst, n) in [(10, 1, 5), (10, 3, 10), (4, 4, 4), (20, 5, 45), (8, 2, 7)] {
            let mock = MockTransport::new("m", [MockReply::json(RESULT)]);
            let budget = RateBudget::per_second(rate).burst(burst);
            let times = block_on(send_times(layer(&mock, budget), n));
            let interval = Duration::from_secs(1) / rate;
            let expected: Vec<Duration> = (0..n as u32)
                .map(|k| interval * k.saturating_sub(burst - 1))
                .collect();
            assert_eq!(times, expected, "rate {rate}, burst {burst}, {n} requests");
            assert_eq!(mock.requests().len(), n);
        }
    }

    /// A quiet spell refills the bucket, never beyond its size.
    #[test]
    fn the_bucket_refills_up_to_its_size() {
        let mock = MockTransport::new("m", [MockReply::json(RESULT)]);
        let layer = layer(&mock, RateBudget::per_second(2).burst(3));
        let times = block_on(async {
            let first = send_times(layer.clone(), 3).await;
            assert_eq!(first, [Duration::ZERO; 3]);
            // 10 s of quiet: 20 tokens' worth, but the bucket holds 3.
            tokio::time::sleep(Duration::from_secs(10)).await;
            send_times(layer, 5).await
        });
        let ms = Duration::from_millis;
        assert_eq!(times, [ms(0), ms(0), ms(0), ms(500), ms(1000)]);
    }

    /// Each endpoint spends from its own budget: a busy one does not slow another.
    #[test]
    fn endpoints_have_independent_budgets() {
        use super::super::Fallback;
        let a = MockTransport::new("a", [MockReply::json(RESULT)]);
        let b = MockTransport::new("b", [MockReply::json(RESULT)]);
        let budget = RateBudget::per_second(1);
        let slow_a = layer(&a, budget);
        let b_alone = layer(&b, budget);
        let mut pinned = read();
        pinned.pinned_endpoint = Some(1);
        let fallback = Arc::new(Fallback::new(vec![slow_a.clone(), b_alone]));
        let (a_times, b_elapsed) = block_on(async {
            // Four requests queue on `a` (3 s of budget); `b` answers at once meanwhile.
            let queued = tokio::spawn(send_times(slow_a, 4));
            tokio::task::yield_now().await;
            let started = Instant::now();
            fallback.send(pinned).await.unwrap();
            let b_elapsed = started.elapsed();
            (queued.await.unwrap(), b_elapsed)
        });
        assert_eq!(b_elapsed, Duration::ZERO);
        let s = Duration::from_secs;
        assert_eq!(a_times, [s(0), s(1), s(2), s(3)]);
        assert_eq!((a.requests().len(), b.requests().len()), (4, 1));
    }

    /// A waiter cancelled before its turn spends no token: the one behind it goes when
    /// the cancelled one would have.
    #[test]
    fn a_cancelled_waiter_spends_nothing() {
        let mock = MockTransport::new("m", [MockReply::json(RESULT)]);
        let layer = layer(&mock, RateBudget::per_second(1));
        let (cancelled, next) = block_on(async {
            layer.send(read()).await.unwrap();
            // The second request's turn is at 1 s; it gives up at 0.5 s.
            let cancelled =
                tokio::time::timeout(Duration::from_millis(500), layer.send(read())).await;
            let started = Instant::now();
            layer.send(read()).await.unwrap();
            (cancelled.is_err(), started.elapsed())
        });
        assert!(cancelled, "the wait was not cut short");
        // Had the cancelled request spent its token, the next would wait until 2 s.
        assert_eq!(next, Duration::from_millis(500));
        assert_eq!(mock.requests().len(), 2);
    }

    #[test]
    fn waiters_are_served_in_order() {
        let mock = MockTransport::new("m", [MockReply::json(RESULT)]);
        let layer = layer(&mock, RateBudget::per_second(10));
        block_on(async {
            let mut tasks = Vec::new();
            for id in 1..=5u64 {
                let layer = layer.clone();
                tasks.push(tokio::spawn(async move {
                    layer
                        .send(RpcRequest::new("block", id, &b"{}"[..], false))
                        .await
                }));
                // Each task reaches the queue before the next is spawned.
                tokio::task::yield_now().await;
            }
            for task in tasks {
                task.await.unwrap().unwrap();
            }
        });
        let ids: Vec<u64> = mock.requests().iter().map(|r| r.id).collect();
        assert_eq!(ids, [1, 2, 3, 4, 5]);
    }

    #[test]
    fn invalid_budgets_are_named() {
        assert_eq!(RateBudget::per_second(5).burst(2).invalid(), None);
        assert_eq!(
            RateBudget::per_second(0).invalid(),
            Some(("RateBudget requests", 0))
        );
        assert_eq!(
            RateBudget::per_second(5).burst(0).invalid(),
            Some(("RateBudget burst", 0))
        );
        assert_eq!(
            RateBudget::new(10, Duration::from_nanos(5)).invalid(),
            Some(("RateBudget period (ns)", 5))
        );
    }
}
