//! The library's codec (`near_rpc::tx`, the `tx` feature with `latest`, nearcore 0.38's
//! actions) against nearcore's own borsh types, both ways, over deterministic random
//! values: every `Action` variant (`DelegateV2` and `UniversalStateInit` too) and
//! access-key permission, both transaction versions with every nonce form and mode,
//! signed with both key types, and signed delegate actions of both versions (a version-2
//! one with an access key's nonce or a gas key's, signed by near-rpc and by nearcore).
//! nearcore decodes near-rpc's
//! bytes and re-encodes the same bytes, near-rpc decodes nearcore's bytes to the value it
//! started from, hashes and signatures are nearcore's (`get_hash`, `get_nep461_hash`,
//! near-crypto's `verify`), and each action's fields are compared through the two JSON
//! views (nearcore's `ActionView` from its decoded action, near-rpc's from its own), so a
//! field encoded in another field's place is caught even where the bytes would round-trip.

use std::collections::BTreeMap;

use near_rpc::tx::{
    AccessKey, AccessKeyPermission, Action, DelegateAction, DelegateActionV2,
    DeterministicAccountStateInit, FunctionCallPermission, GasKeyInfo, GlobalContractDeployMode,
    GlobalContractIdentifier, NonDelegateAction, NonceMode, SecretKey, SignedDelegateAction,
    SignedDelegateActionV2, SignedTransaction, Transaction, TransactionNonce, TransactionV0,
    TransactionV1,
};
use near_rpc::{AccountId, CryptoHash, NearGas, NearToken, PublicKey};
use nearcore_readback::Rng;
use serde_json::Value;

type NcAction = near_primitives::action::Action;

/// nearcore's action tags: 0 to 15.
const KINDS: u64 = 16;

/// The kinds a delegate action of either version may hold: all but 8 and 14.
const NON_DELEGATE_KINDS: [u64; 14] = [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 15];

fn secret_key(rng: &mut Rng) -> SecretKey {
    loop {
        let bytes = rng.hash();
        if rng.below(2) == 0 {
            return SecretKey::ed25519_from_seed(&bytes);
        }
        // Not every 32 bytes is a secp256k1 scalar; the next draw is.
        if let Ok(key) = SecretKey::secp256k1_from_bytes(&bytes) {
            return key;
        }
    }
}

fn public_key(rng: &mut Rng) -> PublicKey {
    secret_key(rng).public_key()
}

fn account(rng: &mut Rng) -> AccountId {
    rng.account().parse().expect("valid account id")
}

fn token(rng: &mut Rng) -> NearToken {
    NearToken::from_yoctonear(rng.edgy_u128())
}

fn bytes(rng: &mut Rng, max: u64) -> Vec<u8> {
    let len = rng.below(max + 1) as usize;
    rng.bytes(len)
}

fn function_call_permission(rng: &mut Rng) -> FunctionCallPermission {
    let methods = rng.below(4);
    FunctionCallPermission {
        allowance: (rng.below(3) != 0).then(|| token(rng)),
        receiver_id: rng.account(),
        method_names: (0..methods)
            .map(|_| {
                let len = 1 + rng.below(20) as usize;
                rng.ident(len)
            })
            .collect(),
    }
}

fn contract_identifier(rng: &mut Rng) -> GlobalContractIdentifier {
    if rng.below(2) == 0 {
        GlobalContractIdentifier::CodeHash(CryptoHash(rng.hash()))
    } else {
        GlobalContractIdentifier::AccountId(account(rng))
    }
}

fn non_delegate_actions(rng: &mut Rng) -> Vec<NonDelegateAction> {
    let n = rng.below(3);
    (0..n)
        .map(|_| {
            let kind = *rng.pick(&NON_DELEGATE_KINDS);
            NonDelegateAction::try_from(action(rng, kind)).expect("not a delegate")
        })
        .collect()
}

