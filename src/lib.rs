//! Typed Rust bindings for the [NEAR Protocol JSON-RPC API][api], generated from
//! nearcore's OpenAPI spec (version [`SPEC_VERSION`]; 1.2.6 also merges nearcore's OpenRPC
//! document, see [`SPEC_DOCUMENTS`]), with a hand-written layer for what a generator can't
//! express well: the JSON-RPC envelope, typed errors, open enums, domain types, a client,
//! the write path and verified reads.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use near_rpc::Client;
//!
//! let client = Client::new("https://rpc.mainnet.near.org")?;
//! let account = client.view_account("alice.near").await?;
//! println!("{} at block {}", account.amount, account.block_height);
//! # Ok(()) }
//! ```
//!
//! **The guide** ([`guide`][guide-mod]) is the tour, by what you do: [reading][guide-reading],
//! [writing][guide-writing] (and the write path's exact guarantee), [errors and
//! retries][guide-errors], [keys and redaction][guide-keys],
//! [verification][guide-verification] and [decoding][guide-decoding]. Tests run against
//! the mock node, crate [`near-rpc-mock`][mock]; the command-line tool is
//! [`near-rpc`][cli].
//!
//! # The crate
//!
//! In the default spec version, 1.2.6, every one of the spec's 337 schemas maps to a Rust
//! type, and each of its 38 methods, plus the two only nearcore's OpenRPC document has
//! (`light_client_block_proof`, `EXPERIMENTAL_client_config`), has a marker type.
//!
//! The root holds what a first program needs: [`Client`][client-root] and
//! [`Signer`][signer-root] (both defined in [`client`][client-mod], re-exported here),
//! [`Finality`] (a schema of [`types`], re-exported here), [`ErrorReport`] to print an
//! error with its causes, and the domain types: [`AccountId`], [`NearToken`],
//! [`NearGas`], [`CryptoHash`], [`PublicKey`], [`Signature`], [`KeyType`], [`BlockId`]
//! (with their parse errors). Everything else has one path, in the module it belongs to:
//!
//! - [`types`]: every schema of the spec as a Rust type (the domain types above stand
//!   for the spec's schemas of those names). Enums that responses carry are *open*: a
//!   variant added by a newer node decodes into their `Unknown` variant with the raw JSON
//!   instead of failing. Unknown object fields are ignored.
//! - [`methods`]: one marker type per JSON-RPC method, implementing
//!   [`methods::RpcMethod`] (name, params, result and handler error types), named after
//!   the method with a `Method` suffix (`block` → [`methods::BlockMethod`],
//!   `EXPERIMENTAL_tx_status` → [`methods::ExperimentalTxStatusMethod`]) so none shares
//!   a name with a type; [`methods::ParamsOf`], [`methods::ResponseOf`] and
//!   [`methods::ErrorOf`] name a method's types.
//! - [`schemas`]: every schema by its spec name, for a program that picks one at run time.
//! - [`envelope`]: [`envelope::Request`], [`envelope::Response`], and
//!   [`envelope::ErrorWrapper`] with its typed [`envelope::ErrorCause`] and the legacy
//!   `code`/`message`/`data` real nodes still send.
//! - [`decode`]: decoding with errors that name the JSON path of the bad field.
//! - [`tx`][tx-mod] (feature `tx`, on with `client`): transactions and every action with
//!   nearcore's borsh encoding, secret keys, signing, near-cli credential files.
//! - [`verify`][verify-mod] (feature `verify`, on with `client`): execution proofs and
//!   light-client blocks checked against a trusted root or head.
//! - [`client`][client-mod] (feature `client`, default): an async client with typed
//!   errors, retries, failover and redaction of API keys, a shortcut per common call, the
//!   generic [`Client::call`][client-call] for all 40 methods, and the write path;
//!   `blocking` adds a blocking one.
//!
//! Decoding a body without the client:
//!
//! ```
//! use near_rpc::decode;
//! use near_rpc::methods::{EnvelopeOf, ExperimentalTxStatusMethod};
//!
//! // The whole response: `Response<ResponseOf<M>, SpecErrorWrapper<ErrorOf<M>>>`.
//! type TxResponse = EnvelopeOf<ExperimentalTxStatusMethod>;
//! let body = r#"{"jsonrpc":"2.0","id":7,"result":{"final_execution_status":"NONE"}}"#;
//! let response: TxResponse = decode::from_slice(body.as_bytes()).unwrap();
//! assert!(response.payload.unwrap().outcome.is_none());
//! ```
//!
//! # Features
//!
//! | feature | what it adds |
//! |---|---|
//! | `client` (default) | the async client (reqwest with rustls, tokio), with `tx` and `verify`; without default features the crate is the types alone, with no HTTP stack |
//! | `tx` | transactions built, borsh-encoded and signed offline (ed25519, secp256k1), near-cli credential files |
//! | `verify` | execution proofs and light-client blocks checked against a trusted root or head |
//! | `blocking` | a blocking client on top of the async one (it runs its own runtime) |
//! | `tracing` (default) | spans per call, attempt and endpoint, and events for retries and failovers, without secrets (the guide, `guide::errors`) |
//! | `v1_2_7` ... `v1_2_11`, `nearcore_0_38_0`, `earliest`, `latest` | the spec version of the bindings (below) |
//! | `codegen` | regenerate the bindings from a spec file at build time (`NEAR_RPC_SPEC`) |
//!
//! # Spec versions
//!
//! The crate ships the bindings of every nearcore spec version from 1.2.6 to 1.2.11, and
//! of nearcore 0.38 (protocol 2.14, the `latest`), all pinned in `spec/SOURCE.toml`. One
//! of them is compiled, chosen by a cargo feature:
//!
//! ```toml
//! # 1.2.6, the default: no feature
//! near-rpc = "0.1"
//! # another version: its feature (or `latest`, `earliest`)
//! near-rpc = { version = "0.1", features = ["v1_2_11"] }
//! near-rpc = { version = "0.1", features = ["nearcore_0_38_0"] }
//! ```
//!
//! The rules, as k8s-openapi's:
//!
//! - **One feature per spec version, at most one per build.** Two are a compile error
//!   naming both features. Only the chosen version compiles: adding versions costs a
//!   user's build nothing. [`SPEC_VERSION`] says which one a build has, and so does
//!   `near-rpc --version`.
//! - **Only the final binary chooses.** Cargo unifies features across the dependency
//!   graph, so two crates asking for different versions cannot both be satisfied:
//!   **libraries enable no version feature** and let the binary choose. The default
//!   needs no feature, so a library's plain dependency never conflicts.
//! - **A library that must follow the API across versions** writes
//!   `near_rpc::if_spec_ge_1_2_8! { ... }` / `if_spec_lt_1_2_8! { ... }` (one pair per
//!   shipped version; `if_spec_ge_nearcore_0_38_0!` for 0.38), and tests against both
//!   ends with `--features earliest` and `--features latest`.
//! - **Versions are compared with the generator**, not by compiling two of them:
//!   `near-rpc-codegen diff` lists what changed in the generated API, classed breaking,
//!   additive or doc-only, and the CHANGELOG holds that diff for every shipped version.
//!   Open enums are `#[non_exhaustive]`, so a variant a protocol upgrade adds is
//!   additive.
//!
//! Why one version per build rather than a module per version (`near_rpc::v1_2_6::types`
//! beside `near_rpc::v1_2_11::types`): the hand-written layer (client shortcuts, errors,
//! accessors on generated types, the mock node) is written once against
//! `near_rpc::types` and checked against every version, instead of being instantiated
//! per module; and a type from one version never meets a function of another in the same
//! build.
//!
//! 1.2.6's bindings also merge nearcore's OpenRPC document of 1.2.6, so they have two
//! methods the later ones lack (`light_client_block_proof`, `EXPERIMENTAL_client_config`;
//! their twins `EXPERIMENTAL_light_client_block_proof` and `client_config` are in every
//! version).
//!
//! **Where nearcore 0.38's document comes from.** nearcore published no OpenAPI document
//! after 1.2.11. Its spec version `nearcore-0.38.0` is a document derived from the crates
//! nearcore published for its 0.38.0 release (`near-jsonrpc-primitives` and its
//! dependencies, with their `schemars` feature) by the recipe of nearcore's own
//! generator; run on the 0.36.0 crates, that recipe reproduces the published 1.2.5
//! document in 333 of 336 schemas. What 0.38 adds over 1.2.11: three methods
//! (`EXPERIMENTAL_light_client_chunk_execution_proof`,
//! `EXPERIMENTAL_light_client_execution_outcome_proof`,
//! `EXPERIMENTAL_light_client_state_proof`, typed and callable, also as shortcuts), a
//! typed cause for `TIMEOUT_ERROR` (`None` from older nodes), and access key lists in
//! pages (`view_access_key_list` reads every page at the first one's block). The mock
//! node answers the three proofs as a chain without spice does (`CHUNK_NOT_CERTIFIED`),
//! and verified reads do not check 0.38's state proofs
//! ([verification][guide-verification] says why).
//!
//! The bindings are checked in under `generated/`, produced by this workspace's
//! generator, crate [`near-rpc-codegen`][codegen]; the repository's `CONTRIBUTING.md`
//! says how a new version is shipped.
//!
//! [api]: https://docs.near.org/api/rpc/introduction
//! [mock]: https://docs.rs/near-rpc-mock
//! [cli]: https://crates.io/crates/near-rpc-cli
//! [codegen]: https://docs.rs/near-rpc-codegen
// The client's links resolve in the crate when it has the client, and to docs.rs when
// it is built without (`--no-default-features`).
#![cfg_attr(
    feature = "client",
    doc = "[client-mod]: client\n\n[client-call]: Client::call\n\n[tx-mod]: tx\n\n\
           [client-root]: Client\n\n[signer-root]: Signer\n\n\
           [verify-mod]: verify\n\n[guide-mod]: guide\n\n[guide-reading]: guide::reading\n\n\
           [guide-writing]: guide::writing\n\n[guide-errors]: guide::errors\n\n\
           [guide-keys]: guide::keys\n\n[guide-verification]: guide::verification\n\n\
           [guide-decoding]: guide::decoding"
)]
#![cfg_attr(
    not(feature = "client"),
    doc = "[client-mod]: https://docs.rs/near-rpc/latest/near_rpc/client/index.html\n\n\
           [client-call]: https://docs.rs/near-rpc/latest/near_rpc/struct.Client.html#method.call\n\n\
           [client-root]: https://docs.rs/near-rpc/latest/near_rpc/struct.Client.html\n\n\
           [signer-root]: https://docs.rs/near-rpc/latest/near_rpc/struct.Signer.html\n\n\
           [tx-mod]: https://docs.rs/near-rpc/latest/near_rpc/tx/index.html\n\n\
           [verify-mod]: https://docs.rs/near-rpc/latest/near_rpc/verify/index.html\n\n\
           [guide-mod]: https://docs.rs/near-rpc/latest/near_rpc/guide/index.html\n\n\
           [guide-reading]: https://docs.rs/near-rpc/latest/near_rpc/guide/reading/index.html\n\n\
           [guide-writing]: https://docs.rs/near-rpc/latest/near_rpc/guide/writing/index.html\n\n\
           [guide-errors]: https://docs.rs/near-rpc/latest/near_rpc/guide/errors/index.html\n\n\
           [guide-keys]: https://docs.rs/near-rpc/latest/near_rpc/guide/keys/index.html\n\n\
           [guide-verification]: https://docs.rs/near-rpc/latest/near_rpc/guide/verification/index.html\n\n\
           [guide-decoding]: https://docs.rs/near-rpc/latest/near_rpc/guide/decoding/index.html"
)]
#![warn(missing_docs)]
// On docs.rs (Cargo.toml's `[package.metadata.docs.rs]`), each item gated on a feature
// says which: rustdoc's `doc_cfg` reads the `#[cfg]`s itself (nightly only). The std
// methods our string types show through `Deref` would carry std's own cfg; hidden.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(docsrs, doc(auto_cfg(hide(no_global_oom_handling))))]

