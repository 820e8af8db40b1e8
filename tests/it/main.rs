//! The integration tests of near-rpc, in one binary (one link, one place to look).
//!
//! Suites that need the upstream data (`../shared`, or `NEAR_RPC_SHARED`) find it through
//! [`common::shared_dir`]: without it they fail, naming where the data is expected,
//! unless `NEAR_RPC_SKIP_SHARED=1` was set when they were built, which marks them ignored
//! (so the run's summary counts them).

mod common;
mod conformance;
mod support;

mod all_versions;
mod blocking;
mod client;
mod client_builders;
mod client_hostile;
mod client_reach;
mod client_verified;
mod client_write;
mod codegen_bump;
mod codegen_crosscheck;
mod codegen_diff;
mod codegen_drift;
// The 1.2.6 bindings against the later specs: built with the default version only.
#[cfg(near_rpc_default_spec)]
mod conformance_forward;
mod conformance_instances;
mod conformance_recorded;
mod conformance_requests;
mod decode_native;
mod decode_paths;
mod docs;
mod examples;
mod fixtures_roundtrip;
mod forward_compat;
mod mock_node;
mod requests_decode;
mod shortcuts;
mod spec_coverage;
mod tx_codec;
mod tx_helpers;
mod tx_message;
mod tx_mldsa;
mod tx_nearcore_038;
mod tx_response;
mod verify;
mod write_matrix;
mod write_signers;
mod write_sockets;
