//! [`verify`]: whether a signature is a public key's, as nearcore checks it.

use crate::primitives::CryptoHash;
use crate::primitives::KeyType;
use crate::primitives::PublicKey;
use crate::primitives::Signature;

/// What [`SecretKey::sign`](super::SecretKey::sign) signs with secp256k1 for `message`:
/// the message itself when it is 32 bytes (the caller already hashed it), its sha256
/// otherwise.
pub(crate) fn prehash(message: &[u8]) -> [u8; 32] {
    match message.try_into() {
        Ok(hash) => hash,
        Err(_) => CryptoHash::hash_bytes(message).0,
    }
}

/// Whether `signature` is `public_key`'s signature of `message`, checked as nearcore's
/// `Signature::verify` checks it (near-crypto, `core/crypto/src/signature.rs`).
///
/// Nothing is hashed here: `message` is what was signed. NEAR signs a transaction's hash
/// (sha256 of its borsh bytes, [`Transaction::hash`](super::Transaction::hash)) and a
/// delegate action's [`signable_hash`](super::DelegateAction::signable_hash); both are
/// 32 bytes, and the callers hash.
///
/// - ed25519: the signature of the bytes of `message`, by ed25519-dalek's plain `verify`.
/// - secp256k1: `message` must be exactly 32 bytes (any other length is `false`); it is
///   the ECDSA prehash, and `(r, s)` must verify over it with `public_key` itself. `s`
///   must be in the lower half (libsecp256k1 refuses the malleable high-s twin), and the
///   65th byte, the recovery id, must be 0 to 3 but is not otherwise used: the key is
///   not recovered from the signature, so a valid `(r, s)` verifies with any of the four.
///
/// - ML-DSA-65 (feature `nearcore_0_38_0`): FIPS 204 verification of the bytes of
///   `message` (pure ML-DSA, empty context), with aws-lc-rs as nearcore 0.38 does.
///
/// A key and signature of different curves, a signature of the wrong length (an empty
/// one), or a public key that is not a curve point never verify.
pub fn verify(public_key: &PublicKey, message: &[u8], signature: &Signature) -> bool {
    match (public_key.key_type(), signature.key_type()) {
        (KeyType::Ed25519, KeyType::Ed25519) => {
            let Ok(key) = <[u8; 32]>::try_from(public_key.as_bytes()) else {
                return false;
            };
            let Ok(key) = ed25519_dalek::VerifyingKey::from_bytes(&key) else {
                return false;
            };
            let Ok(sig) = <[u8; 64]>::try_from(signature.as_bytes()) else {
                return false;
            };
            // Not `verify_strict`: nearcore accepts what ed25519-dalek's plain `verify`
            // accepts (a small-order R among it), and a signature nearcore accepted is in
            // the chain's headers; refusing it would stop every light client there.
            use ed25519_dalek::Verifier as _;
            key.verify(message, &ed25519_dalek::Signature::from_bytes(&sig))
                .is_ok()
        }
        (KeyType::Secp256k1, KeyType::Secp256k1) => {
            use k256::ecdsa::signature::hazmat::PrehashVerifier as _;
            // nearcore: `secp256k1::Message::from_slice`, which takes 32 bytes only.
            let Ok(digest) = <[u8; 32]>::try_from(message) else {
                return false;
            };
            let Ok(bytes) = <[u8; 65]>::try_from(signature.as_bytes()) else {
                return false;
            };
            // nearcore: `RecoveryId::from_i32`, 0..=3, checked and then unused.
            if bytes[64] > 3 {
                return false;
            }
            // Refuses r or s of zero or not below the curve order, as libsecp256k1's
            // parsing and verification together do.
            let Ok(sig) = k256::ecdsa::Signature::from_slice(&bytes[..64]) else {
                return false;
            };
            // libsecp256k1's `secp256k1_ecdsa_verify` refuses high s (malleable).
            if sig.normalize_s().is_some() {
                return false;
            }
            let Ok(key_bytes) = <[u8; 64]>::try_from(public_key.as_bytes()) else {
                return false;
            };
            // NEAR keeps x and y; SEC1's uncompressed form puts 0x04 before them.
            let mut point = [4; 65];
            point[1..].copy_from_slice(&key_bytes);
            let Ok(key) = k256::ecdsa::VerifyingKey::from_sec1_bytes(&point) else {
                return false;
            };
            key.verify_prehash(&digest, &sig).is_ok()
        }
        #[cfg(feature = "nearcore_0_38_0")]
        (KeyType::MlDsa65, KeyType::MlDsa65) => {
            // nearcore: aws-lc-rs's `UnparsedPublicKey::new(&ML_DSA_65, key).verify`,
            // pure ML-DSA with an empty context over `message` as given. A key or
            // signature of the wrong length (an empty signature) never verifies.
            if signature.as_bytes().len() != KeyType::MlDsa65.signature_len() {
                return false;
            }
            aws_lc_rs::signature::UnparsedPublicKey::new(
                &aws_lc_rs::signature::ML_DSA_65,
                public_key.as_bytes(),
            )
            .verify(message, signature.as_bytes())
            .is_ok()
        }
        _ => false,
    }
}
