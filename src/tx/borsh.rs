//! The borsh subset transactions use, written by hand: little-endian integers, `u32`
//! length prefixes, `u8` enum tags and `Option` flags.
//!
//! Hand-written rather than the `borsh` crate: transactions need a dozen shapes, and a
//! hand-written reader can name the field a hostile input broke (BENCHMARKS.md measures
//! what the crate would have cost a user's build). Decoding never allocates more than
//! the input could hold: a length is checked against the bytes left before anything is
//! reserved.

use std::fmt;

use crate::primitives::CryptoHash;
use crate::primitives::PublicKey;
use crate::primitives::Signature;
use near_account_id::AccountId;
use near_token::NearToken;

/// Appends the borsh encoding of values to a buffer.
#[derive(Debug, Default)]
pub(crate) struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    pub(crate) fn u8(&mut self, value: u8) {
        self.bytes.push(value);
    }

    pub(crate) fn u16(&mut self, value: u16) {
        self.bytes.extend_from_slice(&value.to_le_bytes());
    }

    pub(crate) fn u32(&mut self, value: u32) {
        self.bytes.extend_from_slice(&value.to_le_bytes());
    }

    pub(crate) fn u64(&mut self, value: u64) {
        self.bytes.extend_from_slice(&value.to_le_bytes());
    }

    pub(crate) fn u128(&mut self, value: u128) {
        self.bytes.extend_from_slice(&value.to_le_bytes());
    }

    /// Bytes with no length prefix (hashes, keys, signatures).
    pub(crate) fn fixed(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// A length as borsh writes it. Lengths past `u32` cannot be encoded; nothing this
    /// crate encodes gets near (a transaction over 4 GiB is refused by every node long
    /// before), so this saturates instead of failing.
    pub(crate) fn len(&mut self, len: usize) {
        self.u32(u32::try_from(len).unwrap_or(u32::MAX));
    }

    /// `Vec<u8>`: a length, then the bytes.
    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        self.len(bytes.len());
        self.fixed(bytes);
    }

    /// `String`: its UTF-8 bytes, length-prefixed.
    pub(crate) fn string(&mut self, text: &str) {
        self.bytes(text.as_bytes());
    }

    /// `Vec<T>`: a length, then each element.
    pub(crate) fn seq<T>(&mut self, items: &[T], mut each: impl FnMut(&mut Self, &T)) {
        self.len(items.len());
        for item in items {
            each(self, item);
        }
    }

    /// `Option<T>`: `0`, or `1` and the value.
    pub(crate) fn option<T>(&mut self, value: Option<&T>, each: impl FnOnce(&mut Self, &T)) {
        match value {
            None => self.u8(0),
            Some(value) => {
                self.u8(1);
                each(self, value);
            }
        }
    }
}

/// Why bytes are not a valid borsh encoding, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BorshError {
    /// Byte offset where the problem was found.
    pub offset: usize,
    /// The field path, outermost first (`actions[1].FunctionCall.args`).
    pub path: String,
    /// What was wrong.
    pub kind: BorshErrorKind,
}

/// What was wrong with a borsh encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BorshErrorKind {
    /// The input ended inside a value.
    UnexpectedEnd {
        /// Bytes the value needed.
        needed: usize,
        /// Bytes left.
        remaining: usize,
    },
    /// A length prefix larger than what is left of the input.
    LengthPastEnd {
        /// The length read.
        length: u32,
        /// Bytes left.
        remaining: usize,
    },
    /// An enum tag (or `Option` flag) with no variant.
    UnknownTag {
        /// The type read.
        of: &'static str,
        /// The tag.
        tag: u8,
    },
    /// An enum tag of a variant this build has no encoding for, though a later protocol
    /// has one (nearcore 0.38's actions without the `nearcore_0_38_0` feature).
    NeedsFeature {
        /// The type read.
        of: &'static str,
        /// The tag.
        tag: u8,
        /// The variant's name in nearcore.
        variant: &'static str,
        /// The cargo feature that reads it.
        feature: &'static str,
    },
    /// Bytes left after the whole value.
    TrailingBytes {
        /// How many.
        count: usize,
    },
    /// A value of the right shape that is not valid (an account id, a key, UTF-8, a
    /// nested delegate action).
    Invalid(String),
    /// The text given for the bytes is not base64 (nothing was decoded).
    NotBase64(String),
}

