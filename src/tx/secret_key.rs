//! [`SecretKey`]: an ed25519, secp256k1 or (feature `nearcore_0_38_0`) ML-DSA-65
//! signing key in NEAR's text forms, which signs and never shows itself.
//!
//! The redaction promise extends to it: no Display, a Debug that shows only the public
//! key, errors that never quote the text they were given, and memory wiped on drop
//! (the curve crates' own zeroizing types, aws-lc's key objects, which it cleanses when
//! freed, and [`Zeroizing`] around every buffer that held the text or bytes).

use std::fmt;
use std::str::FromStr;

use ed25519_dalek::Signer as _;
use zeroize::Zeroizing;

use super::signature::prehash;
use crate::primitives::KeyType;
use crate::primitives::PublicKey;
use crate::primitives::Signature;

/// A secret key that signs transactions.
///
/// Parsed from NEAR's text forms: `ed25519:<base58>` of the 64-byte keypair (seed then
/// public key, what near-cli writes) or of the 32-byte seed, and `secp256k1:<base58>` of
/// the 32-byte secret scalar. Without a prefix, ed25519 (as nearcore reads keys).
///
/// With the `nearcore_0_38_0` feature (`latest`), also `ml-dsa-65:<base58>` of the raw
/// 4032-byte expanded FIPS 204 secret key, the form nearcore 0.38's key files hold (its
/// `SecretKey::from_str` reads that form only); builds without the feature refuse it
/// by name ([`ParseSecretKeyError::NeedsFeature`]).
///
/// It has no [`Display`](fmt::Display); [`Debug`](fmt::Debug) shows the public key only.
/// [`SecretKey::to_secret_string`] is the one way to get the text back.
#[derive(Clone)]
pub struct SecretKey(Curve);

#[derive(Clone)]
enum Curve {
    // Both zeroize on drop (ed25519-dalek's `zeroize` feature; k256 always).
    Ed25519(ed25519_dalek::SigningKey),
    Secp256k1(k256::ecdsa::SigningKey),
    // aws-lc frees the key with `EVP_PKEY_free`, which cleanses it. Boxed: the public
    // key beside it is 2 KiB.
    #[cfg(feature = "nearcore_0_38_0")]
    MlDsa65(Box<MlDsa65Key>),
}

/// An ML-DSA-65 key as aws-lc-rs holds it, with its public key computed once.
#[cfg(feature = "nearcore_0_38_0")]
#[derive(Clone)]
struct MlDsa65Key {
    pair: aws_lc_rs::signature::PqdsaKeyPair,
    public: PublicKey,
}

/// Bytes of an ML-DSA-65 expanded secret key (FIPS 204; nearcore 0.38,
/// `ML_DSA_65_SECRET_KEY_LENGTH`).
#[cfg(feature = "nearcore_0_38_0")]
const ML_DSA_65_SECRET_KEY_LEN: usize = 4032;

/// The longest data (after the prefix) read for a key type: well past the longest
/// base58 of its forms, and short enough that a pasted file costs nothing to refuse.
fn max_data_chars(key_type: KeyType) -> usize {
    match key_type {
        KeyType::Ed25519 | KeyType::Secp256k1 => 100,
        // 4032 bytes are at most 5508 base58 characters.
        #[cfg(feature = "nearcore_0_38_0")]
        KeyType::MlDsa65 => 5600,
    }
}

/// Why text is not a [`SecretKey`]. Never quotes the text: it may be most of a key.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseSecretKeyError {
    /// The prefix before `:` is not `ed25519` or `secp256k1` (or `ml-dsa-65` with the
    /// `nearcore_0_38_0` feature).
    UnknownKeyType,
    /// `ml-dsa-65:` in a build without the `nearcore_0_38_0` (`latest`) feature.
    NeedsFeature {
        /// The prefix.
        key_type: &'static str,
    },
    /// An `ml-dsa-65-hash:` access key handle: the hash of a public key, not a key.
    HandleNotKey,
    /// An ML-DSA-65 secret key of the right length that aws-lc refuses (coefficients
    /// out of range).
    InvalidMlDsaKey,
    /// A character outside the base58 alphabet, at this position of the data.
    InvalidBase58 {
        /// Position in the data part (after the prefix), in characters from 0.
        position: usize,
    },
    /// The data decoded to a length the curve has no form for.
    WrongLength {
        /// The curve.
        key_type: KeyType,
        /// Bytes decoded.
        actual: usize,
    },
    /// The data is far longer than any form of the curve (it was not decoded).
    TooLong {
        /// The curve.
        key_type: KeyType,
        /// Length of the data, in characters.
        chars: usize,
    },
    /// A 64-byte ed25519 keypair whose public half is not the seed's public key.
    KeypairMismatch,
    /// A secp256k1 scalar that is zero or not below the curve order.
    InvalidScalar,
}