mod block_reference;
#[cfg(feature = "client")]
pub mod client;
mod de;
pub mod envelope;
mod generated;
pub mod methods;
mod primitives;
mod protocol_config;
mod replaced;
mod report;
pub mod schemas;
#[cfg(feature = "tx")]
pub mod tx;
mod tx_outcome;
pub mod types;
#[cfg(feature = "verify")]
pub mod verify;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

/// Everything generated code names, by the path it names it (`crate::AccountId`,
/// `crate::envelope::Request`, `crate::methods::RpcMethod`, the decoding macros): a crate
/// that compiles generated bindings of its own (the golden tests, the other spec
/// versions) lays its modules out like this crate's root, glob-importing this into its
/// root and [`in_types`](__generated_root::in_types), [`in_methods`](__generated_root::in_methods)
/// and [`in_schemas`](__generated_root::in_schemas) into its `types`, `methods` and
/// `schemas`, so the list is kept once, here.
#[doc(hidden)]
pub mod __generated_root {
    pub use crate::replaced::root::*;
    pub use crate::{
        __private, decode_fields, decode_newtype, decode_with_serde, deserialize_struct,
        deserialize_via_native, envelope, serialize_open_enum,
    };

    /// What generated code names in `types` (`crate::types::RpcTransactionResponse`).
    pub mod in_types {
        pub use crate::replaced::types::*;
    }

