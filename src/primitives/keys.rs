//! [`PublicKey`] and [`Signature`]: curve-prefixed base58 strings such as
//! `ed25519:<base58>` or `secp256k1:<base58>`, and [`KeyHandle`], how access key lists
//! name a key.
//!
//! nearcore 0.38 adds ML-DSA-65 (FIPS 204) keys: `ml-dsa-65:<base58>` of the raw
//! 1952-byte public key or 3309-byte signature (`core/crypto/src/signature.rs`). They
//! are read and written in builds with the `nearcore_0_38_0` feature (`latest`) only;
//! other builds refuse the prefix by name, so that a key of a newer protocol is never
//! mistaken for a typo.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::base58::{self, Base58Error};

/// The curve (signature scheme) of a [`PublicKey`] or [`Signature`].
///
/// Non-exhaustive: builds with the `nearcore_0_38_0` feature have
/// `KeyType::MlDsa65` too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum KeyType {
    /// Ed25519: 32-byte public keys, 64-byte signatures.
    Ed25519,
    /// Secp256k1: 64-byte (uncompressed, no prefix byte) public keys,
    /// 65-byte recoverable signatures.
    Secp256k1,
    /// ML-DSA-65 (FIPS 204, nearcore 0.38): 1952-byte public keys, 3309-byte
    /// signatures. Access key lists show such a key by its [`KeyHandle`].
    #[cfg(feature = "nearcore_0_38_0")]
    MlDsa65,
}

/// The wire name of ML-DSA-65 keys, known to every build so that builds without the
/// feature can refuse it by name.
const ML_DSA_65: &str = "ml-dsa-65";

/// The prefix of an ML-DSA-65 key's handle in access key lists (nearcore 0.38,
/// `ML_DSA_65_HASH_PREFIX`).
const ML_DSA_65_HASH: &str = "ml-dsa-65-hash";

/// Bytes of an ML-DSA-65 public key (FIPS 204).
#[cfg(feature = "nearcore_0_38_0")]
pub(crate) const ML_DSA_65_PUBLIC_KEY_LEN: usize = 1952;
/// Bytes of an ML-DSA-65 signature (FIPS 204).
#[cfg(feature = "nearcore_0_38_0")]
pub(crate) const ML_DSA_65_SIGNATURE_LEN: usize = 3309;

impl KeyType {
    /// The wire name: `"ed25519"`, `"secp256k1"` or `"ml-dsa-65"`.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyType::Ed25519 => "ed25519",
            KeyType::Secp256k1 => "secp256k1",
            #[cfg(feature = "nearcore_0_38_0")]
            KeyType::MlDsa65 => ML_DSA_65,
        }
    }

    /// Length in bytes of a public key on this curve.
    pub fn public_key_len(self) -> usize {
        match self {
            KeyType::Ed25519 => 32,
            KeyType::Secp256k1 => 64,
            #[cfg(feature = "nearcore_0_38_0")]
            KeyType::MlDsa65 => ML_DSA_65_PUBLIC_KEY_LEN,
        }
    }

    /// Length in bytes of a signature on this curve.
    pub fn signature_len(self) -> usize {
        match self {
            KeyType::Ed25519 => 64,
            KeyType::Secp256k1 => 65,
            #[cfg(feature = "nearcore_0_38_0")]
            KeyType::MlDsa65 => ML_DSA_65_SIGNATURE_LEN,
        }
    }
}

impl fmt::Display for KeyType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for KeyType {
    type Err = ParseKeyError;

    /// Parses a curve name. Like nearcore, the comparison ignores ASCII case.
    /// `ml-dsa-65` is [`ParseKeyError::NeedsFeature`] in builds without
    /// `nearcore_0_38_0`, and the handle prefix `ml-dsa-65-hash` is
    /// [`ParseKeyError::HandleNotKey`] (a handle names a key, it is not one).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("ed25519") {
            Ok(KeyType::Ed25519)
        } else if s.eq_ignore_ascii_case("secp256k1") {
            Ok(KeyType::Secp256k1)
        } else if s.eq_ignore_ascii_case(ML_DSA_65) {
            #[cfg(feature = "nearcore_0_38_0")]
            return Ok(KeyType::MlDsa65);
            #[cfg(not(feature = "nearcore_0_38_0"))]
            return Err(ParseKeyError::NeedsFeature {
                key_type: ML_DSA_65,
            });
        } else if s.eq_ignore_ascii_case(ML_DSA_65_HASH) {
            Err(ParseKeyError::HandleNotKey)
        } else {
            Err(ParseKeyError::UnknownKeyType {
                key_type: s.to_owned(),
            })
        }
    }
}