/// One action of kind `kind` (0 to 15, nearcore's tags; 8, `Delegate`, and 14,
/// `DelegateV2`, hold some of the other kinds' actions).
fn action(rng: &mut Rng, kind: u64) -> Action {
    match kind {
        0 => Action::CreateAccount,
        1 => Action::DeployContract {
            code: bytes(rng, 400),
        },
        2 => {
            let len = 1 + rng.below(40) as usize;
            let method = rng.ident(len);
            let args = bytes(rng, 300);
            Action::function_call(method, args, NearGas::from_gas(rng.edgy_u64()), token(rng))
        }
        3 => Action::Transfer {
            deposit: token(rng),
        },
        4 => Action::Stake {
            stake: token(rng),
            public_key: public_key(rng),
        },
        5 => {
            let info = |rng: &mut Rng| GasKeyInfo {
                balance: token(rng),
                num_nonces: rng.below(65536) as u16,
            };
            let permission = match rng.below(4) {
                0 => AccessKeyPermission::FullAccess,
                1 => AccessKeyPermission::FunctionCall(function_call_permission(rng)),
                2 => AccessKeyPermission::GasKeyFunctionCall(
                    info(rng),
                    function_call_permission(rng),
                ),
                _ => AccessKeyPermission::GasKeyFullAccess(info(rng)),
            };
            Action::AddKey {
                public_key: public_key(rng),
                access_key: AccessKey {
                    nonce: rng.edgy_u64(),
                    permission,
                },
            }
        }
        6 => Action::DeleteKey {
            public_key: public_key(rng),
        },
        7 => Action::DeleteAccount {
            beneficiary_id: account(rng),
        },
        8 => {
            let actions = non_delegate_actions(rng);
            let key = secret_key(rng);
            let delegate = DelegateAction {
                sender_id: account(rng),
                receiver_id: account(rng),
                actions,
                nonce: rng.edgy_u64(),
                max_block_height: rng.edgy_u64(),
                public_key: key.public_key(),
            };
            Action::Delegate(Box::new(delegate.sign(&key)))
        }
        9 => Action::DeployGlobalContract {
            code: bytes(rng, 400),
            deploy_mode: if rng.below(2) == 0 {
                GlobalContractDeployMode::CodeHash
            } else {
                GlobalContractDeployMode::AccountId
            },
        },
        10 => Action::UseGlobalContract {
            contract_identifier: contract_identifier(rng),
        },
        11 => {
            let entries = rng.below(5);
            let data: BTreeMap<Vec<u8>, Vec<u8>> = (0..entries)
                .map(|_| (bytes(rng, 40), bytes(rng, 100)))
                .collect();
            Action::DeterministicStateInit {
                state_init: DeterministicAccountStateInit::V1 {
                    code: contract_identifier(rng),
                    data,
                },
                deposit: token(rng),
            }
        }
        12 => Action::TransferToGasKey {
            public_key: public_key(rng),
            deposit: token(rng),
        },
        13 => Action::WithdrawFromGasKey {
            public_key: public_key(rng),
            amount: token(rng),
        },
        14 => {
            let actions = non_delegate_actions(rng);
            let key = secret_key(rng);
            let nonce = rng.edgy_u64();
            let delegate = DelegateActionV2 {
                sender_id: account(rng),
                receiver_id: account(rng),
                actions,
                nonce: if rng.below(2) == 0 {
                    TransactionNonce::Nonce { nonce }
                } else {
                    TransactionNonce::GasKeyNonce {
                        nonce,
                        nonce_index: rng.nonce_index(),
                    }
                },
                max_block_height: rng.edgy_u64(),
                public_key: key.public_key(),
            };
            Action::DelegateV2(Box::new(delegate.sign(&key)))
        }
        // The codec carries a state init's bytes as they are (nearcore's `RawStateInit`),
        // so any bytes round-trip.
        15 => Action::UniversalStateInit {
            state_init: bytes(rng, 200),
            deposit: token(rng),
        },
        _ => unreachable!("16 kinds"),
    }
}

/// A view's JSON with `null` fields dropped: nearcore writes an absent allowance as
/// `null`, near-rpc's view leaves it out; nothing else is normalised.
fn without_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_nulls).collect()),
        other => other,
    }
}

/// The two views of one action, compared as JSON.
fn same_fields(what: &str, ours: &Action, theirs: &NcAction) {
    let ours = serde_json::to_value(near_rpc::types::ActionView::from(ours)).unwrap();
    let theirs =
        serde_json::to_value(near_primitives::views::ActionView::from(theirs.clone())).unwrap();
    assert_eq!(
        without_nulls(ours),
        without_nulls(theirs),
        "{what}: the fields differ"
    );
}

