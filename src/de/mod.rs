//! Decoding: the one room for turning JSON into the crate's types. [`decode`] is its
//! public face (`near_rpc::decode`); generated code reaches the rest through
//! `near_rpc::__private` (see `src/private.rs`); the crate uses it directly.
//!
//! By concern: `native` (the one JSON reader every type decodes from, with the
//! envelope's rules in `native/envelope.rs`), `error` (the public `DecodeError` both ways
//! of decoding produce), `via_native` (serde's `Deserialize` through it), `via_serde`
//! (the reverse: `decode_with_serde!`, a serde type decoded by `decode`), `value` (a
//! serde deserializer over a borrowed `Value` that keeps the path), `fields` and
//! `open_enum` (what the generated structs and enums expand to), `request` (serde's
//! `Deserialize` for requests), `tx_response` (the transaction responses, whose two
//! shapes are told apart after one pass), `legacy_query_error` (errors old nodes put
//! inside a `query` result), `repeated_keys` (a key given twice in one object of JSON a
//! user wrote), `paths` (a failure's JSON path: collected as the failure travels up, by
//! the native decoders and by `value`, the one way every entry point finds where a
//! decode failed).
//! What a decode does with what it does not know (strict, collecting) is its
//! `native::Options`, carried by its reader: nothing is kept per thread.
//!
//! Imports run one way: `native` at the bottom, on `error` and `paths`; `decode` (the
//! serde-facing entry points) and the adapters above it.

pub mod decode;
pub mod error;
pub mod fields;
pub mod legacy_query_error;
// `macro_use`: the decoding macros stay in scope for the modules after it.
#[macro_use]
pub mod native;
pub mod open_enum;
pub mod paths;
pub mod repeated_keys;
pub mod request;
pub mod tx_response;
pub mod value;
pub mod via_native;
pub mod via_serde;
