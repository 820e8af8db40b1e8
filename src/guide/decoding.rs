//! Decoding: response bodies without the client, what a newer node may send, and what
//! decoding costs.
//!
//! Every method's marker ([`methods`](crate::methods)) implements
//! [`RpcMethod`](crate::methods::RpcMethod), whose `decode_response` reads a whole response body;
//! [`decode`](crate::decode) decodes any of the types with errors that name the JSON path
//! of the bad field.
//!
//! ```
//! use near_rpc::methods::{ExperimentalTxStatusMethod as M, RpcMethod};
//!
//! let body = br#"{"jsonrpc":"2.0","id":1,"result":{"final_execution_status":"INCLUDED"}}"#;
//! let response = M::decode_response(body).unwrap();
//! assert!(response.payload.unwrap().outcome.is_none());
//!
//! let broken = br#"{"jsonrpc":"2.0","id":1,"result":{"final_execution_status":7}}"#;
//! let err = M::decode_response(broken).unwrap_err();
//! assert_eq!(err.path(), "result.final_execution_status");
//! ```
//!
//! # What decoding costs
//!
//! `RpcMethod::decode_response` (and the client, which uses it) is the fast way, to compile
//! and to run. Every type has a decoder of its own, generated, that reads one concrete JSON
//! reader without serde's visitors (`src/de/native`), and every method's is compiled once,
//! inside near-rpc: a crate calling it compiles no decoder of its own (0.10 s to rebuild a
//! crate decoding the three main methods in release, against 6.9 s on near-openrpc-client
//! and 11.8 s on near-openapi-types), near-rpc itself builds in 14.4 s in release (the
//! library and that crate together: 0.67× near-openapi-types), and it decodes a
//! transaction status in 4.0× fewer instructions than near-openapi-types, a genesis config
//! in 2.2× and a protocol config in 2.5× fewer, within 2.4× of the instructions serde_json
//! needs to read the same bytes and build nothing ([BENCHMARKS.md][benchmarks]).
//!
//! The types also implement `Deserialize`, for embedding them in your own types or
//! decoding them with [`decode::from_slice::<T>`](crate::decode::from_slice) (which finds
//! the path of a failure the same way). That goes through the same native decoders: the
//! value's JSON text (as serde_json read it, or transcribed from any other format) is
//! decoded natively (`src/de/via_native.rs`), so both ways accept and refuse the same
//! documents, at the same paths (`tests/it/decode_native.rs`), and your crate compiles
//! serde's visitors for its own types only, not a decoder per type of ours. It costs
//! 1.5–1.8× the instructions of `decode_response` (BENCHMARKS.md, "How fast does it
//! decode?").
//!
//! # What the bindings don't know
//!
//! To learn whether a node is ahead of the bindings, `decode::from_slice_reporting` decodes
//! the same way and lists, with their JSON paths, the values kept in a catch-all variant
//! and the fields the types ignored (`near-rpc decode --report-unknown METHOD FILE` prints
//! that list):
//!
//! ```
//! use near_rpc::decode;
//! use near_rpc::envelope::Response;
//! use near_rpc::types::SpecErrorWrapper;
//! use near_rpc::methods::{self, RpcMethod};
//!
//! type M = methods::TxMethod;
//! type TxResponse = Response<<M as RpcMethod>::Result, SpecErrorWrapper<<M as RpcMethod>::Error>>;
//!
//! let body = br#"{"jsonrpc":"2.0","id":1,"result":{"final_execution_status":"SOFT_FINAL","hint":1}}"#;
//! let (_, unrecognized) = decode::from_slice_reporting::<TxResponse>(body).unwrap();
//! assert_eq!(unrecognized.variants, ["result.final_execution_status"]);
//! assert_eq!(unrecognized.fields, ["result.hint"]);
//! ```
//!
//! # What a newer node may send
//!
//! - Enums that responses carry are **open**: a variant a newer node adds decodes into
//!   `Unknown(serde_json::Value)` instead of failing, and so does a variant that is a bare
//!   name in the spec but arrives with a payload (`{"WasmUnknownError": {..}}`,
//!   `{"name": "NO_SYNCED_BLOCKS", "info": {..}}`), kept whole; unknown object fields are
//!   ignored. Open enums are `#[non_exhaustive]`.
//! - Alternatives mixed with properties (block references, query kinds, ...) are a struct
//!   with a named, flattened enum, never a cross-product of `Variant0`/`Variant1`.
//! - Input a user wrote (the CLI's params) is decoded strictly
//!   ([`decode::from_value_strict`](crate::decode::from_value_strict)): an unknown field or
//!   variant is an error naming its path.
//!
//! [benchmarks]: https://docs.rs/crate/near-rpc/latest/source/BENCHMARKS.md
