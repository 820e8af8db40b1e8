//! What generated code (and the macros it calls) names through `$crate::__private`: the
//! decoding support of `crate::de` and the path-tracking `Value` deserializer. Not part
//! of the public API; nothing else belongs here.

pub use crate::decode::{from_slice, DecodeError};
pub use crate::method::encode_request;

/// What a generated `RpcMethod::decode_response` returns.
pub type Decoded<M> = Result<crate::EnvelopeOf<M>, DecodeError>;
/// What a generated `RpcMethod::encode_request` returns.
pub type Encoded = Result<Vec<u8>, serde_json::Error>;

pub use crate::de::fields::{next_field, required_field, FieldIndex};
pub use crate::de::mode::{is_strict, note_unknown, noted_buffered_failure, paths_wanted};
pub use crate::de::open_enum::{
    buffer_rest, expecting_external, no_variant, rest_of_variant_object, unknown_variant,
    KnownVariant, VariantKey,
};
pub use crate::de::shape::{deserialize_shape, no_shape_matched, select, Selected, Tagging};
pub use crate::value_deserializer::{decode, with_path, FailurePath, ValueDeserializer};
/// Native decoding (`crate::de::native`), named by the generated `Decode` impls.
pub mod native {
    pub use crate::de::native::*;
}
