//! NEP-413 signed messages: how wallets and dApps prove who holds an account's key
//! without a transaction ("sign in with NEAR").
//!
//! A [`MessagePayload`] is what the user agrees to: a message, the recipient it is meant
//! for, a 32-byte nonce the recipient chose, and an optional callback URL.
//! [`MessagePayload::sign`] gives a [`SignedMessage`]: the account, the public key and
//! the signature, which is what a wallet returns. [`SignedMessage::verify`] checks it
//! against the payload the recipient expected.
//!
//! What is signed (NEP-413, `neps/nep-0413.md` in near/NEPs, "Signature"): the sha256 of
//! the borsh `u32` tag 2^31 + 413 ([`NEP413_TAG`]) followed by the borsh payload
//! (`message: String, nonce: [u8; 32], recipient: String, callback_url: Option<String>`,
//! in that order). The tag makes the bytes an impossible transaction (a signer id whose
//! length is over 2^31), so a signed message can never be replayed as one.
//! [`MessagePayload::hash`] is that hash; ed25519 signs its 32 bytes, secp256k1 signs
//! them as the ECDSA prehash, as for a transaction's hash.
//!
//! The JSON a wallet exchanges ([`SignedMessage`]'s serde form) is NEP-413's
//! `SignedMessage`: `{"accountId", "publicKey", "signature"}` with the signature in
//! standard base64 and an optional `state` a browser wallet echoes back. Reading also
//! takes the snake_case names (`account_id`, `public_key`), which command-line tools
//! print.
//!
//! ```
//! use near_rpc::tx::{MessagePayload, SecretKey, SignedMessage};
//!
//! let key: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse()?;
//! // The recipient sends a fresh nonce; exactly 32 bytes (base64 here).
//! let nonce = MessagePayload::nonce_from_base64("KNV0cOpvJ50D5vfF9pqWom8wo2sliQ4W+Wa7uZ3Uk6Y=")?;
//! let payload = MessagePayload::new("Sign in to myapp.com", "myapp.com", nonce);
//!
//! let signed = payload.sign("alice.near".parse()?, &key);
//! let json = serde_json::to_string(&signed)?; // {"accountId":..,"publicKey":..,"signature":..}
//!
//! // The recipient, with the payload it asked for:
//! let received: SignedMessage = serde_json::from_str(&json)?;
//! assert!(received.verify(&payload));
//! // ... then checks that `received.public_key` is a full-access key of
//! // `received.account_id` on chain (`view_access_key`): a signature alone proves
//! // only that the key signed.
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use base64::Engine as _;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

use super::borsh::Writer;
use super::SecretKey;
use crate::primitives::{CryptoHash, PublicKey, Signature};
use near_account_id::AccountId;

/// The prefix of every NEP-413 message: 2^31 + 413, written as a borsh `u32` before the
/// payload.
pub const NEP413_TAG: u32 = (1 << 31) + 413;

/// What a NEP-413 message signs: the message, its recipient, the recipient's nonce and
/// an optional callback URL (NEP-413's `Payload`).
///
/// The nonce is 32 bytes by type; [`MessagePayload::nonce_from_slice`] and
/// [`MessagePayload::nonce_from_base64`] refuse anything else with a
/// [`MessageError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessagePayload {
    /// The text the user agrees to.
    pub message: String,
    /// Who the message is for (`"myapp.com"`, `"alice.near"`): the party that verifies it.
    pub recipient: String,
    /// The recipient's challenge, unique per request (it stops replays).
    pub nonce: [u8; 32],
    /// The URL a browser wallet returns to; signed too when present.
    pub callback_url: Option<String>,
}

/// Why a nonce was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MessageError {
    /// The nonce is not 32 bytes.
    NonceLength {
        /// Bytes given (decoded, for base64 text).
        actual: usize,
    },
    /// The nonce text is not standard base64.
    NonceNotBase64 {
        /// What is wrong with it.
        why: String,
    },
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonceLength { actual } => {
                write!(f, "a NEP-413 nonce is 32 bytes, not {actual}")
            }
            Self::NonceNotBase64 { why } => write!(f, "the nonce is not base64: {why}"),
        }
    }
}

impl std::error::Error for MessageError {}

impl MessagePayload {
    /// A payload without a callback URL.
    pub fn new(message: impl Into<String>, recipient: impl Into<String>, nonce: [u8; 32]) -> Self {
        Self {
            message: message.into(),
            recipient: recipient.into(),
            nonce,
            callback_url: None,
        }
    }

