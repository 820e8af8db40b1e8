//! Primitive NEAR types as they appear in JSON-RPC messages.

mod base58;
pub mod base64_string;
pub mod block_id;
pub mod crypto_hash;
pub mod keys;

pub use base64_string::{FunctionArgs, InvalidBase64String, SignedTransaction};
pub use block_id::{BlockId, ParseBlockIdError};
pub use crypto_hash::{CryptoHash, ParseCryptoHashError};
pub use keys::{KeyHandle, KeyType, ParseKeyError, PublicKey, Signature};
mod gas;
pub use gas::NearGas;