impl fmt::Display for BorshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            BorshErrorKind::UnexpectedEnd { needed, remaining } => write!(
                f,
                "the input ends inside a value: {needed} bytes needed, {remaining} left"
            ),
            BorshErrorKind::LengthPastEnd { length, remaining } => write!(
                f,
                "a length of {length} runs past the end of the input ({remaining} bytes left)"
            ),
            BorshErrorKind::UnknownTag { of, tag } => write!(f, "unknown {of} tag {tag}"),
            BorshErrorKind::NeedsFeature {
                of,
                tag,
                variant,
                feature,
            } => write!(
                f,
                "{of} tag {tag} is {variant}, which needs the {feature} feature"
            ),
            BorshErrorKind::TrailingBytes { count } => {
                write!(f, "{count} bytes left after the value")
            }
            BorshErrorKind::Invalid(why) => f.write_str(why),
            BorshErrorKind::NotBase64(why) => {
                return write!(f, "the signed transaction is not base64: {why}")
            }
        }?;
        if self.path.is_empty() {
            write!(f, " (at byte {})", self.offset)
        } else {
            write!(f, " (at {}, byte {})", self.path, self.offset)
        }
    }
}

impl std::error::Error for BorshError {}

impl BorshError {
    /// Prefixes the path with a field name.
    pub(crate) fn in_field(mut self, name: &str) -> Self {
        self.path = match (self.path.is_empty(), self.path.starts_with('[')) {
            (true, _) => name.to_owned(),
            (false, true) => format!("{name}{}", self.path),
            (false, false) => format!("{name}.{}", self.path),
        };
        self
    }

    /// Prefixes the path with an element index.
    pub(crate) fn in_index(mut self, index: usize) -> Self {
        self.path = match (self.path.is_empty(), self.path.starts_with('[')) {
            (true, _) => format!("[{index}]"),
            (false, true) => format!("[{index}]{}", self.path),
            (false, false) => format!("[{index}].{}", self.path),
        };
        self
    }
}

/// Reads borsh values from a byte slice, refusing anything past its end.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    input: &'a [u8],
    offset: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(input: &'a [u8]) -> Self {
        Self { input, offset: 0 }
    }

    pub(crate) fn offset(&self) -> usize {
        self.offset
    }

    /// Moves back to `offset` (one already read past).
    pub(crate) fn rewind(&mut self, offset: usize) {
        self.offset = offset.min(self.offset);
    }

    fn remaining(&self) -> usize {
        self.input.len() - self.offset
    }

    pub(crate) fn error(&self, kind: BorshErrorKind) -> BorshError {
        BorshError {
            offset: self.offset,
            path: String::new(),
            kind,
        }
    }

    pub(crate) fn invalid(&self, why: impl Into<String>) -> BorshError {
        self.error(BorshErrorKind::Invalid(why.into()))
    }

    /// Fails unless the whole input was read.
    pub(crate) fn finish(self) -> Result<(), BorshError> {
        match self.remaining() {
            0 => Ok(()),
            count => Err(self.error(BorshErrorKind::TrailingBytes { count })),
        }
    }

    pub(crate) fn fixed(&mut self, n: usize) -> Result<&'a [u8], BorshError> {
        if n > self.remaining() {
            return Err(self.error(BorshErrorKind::UnexpectedEnd {
                needed: n,
                remaining: self.remaining(),
            }));
        }
        let bytes = &self.input[self.offset..self.offset + n];
        self.offset += n;
        Ok(bytes)
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N], BorshError> {
        let mut array = [0; N];
        array.copy_from_slice(self.fixed(N)?);
        Ok(array)
    }

    /// The next byte, not consumed.
    pub(crate) fn peek_u8(&self) -> Option<u8> {
        self.input.get(self.offset).copied()
    }

    pub(crate) fn u8(&mut self) -> Result<u8, BorshError> {
        Ok(self.array::<1>()?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16, BorshError> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    pub(crate) fn u32(&mut self) -> Result<u32, BorshError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    pub(crate) fn u64(&mut self) -> Result<u64, BorshError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    pub(crate) fn u128(&mut self) -> Result<u128, BorshError> {
        Ok(u128::from_le_bytes(self.array()?))
    }

    /// A length prefix, checked against the bytes left: each element takes at least
    /// one byte, so a longer count can never be satisfied (and nothing is reserved for
    /// it).
    pub(crate) fn len(&mut self) -> Result<usize, BorshError> {
        let start = self.offset;
        let length = self.u32()?;
        if length as usize > self.remaining() {
            return Err(BorshError {
                offset: start,
                path: String::new(),
                kind: BorshErrorKind::LengthPastEnd {
                    length,
                    remaining: self.remaining(),
                },
            });
        }
        Ok(length as usize)
    }

    /// `Vec<u8>`.
    pub(crate) fn bytes(&mut self) -> Result<Vec<u8>, BorshError> {
        let len = self.len()?;
        Ok(self.fixed(len)?.to_vec())
    }

    /// `String`, which must be UTF-8.
    pub(crate) fn string(&mut self) -> Result<String, BorshError> {
        let start = self.offset;
        let bytes = self.bytes()?;
        String::from_utf8(bytes).map_err(|e| BorshError {
            offset: start,
            path: String::new(),
            kind: BorshErrorKind::Invalid(format!("a string that is not UTF-8: {e}")),
        })
    }

    /// `Vec<T>`, each element's errors placed at its index.
    pub(crate) fn seq<T>(
        &mut self,
        mut each: impl FnMut(&mut Self) -> Result<T, BorshError>,
    ) -> Result<Vec<T>, BorshError> {
        let len = self.len()?;
        let mut items = Vec::with_capacity(len.min(1024));
        for index in 0..len {
            items.push(each(self).map_err(|e| e.in_index(index))?);
        }
        Ok(items)
    }

    /// `Option<T>`.
    pub(crate) fn option<T>(
        &mut self,
        each: impl FnOnce(&mut Self) -> Result<T, BorshError>,
    ) -> Result<Option<T>, BorshError> {
        match self.u8()? {
            0 => Ok(None),
            1 => each(self).map(Some),
            tag => {
                self.offset -= 1;
                Err(self.error(BorshErrorKind::UnknownTag { of: "Option", tag }))
            }
        }
    }

    /// An enum tag below `variants`.
    pub(crate) fn tag(&mut self, of: &'static str, variants: u8) -> Result<u8, BorshError> {
        let tag = self.u8()?;
        if tag >= variants {
            self.offset -= 1;
            return Err(self.error(BorshErrorKind::UnknownTag { of, tag }));
        }
        Ok(tag)
    }
}

impl Borsh for AccountId {
    fn encode(&self, w: &mut Writer) {
        w.string(self.as_str());
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        let start = r.offset();
        let text = r.string()?;
        text.parse().map_err(|e| {
            let mut err = r.invalid(format!("not a valid account id: {e}"));
            err.offset = start;
            err
        })
    }
}

impl Borsh for PublicKey {
    fn encode(&self, w: &mut Writer) {
        w.u8(key_tag(self.key_type()));
        w.fixed(self.as_bytes());
    }
    /// Tags 0 (ed25519), 1 (secp256k1) and, with `nearcore_0_38_0`, 2 (ML-DSA-65);
    /// nearcore's tag 3 (an ML-DSA-65 handle) is never a public key.
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        Ok(match r.tag("PublicKey", KEY_TAGS)? {
            0 => PublicKey::ed25519(r.array()?),
            #[cfg(feature = "nearcore_0_38_0")]
            2 => PublicKey::ml_dsa_65(Box::new(r.array()?)),
            _ => PublicKey::secp256k1(r.array()?),
        })
    }
}