/// near-rpc's bytes of `action` read by nearcore, re-encoded by it to the same bytes,
/// and read back by near-rpc as `action`.
fn round_trip_action(what: &str, action: &Action) -> NcAction {
    let bytes = action.to_borsh();
    let theirs: NcAction = borsh::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{what}: nearcore does not read {} bytes: {e}", bytes.len()));
    let again = borsh::to_vec(&theirs).unwrap();
    assert_eq!(again, bytes, "{what}: nearcore re-encodes other bytes");
    assert_eq!(
        &Action::from_borsh(&again).expect("near-rpc reads nearcore's bytes"),
        action,
        "{what}"
    );
    same_fields(what, action, &theirs);
    theirs
}

#[test]
fn every_action_variant_both_ways() {
    let mut rng = Rng::new(0x5eed);
    let mut seen = [0u32; KINDS as usize];
    for i in 0..KINDS * 60 {
        let kind = i % KINDS;
        let action = action(&mut rng, kind);
        let theirs = round_trip_action(&format!("case {i} ({})", action.name()), &action);
        match &theirs {
            NcAction::Delegate(signed) => assert!(
                signed.verify(),
                "case {i}: nearcore's verify() of near-rpc's delegate signature"
            ),
            NcAction::DelegateV2(signed) => assert!(
                signed.verify(),
                "case {i}: nearcore's verify() of near-rpc's version-2 delegate signature"
            ),
            _ => {}
        }
        seen[kind as usize] += 1;
    }
    assert!(
        seen.iter().all(|&n| n == 60),
        "every kind 60 times: {seen:?}"
    );
}

#[test]
fn transactions_of_both_versions_signed_both_ways() {
    let mut rng = Rng::new(0x7a11);
    let mut versions = [0u32; 2];
    for i in 0..300 {
        let key = secret_key(&mut rng);
        let n = rng.below(5);
        let actions: Vec<Action> = (0..n)
            .map(|_| {
                let kind = rng.below(KINDS);
                action(&mut rng, kind)
            })
            .collect();
        let (signer_id, receiver_id) = (account(&mut rng), account(&mut rng));
        let block_hash = CryptoHash(rng.hash());
        let nonce = rng.edgy_u64();
        let tx = if i % 3 == 0 {
            Transaction::V0(TransactionV0 {
                signer_id,
                public_key: key.public_key(),
                nonce,
                receiver_id,
                block_hash,
                actions,
            })
        } else {
            Transaction::V1(TransactionV1 {
                signer_id,
                public_key: key.public_key(),
                nonce: if rng.below(2) == 0 {
                    TransactionNonce::Nonce { nonce }
                } else {
                    TransactionNonce::GasKeyNonce {
                        nonce,
                        nonce_index: rng.nonce_index(),
                    }
                },
                receiver_id,
                block_hash,
                actions,
                nonce_mode: *rng.pick(&[NonceMode::Monotonic, NonceMode::Strict]),
            })
        };
        let what = format!("transaction {i}");
        let signed = tx.clone().sign(&key);
        let bytes = signed.to_borsh();
        let theirs: near_primitives::transaction::SignedTransaction = borsh::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{what}: nearcore does not read it: {e}"));
        assert_eq!(borsh::to_vec(&theirs).unwrap(), bytes, "{what}: re-encoded");
        assert_eq!(
            SignedTransaction::from_borsh(&bytes).unwrap(),
            signed,
            "{what}: read back"
        );
        assert_eq!(theirs.get_hash().0, signed.hash().0, "{what}: hash");
        assert_eq!(
            tx.to_borsh(),
            borsh::to_vec(&theirs.transaction).unwrap(),
            "{what}: unsigned bytes"
        );
        let their_key: near_crypto::PublicKey = key.public_key().to_string().parse().unwrap();
        assert!(
            theirs
                .signature
                .verify(theirs.get_hash().as_ref(), &their_key),
            "{what}: signature"
        );
        let t = &theirs.transaction;
        assert_eq!(
            t.signer_id().as_str(),
            tx.signer_id().as_str(),
            "{what}: signer_id"
        );
        assert_eq!(
            t.receiver_id().as_str(),
            tx.receiver_id().as_str(),
            "{what}: receiver_id"
        );
        assert_eq!(t.public_key(), &their_key, "{what}: public_key");
        assert_eq!(t.block_hash().0, tx.block_hash().0, "{what}: block_hash");
        assert_eq!(t.nonce().nonce(), tx.nonce(), "{what}: nonce");
        assert_eq!(
            t.nonce().nonce_index(),
            tx.nonce_index(),
            "{what}: nonce_index"
        );
        let (our_version, our_mode) = match &tx {
            Transaction::V0(_) => (0, NonceMode::Monotonic),
            Transaction::V1(v1) => (1, v1.nonce_mode),
            _ => unreachable!("two versions"),
        };
        let their_version = match t {
            near_primitives::transaction::Transaction::V0(_) => 0,
            near_primitives::transaction::Transaction::V1(_) => 1,
        };
        assert_eq!(their_version, our_version, "{what}: version");
        let their_mode = match t.nonce_mode() {
            near_primitives::transaction::NonceMode::Monotonic => NonceMode::Monotonic,
            near_primitives::transaction::NonceMode::Strict => NonceMode::Strict,
        };
        assert_eq!(their_mode, our_mode, "{what}: nonce_mode");
        assert_eq!(t.actions().len(), tx.actions().len(), "{what}: actions");
        for (j, (ours, theirs)) in tx.actions().iter().zip(t.actions()).enumerate() {
            same_fields(&format!("{what} action {j}"), ours, theirs);
        }
        versions[our_version] += 1;
    }
    assert_eq!(versions, [100, 200]);
}