/// Why a string is not a valid [`KeyType`], [`PublicKey`] or [`Signature`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseKeyError {
    /// The prefix before `:` is not a known curve.
    UnknownKeyType {
        /// The prefix as written.
        key_type: String,
    },
    /// The data after the prefix contains a character outside the base58 alphabet.
    InvalidBase58 {
        /// The offending character.
        character: char,
        /// Its position in the data part (after the prefix), in characters from 0.
        position: usize,
    },
    /// The data decoded to the wrong number of bytes for the curve.
    WrongLength {
        /// The curve named by the prefix (ed25519 when there is no prefix).
        key_type: KeyType,
        /// The number of bytes required.
        expected: usize,
        /// The number of bytes decoded.
        actual: usize,
    },
    /// The data is far too long for the curve (it was not decoded).
    TooLong {
        /// The curve named by the prefix (ed25519 when there is no prefix).
        key_type: KeyType,
        /// The number of bytes required.
        expected: usize,
        /// Length of the base58 data, in characters.
        chars: usize,
    },
    /// A key type of a newer protocol than this build reads: `ml-dsa-65` without the
    /// `nearcore_0_38_0` (`latest`) feature.
    NeedsFeature {
        /// The prefix, as nearcore writes it.
        key_type: &'static str,
    },
    /// An access key handle (`ml-dsa-65-hash:`) where a key or signature was expected:
    /// a handle is the hash of a key, which cannot verify anything. [`KeyHandle`]
    /// reads it.
    HandleNotKey,
    /// A full `ml-dsa-65:` public key where a [`KeyHandle`] was expected: the chain
    /// names such a key by its hash ([`PublicKey::handle`] computes it), as nearcore's
    /// `PublicKeyHandle` parsing requires.
    KeyNotHandle,
}

impl fmt::Display for ParseKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseKeyError::UnknownKeyType { key_type } => {
                write!(f, "unknown curve {key_type:?} (expected {})", KNOWN_CURVES)
            }
            ParseKeyError::InvalidBase58 {
                character,
                position,
            } => write!(
                f,
                "bad base58: invalid character {character:?} at position {position}"
            ),
            ParseKeyError::WrongLength {
                key_type,
                expected,
                actual,
            } => write!(
                f,
                "wrong length {actual} for curve {key_type}: expected {expected} bytes"
            ),
            ParseKeyError::TooLong {
                key_type,
                expected,
                chars,
            } => write!(
                f,
                "base58 data of {chars} characters is too long for curve {key_type} \
                 ({expected} bytes)"
            ),
            ParseKeyError::NeedsFeature { key_type } => write!(
                f,
                "{key_type} keys need the nearcore_0_38_0 (latest) feature"
            ),
            ParseKeyError::HandleNotKey => f.write_str(
                "an `ml-dsa-65-hash:` access key handle is the hash of a key, not a key: \
                 give the full `ml-dsa-65:` public key",
            ),
            ParseKeyError::KeyNotHandle => f.write_str(
                "a full `ml-dsa-65:` key is not an access key handle: the chain names it by \
                 its `ml-dsa-65-hash:` digest",
            ),
        }
    }
}

impl std::error::Error for ParseKeyError {}

/// The curve names this build reads, for error messages.
#[cfg(feature = "nearcore_0_38_0")]
const KNOWN_CURVES: &str = "\"ed25519\", \"secp256k1\" or \"ml-dsa-65\"";
#[cfg(not(feature = "nearcore_0_38_0"))]
const KNOWN_CURVES: &str = "\"ed25519\" or \"secp256k1\"";

/// Splits `curve:data`; a string without `:` is ed25519 data, as in nearcore.
fn split_key_type(s: &str) -> Result<(KeyType, &str), ParseKeyError> {
    // A byte search: the prefix is a few bytes, too short for `split_once`'s memchr
    // to pay off, and keys fill responses.
    match s.bytes().position(|b| b == b':') {
        Some(colon) => Ok((s[..colon].parse()?, &s[colon + 1..])),
        None => Ok((KeyType::Ed25519, s)),
    }
}

