//! Gas keys and version-1 transactions in the mock, rule by rule as nearcore's runtime
//! has them (`runtime/runtime/src/verifier.rs`, `access_keys.rs`,
//! `action_validation.rs`): a nonce per index, the strict nonce mode, gas paid from
//! the key's balance and deposits from the account's, `TransferToGasKey` and
//! `WithdrawFromGasKey`, deleting a gas key, `view_gas_key_nonces`, saved chains and
//! credential files; and one end to end over the mock's JSON-RPC.

use near_rpc::tx::{
    AccessKey, AccessKeyPermission, Action, DelegateAction, FunctionCallPermission, GasKeyInfo,
    NonDelegateAction, NonceMode, SecretKey, SignedTransaction, Transaction, TransactionNonce,
    TransactionV1,
};
use near_rpc::{NearGas, NearToken, PublicKey};
use near_rpc_mock::chain::{self, Chain, Level, GAS_PRICE};
use near_rpc_mock::runtime::SubmitError;
use near_rpc_mock::{fees, MockNode};
use serde_json::{json, Value};

const NEAR: u128 = 1_000_000_000_000_000_000_000_000;

fn near(n: u128) -> NearToken {
    NearToken::from_yoctonear(n * NEAR)
}

/// A version-1 transaction from `signer` to `receiver`, signed with `key`.
fn v1(
    chain: &Chain,
    (signer, key): (&str, &SecretKey),
    nonce: TransactionNonce,
    nonce_mode: NonceMode,
    receiver: &str,
    actions: Vec<Action>,
) -> SignedTransaction {
    Transaction::V1(TransactionV1 {
        signer_id: signer.parse().unwrap(),
        public_key: key.public_key(),
        nonce,
        receiver_id: receiver.parse().unwrap(),
        block_hash: chain.block_hash(chain.head()),
        actions,
        nonce_mode,
    })
    .sign(key)
}

/// One of a gas key's nonces.
fn at(nonce_index: u16, nonce: u64) -> TransactionNonce {
    TransactionNonce::GasKeyNonce { nonce, nonce_index }
}

/// Submits `signed` and produces blocks until it is final; its status answer.
fn run(signed: &SignedTransaction, chain: &mut Chain) -> Value {
    let hash = chain
        .submit(&signed.to_borsh())
        .unwrap_or_else(|e| panic!("refused: {e:?}"));
    assert!(chain.wait_for(&hash, Level::Final));
    let tx = chain.transaction(&hash).unwrap();
    chain.transaction_status(tx, true)
}

