//! When and how long to wait before trying a call again.

use std::time::Duration;

/// Methods that change chain state. Sending one twice can submit a transaction twice, so
/// they are not retried unless [`RetryPolicy::retry_writes`] says so.
pub const WRITE_METHODS: &[&str] = &["send_tx", "broadcast_tx_async", "broadcast_tx_commit"];

/// Retries with exponential backoff and full jitter, honouring `Retry-After`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (0 disables retrying).
    pub max_retries: u32,
    /// Backoff before the first retry; it doubles with each retry.
    pub initial_backoff: Duration,
    /// The most a backoff grows to.
    pub max_backoff: Duration,
    /// The longest `Retry-After` the client waits for; a longer one ends the call.
    pub max_retry_after: Duration,
    /// Whether [`WRITE_METHODS`] are retried too.
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

    /// How many retries `method` gets.
    pub fn retries_for(&self, method: &str) -> u32 {
        if WRITE_METHODS.contains(&method) && !self.retry_writes {
            0
        } else {
            self.max_retries
        }
    }

    /// The wait before retry number `retry` (0-based): `Retry-After` when the server sent
    /// one, else a random duration up to the exponential backoff. `None` when the server
    /// asks for longer than [`RetryPolicy::max_retry_after`].
    pub fn delay(
        &self,
        retry: u32,
        retry_after: Option<Duration>,
        random: u64,
    ) -> Option<Duration> {
        if let Some(wait) = retry_after {
            return (wait <= self.max_retry_after).then_some(wait);
        }
        let ceiling = self
            .initial_backoff
            .saturating_mul(1u32.checked_shl(retry).unwrap_or(u32::MAX))
            .min(self.max_backoff);
        let nanos = u64::try_from(ceiling.as_nanos()).unwrap_or(u64::MAX);
        Some(Duration::from_nanos(random % nanos.saturating_add(1)))
    }
}

/// Parses a `Retry-After` value given in seconds. (The HTTP-date form is not used by NEAR
/// RPC providers; it is ignored, and the backoff applies.)
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

/// A small xorshift generator for jitter: retries need spread, not cryptographic
/// randomness, and this avoids a dependency.
#[derive(Debug)]
pub struct Jitter(u64);

impl Jitter {
    /// Seeded from the clock and an address, so that clients started together differ.
    pub fn new() -> Self {
        let time = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let local = 0u8;
        let address = &local as *const u8 as u64;
        Self((time ^ address.rotate_left(32)) | 1)
    }

    /// The next pseudo-random number.
    pub fn next(&mut self) -> u64 {
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
    use super::*;

    #[test]
    fn writes_are_not_retried_unless_asked() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.retries_for("block"), 3);
        assert_eq!(policy.retries_for("send_tx"), 0);
        assert_eq!(policy.retries_for("broadcast_tx_commit"), 0);
        let policy = RetryPolicy {
            retry_writes: true,
            ..policy
        };
        assert_eq!(policy.retries_for("broadcast_tx_async"), 3);
    }

    #[test]
    fn backoff_grows_is_capped_and_jittered() {
        let policy = RetryPolicy::default();
        let max = |retry| policy.delay(retry, None, u64::MAX - 1).unwrap();
        assert!(max(0) <= Duration::from_millis(250));
        assert!(max(2) <= Duration::from_secs(1));
        assert_eq!(policy.delay(40, None, 0), Some(Duration::ZERO));
        assert!(max(40) <= Duration::from_secs(8));
        let mut jitter = Jitter::new();
        let delays: Vec<_> = (0..8)
            .map(|_| policy.delay(3, None, jitter.next()))
            .collect();
        assert!(
            delays.windows(2).any(|w| w[0] != w[1]),
            "no jitter: {delays:?}"
        );
    }

    #[test]
    fn retry_after_wins_unless_too_long() {
        let policy = RetryPolicy::default();
        assert_eq!(
            policy.delay(0, Some(Duration::from_secs(2)), 7),
            Some(Duration::from_secs(2))
        );
        assert_eq!(policy.delay(0, Some(Duration::from_secs(3600)), 7), None);
        assert_eq!(parse_retry_after(" 5 "), Some(Duration::from_secs(5)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
    }
}