impl fmt::Display for ParseSecretKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownKeyType => {
                #[cfg(feature = "nearcore_0_38_0")]
                let expected = "\"ed25519:\", \"secp256k1:\" or \"ml-dsa-65:\"";
                #[cfg(not(feature = "nearcore_0_38_0"))]
                let expected = "\"ed25519:\" or \"secp256k1:\"";
                write!(f, "unknown curve (expected {expected})")
            }
            Self::NeedsFeature { key_type } => write!(
                f,
                "{key_type} keys need the nearcore_0_38_0 (latest) feature"
            ),
            Self::HandleNotKey => f.write_str(
                "an `ml-dsa-65-hash:` access key handle is the hash of a public key, not a \
                 secret key",
            ),
            Self::InvalidMlDsaKey => {
                f.write_str("not a valid ml-dsa-65 secret key (aws-lc refuses its encoding)")
            }
            Self::InvalidBase58 { position } => {
                write!(f, "bad base58: invalid character at position {position}")
            }
            Self::WrongLength { key_type, actual } => match key_type {
                KeyType::Ed25519 => write!(
                    f,
                    "an ed25519 secret key is 64 bytes (keypair) or 32 (seed), not {actual}"
                ),
                KeyType::Secp256k1 => {
                    write!(f, "a secp256k1 secret key is 32 bytes, not {actual}")
                }
                #[cfg(feature = "nearcore_0_38_0")]
                KeyType::MlDsa65 => write!(
                    f,
                    "an ml-dsa-65 secret key is {ML_DSA_65_SECRET_KEY_LEN} bytes (the expanded \
                     key nearcore writes), not {actual}"
                ),
            },
            Self::TooLong { key_type, chars } => write!(
                f,
                "{chars} characters is far too long for a {key_type} secret key"
            ),
            Self::KeypairMismatch => {
                f.write_str("the ed25519 keypair's public half is not the public key of its seed")
            }
            Self::InvalidScalar => f.write_str("not a valid secp256k1 secret scalar"),
        }
    }
}

impl std::error::Error for ParseSecretKeyError {}

impl SecretKey {
    /// An ed25519 key from its 32-byte seed.
    pub fn ed25519_from_seed(seed: &[u8; 32]) -> Self {
        Self(Curve::Ed25519(ed25519_dalek::SigningKey::from_bytes(seed)))
    }

    /// A secp256k1 key from its 32-byte secret scalar.
    pub fn secp256k1_from_bytes(bytes: &[u8; 32]) -> Result<Self, ParseSecretKeyError> {
        k256::ecdsa::SigningKey::from_slice(bytes)
            .map(|key| Self(Curve::Secp256k1(key)))
            .map_err(|_| ParseSecretKeyError::InvalidScalar)
    }

    /// An ML-DSA-65 key from its raw 4032-byte expanded FIPS 204 encoding (what
    /// nearcore 0.38's key files hold), checked by aws-lc.
    #[cfg(feature = "nearcore_0_38_0")]
    pub fn ml_dsa_65_from_bytes(bytes: &[u8]) -> Result<Self, ParseSecretKeyError> {
        use aws_lc_rs::signature::KeyPair as _;
        if bytes.len() != ML_DSA_65_SECRET_KEY_LEN {
            return Err(ParseSecretKeyError::WrongLength {
                key_type: KeyType::MlDsa65,
                actual: bytes.len(),
            });
        }
        let pair = aws_lc_rs::signature::PqdsaKeyPair::from_raw_private_key(
            &aws_lc_rs::signature::ML_DSA_65_SIGNING,
            bytes,
        )
        .map_err(|_| ParseSecretKeyError::InvalidMlDsaKey)?;
        let public = PublicKey::from_parts(KeyType::MlDsa65, pair.public_key().as_ref())
            .map_err(|_| ParseSecretKeyError::InvalidMlDsaKey)?;
        Ok(Self(Curve::MlDsa65(Box::new(MlDsa65Key { pair, public }))))
    }

