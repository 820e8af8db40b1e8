//! nearcore's own types read back what the `near-rpc` binary prints: `sign` (version 0,
//! and version 1 with `--nonce-index` and `--nonce-mode`) and `sign-delegate`, over every
//! action kind ACTIONS_JSON takes. The expected actions are nearcore's reading of the same
//! ACTIONS_JSON (its `ActionView` and `Action::try_from`); the bytes are decoded with
//! nearcore's borsh, re-encoded to the same bytes, hashed with nearcore's `get_hash` /
//! `get_nep461_hash` and the signature verified with near-crypto.

use std::path::PathBuf;

use near_crypto::{InMemorySigner, KeyType, PublicKey};
use near_primitives::action::delegate::{DelegateAction, NonDelegateAction, SignedDelegateAction};
use near_primitives::action::Action;
use near_primitives::hash::CryptoHash;
use near_primitives::transaction::{NonceMode, SignedTransaction, Transaction, TransactionNonce};
use near_primitives::types::AccountId;
use near_primitives::views::ActionView;
use nearcore_readback::{
    bs58, has_command, is_latest_build, non_delegate_actions, run, unbase64, KeyFile, Rng,
};
use serde_json::{json, Value};

fn key_dir(test: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("nearcore-readback-{test}"))
}

/// A key file of each type the binary signs with, each for its own account: ed25519 and
/// secp256k1, and ML-DSA-65 in a build for nearcore 0.38 (`latest`; other builds refuse
/// it: `ml_dsa_65_keys_only_in_latest_builds`).
fn keys(test: &str) -> Vec<KeyFile> {
    let dir = key_dir(test);
    let mut keys = vec![
        KeyFile::write(&dir, "alice.near", KeyType::ED25519, "alice"),
        KeyFile::write(&dir, "bob.testnet", KeyType::SECP256K1, "bob"),
    ];
    if is_latest_build() {
        keys.push(KeyFile::write(
            &dir,
            "carol.near",
            KeyType::MLDSA65,
            "carol",
        ));
    }
    keys
}

/// nearcore's reading of ACTIONS_JSON: its JSON view, then its conversion to actions.
fn nearcore_actions(actions_json: &Value) -> Vec<Action> {
    let views: Vec<ActionView> = serde_json::from_value(actions_json.clone())
        .unwrap_or_else(|e| panic!("nearcore's ActionView does not read {actions_json}: {e}"));
    views
        .into_iter()
        .map(|view| Action::try_from(view).expect("nearcore converts its view to an action"))
        .collect()
}

fn account(id: &str) -> AccountId {
    id.parse().expect("valid account id")
}

/// How `sign` is asked for its nonce, and the transaction nearcore must read.
#[derive(Clone, Copy, Debug)]
enum NonceArgs {
    /// No option: `TransactionV0`.
    V0,
    /// `--nonce-index I`, with `--nonce-mode` when given (monotonic by default).
    GasKey(u16, Option<NonceMode>),
    /// `--nonce-mode` alone: `TransactionV1` with a plain nonce.
    Mode(NonceMode),
}

impl NonceArgs {
    fn all(rng: &mut Rng) -> Vec<NonceArgs> {
        let index = Rng::nonce_index;
        vec![
            NonceArgs::V0,
            NonceArgs::GasKey(index(rng), None),
            NonceArgs::GasKey(index(rng), Some(NonceMode::Monotonic)),
            NonceArgs::GasKey(index(rng), Some(NonceMode::Strict)),
            NonceArgs::Mode(NonceMode::Strict),
            NonceArgs::Mode(NonceMode::Monotonic),
        ]
    }

    fn args(self) -> Vec<String> {
        let mode = |mode: NonceMode| match mode {
            NonceMode::Monotonic => "monotonic",
            NonceMode::Strict => "strict",
        };
        match self {
            NonceArgs::V0 => vec![],
            NonceArgs::GasKey(index, None) => vec!["--nonce-index".into(), index.to_string()],
            NonceArgs::GasKey(index, Some(m)) => vec![
                "--nonce-index".into(),
                index.to_string(),
                "--nonce-mode".into(),
                mode(m).into(),
            ],
            NonceArgs::Mode(m) => vec!["--nonce-mode".into(), mode(m).into()],
        }
    }
}

/// One `sign` run, and everything nearcore reads in its output checked.
struct SignCase<'a> {
    key: &'a KeyFile,
    signer: Option<String>,
    nonce: u64,
    nonce_args: NonceArgs,
    receiver: String,
    block_hash: [u8; 32],
    actions_json: Value,
}