impl Borsh for Signature {
    /// An empty signature (nodes show `"ed25519:"` for some) is written as nearcore's
    /// empty one: zeros of the curve's length.
    fn encode(&self, w: &mut Writer) {
        let key_type = self.key_type();
        w.u8(key_tag(key_type));
        if self.is_empty() {
            w.fixed(&vec![0; key_type.signature_len()]);
        } else {
            w.fixed(self.as_bytes());
        }
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        Ok(match r.tag("Signature", KEY_TAGS)? {
            0 => {
                let start = r.offset();
                let signature = Signature::ed25519(r.array()?);
                // nearcore refuses it (see `Signature::borsh_readable`).
                if !signature.borsh_readable() {
                    let mut err = r
                        .invalid("not an ed25519 signature: the top bits of its last byte are set");
                    err.offset = start;
                    return Err(err);
                }
                signature
            }
            #[cfg(feature = "nearcore_0_38_0")]
            2 => Signature::ml_dsa_65(Box::new(r.array()?)),
            _ => Signature::secp256k1(r.array()?),
        })
    }
}

/// How many key tags this build reads: ML-DSA-65's (2) only with `nearcore_0_38_0`.
#[cfg(feature = "nearcore_0_38_0")]
const KEY_TAGS: u8 = 3;
#[cfg(not(feature = "nearcore_0_38_0"))]
const KEY_TAGS: u8 = 2;

/// nearcore's borsh tag of a key or signature (`core/crypto/src/signature.rs`, `KeyTag`).
pub(crate) fn key_tag(key_type: crate::primitives::KeyType) -> u8 {
    match key_type {
        crate::primitives::KeyType::Ed25519 => 0,
        crate::primitives::KeyType::Secp256k1 => 1,
        #[cfg(feature = "nearcore_0_38_0")]
        crate::primitives::KeyType::MlDsa65 => 2,
    }
}

impl Borsh for CryptoHash {
    fn encode(&self, w: &mut Writer) {
        w.fixed(&self.0);
    }
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError> {
        Ok(CryptoHash(r.array()?))
    }
}

