//! The transaction codec and keys (`near_rpc::tx`) against published test vectors, each
//! cited where it is written, and against hostile bytes.
//!
//! Sources (vectors are data, quoted; no code was taken):
//! - nearcore, `core/primitives/src/transaction.rs` tests (`test_serialize_transaction`),
//!   `core/primitives/src/action/delegate.rs` (`DELEGATE_ACTION_HEX`),
//!   `core/crypto/src/signature.rs` and `core/crypto/src/key_file.rs` tests, read in the
//!   crates published from nearcore commit 1144e310f7e70734453167cb07f8cccf28987eb8
//!   (near-primitives, near-crypto 0.36.0);
//! - near-api-js at 652c3c31f44d27e0354612ce6cf37282675b1ffc:
//!   `test/unit/transactions/serialize.test.ts`, `test/unit/signers/key_pair_signer.test.ts`,
//!   `test/unit/crypto/key_pair.test.ts`.

#![cfg(feature = "tx")]

use std::collections::BTreeMap;

use base64::Engine as _;
use near_rpc::tx::{
    AccessKey, AccessKeyPermission, Action, BorshErrorKind, Credentials, DelegateAction,
    DeterministicAccountStateInit, FunctionCallPermission, GasKeyInfo, GlobalContractDeployMode,
    GlobalContractIdentifier, NonDelegateAction, NonceMode, SecretKey, SignedDelegateAction,
    SignedTransaction, Transaction, TransactionNonce, TransactionV1, ViewError,
};
use near_rpc::types::{ActionView, SignedTransactionView};
use near_rpc::{CryptoHash, NearGas, NearToken, PublicKey, Signature};

fn hex(text: &str) -> Vec<u8> {
    let text: String = text.split_whitespace().collect();
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

fn b64(text: &str) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .unwrap()
}

/// The ed25519 key `22skMptHjFWNyuEWY22ftn2AbLPSYpmYwGJRGwpNHbTV` of nearcore's and
/// near-api-js's serialization tests.
fn test_key() -> PublicKey {
    "22skMptHjFWNyuEWY22ftn2AbLPSYpmYwGJRGwpNHbTV"
        .parse()
        .unwrap()
}

/// The eight actions of nearcore's `create_transaction_v0` (and near-api-js's
/// "serialize multi-action tx").
fn eight_actions() -> Vec<Action> {
    let key = test_key();
    vec![
        Action::CreateAccount,
        Action::DeployContract {
            code: vec![1, 2, 3],
        },
        Action::function_call(
            "qqq",
            vec![1, 2, 3],
            NearGas::from_gas(1_000),
            NearToken::from_yoctonear(1_000_000),
        ),
        Action::transfer(NearToken::from_yoctonear(123)),
        Action::Stake {
            stake: NearToken::from_yoctonear(1_000_000),
            public_key: key.clone(),
        },
        Action::AddKey {
            public_key: key.clone(),
            access_key: AccessKey::function_call("zzz", vec!["www".into()], None),
        },
        Action::DeleteKey {
            public_key: key.clone(),
        },
        Action::DeleteAccount {
            beneficiary_id: "123".parse().unwrap(),
        },
    ]
}

/// nearcore's `test_serialize_transaction`: the eight actions, block hash zero, signed
/// with an empty signature; the hash is the test's.
#[test]
fn nearcore_serialize_transaction_vector() {
    let tx = Transaction::new(
        "test.near".parse().unwrap(),
        test_key(),
        1,
        "123".parse().unwrap(),
        CryptoHash::default(),
        eight_actions(),
    );
    let signed = SignedTransaction::new(tx.clone(), Signature::ed25519([0; 64]));
    assert_eq!(
        signed.hash().to_string(),
        "4GXvjMFN6wSxnU9jEVT8HbXP5Yk6yELX9faRSKp6n9fX"
    );
    assert_eq!(tx.to_borsh().len(), 316);
    let back = SignedTransaction::from_borsh(&signed.to_borsh()).unwrap();
    assert_eq!(back, signed);
}

/// near-api-js "serialize multi-action tx": the same actions with a real block hash; the
/// bytes are the test's, the hash the one its comment gives.
#[test]
fn near_api_js_multi_action_vector() {
    let expected = hex("09000000746573742e6e656172000f56a5f028dfc089ec7c39c1183b321b4d8f89ba5bec9e1762803cc2491f6ef80100000000000000030000003132330fa473fd26901df296be6adc4cc4df34d040efa2435224b6986910e630c2fef608000000000103000000010203020300000071717103000000010203e80300000000000040420f00000000000000000000000000037b0000000000000000000000000000000440420f00000000000000000000000000000f56a5f028dfc089ec7c39c1183b321b4d8f89ba5bec9e1762803cc2491f6ef805000f56a5f028dfc089ec7c39c1183b321b4d8f89ba5bec9e1762803cc2491f6ef800000000000000000000030000007a7a7a010000000300000077777706000f56a5f028dfc089ec7c39c1183b321b4d8f89ba5bec9e1762803cc2491f6ef80703000000313233");
    let tx = Transaction::new(
        "test.near".parse().unwrap(),
        test_key(),
        1,
        "123".parse().unwrap(),
        "244ZQ9cgj3CQ6bWBdytfrJMuMQ1jdXLFGnr4HhvtCTnM"
            .parse()
            .unwrap(),
        eight_actions(),
    );
    assert_eq!(tx.to_borsh(), expected);
    assert_eq!(
        tx.hash().to_string(),
        "Fo3MJ9XzKjnKuDuQKhDAC6fra5H2UWawRejFSEpPNk3Y"
    );
    assert_eq!(Transaction::from_borsh(&expected).unwrap(), tx);
}