impl SignCase<'_> {
    fn check(&self, what: &str) {
        let nonce = self.nonce.to_string();
        let block_hash = bs58(&self.block_hash);
        let actions = self.actions_json.to_string();
        let mut args = vec![
            "sign",
            "--key-file",
            self.key.arg(),
            "--nonce",
            &nonce,
            "--block-hash",
            &block_hash,
            "--receiver",
            &self.receiver,
        ];
        if let Some(signer) = &self.signer {
            args.extend(["--signer", signer.as_str()]);
        }
        let extra = self.nonce_args.args();
        args.extend(extra.iter().map(String::as_str));
        args.push(&actions);
        let what = format!(
            "{what} ({:?}, {})",
            self.nonce_args,
            self.key.secret.key_type()
        );
        let out = run(&args).json(&what);

        let bytes = unbase64(
            "signed_tx_base64",
            out["signed_tx_base64"].as_str().unwrap(),
        );
        let signed: SignedTransaction = borsh::from_slice(&bytes).unwrap_or_else(|e| {
            panic!("{what}: nearcore's borsh does not read the signed transaction: {e}")
        });
        assert_eq!(
            borsh::to_vec(&signed).unwrap(),
            bytes,
            "{what}: nearcore re-encodes other bytes"
        );
        let signer_id = account(self.signer.as_deref().unwrap_or(&self.key.account));
        let public_key: PublicKey = self.key.secret.public_key();
        let receiver_id = account(&self.receiver);
        let block_hash = CryptoHash(self.block_hash);
        let expected_actions = nearcore_actions(&self.actions_json);
        match (&signed.transaction, self.nonce_args) {
            (Transaction::V0(tx), NonceArgs::V0) => {
                assert_eq!(tx.signer_id, signer_id, "{what}: signer_id");
                assert_eq!(tx.public_key, public_key, "{what}: public_key");
                assert_eq!(tx.nonce, self.nonce, "{what}: nonce");
                assert_eq!(tx.receiver_id, receiver_id, "{what}: receiver_id");
                assert_eq!(tx.block_hash, block_hash, "{what}: block_hash");
                assert_eq!(tx.actions, expected_actions, "{what}: actions");
            }
            (Transaction::V1(tx), NonceArgs::GasKey(..) | NonceArgs::Mode(_)) => {
                let (nonce, mode) = match self.nonce_args {
                    NonceArgs::GasKey(nonce_index, mode) => (
                        TransactionNonce::GasKeyNonce {
                            nonce: self.nonce,
                            nonce_index,
                        },
                        mode.unwrap_or(NonceMode::Monotonic),
                    ),
                    NonceArgs::Mode(mode) => (TransactionNonce::Nonce { nonce: self.nonce }, mode),
                    NonceArgs::V0 => unreachable!(),
                };
                assert_eq!(tx.signer_id, signer_id, "{what}: signer_id");
                assert_eq!(tx.public_key, public_key, "{what}: public_key");
                assert_eq!(tx.nonce, nonce, "{what}: nonce");
                assert_eq!(tx.receiver_id, receiver_id, "{what}: receiver_id");
                assert_eq!(tx.block_hash, block_hash, "{what}: block_hash");
                assert_eq!(tx.actions, expected_actions, "{what}: actions");
                assert_eq!(tx.nonce_mode, mode, "{what}: nonce_mode");
            }
            (tx, args) => panic!("{what}: {args:?} signed {tx:?}"),
        }
        let hash = signed.get_hash();
        assert_eq!(
            out["hash"],
            json!(hash.to_string()),
            "{what}: the printed hash"
        );
        assert!(
            signed.signature.verify(hash.as_ref(), &public_key),
            "{what}: near-crypto does not verify the signature over nearcore's hash"
        );
    }
}