#[test]
fn signed_delegate_actions_hash_and_verify_as_nearcore() {
    let mut rng = Rng::new(0x0366);
    for i in 0..200 {
        let Action::Delegate(signed) = action(&mut rng, 8) else {
            unreachable!()
        };
        let what = format!("delegate {i}");
        let bytes = signed.to_borsh();
        let theirs: near_primitives::action::delegate::SignedDelegateAction =
            borsh::from_slice(&bytes)
                .unwrap_or_else(|e| panic!("{what}: nearcore does not read it: {e}"));
        assert_eq!(borsh::to_vec(&theirs).unwrap(), bytes, "{what}: re-encoded");
        assert_eq!(
            SignedDelegateAction::from_borsh(&bytes).unwrap(),
            *signed,
            "{what}: read back"
        );
        assert_eq!(
            theirs.delegate_action.get_nep461_hash().0,
            signed.delegate_action.signable_hash().0,
            "{what}: NEP-461 hash"
        );
        assert!(theirs.verify(), "{what}: nearcore's verify()");
        assert_eq!(
            borsh::to_vec(&theirs.delegate_action).unwrap(),
            signed.delegate_action.to_borsh(),
            "{what}: the delegate action's bytes"
        );
    }
}

#[test]
fn signed_delegate_v2_actions_hash_and_verify_as_nearcore() {
    use near_primitives::action::delegate::{
        VersionedDelegateActionPayload, VersionedSignedDelegateAction,
    };
    let mut rng = Rng::new(0x0611);
    let mut nonces = [0u32; 2];
    for i in 0..200 {
        // The key is drawn first, so that nearcore can sign with it too.
        let key = secret_key(&mut rng);
        let Action::DelegateV2(drawn) = action(&mut rng, 14) else {
            unreachable!()
        };
        let mut payload = drawn.delegate_action;
        payload.public_key = key.public_key();
        let signed = payload.clone().sign(&key);
        let what = format!("version-2 delegate {i}");
        let bytes = signed.to_borsh();
        let theirs: VersionedSignedDelegateAction = borsh::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{what}: nearcore does not read it: {e}"));
        assert_eq!(borsh::to_vec(&theirs).unwrap(), bytes, "{what}: re-encoded");
        assert_eq!(
            SignedDelegateActionV2::from_borsh(&bytes).unwrap(),
            signed,
            "{what}: read back"
        );
        assert_eq!(
            theirs.delegate_action.get_nep461_hash().0,
            payload.signable_hash().0,
            "{what}: NEP-461 hash"
        );
        assert!(theirs.verify(), "{what}: nearcore's verify()");
        assert_eq!(
            borsh::to_vec(&theirs.delegate_action).unwrap(),
            payload.to_borsh(),
            "{what}: the payload's bytes"
        );
        let VersionedDelegateActionPayload::V2(their_payload) = &theirs.delegate_action;
        assert_eq!(
            their_payload.nonce.nonce_index(),
            payload.nonce.nonce_index(),
            "{what}: nonce_index"
        );
        assert_eq!(
            their_payload.nonce.nonce(),
            payload.nonce.nonce(),
            "{what}: nonce"
        );
        nonces[usize::from(payload.nonce.nonce_index().is_some())] += 1;
        // nearcore signs the same payload with the same key: near-rpc reads its bytes,
        // verifies its signature, and (ed25519 and RFC 6979 secp256k1 being
        // deterministic) made the same one.
        let their_secret: near_crypto::SecretKey = key
            .to_secret_string()
            .parse()
            .expect("nearcore reads the key");
        let signer = near_crypto::InMemorySigner::from_secret_key(
            payload.sender_id.as_str().parse().unwrap(),
            their_secret,
        );
        let their_signed =
            VersionedSignedDelegateAction::sign(&signer, theirs.delegate_action.clone());
        let their_bytes = borsh::to_vec(&their_signed).unwrap();
        let ours = SignedDelegateActionV2::from_borsh(&their_bytes)
            .unwrap_or_else(|e| panic!("{what}: near-rpc does not read nearcore's: {e}"));
        assert!(
            ours.verify(),
            "{what}: near-rpc's verify() of nearcore's signature"
        );
        assert_eq!(ours, signed, "{what}: the same signature");
        // Neither version's signature verifies as the other's.
        let as_v1 = near_primitives::action::delegate::SignedDelegateAction {
            delegate_action: near_primitives::action::delegate::DelegateAction {
                sender_id: their_payload.sender_id.clone(),
                receiver_id: their_payload.receiver_id.clone(),
                actions: their_payload.actions.clone(),
                nonce: their_payload.nonce.nonce(),
                max_block_height: their_payload.max_block_height,
                public_key: their_payload.public_key.clone(),
            },
            signature: theirs.signature.clone(),
        };
        assert!(
            !as_v1.verify(),
            "{what}: a version-2 signature verifies as version 1"
        );
    }
    assert!(
        nonces.iter().all(|&n| n > 50),
        "both nonce forms: {nonces:?}"
    );
}

