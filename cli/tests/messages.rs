//! End-to-end tests of `sign-message` and `verify-message` (NEP-413): the binary
//! reproduces published signatures, verifies what it signs and nothing tampered with,
//! refuses nonces that are not 32 bytes, and with `--check-key` requires a full-access
//! key of the account on the node.
//!
//! The vectors are data, quoted (no code was taken): near-api-js at
//! 30320f7b8c01dbadefdf8c311f2fde4971288087, `packages/signers/test/key_pair_signer.test.ts`,
//! "test sign NEP-413 message with callback url" and "... without callback url"
//! (`signNep413Message(message, accountId, recipient, nonce, callbackUrl)`), the same the
//! library's `tests/it/tx_message.rs` checks.

// Only part of the shared support is used here.
#[allow(unused_imports)]
mod support;

use base64::Engine as _;
use serde_json::{json, Value};
use support::near_rpc;

const KEY: &str = "ed25519:3FyRtUUMxiNT1g2ST6mbj7W1CN7KfQBbomawC7YG4A1zwHmw2TRsn1Wc8NaFcBCoJDu3zt3znJDSwKQ31oRaKXH7";
const ACCOUNT: &str = "round-toad.testnet";
const MESSAGE: &str = "Hello NEAR!";
const RECIPIENT: &str = "example.near";
const NONCE: &str = "KNV0cOpvJ50D5vfF9pqWom8wo2sliQ4W+Wa7uZ3Uk6Y=";
const CALLBACK: &str = "http://localhost:3000";
const WITH_CALLBACK: &str =
    "zzZQ/GwAjrZVrTIFlvmmQbDQHllfzrr8urVWHaRt5cPfcXaCSZo35c5LDpPpTKivR6BxLyb3lcPM0FfCW5lcBQ==";
const WITHOUT_CALLBACK: &str =
    "NnJgPU1Ql7ccRTITIoOVsIfElmvH1RV7QAT4a9Vh6ShCOnjIzRwxqX54JzoQ/nK02p7VBMI2vJn48rpImIJwAw==";

fn assert_exit(run: &support::Run, code: i32) {
    assert_eq!(run.code, code, "unexpected exit status: {run:?}");
}

/// A near-cli credential file for `account` with `secret`, in a fresh directory.
fn key_file(name: &str, account: &str, secret: &near_rpc::tx::SecretKey) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("near-rpc-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{account}.json"));
    let body = json!({
        "account_id": account,
        "public_key": secret.public_key().to_string(),
        "private_key": secret.to_secret_string().to_string(),
    });
    std::fs::write(&path, body.to_string()).unwrap();
    path
}

/// `sign-message` with the key file, `extra` options, then MESSAGE.
fn sign(file: &std::path::Path, extra: &[&str], message: &str) -> support::Run {
    let mut args = vec!["sign-message", "--key-file", file.to_str().unwrap()];
    args.extend(extra);
    args.extend(["--", message]);
    near_rpc(&args)
}

/// `verify-message` with `who` (`--signed JSON` or the three values), the payload's
/// options and MESSAGE, and `extra` (global options, `--check-key`).
fn verify(extra: &[&str], who: &[&str], payload: &[&str], message: &str) -> support::Run {
    let mut args = vec!["verify-message"];
    args.extend(extra);
    args.extend(who);
    args.extend(payload);
    args.extend(["--", message]);
    near_rpc(&args)
}

/// The payload's options: recipient, nonce, and callback URL when given.
fn payload<'a>(recipient: &'a str, nonce: &'a str, callback: Option<&'a str>) -> Vec<&'a str> {
    let mut args = vec!["--recipient", recipient, "--nonce", nonce];
    if let Some(url) = callback {
        args.extend(["--callback-url", url]);
    }
    args
}

fn assert_valid(out: &support::Run) {
    assert_exit(out, 0);
    assert_eq!(out.json()["valid"], true, "{out:?}");
}

fn assert_invalid(out: &support::Run, reason: &str) {
    assert_exit(out, 6);
    assert_eq!(out.stdout, "{\"valid\":false}\n", "{out:?}");
    assert!(out.stderr.contains(reason), "{out:?}");
}

