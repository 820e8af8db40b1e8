//! `--key-file` with an ML-DSA-65 key (nearcore 0.38's `ml-dsa-65:` text of the raw
//! 4032-byte expanded key): in a build with near-rpc's `latest` feature
//! (`cargo test -p near-rpc-cli --features near-rpc/latest`) the write commands sign with
//! it, and what they print verifies; in any other build the key file is refused naming
//! the key type and the feature, exit 2, nothing on stdout. Each test asserts the branch
//! of the build it runs in, read from the spec version the binary was built for.

// Only part of the shared support is used here.
#[allow(unused_imports)]
mod support;

use serde_json::json;
use support::near_rpc;

/// Whether near-rpc was built with `latest` (nearcore 0.38, whose keys include
/// ML-DSA-65); the binary under test is built with the same features as this test.
fn latest() -> bool {
    near_rpc::SPEC_VERSION == "nearcore-0.38.0"
}

/// An ML-DSA-65 key from a fixed seed, as nearcore 0.38 writes it: the secret key's text
/// (`ml-dsa-65:` and the base58 of the 4032-byte expanded key) and the public key's.
fn ml_dsa_key() -> (String, String) {
    use aws_lc_rs::encoding::AsRawBytes as _;
    use aws_lc_rs::signature::{KeyPair as _, PqdsaKeyPair, ML_DSA_65_SIGNING};
    let pair = PqdsaKeyPair::from_seed(&ML_DSA_65_SIGNING, &[42; 32]).expect("a key pair");
    let raw = pair.private_key().as_raw_bytes().expect("its raw bytes");
    assert_eq!(raw.as_ref().len(), 4032);
    let public = pair.public_key().as_ref();
    assert_eq!(public.len(), 1952);
    (
        format!("ml-dsa-65:{}", bs58::encode(raw.as_ref()).into_string()),
        format!("ml-dsa-65:{}", bs58::encode(public).into_string()),
    )
}

/// A near-cli credential file for `account` with the ML-DSA-65 key.
fn key_file(name: &str, account: &str) -> std::path::PathBuf {
    let (secret, public) = ml_dsa_key();
    let dir = std::env::temp_dir().join(format!("near-rpc-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{account}.json"));
    let body = json!({"account_id": account, "public_key": public, "private_key": secret});
    std::fs::write(&path, body.to_string()).unwrap();
    path
}

fn assert_exit(run: &support::Run, code: i32) {
    assert_eq!(run.code, code, "unexpected exit status: {run:?}");
}

/// The secret key's data never appears, whole or in part.
fn assert_hides_key(out: &support::Run) {
    let (secret, _) = ml_dsa_key();
    let data = &secret["ml-dsa-65:".len()..];
    out.assert_hides(data);
    out.assert_hides(&data[..24]);
    out.assert_hides(&data[data.len() - 24..]);
}

const HASH: &str = "11111111111111111111111111111111";