#[test]
fn universal_state_init_carries_nearcores_canonical_bytes() {
    use near_primitives::action::UniversalStateInitAction;
    use near_primitives::universal_state_init::{RawStateInit, UniversalStateInit};
    let mut rng = Rng::new(0x0015);
    for i in 0..100 {
        // A state init nearcore builds (code and storage; no keys), its canonical bytes.
        let entries = rng.below(4);
        let data: BTreeMap<Vec<u8>, Vec<u8>> = (0..entries)
            .map(|_| (bytes(&mut rng, 20), bytes(&mut rng, 40)))
            .collect();
        let code = match rng.below(3) {
            0 => None,
            1 => Some(near_primitives::action::GlobalContractIdentifier::CodeHash(
                near_primitives::hash::CryptoHash(rng.hash()),
            )),
            _ => Some(
                near_primitives::action::GlobalContractIdentifier::AccountId(
                    rng.account().parse().unwrap(),
                ),
            ),
        };
        let typed = UniversalStateInit::V1(
            near_primitives::universal_state_init::UniversalStateInitV1 {
                code,
                data,
                access_keys: Default::default(),
            },
        );
        let raw: RawStateInit = typed.to_raw();
        let deposit = rng.edgy_u128();
        let theirs = NcAction::UniversalStateInit(Box::new(UniversalStateInitAction {
            state_init: raw.clone(),
            deposit: near_primitives::types::Balance::from_yoctonear(deposit),
        }));
        let what = format!("state init {i}");
        let their_bytes = borsh::to_vec(&theirs).unwrap();
        let ours = Action::from_borsh(&their_bytes)
            .unwrap_or_else(|e| panic!("{what}: near-rpc does not read nearcore's: {e}"));
        assert_eq!(
            ours,
            Action::UniversalStateInit {
                state_init: raw.0.clone(),
                deposit: NearToken::from_yoctonear(deposit),
            },
            "{what}"
        );
        assert_eq!(ours.to_borsh(), their_bytes, "{what}: re-encoded");
        same_fields(&what, &ours, &theirs);
        // nearcore reads the bytes near-rpc carried as the state init it started from.
        let Action::UniversalStateInit { state_init, .. } = &ours else {
            unreachable!()
        };
        assert_eq!(
            UniversalStateInit::from_raw_strict(&RawStateInit(state_init.clone())).unwrap(),
            typed,
            "{what}: the state init"
        );
    }
}