/// near-api-js's two signatures, reproduced byte for byte; printed as one line with the
/// account, the key and the base64 signature, in that order. Each verifies with its own
/// payload only: the callback URL is signed.
#[test]
fn sign_message_reproduces_near_api_js_vectors_and_verify_message_accepts_them() {
    let secret: near_rpc::tx::SecretKey = KEY.parse().unwrap();
    let public_key = secret.public_key().to_string();
    let file = key_file("nep413-vectors", ACCOUNT, &secret);
    let cases = [(Some(CALLBACK), WITH_CALLBACK), (None, WITHOUT_CALLBACK)];
    for (callback, expected) in cases {
        let out = sign(&file, &payload(RECIPIENT, NONCE, callback), MESSAGE);
        assert_exit(&out, 0);
        assert_eq!(
            out.stdout,
            format!(
                "{{\"account_id\":\"{ACCOUNT}\",\"public_key\":\"{public_key}\",\"signature\":\"{expected}\"}}\n"
            )
        );
        out.assert_hides(&KEY["ed25519:".len()..]);
    }
    for (callback, signature) in cases {
        let who = [
            "--account-id",
            ACCOUNT,
            "--public-key",
            &public_key,
            "--signature",
            signature,
        ];
        assert_valid(&verify(
            &[],
            &who,
            &payload(RECIPIENT, NONCE, callback),
            MESSAGE,
        ));
        // The other vector's payload: the callback URL there or not.
        let other = if callback.is_some() {
            None
        } else {
            Some(CALLBACK)
        };
        let out = verify(&[], &who, &payload(RECIPIENT, NONCE, other), MESSAGE);
        assert_invalid(&out, "the signature is not");
    }
}

/// What `sign-message` prints, given back to `verify-message --signed` (and in a
/// wallet's camelCase JSON), verifies; any change to the message, the recipient, the
/// nonce, the callback URL, the account's key or the signature does not.
#[test]
fn a_signed_message_verifies_and_nothing_tampered_with_does() {
    let secret = near_rpc::tx::SecretKey::ed25519_from_seed(&[4; 32]);
    let file = key_file("nep413-round-trip", "alice.near", &secret);
    let nonce = base64::engine::general_purpose::STANDARD.encode([7u8; 32]);
    let message = "Sign in to myapp.com\nat 12:00";
    let signed_payload = payload("myapp.com", &nonce, Some("https://myapp.com/back"));
    let out = sign(&file, &signed_payload, message);
    assert_exit(&out, 0);
    let line = out.stdout.trim_end().to_owned();
    let printed: Value = out.json();
    assert_valid(&verify(&[], &["--signed", &line], &signed_payload, message));
    let camel = json!({
        "accountId": printed["account_id"],
        "publicKey": printed["public_key"],
        "signature": printed["signature"],
    })
    .to_string();
    assert_valid(&verify(
        &[],
        &["--signed", &camel],
        &signed_payload,
        message,
    ));

    let other_nonce = base64::engine::general_purpose::STANDARD.encode([8u8; 32]);
    let tampered = [
        (signed_payload.clone(), "Sign in to myapp.com\nat 12:01"),
        (
            payload("myapp.co", &nonce, Some("https://myapp.com/back")),
            message,
        ),
        (
            payload("myapp.com", &other_nonce, Some("https://myapp.com/back")),
            message,
        ),
        (
            payload("myapp.com", &nonce, Some("https://evil.com/back")),
            message,
        ),
        (payload("myapp.com", &nonce, None), message),
    ];
    for (options, message) in &tampered {
        let out = verify(&[], &["--signed", &line], options, message);
        assert_invalid(&out, "the signature is not");
    }
    // Another key claimed, or one bit of the signature flipped.
    let other_key = near_rpc::tx::SecretKey::ed25519_from_seed(&[5; 32]).public_key();
    let mut signature = base64::engine::general_purpose::STANDARD
        .decode(printed["signature"].as_str().unwrap())
        .unwrap();
    signature[10] ^= 1;
    let flipped = base64::engine::general_purpose::STANDARD.encode(&signature);
    for (key, signature) in [
        (
            other_key.to_string(),
            printed["signature"].as_str().unwrap(),
        ),
        (
            printed["public_key"].as_str().unwrap().to_owned(),
            flipped.as_str(),
        ),
    ] {
        let who = [
            "--account-id",
            "alice.near",
            "--public-key",
            &key,
            "--signature",
            signature,
        ];
        assert_invalid(
            &verify(&[], &who, &signed_payload, message),
            "the signature is not",
        );
    }
}