/// Decodes `data` into exactly `N` bytes, mapping errors to [`ParseKeyError`].
fn decode<const N: usize>(key_type: KeyType, data: &str) -> Result<[u8; N], ParseKeyError> {
    base58::decode_array::<N>(data).map_err(|e| match e {
        Base58Error::InvalidCharacter {
            character,
            position,
        } => ParseKeyError::InvalidBase58 {
            character,
            position,
        },
        Base58Error::TooLong { chars } => ParseKeyError::TooLong {
            key_type,
            expected: N,
            chars,
        },
        Base58Error::WrongLength { actual } => ParseKeyError::WrongLength {
            key_type,
            expected: N,
            actual,
        },
    })
}

/// Decodes `data` into exactly `N` bytes on the heap: ML-DSA-65 values, too large for
/// [`decode`]'s fixed-size decoder.
#[cfg(feature = "nearcore_0_38_0")]
fn decode_boxed<const N: usize>(
    key_type: KeyType,
    data: &str,
) -> Result<Box<[u8; N]>, ParseKeyError> {
    let bytes = base58::decode_exact(data, N).map_err(|e| match e {
        Base58Error::InvalidCharacter {
            character,
            position,
        } => ParseKeyError::InvalidBase58 {
            character,
            position,
        },
        Base58Error::TooLong { chars } => ParseKeyError::TooLong {
            key_type,
            expected: N,
            chars,
        },
        Base58Error::WrongLength { actual } => ParseKeyError::WrongLength {
            key_type,
            expected: N,
            actual,
        },
    })?;
    let actual = bytes.len();
    bytes
        .into_boxed_slice()
        .try_into()
        .map_err(|_| ParseKeyError::WrongLength {
            key_type,
            expected: N,
            actual,
        })
}

/// Copies `bytes` into an array of length `N`, or reports the wrong length.
fn to_array<const N: usize>(key_type: KeyType, bytes: &[u8]) -> Result<[u8; N], ParseKeyError> {
    <[u8; N]>::try_from(bytes).map_err(|_| ParseKeyError::WrongLength {
        key_type,
        expected: N,
        actual: bytes.len(),
    })
}

/// Writes `curve:base58`.
fn write_prefixed(f: &mut fmt::Formatter<'_>, key_type: KeyType, bytes: &[u8]) -> fmt::Result {
    write!(f, "{key_type}:{}", base58::encode(bytes))
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum PublicKeyData {
    Ed25519([u8; 32]),
    Secp256k1([u8; 64]),
    // Boxed, as nearcore does: inline, every key would be 2 KiB.
    #[cfg(feature = "nearcore_0_38_0")]
    MlDsa65(Box<[u8; ML_DSA_65_PUBLIC_KEY_LEN]>),
}

/// A public key: `ed25519:<base58 of 32 bytes>` or `secp256k1:<base58 of 64 bytes>`,
/// and with the `nearcore_0_38_0` feature `ml-dsa-65:<base58 of 1952 bytes>`.
///
/// Parsing accepts a string without a prefix as ed25519 and ignores the case of
/// the prefix (both as nearcore does); [`Display`](fmt::Display) always writes
/// the lowercase prefix, so canonical input round-trips byte for byte.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PublicKey(PublicKeyData);

impl PublicKey {
    /// Builds a key from its curve and raw bytes, checking the length.
    pub fn from_parts(key_type: KeyType, bytes: &[u8]) -> Result<Self, ParseKeyError> {
        Ok(PublicKey(match key_type {
            KeyType::Ed25519 => PublicKeyData::Ed25519(to_array(key_type, bytes)?),
            KeyType::Secp256k1 => PublicKeyData::Secp256k1(to_array(key_type, bytes)?),
            #[cfg(feature = "nearcore_0_38_0")]
            KeyType::MlDsa65 => PublicKeyData::MlDsa65(Box::new(to_array(key_type, bytes)?)),
        }))
    }

    /// Builds an ed25519 key.
    pub fn ed25519(bytes: [u8; 32]) -> Self {
        PublicKey(PublicKeyData::Ed25519(bytes))
    }

    /// Builds a secp256k1 key (64 bytes, uncompressed, without the `0x04` prefix).
    pub fn secp256k1(bytes: [u8; 64]) -> Self {
        PublicKey(PublicKeyData::Secp256k1(bytes))
    }

    /// Builds an ML-DSA-65 key (the raw 1952-byte FIPS 204 encoding).
    #[cfg(feature = "nearcore_0_38_0")]
    pub fn ml_dsa_65(bytes: Box<[u8; ML_DSA_65_PUBLIC_KEY_LEN]>) -> Self {
        PublicKey(PublicKeyData::MlDsa65(bytes))
    }

    /// The curve of the key.
    pub fn key_type(&self) -> KeyType {
        match self.0 {
            PublicKeyData::Ed25519(_) => KeyType::Ed25519,
            PublicKeyData::Secp256k1(_) => KeyType::Secp256k1,
            #[cfg(feature = "nearcore_0_38_0")]
            PublicKeyData::MlDsa65(_) => KeyType::MlDsa65,
        }
    }

    /// The raw key bytes (32 for ed25519, 64 for secp256k1, 1952 for ML-DSA-65).
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            PublicKeyData::Ed25519(b) => b,
            PublicKeyData::Secp256k1(b) => b,
            #[cfg(feature = "nearcore_0_38_0")]
            PublicKeyData::MlDsa65(b) => &b[..],
        }
    }

    /// How access key lists (`view_access_key_list`) and the chain's state name this
    /// key: the key itself for ed25519 and secp256k1, the `ml-dsa-65-hash:` digest for
    /// ML-DSA-65.
    pub fn handle(&self) -> KeyHandle {
        KeyHandle::of(self)
    }
}

