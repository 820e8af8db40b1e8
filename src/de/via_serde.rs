//! The crate's decoder through serde: [`Decode`] for a type that has only serde's
//! `Deserialize` ([`decode_with_serde!`](crate::decode_with_serde), for a user's own
//! types and for the hand-written primitives below). The value's JSON text is decoded by
//! the serde-facing [`decode::from_slice`](crate::decode::from_slice), and a failure
//! keeps its path inside the value. It sits above both: the native decoder never calls
//! up into serde's side (`via_native` is the other direction).

use crate::de::decode::{from_slice, DecodeError};
use crate::de::native::{without_position, Decode, Error, Reader};
use crate::de::paths::{parse, Segment};

/// Implements the crate's decoder ([`decode::Decode`](crate::decode::Decode)) for a type
/// of your own through its serde `Deserialize`, so that it can be the `result` or the
/// handler error of a [`Response`](crate::envelope::Response) or an
/// [`RpcMethod`](crate::methods::RpcMethod): the value's text is decoded by serde_json, and a
/// failure keeps its path inside the value.
#[macro_export]
macro_rules! decode_with_serde {
    ($name:ty) => {
        impl $crate::__private::native::Decode for $name {
            fn decode(
                r: &mut $crate::__private::native::Reader<'_>,
            ) -> ::std::result::Result<Self, $crate::__private::native::Error> {
                $crate::__private::decode_with_serde(r)
            }
        }
    };
}

/// Decodes the next value with its serde `Deserialize` (see `decode_with_serde!`).
pub fn with_serde<T: serde::de::DeserializeOwned>(r: &mut Reader<'_>) -> Result<T, Error> {
    let raw = r.raw()?;
    from_slice::<T>(raw).map_err(|e| nested_error(r, &e))
}

/// A serde failure inside the value being read, as a native error with the same path.
#[cold]
fn nested_error(r: &Reader<'_>, e: &DecodeError) -> Error {
    // The position is the reader's, in the whole body.
    let mut error = r.data_error(without_position(e.message()));
    for segment in parse(e.path()).into_iter().rev() {
        error = match segment {
            Segment::Key(key) => error.in_key(&key),
            Segment::Index(index) => error.in_index(index),
        };
    }
    error
}

// The hand-written primitives whose serde `Deserialize` is their decoder.

impl Decode for crate::primitives::BlockId {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        with_serde(r)
    }
}

decode_with_serde!(crate::primitives::SignedTransaction);
decode_with_serde!(crate::primitives::FunctionArgs);
