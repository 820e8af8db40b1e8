//! A mock NEAR JSON-RPC node for tests: a small coherent chain authored here that
//! executes the transactions sent to it ([`runtime`] says how), contracts written in
//! Rust ([`Contract`]), per-method overrides, injected faults, recorded requests, and
//! record/replay of a real node.
//!
//! [Its README](https://crates.io/crates/near-rpc-mock) is the guide: a write flow with a
//! Rust contract, faults and overrides, and what it executes.
//!
//! It executes version-1 transactions and gas keys too: a nonce per index, the strict
//! nonce mode, gas paid from the key's balance, `TransferToGasKey` and
//! `WithdrawFromGasKey`, `view_gas_key_nonces` ([`MockNode::add_gas_key`] gives an
//! account one, whose key file [`MockNode::write_credentials`] writes).
//!
//! Not executed: Wasm (contracts are Rust), promises and cross-contract calls, global
//! contracts, deterministic state init (refused with a message saying so). Stake locks and unlocks at once, not at an epoch's end; every outcome's
//! `gas_profile` is `null`; an ETH-implicit account a transfer creates gets no wallet
//! contract; views read the current state whatever block they name. Contract methods
//! burn [`fees::CALL_BASE_GAS`] plus [`fees::CALL_GAS_PER_BYTE`] per byte of arguments
//! and state written, which `EXPERIMENTAL_protocol_config` does not show.
//!
//! It runs two ways, sharing one request handler:
//!
//! - **in-process**, as a [`Transport`](near_rpc::client::transport::Transport) of
//!   near-rpc's client: no socket ([`MockNode::client`]);
//! - **over HTTP** on `127.0.0.1` with an ephemeral port, for any client in any language
//!   ([`MockNode::start`]); the server stops, its open connections with it, when the
//!   [`MockServer`] is dropped, or when [`MockServer::stop`] returns.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! use near_rpc::methods;
//! use near_rpc_mock::{Fault, FaultRule, MockNode};
//!
//! let node = MockNode::new();
//! node.inject(FaultRule::new(Fault::status(503)).for_method("status").times(1));
//! let status = node.client().call::<methods::StatusMethod>(()).await.unwrap(); // retried once
//! assert_eq!(status.chain_id, "mock");
//! assert_eq!(node.requests_for("status").len(), 2);
//! # }
//! ```
//!
//! Saved chains ([`MockNode::load`]) and the credential files written for them
//! ([`MockNode::write_credentials`]) are safe with files from anyone, on shared
//! machines: a file is read up to [`state_file::MAX_FILE_BYTES`], its account ids must
//! be NEAR account ids and its numbers within what the runtime can add up without
//! overflow (each refusal names the JSON path, and the limit), so a loaded chain never
//! panics or wraps; key files land only in `DIR/mock`, as `<account_id>.json`, 0600,
//! in folders no other user can write to, replacing (never following) whatever was at
//! their name. [`state_file`] and [`MockNode::write_credentials`] say exactly what is
//! checked.
//!
//! Users add it as a dev-dependency; near-rpc itself does not depend on it.
//!
//! ## Over HTTP, under hostile input
//!
//! The server runs in CI and on shared machines, and `near-rpc record` runs it in front
//! of a provider holding the user's API key, so under hostile input it stays safe and
//! alive. What it guarantees, for the mock node and the recording proxy ([`Recorder`])
//! alike (the numbers are [`ServerOptions`]' defaults and constants):
//!
//! - **Only local clients, no web pages.** A request whose `Host` is not
//!   `127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT` (the listening port; without it
//!   only on port 80) is refused with 403: a web page that rebinds its own name to
//!   127.0.0.1 (DNS rebinding) still sends its name. A request with an `Origin` header,
//!   which browsers add to the requests of web pages, is refused with 403 unless that
//!   origin was allowed ([`ServerOptions::allow_origin`]; `--allow-origin`). An allowed
//!   page's answers carry `Access-Control-Allow-Origin` with its origin, and its CORS
//!   preflight (`OPTIONS`) is answered by the server (POST with a `content-type`), never
//!   run or logged as a call. A request with no `Host`, or two, is refused with 400. Refused requests never reach the node
//!   (nor its request log) or the upstream.
//! - **A request runs only when it arrived whole.** The body is exactly the
//!   `content-length` bytes after the head; a client that closes before they all arrive,
//!   or lets the body deadline (30 s) pass, gets nothing run, nothing logged and no
//!   answer that pretends it ran (408 at the deadline). Bytes past the declared length are
//!   the next request's (pipelining): they are read as a request head, and refused (400)
//!   when they are not one. Bodies are delimited by `content-length` only:
//!   `transfer-encoding: chunked` is refused with 411 (resend with a length), another
//!   transfer coding with 501, both headers together with 400, as are two
//!   `content-length`s, and one that is not plain digits (`+1`, `1 0`, `1,1`) or does not
//!   fit a number; a length over 16 MiB is refused with 413. A malformed request line or
//!   header line is refused with 400. Every refusal closes the connection (after reading
//!   what the client still sends, for a moment, so that it reads the answer rather than
//!   a reset).
//! - **Deadlines.** The whole request head must arrive within 10 s of the server
//!   starting to wait for it (on a kept-alive connection, from the previous answer): a
//!   client that trickles a byte at a time is answered 408 and closed at the deadline,
//!   and an idle connection is closed. The body has 30 s from the end of its head, an
//!   answer 30 s to be taken by the client.
//! - **Bounded memory.** Heads up to 64 KiB (431 beyond), bodies up to 16 MiB, at most
//!   64 MiB of bodies read or being answered at once (a request whose body does not fit
//!   waits, before its body is read, for others to finish), at most 256 connections at
//!   once (the next ones wait in the listen backlog until one closes), and a body of
//!   more than 262,144 JSON values refused with 413 before it is parsed (parsed, a value
//!   takes 32 bytes or more: a 16 MiB `[0,0,...]` would take over 256 MiB). The mock
//!   node's request log is bounded too ([`RequestLog`]).
//! - **It keeps accepting.** An error of `accept` that concerns one connection is
//!   skipped; any other (out of file descriptors, `EMFILE`/`ENFILE`, or of memory) makes
//!   the server wait, 10 ms doubling up to 1 s on the runtime's clock, and try again, for
//!   as long as it runs: it accepts again once descriptors are free.
//!
//! In process ([`MockNode::client`]) none of this applies: nothing comes off a wire.