pub(crate) fn token(r: &mut Reader<'_>) -> Result<NearToken, BorshError> {
    Ok(NearToken::from_yoctonear(r.u128()?))
}

/// Runs `decode`, placing its errors under `field`.
pub(crate) fn field<T>(
    r: &mut Reader<'_>,
    name: &str,
    decode: impl FnOnce(&mut Reader<'_>) -> Result<T, BorshError>,
) -> Result<T, BorshError> {
    decode(r).map_err(|e| e.in_field(name))
}

/// A type with a borsh encoding.
pub(crate) trait Borsh: Sized {
    fn encode(&self, w: &mut Writer);
    fn decode(r: &mut Reader<'_>) -> Result<Self, BorshError>;
}

/// The bytes of `value`.
pub(crate) fn to_vec<T: Borsh>(value: &T) -> Vec<u8> {
    let mut w = Writer::default();
    value.encode(&mut w);
    w.into_bytes()
}

/// Exactly one `T` from `bytes`, nothing left over.
pub(crate) fn from_slice<T: Borsh>(bytes: &[u8]) -> Result<T, BorshError> {
    let mut r = Reader::new(bytes);
    let value = T::decode(&mut r)?;
    r.finish()?;
    Ok(value)
}

/// The standard base64 of `value`'s bytes (how signed transactions and delegate actions
/// travel as text).
pub(crate) fn to_base64<T: Borsh>(value: &T) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(to_vec(value))
}

/// Exactly one `T` from the standard base64 of its bytes (surrounding white space
/// ignored); text that is not base64 is [`BorshErrorKind::NotBase64`].
pub(crate) fn from_base64<T: Borsh>(text: &str) -> Result<T, BorshError> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| Reader::new(&[]).error(BorshErrorKind::NotBase64(e.to_string())))?;
    from_slice(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_little_endian_and_lengths_u32() {
        let mut w = Writer::default();
        w.u16(0x0102);
        w.u64(1);
        w.string("ab");
        w.option(Some(&7u128), |w, v| w.u128(*v));
        let bytes = w.into_bytes();
        assert_eq!(&bytes[..2], &[2, 1]);
        assert_eq!(&bytes[2..10], &[1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&bytes[10..16], &[2, 0, 0, 0, b'a', b'b']);
        assert_eq!(bytes[16], 1);
        assert_eq!(bytes.len(), 16 + 1 + 16);
        let mut r = Reader::new(&bytes);
        assert_eq!(r.u16().unwrap(), 0x0102);
        assert_eq!(r.u64().unwrap(), 1);
        assert_eq!(r.string().unwrap(), "ab");
        assert_eq!(r.option(|r| r.u128()).unwrap(), Some(7));
        r.finish().unwrap();
    }

    #[test]
    fn lengths_past_the_end_and_bad_tags_are_refused_without_allocating() {
        // A vector claiming u32::MAX elements in 4 bytes (a byte string, too): refused at
        // its length, before any element is read or any room made for one.
        let mut r = Reader::new(&[0xff, 0xff, 0xff, 0xff]);
        let mut read = 0;
        let err = r
            .seq(|r| {
                read += 1;
                r.u8()
            })
            .unwrap_err();
        assert_eq!(read, 0, "no element read");
        assert_eq!(
            err.kind,
            BorshErrorKind::LengthPastEnd {
                length: u32::MAX,
                remaining: 0
            }
        );
        assert_eq!(err.offset, 0);
        let err = Reader::new(&[0xff, 0xff, 0xff, 0xff]).bytes().unwrap_err();
        assert!(
            matches!(
                err.kind,
                BorshErrorKind::LengthPastEnd {
                    length: u32::MAX,
                    ..
                }
            ),
            "{err}"
        );
        let err = Reader::new(&[2]).option(|r| r.u8()).unwrap_err();
        assert_eq!(
            err.kind,
            BorshErrorKind::UnknownTag {
                of: "Option",
                tag: 2
            }
        );
        let err = Reader::new(&[1, 0]).u64().unwrap_err();
        assert_eq!(
            err.kind,
            BorshErrorKind::UnexpectedEnd {
                needed: 8,
                remaining: 2
            }
        );
        let err = Reader::new(&[1, 0, 0, 0, 0xff]).string().unwrap_err();
        assert!(err.to_string().contains("not UTF-8"), "{err}");
        let err = Reader::new(&[1]).finish().unwrap_err();
        assert_eq!(err.to_string(), "1 bytes left after the value (at byte 0)");
    }

    #[test]
    fn paths_read_outermost_first() {
        let err = Reader::new(&[])
            .error(BorshErrorKind::Invalid("x".into()))
            .in_field("args")
            .in_field("FunctionCall")
            .in_index(2)
            .in_field("actions");
        assert_eq!(err.path, "actions[2].FunctionCall.args");
    }
}
