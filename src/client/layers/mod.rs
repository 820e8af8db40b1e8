//! The layers of the client: each is a [`Transport`](super::transport::Transport)
//! wrapping another, with one concern, testable alone over a
//! [`MockTransport`](super::transport::MockTransport).
//!
//! [`Client`](super::Client) stacks them, outermost first:
//!
//! | layer | file | concern |
//! |---|---|---|
//! | [`Redact`] | `redact.rs` | masks every configured secret in everything coming back |
//! | [`Deadline`] | `deadline.rs` | one deadline for the whole call, across retries and endpoints |
//! | [`SizeLimit`] | `size_limit.rs` | request and response size limits |
//! | [`Archival`] | `archival.rs` | a read of a block a regular node no longer keeps, again to the archival endpoints (only with some) |
//! | [`Retry`] | `retry.rs` | bounded retries with backoff and `Retry-After` (each side of `Archival` its own) |
//! | [`Fallback`] | `fallback.rs` | the next endpoint when one fails (only with several) |
//! | [`RateLimit`] | `rate_limit.rs` | one endpoint's request budget: waits for its turn (only when set) |
//! | (tracing) | `trace.rs` | spans per call, attempt and endpoint, events for retries and failovers (feature `tracing`) |
//! | transports | `transport/` | one [`HttpTransport`](super::transport::HttpTransport) per endpoint |
//!
//! Retry and failover decide from the same [`verdict`] of an outcome, and from
//! [`RpcRequest::submits_transaction`](super::transport::RpcRequest), which comes from
//! the method's generated [`RpcMethod::SUBMITS_TRANSACTION`](crate::methods::RpcMethod).

mod archival;
mod classify;
mod deadline;
mod fallback;
mod rate_limit;
mod redact;
mod retry;
mod size_limit;
pub(crate) mod trace;

pub use archival::Archival;
pub(crate) use classify::{error_verdict, response_verdict};
pub use classify::{verdict, Verdict, RETRYABLE_STATUSES};
pub use deadline::{Deadline, DEFAULT_DEADLINE};
pub use fallback::Fallback;
pub use rate_limit::{RateBudget, RateLimit};
pub use redact::Redact;
pub use retry::{Jitter, Retry, RetryPolicy, MAX_RETRIES};
pub use size_limit::{SizeLimit, DEFAULT_MAX_REQUEST_BYTES};

#[cfg(test)]
pub(crate) mod test_support {
    //! Small helpers for the layers' unit tests.

    use std::future::Future;

    use super::super::transport::RpcRequest;

    /// Runs `future` on a current-thread runtime with time enabled.
    pub fn block_on<F: Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .expect("runtime")
            .block_on(future)
    }

    /// A read request (`block`).
    pub fn read() -> RpcRequest {
        RpcRequest::new("block", 1, &b"{}"[..], false)
    }

    /// A write request (`send_tx`).
    pub fn write() -> RpcRequest {
        RpcRequest::new("send_tx", 1, &b"{}"[..], true)
    }

    pub const RESULT: &str = r#"{"jsonrpc":"2.0","id":"1","result":{}}"#;
}