/// A nonce that is not 32 bytes, or not base64, is a usage error for both commands, and
/// so are a signature that does not decode and JSON that is not a signed message: exit
/// 2, nothing on stdout, the option named.
#[test]
fn bad_nonces_signatures_and_json_exit_2() {
    let secret = near_rpc::tx::SecretKey::ed25519_from_seed(&[4; 32]);
    let file = key_file("nep413-bad", "alice.near", &secret);
    let public_key = secret.public_key().to_string();
    let b64 = |n: usize| base64::engine::general_purpose::STANDARD.encode(vec![1u8; n]);
    let (short, long) = (b64(31), b64(33));
    for (nonce, why) in [
        (short.as_str(), "32 bytes, not 31"),
        (long.as_str(), "32 bytes, not 33"),
        ("", "32 bytes, not 0"),
        ("not base64!", "not base64"),
    ] {
        let options = payload("myapp.com", nonce, None);
        let out = sign(&file, &options, "hi");
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
        assert!(
            out.stderr.contains("--nonce") && out.stderr.contains(why),
            "{out:?}"
        );
        let who = [
            "--account-id",
            "alice.near",
            "--public-key",
            &public_key,
            "--signature",
            "AA==",
        ];
        let out = verify(&[], &who, &options, "hi");
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
        assert!(
            out.stderr.contains("--nonce") && out.stderr.contains(why),
            "{out:?}"
        );
    }
    let nonce = b64(32);
    let options = payload("myapp.com", &nonce, None);
    for (who, named) in [
        (vec!["--account-id", "alice.near", "--public-key", &public_key, "--signature", "@@"], "--signature"),
        (vec!["--account-id", "alice.near", "--public-key", &public_key, "--signature", "AA=="], "wrong length 1"),
        (vec!["--signed", "{\"accountId\": \"alice.near\"}"], "--signed"),
        (vec!["--signed", "{\"accountId\": \"a.near\", \"accountId\": \"b.near\", \"publicKey\": \"x\", \"signature\": \"\"}"], "--signed"),
        (vec!["--account-id", "alice.near"], "--public-key"),
        (vec![], "--signed"),
    ] {
        let out = verify(&[], &who, &options, "hi");
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
        assert!(out.stderr.contains(named), "{who:?}: {out:?}");
    }
}

/// `--check-key` reads the key from the node: a full-access key of the account is valid
/// (the block read at printed with it); a function-call key, a gas key, a key the
/// account does not have and an account that does not exist are not (exit 6, naming
/// why), even with a good signature. A bad signature is refused before the node is
/// asked.
#[test]
fn check_key_requires_a_full_access_key_of_the_account_on_the_node() {
    use near_rpc_mock::chain::{gas_key_secret, secret_key};
    let node = near_rpc_mock::MockNode::new();
    node.add_gas_key("alice.mock", 1, 0).unwrap();
    let server = node.serve_in_background(0).expect("listen on loopback");
    let url = server.url();
    let check = ["--url", url, "--check-key"];
    let nonce = base64::engine::general_purpose::STANDARD.encode([9u8; 32]);
    let options = payload("myapp.com", &nonce, None);
    let signed_by = |name: &str, account: &str, secret: &near_rpc::tx::SecretKey| {
        let out = sign(&key_file(name, account, secret), &options, "hi");
        assert_exit(&out, 0);
        out.stdout.trim_end().to_owned()
    };
    let full = signed_by("nep413-full", "alice.mock", &secret_key("alice.mock"));
    let out = verify(&check, &["--signed", &full], &options, "hi");
    assert_valid(&out);
    let head = out.json();
    assert!(head["block_height"].as_u64().unwrap() > 0, "{head}");
    assert!(head["block_hash"].is_string(), "{head}");
    // Offline, the same line is valid with nothing else printed.
    assert_eq!(
        verify(&[], &["--signed", &full], &options, "hi").stdout,
        "{\"valid\":true}\n"
    );
    let function_call = signed_by(
        "nep413-fc",
        "alice.mock",
        &secret_key("alice.mock function call"),
    );
    let gas = signed_by("nep413-gas", "alice.mock", &gas_key_secret("alice.mock"));
    let bobs_key_as_alice = signed_by("nep413-other", "alice.mock", &secret_key("bob.mock"));
    let nobody = signed_by("nep413-nobody", "nobody.mock", &secret_key("nobody.mock"));
    for (line, why) in [
        (&function_call, "is a function-call key of alice.mock"),
        (&gas, "is a gas key of alice.mock"),
        (&bobs_key_as_alice, "is not a key of alice.mock"),
        (&nobody, "the account nobody.mock does not exist"),
    ] {
        // Each signature is good: only the key's standing fails it.
        assert_valid(&verify(&[], &["--signed", line], &options, "hi"));
        let out = verify(&check, &["--signed", line], &options, "hi");
        assert_invalid(&out, why);
    }
    let asked = node.requests().len();
    let out = verify(&check, &["--signed", &full], &options, "bye");
    assert_invalid(&out, "the signature is not");
    assert_eq!(node.requests().len(), asked, "the node was not asked");
}