    /// The curve.
    pub fn key_type(&self) -> KeyType {
        match &self.0 {
            Curve::Ed25519(_) => KeyType::Ed25519,
            Curve::Secp256k1(_) => KeyType::Secp256k1,
            #[cfg(feature = "nearcore_0_38_0")]
            Curve::MlDsa65(_) => KeyType::MlDsa65,
        }
    }

    /// The public key.
    pub fn public_key(&self) -> PublicKey {
        match &self.0 {
            Curve::Ed25519(key) => PublicKey::ed25519(key.verifying_key().to_bytes()),
            Curve::Secp256k1(key) => {
                let point = key.verifying_key().to_encoded_point(false);
                // Uncompressed SEC1 is 0x04, x, y: nearcore keeps x and y.
                let mut bytes = [0; 64];
                bytes.copy_from_slice(&point.as_bytes()[1..]);
                PublicKey::secp256k1(bytes)
            }
            #[cfg(feature = "nearcore_0_38_0")]
            Curve::MlDsa65(key) => key.public.clone(),
        }
    }

    /// Signs `message`. What is hashed, and by whom:
    ///
    /// - ed25519 signs the bytes of `message` (ed25519 hashes internally, as always).
    /// - secp256k1 signs a 32-byte `message` as the ECDSA prehash, unchanged: NEAR passes
    ///   a hash it computed, a transaction's (sha256 of its borsh bytes, which
    ///   [`Transaction::sign`](super::Transaction::sign) passes) or a delegate action's
    ///   [`signable_hash`](super::DelegateAction::signable_hash). The signature is
    ///   deterministic (RFC 6979), low-s, and carries its recovery id as a 65th byte, as
    ///   nearcore's. A `message` of any other length, which nearcore refuses to sign, is
    ///   hashed here with sha256 first, and the signature is of that hash:
    ///   [`verify`](super::verify), like nearcore's, takes only the 32-byte hash, so verify
    ///   it with `sha256(message)`, not with `message`.
    /// - ML-DSA-65 (feature `nearcore_0_38_0`) signs the bytes of `message` (pure FIPS 204
    ///   ML-DSA, empty context), with aws-lc-rs as nearcore 0.38 does; the signature is
    ///   randomized (hedged), so two signatures of one message differ, and both verify.
    pub fn sign(&self, message: &[u8]) -> Signature {
        match &self.0 {
            Curve::Ed25519(key) => Signature::ed25519(key.sign(message).to_bytes()),
            Curve::Secp256k1(key) => {
                let digest = prehash(message);
                // A 32-byte prehash never fails to sign with a valid key.
                let (signature, recovery) = key
                    .sign_prehash_recoverable(&digest)
                    .unwrap_or_else(|e| unreachable!("secp256k1 prehash signing: {e}"));
                let mut bytes = [0; 65];
                bytes[..64].copy_from_slice(&signature.to_bytes());
                bytes[64] = recovery.to_byte();
                Signature::secp256k1(bytes)
            }
            #[cfg(feature = "nearcore_0_38_0")]
            Curve::MlDsa65(key) => {
                let mut bytes = Box::new([0; crate::primitives::keys::ML_DSA_65_SIGNATURE_LEN]);
                // The buffer is the algorithm's signature length: signing cannot fail.
                key.pair
                    .sign(message, &mut bytes[..])
                    .unwrap_or_else(|e| unreachable!("ML-DSA-65 signing: {e}"));
                Signature::ml_dsa_65(bytes)
            }
        }
    }

    /// The key's text (`ed25519:` and the 64-byte keypair, as near-cli writes it,
    /// `secp256k1:` and the scalar, or `ml-dsa-65:` and the 4032-byte expanded key, as
    /// nearcore 0.38 writes it), wiped when dropped. For writing a credential file the
    /// user asked for; never log it.
    pub fn to_secret_string(&self) -> Zeroizing<String> {
        let bytes: Zeroizing<Vec<u8>> = match &self.0 {
            Curve::Ed25519(key) => {
                let pair = Zeroizing::new(key.to_keypair_bytes());
                Zeroizing::new(pair.to_vec())
            }
            Curve::Secp256k1(key) => Zeroizing::new(key.to_bytes().to_vec()),
            #[cfg(feature = "nearcore_0_38_0")]
            Curve::MlDsa65(key) => {
                use aws_lc_rs::encoding::AsRawBytes as _;
                // aws-lc-rs's buffer zeroizes itself on drop.
                let raw = key
                    .pair
                    .private_key()
                    .as_raw_bytes()
                    .unwrap_or_else(|e| unreachable!("ML-DSA-65 raw private key: {e}"));
                Zeroizing::new(raw.as_ref().to_vec())
            }
        };
        // Room for the whole text up front: a `String` that grows leaves its old,
        // unwiped buffer behind.
        let capacity = self.key_type().as_str().len() + 1 + bytes.len() * 2;
        let mut text = Zeroizing::new(String::with_capacity(capacity));
        text.push_str(self.key_type().as_str());
        text.push(':');
        let encoded = Zeroizing::new(bs58::encode(&*bytes).into_string());
        text.push_str(&encoded);
        text
    }
}