    /// The same payload with a callback URL.
    pub fn with_callback_url(mut self, url: impl Into<String>) -> Self {
        self.callback_url = Some(url.into());
        self
    }

    /// A nonce from bytes: exactly 32, or [`MessageError::NonceLength`].
    pub fn nonce_from_slice(bytes: &[u8]) -> Result<[u8; 32], MessageError> {
        bytes.try_into().map_err(|_| MessageError::NonceLength {
            actual: bytes.len(),
        })
    }

    /// A nonce from standard base64 (how wallets and the NEP's examples pass it): text
    /// that is not base64 is [`MessageError::NonceNotBase64`], and bytes that are not
    /// 32 are [`MessageError::NonceLength`].
    pub fn nonce_from_base64(text: &str) -> Result<[u8; 32], MessageError> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(text)
            .map_err(|e| MessageError::NonceNotBase64 { why: e.to_string() })?;
        Self::nonce_from_slice(&bytes)
    }

    /// The borsh encoding of the payload alone (no tag): `message`, `nonce`,
    /// `recipient`, `callback_url`.
    pub fn to_borsh(&self) -> Vec<u8> {
        let mut w = Writer::default();
        self.encode(&mut w);
        w.into_bytes()
    }

    fn encode(&self, w: &mut Writer) {
        w.string(&self.message);
        w.fixed(&self.nonce);
        w.string(&self.recipient);
        w.option(self.callback_url.as_ref(), |w, url| w.string(url));
    }

    /// What is signed: sha256 of [`NEP413_TAG`] as a borsh `u32` followed by
    /// [`to_borsh`](Self::to_borsh).
    pub fn hash(&self) -> CryptoHash {
        let mut w = Writer::default();
        w.u32(NEP413_TAG);
        self.encode(&mut w);
        CryptoHash::hash_bytes(&w.into_bytes())
    }

    /// Signs the payload as `account_id` with `key`: the signature of
    /// [`hash`](Self::hash). NEP-413 asks for a full-access key; this does not (and
    /// cannot) check which kind the key is on chain, the verifier does.
    pub fn sign(&self, account_id: AccountId, key: &SecretKey) -> SignedMessage {
        SignedMessage {
            account_id,
            public_key: key.public_key(),
            signature: key.sign(&self.hash().0),
            state: None,
        }
    }
}

/// A signed NEP-413 message as a wallet returns it (NEP-413's `SignedMessage`): who
/// signed, with which key, and the signature. The payload is not in it: the verifier
/// knows what it asked for.
///
/// Its serde form is NEP-413's JSON, `{"accountId", "publicKey", "signature"}` (and
/// `"state"` when present), the signature in standard base64 of its raw bytes (64 for
/// ed25519, 65 for secp256k1). Deserializing also accepts `account_id` and
/// `public_key`, and a signature in NEAR's text form (`ed25519:<base58>`, which some
/// wallets return); the signature's curve is the public key's, and a signature of
/// another curve or of the wrong length for it is refused. Unknown fields are refused.
/// To print the snake_case form instead:
///
/// ```
/// # use near_rpc::tx::{MessagePayload, SecretKey};
/// # let key: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse()?;
/// # let signed = MessagePayload::new("hi", "myapp.com", [7; 32]).sign("alice.near".parse()?, &key);
/// let line = serde_json::json!({
///     "account_id": signed.account_id,
///     "public_key": signed.public_key,
///     "signature": signed.signature_base64(),
/// });
/// let back: near_rpc::tx::SignedMessage = serde_json::from_value(line)?;
/// assert_eq!(back, signed);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedMessage {
    /// The account that claims the key.
    pub account_id: AccountId,
    /// The key that signed.
    pub public_key: PublicKey,
    /// The signature of the payload's [`hash`](MessagePayload::hash).
    pub signature: Signature,
    /// The `state` a browser wallet echoes back (NEP-413, CSRF protection); not signed.
    pub state: Option<String>,
}

impl SignedMessage {
    /// Whether this is `public_key`'s signature of `payload` (of its
    /// [`hash`](MessagePayload::hash)), as [`verify`](super::verify) checks signatures.
    ///
    /// Only the signature: that the key is a full-access key of `account_id` needs the
    /// chain (`view_access_key`), and that the nonce is fresh needs the recipient's own
    /// records.
    pub fn verify(&self, payload: &MessagePayload) -> bool {
        self.signature.key_type() == self.public_key.key_type()
            && super::verify(&self.public_key, &payload.hash().0, &self.signature)
    }