#[test]
fn sign_every_action_in_every_transaction_version() {
    let keys = keys("sign");
    let mut rng = Rng::new(37);
    let mut runs = 0;
    for key in &keys {
        let actions = non_delegate_actions(&mut rng);
        let variants = NonceArgs::all(&mut rng);
        // Each action alone, in turn under each nonce form.
        for (i, (name, action)) in actions.iter().enumerate() {
            SignCase {
                key,
                signer: None,
                nonce: rng.edgy_u64(),
                nonce_args: variants[i % variants.len()],
                receiver: rng.account(),
                block_hash: rng.hash(),
                actions_json: json!([action]),
            }
            .check(name);
            runs += 1;
        }
        // All of them in one transaction, under every nonce form, once with `--signer`
        // naming the key file's account (another account is refused: `refusals_print_nothing`).
        let all = Value::Array(actions.iter().map(|(_, a)| a.clone()).collect());
        for (i, nonce_args) in variants.iter().enumerate() {
            SignCase {
                key,
                signer: (i == 0).then(|| key.account.clone()),
                nonce: rng.edgy_u64(),
                nonce_args: *nonce_args,
                receiver: rng.account(),
                block_hash: rng.hash(),
                actions_json: all.clone(),
            }
            .check("every action at once");
            runs += 1;
        }
    }
    // 20 actions (five access-key permissions, both forms of each global contract action
    // and of a deterministic state init's code) alone, then all at once six ways.
    assert_eq!(runs, keys.len() * (20 + 6), "every case ran");
}

/// A delegate action signed by nearcore (near-crypto's signer), as a node shows it in
/// JSON, signed into a transaction by the CLI: nearcore reads back the same action, its
/// signature bytes included, and that signature still verifies.
#[test]
fn sign_a_relayed_delegate_action() {
    let keys = keys("relay");
    let mut rng = Rng::new(366);
    let pairs = (0..keys.len()).map(|i| (&keys[i], &keys[(i + 1) % keys.len()]));
    for (sender, relayer) in pairs {
        let inner = non_delegate_actions(&mut rng);
        let inner_json = Value::Array(inner.iter().map(|(_, a)| a.clone()).collect());
        let delegate = DelegateAction {
            sender_id: account(&sender.account),
            receiver_id: account(&rng.account()),
            actions: nearcore_actions(&inner_json)
                .into_iter()
                .map(|a| NonDelegateAction::try_from(a).expect("not a delegate"))
                .collect(),
            nonce: rng.edgy_u64(),
            max_block_height: rng.edgy_u64(),
            public_key: sender.secret.public_key(),
        };
        let signer =
            InMemorySigner::from_secret_key(account(&sender.account), sender.secret.clone());
        let signed = SignedDelegateAction::sign(&signer, delegate);
        assert!(signed.verify(), "nearcore verifies its own delegate action");
        let view = json!({"Delegate": serde_json::to_value(&signed).unwrap()});
        for nonce_args in [NonceArgs::V0, NonceArgs::GasKey(3, None)] {
            SignCase {
                key: relayer,
                signer: None,
                nonce: rng.u64(),
                nonce_args,
                receiver: sender.account.clone(),
                block_hash: rng.hash(),
                actions_json: json!([view]),
            }
            .check("Delegate");
        }
        // nearcore's conversion of the view is the delegate action it signed.
        assert_eq!(
            nearcore_actions(&json!([view])),
            vec![Action::Delegate(Box::new(signed))]
        );
    }
}

/// `sign-delegate` with each action a delegate action may hold, and with all of them:
/// nearcore reads the `SignedDelegateAction`, its NEP-461 hash is the printed one, and
/// its `verify()` holds.
#[test]
fn sign_delegate_every_action() {
    let keys = keys("sign-delegate");
    let mut rng = Rng::new(461);
    let mut runs = 0;
    for key in &keys {
        let actions = non_delegate_actions(&mut rng);
        let all = Value::Array(actions.iter().map(|(_, a)| a.clone()).collect());
        let cases = actions
            .iter()
            .map(|(name, a)| (name.clone(), json!([a]), None))
            .chain([(
                "every action at once".to_string(),
                all,
                Some(key.account.as_str()),
            )]);
        for (name, actions_json, signer) in cases {
            let nonce = rng.edgy_u64();
            let max_block_height = rng.edgy_u64();
            let receiver = rng.account();
            let (nonce_s, height_s, actions_s) = (
                nonce.to_string(),
                max_block_height.to_string(),
                actions_json.to_string(),
            );
            let mut args = vec![
                "sign-delegate",
                "--key-file",
                key.arg(),
                "--nonce",
                &nonce_s,
                "--max-block-height",
                &height_s,
                "--receiver",
                &receiver,
            ];
            if let Some(signer) = signer {
                args.extend(["--signer", signer]);
            }
            args.push(&actions_s);
            let what = format!("sign-delegate {name} ({})", key.secret.key_type());
            let out = run(&args).json(&what);
            let bytes = unbase64(
                "signed_delegate_action_base64",
                out["signed_delegate_action_base64"].as_str().unwrap(),
            );
            let signed: SignedDelegateAction = borsh::from_slice(&bytes).unwrap_or_else(|e| {
                panic!("{what}: nearcore's borsh does not read the signed delegate action: {e}")
            });
            assert_eq!(borsh::to_vec(&signed).unwrap(), bytes, "{what}: re-encoded");
            let d = &signed.delegate_action;
            assert_eq!(
                d.sender_id,
                account(signer.unwrap_or(&key.account)),
                "{what}: sender_id"
            );
            assert_eq!(d.receiver_id, account(&receiver), "{what}: receiver_id");
            let actions: Vec<Action> = d.actions.iter().cloned().map(Action::from).collect();
            assert_eq!(actions, nearcore_actions(&actions_json), "{what}: actions");
            assert_eq!(d.nonce, nonce, "{what}: nonce");
            assert_eq!(
                d.max_block_height, max_block_height,
                "{what}: max_block_height"
            );
            assert_eq!(d.public_key, key.secret.public_key(), "{what}: public_key");
            assert_eq!(
                out["hash"],
                json!(d.get_nep461_hash().to_string()),
                "{what}: the printed hash is not nearcore's NEP-461 hash"
            );
            assert!(
                signed.verify(),
                "{what}: nearcore's verify() refuses the signature"
            );
            runs += 1;
        }
    }
    assert_eq!(runs, keys.len() * (20 + 1), "every case ran");
}