impl FromStr for PublicKey {
    type Err = ParseKeyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (key_type, data) = split_key_type(s)?;
        Ok(PublicKey(match key_type {
            KeyType::Ed25519 => PublicKeyData::Ed25519(decode(key_type, data)?),
            KeyType::Secp256k1 => PublicKeyData::Secp256k1(decode(key_type, data)?),
            #[cfg(feature = "nearcore_0_38_0")]
            KeyType::MlDsa65 => PublicKeyData::MlDsa65(decode_boxed(key_type, data)?),
        }))
    }
}

impl fmt::Display for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_prefixed(f, self.key_type(), self.as_bytes())
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({self})")
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum SignatureData {
    Ed25519([u8; 64]),
    Secp256k1([u8; 65]),
    #[cfg(feature = "nearcore_0_38_0")]
    MlDsa65(Box<[u8; ML_DSA_65_SIGNATURE_LEN]>),
    Empty(KeyType),
}

/// A signature: `ed25519:<base58 of 64 bytes>` or `secp256k1:<base58 of 65 bytes>`,
/// and with the `nearcore_0_38_0` feature `ml-dsa-65:<base58 of 3309 bytes>`.
///
/// Parsing follows the same rules as [`PublicKey`], with one addition: real testnet
/// replies carry `"ed25519:"` with no bytes (a placeholder signature), so an empty
/// signature is accepted and round-trips; [`Signature::is_empty`] tells it apart.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Signature(SignatureData);

impl Signature {
    /// Builds a signature from its curve and raw bytes, checking the length.
    pub fn from_parts(key_type: KeyType, bytes: &[u8]) -> Result<Self, ParseKeyError> {
        Ok(Signature(match key_type {
            KeyType::Ed25519 => SignatureData::Ed25519(to_array(key_type, bytes)?),
            KeyType::Secp256k1 => SignatureData::Secp256k1(to_array(key_type, bytes)?),
            #[cfg(feature = "nearcore_0_38_0")]
            KeyType::MlDsa65 => SignatureData::MlDsa65(Box::new(to_array(key_type, bytes)?)),
        }))
    }

    /// Builds an ed25519 signature.
    pub fn ed25519(bytes: [u8; 64]) -> Self {
        Signature(SignatureData::Ed25519(bytes))
    }

    /// Builds a secp256k1 signature (65 bytes: r, s, recovery id).
    pub fn secp256k1(bytes: [u8; 65]) -> Self {
        Signature(SignatureData::Secp256k1(bytes))
    }

    /// Builds an ML-DSA-65 signature (the raw 3309-byte FIPS 204 encoding).
    #[cfg(feature = "nearcore_0_38_0")]
    pub fn ml_dsa_65(bytes: Box<[u8; ML_DSA_65_SIGNATURE_LEN]>) -> Self {
        Signature(SignatureData::MlDsa65(bytes))
    }

