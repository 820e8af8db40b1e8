//! Typed Rust bindings for the [NEAR Protocol JSON-RPC API][api], generated from
//! nearcore's OpenAPI spec (version [`SPEC_VERSION`]; 1.2.6 also merges nearcore's OpenRPC
//! document, see [`SPEC_DOCUMENTS`]).
//!
//! - [`types`]: every schema of the spec as a Rust type. Enums that responses carry are
//!   *open*: a variant added by a newer node decodes into their `Unknown` variant with
//!   the raw JSON instead of failing. Unknown object fields are ignored.
//! - [`methods`]: one marker type per JSON-RPC method, implementing [`RpcMethod`] (name,
//!   params, result and handler error types), named after the method with a `Method`
//!   suffix (`block` → [`methods::BlockMethod`], `EXPERIMENTAL_tx_status` →
//!   [`methods::ExperimentalTxStatusMethod`]) so none shares a name with a type;
//!   [`ParamsOf`], [`ResponseOf`] and [`ErrorOf`] name a method's types.
//! - The envelope: [`Request`], [`Response`], and [`ErrorWrapper`] with its typed
//!   [`ErrorCause`] and the legacy `code`/`message`/`data` real nodes still send.
//! - Domain types: [`CryptoHash`], [`AccountId`], [`NearToken`], [`NearGas`],
//!   [`PublicKey`], [`Signature`], [`BlockId`].
//! - [`decode`]: decoding with errors that name the JSON path of the bad field.
//! - [`tx`][tx-mod] (feature `tx`, on with `client`): transactions and every action with
//!   nearcore's borsh encoding, secret keys, signing, near-cli credential files.
//! - `verify` (feature `verify`, on with `client`): execution proofs and light-client
//!   blocks checked against a trusted root or head.
//! - [`client`][client-mod] (feature `client`, default): an async client with typed
//!   errors, retries, failover and redaction of API keys, a shortcut per common call, and
//!   the generic [`Client::call`][client-call] for all of them; `blocking` adds a
//!   blocking one.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use near_rpc::client::Client;
//!
//! let client = Client::new("https://rpc.mainnet.near.org")?;
//! let account = client.view_account("alice.near").await?;
//! println!("{} at block {}", account.amount, account.block_height);
//! # Ok(()) }
//! ```
//!
//! Decoding a body without the client:
//!
//! ```
//! use near_rpc::{decode, methods, ErrorOf, ErrorWrapper, Response, ResponseOf};
//!
//! type Method = methods::ExperimentalTxStatusMethod;
//! type TxResponse = Response<ResponseOf<Method>, ErrorWrapper<ErrorOf<Method>>>;
//! let body = r#"{"jsonrpc":"2.0","id":7,"result":{"final_execution_status":"NONE"}}"#;
//! let response: TxResponse = decode::from_slice(body.as_bytes()).unwrap();
//! assert!(response.payload.unwrap().outcome.is_none());
//! ```
//!
//! The generated code is checked in under `generated/` and produced by the
//! `near-rpc-codegen` crate of this workspace; see the README for how to regenerate it.
//!
//! [api]: https://docs.near.org/api/rpc/introduction
// The client's links resolve in the crate when it has the client, and to docs.rs when
// it is built without (`--no-default-features`).
#![cfg_attr(
    feature = "client",
    doc = "[client-mod]: client\n\n[client-call]: client::Client::call\n\n[tx-mod]: tx"
)]
#![cfg_attr(
    not(feature = "client"),
    doc = "[client-mod]: https://docs.rs/near-rpc/latest/near_rpc/client/index.html\n\n\
           [client-call]: https://docs.rs/near-rpc/latest/near_rpc/client/struct.Client.html#method.call\n\n\
           [tx-mod]: https://docs.rs/near-rpc/latest/near_rpc/tx/index.html"
)]
#![warn(missing_docs)]

mod block_reference;
#[cfg(feature = "client")]
pub mod client;
mod de;
pub mod envelope;
mod generated;
mod method;
pub mod primitives;
mod protocol_config;
#[doc(hidden)]
pub mod replaced;
#[cfg(feature = "tx")]
pub mod tx;
mod tx_outcome;
#[cfg(feature = "verify")]
pub mod verify;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

/// Everything generated code names at its root (`crate::AccountId`, `crate::RpcMethod`,
/// the decoding macros). A crate that compiles generated bindings of its own (the golden
/// tests, the other spec versions) glob-imports this into the module it generates into,
/// so the list is kept once, here.
#[doc(hidden)]
pub mod __generated_root {
    pub use crate::replaced::all::*;
    pub use crate::{
        __private, decode_fields, decode_newtype, decode_with_serde, deserialize_struct,
        deserialize_via_native, serialize_open_enum, EnvelopeOf, ErrorWrapper, MethodVisitor,
        Request, Response, RpcMethod, SchemaVisitor, UntypedCause,
    };
}

/// The README's Rust examples compile as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use envelope::{Id, Request, Response, UntypedCause};

pub use method::{
    EnvelopeOf, ErrorOf, MethodVisitor, ParamsOf, ResponseOf, RpcMethod, SchemaVisitor,
};
pub use primitives::KeyType;
pub use protocol_config::MissingField;
pub use replaced::all::*;
pub use tx_outcome::InvalidBase64;

pub use de::decode;
pub use de::tx_response::TransactionOutcome;
pub use generated::spec::{SPEC_DOCUMENTS, SPEC_SHA256, SPEC_VERSION};
pub use generated::{methods, schemas, ErrorCause, ErrorWrapper};

/// Every type of the spec.
///
/// Generated by `near-rpc-codegen`; the doc text comes from the spec's descriptions.
pub mod types {
    pub use crate::de::tx_response::TransactionOutcome;
    pub use crate::generated::types::*;
    pub use crate::replaced::all::*;
}

// `if_spec_ge_1_2_8! { .. }`, `if_spec_lt_1_2_8! { .. }`, ... (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/version_macros.rs"));

#[cfg(near_rpc_conflicting_versions)]
compile_error!(concat!(
    "near-rpc: enable at most one spec version feature; these are on: ",
    env!("NEAR_RPC_CONFLICTING_VERSIONS"),
    ". The final binary chooses the version (libraries should enable none; see the \
     README, \"Choosing a spec version\")."
));