/// What must be refused is refused: exit 2 and nothing on stdout.
#[test]
fn refusals_print_nothing() {
    let keys = keys("refusals");
    let key = &keys[0];
    let hash = bs58(&[7; 32]);
    let base = [
        "sign",
        "--key-file",
        key.arg(),
        "--nonce",
        "5",
        "--block-hash",
        &hash,
        "--receiver",
        "bob.near",
    ];
    let transfer = r#"[{"Transfer": {"deposit": "1"}}]"#;
    for (what, extra) in [
        ("index over 65535", vec!["--nonce-index", "65536"]),
        ("negative index", vec!["--nonce-index=-1"]),
        ("unknown mode", vec!["--nonce-mode", "sequential"]),
        (
            "unknown mode with an index",
            vec!["--nonce-index", "1", "--nonce-mode", "loose"],
        ),
        (
            "a signer the key file is not for",
            vec!["--signer", "mallory.near"],
        ),
        ("no actions", vec!["[]"]),
    ] {
        let mut args = base.to_vec();
        let no_actions = extra == ["[]"];
        args.extend(extra);
        if !no_actions {
            args.push(transfer);
        }
        let out = run(&args);
        assert_eq!(
            out.code, 2,
            "{what}: exit {}, stderr {}",
            out.code, out.stderr
        );
        assert_eq!(out.stdout, "", "{what}: stdout");
    }
    // A delegate action among sign-delegate's actions.
    let delegate = DelegateAction {
        sender_id: account("alice.near"),
        receiver_id: account("bob.near"),
        actions: vec![],
        nonce: 1,
        max_block_height: 10,
        public_key: key.secret.public_key(),
    };
    let signer = InMemorySigner::from_secret_key(account("alice.near"), key.secret.clone());
    let signed = SignedDelegateAction::sign(&signer, delegate);
    let nested = json!([{"Delegate": serde_json::to_value(&signed).unwrap()}]).to_string();
    let out = run(&[
        "sign-delegate",
        "--key-file",
        key.arg(),
        "--nonce",
        "2",
        "--max-block-height",
        "9",
        "--receiver",
        "bob.near",
        &nested,
    ]);
    assert_eq!(
        out.code, 2,
        "nested delegate: exit {}, stderr {}",
        out.code, out.stderr
    );
    assert_eq!(out.stdout, "", "nested delegate: stdout");
}

/// NEP-413's payload, in its field order (NEP-413: message, nonce, recipient,
/// callback_url). nearcore has no type for it; its `SignableMessage` with the off-chain
/// discriminant of NEP 413 puts the prefix in front, as nodes and wallets do.
#[derive(borsh::BorshSerialize)]
struct Nep413Payload {
    message: String,
    nonce: [u8; 32],
    recipient: String,
    callback_url: Option<String>,
}

