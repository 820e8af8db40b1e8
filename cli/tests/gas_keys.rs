//! End-to-end tests of `send` and `transfer` with a gas key (`--nonce-index`), against
//! the mock node: `near-rpc mock --gas-key` gives an account its gas key and writes the
//! key file, the binary signs a version-1 transaction on the index asked for through the
//! library's write path, and the node's nonces and balances move as nearcore moves them
//! (gas from the key's balance, the deposit from the account's).

// Only part of the shared support is used here.
#[allow(unused_imports)]
mod support;

use serde_json::{json, Value};
use support::{near_rpc, Serving};

const NEAR: u128 = 1_000_000_000_000_000_000_000_000;

fn assert_exit(run: &support::Run, code: i32) {
    assert_eq!(run.code, code, "unexpected exit status: {run:?}");
}

/// A fresh 0700 directory for key files.
fn key_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("near-rpc-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The nonces of `account`'s mock gas key, read with `gas-key-nonces`.
fn gas_key_nonces(url: &str, account: &str) -> Vec<u64> {
    let public_key = near_rpc_mock::chain::gas_key_secret(account).public_key();
    let out = near_rpc(&[
        "--url",
        url,
        "gas-key-nonces",
        account,
        &public_key.to_string(),
    ]);
    assert_exit(&out, 0);
    let view = out.json();
    assert!(view["block_height"].as_u64().is_some(), "{view}");
    nonces(&view)
}

/// The `nonces` of a `view_gas_key_nonces` answer.
fn nonces(view: &Value) -> Vec<u64> {
    view["nonces"]
        .as_array()
        .expect("nonces")
        .iter()
        .map(|n| n.as_u64().expect("a nonce"))
        .collect()
}

/// The balance of `account`'s mock gas key, as `access-key` shows it.
fn gas_key_balance(url: &str, account: &str) -> u128 {
    let public_key = near_rpc_mock::chain::gas_key_secret(account).public_key();
    let out = near_rpc(&["--url", url, "access-key", account, &public_key.to_string()]);
    assert_exit(&out, 0);
    let balance = &out.json()["permission"]["GasKeyFullAccess"]["balance"];
    balance
        .as_str()
        .expect("a gas key's balance")
        .parse()
        .unwrap()
}

/// The balance of `account`.
fn amount(url: &str, account: &str) -> u128 {
    let out = near_rpc(&["--url", url, "account", account]);
    assert_exit(&out, 0);
    out.json()["amount"].as_str().unwrap().parse().unwrap()
}

/// The tokens an outcome burnt, its transaction's and its receipts'.
fn burnt(outcome: &Value) -> u128 {
    std::iter::once(&outcome["transaction_outcome"])
        .chain(outcome["receipts_outcome"].as_array().unwrap())
        .map(|o| {
            o["outcome"]["tokens_burnt"]
                .as_str()
                .unwrap()
                .parse::<u128>()
                .unwrap()
        })
        .sum()
}

/// `near-rpc mock --gas-key alice.mock:4:2 --credentials-dir DIR` writes the gas key's
/// file; `transfer --nonce-index 3` with it executes as a version-1 transaction on index
/// 3: that index's nonce moves by one and no other, the 1 NEAR comes from alice's account
/// exactly, the gas from the key's balance. Strict mode on another index takes exactly the
/// next nonce. An index the key does not have is a usage error (exit 2, nothing on stdout,
/// nothing sent), and so is an access key's file given `--nonce-index`.
#[test]
fn a_transfer_on_a_gas_keys_nonce_index_moves_that_index_and_the_keys_balance() {
    let dir = key_dir("gas-keys");
    let mock = Serving::start(&[
        "mock",
        "--port",
        "0",
        "--block-time",
        "0",
        "--credentials-dir",
        dir.to_str().unwrap(),
        "--gas-key",
        "alice.mock:4:2",
        "--gas-key",
        "bob.mock",
    ]);
    let url = mock.url.as_str();
    let gas_file = dir.join("mock").join("alice.mock@gas-key.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&gas_file).unwrap()).unwrap();
    let gas_public = near_rpc_mock::chain::gas_key_secret("alice.mock").public_key();
    assert_eq!(file["account_id"], "alice.mock");
    assert_eq!(file["public_key"], gas_public.to_string());
    // Defaults: 8 nonce indexes, 1 NEAR.
    assert_eq!(gas_key_nonces(url, "bob.mock").len(), 8);
    assert_eq!(gas_key_balance(url, "bob.mock"), NEAR);

    let gas_file = gas_file.to_str().unwrap();
    let before = gas_key_nonces(url, "alice.mock");
    assert_eq!(before.len(), 4);
    // `gas-key-nonces` is the query's shortcut: the same nonces as `call query`.
    let params = json!({
        "request_type": "view_gas_key_nonces",
        "account_id": "alice.mock",
        "public_key": gas_public.to_string(),
        "finality": "final",
    });
    let out = near_rpc(&["--url", url, "call", "query", &params.to_string()]);
    assert_exit(&out, 0);
    assert_eq!(nonces(&out.json()), before);
    // A key that is no gas key: the node's UNKNOWN_GAS_KEY, exit 3.
    let access = near_rpc_mock::chain::public_key("alice.mock").to_string();
    let out = near_rpc(&["--url", url, "gas-key-nonces", "alice.mock", &access]);
    assert_exit(&out, 3);
    assert!(out.stdout.contains("UNKNOWN_GAS_KEY"), "{out:?}");
    let (alice, bob, key) = (
        amount(url, "alice.mock"),
        amount(url, "bob.mock"),
        gas_key_balance(url, "alice.mock"),
    );
    assert_eq!(key, 2 * NEAR);
    let transfer = |index: &str, extra: &[&str]| {
        let mut args = vec![
            "--url",
            url,
            "transfer",
            "--key-file",
            gas_file,
            "bob.mock",
            "1",
            "--wait-until",
            "final",
            "--nonce-index",
            index,
        ];
        args.extend(extra);
        near_rpc(&args)
    };
    let out = transfer("3", &[]);
    assert_exit(&out, 0);
    let outcome = out.json();
    let tx = &outcome["transaction"];
    assert_eq!(tx["public_key"], gas_public.to_string());
    assert_eq!(tx["nonce_index"], 3);
    assert_eq!(tx["nonce"], before[3] + 1);
    // As nearcore shows it: no `nonce_mode` for the default, monotonic.
    assert_eq!(tx.get("nonce_mode"), None, "{tx}");
    let mut expected = before.clone();
    expected[3] += 1;
    assert_eq!(gas_key_nonces(url, "alice.mock"), expected);
    assert_eq!(amount(url, "alice.mock"), alice - NEAR, "the deposit only");
    assert_eq!(amount(url, "bob.mock"), bob + NEAR);
    let spent = burnt(&outcome);
    assert!(spent > 0);
    assert_eq!(gas_key_balance(url, "alice.mock"), key - spent, "the gas");

    // Strict mode on index 1: exactly its nonce + 1.
    let out = transfer("1", &["--nonce-mode", "strict"]);
    assert_exit(&out, 0);
    let tx = &out.json()["transaction"];
    assert_eq!(tx["nonce_index"], 1);
    assert_eq!(tx["nonce"], before[1] + 1);
    assert_eq!(tx["nonce_mode"], "strict");
    expected[1] += 1;
    assert_eq!(gas_key_nonces(url, "alice.mock"), expected);

    // Index 4 of a key with 4 nonces: refused before signing, naming the index.
    let alice = amount(url, "alice.mock");
    let out = transfer("4", &[]);
    assert_exit(&out, 2);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(
        out.stderr.contains("lists 4 nonce(s) for the gas key")
            && out.stderr.contains("nonce index 4 is not among them"),
        "{out:?}"
    );
    // An access key's file with --nonce-index: not a gas key.
    let access_file = dir.join("mock").join("alice.mock.json");
    let out = near_rpc(&[
        "--url",
        url,
        "send",
        "--key-file",
        access_file.to_str().unwrap(),
        "--receiver",
        "bob.mock",
        "--nonce-index",
        "0",
        r#"[{"Transfer": {"deposit": "1"}}]"#,
    ]);
    assert_exit(&out, 2);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(out.stderr.contains("is not a gas key"), "{out:?}");
    assert_eq!(gas_key_nonces(url, "alice.mock"), expected);
    assert_eq!(amount(url, "alice.mock"), alice, "nothing was sent");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What the binary sends with `--nonce-index`: nearcore's `TransactionV1` with
/// `GasKeyNonce { nonce, nonce_index }` signed by the gas key, the nonce the node lists
/// at that index + 1, in the mode asked for (monotonic by default), through `send` and
/// `transfer` alike.
#[test]
fn send_and_transfer_sign_a_gas_key_nonce_on_the_index_asked_for() {
    use near_rpc::tx::{NonceMode, SignedTransaction, Transaction, TransactionNonce};
    let node = near_rpc_mock::MockNode::new();
    node.set_block_time(std::time::Duration::ZERO);
    node.add_gas_key("alice.mock", 3, NEAR).unwrap();
    let dir = key_dir("gas-key-bytes");
    node.write_credentials(&dir).unwrap();
    let server = node.serve_in_background(0).expect("listen on loopback");
    let url = server.url();
    let file = dir.join("mock").join("alice.mock@gas-key.json");
    let file = file.to_str().unwrap();
    let before = gas_key_nonces(url, "alice.mock");
    let runs = [
        (
            vec!["transfer", "--key-file", file, "bob.mock", "0.5"],
            ["--nonce-index", "2", "--nonce-mode", "MONOTONIC"],
        ),
        (
            vec![
                "send",
                "--key-file",
                file,
                "--receiver",
                "contract.mock",
                r#"[{"FunctionCall": {"method_name": "set_status", "args": "eyJtZXNzYWdlIjoiaGkifQ==", "gas": 30000000000000, "deposit": "0"}}]"#,
            ],
            ["--nonce-index", "0", "--nonce-mode", "strict"],
        ),
    ];
    for (command, options) in &runs {
        let mut args = vec!["--url", url];
        args.extend(command);
        args.extend(options);
        let out = near_rpc(&args);
        assert_exit(&out, 0);
    }
    // Without --nonce-mode: monotonic.
    let out = near_rpc(&[
        "--url",
        url,
        "transfer",
        "--key-file",
        file,
        "bob.mock",
        "1",
        "--yocto",
        "--nonce-index",
        "2",
    ]);
    assert_exit(&out, 0);
    let sent: Vec<SignedTransaction> = node
        .requests_for("send_tx")
        .iter()
        .map(|r| {
            let text = r.params()["signed_tx_base64"].as_str().unwrap().to_owned();
            SignedTransaction::from_base64(&text).unwrap()
        })
        .collect();
    assert_eq!(sent.len(), 3, "{:?}", node.requests());
    let expected = [
        (2, before[2] + 1, NonceMode::Monotonic),
        (0, before[0] + 1, NonceMode::Strict),
        (2, before[2] + 2, NonceMode::Monotonic),
    ];
    for (signed, (index, nonce, mode)) in sent.iter().zip(expected) {
        assert!(signed.verify());
        let Transaction::V1(tx) = signed.transaction() else {
            panic!("not version 1: {signed:?}");
        };
        assert_eq!(
            tx.public_key,
            near_rpc_mock::chain::gas_key_secret("alice.mock").public_key()
        );
        assert_eq!(
            tx.nonce,
            TransactionNonce::GasKeyNonce {
                nonce,
                nonce_index: index
            }
        );
        assert_eq!(tx.nonce_mode, mode);
    }
    let mut after = before.clone();
    after[2] += 2;
    after[0] += 1;
    assert_eq!(gas_key_nonces(url, "alice.mock"), after);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Out-of-range or negative indexes, unknown modes and bad `mock --gas-key` values are
/// usage errors: exit 2, nothing on stdout, the option named, nothing sent.
#[test]
fn bad_nonce_indexes_modes_and_gas_key_specs_exit_2() {
    let node = near_rpc_mock::MockNode::new();
    let server = node.serve_in_background(0).expect("listen on loopback");
    let url = server.url();
    let dir = key_dir("gas-key-bad");
    node.add_gas_key("alice.mock", 2, NEAR).unwrap();
    node.write_credentials(&dir).unwrap();
    let file = dir.join("mock").join("alice.mock@gas-key.json");
    let file = file.to_str().unwrap();
    for (options, named) in [
        (["--nonce-index", "65536"], "--nonce-index"),
        (["--nonce-index", "-1"], "cannot be negative"),
        (["--nonce-index", "x"], "--nonce-index"),
        (["--nonce-mode", "lax"], "--nonce-mode"),
    ] {
        for command in [
            vec!["transfer", "--key-file", file, "bob.mock", "1"],
            vec![
                "send",
                "--key-file",
                file,
                "--receiver",
                "bob.mock",
                r#"[{"Transfer": {"deposit": "1"}}]"#,
            ],
        ] {
            let mut args = vec!["--url", url];
            args.extend(&command);
            args.extend(options);
            let out = near_rpc(&args);
            assert_exit(&out, 2);
            assert!(out.stdout.is_empty(), "{out:?}");
            assert!(out.stderr.contains(named), "{options:?}: {out:?}");
        }
    }
    assert!(node.requests().is_empty(), "{:?}", node.requests());
    for (spec, named) in [
        ("alice.mock:0", "1 to 1024 nonces, not 0"),
        ("alice.mock:1025", "a number of nonces"),
        ("alice.mock:-2", "cannot be negative"),
        ("alice.mock:2:-1", "BALANCE"),
        ("alice.mock:2:1.x", "BALANCE `1.x`"),
        ("Not Valid", "ACCOUNT"),
        ("nobody.mock", "no account nobody.mock"),
        (
            "alice.mock:2:1000",
            "less than the 1000000000000000000000000000 asked",
        ),
    ] {
        let out = near_rpc(&["mock", "--port", "0", "--gas-key", spec]);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
        assert!(out.stderr.contains(named), "{spec}: {out:?}");
        assert!(out.stderr.contains("--gas-key"), "{spec}: {out:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