/// near-api-js "serialize transfer tx" and "serialize and sign transfer tx object": the
/// key's signature of the transfer and the signed bytes are the tests'.
#[test]
fn near_api_js_signed_transfer_vector() {
    let key: SecretKey = "ed25519:3hoMW1HvnRLSFCLZnvPzWeoGwtdHzke34B2cTHM8rhcbG3TbuLKtShTv3DvyejnXKXKBiV7YPkLeqUHN1ghnqpFv".parse().unwrap();
    assert_eq!(
        key.public_key().to_string(),
        "ed25519:Anu7LYDfpLtkP7E16LT9imXF694BdQaa9ufVkQiwTQxC"
    );
    let tx = Transaction::new(
        "test.near".parse().unwrap(),
        key.public_key(),
        1,
        "whatever.near".parse().unwrap(),
        "244ZQ9cgj3CQ6bWBdytfrJMuMQ1jdXLFGnr4HhvtCTnM"
            .parse()
            .unwrap(),
        vec![Action::transfer(NearToken::from_yoctonear(1))],
    );
    assert_eq!(tx.to_borsh(), hex("09000000746573742e6e65617200917b3d268d4b58f7fec1b150bd68d69be3ee5d4cc39855e341538465bb77860d01000000000000000d00000077686174657665722e6e6561720fa473fd26901df296be6adc4cc4df34d040efa2435224b6986910e630c2fef6010000000301000000000000000000000000000000"));
    let hash = tx.hash();
    let signed = tx.sign(&key);
    assert_eq!(
        signed.signature().as_bytes(),
        b64("lpqDMyGG7pdV5IOTJVJYBuGJo9LSu0tHYOlEQ+l+HE8i3u7wBZqOlxMQDtpuGRRNp+ig735TmyBwi6HY0CG9AQ==")
    );
    let expected = hex("09000000746573742e6e65617200917b3d268d4b58f7fec1b150bd68d69be3ee5d4cc39855e341538465bb77860d01000000000000000d00000077686174657665722e6e6561720fa473fd26901df296be6adc4cc4df34d040efa2435224b6986910e630c2fef601000000030100000000000000000000000000000000969a83332186ee9755e4839325525806e189a3d2d2bb4b4760e94443e97e1c4f22deeef0059a8e9713100eda6e19144da7e8a0ef7e539b20708ba1d8d021bd01");
    assert_eq!(signed.to_borsh(), expected);
    assert!(signed.verify());
    let back = SignedTransaction::from_base64(&signed.to_base64()).unwrap();
    assert_eq!(back, signed);
    assert_eq!(back.hash(), hash);
}

/// near-api-js "test sign transaction with relevant public key": no actions, a zero
/// block hash; the hash and signature are the test's.
#[test]
fn near_api_js_empty_transaction_vector() {
    let key: SecretKey = "ed25519:sDa8GRWHy16zXzE5ALViy17miA7Lo39DWp8DY5HsTBEayarAWefzbgXmSpW4f8tQn3V8odsY7yGLGmgGaQN2BBF".parse().unwrap();
    let tx = Transaction::new(
        "signer".parse().unwrap(),
        key.public_key(),
        1,
        "receiver".parse().unwrap(),
        CryptoHash::default(),
        vec![],
    );
    assert_eq!(
        tx.hash().0.to_vec(),
        hex("2571e3539ab5556e39441913e66abd07e634fb9850434006a719306100e641a2")
    );
    let signed = tx.sign(&key);
    assert_eq!(
        signed.signature().as_bytes(),
        hex("bfe2858d227e3116076a8e5ea9c5bef923c7755f19f0137d1acd9bb67973f1b8a7f83dfc0be23e307e106c8807eaa6e14c0fcb46c42acdf293c4a6a81a27fc05")
    );
}

/// near-api-js "test sign delegate action" (NEP-461's prefix): hash and signature are the
/// test's.
#[test]
fn near_api_js_delegate_action_vector() {
    let key: SecretKey = "ed25519:3FyRtUUMxiNT1g2ST6mbj7W1CN7KfQBbomawC7YG4A1zwHmw2TRsn1Wc8NaFcBCoJDu3zt3znJDSwKQ31oRaKXH7".parse().unwrap();
    let action = DelegateAction {
        sender_id: "sender.testnet".parse().unwrap(),
        receiver_id: "receiver.testnet".parse().unwrap(),
        actions: vec![],
        nonce: 1,
        max_block_height: 1_848_319_858,
        public_key: key.public_key(),
    };
    assert_eq!(
        action.signable_hash().0.to_vec(),
        hex("6d35575b3566fddf04f79317c3e574eb89c5bc228c5e755f2a3179e164dbb36b")
    );
    let signed = action.sign(&key);
    assert_eq!(
        signed.signature.as_bytes(),
        hex("6996219a3d971a256fcf7b7ad748aec7f1c84868cd59df3d756d8a022498a636e63f16809a54918c473e9a8bf4b0b35477a6b671eab65b1b28fd9fae2a668c00")
    );
    assert!(signed.verify());
}