/// `sign-message` (NEP-413): nearcore's prefix and borsh over the payload, hashed, and
/// near-crypto verifies the printed signature with the printed key, which is the key
/// file's.
#[test]
fn sign_message_nep413() {
    use near_primitives::signable_message::{MessageDiscriminant, SignableMessage};

    assert!(has_command("sign-message"), "--help lists sign-message");
    let keys = keys("sign-message");
    // A nonce that is not 32 bytes, or not base64: exit 2, nothing on stdout.
    for nonce in [
        nearcore_readback::base64(&[1; 31]),
        nearcore_readback::base64(&[1; 33]),
        "not base64!".into(),
    ] {
        let out = run(&[
            "sign-message",
            "--key-file",
            keys[0].arg(),
            "--recipient",
            "app.near",
            "--nonce",
            &nonce,
            "hello",
        ]);
        assert_eq!(
            (out.code, out.stdout.as_str()),
            (2, ""),
            "nonce {nonce}: {}",
            out.stderr
        );
    }
    let mut rng = Rng::new(413);
    for key in &keys {
        for callback in [None, Some("https://example.com/callback?x=1")] {
            let nonce = rng.hash();
            let len = rng.below(200) as usize;
            // Any text, past ASCII too.
            let message = format!("Sign in {} — ü {}", rng.ident(len), rng.u64());
            let recipient = rng.account();
            let nonce_b64 = nearcore_readback::base64(&nonce);
            let mut args = vec![
                "sign-message",
                "--key-file",
                key.arg(),
                "--recipient",
                &recipient,
                "--nonce",
                &nonce_b64,
            ];
            if let Some(url) = callback {
                args.extend(["--callback-url", url]);
            }
            args.push(&message);
            let what = format!(
                "sign-message ({}, callback {callback:?})",
                key.secret.key_type()
            );
            let out = run(&args).json(&what);
            assert_eq!(out["account_id"], json!(key.account), "{what}: account_id");
            let public_key: PublicKey = out["public_key"].as_str().unwrap().parse().unwrap();
            assert_eq!(public_key, key.secret.public_key(), "{what}: public_key");
            let payload = Nep413Payload {
                message: message.clone(),
                nonce,
                recipient: recipient.clone(),
                callback_url: callback.map(str::to_string),
            };
            let signable = SignableMessage {
                discriminant: MessageDiscriminant::new_off_chain(413).unwrap(),
                msg: &payload,
            };
            let hash = near_primitives::hash::hash(&borsh::to_vec(&signable).unwrap());
            let raw = unbase64("signature", out["signature"].as_str().unwrap());
            let signature = near_crypto::Signature::from_parts(public_key.key_type(), &raw)
                .unwrap_or_else(|e| panic!("{what}: near-crypto does not read the signature: {e}"));
            assert!(
                signature.verify(hash.as_ref(), &public_key),
                "{what}: the signature"
            );
        }
    }
}

/// ML-DSA-65 key files: a build for nearcore 0.38 signs with them (the other tests read
/// its signatures back with near-crypto); any other build refuses the key file, exit 2
/// with nothing on stdout, naming the field.
#[test]
fn ml_dsa_65_keys_only_in_latest_builds() {
    let dir = key_dir("ml-dsa");
    let key = KeyFile::write(&dir, "carol.near", KeyType::MLDSA65, "carol");
    let hash = bs58(&[3; 32]);
    let out = run(&[
        "sign",
        "--key-file",
        key.arg(),
        "--nonce",
        "1",
        "--block-hash",
        &hash,
        "--receiver",
        "bob.near",
        r#"["CreateAccount"]"#,
    ]);
    if is_latest_build() {
        let out = out.json("ML-DSA-65 sign");
        let bytes = unbase64(
            "signed_tx_base64",
            out["signed_tx_base64"].as_str().unwrap(),
        );
        let signed: SignedTransaction = borsh::from_slice(&bytes).expect("nearcore reads it");
        assert_eq!(signed.transaction.public_key(), &key.secret.public_key());
        assert!(signed
            .signature
            .verify(signed.get_hash().as_ref(), &key.secret.public_key()));
    } else {
        eprintln!(
            "near-rpc is not a nearcore 0.38 build: ML-DSA-65 signing not checked, its refusal is"
        );
        assert_eq!(out.code, 2, "exit {}: {}", out.code, out.stderr);
        assert_eq!(out.stdout, "");
        assert!(
            out.stderr.contains("private_key") && out.stderr.contains("nearcore_0_38_0"),
            "names the field and the feature ML-DSA-65 keys need: {}",
            out.stderr
        );
    }
}