/// `sign` and `sign-message` with an ML-DSA-65 key file: with `latest`, the signed
/// transaction (both versions) carries the ML-DSA-65 public key and a signature that
/// verifies, and the signed message verifies with `verify-message` (and not once
/// tampered with); otherwise each refuses the key file by name.
#[test]
fn ml_dsa_65_key_files_sign_with_latest_and_are_refused_by_name_without() {
    let file = key_file("ml-dsa-sign", "alice.near");
    let file = file.to_str().unwrap();
    let (_, public) = ml_dsa_key();
    let nonce = "KNV0cOpvJ50D5vfF9pqWom8wo2sliQ4W+Wa7uZ3Uk6Y=";
    let sign = |extra: &[&str]| {
        let mut args = vec![
            "sign",
            "--key-file",
            file,
            "--nonce",
            "5",
            "--block-hash",
            HASH,
            "--receiver",
            "bob.near",
        ];
        args.extend(extra);
        args.push(r#"[{"Transfer": {"deposit": "1"}}]"#);
        near_rpc(&args)
    };
    let message_args = ["--recipient", "myapp.com", "--nonce", nonce, "hi"];
    let mut sign_message = vec!["sign-message", "--key-file", file];
    sign_message.extend(message_args);
    let runs = [
        sign(&[]),
        sign(&["--nonce-mode", "strict"]),
        near_rpc(&sign_message),
    ];
    if !latest() {
        for out in &runs {
            assert_exit(out, 2);
            assert!(out.stdout.is_empty(), "{out:?}");
            assert!(
                out.stderr
                    .contains("ml-dsa-65 keys need the nearcore_0_38_0 (latest) feature"),
                "{out:?}"
            );
            assert_hides_key(out);
        }
        return;
    }
    for (out, version_1) in runs[..2].iter().zip([false, true]) {
        assert_exit(out, 0);
        assert_hides_key(out);
        let line = out.json();
        let signed = near_rpc::tx::SignedTransaction::from_base64(
            line["signed_tx_base64"].as_str().unwrap(),
        )
        .expect("the signed transaction decodes");
        assert_eq!(signed.transaction().public_key().to_string(), public);
        assert_eq!(
            matches!(signed.transaction(), near_rpc::tx::Transaction::V1(_)),
            version_1
        );
        assert_eq!(signed.signature().as_bytes().len(), 3309);
        assert!(signed.verify(), "the signature verifies");
        assert_eq!(line["hash"], signed.hash().to_string());
    }
    let out = &runs[2];
    assert_exit(out, 0);
    assert_hides_key(out);
    let printed = out.json();
    assert_eq!(printed["public_key"], public);
    let line = out.stdout.trim_end();
    let verify = |message: &str| {
        let mut args = vec!["verify-message", "--signed", line];
        args.extend(&message_args[..4]);
        args.push(message);
        near_rpc(&args)
    };
    let out = verify("hi");
    assert_exit(&out, 0);
    assert_eq!(out.stdout, "{\"valid\":true}\n");
    let out = verify("ho");
    assert_exit(&out, 6);
    assert_eq!(out.stdout, "{\"valid\":false}\n");
}

/// With `latest`, the mock node adds the ML-DSA-65 key to alice.mock (an `AddKey` sent
/// with her ed25519 key file), and `transfer` with the ML-DSA-65 key file then executes:
/// the node read the key's nonce and checked the signature. Without `latest`, the key
/// file is refused before anything is sent.
#[test]
fn a_transfer_signed_with_an_ml_dsa_65_key_executes_on_the_mock_with_latest() {
    let node = near_rpc_mock::MockNode::new();
    node.set_block_time(std::time::Duration::ZERO);
    let server = node.serve_in_background(0).expect("listen on loopback");
    let url = server.url();
    let file = key_file("ml-dsa-send", "alice.mock");
    let file = file.to_str().unwrap();
    let transfer = || {
        near_rpc(&[
            "--url",
            url,
            "transfer",
            "--key-file",
            file,
            "bob.mock",
            "1",
            "--yocto",
        ])
    };
    if !latest() {
        let out = transfer();
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
        assert!(out.stderr.contains("ml-dsa-65 keys need"), "{out:?}");
        assert!(node.requests().is_empty(), "{:?}", node.requests());
        return;
    }
    // Before its key is added: not an access key of alice.mock.
    let out = transfer();
    assert_exit(&out, 2);
    assert!(
        out.stderr.contains("is not an access key of alice.mock"),
        "{out:?}"
    );
    let (_, public) = ml_dsa_key();
    let dir =
        std::env::temp_dir().join(format!("near-rpc-cli-ml-dsa-alice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let alice = dir.join("alice.mock.json");
    let key = near_rpc_mock::chain::secret_key("alice.mock");
    std::fs::write(
        &alice,
        json!({"account_id": "alice.mock", "public_key": key.public_key().to_string(),
               "private_key": key.to_secret_string().to_string()})
        .to_string(),
    )
    .unwrap();
    let add_key = json!([{"AddKey": {"public_key": public, "access_key": {"nonce": 0, "permission": "FullAccess"}}}]);
    let out = near_rpc(&[
        "--url",
        url,
        "send",
        "--key-file",
        alice.to_str().unwrap(),
        "--receiver",
        "alice.mock",
        &add_key.to_string(),
    ]);
    assert_exit(&out, 0);
    let out = transfer();
    assert_exit(&out, 0);
    assert_hides_key(&out);
    let outcome = out.json();
    assert_eq!(outcome["transaction"]["public_key"], public);
    assert_eq!(outcome["transaction"]["receiver_id"], "bob.mock");
    assert_eq!(outcome["status"], json!({"SuccessValue": ""}));
}