    /// The signature's raw bytes in standard base64, as NEP-413's JSON carries it.
    pub fn signature_base64(&self) -> String {
        base64::engine::general_purpose::STANDARD.encode(self.signature.as_bytes())
    }
}

impl Serialize for SignedMessage {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Wire<'a> {
            account_id: &'a AccountId,
            public_key: &'a PublicKey,
            signature: String,
            #[serde(skip_serializing_if = "Option::is_none")]
            state: Option<&'a str>,
        }
        Wire {
            account_id: &self.account_id,
            public_key: &self.public_key,
            signature: self.signature_base64(),
            state: self.state.as_deref(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SignedMessage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        struct Wire {
            #[serde(alias = "account_id")]
            account_id: AccountId,
            #[serde(alias = "public_key")]
            public_key: PublicKey,
            signature: String,
            #[serde(default)]
            state: Option<String>,
        }
        let wire = Wire::deserialize(deserializer)?;
        let key_type = wire.public_key.key_type();
        // NEAR's own text form (`ed25519:<base58>`), which some wallets return: base64
        // never contains `:`, so the two cannot be confused.
        let signature = if wire.signature.contains(':') {
            let signature: Signature = wire
                .signature
                .parse()
                .map_err(|e| de::Error::custom(format_args!("`signature`: {e}")))?;
            if signature.key_type() != key_type || signature.is_empty() {
                return Err(de::Error::custom(format_args!(
                    "`signature`: not a {key_type} signature, the curve of `publicKey`"
                )));
            }
            signature
        } else {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(&wire.signature)
                .map_err(|e| de::Error::custom(format_args!("`signature` is not base64: {e}")))?;
            Signature::from_parts(key_type, &bytes)
                .map_err(|e| de::Error::custom(format_args!("`signature`: {e}")))?
        };
        Ok(Self {
            account_id: wire.account_id,
            public_key: wire.public_key,
            signature,
            state: wire.state,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3";

    #[test]
    fn the_tag_is_two_to_the_31_plus_413() {
        assert_eq!(NEP413_TAG, 2_147_484_061);
    }

    #[test]
    fn the_payload_encodes_in_the_nep_order() {
        let payload = MessagePayload::new("hi", "myapp.com", [9; 32]);
        let bytes = payload.to_borsh();
        let mut expected = vec![2, 0, 0, 0, b'h', b'i'];
        expected.extend([9; 32]);
        expected.extend([9, 0, 0, 0]);
        expected.extend(b"myapp.com");
        expected.push(0);
        assert_eq!(bytes, expected);
        let with = payload.clone().with_callback_url("u");
        let mut expected_with = expected.clone();
        *expected_with.last_mut().unwrap() = 1;
        expected_with.extend([1, 0, 0, 0, b'u']);
        assert_eq!(with.to_borsh(), expected_with);
        // The hash covers the tag: the payload alone hashes differently.
        let mut tagged = NEP413_TAG.to_le_bytes().to_vec();
        tagged.extend(&expected);
        assert_eq!(payload.hash(), CryptoHash::hash_bytes(&tagged));
        assert_ne!(payload.hash(), CryptoHash::hash_bytes(&expected));
    }

    #[test]
    fn nonces_that_are_not_32_bytes_are_refused_by_length() {
        assert_eq!(
            MessagePayload::nonce_from_slice(&[0; 28]),
            Err(MessageError::NonceLength { actual: 28 })
        );
        assert_eq!(
            MessagePayload::nonce_from_slice(&[0; 33])
                .unwrap_err()
                .to_string(),
            "a NEP-413 nonce is 32 bytes, not 33"
        );
        // 31 bytes of base64.
        let short = base64::engine::general_purpose::STANDARD.encode([1; 31]);
        assert_eq!(
            MessagePayload::nonce_from_base64(&short),
            Err(MessageError::NonceLength { actual: 31 })
        );
        let err = MessagePayload::nonce_from_base64("not base64!").unwrap_err();
        assert!(
            matches!(err, MessageError::NonceNotBase64 { .. }),
            "{err:?}"
        );
        assert!(
            err.to_string().starts_with("the nonce is not base64"),
            "{err}"
        );
        assert_eq!(MessagePayload::nonce_from_slice(&[3; 32]), Ok([3; 32]));
    }

    #[test]
    fn a_signature_verifies_only_for_its_payload_and_key() {
        let key: SecretKey = KEY.parse().unwrap();
        let payload = MessagePayload::new("hi", "myapp.com", [1; 32]);
        let signed = payload.sign("alice.near".parse().unwrap(), &key);
        assert!(signed.verify(&payload));
        let changes = [
            MessagePayload::new("hj", "myapp.com", [1; 32]),
            MessagePayload::new("hi", "myapp.co", [1; 32]),
            MessagePayload::new("hi", "myapp.com", [2; 32]),
            payload.clone().with_callback_url(""),
        ];
        for other in &changes {
            assert!(!signed.verify(other), "{other:?}");
        }
        let mut other_key = signed.clone();
        other_key.public_key = SecretKey::ed25519_from_seed(&[5; 32]).public_key();
        assert!(!other_key.verify(&payload));
        // secp256k1 signs the same hash, as a prehash.
        let secp = SecretKey::secp256k1_from_bytes(&[7; 32]).unwrap();
        let signed = payload.sign("alice.near".parse().unwrap(), &secp);
        assert_eq!(signed.signature.as_bytes().len(), 65);
        assert!(signed.verify(&payload));
        assert!(!signed.verify(&changes[0]));
    }

    #[test]
    fn the_json_is_nep_413s_and_reads_both_spellings() {
        let key: SecretKey = KEY.parse().unwrap();
        let payload = MessagePayload::new("hi", "myapp.com", [1; 32]);
        let signed = payload.sign("alice.near".parse().unwrap(), &key);
        let json = serde_json::to_value(&signed).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "accountId": "alice.near",
                "publicKey": key.public_key().to_string(),
                "signature": signed.signature_base64(),
            })
        );
        assert_eq!(
            serde_json::from_value::<SignedMessage>(json).unwrap(),
            signed
        );
        let snake = serde_json::json!({
            "account_id": "alice.near",
            "public_key": key.public_key().to_string(),
            "signature": signed.signature_base64(),
            "state": "csrf-1",
        });
        let read: SignedMessage = serde_json::from_value(snake).unwrap();
        assert_eq!(read.state.as_deref(), Some("csrf-1"));
        assert!(read.verify(&payload));
        assert_eq!(
            serde_json::to_value(&read).unwrap()["state"],
            serde_json::json!("csrf-1")
        );
    }

    #[test]
    fn bad_json_is_refused_naming_the_field() {
        let key: SecretKey = KEY.parse().unwrap();
        let public_key = key.public_key().to_string();
        let read = |value: serde_json::Value| {
            serde_json::from_value::<SignedMessage>(value)
                .unwrap_err()
                .to_string()
        };
        let err = read(serde_json::json!({
            "accountId": "alice.near", "publicKey": public_key, "signature": "@@@@",
        }));
        assert!(err.starts_with("`signature` is not base64"), "{err}");
        // 65 bytes of signature for an ed25519 key.
        let err = read(serde_json::json!({
            "accountId": "alice.near", "publicKey": public_key,
            "signature": base64::engine::general_purpose::STANDARD.encode([0; 65]),
        }));
        assert!(err.contains("wrong length 65 for curve ed25519"), "{err}");
        // NEAR's text form is read, of the key's curve only.
        let payload = MessagePayload::new("hi", "myapp.com", [1; 32]);
        let signed = payload.sign("alice.near".parse().unwrap(), &key);
        let text: SignedMessage = serde_json::from_value(serde_json::json!({
            "accountId": "alice.near", "publicKey": public_key,
            "signature": signed.signature.to_string(),
        }))
        .unwrap();
        assert_eq!(text, signed);
        let secp = SecretKey::secp256k1_from_bytes(&[7; 32]).unwrap();
        let err = read(serde_json::json!({
            "accountId": "alice.near", "publicKey": public_key,
            "signature": payload.sign("alice.near".parse().unwrap(), &secp).signature.to_string(),
        }));
        assert!(err.contains("not a ed25519 signature"), "{err}");
        let err = read(serde_json::json!({
            "accountId": "alice.near", "publicKey": public_key, "signature": "ed25519:",
        }));
        assert!(err.contains("not a ed25519 signature"), "{err}");
        let err = read(serde_json::json!({
            "accountId": "alice.near", "publicKey": public_key,
        }));
        assert!(err.contains("missing field `signature`"), "{err}");
        let err = read(serde_json::json!({
            "accountId": "alice.near", "account_id": "bob.near", "publicKey": public_key,
            "signature": "",
        }));
        assert!(err.contains("duplicate field `accountId`"), "{err}");
        let err = read(serde_json::json!({
            "accountId": "alice.near", "publicKey": public_key, "signature": "", "sig": 1,
        }));
        assert!(err.contains("unknown field `sig`"), "{err}");
    }
}