/// near-api-js "deserialize delegate": a delegate action recorded on testnet decodes,
/// re-encodes to the same bytes, and its signature verifies over NEP-461's hash.
#[test]
fn near_api_js_testnet_delegate_vector() {
    let bytes: Vec<u8> = vec![
        8, 16, 0, 0, 0, 116, 104, 101, 45, 117, 115, 101, 114, 46, 116, 101, 115, 116, 110, 101,
        116, 27, 0, 0, 0, 104, 101, 108, 108, 111, 46, 110, 101, 97, 114, 45, 101, 120, 97, 109,
        112, 108, 101, 115, 46, 116, 101, 115, 116, 110, 101, 116, 1, 0, 0, 0, 2, 12, 0, 0, 0, 115,
        101, 116, 95, 103, 114, 101, 101, 116, 105, 110, 103, 20, 0, 0, 0, 123, 34, 103, 114, 101,
        101, 116, 105, 110, 103, 34, 58, 34, 72, 101, 108, 108, 111, 34, 125, 0, 224, 87, 235, 72,
        27, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 9, 120, 166, 131, 144, 0, 0,
        61, 158, 123, 9, 0, 0, 0, 0, 0, 154, 156, 80, 116, 108, 65, 42, 39, 47, 253, 146, 109, 67,
        106, 83, 230, 57, 183, 195, 122, 150, 6, 246, 220, 173, 35, 120, 139, 167, 94, 183, 29, 0,
        41, 98, 10, 45, 51, 177, 89, 159, 190, 247, 41, 255, 243, 17, 186, 140, 168, 139, 9, 81,
        33, 8, 74, 73, 85, 254, 127, 62, 54, 193, 60, 50, 235, 49, 13, 37, 152, 94, 172, 24, 198,
        220, 119, 148, 99, 89, 19, 187, 251, 80, 76, 230, 77, 28, 80, 140, 133, 81, 139, 159, 62,
        245, 167, 4,
    ];
    let action = Action::from_borsh(&bytes).unwrap();
    let Action::Delegate(signed) = &action else {
        panic!("{action:?}")
    };
    let inner = &signed.delegate_action;
    assert_eq!(inner.sender_id, "the-user.testnet");
    assert_eq!(inner.receiver_id, "hello.near-examples.testnet");
    assert_eq!(inner.nonce, 158_895_108_000_003);
    let [call] = &inner.actions[..] else {
        panic!("{inner:?}")
    };
    let Action::FunctionCall(call) = call.action() else {
        panic!("{call:?}")
    };
    assert_eq!(call.method_name, "set_greeting");
    assert_eq!(call.args, br#"{"greeting":"Hello"}"#);
    assert_eq!(call.gas, NearGas::from_tgas(30));
    assert!(signed.verify());
    assert_eq!(action.to_borsh(), bytes);
}

/// nearcore's `DELEGATE_ACTION_HEX`: a delegate action of one CreateAccount with empty
/// key and signature.
#[test]
fn nearcore_delegate_action_vector() {
    let expected = hex(
        "0803000000616161030000006262620100000000010000000000000002000000000000\
        0000000000000000000000000000000000000000000000000000000000000000000000\
        0000000000000000000000000000000000000000000000000000000000000000000000\
        0000000000000000000000000000000000000000000000000000000000",
    );
    let action = Action::Delegate(Box::new(SignedDelegateAction {
        delegate_action: DelegateAction {
            sender_id: "aaa".parse().unwrap(),
            receiver_id: "bbb".parse().unwrap(),
            actions: vec![Action::CreateAccount.try_into().unwrap()],
            nonce: 1,
            max_block_height: 2,
            public_key: PublicKey::ed25519([0; 32]),
        },
        signature: Signature::ed25519([0; 64]),
    }));
    assert_eq!(action.to_borsh(), expected);
    assert_eq!(Action::from_borsh(&expected).unwrap(), action);
}

/// nearcore's key vectors (`SecretKey::from_seed(ED25519, "test")`) and near-api-js's.
#[test]
fn key_text_forms_and_signatures_match_nearcore_and_near_api_js() {
    let key: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse().unwrap();
    assert_eq!(
        key.public_key().to_string(),
        "ed25519:DcA2MzgpJbrUATQLLceocVckhhAqrkingax4oJ9kZ847"
    );
    assert_eq!(key.sign(b"123").to_string(), "ed25519:3s1dvZdQtcAjBksMHFrysqvF63wnyMHPA4owNQmCJZ2EBakZEKdtMsLqrHdKWQjJbSRN6kRknN2WdwSBLWGCokXj");
    // near-api-js: a 32-byte seed, and a keypair without prefix.
    let seed: SecretKey = "ed25519:4RDn17Y8bm6FRg57BhW7eVnrHTF2nsmRfkj1nPXR1zYB"
        .parse()
        .unwrap();
    assert_eq!(
        seed.public_key().to_string(),
        "ed25519:Bpz2oUnMM8MM8trXmdAJW5sS1TtPkMot4cosa16ZeYFQ"
    );
    let plain: SecretKey =
        "26x56YPzPDro5t2smQfGcYAPy3j7R2jB2NUb7xKbAGK23B6x4WNQPh3twb6oDksFov5X8ts5CtntUNbpQpAKFdbR"
            .parse()
            .unwrap();
    assert_eq!(
        plain.public_key().to_string(),
        "ed25519:AYWv9RAN1hpSQA4p1DLhCNnpnNXwxhfH9qeHN8B4nJ59"
    );
    let message = CryptoHash::hash_bytes(b"message");
    assert_eq!(
        near_rpc_base58(plain.sign(&message.0).as_bytes()),
        "26gFr4xth7W9K7HPWAxq3BLsua8oTy378mC1MYFiEXHBBpeBjP8WmJEJo8XTBowetvqbRshcQEtBUdwQcAqDyP8T"
    );
    // near-api-js's secp256k1 key: its public key, and its (deterministic) signature
    // of sha256("message").
    let secp: SecretKey = "secp256k1:Cqmi5vHc59U1MHhq7JCxTSJentvVBYMcKGUA7s7kwnKn"
        .parse()
        .unwrap();
    assert_eq!(secp.public_key().to_string(), "secp256k1:45KcWwYt6MYRnnWFSxyQVkuu9suAzxoSkUMEnFNBi9kDayTo5YPUaqMWUrf7YHUDNMMj3w75vKuvfAMgfiFXBy28");
    let signature = secp.sign(&message.0);
    assert_eq!(
        near_rpc_base58(signature.as_bytes()),
        "3xamkuNXQr4HHLXygRdp42Q19BRs6X5vENHbVtj7duaphZpdaRR2dZD7NvxWHw2twFiUxCvYXue6ZDsWg77DWBxNb"
    );
    assert!(near_rpc::tx::verify(
        &secp.public_key(),
        &message.0,
        &signature
    ));
    // nearcore's secp256k1 vector (`test_json_serialize_secp256k1`, near/nearcore
    // `core/crypto/src/signature.rs` at 00e9d55fe36d84a4498ba9ab818d6a7de2db51c3):
    // `SecretKey::from_seed(SECP256K1, "test")`, its public key, and its signature of
    // sha256("123"), the 32 bytes given to `sign` (nearcore hashes, the key does not).
    let secp: SecretKey = "secp256k1:X4ETFKtQkSGVoZEnkn7bZ3LyajJaK2b3eweXaKmynGx"
        .parse()
        .unwrap();
    assert_eq!(
        secp.public_key().to_string(),
        "secp256k1:5ftgm7wYK5gtVqq1kxMGy7gSudkrfYCbpsjL6sH1nwx2oj5NR2JktohjzB6fbEhhRERQpiwJcpwnQjxtoX3GS3cQ"
    );
    let sha256_123 = CryptoHash::hash_bytes(b"123");
    let signature = secp.sign(&sha256_123.0);
    assert_eq!(
        signature.to_string(),
        "secp256k1:5N5CB9H1dmB9yraLGCo4ZCQTcF24zj4v2NT14MHdH3aVhRoRXrX3AhprHr2w6iXNBZDmjMS1Ntzjzq8Bv6iBvwth6"
    );
    assert!(near_rpc::tx::verify(
        &secp.public_key(),
        &sha256_123.0,
        &signature
    ));
}

/// secp256k1 verification as nearcore's `Signature::verify` does it (near/nearcore,
/// `core/crypto/src/signature.rs` at 00e9d55fe36d84a4498ba9ab818d6a7de2db51c3): the
/// recovery byte is range-checked (0..=3) and otherwise unused, the message must be the
/// 32-byte prehash, `(r, s)` is checked against the given key, and high s is refused
/// (libsecp256k1's `secp256k1_ecdsa_verify`).
#[test]
fn secp256k1_verification_matches_nearcore() {
    use near_rpc::tx::verify;
    let key: SecretKey = "secp256k1:X4ETFKtQkSGVoZEnkn7bZ3LyajJaK2b3eweXaKmynGx"
        .parse()
        .unwrap();
    let public = key.public_key();
    let hash = CryptoHash::hash_bytes(b"123").0;
    let signature = key.sign(&hash);
    let bytes = signature.as_bytes().to_vec();
    let with = |bytes: &[u8]| Signature::from_parts(near_rpc::KeyType::Secp256k1, bytes).unwrap();

    // Every recovery byte 0..=3 verifies (nothing is recovered); 4 and above never do.
    for recovery in 0..=3u8 {
        let mut other = bytes.clone();
        other[64] = recovery;
        assert!(
            verify(&public, &hash, &with(&other)),
            "recovery id {recovery}"
        );
    }
    for recovery in [4u8, 27, 255] {
        let mut other = bytes.clone();
        other[64] = recovery;
        assert!(
            !verify(&public, &hash, &with(&other)),
            "recovery id {recovery}"
        );
    }

    // Only a 32-byte message: not the bytes that were hashed, not the hash cut or padded.
    assert!(!verify(&public, b"123", &signature));
    assert!(!verify(&public, &hash[..31], &signature));
    let mut longer = hash.to_vec();
    longer.push(0);
    assert!(!verify(&public, &longer, &signature));
    assert!(!verify(&public, &[], &signature));

    // The high-s twin (s' = n - s) of the valid signature is refused.
    let n = hex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
    let mut high = bytes.clone();
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let digit = i16::from(n[i]) - i16::from(bytes[32 + i]) - borrow;
        high[32 + i] = digit.rem_euclid(256) as u8;
        borrow = i16::from(digit < 0);
    }
    assert_ne!(high[32..64], bytes[32..64]);
    assert!(!verify(&public, &hash, &with(&high)));

    // Another key, a key that is not a curve point: refused, never a panic.
    let other = SecretKey::secp256k1_from_bytes(&[7; 32]).unwrap();
    assert!(!verify(&other.public_key(), &hash, &signature));
    assert!(!verify(&PublicKey::secp256k1([1; 64]), &hash, &signature));
}