    /// The curve of the signature.
    pub fn key_type(&self) -> KeyType {
        match self.0 {
            SignatureData::Ed25519(_) => KeyType::Ed25519,
            SignatureData::Secp256k1(_) => KeyType::Secp256k1,
            #[cfg(feature = "nearcore_0_38_0")]
            SignatureData::MlDsa65(_) => KeyType::MlDsa65,
            SignatureData::Empty(key_type) => key_type,
        }
    }

    /// The raw signature bytes (64 for ed25519, 65 for secp256k1, 3309 for ML-DSA-65,
    /// none when empty).
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            SignatureData::Ed25519(b) => b,
            SignatureData::Secp256k1(b) => b,
            #[cfg(feature = "nearcore_0_38_0")]
            SignatureData::MlDsa65(b) => &b[..],
            SignatureData::Empty(_) => &[],
        }
    }

    /// Whether this is the empty placeholder (`"ed25519:"`).
    pub fn is_empty(&self) -> bool {
        matches!(self.0, SignatureData::Empty(_))
    }

    /// Whether nearcore's borsh decoding reads this signature back. It refuses an ed25519
    /// signature whose last byte has any of its top three bits set (nearcore,
    /// `core/crypto/src/signature.rs`, `BorshDeserialize for Signature`: `array[63] &
    /// 0b1110_0000 != 0` is "signature error", a check ed25519-dalek 1 made), so a
    /// transaction carrying one in a delegate action cannot even be decoded by a node.
    /// No valid ed25519 signature has those bits (its `s` is below the group order, under
    /// 2^253), but one can be built or parsed: nearcore's own text parsing does not check
    /// them, and neither does this crate's, so that views of a node's data always read.
    pub fn borsh_readable(&self) -> bool {
        match &self.0 {
            SignatureData::Ed25519(bytes) => bytes[63] & 0b1110_0000 == 0,
            SignatureData::Secp256k1(_) | SignatureData::Empty(_) => true,
            #[cfg(feature = "nearcore_0_38_0")]
            SignatureData::MlDsa65(_) => true,
        }
    }
}

impl FromStr for Signature {
    type Err = ParseKeyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (key_type, data) = split_key_type(s)?;
        if data.is_empty() {
            return Ok(Signature(SignatureData::Empty(key_type)));
        }
        Ok(Signature(match key_type {
            KeyType::Ed25519 => SignatureData::Ed25519(decode(key_type, data)?),
            KeyType::Secp256k1 => SignatureData::Secp256k1(decode(key_type, data)?),
            #[cfg(feature = "nearcore_0_38_0")]
            KeyType::MlDsa65 => SignatureData::MlDsa65(decode_boxed(key_type, data)?),
        }))
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_prefixed(f, self.key_type(), self.as_bytes())
    }
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature({self})")
    }
}

/// The domain tag hashed before an ML-DSA-65 public key to make its handle (nearcore
/// 0.38, `core/crypto/src/hash_domain.rs`, `HashDomainTag::MlDsa65PubkeyHash`).
#[cfg(feature = "nearcore_0_38_0")]
const ML_DSA_65_HANDLE_DOMAIN: &[u8] = b"near:ml-dsa-65-pubkey-hash:v1";

#[derive(Clone, PartialEq, Eq, Hash)]
enum HandleData {
    /// Ed25519 and secp256k1 keys are their own handles.
    Key(PublicKey),
    /// SHA3-256 of the domain tag and the raw public key.
    #[cfg(feature = "nearcore_0_38_0")]
    MlDsa65Hash([u8; 32]),
}

/// How the chain names an access key: nearcore 0.38's `PublicKeyHandle`, what
/// `view_access_key_list` shows in `public_key` (the generated
/// [`PublicKeyHandle`](crate::types) carries it as text: parse that into this).
///
/// An ed25519 or secp256k1 key is its own handle, written as the key. An ML-DSA-65 key
/// (feature `nearcore_0_38_0`) is stored on chain by a digest only, written
/// `ml-dsa-65-hash:<base58 of 32 bytes>`: SHA3-256 of the tag
/// `near:ml-dsa-65-pubkey-hash:v1` followed by the 1952-byte key (nearcore,
/// `MlDsa65PublicKey::to_public_key_handle`). A handle cannot verify a signature; to
/// find a key of yours in a list, compare with [`PublicKey::handle`] (or
/// [`KeyHandle::is_of`]). Parsing refuses a full `ml-dsa-65:` key, as nearcore's does,
/// and builds without the feature refuse `ml-dsa-65-hash:` by name.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct KeyHandle(HandleData);