impl FromStr for SecretKey {
    type Err = ParseSecretKeyError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (key_type, data) = match text.split_once(':') {
            Some((prefix, data)) => (
                prefix.parse::<KeyType>().map_err(|e| match e {
                    crate::primitives::ParseKeyError::NeedsFeature { key_type } => {
                        ParseSecretKeyError::NeedsFeature { key_type }
                    }
                    crate::primitives::ParseKeyError::HandleNotKey => {
                        ParseSecretKeyError::HandleNotKey
                    }
                    _ => ParseSecretKeyError::UnknownKeyType,
                })?,
                data,
            ),
            None => (KeyType::Ed25519, text),
        };
        // Longer text than any form needs is refused before decoding, so that a file's
        // whole content pasted here costs nothing.
        if data.len() > max_data_chars(key_type) {
            return Err(ParseSecretKeyError::TooLong {
                key_type,
                chars: data.len(),
            });
        }
        let bytes = Zeroizing::new(bs58::decode(data).into_vec().map_err(|e| match e {
            bs58::decode::Error::InvalidCharacter { index, .. } => {
                ParseSecretKeyError::InvalidBase58 { position: index }
            }
            _ => ParseSecretKeyError::InvalidBase58 { position: 0 },
        })?);
        match (key_type, bytes.len()) {
            (KeyType::Ed25519, 32) => {
                let mut seed = Zeroizing::new([0; 32]);
                seed.copy_from_slice(&bytes);
                Ok(Self::ed25519_from_seed(&seed))
            }
            (KeyType::Ed25519, 64) => {
                let mut seed = Zeroizing::new([0; 32]);
                seed.copy_from_slice(&bytes[..32]);
                let key = Self::ed25519_from_seed(&seed);
                if key.public_key().as_bytes() != &bytes[32..] {
                    return Err(ParseSecretKeyError::KeypairMismatch);
                }
                Ok(key)
            }
            (KeyType::Secp256k1, 32) => {
                let mut scalar = Zeroizing::new([0; 32]);
                scalar.copy_from_slice(&bytes);
                Self::secp256k1_from_bytes(&scalar)
            }
            #[cfg(feature = "nearcore_0_38_0")]
            (KeyType::MlDsa65, _) => Self::ml_dsa_65_from_bytes(&bytes),
            (key_type, actual) => Err(ParseSecretKeyError::WrongLength { key_type, actual }),
        }
    }
}

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SecretKey(public {}, secret redacted)",
            self.public_key()
        )
    }
}

impl PartialEq for SecretKey {
    /// Two keys are equal when their public keys are (a public key has one secret).
    fn eq(&self, other: &Self) -> bool {
        self.public_key() == other.public_key()
    }
}

impl Eq for SecretKey {}

#[cfg(test)]
mod tests {
    use super::super::verify;
    use super::*;
    use crate::primitives::CryptoHash;

    const SEED_TEXT: &str = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3";

    #[test]
    fn the_keypair_and_seed_forms_are_one_key_and_the_text_round_trips() {
        let keypair: SecretKey = SEED_TEXT.parse().unwrap();
        let seed_bytes = bs58::decode(&SEED_TEXT[8..]).into_vec().unwrap();
        let seed_text = format!("ed25519:{}", bs58::encode(&seed_bytes[..32]).into_string());
        let seed: SecretKey = seed_text.parse().unwrap();
        assert_eq!(keypair, seed);
        assert_eq!(&*keypair.to_secret_string(), SEED_TEXT);
        // No prefix: ed25519.
        assert_eq!(SEED_TEXT[8..].parse::<SecretKey>().unwrap(), keypair);
    }

