//! [`verify`]: whether a signature is a public key's, as nearcore checks it.

use crate::primitives::CryptoHash;
use crate::primitives::KeyType;
use crate::primitives::PublicKey;
use crate::primitives::Signature;

/// What secp256k1 signs for `message`: the message itself when it is a 32-byte hash (a
/// transaction's, a delegate action's), its sha256 otherwise.
pub(crate) fn prehash(message: &[u8]) -> [u8; 32] {
    match message.try_into() {
        Ok(hash) => hash,
        Err(_) => CryptoHash::hash_bytes(message).0,
    }
}

/// Whether `signature` is `public_key`'s signature of `message` (for secp256k1, of the
/// 32-byte message as a prehash, or of another message's sha256, recovering the key as
/// nearcore does). A key and signature of different curves, or a signature of the wrong
/// length (an empty one), never verify.
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
            let digest = prehash(message);
            let Ok(bytes) = <[u8; 65]>::try_from(signature.as_bytes()) else {
                return false;
            };
            let Ok(sig) = k256::ecdsa::Signature::from_slice(&bytes[..64]) else {
                return false;
            };
            // nearcore refuses high-s signatures (malleable).
            if sig.normalize_s().is_some() {
                return false;
            }
            let Some(recovery) = k256::ecdsa::RecoveryId::from_byte(bytes[64]) else {
                return false;
            };
            let Ok(recovered) =
                k256::ecdsa::VerifyingKey::recover_from_prehash(&digest, &sig, recovery)
            else {
                return false;
            };
            recovered.to_encoded_point(false).as_bytes()[1..] == *public_key.as_bytes()
        }
        _ => false,
    }
}