    /// What generated code names in `methods` (`crate::methods::RpcMethod`).
    pub mod in_methods {
        pub use crate::methods::{MethodVisitor, RpcMethod};
    }

    /// What generated code names in `schemas` (`crate::schemas::SchemaVisitor`).
    pub mod in_schemas {
        pub use crate::schemas::SchemaVisitor;
    }

    /// Each hand-written type's schema name and the path generated code names it by (a
    /// test holds it equal to the generator's table).
    pub use crate::replaced::NAMES as REPLACED;
}

// The guide: documentation only, rendered by rustdoc; its examples run as doctests.
#[cfg(all(feature = "client", any(doc, doctest)))]
pub mod guide;

/// The README's Rust examples compile as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// So do the mock node's README's (they use near-rpc's client through the mock).
#[cfg(doctest)]
#[doc = include_str!("../mock/README.md")]
struct MockReadmeDoctests;

// What a first program needs, documented here though defined in `client` and `types`.
#[cfg(feature = "client")]
#[doc(inline)]
pub use client::{Client, Signer};
pub use primitives::{
    BlockId, CryptoHash, KeyHandle, KeyType, NearGas, ParseBlockIdError, ParseCryptoHashError,
    ParseKeyError, PublicKey, Signature,
};
pub use replaced::root::{AccountId, NearToken};
pub use report::ErrorReport;
#[doc(inline)]
pub use types::Finality;

pub use de::decode;
pub use generated::spec::{SPEC_DOCUMENTS, SPEC_SHA256, SPEC_VERSION};

// `if_spec_ge_1_2_8! { .. }`, `if_spec_lt_1_2_8! { .. }`, ... (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/version_macros.rs"));

#[cfg(near_rpc_conflicting_versions)]
compile_error!(concat!(
    "near-rpc: enable at most one spec version feature; these are on: ",
    env!("NEAR_RPC_CONFLICTING_VERSIONS"),
    ". The final binary chooses the version (libraries should enable none; see the \
     crate docs, \"Spec versions\")."
));
