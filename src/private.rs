//! What generated code (and the macros it calls) names through `$crate::__private`: the
//! decoding support of `crate::de`. Not part of the public API; nothing else belongs
//! here.

use crate::de::decode::DecodeError;
pub use crate::methods::encode_request;

/// What a generated `RpcMethod::decode_response` returns.
pub type Decoded<M> = Result<crate::methods::EnvelopeOf<M>, DecodeError>;
/// What a generated `RpcMethod::encode_request` returns.
pub type Encoded = Result<Vec<u8>, serde_json::Error>;

pub use crate::de::via_native::deserialize as deserialize_via_native;
pub use crate::de::via_serde::with_serde as decode_with_serde;
/// Native decoding (`crate::de::native`), named by the generated `Decode` impls.
pub mod native {
    pub use crate::de::native::*;
}
