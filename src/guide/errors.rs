//! Errors and retries: what a failed call returns, and the layers every call goes
//! through.
//!
//! # What a failed call returns
//!
//! [`client::Error`][error] is the call's context (method, endpoint) and a
//! `#[non_exhaustive]` [`ErrorKind`][kind]: the transport's own
//! [`TransportError`][transport-error] nested (connect, TLS, timeout, broken connection,
//! refused redirect, size limits, the deadline), HTTP statuses, typed JSON-RPC errors
//! (with the legacy `code`/`message`/`data`), undecodable responses (JSON path, status,
//! the start of the body), wrong response ids, and every endpoint's failure apart.
//! nearcore's 400/408/422/500 replies with a JSON-RPC body are decoded, not thrown away;
//! a non-2xx status is never a success, even with a `result` in the body (the body is
//! kept). [`is_retryable()`][is-retryable] and [`nothing_sent()`][nothing-sent] are the
//! verdict the retry layer gave the same outcome, stored with the error: one rule, not
//! two. [`handler_error()`][handler-error] is the method's typed cause, when the node
//! sent one.
//!
//! ```no_run
//! # async fn run(client: near_rpc::Client) {
//! use near_rpc::client::transport::TransportErrorKind;
//! use near_rpc::client::ErrorKind;
//! use near_rpc::ErrorReport;
//!
//! if let Err(e) = client.view_account("alice.near").await {
//!     match e.kind() {
//!         ErrorKind::Rpc { error, .. } => eprintln!("the node said: {error}"),
//!         ErrorKind::Transport(t) if matches!(t.kind, TransportErrorKind::Timeout) => {
//!             eprintln!("timed out on {:?}; retry: {}", e.endpoint(), e.is_retryable())
//!         }
//!         _ => eprintln!("{}", ErrorReport(&e)),
//!     }
//! }
//! # }
//! ```
//!
//! **Printing one.** Every error of the crate says only its own level in `Display` (the
//! call and its endpoint, say) and hands out its cause through
//! [`source()`](std::error::Error::source) (the transport's failure, the decoding error),
//! never repeating it. [`ErrorReport`][report] prints the whole chain on one line, each
//! cause once: ``calling `view_account` on https://rpc.mainnet.near.org failed: timeout:
//! operation timed out``. So does any reporter that walks `source()` (`anyhow`'s `{:#}`).
//!
//! Writes return a [`SendError`][send-error] instead, which carries the transactions
//! signed ([`writing`](super::writing)).
//!
//! # The layers
//!
//! [`Client::call`][call] encodes the request, sends it down a stack of layers, and
//! decodes what comes back. Each layer is a [`Transport`][transport] wrapping another, in
//! its own file under `src/client/layers/`, with its own tests over a scripted transport:
//!
//! | layer, outermost first | what it does | default |
//! |---|---|---|
//! | `Redact` | masks every configured secret in bodies, headers and error texts that come back | always on |
//! | `Deadline` | one deadline per call, across retries, endpoints and waits | 60 s (`.deadline(..)`) |
//! | `SizeLimit` | refuses larger requests before sending; stops reading a larger response while streaming | request 10 MiB, response 32 MiB |
//! | `Archival` | a read of a block the regular endpoints no longer keep, again to the archival endpoints ([`reading`](super::reading#old-blocks-archival-endpoints)) | off (`.archival(url)`) |
//! | `Retry` | exponential backoff with full jitter; `Retry-After` honoured, never below the backoff and up to a ceiling | 3 retries (more than 10 refused by `build()`), 250 ms doubling to 8 s, `Retry-After` ≤ 60 s |
//! | `Fallback` | the next endpoint when one fails (only with several) | endpoints in the order given |
//! | `RateLimit` | one endpoint's request budget: a call waits for its turn | off (`.rate_limit(budget)`) |
//! | `HttpTransport` | one per endpoint (reqwest, rustls) | 30 s per attempt, redirects within the origin only (none on wasm32) |
//!
//! - **Retry and failover** read the same verdict of an outcome. An endpoint is skipped
//!   when it cannot be reached, times out, breaks the connection, answers with something
//!   that is not JSON-RPC (a proxy's HTML page), HTTP 404, 429 or 5xx, or the node's
//!   `INTERNAL_ERROR`/`TIMEOUT_ERROR`. A permanent JSON-RPC error (bad params, unknown
//!   account) is an answer: it is returned, not retried or failed over. Failover does
//!   not need retries: with [`RetryPolicy::none()`][none] a dead first endpoint still
//!   moves the call on. When every endpoint fails, `ErrorKind::AllEndpointsFailed` lists
//!   each one's failure.
//! - **Transactions** (`send_tx`, `broadcast_tx_*`: the methods whose generated
//!   [`RpcMethod::SUBMITS_TRANSACTION`](crate::methods::RpcMethod::SUBMITS_TRANSACTION) is true,
//!   because their params require a signed transaction) are retried or failed over only
//!   when they certainly reached no node (connection refused, DNS, TLS handshake).
//!   [`RetryPolicy::retry_writes`][retry-writes] opts into more; a retried write then
//!   never counts as unsent (`Error::nothing_sent`) once an earlier attempt may have
//!   arrived, even if the last one could not connect. The write path does its own
//!   resolving on top ([`writing`](super::writing)).
//! - **Provider rate limits**: a provider's plan allows so many requests per second, and
//!   answers HTTP 429 past it (retried, but each 429 costs a backoff). Give the endpoint
//!   its budget instead, and calls wait for their turn:
//!   `.endpoint(url)?.rate_limit(RateBudget::per_second(20).burst(5))`
//!   ([`RateBudget`][rate-budget]; it applies to the endpoint added just before, retries
//!   and failover attempts included; every endpoint has its own). Waiters are served in
//!   order; a call cancelled while waiting (its deadline, a dropped future) spends nothing.
//!   NEAR's [list of RPC providers](https://docs.near.org/api/rpc/providers) gives free
//!   tiers such as 20 requests per second (BlockPI, GetBlock), 15 (NOWNodes, QuickNode) or
//!   100 (dRPC); these change, so check your provider's plan.
//! - **Tracing** (feature `tracing`, on by default): a `near_rpc.call` span per call,
//!   `near_rpc.attempt` per try of the retry layer, `near_rpc.endpoint` per endpoint tried
//!   (its printable form, HTTP status, bytes, latency), and DEBUG events for retries,
//!   failovers, archival reads (with the regular node's cause) and rate-budget waits; the
//!   write path adds DEBUG events for each transaction signed, each resolution by hash
//!   and each re-sign decision (hash, nonce, lane, nonce index, endpoint index, level
//!   reached), and WARN only for an anomaly it does not return as an error (an answer
//!   about another transaction, an `UNKNOWN_TRANSACTION` naming another hash). No field
//!   holds a key, a body or an error message. The HTTP stack below
//!   traces too: hyper-util's TRACE events name the host connected to, so a key given as
//!   a host label is in them (keep `hyper_util` below TRACE, or the key out of the host).
//! - **Input** is checked before anything is sent: `SignedTransaction` and
//!   `FunctionArgs` must be valid base64 (`ErrorKind::Encode`, a usage error).
//! - **Response ids** must be the request's (a proxy's numeric echo is fine);
//!   `ErrorKind::IdMismatch` otherwise.
//! - **Your own transport** (a WASM fetch, a cassette, an in-process node) implements
//!   [`Transport`][transport] (one `send` method returning the HTTP outcome) and gets the
//!   same layers: [`Client::with_transport(t)`][with-transport], or
//!   [`ClientBuilder::transport(t)`][builder-transport] beside URL endpoints. The trait
//!   is object safe, so the stack compiles once inside near-rpc; tower was not used
//!   because its `Service` is generic, `&mut self` and `poll_ready`-based, which users
//!   would monomorphize again and which a one-method transport does not need.
//!
//! [error]: crate::client::Error
//! [report]: crate::ErrorReport
//! [kind]: crate::client::ErrorKind
//! [transport-error]: crate::client::transport::TransportError
//! [is-retryable]: crate::client::Error::is_retryable
//! [nothing-sent]: crate::client::Error::nothing_sent
//! [handler-error]: crate::client::Error::handler_error
//! [send-error]: crate::client::SendError
//! [call]: crate::Client::call
//! [transport]: crate::client::transport::Transport
//! [none]: crate::client::layers::RetryPolicy::none
//! [retry-writes]: crate::client::layers::RetryPolicy::retry_writes
//! [with-transport]: crate::Client::with_transport
//! [builder-transport]: crate::client::ClientBuilder::transport
//! [rate-budget]: crate::client::layers::RateBudget