/// The refusal of `signed`, as nearcore's `InvalidTxError` JSON.
fn refusal(signed: &SignedTransaction, chain: &mut Chain) -> Value {
    match chain.submit(&signed.to_borsh()) {
        Err(SubmitError::Invalid(error)) => error,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn failure_kind(answer: &Value) -> Value {
    answer["status"]["Failure"]["ActionError"]["kind"].clone()
}

/// What every outcome of a transaction burnt, in yoctoNEAR.
fn total_burnt(answer: &Value) -> u128 {
    std::iter::once(&answer["transaction_outcome"])
        .chain(answer["receipts_outcome"].as_array().unwrap())
        .map(|o| {
            o["outcome"]["tokens_burnt"]
                .as_str()
                .unwrap()
                .parse::<u128>()
                .unwrap()
        })
        .sum()
}

fn balance(chain: &Chain, id: &str) -> u128 {
    chain.account(id).map_or(0, |a| a.amount)
}

/// The gas key `public_key` of `id`: its balance and nonces.
fn gas_key(chain: &Chain, id: &str, public_key: &PublicKey) -> (u128, Vec<u64>) {
    let gas = chain
        .account(id)
        .and_then(|a| a.key(public_key))
        .and_then(|k| k.gas_key.clone())
        .unwrap_or_else(|| panic!("{id} has no gas key {public_key}"));
    (gas.balance, gas.nonces)
}

/// What a transaction of one transfer costs in gas (to another account).
fn transfer_gas_cost() -> u128 {
    let gas = fees::ACTION_RECEIPT.send(false)
        + fees::ACTION_RECEIPT.execution
        + fees::TRANSFER.send(false)
        + fees::TRANSFER.execution;
    u128::from(gas) * GAS_PRICE
}

/// alice.mock with the mock's gas key for her: `num_nonces` indexes, `funded` NEAR.
fn alice_with_gas_key(num_nonces: u16, funded: u128) -> (Chain, SecretKey) {
    let mut chain = Chain::new();
    chain
        .add_gas_key("alice.mock", num_nonces, funded * NEAR)
        .unwrap();
    (chain, chain::gas_key_secret("alice.mock"))
}

#[test]
fn add_key_makes_an_empty_gas_key_with_every_index_at_the_heights_nonce() {
    let mut chain = Chain::new();
    let gas_public = chain::public_key("alice's new gas key");
    let add = Action::AddKey {
        public_key: gas_public.clone(),
        access_key: AccessKey {
            nonce: 0,
            permission: AccessKeyPermission::GasKeyFullAccess(GasKeyInfo {
                balance: NearToken::from_yoctonear(0),
                num_nonces: 3,
            }),
        },
    };
    let storage_before = chain.account("alice.mock").unwrap().storage_usage();
    let answer = run(
        &chain.sign("alice.mock", "alice.mock", vec![add]),
        &mut chain,
    );
    assert_eq!(answer["status"], json!({"SuccessValue": ""}), "{answer:#}");
    let executed_at = answer["receipts_outcome"][0]["block_hash"]
        .as_str()
        .unwrap();
    let height = chain.height_of(&executed_at.parse().unwrap()).unwrap();
    let (balance, nonces) = gas_key(&chain, "alice.mock", &gas_public);
    assert_eq!(balance, 0);
    assert_eq!(nonces, vec![(height - 1) * 1_000_000; 3]);
    // The key and its three nonce records, as nearcore's `gas_key_storage_cost` counts:
    // 33 + 8 + 1 + 18 + 40 for the key, 3 × (33 + 2 + 8 + 40) for the nonces.
    assert_eq!(
        chain.account("alice.mock").unwrap().storage_usage() - storage_before,
        100 + 3 * 83
    );
    let key = chain
        .account("alice.mock")
        .unwrap()
        .key(&gas_public)
        .unwrap();
    assert_eq!(
        chain.access_key_view(key),
        json!({"nonce": 0, "permission": {"GasKeyFullAccess": {"balance": "0", "num_nonces": 3}}})
    );
}

#[test]
fn adding_a_gas_key_is_refused_by_nearcores_rules() {
    let mut chain = Chain::new();
    let add = |info: GasKeyInfo, call: Option<Option<NearToken>>| Action::AddKey {
        public_key: chain::public_key("refused gas key"),
        access_key: AccessKey {
            nonce: 0,
            permission: match call {
                None => AccessKeyPermission::GasKeyFullAccess(info),
                Some(allowance) => AccessKeyPermission::GasKeyFunctionCall(
                    info,
                    FunctionCallPermission {
                        allowance,
                        receiver_id: chain::CONTRACT.into(),
                        method_names: Vec::new(),
                    },
                ),
            },
        },
    };
    let info = |num_nonces: u16, balance: u128| GasKeyInfo {
        balance: NearToken::from_yoctonear(balance),
        num_nonces,
    };
    for (action, error) in [
        (
            add(info(1025, 0), None),
            json!({"GasKeyInvalidNumNonces": {"requested_nonces": 1025, "limit": 1024}}),
        ),
        (
            add(info(2, 5), None),
            json!({"AddGasKeyWithNonZeroBalance": {"balance": "5"}}),
        ),
        (
            add(info(2, 0), Some(Some(near(1)))),
            json!("GasKeyFunctionCallAllowanceNotAllowed"),
        ),
    ] {
        let signed = chain.sign("alice.mock", "alice.mock", vec![action]);
        assert_eq!(
            refusal(&signed, &mut chain),
            json!({ "ActionsValidation": error })
        );
    }
    // A function-call gas key without allowance is fine.
    let signed = chain.sign(
        "alice.mock",
        "alice.mock",
        vec![add(info(2, 0), Some(None))],
    );
    assert_eq!(
        run(&signed, &mut chain)["status"],
        json!({"SuccessValue": ""})
    );
}

#[test]
fn each_nonce_index_has_its_own_nonce() {
    let (mut chain, key) = alice_with_gas_key(2, 5);
    let alice = ("alice.mock", &key);
    let (_, start) = gas_key(&chain, "alice.mock", &key.public_key());
    let n = start[0];
    let pay = |amount: u128| vec![Action::transfer(NearToken::from_yoctonear(amount))];
    let mono = NonceMode::Monotonic;
    let signed = v1(&chain, alice, at(0, n + 5), mono, "bob.mock", pay(1));
    assert_eq!(
        run(&signed, &mut chain)["status"],
        json!({"SuccessValue": ""})
    );
    assert_eq!(
        gas_key(&chain, "alice.mock", &key.public_key()).1,
        vec![n + 5, n]
    );
    // Index 1 has not moved: the same nonce is fresh there.
    let signed = v1(&chain, alice, at(1, n + 5), mono, "bob.mock", pay(2));
    assert_eq!(
        run(&signed, &mut chain)["status"],
        json!({"SuccessValue": ""})
    );
    assert_eq!(
        gas_key(&chain, "alice.mock", &key.public_key()).1,
        vec![n + 5, n + 5]
    );
    // Index 0 has: the key's nonce there is the one to pass.
    let signed = v1(&chain, alice, at(0, n + 5), mono, "bob.mock", pay(3));
    assert_eq!(
        refusal(&signed, &mut chain),
        json!({"InvalidNonce": {"tx_nonce": n + 5, "ak_nonce": n + 5}})
    );
    // An index past the key's, and no index with a gas key.
    let signed = v1(&chain, alice, at(2, n + 6), mono, "bob.mock", pay(4));
    assert_eq!(
        refusal(&signed, &mut chain),
        json!({"InvalidNonceIndex": {"tx_nonce_index": 2, "num_nonces": 2}})
    );
    let plain = TransactionNonce::Nonce { nonce: n + 6 };
    let signed = v1(&chain, alice, plain, mono, "bob.mock", pay(5));
    assert_eq!(
        refusal(&signed, &mut chain),
        json!({"InvalidNonceIndex": {"tx_nonce_index": null, "num_nonces": 2}})
    );
    // An index with a key that is no gas key: it has none (`num_nonces` 0).
    let own = chain::secret_key("alice.mock");
    let signed = v1(
        &chain,
        ("alice.mock", &own),
        at(0, n + 6),
        mono,
        "bob.mock",
        pay(6),
    );
    assert_eq!(
        refusal(&signed, &mut chain),
        json!({"InvalidNonceIndex": {"tx_nonce_index": 0, "num_nonces": 0}})
    );
    // Past the height's bound, as for any key.
    let bound = (chain.head() + 1) * 1_000_000;
    let signed = v1(&chain, alice, at(1, bound), mono, "bob.mock", pay(7));
    assert_eq!(
        refusal(&signed, &mut chain),
        json!({"NonceTooLarge": {"tx_nonce": bound, "upper_bound": bound}})
    );
}

#[test]
fn strict_mode_takes_exactly_the_next_nonce() {
    let (mut chain, key) = alice_with_gas_key(1, 5);
    let alice = ("alice.mock", &key);
    let n = gas_key(&chain, "alice.mock", &key.public_key()).1[0];
    let pay = vec![Action::transfer(NearToken::from_yoctonear(1))];
    let strict = NonceMode::Strict;
    let signed = v1(&chain, alice, at(0, n + 2), strict, "bob.mock", pay.clone());
    assert_eq!(
        refusal(&signed, &mut chain),
        json!({"InvalidNonce": {"tx_nonce": n + 2, "ak_nonce": n}})
    );
    // The next one, and the one after it while the first waits for its block, as a
    // node's pool counts them; not the same one twice.
    let first = v1(&chain, alice, at(0, n + 1), strict, "bob.mock", pay.clone());
    let first = chain.submit(&first.to_borsh()).unwrap();
    let pay_2 = vec![Action::transfer(NearToken::from_yoctonear(2))];
    let second = v1(
        &chain,
        alice,
        at(0, n + 2),
        strict,
        "bob.mock",
        pay_2.clone(),
    );
    let second = chain.submit(&second.to_borsh()).unwrap();
    let again = v1(&chain, alice, at(0, n + 2), strict, "bob.mock", vec![]);
    assert_eq!(
        refusal(&again, &mut chain),
        json!({"InvalidNonce": {"tx_nonce": n + 2, "ak_nonce": n + 2}})
    );
    // Monotonic, a nonce past the next is fine.
    let monotonic = v1(
        &chain,
        alice,
        at(0, n + 7),
        NonceMode::Monotonic,
        "bob.mock",
        pay_2,
    );
    let monotonic = chain.submit(&monotonic.to_borsh()).unwrap();
    for hash in [first, second, monotonic] {
        assert!(chain.wait_for(&hash, Level::Final));
        let tx = chain.transaction(&hash).unwrap();
        assert_eq!(
            chain.transaction_status(tx, false)["status"],
            json!({"SuccessValue": ""})
        );
    }
    assert_eq!(
        gas_key(&chain, "alice.mock", &key.public_key()).1,
        vec![n + 7]
    );
    // A version-1 transaction of a plain key, in strict mode.
    let own = chain::secret_key("bob.mock");
    let bob_nonce = chain.account("bob.mock").unwrap().keys[0].nonce;
    let plain = |nonce: u64| TransactionNonce::Nonce { nonce };
    let signed = v1(
        &chain,
        ("bob.mock", &own),
        plain(bob_nonce + 3),
        strict,
        "alice.mock",
        pay.clone(),
    );
    assert_eq!(
        refusal(&signed, &mut chain),
        json!({"InvalidNonce": {"tx_nonce": bob_nonce + 3, "ak_nonce": bob_nonce}})
    );
    let signed = v1(
        &chain,
        ("bob.mock", &own),
        plain(bob_nonce + 1),
        strict,
        "alice.mock",
        pay,
    );
    assert_eq!(
        run(&signed, &mut chain)["status"],
        json!({"SuccessValue": ""})
    );
    assert_eq!(
        chain.account("bob.mock").unwrap().keys[0].nonce,
        bob_nonce + 1
    );
}

#[test]
fn gas_comes_from_the_gas_key_and_deposits_from_the_account() {
    let (mut chain, key) = alice_with_gas_key(1, 5);
    let alice = ("alice.mock", &key);
    let n = gas_key(&chain, "alice.mock", &key.public_key()).1[0];
    let (alice_before, bob_before) = (balance(&chain, "alice.mock"), balance(&chain, "bob.mock"));
    let signed = v1(
        &chain,
        alice,
        at(0, n + 1),
        NonceMode::Monotonic,
        "bob.mock",
        vec![Action::transfer(near(2))],
    );
    let answer = run(&signed, &mut chain);
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
    assert_eq!(balance(&chain, "alice.mock"), alice_before - 2 * NEAR);
    assert_eq!(balance(&chain, "bob.mock"), bob_before + 2 * NEAR);
    let (key_balance, _) = gas_key(&chain, "alice.mock", &key.public_key());
    assert_eq!(key_balance, 5 * NEAR - transfer_gas_cost());
    // A call's unused gas comes back to the key, not to the account.
    let alice_before = balance(&chain, "alice.mock");
    let call = Action::function_call(
        "set_status",
        br#"{"message":"paid by a gas key"}"#.to_vec(),
        NearGas::from_tgas(100),
        NearToken::from_yoctonear(0),
    );
    let signed = v1(
        &chain,
        alice,
        at(0, n + 2),
        NonceMode::Monotonic,
        chain::CONTRACT,
        vec![call],
    );
    let answer = run(&signed, &mut chain);
    assert_eq!(answer["status"], json!({"SuccessValue": ""}), "{answer:#}");
    assert_eq!(balance(&chain, "alice.mock"), alice_before);
    assert_eq!(
        gas_key(&chain, "alice.mock", &key.public_key()).0,
        key_balance - total_burnt(&answer)
    );
}

#[test]
fn a_gas_key_short_of_gas_or_an_account_short_of_deposits_is_refused() {
    let (mut chain, key) = alice_with_gas_key(1, 0);
    let alice = ("alice.mock", &key);
    let n = gas_key(&chain, "alice.mock", &key.public_key()).1[0];
    let mono = NonceMode::Monotonic;
    let pay = |amount: u128| vec![Action::transfer(NearToken::from_yoctonear(amount))];
    let signed = v1(&chain, alice, at(0, n + 1), mono, "bob.mock", pay(1));
    assert_eq!(
        refusal(&signed, &mut chain),
        json!({"NotEnoughGasKeyBalance": {
            "signer_id": "alice.mock",
            "balance": "0",
            "cost": transfer_gas_cost().to_string()
        }})
    );
    // Funded, it pays the gas; the deposit is the account's, which lacks it.
    let fund = Action::TransferToGasKey {
        public_key: key.public_key(),
        deposit: near(1),
    };
    let answer = run(
        &chain.sign("bob.mock", "alice.mock", vec![fund]),
        &mut chain,
    );
    assert_eq!(answer["status"], json!({"SuccessValue": ""}), "{answer:#}");
    let held = balance(&chain, "alice.mock");
    let signed = v1(&chain, alice, at(0, n + 1), mono, "bob.mock", pay(held + 1));
    assert_eq!(
        refusal(&signed, &mut chain),
        json!({"NotEnoughBalanceForDeposit": {
            "signer_id": "alice.mock",
            "balance": held.to_string(),
            "cost": (held + 1).to_string(),
            "reason": "NotEnoughBalance"
        }})
    );
    // Accepted, then the account spent before its block: it fails in the block, its
    // gas key charged what turning it into a receipt burnt, its nonce taken.
    let signed = v1(&chain, alice, at(0, n + 1), mono, "bob.mock", pay(2 * NEAR));
    let hash = chain.submit(&signed.to_borsh()).unwrap();
    chain
        .accounts
        .iter_mut()
        .find(|a| a.id == "alice.mock")
        .unwrap()
        .amount = NEAR;
    assert!(chain.wait_for(&hash, Level::Final));
    let answer = chain.transaction_status(chain.transaction(&hash).unwrap(), true);
    assert_eq!(
        answer["status"],
        json!({"Failure": {"InvalidTxError": {"NotEnoughBalanceForDeposit": {
            "signer_id": "alice.mock",
            "balance": NEAR.to_string(),
            "cost": (2 * NEAR).to_string(),
            "reason": "NotEnoughBalance"
        }}}})
    );
    let send_gas = fees::ACTION_RECEIPT.send(false) + fees::TRANSFER.send(false);
    assert_eq!(
        gas_key(&chain, "alice.mock", &key.public_key()),
        (NEAR - u128::from(send_gas) * GAS_PRICE, vec![n + 1])
    );
    assert_eq!(balance(&chain, "alice.mock"), NEAR);
    assert_eq!(answer["receipts_outcome"], json!([]));
}

#[test]
fn transfer_to_and_withdraw_from_a_gas_key() {
    let (mut chain, key) = alice_with_gas_key(1, 0);
    let public_key = key.public_key();
    // Anyone may fund it; a key that is no gas key, or none, is `GasKeyDoesNotExist`
    // and the deposit comes back.
    let bob_before = balance(&chain, "bob.mock");
    let fund = |public_key: PublicKey| Action::TransferToGasKey {
        public_key,
        deposit: near(3),
    };
    let answer = run(
        &chain.sign("bob.mock", "alice.mock", vec![fund(public_key.clone())]),
        &mut chain,
    );
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
    assert_eq!(gas_key(&chain, "alice.mock", &public_key).0, 3 * NEAR);
    assert_eq!(
        balance(&chain, "bob.mock"),
        bob_before - 3 * NEAR - total_burnt(&answer)
    );
    let plain = chain::public_key("alice.mock");
    let answer = run(
        &chain.sign("bob.mock", "alice.mock", vec![fund(plain.clone())]),
        &mut chain,
    );
    assert_eq!(
        failure_kind(&answer),
        json!({"GasKeyDoesNotExist": {"account_id": "alice.mock", "public_key": plain.to_string()}})
    );
    // Withdrawn by its account only, at most its balance.
    let withdraw = |amount: u128| Action::WithdrawFromGasKey {
        public_key: public_key.clone(),
        amount: NearToken::from_yoctonear(amount),
    };
    let answer = run(
        &chain.sign("bob.mock", "alice.mock", vec![withdraw(NEAR)]),
        &mut chain,
    );
    assert_eq!(
        failure_kind(&answer),
        json!({"ActorNoPermission": {"account_id": "alice.mock", "actor_id": "bob.mock"}})
    );
    let answer = run(
        &chain.sign("alice.mock", "alice.mock", vec![withdraw(4 * NEAR)]),
        &mut chain,
    );
    assert_eq!(
        failure_kind(&answer),
        json!({"InsufficientGasKeyBalance": {
            "account_id": "alice.mock",
            "public_key": public_key.to_string(),
            "balance": (3 * NEAR).to_string(),
            "required": (4 * NEAR).to_string()
        }})
    );
    let alice_before = balance(&chain, "alice.mock");
    let answer = run(
        &chain.sign("alice.mock", "alice.mock", vec![withdraw(NEAR)]),
        &mut chain,
    );
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
    assert_eq!(gas_key(&chain, "alice.mock", &public_key).0, 2 * NEAR);
    assert_eq!(
        balance(&chain, "alice.mock"),
        alice_before + NEAR - total_burnt(&answer)
    );
}

#[test]
fn a_gas_key_is_deleted_with_its_balance_burnt_up_to_one_near() {
    let (mut chain, key) = alice_with_gas_key(4, 2);
    let public_key = key.public_key();
    let storage = chain.account("alice.mock").unwrap().storage_usage();
    let delete = Action::DeleteKey {
        public_key: public_key.clone(),
    };
    let answer = run(
        &chain.sign("alice.mock", "alice.mock", vec![delete.clone()]),
        &mut chain,
    );
    assert_eq!(
        failure_kind(&answer),
        json!({"GasKeyBalanceTooHigh": {
            "account_id": "alice.mock",
            "public_key": public_key.to_string(),
            "balance": (2 * NEAR).to_string()
        }})
    );
    let withdraw = Action::WithdrawFromGasKey {
        public_key: public_key.clone(),
        amount: NearToken::from_yoctonear(NEAR + NEAR / 2),
    };
    let alice_before = balance(&chain, "alice.mock");
    let answer = run(
        &chain.sign("alice.mock", "alice.mock", vec![withdraw, delete]),
        &mut chain,
    );
    assert_eq!(answer["status"], json!({"SuccessValue": ""}), "{answer:#}");
    assert!(chain
        .account("alice.mock")
        .unwrap()
        .key(&public_key)
        .is_none());
    // The half NEAR left in the key is burnt with it; the rest came to the account.
    let gas = total_burnt(&answer) - NEAR / 2;
    assert_eq!(
        balance(&chain, "alice.mock"),
        alice_before + NEAR + NEAR / 2 - gas
    );
    assert_eq!(
        chain.account("alice.mock").unwrap().storage_usage(),
        storage - (100 + 4 * 83)
    );
}

#[test]
fn a_delegate_action_relayed_in_a_version_1_transaction_runs() {
    // bob.mock relays alice.mock's delegate action with his gas key.
    let mut chain = Chain::new();
    chain.add_gas_key("bob.mock", 2, 3 * NEAR).unwrap();
    let relayer = chain::gas_key_secret("bob.mock");
    let alice = chain::secret_key("alice.mock");
    let alice_nonce = chain.account("alice.mock").unwrap().keys[0].nonce;
    let delegate = DelegateAction {
        sender_id: "alice.mock".parse().unwrap(),
        receiver_id: "validator.mock".parse().unwrap(),
        actions: vec![NonDelegateAction::try_from(Action::transfer(near(1))).unwrap()],
        nonce: alice_nonce + 1,
        max_block_height: chain.head() + 100,
        public_key: alice.public_key(),
    }
    .sign(&alice);
    let n = gas_key(&chain, "bob.mock", &relayer.public_key()).1[1];
    let (alice_before, bob_before) = (balance(&chain, "alice.mock"), balance(&chain, "bob.mock"));
    let validator_before = balance(&chain, "validator.mock");
    let signed = v1(
        &chain,
        ("bob.mock", &relayer),
        at(1, n + 1),
        NonceMode::Strict,
        "alice.mock",
        vec![Action::Delegate(Box::new(delegate))],
    );
    let answer = run(&signed, &mut chain);
    assert_eq!(answer["status"], json!({"SuccessValue": ""}), "{answer:#}");
    assert_eq!(balance(&chain, "validator.mock"), validator_before + NEAR);
    // As NEP-366 has it, the relayer pays: the deposit from its account, every gas
    // from its gas key.
    assert_eq!(balance(&chain, "alice.mock"), alice_before);
    assert_eq!(balance(&chain, "bob.mock"), bob_before - NEAR);
    assert_eq!(
        gas_key(&chain, "bob.mock", &relayer.public_key()),
        (3 * NEAR - total_burnt(&answer), vec![n, n + 1])
    );
    assert_eq!(
        chain.account("alice.mock").unwrap().keys[0].nonce,
        alice_nonce + 1
    );
    // A gas key signs no delegate action: its nonces are per index.
    let alice_gas = chain::gas_key_secret("alice.mock");
    chain.add_gas_key("alice.mock", 1, 0).unwrap();
    let delegate = DelegateAction {
        sender_id: "alice.mock".parse().unwrap(),
        receiver_id: "validator.mock".parse().unwrap(),
        actions: vec![NonDelegateAction::try_from(Action::transfer(near(1))).unwrap()],
        nonce: alice_nonce + 2,
        max_block_height: chain.head() + 100,
        public_key: alice_gas.public_key(),
    }
    .sign(&alice_gas);
    let signed = v1(
        &chain,
        ("bob.mock", &relayer),
        at(1, n + 2),
        NonceMode::Strict,
        "alice.mock",
        vec![Action::Delegate(Box::new(delegate))],
    );
    assert_eq!(
        failure_kind(&run(&signed, &mut chain)),
        json!({"DelegateActionAccessKeyError": "DelegateActionRequiresNonGasKey"})
    );
}

#[test]
fn a_saved_chain_keeps_its_gas_keys() {
    let (mut chain, key) = alice_with_gas_key(3, 2);
    let n = gas_key(&chain, "alice.mock", &key.public_key()).1[0];
    let signed = v1(
        &chain,
        ("alice.mock", &key),
        at(2, n + 9),
        NonceMode::Monotonic,
        "bob.mock",
        vec![Action::transfer(near(1))],
    );
    run(&signed, &mut chain);
    let saved = gas_key(&chain, "alice.mock", &key.public_key());
    assert_eq!(saved.1, vec![n, n, n + 9]);
    let path = std::env::temp_dir().join(format!(
        "near-rpc-mock-gas-keys-{}.json",
        std::process::id()
    ));
    chain.save(&path).unwrap();
    let loaded = Chain::load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(gas_key(&loaded, "alice.mock", &key.public_key()), saved);
    // A file's gas key is checked as the runtime needs it.
    let mut json = chain.to_state_json();
    let accounts = json["accounts"].as_array_mut().unwrap();
    let alice = accounts
        .iter()
        .position(|a| a["id"] == "alice.mock")
        .unwrap();
    let keys = accounts[alice]["keys"].as_array_mut().unwrap();
    let index = keys.iter().position(|k| k["gas_key"].is_object()).unwrap();
    keys[index]["gas_key"]["nonces"] = json!([]);
    let error = Chain::from_state_json(json).unwrap_err().to_string();
    assert!(
        error.contains(&format!("accounts[{alice}].keys[{index}].gas_key.nonces"))
            && error.contains("1 to 1024"),
        "{error}"
    );
}

#[test]
fn credential_files_include_the_mocks_gas_keys() {
    let node = MockNode::new();
    node.add_gas_key("bob.mock", 4, NEAR).unwrap();
    assert!(node
        .add_gas_key("bob.mock", 4, NEAR)
        .unwrap_err()
        .contains("already has"));
    assert!(node
        .add_gas_key("alice.mock", 0, 0)
        .unwrap_err()
        .contains("1 to 1024"));
    let dir = std::env::temp_dir().join(format!(
        "near-rpc-mock-gas-credentials-{}",
        std::process::id()
    ));
    let written = node.write_credentials(&dir).unwrap();
    let gas_file = dir.join("mock").join("bob.mock@gas-key.json");
    assert!(written.contains(&gas_file), "{written:?}");
    assert!(written.contains(&dir.join("mock").join("bob.mock.json")));
    let credentials = near_rpc::tx::Credentials::from_file(&gas_file).unwrap();
    assert_eq!(credentials.account_id.as_str(), "bob.mock");
    assert_eq!(
        credentials.secret_key.public_key(),
        chain::gas_key_secret("bob.mock").public_key()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&gas_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The raw answer of `node` to one request.
async fn ask(node: &MockNode, method: &'static str, params: Value) -> Value {
    use near_rpc::client::transport::{RpcRequest, Transport};
    let body = json!({"jsonrpc": "2.0", "id": "1", "method": method, "params": params});
    let request = RpcRequest::new(method, 1, serde_json::to_vec(&body).unwrap(), false);
    let response = node.send(request).await.expect("the mock answers");
    serde_json::from_slice(&response.body).unwrap()
}

#[tokio::test]
async fn views_show_gas_keys_as_the_spec_does() {
    let node = MockNode::new();
    let public_key = node.add_gas_key("alice.mock", 2, NEAR).unwrap();
    let head = node.with_chain(|c| c.head());
    let query = |request_type: &str, key: &PublicKey| {
        json!({
            "request_type": request_type,
            "finality": "optimistic",
            "account_id": "alice.mock",
            "public_key": key.to_string()
        })
    };
    let answer = ask(&node, "query", query("view_gas_key_nonces", &public_key)).await;
    assert_eq!(
        answer["result"]["nonces"],
        json!([head * 1_000_000, head * 1_000_000])
    );
    assert_eq!(answer["result"]["block_height"], json!(head));
    let answer = ask(&node, "query", query("view_access_key", &public_key)).await;
    assert_eq!(
        answer["result"]["permission"],
        json!({"GasKeyFullAccess": {"balance": NEAR.to_string(), "num_nonces": 2}})
    );
    assert_eq!(answer["result"]["nonce"], json!(0));
    let answer = ask(
        &node,
        "EXPERIMENTAL_view_access_key_list",
        json!({"finality": "final", "account_id": "alice.mock"}),
    )
    .await;
    let listed = answer["result"]["keys"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["public_key"] == public_key.to_string())
        .cloned()
        .unwrap();
    assert_eq!(
        listed["access_key"]["permission"]["GasKeyFullAccess"]["num_nonces"],
        json!(2)
    );
    // A key that is no gas key is an unknown gas key, with where it was looked for.
    let plain = chain::public_key("alice.mock");
    let answer = ask(&node, "query", query("view_gas_key_nonces", &plain)).await;
    assert_eq!(
        answer["error"]["cause"]["name"], "UNKNOWN_GAS_KEY",
        "{answer:#}"
    );
    assert_eq!(
        answer["error"]["cause"]["info"],
        json!({
            "public_key": plain.to_string(),
            "block_height": head,
            "block_hash": node.with_chain(|c| c.block_hash(head)).to_string()
        })
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_version_1_transaction_over_json_rpc_then_its_nonces() {
    use near_rpc::methods::QueryMethod;
    use near_rpc::types::{RpcQueryRequest, RpcQueryRequestKind, RpcQueryResponseKind};
    let node = MockNode::new();
    let public_key = node.add_gas_key("alice.mock", 3, 2 * NEAR).unwrap();
    let server = node.serve(0).await.unwrap();
    let client = near_rpc::Client::new(server.url()).unwrap();
    let key = chain::gas_key_secret("alice.mock");
    let (signed, n) = node.with_chain(|chain| {
        let n = gas_key(chain, "alice.mock", &public_key).1[1];
        let signed = v1(
            chain,
            ("alice.mock", &key),
            at(1, n + 1),
            NonceMode::Strict,
            "bob.mock",
            vec![Action::transfer(near(1))],
        );
        (signed, n)
    });
    let bob_before = node.with_chain(|c| balance(c, "bob.mock"));
    let outcome = client.send_signed(&signed).await.unwrap();
    assert!(!outcome.is_failure(), "{outcome:?}");
    assert_eq!(
        node.with_chain(|c| balance(c, "bob.mock")),
        bob_before + NEAR
    );
    // It went as `send_tx`, the bytes signed here.
    use base64::Engine as _;
    let sent = base64::engine::general_purpose::STANDARD.encode(signed.to_borsh());
    let sends = node.requests_for("send_tx");
    assert!(!sends.is_empty());
    assert!(sends.iter().all(|r| r.params()["signed_tx_base64"] == sent));
    let answer = client
        .call::<QueryMethod>(RpcQueryRequest {
            block_reference: near_rpc::Finality::Final.into(),
            kind: RpcQueryRequestKind::ViewGasKeyNonces {
                account_id: "alice.mock".parse().unwrap(),
                public_key: public_key.clone(),
            },
        })
        .await
        .unwrap();
    let RpcQueryResponseKind::GasKeyNoncesView(view) = answer.kind else {
        panic!("not a gas key's nonces: {:?}", answer.kind)
    };
    assert_eq!(view.nonces, vec![n, n + 1, n]);
}

#[tokio::test]
async fn a_gas_keys_nonces_are_state_changes_of_their_own() {
    let node = MockNode::new();
    let gas_public = chain::public_key("alice's reported gas key");
    let (added_at, used_at, n) = node.with_chain(|chain| {
        let add = Action::AddKey {
            public_key: gas_public.clone(),
            access_key: AccessKey {
                nonce: 0,
                permission: AccessKeyPermission::GasKeyFullAccess(GasKeyInfo {
                    balance: NearToken::from_yoctonear(0),
                    num_nonces: 2,
                }),
            },
        };
        let fund = Action::TransferToGasKey {
            public_key: gas_public.clone(),
            deposit: near(1),
        };
        let added = chain.sign("alice.mock", "alice.mock", vec![add, fund]);
        run(&added, chain);
        let added_at = chain.transaction(&added.hash()).unwrap().outcomes[1].height;
        let n = gas_key(chain, "alice.mock", &gas_public).1[1];
        // The gas key's secret: the mock's key for the name it was added under.
        let key = chain::secret_key("alice's reported gas key");
        let pay = vec![Action::transfer(NearToken::from_yoctonear(1))];
        let used = v1(
            chain,
            ("alice.mock", &key),
            at(1, n + 1),
            NonceMode::Strict,
            "bob.mock",
            pay,
        );
        run(&used, chain);
        let used_at = chain.transaction(&used.hash()).unwrap().outcomes[0].height;
        (added_at, used_at, n)
    });
    let changes = |height: u64| {
        let node = node.clone();
        async move {
            let params = json!({
                "block_id": height,
                "changes_type": "all_access_key_changes",
                "account_ids": ["alice.mock"]
            });
            ask(&node, "EXPERIMENTAL_changes", params).await["result"]["changes"]
                .as_array()
                .unwrap()
                .clone()
        }
    };
    let of_type = |changes: &[Value], kind: &str| -> Vec<Value> {
        changes
            .iter()
            .filter(|c| c["type"] == kind && c["change"]["public_key"] == gas_public.to_string())
            .map(|c| c["change"].clone())
            .collect()
    };
    // Added: the key, and each of its nonces.
    let added = changes(added_at).await;
    assert_eq!(
        of_type(&added, "gas_key_nonce_update").len(),
        2,
        "{added:#?}"
    );
    assert_eq!(of_type(&added, "access_key_update").len(), 1, "{added:#?}");
    // Used at index 1: that nonce, and the key (its balance paid the gas).
    let used = changes(used_at).await;
    assert_eq!(
        of_type(&used, "gas_key_nonce_update"),
        vec![
            json!({"account_id": "alice.mock", "public_key": gas_public.to_string(), "index": 1, "nonce": n + 1})
        ]
    );
    assert_eq!(of_type(&used, "access_key_update").len(), 1, "{used:#?}");
}