fn near_rpc_base58(bytes: &[u8]) -> String {
    // The signature's text form is `curve:base58`; the vectors give the base58 alone.
    let text = Signature::from_parts(
        if bytes.len() == 64 {
            near_rpc::KeyType::Ed25519
        } else {
            near_rpc::KeyType::Secp256k1
        },
        bytes,
    )
    .unwrap()
    .to_string();
    text.split_once(':').unwrap().1.to_owned()
}

/// nearcore's key-file example (`secret_key`, as nearcore names it) and near-cli's form
/// (`private_key`).
#[test]
fn credential_files_in_both_spellings() {
    let nearcore = r#"{
      "account_id": "example",
      "public_key": "ed25519:6DSjZ8mvsRZDvFqFxo8tCKePG96omXW7eVYVSySmDk8e",
      "secret_key": "ed25519:3D4YudUahN1nawWogh8pAKSj92sUNMdbZGjn7kERKzYoTy8tnFQuwoGUC51DowKqorvkr2pytJSnwuSbsNVfqygr"
    }"#;
    let credentials = Credentials::from_json(nearcore, "key.json").unwrap();
    assert_eq!(credentials.account_id, "example");
    assert_eq!(
        credentials.public_key().to_string(),
        "ed25519:6DSjZ8mvsRZDvFqFxo8tCKePG96omXW7eVYVSySmDk8e"
    );
    let near_cli = nearcore.replace("secret_key", "private_key");
    assert_eq!(
        Credentials::from_json(&near_cli, "key.json").unwrap(),
        credentials
    );
}

