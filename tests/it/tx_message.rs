//! NEP-413 signed messages (`near_rpc::tx::MessagePayload`, `SignedMessage`) against
//! published test vectors.
//!
//! Source (vectors are data, quoted; no code was taken): near-api-js at
//! 30320f7b8c01dbadefdf8c311f2fde4971288087, `packages/signers/test/key_pair_signer.test.ts`,
//! "test sign NEP-413 message with callback url" and "... without callback url"
//! (`signNep413Message(message, accountId, recipient, nonce, callbackUrl)`). The NEP
//! itself (near/NEPs `neps/nep-0413.md`) gives the layout and no byte vectors.

#![cfg(feature = "tx")]

use near_rpc::tx::{MessageError, MessagePayload, SecretKey, SignedMessage};

const KEY: &str = "ed25519:3FyRtUUMxiNT1g2ST6mbj7W1CN7KfQBbomawC7YG4A1zwHmw2TRsn1Wc8NaFcBCoJDu3zt3znJDSwKQ31oRaKXH7";
const NONCE: &str = "KNV0cOpvJ50D5vfF9pqWom8wo2sliQ4W+Wa7uZ3Uk6Y=";
const WITH_CALLBACK: &str =
    "zzZQ/GwAjrZVrTIFlvmmQbDQHllfzrr8urVWHaRt5cPfcXaCSZo35c5LDpPpTKivR6BxLyb3lcPM0FfCW5lcBQ==";
const WITHOUT_CALLBACK: &str =
    "NnJgPU1Ql7ccRTITIoOVsIfElmvH1RV7QAT4a9Vh6ShCOnjIzRwxqX54JzoQ/nK02p7VBMI2vJn48rpImIJwAw==";

fn payload() -> MessagePayload {
    MessagePayload::new(
        "Hello NEAR!",
        "example.near",
        MessagePayload::nonce_from_base64(NONCE).unwrap(),
    )
}

#[test]
fn signatures_reproduce_near_api_js_vectors() {
    let key: SecretKey = KEY.parse().unwrap();
    let cases = [
        (
            payload().with_callback_url("http://localhost:3000"),
            WITH_CALLBACK,
        ),
        (payload(), WITHOUT_CALLBACK),
    ];
    for (payload, expected) in &cases {
        let signed = payload.sign("round-toad.testnet".parse().unwrap(), &key);
        assert_eq!(signed.signature_base64(), *expected, "{payload:?}");
        assert_eq!(signed.public_key, key.public_key());
        assert!(signed.verify(payload));
    }
    // Each vector verifies only with its own payload: the callback URL is signed.
    let read = |signature: &str| -> SignedMessage {
        serde_json::from_value(serde_json::json!({
            "accountId": "round-toad.testnet",
            "publicKey": key.public_key(),
            "signature": signature,
        }))
        .unwrap()
    };
    assert!(read(WITH_CALLBACK).verify(&cases[0].0));
    assert!(!read(WITH_CALLBACK).verify(&cases[1].0));
    assert!(read(WITHOUT_CALLBACK).verify(&cases[1].0));
    assert!(!read(WITHOUT_CALLBACK).verify(&cases[0].0));
}

#[test]
fn a_28_byte_nonce_is_refused_as_near_api_js_refuses_it() {
    // The same test file's "throws error on invalid nonce": 28 zero bytes.
    assert_eq!(
        MessagePayload::nonce_from_slice(&[0; 28]),
        Err(MessageError::NonceLength { actual: 28 })
    );
}

#[test]
fn the_printed_json_round_trips_through_both_spellings() {
    let key: SecretKey = KEY.parse().unwrap();
    let signed = payload().sign("round-toad.testnet".parse().unwrap(), &key);
    let camel = serde_json::to_string(&signed).unwrap();
    assert_eq!(
        camel,
        format!(
            r#"{{"accountId":"round-toad.testnet","publicKey":"{}","signature":"{WITHOUT_CALLBACK}"}}"#,
            key.public_key()
        )
    );
    let snake = serde_json::json!({
        "account_id": "round-toad.testnet",
        "public_key": key.public_key(),
        "signature": signed.signature_base64(),
    });
    let back: SignedMessage = serde_json::from_value(snake).unwrap();
    assert_eq!(back, signed);
    assert!(back.verify(&payload()));
}
