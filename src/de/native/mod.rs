//! Native decoding: every generated type decodes itself from one concrete JSON reader,
//! without serde's visitors.
//!
//! serde's `Deserialize` is generic over the deserializer, so a decoder is compiled for
//! every deserializer it meets, and each is a tree of visitors that LLVM must inline back
//! together: that was nearly all of this crate's build time (BENCHMARKS.md, "Compile
//! time"). [`Decode`] takes the one [`Reader`] instead. Each type's decoder is one plain
//! function, compiled once, here; a failure's JSON path is collected as the error
//! travels up, so it costs nothing on success; and a value that must be looked at before
//! it is decoded (a tag that comes after the payload, an untagged shape) is read again
//! from its start instead of being buffered.
//!
//! The generated `RpcMethod::decode_response` decodes this way, and so do the types'
//! serde `Deserialize` impls (`crate::de::via_native`), for users who embed the types in
//! their own and for input a user wrote (`decode::from_value_strict`): both ways decode
//! every recorded response alike, and fail at the same paths
//! (`tests/it/decode_native.rs`, `decode_paths.rs`).

pub use enums::{
    adjacent_variant, end_external, external_variant, internal_variant, not_a_unit, shape_variant,
    untagged_failed, Adjacent, External, Tagged,
};
pub use envelope::{peek, Peek};
pub(crate) use error::without_position;
pub use error::Error;
pub use reader::{Next, Options, Reader, MAX_SKIP_DEPTH};

use crate::de::error::{syntax_error, DecodeError};

/// A type that decodes itself from the crate's JSON reader: what the envelope's `result` and
/// `error` must be, and every generated type is. A type of your own gets it from its
/// serde `Deserialize` with [`decode_with_serde!`](crate::decode_with_serde):
///
/// ```
/// use near_rpc::decode;
/// use near_rpc::envelope::Response;
/// use near_rpc::types::SpecErrorWrapper;
///
/// #[derive(Debug, serde::Deserialize)]
/// struct Height {
///     height: u64,
/// }
/// near_rpc::decode_with_serde!(Height);
///
/// let body = br#"{"jsonrpc":"2.0","id":1,"result":{"height":"x"}}"#;
/// let err = decode::from_slice::<Response<Height, SpecErrorWrapper<serde_json::Value>>>(body)
///     .unwrap_err();
/// assert_eq!(err.path(), "result.height");
/// ```
///
/// The reader's methods are not a stable API: implement the trait through the macro.
pub trait Decode: Sized {
    /// Decodes one value from `r`, leaving `r` just after it.
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error>;
}

/// Decodes a whole document as `T`: trailing non-whitespace is an error, and a failure
/// has its path and serde_json's line and column.
pub fn from_slice<T: Decode>(bytes: &[u8]) -> Result<T, DecodeError> {
    document(&mut Reader::new(bytes), bytes)
}

/// [`from_slice`] decoding as `options` say, with the values kept in catch-all variants
/// (collected only if `options.collect_unknown`).
pub fn from_slice_with<T: Decode>(
    bytes: &[u8],
    options: Options,
) -> Result<(T, Vec<serde_json::Value>), DecodeError> {
    let mut r = Reader::with_options(bytes, options);
    let value = document(&mut r, bytes)?;
    Ok((value, r.take_unknown()))
}

/// Reads `bytes`, the whole document, as `T` with `r`. Returns `T` alone: the decoded
/// value (large for a whole config) is moved once.
#[inline]
fn document<T: Decode>(r: &mut Reader<'_>, bytes: &[u8]) -> Result<T, DecodeError> {
    T::decode(r)
        .and_then(|value| r.end().map(|()| value))
        .map_err(|e| located(e, bytes))
}

/// The public error of a failed document.
#[cold]
fn located(e: Error, bytes: &[u8]) -> DecodeError {
    // A data error met before the text stops being JSON: the syntax is what is wrong
    // (`[1,` read as an object says "invalid type: sequence" first, a truncated or
    // trailing-text body a missing field).
    let syntax = if !e.is_syntax() {
        syntax_error(bytes)
    } else {
        None
    };
    syntax.unwrap_or_else(|| e.into_decode_error(bytes))
}

/// Reads the value of struct field `name` into `slot`; a field given twice is an error.
#[inline]
pub fn field<T: Decode>(r: &mut Reader<'_>, slot: &mut Option<T>, name: &str) -> Result<(), Error> {
    if slot.is_some() {
        return Err(duplicate_field(r, name));
    }
    *slot = Some(T::decode(r).map_err(|e| e.in_key(name))?);
    Ok(())
}

#[cold]
fn duplicate_field(r: &Reader<'_>, name: &str) -> Error {
    r.data_error(format!("duplicate field `{name}`"))
}

/// The value of a field that must be present.
#[inline]
pub fn required<T>(r: &Reader<'_>, slot: Option<T>, name: &str) -> Result<T, Error> {
    match slot {
        Some(value) => Ok(value),
        None => Err(missing_field(r, name)),
    }
}

/// The error for a field an object lacks, placed where the object ends.
#[cold]
pub fn missing_field(r: &Reader<'_>, name: &str) -> Error {
    r.data_error(format!("missing field `{name}`"))
}

/// Decodes the fields of an object into a struct expression: for plain structs
/// (`deserialize_struct!`), struct variants and the named fields of flattened structs.
/// Unknown keys are skipped; `default` fields may be missing. A flattened struct's enums
/// (`flattened from start { kind }`) then decode from the same object, read again from
/// `start`.
#[doc(hidden)]
#[macro_export]
macro_rules! decode_fields {
    ($r:ident, $expected:expr, $ctor:path { $($field:ident $json:literal $missing:ident),* $(,)? }
        $(flattened from $start:ident { $($flat:ident),* $(,)? })?) => {{
        // The keys a flattened enum skips (`Reader::flattened_beside`).
        #[allow(dead_code)]
        const SIBLINGS: &[&str] = &[$($json),*];
        $(let mut $field = ::std::option::Option::None;)*
        $r.begin_object($expected)?;
        let mut first = true;
        while let ::std::option::Option::Some(key) = $r.next_key(&mut first)? {
            match &*key {
                $($json => $crate::__private::native::field($r, &mut $field, $json)?,)*
                _ => $r.skip()?,
            }
        }
        $ctor {
            $($field: $crate::decode_fields!(@finish $r $missing $field $json),)*
            $($($flat: {
                $r.rewind($start);
                $r.flattened_beside(SIBLINGS);
                $crate::__private::native::Decode::decode($r)?
            },)*)?
        }
    }};
    (@finish $r:ident required $field:ident $json:literal) => {
        $crate::__private::native::required($r, $field, $json)?
    };
    (@finish $r:ident default $field:ident $json:literal) => {
        $field.unwrap_or_default()
    };
}

/// Implements [`Decode`] for a newtype over a decodable type.
#[doc(hidden)]
#[macro_export]
macro_rules! decode_newtype {
    ($name:ident) => {
        impl $crate::__private::native::Decode for $name {
            fn decode(
                r: &mut $crate::__private::native::Reader<'_>,
            ) -> ::std::result::Result<Self, $crate::__private::native::Error> {
                $crate::__private::native::Decode::decode(r).map($name)
            }
        }
    };
}

// After the macros, so that these files name them without a path (textual scope).
mod enums;
pub(crate) mod envelope;
mod error;
mod impls;
mod reader;