impl KeyHandle {
    fn of(key: &PublicKey) -> Self {
        match &key.0 {
            #[cfg(feature = "nearcore_0_38_0")]
            PublicKeyData::MlDsa65(bytes) => {
                let mut context = aws_lc_rs::digest::Context::new(&aws_lc_rs::digest::SHA3_256);
                context.update(ML_DSA_65_HANDLE_DOMAIN);
                context.update(&bytes[..]);
                let mut digest = [0; 32];
                digest.copy_from_slice(context.finish().as_ref());
                KeyHandle(HandleData::MlDsa65Hash(digest))
            }
            _ => KeyHandle(HandleData::Key(key.clone())),
        }
    }

    /// The scheme of the key it names.
    pub fn key_type(&self) -> KeyType {
        match &self.0 {
            HandleData::Key(key) => key.key_type(),
            #[cfg(feature = "nearcore_0_38_0")]
            HandleData::MlDsa65Hash(_) => KeyType::MlDsa65,
        }
    }

    /// The key itself, when the handle is one (ed25519, secp256k1); `None` for an
    /// ML-DSA-65 digest, from which the key cannot be recovered.
    pub fn public_key(&self) -> Option<&PublicKey> {
        match &self.0 {
            HandleData::Key(key) => Some(key),
            #[cfg(feature = "nearcore_0_38_0")]
            HandleData::MlDsa65Hash(_) => None,
        }
    }

    /// Whether this is the handle of `key`.
    pub fn is_of(&self, key: &PublicKey) -> bool {
        match &self.0 {
            HandleData::Key(own) => own == key,
            #[cfg(feature = "nearcore_0_38_0")]
            HandleData::MlDsa65Hash(_) => key.handle() == *self,
        }
    }

    /// The raw bytes after the prefix: the key's, or the 32-byte digest.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            HandleData::Key(key) => key.as_bytes(),
            #[cfg(feature = "nearcore_0_38_0")]
            HandleData::MlDsa65Hash(digest) => digest,
        }
    }
}

impl From<&PublicKey> for KeyHandle {
    fn from(key: &PublicKey) -> Self {
        KeyHandle::of(key)
    }
}

impl FromStr for KeyHandle {
    type Err = ParseKeyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // nearcore matches the handle prefix exactly (`strip_prefix`).
        if let Some(_data) = s
            .strip_prefix(ML_DSA_65_HASH)
            .and_then(|rest| rest.strip_prefix(':'))
        {
            #[cfg(feature = "nearcore_0_38_0")]
            return Ok(KeyHandle(HandleData::MlDsa65Hash(decode(
                KeyType::MlDsa65,
                _data,
            )?)));
            #[cfg(not(feature = "nearcore_0_38_0"))]
            return Err(ParseKeyError::NeedsFeature {
                key_type: ML_DSA_65,
            });
        }
        let key: PublicKey = s.parse()?;
        match key.key_type() {
            #[cfg(feature = "nearcore_0_38_0")]
            KeyType::MlDsa65 => Err(ParseKeyError::KeyNotHandle),
            _ => Ok(KeyHandle(HandleData::Key(key))),
        }
    }
}

impl fmt::Display for KeyHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            HandleData::Key(key) => fmt::Display::fmt(key, f),
            #[cfg(feature = "nearcore_0_38_0")]
            HandleData::MlDsa65Hash(digest) => {
                write!(f, "{ML_DSA_65_HASH}:{}", base58::encode(digest))
            }
        }
    }
}

impl fmt::Debug for KeyHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyHandle({self})")
    }
}

/// Serde visitor for any string-encoded type parsed with [`FromStr`].
struct StrVisitor<T> {
    what: &'static str,
    marker: std::marker::PhantomData<T>,
}

impl<T> Visitor<'_> for StrVisitor<T>
where
    T: FromStr<Err = ParseKeyError>,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {} string such as \"ed25519:<base58>\"", self.what)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        v.parse()
            .map_err(|e| E::custom(format_args!("invalid {}: {e}", self.what)))
    }
}

macro_rules! string_serde {
    ($ty:ty, $what:literal) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer.deserialize_str(StrVisitor {
                    what: $what,
                    marker: std::marker::PhantomData,
                })
            }
        }
    };
}