    #[test]
    fn a_secret_key_never_shows_in_debug_or_errors() {
        let key: SecretKey = SEED_TEXT.parse().unwrap();
        let debug = format!("{key:?}");
        assert!(!debug.contains(&SEED_TEXT[8..20]), "{debug}");
        assert!(debug.contains(&key.public_key().to_string()), "{debug}");
        // A mangled key: the error names what is wrong, never the text.
        let mut bad = SEED_TEXT.to_owned();
        bad.replace_range(20..21, "0");
        let err = bad.parse::<SecretKey>().unwrap_err().to_string();
        assert_eq!(err, "bad base58: invalid character at position 12");
        let short = &SEED_TEXT[..40];
        let err = short.parse::<SecretKey>().unwrap_err().to_string();
        assert!(
            err.starts_with("an ed25519 secret key is 64 bytes"),
            "{err}"
        );
        assert!(!err.contains(&short[8..]), "{err}");
        let err = format!("{:?}", "rsa:abc".parse::<SecretKey>().unwrap_err());
        assert!(!err.contains("abc"), "{err}");
        // A handle is not a key; an ml-dsa-65 key needs the feature, or is read.
        assert_eq!(
            "ml-dsa-65-hash:abc".parse::<SecretKey>().unwrap_err(),
            ParseSecretKeyError::HandleNotKey
        );
        #[cfg(not(feature = "nearcore_0_38_0"))]
        assert_eq!(
            "ml-dsa-65:abc".parse::<SecretKey>().unwrap_err(),
            ParseSecretKeyError::NeedsFeature {
                key_type: "ml-dsa-65"
            }
        );
        #[cfg(feature = "nearcore_0_38_0")]
        assert_eq!(
            "ml-dsa-65:abc".parse::<SecretKey>().unwrap_err(),
            ParseSecretKeyError::WrongLength {
                key_type: KeyType::MlDsa65,
                actual: 3
            }
        );
    }

    #[test]
    fn a_keypair_with_the_wrong_public_half_is_refused() {
        let mut bytes = bs58::decode(&SEED_TEXT[8..]).into_vec().unwrap();
        bytes[63] ^= 1;
        let text = format!("ed25519:{}", bs58::encode(&bytes).into_string());
        assert_eq!(
            text.parse::<SecretKey>().unwrap_err(),
            ParseSecretKeyError::KeypairMismatch
        );
    }

    #[test]
    fn both_curves_sign_what_verify_accepts() {
        let message = CryptoHash::hash_bytes(b"a transaction").0;
        let ed: SecretKey = SEED_TEXT.parse().unwrap();
        let secp = SecretKey::secp256k1_from_bytes(&[7; 32]).unwrap();
        for key in [&ed, &secp] {
            let signature = key.sign(&message);
            assert_eq!(signature.key_type(), key.key_type());
            assert!(verify(&key.public_key(), &message, &signature));
            let mut other = message;
            other[0] ^= 1;
            assert!(!verify(&key.public_key(), &other, &signature));
        }
        assert!(!verify(&ed.public_key(), &message, &secp.sign(&message)));
        assert!(!verify(&secp.public_key(), &message, &ed.sign(&message)));
        // A message that is not 32 bytes: secp256k1 signs its sha256, and only that hash
        // verifies (nearcore's verify takes 32-byte messages only).
        let hello = secp.sign(b"hello");
        assert!(!verify(&secp.public_key(), b"hello", &hello));
        assert!(verify(
            &secp.public_key(),
            &CryptoHash::hash_bytes(b"hello").0,
            &hello
        ));
        // Signatures of the wrong length (nodes show empty ones as `"secp256k1:"`) and
        // of the wrong curve never verify, and never panic.
        for empty in ["ed25519:", "secp256k1:"] {
            let empty: Signature = empty.parse().unwrap();
            assert!(!verify(&secp.public_key(), &message, &empty));
            assert!(!verify(&ed.public_key(), &message, &empty));
        }
        // secp256k1 text round-trips.
        let text = secp.to_secret_string();
        assert!(text.starts_with("secp256k1:"));
        assert_eq!(text.parse::<SecretKey>().unwrap(), secp);
        assert_eq!(
            SecretKey::secp256k1_from_bytes(&[0; 32]).unwrap_err(),
            ParseSecretKeyError::InvalidScalar
        );
    }
}