/// near-cli's layout, `<home>/.near-credentials/<network>/<account>.json`: read for the
/// account asked for, on the network asked for; a file holding another account's key is
/// refused by name, and a missing one names its path. The home directory is given
/// (`from_near_cli_in`), so that no test changes the process's environment.
#[test]
fn near_cli_credentials_are_read_from_the_account_file_of_the_network() {
    let secret = "ed25519:3D4YudUahN1nawWogh8pAKSj92sUNMdbZGjn7kERKzYoTy8tnFQuwoGUC51DowKqorvkr2pytJSnwuSbsNVfqygr";
    let home = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("near-cli-home-{}", std::process::id()));
    let dir = home.join(".near-credentials").join("testnet");
    std::fs::create_dir_all(&dir).unwrap();
    let alice: near_rpc::AccountId = "alice.testnet".parse().unwrap();
    let carol: near_rpc::AccountId = "carol.testnet".parse().unwrap();

    let path = Credentials::near_cli_path_in(&home, "testnet", &alice);
    assert_eq!(path, dir.join("alice.testnet.json"));
    std::fs::write(
        &path,
        format!(r#"{{"account_id":"alice.testnet","public_key":"ed25519:6DSjZ8mvsRZDvFqFxo8tCKePG96omXW7eVYVSySmDk8e","private_key":"{secret}"}}"#),
    )
    .unwrap();
    let read = Credentials::from_near_cli_in(&home, "testnet", &alice).unwrap();
    assert_eq!(read.account_id, alice);
    assert_eq!(
        read.public_key().to_string(),
        "ed25519:6DSjZ8mvsRZDvFqFxo8tCKePG96omXW7eVYVSySmDk8e"
    );
    assert_eq!(read.secret_key, secret.parse::<SecretKey>().unwrap());

    // A file in carol's place that holds bob's key: refused, naming both and the file.
    let carol_path = Credentials::near_cli_path_in(&home, "testnet", &carol);
    std::fs::write(
        &carol_path,
        format!(r#"{{"account_id":"bob.testnet","private_key":"{secret}"}}"#),
    )
    .unwrap();
    let error = Credentials::from_near_cli_in(&home, "testnet", &carol).unwrap_err();
    assert_eq!(
        error,
        near_rpc::tx::CredentialsError::Invalid {
            source: carol_path.display().to_string(),
            field: Some("account_id"),
            message: "the file is for bob.testnet, not carol.testnet".to_owned(),
        }
    );
    let text = format!("{error} {error:?}");
    assert!(!text.contains(&secret[8..]), "{text}");

    // Another network is another directory: alice has no mainnet file.
    let error = Credentials::from_near_cli_in(&home, "mainnet", &alice).unwrap_err();
    match &error {
        near_rpc::tx::CredentialsError::Io { path, .. } => assert_eq!(
            path,
            &home.join(".near-credentials/mainnet/alice.testnet.json")
        ),
        other => panic!("expected a read error, got {other:?}"),
    }
    assert!(
        error.to_string().contains("mainnet/alice.testnet.json"),
        "{error}"
    );

    // The environment's home (read, never set here) gives the same layout.
    if let Some(home) = std::env::var_os("HOME") {
        assert_eq!(
            Credentials::near_cli_path("testnet", &alice),
            Some(Credentials::near_cli_path_in(home, "testnet", &alice))
        );
    }
    std::fs::remove_dir_all(&home).unwrap();
}

/// Every way a credential file can be wrong: each error names the file and field, and
/// none contains the secret key.
#[test]
fn bad_credential_files_name_the_field_never_the_key() {
    let secret = "ed25519:3D4YudUahN1nawWogh8pAKSj92sUNMdbZGjn7kERKzYoTy8tnFQuwoGUC51DowKqorvkr2pytJSnwuSbsNVfqygr";
    let other_public = "ed25519:DcA2MzgpJbrUATQLLceocVckhhAqrkingax4oJ9kZ847";
    let mangled = secret.replace("3D4Y", "3D0Y");
    let cases: Vec<(String, &str)> = vec![
        (
            format!(r#"{{"account_id":"example","private_key":"{secret}""#),
            "not JSON",
        ),
        (format!(r#"["{secret}"]"#), "not a JSON object"),
        (
            format!(r#"{{"private_key":"{secret}"}}"#),
            "`account_id`: missing",
        ),
        (
            format!(r#"{{"account_id":"Bad Id","private_key":"{secret}"}}"#),
            "`account_id`: not a valid account id",
        ),
        (
            r#"{"account_id":"example"}"#.to_owned(),
            "`private_key`: missing",
        ),
        (
            r#"{"account_id":"example","private_key":7}"#.to_owned(),
            "`private_key`: not a string",
        ),
        (
            format!(r#"{{"account_id":"example","private_key":"{mangled}"}}"#),
            "`private_key`: bad base58",
        ),
        (
            format!(
                r#"{{"account_id":"example","private_key":"{}"}}"#,
                &secret[..50]
            ),
            "`private_key`: an ed25519 secret key is 64 bytes",
        ),
        (
            format!(
                r#"{{"account_id":"example","public_key":"{other_public}","private_key":"{secret}"}}"#
            ),
            "`public_key`: ed25519:DcA2",
        ),
        (
            format!(
                r#"{{"account_id":"example","private_key":"{secret}","secret_key":"{mangled}"}}"#
            ),
            "`secret_key`: differs",
        ),
    ];
    for (text, expected) in cases {
        let err = Credentials::from_json(&text, "alice.json").unwrap_err();
        let shown = format!("{err} {err:?}");
        assert!(shown.contains("alice.json"), "{shown}");
        assert!(shown.contains(expected), "{text}: {shown}");
        for part in [
            &secret[8..],
            &mangled[8..],
            &secret[8..30],
            &mangled[10..40],
        ] {
            assert!(!shown.contains(part), "the key leaked: {shown}");
        }
    }
}

/// A file giving a key twice is refused (a JSON parser would keep the last, and which
/// was meant is unknown), naming the field but never a key that is not one, and the
/// environment's variables are read, a value that is not UTF-8 refused without being
/// quoted.
#[test]
fn credential_duplicates_and_the_environment() {
    let secret = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3";
    let pasted = &secret[8..40];
    let repeated = [
        (
            format!(
                r#"{{"account_id":"a.near","private_key":"garbage","private_key":"{secret}"}}"#
            ),
            "dup.json: `private_key`: given more than once",
        ),
        (
            format!(
                r#"{{"private_key":"{secret}","account_id":"a.near","acc\u006funt_id":"b.near"}}"#
            ),
            "dup.json: `account_id`: given more than once",
        ),
        (
            format!(
                r#"{{"account_id":"a.near","private_key":"{secret}","{pasted}":1,"{pasted}":2}}"#
            ),
            "dup.json: a key is given twice in one object",
        ),
        (
            format!(
                r#"{{"account_id":"a.near","private_key":"{secret}","x":{{"private_key":1,"private_key":2}}}}"#
            ),
            "dup.json: a key is given twice in one object",
        ),
    ];
    for (text, expected) in repeated {
        let err = Credentials::from_json(&text, "dup.json").unwrap_err();
        let shown = format!("{err} {err:?}");
        assert!(shown.contains(expected), "{text}: {shown}");
        assert!(!shown.contains(pasted), "the key leaked: {shown}");
    }
    let text =
        format!(r#"{{"account_id":"a.near","private_key":"{secret}","x":{{"private_key":1}}}}"#);
    let credentials = Credentials::from_json(&text, "ok.json").unwrap();
    assert_eq!(credentials.secret_key, secret.parse().unwrap());
    // Escapes in the key text are read.
    let escaped = format!(
        r#"{{"account_id":"a.near","private_key":"ed25519\u003a{}"}}"#,
        &secret[8..]
    );
    assert_eq!(
        Credentials::from_json(&escaped, "esc.json").unwrap(),
        credentials
    );

    let (account_var, key_var) = ("NEAR_RPC_TEST_ACCOUNT_4711", "NEAR_RPC_TEST_KEY_4711");
    std::env::set_var(account_var, "alice.near");
    std::env::set_var(key_var, secret);
    let from_env = Credentials::from_env_vars(account_var, key_var).unwrap();
    assert_eq!(from_env.account_id, "alice.near");
    assert_eq!(from_env.secret_key, credentials.secret_key);
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let mut bytes = secret.as_bytes().to_vec();
        bytes[10] = 0xff;
        std::env::set_var(key_var, std::ffi::OsStr::from_bytes(&bytes));
        let err = Credentials::from_env_vars(account_var, key_var).unwrap_err();
        let shown = format!("{err} {err:?}");
        assert!(
            shown.contains("not valid UTF-8") && shown.contains(key_var),
            "{shown}"
        );
        assert!(!shown.contains(&secret[12..40]), "{shown}");
    }
    std::env::remove_var(key_var);
    let err = Credentials::from_env_vars(account_var, key_var).unwrap_err();
    assert!(err.to_string().contains("not set"), "{err}");
    std::env::remove_var(account_var);
}

/// One of every action, with every permission and identifier form.
fn every_action() -> Vec<Action> {
    let key = test_key();
    let secp = SecretKey::secp256k1_from_bytes(&[9; 32])
        .unwrap()
        .public_key();
    let gas_key = GasKeyInfo {
        balance: NearToken::from_near(2),
        num_nonces: 4,
    };
    let permission = FunctionCallPermission {
        allowance: Some(NearToken::from_millinear(250)),
        receiver_id: "app.near".into(),
        method_names: vec!["a".into(), "b".into()],
    };
    let delegate = DelegateAction {
        sender_id: "alice.near".parse().unwrap(),
        receiver_id: "app.near".parse().unwrap(),
        actions: eight_actions()
            .into_iter()
            .map(|a| NonDelegateAction::try_from(a).unwrap())
            .collect(),
        nonce: 5,
        max_block_height: 1_000,
        public_key: key.clone(),
    };
    let signer: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse().unwrap();
    let mut actions = eight_actions();
    actions.extend([
        Action::Stake {
            stake: NearToken::from_near(1),
            public_key: secp.clone(),
        },
        Action::AddKey {
            public_key: secp.clone(),
            access_key: AccessKey::full_access(),
        },
        Action::AddKey {
            public_key: key.clone(),
            access_key: AccessKey {
                nonce: 3,
                permission: AccessKeyPermission::GasKeyFunctionCall(
                    gas_key.clone(),
                    permission.clone(),
                ),
            },
        },
        Action::AddKey {
            public_key: key.clone(),
            access_key: AccessKey {
                nonce: 0,
                permission: AccessKeyPermission::GasKeyFullAccess(gas_key),
            },
        },
        Action::Delegate(Box::new(delegate.sign(&signer))),
        Action::DeployGlobalContract {
            code: vec![0, 97, 115, 109],
            deploy_mode: GlobalContractDeployMode::CodeHash,
        },
        Action::DeployGlobalContract {
            code: vec![0, 97, 115, 109, 1],
            deploy_mode: GlobalContractDeployMode::AccountId,
        },
        Action::UseGlobalContract {
            contract_identifier: GlobalContractIdentifier::CodeHash(CryptoHash([7; 32])),
        },
        Action::UseGlobalContract {
            contract_identifier: GlobalContractIdentifier::AccountId(
                "publisher.near".parse().unwrap(),
            ),
        },
        Action::DeterministicStateInit {
            state_init: DeterministicAccountStateInit::V1 {
                code: GlobalContractIdentifier::AccountId("publisher.near".parse().unwrap()),
                data: BTreeMap::from([
                    (b"alpha".to_vec(), b"2".to_vec()),
                    (b"zeta".to_vec(), b"1".to_vec()),
                ]),
            },
            deposit: NearToken::from_yoctonear(1),
        },
        Action::TransferToGasKey {
            public_key: key.clone(),
            deposit: NearToken::from_yoctonear(123),
        },
        Action::WithdrawFromGasKey {
            public_key: key.clone(),
            amount: NearToken::from_yoctonear(123),
        },
    ]);
    // nearcore 0.38's: a gas key's meta-transaction holding a universal state init.
    #[cfg(feature = "nearcore_0_38_0")]
    {
        let state_init = Action::UniversalStateInit {
            state_init: vec![0, 1, 2, 3],
            deposit: NearToken::from_yoctonear(5),
        };
        let delegate = near_rpc::tx::DelegateActionV2 {
            sender_id: "alice.near".parse().unwrap(),
            receiver_id: "app.near".parse().unwrap(),
            actions: vec![NonDelegateAction::try_from(state_init.clone()).unwrap()],
            nonce: TransactionNonce::GasKeyNonce {
                nonce: 5,
                nonce_index: 2,
            },
            max_block_height: 1_000,
            public_key: key,
        };
        actions.extend([
            Action::DelegateV2(Box::new(delegate.sign(&signer))),
            state_init,
        ]);
    }
    actions
}

#[test]
fn every_action_round_trips_through_borsh_and_the_views() {
    let actions = every_action();
    let names: std::collections::BTreeSet<_> = actions.iter().map(Action::name).collect();
    let variants = if cfg!(feature = "nearcore_0_38_0") {
        16
    } else {
        14
    };
    assert_eq!(names.len(), variants, "one of every variant: {names:?}");
    for action in &actions {
        let bytes = action.to_borsh();
        assert_eq!(&Action::from_borsh(&bytes).unwrap(), action, "{action:?}");
        let view = ActionView::from(action);
        // The view's JSON decodes back to the same view (what a node sends).
        let json = serde_json::to_value(&view).unwrap();
        let decoded: ActionView = near_rpc::decode::from_value(json.clone()).unwrap();
        assert_eq!(decoded, view, "{json}");
        match action {
            Action::DeployContract { code } | Action::DeployGlobalContract { code, .. } => {
                // Nodes show deployed code as the base64 of its sha256.
                let shown = json.as_object().unwrap().values().next().unwrap()["code"].clone();
                assert_eq!(
                    b64(shown.as_str().unwrap()),
                    CryptoHash::hash_bytes(code).0.to_vec()
                );
                assert!(matches!(
                    Action::try_from(&view),
                    Err(ViewError::CodeOnlyHashed { .. })
                ));
                let back = near_rpc::tx::action_from_view_with_code(&view, code).unwrap();
                assert_eq!(&back, action);
                assert!(near_rpc::tx::action_from_view_with_code(&view, b"other").is_err());
            }
            _ => assert_eq!(&Action::try_from(&view).unwrap(), action, "{json}"),
        }
    }
}

/// The layouts no public suite has vectors for, written out from nearcore's source
/// (near-primitives 0.36: field order, tags) so that a change is seen.
#[test]
fn layouts_without_public_vectors() {
    let key = "0f56a5f028dfc089ec7c39c1183b321b4d8f89ba5bec9e1762803cc2491f6ef8";
    let u128_123 = "7b000000000000000000000000000000";
    let cases = [
        (
            Action::TransferToGasKey {
                public_key: test_key(),
                deposit: NearToken::from_yoctonear(123),
            },
            format!("0c00{key}{u128_123}"),
        ),
        (
            Action::WithdrawFromGasKey {
                public_key: test_key(),
                amount: NearToken::from_yoctonear(123),
            },
            format!("0d00{key}{u128_123}"),
        ),
        (
            Action::UseGlobalContract {
                contract_identifier: GlobalContractIdentifier::AccountId(
                    "abc.near".parse().unwrap(),
                ),
            },
            "0a01080000006162632e6e656172".to_owned(),
        ),
        (
            Action::DeployGlobalContract {
                code: vec![1, 2, 3],
                deploy_mode: GlobalContractDeployMode::AccountId,
            },
            "090300000001020301".to_owned(),
        ),
        (
            Action::AddKey {
                public_key: test_key(),
                access_key: AccessKey {
                    nonce: 0,
                    permission: AccessKeyPermission::GasKeyFullAccess(GasKeyInfo {
                        balance: NearToken::from_yoctonear(0),
                        num_nonces: 4,
                    }),
                },
            },
            format!("0500{key}{}03{}0400", "00".repeat(8), "00".repeat(16)),
        ),
        // The data map is borsh's BTreeMap: entries sorted bytewise by key ("alpha"
        // before "zeta"), whatever order they were inserted in.
        (
            Action::DeterministicStateInit {
                state_init: DeterministicAccountStateInit::V1 {
                    code: GlobalContractIdentifier::AccountId("publisher.near".parse().unwrap()),
                    data: BTreeMap::from([
                        (b"alpha".to_vec(), b"2".to_vec()),
                        (b"zeta".to_vec(), b"1".to_vec()),
                    ]),
                },
                deposit: NearToken::from_yoctonear(1),
            },
            "0b00010e0000007075626c69736865722e6e6561720200000005000000616c7068610100000032040000007a6574610100000031\
             01000000000000000000000000000000"
                .to_owned(),
        ),
    ];
    for (action, expected) in cases {
        assert_eq!(action.to_borsh(), hex(&expected), "{action:?}");
    }
}

/// A version-1 transaction (gas key nonce, nonce mode): its tag byte, its nonce's layout,
/// and nearcore's rule for telling the versions apart.
#[test]
fn version_1_transactions() {
    let v1 = Transaction::V1(TransactionV1 {
        signer_id: "test.near".parse().unwrap(),
        public_key: test_key(),
        nonce: TransactionNonce::GasKeyNonce {
            nonce: 7,
            nonce_index: 2,
        },
        receiver_id: "123".parse().unwrap(),
        block_hash: CryptoHash::default(),
        // Without the deployment, whose view shows only the code's hash.
        actions: eight_actions()
            .into_iter()
            .filter(|a| !matches!(a, Action::DeployContract { .. }))
            .collect(),
        nonce_mode: NonceMode::Strict,
    });
    let bytes = v1.to_borsh();
    assert_eq!(bytes[0], 1);
    assert_eq!(&bytes[1..5], &[9, 0, 0, 0]);
    assert_eq!(
        &bytes[5 + 9 + 33..5 + 9 + 33 + 11],
        &hex("0107000000000000000200")[..]
    );
    assert_eq!(*bytes.last().unwrap(), 1, "strict");
    assert_eq!(Transaction::from_borsh(&bytes).unwrap(), v1);
    assert_eq!(v1.nonce_index(), Some(2));
    // Neither version: nearcore refuses a first byte other than 1 when the second is not
    // zero.
    let err = Transaction::from_borsh(&[2, 5, 0, 0, 0, 0, 0, 0]).unwrap_err();
    assert_eq!(
        err.kind,
        BorshErrorKind::UnknownTag {
            of: "Transaction version",
            tag: 2
        }
    );
    // The view shows a version-1 transaction with its nonce index and mode.
    let key: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse().unwrap();
    let signed = v1.sign(&key);
    let view = SignedTransactionView::from(&signed);
    assert_eq!(view.nonce_index, Some(2));
    let back = SignedTransaction::from_view(&view, CryptoHash::default()).unwrap();
    assert_eq!(back, signed);
}

/// A version-1 transaction with the default nonce mode, as a node shows it (no
/// `nonce_mode`, no `nonce_index`: a view like version 0's), reads back by its hash; an
/// empty signature is refused.
#[test]
fn version_1_views_without_their_defaults_and_empty_signatures() {
    let key: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse().unwrap();
    let signed = Transaction::V1(TransactionV1 {
        signer_id: "alice.near".parse().unwrap(),
        public_key: key.public_key(),
        nonce: TransactionNonce::Nonce { nonce: 4 },
        receiver_id: "bob.near".parse().unwrap(),
        block_hash: CryptoHash([1; 32]),
        actions: vec![Action::transfer(NearToken::from_near(1))],
        nonce_mode: NonceMode::Monotonic,
    })
    .sign(&key);
    let json = serde_json::to_value(SignedTransactionView::from(&signed)).unwrap();
    assert!(
        json.get("nonce_mode").is_none() && json.get("nonce_index").is_none(),
        "{json}"
    );
    let view: SignedTransactionView = near_rpc::decode::from_value(json.clone()).unwrap();
    assert_eq!(
        SignedTransaction::from_view(&view, CryptoHash([1; 32])).unwrap(),
        signed
    );
    // Strict is shown.
    let mut strict = json;
    strict["nonce_mode"] = serde_json::json!("strict");
    let view: SignedTransactionView = near_rpc::decode::from_value(strict).unwrap();
    assert!(matches!(
        SignedTransaction::from_view(&view, CryptoHash([1; 32])),
        Err(ViewError::HashMismatch { .. })
    ));
    let mut empty = SignedTransactionView::from(&signed);
    empty.signature = "ed25519:".parse().unwrap();
    assert_eq!(
        SignedTransaction::from_view(&empty, CryptoHash([1; 32])),
        Err(ViewError::EmptySignature)
    );
    // Signed with an empty signature by hand, the bytes are still whole (nearcore's
    // empty signature: zeros), and decode.
    let unsigned =
        SignedTransaction::new(signed.transaction().clone(), "ed25519:".parse().unwrap());
    let back = SignedTransaction::from_borsh(&unsigned.to_borsh()).unwrap();
    assert_eq!(back.signature().as_bytes(), [0; 64]);
    assert!(!back.verify() && !unsigned.verify());
}

#[test]
fn signed_transactions_read_back_from_their_views_given_the_block_hash() {
    let key: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse().unwrap();
    let block = CryptoHash([3; 32]);
    let actions: Vec<Action> = every_action()
        .into_iter()
        .filter(|a| {
            !matches!(
                a,
                Action::DeployContract { .. } | Action::DeployGlobalContract { .. }
            )
        })
        .collect();
    let signed = Transaction::new(
        "alice.near".parse().unwrap(),
        key.public_key(),
        9,
        "bob.near".parse().unwrap(),
        block,
        actions,
    )
    .sign(&key);
    let view = SignedTransactionView::from(&signed);
    assert_eq!(view.hash, signed.hash());
    let json = serde_json::to_value(&view).unwrap();
    let decoded: SignedTransactionView = near_rpc::decode::from_value(json).unwrap();
    assert_eq!(
        SignedTransaction::from_view(&decoded, block).unwrap(),
        signed
    );
    // The wrong block hash is found by the hash check.
    assert!(matches!(
        SignedTransaction::from_view(&decoded, CryptoHash::default()),
        Err(ViewError::HashMismatch { .. })
    ));
}

/// Hostile bytes: every truncation of a valid transaction, trailing bytes, a huge length,
/// unknown tags, a nested delegate. Each is an error naming where; none panics.
#[test]
fn hostile_bytes_are_refused_with_where() {
    let key: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse().unwrap();
    let signed = Transaction::new(
        "alice.near".parse().unwrap(),
        key.public_key(),
        9,
        "bob.near".parse().unwrap(),
        CryptoHash::default(),
        every_action(),
    )
    .sign(&key);
    let bytes = signed.to_borsh();
    for end in 0..bytes.len() {
        assert!(
            SignedTransaction::from_borsh(&bytes[..end]).is_err(),
            "{end}"
        );
    }
    let mut long = bytes.clone();
    long.push(0);
    let err = SignedTransaction::from_borsh(&long).unwrap_err();
    assert_eq!(err.kind, BorshErrorKind::TrailingBytes { count: 1 });
    // The action count made huge: refused as a length past the end, at `actions`.
    let mut huge = bytes.clone();
    let count_at = 4 + 10 + 33 + 8 + 4 + 8 + 32;
    huge[count_at..count_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = SignedTransaction::from_borsh(&huge).unwrap_err();
    assert!(matches!(
        err.kind,
        BorshErrorKind::LengthPastEnd {
            length: u32::MAX,
            ..
        }
    ));
    assert_eq!(err.path, "transaction.actions");
    // The first action's tag made unknown.
    let mut tag = bytes.clone();
    tag[count_at + 4] = 99;
    let err = SignedTransaction::from_borsh(&tag).unwrap_err();
    assert_eq!(
        err.kind,
        BorshErrorKind::UnknownTag {
            of: "Action",
            tag: 99
        }
    );
    assert_eq!(err.path, "transaction.actions[0]");
    assert!(err.to_string().contains("unknown Action tag 99"), "{err}");
    // A delegate inside a delegate (nearcore's DELEGATE_ACTION_HEX with its CreateAccount
    // replaced by a delegate tag).
    let mut nested = hex("08030000006161610300000062626201000000");
    nested.push(8);
    let err = Action::from_borsh(&nested).unwrap_err();
    assert_eq!(
        err.kind,
        BorshErrorKind::Invalid("a delegate action cannot contain another delegate action".into())
    );
    assert_eq!(err.path, "Delegate.delegate_action.actions[0]");
    assert_eq!(err.offset, nested.len() - 1);
    // Delegates nested 100 000 deep are refused at the second, on a small stack:
    // nothing inside is decoded first.
    let err = nested_100_000_deep(&hex("08030000006161610300000062626201000000"));
    assert!(err.to_string().contains("cannot contain another"), "{err}");
    // An invalid account id, named.
    let mut bad_id = bytes.clone();
    bad_id[4] = b'A';
    let err = SignedTransaction::from_borsh(&bad_id).unwrap_err();
    assert_eq!(err.path, "transaction.signer_id");
    assert!(err.to_string().contains("not a valid account id"), "{err}");
    // Map keys out of order in a state init.
    let out_of_order = hex("0b0001030000006162630200000001000000620000000001000000610000000001000000000000000000000000000000");
    let err = Action::from_borsh(&out_of_order).unwrap_err();
    assert!(err.to_string().contains("increasing"), "{err}");
    // At the offending key, the map's second entry.
    assert_eq!(err.offset, 23);
    assert_eq!(err.path, "DeterministicStateInit.state_init.V1.data[1]");
    // Not base64.
    let err = SignedTransaction::from_base64("not base64!").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("the signed transaction is not base64: "),
        "{err}"
    );
    assert!(!err.to_string().contains("byte"), "{err}");
    // An ed25519 signature nearcore refuses (the top bits of its last byte set).
    let mut high = bytes.clone();
    let last = high.len() - 1;
    high[last] |= 0b1110_0000;
    let err = SignedTransaction::from_borsh(&high).unwrap_err();
    assert_eq!(err.path, "signature");
    assert!(
        err.to_string().contains("not an ed25519 signature"),
        "{err}"
    );
}

/// nearcore's borsh decoding refuses an ed25519 signature whose last byte has any of its
/// top three bits set (core/crypto/src/signature.rs): a delegate action carrying one is
/// refused wherever a transaction is made of it, naming the action, and the bit below
/// them (which a valid signature may have) is not.
#[test]
fn a_delegate_signature_nearcore_cannot_read_is_refused() {
    let key: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse().unwrap();
    let delegate = |last: u8| {
        let mut signature = [7u8; 64];
        signature[63] = last;
        Action::Delegate(Box::new(SignedDelegateAction {
            delegate_action: DelegateAction {
                sender_id: "alice.near".parse().unwrap(),
                receiver_id: "app.near".parse().unwrap(),
                actions: vec![NonDelegateAction::try_from(Action::CreateAccount).unwrap()],
                nonce: 5,
                max_block_height: 1_000,
                public_key: key.public_key(),
            },
            signature: Signature::ed25519(signature),
        }))
    };
    let transaction = |actions: Vec<Action>| {
        Transaction::new(
            "relayer.near".parse().unwrap(),
            key.public_key(),
            9,
            "alice.near".parse().unwrap(),
            CryptoHash::default(),
            actions,
        )
    };
    for last in [0b0010_0000, 0b0100_0000, 0b1000_0000, 0xff, 0b0011_1111] {
        let actions = vec![
            Action::transfer(NearToken::from_yoctonear(1)),
            delegate(last),
        ];
        assert_eq!(
            near_rpc::tx::check_actions(&actions),
            Err(near_rpc::tx::UnreadableAction {
                index: 1,
                name: "Delegate"
            }),
            "{last:#010b}"
        );
        let err = transaction(actions.clone()).try_sign(&key).unwrap_err();
        assert!(
            err.to_string().starts_with("action 1 (Delegate): "),
            "{err}"
        );
        // Its view converts back to no action either, naming where it is.
        let views: Vec<ActionView> = actions.iter().map(ActionView::from).collect();
        let err = Action::try_from(&views[1]).unwrap_err();
        assert_eq!(
            err,
            ViewError::UnreadableSignature {
                at: "action.Delegate.signature".to_owned()
            }
        );
        // What `sign` would make of it is bytes nearcore's rule refuses, as this crate's
        // borsh decoding does.
        let bytes = transaction(actions).sign(&key).to_borsh();
        let err = SignedTransaction::from_borsh(&bytes).unwrap_err();
        assert_eq!(
            err.path, "transaction.actions[1].Delegate.signature",
            "{err}"
        );
    }
    for last in [0, 0b0001_0000, 0b0001_1111] {
        let actions = vec![delegate(last), Action::CreateAccount];
        assert_eq!(near_rpc::tx::check_actions(&actions), Ok(()));
        let signed = transaction(actions).try_sign(&key).unwrap();
        assert_eq!(
            SignedTransaction::from_borsh(&signed.to_borsh()).unwrap(),
            signed
        );
    }
    // The signatures DelegateAction::sign makes are all readable (a valid one's `s` is
    // below 2^253).
    let Action::Delegate(template) = delegate(0) else {
        unreachable!()
    };
    for nonce in 0..64 {
        let mut inner = template.delegate_action.clone();
        inner.nonce = nonce;
        let signed = inner.sign(&key);
        assert!(signed.signature.borsh_readable() && signed.verify());
    }
}

/// Cheap pseudo-random bytes (no RNG crate): decoding never panics, and whatever
/// decodes re-encodes to the same bytes.
#[test]
fn random_bytes_never_panic_and_what_decodes_reencodes() {
    let key: SecretKey = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3".parse().unwrap();
    let valid = Transaction::new(
        "alice.near".parse().unwrap(),
        key.public_key(),
        9,
        "bob.near".parse().unwrap(),
        CryptoHash::default(),
        every_action(),
    )
    .sign(&key)
    .to_borsh();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut decoded = 0;
    for _ in 0..20_000 {
        let mut bytes = valid.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() as usize) % bytes.len();
            bytes[at] = next() as u8;
        }
        if let Ok(tx) = SignedTransaction::from_borsh(&bytes) {
            decoded += 1;
            assert_eq!(tx.to_borsh(), bytes);
        }
    }
    assert!(decoded > 0, "some mutations stay valid");
}

/// What decoding `level` (one delegate action's bytes up to its inner actions) repeated
/// 100 000 times as one action says, on a thread of a 64 KiB stack: a decoder that
/// recursed before refusing would overflow it.
pub(crate) fn nested_100_000_deep(level: &[u8]) -> near_rpc::tx::BorshError {
    let deep: Vec<u8> = level
        .iter()
        .copied()
        .cycle()
        .take(level.len() * 100_000)
        .collect();
    std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || Action::from_borsh(&deep).unwrap_err())
        .unwrap()
        .join()
        .unwrap()
}