// The rooms: `node.rs` (the node, its one handler), `wire.rs` (requests and replies as
// they travel), `fault.rs` (injected faults), `request_log.rs` (what is kept of the
// requests), `handler.rs` (each method's default answer), `window.rs` (a regular node's
// window of blocks), `chain.rs` (the state and its views), `runtime/` (validate, block,
// execute), `fees.rs`, `contract.rs`, `light_client.rs` and `block_tree.rs` (hashes and
// proofs), `state_file.rs` (saved chains), `credentials.rs` (key files), `server.rs`
// (HTTP, knowing nothing of the node), `serving.rs` (the node over HTTP), `transport.rs`
// (in process), `cassette.rs` (record and replay).
mod block_tree;
mod cassette;
pub mod chain;
pub mod contract;
mod credentials;
mod fault;
pub mod fees;
mod handler;
pub mod light_client;
mod node;
mod request_log;
pub mod runtime;
mod server;
mod serving;
pub mod state_file;
mod transport;
mod window;
mod wire;

pub use cassette::{Cassette, Exchange, Recorder};
pub use chain::Chain;
pub use contract::{Call, Contract};
pub use fault::{Fault, FaultRule};
pub use handler::RpcError;
pub use node::{unused_url, MockNode};
pub use request_log::{Recorded, RequestLog};
pub use server::{InvalidOrigin, Origin, ServerOptions};
pub use serving::{BackgroundServer, MockServer};
pub use state_file::StateError;
pub use wire::{HttpReply, Reply, Shape};
