//! Transactions built, encoded and signed without nearcore's crates (feature `tx`, on
//! with `client`).
//!
//! - [`Action`] and [`Transaction`]: every action of the 1.2.6 protocol and both
//!   transaction versions, with nearcore's borsh encoding (`to_borsh`/`from_borsh`).
//!   Decoding refuses unknown tags, lengths past the input and trailing bytes, naming
//!   the field ([`BorshError`]). With the `nearcore_0_38_0` feature (`latest`), nearcore
//!   0.38's `DelegateV2` (a meta-transaction a gas key can sign, `DelegateActionV2`;
//!   nodes refuse it from protocol version 87 on) and `UniversalStateInit` too; other
//!   builds refuse them by name.
//! - [`SecretKey`]: ed25519 and secp256k1 keys in NEAR's text forms, and with the
//!   `nearcore_0_38_0` feature (`latest`) ML-DSA-65 keys (`ml-dsa-65:`, the 4032-byte
//!   expanded key nearcore 0.38 writes; signed and verified with aws-lc-rs, as nearcore
//!   does). It signs, and it never appears in Display, Debug or an error. Builds without
//!   the feature refuse `ml-dsa-65:` by name. [`Credentials`] reads near-cli's files and
//!   the environment.
//! - [`MessagePayload`] and [`SignedMessage`]: NEP-413 signed messages (what wallets
//!   sign to log a user in), signed and verified offline: `payload.sign(account, &key)`,
//!   `signed.verify(&payload)`, and the JSON wallets exchange.
//! - [`SignedTransaction`]: what `send_tx` takes; its hash is sha256 of the transaction's
//!   borsh bytes. The client's write path (`Client::send` and the other write
//!   shortcuts, feature `client`) signs and sends in one call; this module is the
//!   offline path.
//! - Conversions to and from the generated views ([`ActionView`](crate::types::ActionView),
//!   [`SignedTransactionView`](crate::types::SignedTransactionView)), so what is built
//!   reads back as a node shows it.
//!
//! ```
//! use near_rpc::tx::{Action, SecretKey, Transaction};
//! use near_rpc::NearToken;
//!
//! let key: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse()?;
//! let tx = Transaction::new(
//!     "alice.near".parse()?,
//!     key.public_key(),
//!     7,                        // the access key's nonce + 1
//!     "bob.near".parse()?,
//!     "244ZQ9cgj3CQ6bWBdytfrJMuMQ1jdXLFGnr4HhvtCTnM".parse()?, // a recent block
//!     vec![Action::transfer(NearToken::from_near(1))],
//! );
//! let signed = tx.sign(&key);
//! println!("{} {}", signed.hash(), signed.to_base64());
//! assert!(signed.verify());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What is checked against nearcore: the encodings of the ordinary transaction and of
//! the actions up to `Delegate` reproduce nearcore's and near-api-js's published test
//! vectors byte for byte (hashes and signatures too, `tests/it/tx_codec.rs` cites each).
//! The global-contract, deterministic-state-init and gas-key actions and the version-1
//! transaction have no published vectors: their layouts follow nearcore's source
//! (near-primitives 0.36) field by field, and are tested by round trips only. Neither do
//! nearcore 0.38's `DelegateV2` and `UniversalStateInit`: their layouts and the version-2
//! delegate action's NEP-461 hash follow near-primitives 0.38. Outside the library's
//! tests, `tests/nearcore-readback` reads all of them back with nearcore's own crates.

mod action;
mod borsh;
mod credentials;
mod message;
mod secret_key;
mod signature;
mod transaction;
mod views;

pub use action::{
    check_actions, AccessKey, AccessKeyPermission, Action, DelegateAction,
    DeterministicAccountStateInit, FunctionCall, FunctionCallPermission, GasKeyInfo,
    GlobalContractDeployMode, GlobalContractIdentifier, NestedDelegateAction, NonDelegateAction,
    SignedDelegateAction, UnreadableAction,
};
#[cfg(feature = "nearcore_0_38_0")]
pub use action::{DelegateActionV2, SignedDelegateActionV2};
pub use borsh::{BorshError, BorshErrorKind};
pub use credentials::{Credentials, CredentialsError, ACCOUNT_ID_ENV, SECRET_KEY_ENV};
pub use message::{MessageError, MessagePayload, SignedMessage, NEP413_TAG};
pub use secret_key::{ParseSecretKeyError, SecretKey};
pub use signature::verify;
pub use transaction::{
    NonceMode, SignedTransaction, Transaction, TransactionNonce, TransactionV0, TransactionV1,
};
pub use views::{action_from_view_with_code, ViewError};

/// A borsh writer for the other modules that hash borsh bytes (light-client headers).
#[cfg(feature = "verify")]
pub(crate) fn borsh_writer() -> borsh::Writer {
    borsh::Writer::default()
}