string_serde!(PublicKey, "public key");
string_serde!(Signature, "signature");
string_serde!(KeyType, "key type");
string_serde!(KeyHandle, "access key handle");

#[cfg(test)]
mod tests {
    use super::*;

    const ED_KEY: &str = "ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp";

    #[test]
    fn key_type_display_and_parse() {
        assert_eq!(KeyType::Ed25519.to_string(), "ed25519");
        assert_eq!(KeyType::Secp256k1.to_string(), "secp256k1");
        assert_eq!("secp256k1".parse::<KeyType>(), Ok(KeyType::Secp256k1));
        assert_eq!("ED25519".parse::<KeyType>(), Ok(KeyType::Ed25519));
        let err = "x".parse::<KeyType>().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("unknown curve \"x\" (expected {KNOWN_CURVES})")
        );
        #[cfg(not(feature = "nearcore_0_38_0"))]
        assert_eq!(KNOWN_CURVES, "\"ed25519\" or \"secp256k1\"");
        #[cfg(feature = "nearcore_0_38_0")]
        assert_eq!(KNOWN_CURVES, "\"ed25519\", \"secp256k1\" or \"ml-dsa-65\"");
        assert_eq!(
            serde_json::to_string(&KeyType::Secp256k1).expect("ser"),
            "\"secp256k1\""
        );
    }

    #[test]
    fn ed25519_public_key_round_trip() {
        let key: PublicKey = ED_KEY.parse().expect("valid key");
        assert_eq!(key.key_type(), KeyType::Ed25519);
        assert_eq!(key.as_bytes().len(), 32);
        assert_eq!(key.to_string(), ED_KEY);
        assert_eq!(format!("{key:?}"), format!("PublicKey({ED_KEY})"));
    }

    #[test]
    fn missing_prefix_means_ed25519() {
        let bare = ED_KEY.trim_start_matches("ed25519:");
        let key: PublicKey = bare.parse().expect("valid bare key");
        assert_eq!(key.key_type(), KeyType::Ed25519);
        assert_eq!(key.to_string(), ED_KEY);
    }

    #[test]
    fn secp256k1_round_trip() {
        let key = PublicKey::secp256k1([0xab; 64]);
        let s = key.to_string();
        assert!(s.starts_with("secp256k1:"), "{s}");
        assert_eq!(s.parse::<PublicKey>(), Ok(key.clone()));
        assert_eq!(key.as_bytes(), &[0xab; 64][..]);

        let sig = Signature::secp256k1([7; 65]);
        let s = sig.to_string();
        let back: Signature = s.parse().expect("valid signature");
        assert_eq!(back, sig);
        assert_eq!(back.key_type(), KeyType::Secp256k1);
        assert_eq!(back.as_bytes().len(), 65);
        assert_eq!(back.to_string(), s);
    }

    #[test]
    fn ed25519_signature_round_trip() {
        let sig = Signature::ed25519([0x11; 64]);
        let s = sig.to_string();
        assert!(s.starts_with("ed25519:"));
        let back: Signature = s.parse().expect("valid");
        assert_eq!(back, sig);
        assert_eq!(format!("{back:?}"), format!("Signature({s})"));
    }

    #[test]
    fn errors_name_the_problem() {
        let err = "x:abc".parse::<PublicKey>().unwrap_err();
        assert!(err.to_string().contains("unknown curve \"x\""), "{err}");

        let err = "ed25519:abc0".parse::<PublicKey>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "bad base58: invalid character '0' at position 3"
        );

        // A 32-byte ed25519 key is not a valid secp256k1 key.
        let data = ED_KEY.trim_start_matches("ed25519:");
        let err = format!("secp256k1:{data}")
            .parse::<PublicKey>()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "wrong length 32 for curve secp256k1: expected 64 bytes"
        );

        // An ed25519 public key is not a signature.
        let err = ED_KEY.parse::<Signature>().unwrap_err();
        assert_eq!(
            err,
            ParseKeyError::WrongLength {
                key_type: KeyType::Ed25519,
                expected: 64,
                actual: 32
            }
        );

        let err = "ed25519:".parse::<PublicKey>().unwrap_err();
        assert!(err.to_string().contains("wrong length 0"), "{err}");

        let err = format!("ed25519:{}", "z".repeat(1000))
            .parse::<PublicKey>()
            .unwrap_err();
        assert!(err.to_string().contains("1000 characters"), "{err}");
    }

    #[test]
    fn from_parts_checks_length() {
        let key = PublicKey::from_parts(KeyType::Ed25519, &[1; 32]).expect("32 bytes");
        assert_eq!(key, PublicKey::ed25519([1; 32]));
        let err = PublicKey::from_parts(KeyType::Secp256k1, &[1; 65]).unwrap_err();
        assert!(err.to_string().contains("wrong length 65"), "{err}");
        let err = Signature::from_parts(KeyType::Secp256k1, &[1; 64]).unwrap_err();
        assert!(err.to_string().contains("expected 65"), "{err}");
        assert!(Signature::from_parts(KeyType::Ed25519, &[1; 64]).is_ok());
    }

    #[test]
    fn serde_as_strings() {
        let key: PublicKey = serde_json::from_str(&format!("\"{ED_KEY}\"")).expect("de");
        assert_eq!(
            serde_json::to_string(&key).expect("ser"),
            format!("\"{ED_KEY}\"")
        );
        let err = serde_json::from_str::<PublicKey>("\"bad:key\"").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid public key: unknown curve \"bad\""),
            "{err}"
        );
        let err = serde_json::from_str::<Signature>("\"ed25519:1\"").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid signature: wrong length 1"),
            "{err}"
        );
        let err = serde_json::from_str::<Signature>("[]").unwrap_err();
        assert!(err.to_string().contains("a signature string"), "{err}");
    }

    #[test]
    fn ml_dsa_65_names_parse_by_feature_and_handles_are_not_keys() {
        #[cfg(not(feature = "nearcore_0_38_0"))]
        {
            let err = "ML-DSA-65".parse::<KeyType>().unwrap_err();
            assert_eq!(
                err,
                ParseKeyError::NeedsFeature {
                    key_type: "ml-dsa-65"
                }
            );
            assert_eq!(
                err.to_string(),
                "ml-dsa-65 keys need the nearcore_0_38_0 (latest) feature"
            );
            // Refused before the data is looked at, whatever it is.
            assert_eq!("ml-dsa-65:".parse::<Signature>().unwrap_err(), err);
        }
        #[cfg(feature = "nearcore_0_38_0")]
        {
            assert_eq!("ML-DSA-65".parse::<KeyType>(), Ok(KeyType::MlDsa65));
            assert_eq!(KeyType::MlDsa65.to_string(), "ml-dsa-65");
            assert_eq!(KeyType::MlDsa65.public_key_len(), 1952);
            assert_eq!(KeyType::MlDsa65.signature_len(), 3309);
            let key = PublicKey::ml_dsa_65(Box::new([3; 1952]));
            assert_eq!(key.to_string().parse::<PublicKey>(), Ok(key.clone()));
            assert_eq!(format!("{key:?}"), format!("PublicKey({key})"));
            let sig = Signature::ml_dsa_65(Box::new([4; 3309]));
            assert_eq!(sig.to_string().parse::<Signature>(), Ok(sig.clone()));
            assert!(sig.borsh_readable());
            let err = Signature::from_parts(KeyType::MlDsa65, &[4; 3308]).unwrap_err();
            assert_eq!(
                err.to_string(),
                "wrong length 3308 for curve ml-dsa-65: expected 3309 bytes"
            );
            let err = format!("ml-dsa-65:{}0", "2".repeat(50))
                .parse::<PublicKey>()
                .unwrap_err();
            assert_eq!(
                err.to_string(),
                "bad base58: invalid character '0' at position 50"
            );
        }
        let err = "ml-dsa-65-hash:abc".parse::<PublicKey>().unwrap_err();
        assert_eq!(err, ParseKeyError::HandleNotKey);
        assert!(
            err.to_string().starts_with(
                "an `ml-dsa-65-hash:` access key handle is the hash of a key, not a key"
            ),
            "{err}"
        );
        assert_eq!(
            "ml-dsa-65-hash".parse::<KeyType>(),
            Err(ParseKeyError::HandleNotKey)
        );
    }

    #[test]
    fn empty_signatures_round_trip() {
        let sig: Signature = "ed25519:".parse().unwrap();
        assert!(sig.is_empty());
        assert_eq!(sig.as_bytes(), &[] as &[u8]);
        assert_eq!(sig.to_string(), "ed25519:");
        assert!("ed25519:1".parse::<Signature>().is_err());
    }
}
