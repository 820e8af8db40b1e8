//! [`Decode`] for the standard types the generated ones are built of, and for the
//! hand-written primitives, each accepting what its serde `Deserialize` accepts.

use std::collections::{BTreeMap, HashMap};

use super::{Decode, Error, Next, Reader};

impl Decode for bool {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        r.bool()
    }
}

impl Decode for u64 {
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        r.u64("u64")
    }
}

macro_rules! narrow_unsigned {
    ($($ty:ident)*) => {$(
        impl Decode for $ty {
            fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
                let start = r.position();
                let wide = r.u64(stringify!($ty))?;
                $ty::try_from(wide).map_err(|_| {
                    r.rewind(start);
                    out_of_range(r, wide, stringify!($ty))
                })
            }
        }
    )*};
}
narrow_unsigned!(u8 u16 u32);

macro_rules! nonzero {
    ($($ty:ident)*) => {$(
        impl Decode for std::num::NonZero<$ty> {
            fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
                let start = r.position();
                let value = $ty::decode(r)?;
                std::num::NonZero::new(value).ok_or_else(|| {
                    r.rewind(start);
                    out_of_range(r, value, concat!("a nonzero ", stringify!($ty)))
                })
            }
        }
    )*};
}
nonzero!(u8 u16 u32 u64);

impl Decode for i64 {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        r.i64("i64")
    }
}

impl Decode for i32 {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        let start = r.position();
        let wide = r.i64("i32")?;
        i32::try_from(wide).map_err(|_| {
            r.rewind(start);
            out_of_range(r, wide, "i32")
        })
    }
}

#[cold]
fn out_of_range(r: &mut Reader<'_>, value: impl std::fmt::Display, what: &str) -> Error {
    r.peek().err();
    r.data_error(format!("invalid value: integer `{value}`, expected {what}"))
}

impl Decode for f64 {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        r.f64()
    }
}

impl Decode for String {
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        r.string().map(|s| s.into_owned())
    }
}

impl<T: Decode> Decode for Option<T> {
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        if r.null()? {
            return Ok(None);
        }
        T::decode(r).map(Some)
    }
}

impl<T: Decode> Decode for Box<T> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        T::decode(r).map(Box::new)
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        r.begin_array("a sequence")?;
        let mut items = Vec::new();
        let mut first = true;
        while r.next_element(&mut first)? {
            let index = items.len();
            items.push(T::decode(r).map_err(|e| e.in_index(index))?);
        }
        Ok(items)
    }
}

impl<A: Decode, B: Decode> Decode for (A, B) {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        r.begin_array("a tuple of size 2")?;
        let mut first = true;
        let mut element = |r: &mut Reader<'_>, index: usize| {
            if r.next_element(&mut first)? {
                Ok(())
            } else {
                Err(r.data_error(format!(
                    "invalid length {index}, expected a tuple of size 2"
                )))
            }
        };
        element(r, 0)?;
        let a = A::decode(r).map_err(|e| e.in_index(0))?;
        element(r, 1)?;
        let b = B::decode(r).map_err(|e| e.in_index(1))?;
        if r.next_element(&mut first)? {
            return Err(r.data_error("trailing characters"));
        }
        Ok((a, b))
    }
}

impl<T: Decode, const N: usize> Decode for [T; N] {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        r.begin_array("an array")?;
        let mut items = Vec::with_capacity(N);
        let mut first = true;
        while r.next_element(&mut first)? {
            if items.len() == N {
                return Err(r.data_error("trailing characters"));
            }
            let index = items.len();
            items.push(T::decode(r).map_err(|e| e.in_index(index))?);
        }
        let found = items.len();
        items.try_into().map_err(|_| {
            r.data_error(format!(
                "invalid length {found}, expected an array of length {N}"
            ))
        })
    }
}

impl Decode for () {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        if r.null()? {
            return Ok(());
        }
        Err(r.invalid_type("unit"))
    }
}

/// The entries of an object, each value decoded as `T`, into any map.
fn entries<T: Decode>(r: &mut Reader<'_>, mut insert: impl FnMut(String, T)) -> Result<(), Error> {
    r.begin_object("a map")?;
    let mut first = true;
    while let Some(key) = r.next_key(&mut first)? {
        let value = T::decode(r).map_err(|e| e.in_key(&key))?;
        insert(key.into_owned(), value);
    }
    Ok(())
}

impl<T: Decode> Decode for BTreeMap<String, T> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        let mut map = BTreeMap::new();
        entries(r, |k, v| {
            map.insert(k, v);
        })?;
        Ok(map)
    }
}

impl<T: Decode> Decode for HashMap<String, T> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        let mut map = HashMap::new();
        entries(r, |k, v| {
            map.insert(k, v);
        })?;
        Ok(map)
    }
}

impl Decode for serde_json::Value {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        r.value()
    }
}

impl Decode for serde_json::Map<String, serde_json::Value> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        if r.peek()? != Next::Object {
            return Err(r.invalid_type("a map"));
        }
        match r.value()? {
            serde_json::Value::Object(map) => Ok(map),
            _ => Err(r.data_error("expected a map")),
        }
    }
}

/// A string parsed with `FromStr`; `what` and the parse error make the message.
fn parsed<T: std::str::FromStr>(
    r: &mut Reader<'_>,
    what: &str,
    message: impl FnOnce(&str, T::Err) -> String,
) -> Result<T, Error> {
    if r.peek()? != Next::String {
        return Err(r.invalid_type(what));
    }
    let start = r.position();
    let text = r.string_at_quote()?;
    text.parse().map_err(|e| {
        let message = message(&text, e);
        r.rewind(start);
        r.data_error(message)
    })
}

impl Decode for crate::primitives::CryptoHash {
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        parsed(
            r,
            "a base58 string of a 32-byte hash",
            |_, e: crate::primitives::ParseCryptoHashError| e.to_string(),
        )
    }
}

impl Decode for crate::primitives::PublicKey {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        parsed(
            r,
            "a public key string such as \"ed25519:<base58>\"",
            |_, e: crate::primitives::ParseKeyError| format!("invalid public key: {e}"),
        )
    }
}

impl Decode for crate::primitives::Signature {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        parsed(
            r,
            "a signature string such as \"ed25519:<base58>\"",
            |_, e: crate::primitives::ParseKeyError| format!("invalid signature: {e}"),
        )
    }
}

impl Decode for near_account_id::AccountId {
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        parsed(
            r,
            "a string",
            |text, e: near_account_id::ParseAccountError| format!("invalid value: \"{text}\", {e}"),
        )
    }
}

impl Decode for near_token::NearToken {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        if let Some(yocto) = r.digits_in_string(u128::MAX) {
            return Ok(near_token::NearToken::from_yoctonear(yocto));
        }
        parsed(r, "a string", |_, e: std::num::ParseIntError| e.to_string())
            .map(near_token::NearToken::from_yoctonear)
    }
}

impl Decode for crate::primitives::NearGas {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        // near-gas reads a number or a string of one.
        if let Some(gas) = r.digits_in_string(u128::from(u64::MAX)) {
            return Ok(crate::primitives::NearGas::from_gas(gas as u64));
        }
        let gas = match r.peek()? {
            Next::Number => r.u64("a string or a number")?,
            Next::String => parsed(
                r,
                "a string or a number",
                |_, e: std::num::ParseIntError| e.to_string(),
            )?,
            _ => return Err(r.invalid_type("a string or a number")),
        };
        Ok(crate::primitives::NearGas::from_gas(gas))
    }
}
