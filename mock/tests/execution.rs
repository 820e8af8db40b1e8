//! The mock's runtime: what a submission is refused for, what each action does to the
//! state, the fees charged (the protocol config's), receipts and refunds, milestones
//! as blocks are produced, contracts written in Rust.

use near_rpc::tx::{AccessKey, Action, DelegateAction, NonDelegateAction, SecretKey};
use near_rpc::{NearGas, NearToken, PublicKey};
use near_rpc_mock::chain::{self, Chain, Level, Permission, GAS_PRICE};
use near_rpc_mock::runtime::SubmitError;
use near_rpc_mock::{fees, Contract, MockNode};
use serde_json::{json, Value};

const NEAR: u128 = 1_000_000_000_000_000_000_000_000;

fn near(n: u128) -> NearToken {
    NearToken::from_yoctonear(n * NEAR)
}

fn balance(chain: &Chain, id: &str) -> u128 {
    chain.account(id).map_or(0, |a| a.amount)
}

/// Submits `signed` and produces blocks until it is final; its status answer.
fn run(signed: &near_rpc::tx::SignedTransaction, chain: &mut Chain) -> Value {
    let hash = chain
        .submit(&signed.to_borsh())
        .unwrap_or_else(|e| panic!("refused: {e:?}"));
    assert!(chain.wait_for(&hash, Level::Final));
    let tx = chain.transaction(&hash).unwrap();
    chain.transaction_status(tx, true)
}

/// The refusal of `signed`, as nearcore's `InvalidTxError` JSON.
fn refusal(signed: &near_rpc::tx::SignedTransaction, chain: &mut Chain) -> Value {
    match chain.submit(&signed.to_borsh()) {
        Err(SubmitError::Invalid(error)) => error,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// What a transaction of one transfer costs its signer in gas, by the fees table: the
/// receipt's and the transfer's send and execution fees (`sir`: to itself).
fn transfer_gas_cost(sir: bool) -> u128 {
    let gas = fees::ACTION_RECEIPT.send(sir)
        + fees::ACTION_RECEIPT.execution
        + fees::TRANSFER.send(sir)
        + fees::TRANSFER.execution;
    u128::from(gas) * GAS_PRICE
}

fn failure_kind(answer: &Value) -> Value {
    answer["status"]["Failure"]["ActionError"]["kind"].clone()
}

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

#[test]
fn a_transfer_moves_exactly_the_amount_and_the_sender_pays_the_stated_fees() {
    let mut chain = Chain::new();
    let (alice, bob) = (balance(&chain, "alice.mock"), balance(&chain, "bob.mock"));
    let signed = chain.sign("alice.mock", "bob.mock", vec![Action::transfer(near(2))]);
    let answer = run(&signed, &mut chain);
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
    assert_eq!(answer["final_execution_status"], "FINAL");
    assert_eq!(balance(&chain, "bob.mock"), bob + 2 * NEAR);
    let burnt = total_burnt(&answer);
    assert!(burnt > 0);
    assert_eq!(balance(&chain, "alice.mock"), alice - 2 * NEAR - burnt);

    // The fees are the protocol config's: send at conversion, execution at the receipt.
    let config = chain.protocol_config()["runtime_config"]["transaction_costs"].clone();
    let fee = |path: &[&str], part: &str| -> u64 {
        let mut v = &config;
        for p in path {
            v = &v[*p];
        }
        v[part].as_u64().unwrap()
    };
    let receipt = ["action_receipt_creation_config"];
    let transfer = ["action_creation_config", "transfer_cost"];
    let tx_gas = answer["transaction_outcome"]["outcome"]["gas_burnt"]
        .as_u64()
        .unwrap();
    assert_eq!(
        tx_gas,
        fee(&receipt, "send_not_sir") + fee(&transfer, "send_not_sir")
    );
    let receipt_gas = answer["receipts_outcome"][0]["outcome"]["gas_burnt"]
        .as_u64()
        .unwrap();
    assert_eq!(
        receipt_gas,
        fee(&receipt, "execution") + fee(&transfer, "execution")
    );
    assert_eq!(burnt, u128::from(tx_gas + receipt_gas) * GAS_PRICE);
    // A transfer prepays exactly what it burns: no refund receipt.
    assert_eq!(answer["receipts_outcome"].as_array().unwrap().len(), 1);
}

#[test]
fn a_call_burns_what_it_uses_and_the_rest_comes_back_as_a_refund() {
    let mut chain = Chain::new();
    let before = balance(&chain, "alice.mock");
    let call = Action::function_call(
        "set_status",
        br#"{"message":"hi"}"#.to_vec(),
        NearGas::from_tgas(100),
        NearToken::from_yoctonear(0),
    );
    let answer = run(
        &chain.sign("alice.mock", chain::CONTRACT, vec![call]),
        &mut chain,
    );
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
    let receipts = answer["receipts_outcome"].as_array().unwrap();
    assert_eq!(receipts.len(), 2, "the call and the refund");
    assert_eq!(
        receipts[0]["outcome"]["logs"],
        json!(["alice.mock set_status with message hi"])
    );
    assert_eq!(receipts[1]["outcome"]["executor_id"], "alice.mock");
    assert_eq!(answer["receipts"][1]["predecessor_id"], "system");
    assert_eq!(
        balance(&chain, "alice.mock"),
        before - total_burnt(&answer),
        "the refund returns every unused gas"
    );
    // The state changed, and the view reads it.
    let account = chain.account(chain::CONTRACT).unwrap();
    let (result, _) = chain
        .view_call(account, "get_status", br#"{"account_id":"alice.mock"}"#)
        .unwrap();
    assert_eq!(result, br#""hi""#);
}

#[test]
fn submissions_are_refused_as_nearcore_refuses_them() {
    let mut chain = Chain::new();
    let transfer = || vec![Action::transfer(NearToken::from_yoctonear(1))];
    let alice_key = chain::secret_key("alice.mock");
    let sign_with = |key: &SecretKey, nonce: u64, block| {
        near_rpc::tx::Transaction::new(
            "alice.mock".parse().unwrap(),
            key.public_key(),
            nonce,
            "bob.mock".parse().unwrap(),
            block,
            transfer(),
        )
        .sign(key)
    };
    let head_hash = chain.block_hash(chain.head());
    // The key's nonce is 9 (its two genesis transactions).
    assert_eq!(
        refusal(&sign_with(&alice_key, 9, head_hash), &mut chain),
        json!({"InvalidNonce": {"tx_nonce": 9, "ak_nonce": 9}})
    );
    let too_large = (chain.head() + 1) * 1_000_000;
    assert_eq!(
        refusal(&sign_with(&alice_key, too_large, head_hash), &mut chain),
        json!({"NonceTooLarge": {"tx_nonce": too_large, "upper_bound": too_large}})
    );
    let unknown_block = chain::hash("no such block");
    assert_eq!(
        refusal(&sign_with(&alice_key, 10, unknown_block), &mut chain),
        json!("Expired")
    );
    let stranger = chain::secret_key("stranger");
    assert_eq!(
        refusal(&sign_with(&stranger, 10, head_hash), &mut chain),
        json!({"InvalidAccessKeyError": {"AccessKeyNotFound": {
            "account_id": "alice.mock",
            "public_key": stranger.public_key().to_string()
        }}})
    );
    // Signed by one key, claiming another.
    let forged = {
        let tx = near_rpc::tx::Transaction::new(
            "alice.mock".parse().unwrap(),
            alice_key.public_key(),
            10,
            "bob.mock".parse().unwrap(),
            head_hash,
            transfer(),
        );
        near_rpc::tx::SignedTransaction::new(tx.clone(), stranger.sign(&tx.hash().0))
    };
    assert_eq!(refusal(&forged, &mut chain), json!("InvalidSignature"));
    let nobody = chain.sign("nobody.mock", "bob.mock", transfer());
    assert_eq!(
        refusal(&nobody, &mut chain),
        json!({"SignerDoesNotExist": {"signer_id": "nobody.mock"}})
    );
    let all_of_it = chain.sign("bob.mock", "alice.mock", vec![Action::transfer(near(26))]);
    let error = refusal(&all_of_it, &mut chain);
    assert_eq!(error["NotEnoughBalance"]["signer_id"], "bob.mock");
    assert_eq!(
        error["NotEnoughBalance"]["balance"],
        balance(&chain, "bob.mock").to_string()
    );
    // Enough for the transfer, not for the storage the account then cannot pay.
    assert_eq!(
        chain.account("bob.mock").unwrap().storage_cost(),
        0,
        "a small account stores for free"
    );
    if let Some(bob) = chain.accounts.iter_mut().find(|a| a.id == "bob.mock") {
        bob.code = Some(vec![0; 2_000]);
    }
    let bob = chain.account("bob.mock").unwrap();
    let needed = bob.storage_cost();
    assert_eq!(
        needed,
        u128::from(bob.storage_usage()) * fees::STORAGE_AMOUNT_PER_BYTE
    );
    let leave_too_little = chain.sign(
        "bob.mock",
        "alice.mock",
        vec![Action::transfer(NearToken::from_yoctonear(
            bob.amount - needed / 2,
        ))],
    );
    // nearcore reports what is missing (the storage cost less what would be left), not
    // the whole cost: half of it, and the gas the transfer pays.
    let left = needed / 2 - transfer_gas_cost(false);
    assert_eq!(
        refusal(&leave_too_little, &mut chain)["LackBalanceForState"],
        json!({"signer_id": "bob.mock", "amount": (needed - left).to_string()})
    );
    let bad = vec![
        Action::DeleteAccount {
            beneficiary_id: "bob.mock".parse().unwrap(),
        },
        Action::transfer(NearToken::from_yoctonear(1)),
    ];
    assert_eq!(
        refusal(&chain.sign("alice.mock", "alice.mock", bad), &mut chain),
        json!({"ActionsValidation": "DeleteActionMustBeFinal"})
    );
    let no_gas = Action::function_call(
        "set_status",
        vec![],
        NearGas::from_gas(0),
        NearToken::from_yoctonear(0),
    );
    assert_eq!(
        refusal(
            &chain.sign("alice.mock", chain::CONTRACT, vec![no_gas]),
            &mut chain
        ),
        json!({"ActionsValidation": "FunctionCallZeroAttachedGas"})
    );
    let gas_key = Action::AddKey {
        public_key: chain::public_key("gas key"),
        access_key: AccessKey {
            nonce: 0,
            permission: near_rpc::tx::AccessKeyPermission::GasKeyFullAccess(
                near_rpc::tx::GasKeyInfo {
                    balance: NearToken::from_yoctonear(0),
                    num_nonces: 0,
                },
            ),
        },
    };
    assert_eq!(
        refusal(
            &chain.sign("alice.mock", "alice.mock", vec![gas_key]),
            &mut chain
        ),
        json!({"ActionsValidation": {"GasKeyInvalidNumNonces": {
            "requested_nonces": 0,
            "limit": 1024
        }}})
    );
    let huge = vec![
        Action::transfer(NearToken::from_yoctonear(u128::MAX)),
        Action::transfer(NearToken::from_yoctonear(1)),
    ];
    assert_eq!(
        refusal(&chain.sign("alice.mock", "bob.mock", huge), &mut chain),
        json!("CostOverflow")
    );
    // Nothing refused changed anything.
    assert_eq!(chain.account("alice.mock").unwrap().keys[0].nonce, 9);
    assert!(chain.transactions.len() == 2);
}

/// A transaction signed with alice.mock's function-call key, at its next nonce and the
/// head's hash.
fn signed_by_alices_function_call_key(
    chain: &Chain,
    receiver: &str,
    actions: Vec<Action>,
) -> near_rpc::tx::SignedTransaction {
    let key = chain::secret_key("alice.mock function call");
    let nonce = chain
        .account("alice.mock")
        .unwrap()
        .key(&key.public_key())
        .unwrap()
        .nonce
        + 1;
    near_rpc::tx::Transaction::new(
        "alice.mock".parse().unwrap(),
        key.public_key(),
        nonce,
        receiver.parse().unwrap(),
        chain.block_hash(chain.head()),
        actions,
    )
    .sign(&key)
}

#[test]
fn a_function_call_key_signs_only_what_it_may() {
    let mut chain = Chain::new();
    let sign = signed_by_alices_function_call_key;
    let call = |method: &str, deposit: u128| {
        Action::function_call(
            method,
            br#"{"message":"from a limited key"}"#.to_vec(),
            NearGas::from_tgas(10),
            NearToken::from_yoctonear(deposit),
        )
    };
    let access = |e: Value| json!({ "InvalidAccessKeyError": e });
    assert_eq!(
        refusal(
            &sign(
                &chain,
                "bob.mock",
                vec![Action::transfer(NearToken::from_yoctonear(1))]
            ),
            &mut chain
        ),
        access(json!("RequiresFullAccess"))
    );
    assert_eq!(
        refusal(
            &sign(&chain, chain::CONTRACT, vec![call("set_status", 1)]),
            &mut chain
        ),
        access(json!("DepositWithFunctionCall"))
    );
    assert_eq!(
        refusal(
            &sign(&chain, "bob.mock", vec![call("set_status", 0)]),
            &mut chain
        ),
        access(
            json!({"ReceiverMismatch": {"tx_receiver": "bob.mock", "ak_receiver": chain::CONTRACT}})
        )
    );
    assert_eq!(
        refusal(
            &sign(&chain, chain::CONTRACT, vec![call("get_status", 0)]),
            &mut chain
        ),
        access(json!({"MethodNameMismatch": {"method_name": "get_status"}}))
    );
    let allowance = |chain: &Chain| match &chain.account("alice.mock").unwrap().keys[1].permission {
        Permission::FunctionCall { allowance, .. } => allowance.unwrap(),
        Permission::FullAccess => unreachable!(),
    };
    let before = allowance(&chain);
    let answer = run(
        &sign(&chain, chain::CONTRACT, vec![call("set_status", 0)]),
        &mut chain,
    );
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
    // What was burnt comes out of the allowance; the unused gas comes back into it.
    assert_eq!(allowance(&chain), before - total_burnt(&answer));
    // An allowance too small for the fees.
    if let Some(account) = chain.accounts.iter_mut().find(|a| a.id == "alice.mock") {
        if let Permission::FunctionCall { allowance, .. } = &mut account.keys[1].permission {
            *allowance = Some(1);
        }
    }
    let error = refusal(
        &sign(&chain, chain::CONTRACT, vec![call("set_status", 0)]),
        &mut chain,
    );
    assert_eq!(
        error["InvalidAccessKeyError"]["NotEnoughAllowance"]["allowance"],
        "1"
    );
}

/// Changes an account of `chain` in place.
fn edit(chain: &mut Chain, id: &str, change: impl FnOnce(&mut chain::Account)) {
    change(
        chain
            .accounts
            .iter_mut()
            .find(|a| a.id == id)
            .expect("a known account"),
    );
}

/// nearcore's `check_storage_stake`: the balance and the locked stake together cover
/// the storage, and a refusal names what is missing, at submission and at execution.
#[test]
fn storage_staking_counts_locked_stake_and_reports_what_is_missing() {
    let mut chain = Chain::new();
    edit(&mut chain, "bob.mock", |bob| {
        bob.code = Some(vec![0; 2_000])
    });
    let bob = chain.account("bob.mock").unwrap().clone();
    let needed = bob.storage_cost();
    assert!(needed > 0 && needed % 4 == 0);
    let gas = transfer_gas_cost(false);
    // A transfer that leaves a quarter of the storage cost.
    let transfer = Action::transfer(NearToken::from_yoctonear(bob.amount - needed / 4 - gas));
    let lacking = |chain: &mut Chain| {
        let signed = chain.sign("bob.mock", "alice.mock", vec![transfer.clone()]);
        chain.submit(&signed.to_borsh()).map_err(|e| match e {
            SubmitError::Invalid(error) => error,
            other => panic!("{other:?}"),
        })
    };
    let refused = |amount: u128| json!({"LackBalanceForState": {"signer_id": "bob.mock", "amount": amount.to_string()}});
    assert_eq!(lacking(&mut chain), Err(refused(needed - needed / 4)));
    // Locked stake covers another quarter: half is missing.
    edit(&mut chain, "bob.mock", |bob| bob.locked = needed / 4);
    assert_eq!(lacking(&mut chain), Err(refused(needed / 2)));
    // One yoctoNEAR short, then exactly covered (accepted).
    edit(&mut chain, "bob.mock", |bob| {
        bob.locked = needed / 4 * 3 - 1
    });
    assert_eq!(lacking(&mut chain), Err(refused(1)));
    edit(&mut chain, "bob.mock", |bob| bob.locked = needed / 4 * 3);
    assert!(lacking(&mut chain).is_ok());

    // At execution: a deploy to itself that grows bob's storage past what his balance
    // and stake hold fails as a whole, naming what is missing once the gas is paid.
    let mut chain = Chain::new();
    let code = vec![7u8; 30_000];
    let (before, locked) = (NEAR / 10, NEAR / 20);
    edit(&mut chain, "bob.mock", |bob| {
        bob.amount = before;
        bob.locked = locked;
    });
    let mut with_code = chain.account("bob.mock").unwrap().clone();
    with_code.code = Some(code.clone());
    let required = with_code.storage_cost();
    assert!(required > before + locked);
    let deploy = || vec![Action::DeployContract { code: code.clone() }];
    let answer = run(&chain.sign("bob.mock", "bob.mock", deploy()), &mut chain);
    let burnt = total_burnt(&answer);
    assert_eq!(
        answer["status"]["Failure"]["ActionError"],
        json!({"index": null, "kind": {"LackBalanceForState": {
            "account_id": "bob.mock",
            "amount": (required - (before - burnt) - locked).to_string()
        }}})
    );
    assert_eq!(chain.account("bob.mock").unwrap().code, None);
    assert_eq!(balance(&chain, "bob.mock"), before - burnt);
    // Staked enough, the same deploy executes.
    edit(&mut chain, "bob.mock", |bob| bob.locked = required);
    let answer = run(&chain.sign("bob.mock", "bob.mock", deploy()), &mut chain);
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
    assert_eq!(chain.account("bob.mock").unwrap().code, Some(code));
}

/// A transaction failing several checks is refused for the first in nearcore's order
/// (`verify_and_charge_transaction`): balance, allowance, storage, then the key's
/// permission.
#[test]
fn a_refusal_names_the_first_check_that_fails_in_nearcores_order() {
    let mut chain = Chain::new();
    let key = chain::secret_key("alice.mock function call");
    // A transfer, which a function-call key may never sign.
    let sign = |chain: &Chain, amount: u128| {
        let transfer = Action::transfer(NearToken::from_yoctonear(amount));
        signed_by_alices_function_call_key(chain, "bob.mock", vec![transfer])
    };
    // Code that makes alice's storage cost more than she holds: every transaction of
    // hers lacks balance for state.
    edit(&mut chain, "alice.mock", |alice| {
        alice.amount = NEAR;
        alice.code = Some(vec![0; 200_000]);
    });
    let alice = chain.account("alice.mock").unwrap().clone();
    assert!(alice.storage_cost() > alice.amount);
    let gas = transfer_gas_cost(false);
    let access = |e: Value| json!({ "InvalidAccessKeyError": e });

    // The balance first.
    let error = refusal(&sign(&chain, alice.amount), &mut chain);
    assert_eq!(
        error,
        json!({"NotEnoughBalance": {
            "signer_id": "alice.mock",
            "balance": alice.amount.to_string(),
            "cost": (alice.amount + gas).to_string()
        }})
    );
    // Then the allowance, which pays the whole cost, deposits included.
    let allowance = NEAR / 4;
    assert_eq!(
        refusal(&sign(&chain, allowance), &mut chain),
        access(json!({"NotEnoughAllowance": {
            "account_id": "alice.mock",
            "public_key": key.public_key().to_string(),
            "allowance": allowance.to_string(),
            "cost": (allowance + gas).to_string()
        }}))
    );
    // Then storage.
    assert_eq!(
        refusal(&sign(&chain, 1), &mut chain),
        json!({"LackBalanceForState": {
            "signer_id": "alice.mock",
            "amount": (alice.storage_cost() - (alice.amount - 1 - gas)).to_string()
        }})
    );
    // Only then the permission.
    edit(&mut chain, "alice.mock", |alice| {
        alice.locked = alice.storage_cost()
    });
    assert_eq!(
        refusal(&sign(&chain, 1), &mut chain),
        access(json!("RequiresFullAccess"))
    );
}

#[test]
fn accounts_are_created_by_nearcores_naming_rules() {
    let mut chain = Chain::new();
    let new_key = chain::public_key("sub.alice.mock");
    let create = |chain: &Chain, signer: &str, id: &str| {
        chain.sign(
            signer,
            id,
            vec![
                Action::CreateAccount,
                Action::transfer(near(1)),
                Action::AddKey {
                    public_key: new_key.clone(),
                    access_key: AccessKey::full_access(),
                },
            ],
        )
    };
    let answer = run(&create(&chain, "alice.mock", "sub.alice.mock"), &mut chain);
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
    let sub = chain.account("sub.alice.mock").unwrap();
    assert_eq!(sub.amount, NEAR);
    assert_eq!(sub.keys[0].public_key, new_key);
    // Its key's nonce starts from the height, as nearcore's.
    assert!(sub.keys[0].nonce >= 1_000_000);
    // The new account signs for itself.
    let answer = run(
        &chain.sign(
            "sub.alice.mock",
            "bob.mock",
            vec![Action::transfer(NearToken::from_yoctonear(5))],
        ),
        &mut chain,
    );
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));

    let failures = [
        (
            "alice.mock",
            "sub.alice.mock",
            json!({"AccountAlreadyExists": {"account_id": "sub.alice.mock"}}),
        ),
        (
            "alice.mock",
            "sub.bob.mock",
            json!({"CreateAccountNotAllowed": {"account_id": "sub.bob.mock", "predecessor_id": "alice.mock"}}),
        ),
        (
            "alice.mock",
            "short",
            json!({"CreateAccountOnlyByRegistrar": {"account_id": "short", "registrar_account_id": "registrar", "predecessor_id": "alice.mock"}}),
        ),
    ];
    for (signer, id, kind) in failures {
        let before = balance(&chain, signer);
        let answer = run(&create(&chain, signer, id), &mut chain);
        assert_eq!(failure_kind(&answer), kind, "{id}");
        assert_eq!(answer["status"]["Failure"]["ActionError"]["index"], 0);
        // The deposit comes back: only fees are spent.
        assert_eq!(
            balance(&chain, signer),
            before - total_burnt(&answer),
            "{id}"
        );
    }
    assert!(chain.account("sub.bob.mock").is_none());
    // A top-level name of 32 characters or more needs no registrar.
    let long = "a-long-top-level-account-name-for-anyone";
    let answer = run(&create(&chain, "alice.mock", long), &mut chain);
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
}

#[test]
fn a_transfer_to_an_implicit_account_creates_it_with_its_key() {
    let mut chain = Chain::new();
    let key = SecretKey::ed25519_from_seed(&[7; 32]);
    let implicit: String = key
        .public_key()
        .as_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let answer = run(
        &chain.sign("alice.mock", &implicit, vec![Action::transfer(near(1))]),
        &mut chain,
    );
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
    let account = chain.account(&implicit).unwrap();
    assert_eq!(account.amount, NEAR);
    assert_eq!(account.keys[0].public_key, key.public_key());
    // Its key signs for it.
    let nonce = account.keys[0].nonce + 1;
    let signed = near_rpc::tx::Transaction::new(
        implicit.parse().unwrap(),
        key.public_key(),
        nonce,
        "bob.mock".parse().unwrap(),
        chain.block_hash(chain.head()),
        vec![Action::transfer(NearToken::from_yoctonear(1))],
    )
    .sign(&key);
    assert_eq!(
        run(&signed, &mut chain)["status"],
        json!({"SuccessValue": ""})
    );
    // Any other missing account: the transfer fails and comes back.
    let answer = run(
        &chain.sign("alice.mock", "nobody.mock", vec![Action::transfer(near(1))]),
        &mut chain,
    );
    assert_eq!(
        failure_kind(&answer),
        json!({"AccountDoesNotExist": {"account_id": "nobody.mock"}})
    );
}

#[test]
fn keys_stake_code_and_deletion() {
    let mut chain = Chain::new();
    let extra: PublicKey = chain::public_key("extra");
    let add = Action::AddKey {
        public_key: extra.clone(),
        access_key: AccessKey::function_call(chain::CONTRACT, vec!["set_status".into()], None),
    };
    assert_eq!(
        run(
            &chain.sign("bob.mock", "bob.mock", vec![add.clone()]),
            &mut chain
        )["status"],
        json!({"SuccessValue": ""})
    );
    assert!(matches!(
        chain
            .account("bob.mock")
            .unwrap()
            .key(&extra)
            .unwrap()
            .permission,
        Permission::FunctionCall { .. }
    ));
    let answer = run(&chain.sign("bob.mock", "bob.mock", vec![add]), &mut chain);
    assert_eq!(
        failure_kind(&answer),
        json!({"AddKeyAlreadyExists": {"account_id": "bob.mock", "public_key": extra.to_string()}})
    );
    let delete = Action::DeleteKey {
        public_key: extra.clone(),
    };
    assert_eq!(
        run(
            &chain.sign("bob.mock", "bob.mock", vec![delete.clone()]),
            &mut chain
        )["status"],
        json!({"SuccessValue": ""})
    );
    let answer = run(
        &chain.sign("bob.mock", "bob.mock", vec![delete]),
        &mut chain,
    );
    assert_eq!(
        failure_kind(&answer),
        json!({"DeleteKeyDoesNotExist": {"account_id": "bob.mock", "public_key": extra.to_string()}})
    );

    // Only the account acts on itself.
    let answer = run(
        &chain.sign(
            "alice.mock",
            "bob.mock",
            vec![Action::DeleteKey {
                public_key: chain::public_key("bob.mock"),
            }],
        ),
        &mut chain,
    );
    assert_eq!(
        failure_kind(&answer),
        json!({"ActorNoPermission": {"account_id": "bob.mock", "actor_id": "alice.mock"}})
    );

    // Stake locks what it stakes.
    let before = balance(&chain, "bob.mock");
    let stake = Action::Stake {
        stake: near(5),
        public_key: chain::public_key("bob.mock"),
    };
    let answer = run(&chain.sign("bob.mock", "bob.mock", vec![stake]), &mut chain);
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
    assert_eq!(chain.account("bob.mock").unwrap().locked, 5 * NEAR);
    assert_eq!(
        balance(&chain, "bob.mock"),
        before - 5 * NEAR - total_burnt(&answer)
    );
    let too_much = Action::Stake {
        stake: near(1_000),
        public_key: chain::public_key("bob.mock"),
    };
    let answer = run(
        &chain.sign("bob.mock", "bob.mock", vec![too_much]),
        &mut chain,
    );
    assert_eq!(
        failure_kind(&answer)["TriesToStake"]["stake"],
        (1_000 * NEAR).to_string()
    );
    // A staking account is not deleted.
    let delete_bob = Action::DeleteAccount {
        beneficiary_id: "alice.mock".parse().unwrap(),
    };
    let answer = run(
        &chain.sign("bob.mock", "bob.mock", vec![delete_bob.clone()]),
        &mut chain,
    );
    assert_eq!(
        failure_kind(&answer),
        json!({"DeleteAccountStaking": {"account_id": "bob.mock"}})
    );
    let unstake = Action::Stake {
        stake: near(0),
        public_key: chain::public_key("bob.mock"),
    };
    run(
        &chain.sign("bob.mock", "bob.mock", vec![unstake]),
        &mut chain,
    );
    assert_eq!(chain.account("bob.mock").unwrap().locked, 0);

    // Code deployed is what view_code shows.
    let code = b"\0asm\x01\0\0\0 any bytes".to_vec();
    let deploy = Action::DeployContract { code: code.clone() };
    run(
        &chain.sign("bob.mock", "bob.mock", vec![deploy]),
        &mut chain,
    );
    let bob = chain.account("bob.mock").unwrap();
    assert_eq!(bob.code.as_deref(), Some(&code[..]));
    assert_eq!(bob.code_hash(), near_rpc::CryptoHash::hash_bytes(&code));
    // Code with no Rust contract behind it has no methods.
    let call = Action::function_call(
        "anything",
        vec![],
        NearGas::from_tgas(5),
        NearToken::from_yoctonear(0),
    );
    let answer = run(
        &chain.sign("alice.mock", "bob.mock", vec![call]),
        &mut chain,
    );
    assert_eq!(
        failure_kind(&answer),
        json!({"FunctionCallError": {"MethodResolveError": "MethodNotFound"}})
    );

    // Deleted: its balance goes to the beneficiary in a receipt of its own.
    let alice = balance(&chain, "alice.mock");
    let left = balance(&chain, "bob.mock");
    let answer = run(
        &chain.sign("bob.mock", "bob.mock", vec![delete_bob]),
        &mut chain,
    );
    assert_eq!(answer["status"], json!({"SuccessValue": ""}));
    assert!(chain.account("bob.mock").is_none());
    let burnt = total_burnt(&answer);
    // Bob paid the fees from what was left; alice got the rest and the gas refund.
    assert_eq!(balance(&chain, "alice.mock"), alice + left - burnt);
    assert_eq!(answer["receipts"][1]["receiver_id"], "alice.mock");
}

#[test]
fn milestones_advance_with_blocks() {
    let mut chain = Chain::new();
    let head = chain.head();
    let signed = chain.sign("alice.mock", "bob.mock", vec![Action::transfer(near(1))]);
    let hash = chain.submit(&signed.to_borsh()).unwrap();
    let tx = chain.transaction(&hash).unwrap();
    assert_eq!(chain.level(tx), Level::None);
    assert_eq!(
        chain.transaction_status(tx, false),
        json!({"final_execution_status": "NONE"})
    );
    assert_eq!(chain.head(), head, "submitting produces no block");
    // Not charged before inclusion.
    let alice = balance(&chain, "alice.mock");
    assert_eq!(chain.account("alice.mock").unwrap().keys[0].nonce, 9);

    let levels = [
        Level::Included,
        Level::ExecutedOptimistic,
        Level::Executed,
        Level::Final,
    ];
    let mut heights = Vec::new();
    for level in levels {
        assert!(chain.wait_for(&hash, level));
        let tx = chain.transaction(&hash).unwrap();
        assert_eq!(chain.level(tx), level, "one block at a time");
        heights.push(chain.head());
    }
    assert_eq!(heights, [head + 1, head + 2, head + 3, head + 4]);
    assert!(balance(&chain, "alice.mock") < alice - NEAR);

    // The transaction is in the chunk of the block its outcome names.
    let tx = chain.transaction(&hash).unwrap();
    assert_eq!(tx.height(), Some(head + 1));
    assert_eq!(tx.outcomes[0].height, head + 1);
    assert_eq!(tx.outcomes[1].height, head + 2);
    let answer = chain.transaction_status(tx, false);
    assert_eq!(
        answer["transaction_outcome"]["block_hash"],
        chain.block_hash(head + 1).to_string()
    );
    // A transaction to oneself runs its receipt in the block it is in.
    let signed = chain.sign("alice.mock", "alice.mock", vec![Action::transfer(near(1))]);
    let hash = chain.submit(&signed.to_borsh()).unwrap();
    assert!(chain.wait_for(&hash, Level::ExecutedOptimistic));
    let tx = chain.transaction(&hash).unwrap();
    assert_eq!(tx.outcomes[0].height, tx.outcomes[1].height);
}

#[test]
fn a_keys_transactions_in_one_block_go_in_nonce_order() {
    let mut chain = Chain::new();
    let first = chain.sign(
        "alice.mock",
        "bob.mock",
        vec![Action::transfer(NearToken::from_yoctonear(1))],
    );
    let second = with_nonce(&first, first.transaction().nonce() + 1);
    assert_eq!(
        second.transaction().nonce(),
        first.transaction().nonce() + 1
    );
    // Submitted out of order, both valid against the state; the block sorts them.
    let b = chain.submit(&second.to_borsh()).unwrap();
    let a = chain.submit(&first.to_borsh()).unwrap();
    chain.advance(4);
    for hash in [a, b] {
        let tx = chain.transaction(&hash).expect("both included");
        assert_eq!(chain.level(tx), Level::Final);
    }
    // The same bytes again: the same transaction, not charged twice.
    let alice = balance(&chain, "alice.mock");
    assert_eq!(chain.submit(&first.to_borsh()), Ok(a));
    chain.advance(3);
    assert_eq!(balance(&chain, "alice.mock"), alice);
    // Two valid at submission whose nonce is the same: the first to the block wins, the
    // other is dropped (as nodes drop it), never executed.
    let one = chain.sign(
        "alice.mock",
        "bob.mock",
        vec![Action::transfer(NearToken::from_yoctonear(3))],
    );
    let other = chain.sign(
        "alice.mock",
        "bob.mock",
        vec![Action::transfer(NearToken::from_yoctonear(4))],
    );
    assert_eq!(one.transaction().nonce(), other.transaction().nonce());
    let one = chain.submit(&one.to_borsh()).unwrap();
    let other = chain.submit(&other.to_borsh()).unwrap();
    chain.advance(3);
    let kept: Vec<bool> = [one, other]
        .iter()
        .map(|h| chain.transaction(h).is_some())
        .collect();
    assert_eq!(kept.iter().filter(|k| **k).count(), 1, "{kept:?}");
}

/// `signed`'s transaction with another nonce, signed by alice.mock's key.
fn with_nonce(
    signed: &near_rpc::tx::SignedTransaction,
    nonce: u64,
) -> near_rpc::tx::SignedTransaction {
    let tx = signed.transaction();
    near_rpc::tx::Transaction::new(
        tx.signer_id().clone(),
        tx.public_key().clone(),
        nonce,
        tx.receiver_id().clone(),
        *tx.block_hash(),
        vec![Action::transfer(NearToken::from_yoctonear(2))],
    )
    .sign(&chain::secret_key("alice.mock"))
}

#[test]
fn contracts_in_rust_see_the_call_keep_state_log_and_fail() {
    let node = MockNode::new();
    let counter = Contract::new("counter")
        .method("increment", |call| {
            let n: u64 = call
                .read(b"n")
                .map(|v| String::from_utf8_lossy(v).parse().unwrap_or(0))
                .unwrap_or(0)
                + 1;
            call.write(b"n", n.to_string().as_bytes());
            call.log(format!(
                "{} (signed by {}) added 1 with {} attached",
                call.predecessor(),
                call.signer(),
                call.attached_deposit().as_yoctonear()
            ));
            Ok(n.to_string().into_bytes())
        })
        .method("get", |call| Ok(call.read(b"n").unwrap_or(b"0").to_vec()))
        .method("fail", |call| {
            call.write(b"n", b"999");
            Err("nothing to do".into())
        })
        .method("explode", |_| panic!("a bug in the contract"));
    node.deploy("counter.mock", counter.clone());
    node.with_chain(|chain| {
        let call = |method: &str, deposit: u128| {
            Action::function_call(method, b"{}".to_vec(), NearGas::from_tgas(10), NearToken::from_yoctonear(deposit))
        };
        let counter_before = balance(chain, "counter.mock");
        let answer = run(&chain.sign("alice.mock", "counter.mock", vec![call("increment", 5)]), chain);
        assert_eq!(answer["status"], json!({"SuccessValue": "MQ=="}));
        assert_eq!(
            answer["receipts_outcome"][0]["outcome"]["logs"],
            json!(["alice.mock (signed by alice.mock) added 1 with 5 attached"])
        );
        assert_eq!(balance(chain, "counter.mock"), counter_before + 5);
        // State is the contract's, visible to views.
        let account = chain.account("counter.mock").unwrap();
        assert_eq!(account.state.get(&b"n"[..]).map(Vec::as_slice), Some(&b"1"[..]));
        assert_eq!(chain.view_call(account, "get", b"{}").unwrap().0, b"1");
        // A view may not write.
        let (message, error) = chain.view_call(account, "increment", b"{}").unwrap_err();
        assert!(message.contains("ProhibitedInView"), "{message}");
        assert_eq!(error, json!({"HostError": {"ProhibitedInView": {"method_name": "storage_write"}}}));

        // A failing method: a FunctionCallError with its message; the deposit returns.
        let alice = balance(chain, "alice.mock");
        let answer = run(&chain.sign("alice.mock", "counter.mock", vec![call("fail", 7)]), chain);
        assert_eq!(
            failure_kind(&answer),
            json!({"FunctionCallError": {"ExecutionError": "Smart contract panicked: nothing to do"}})
        );
        assert_eq!(balance(chain, "alice.mock"), alice - total_burnt(&answer));
        assert_eq!(
            chain.account("counter.mock").unwrap().state.get(&b"n"[..]).map(Vec::as_slice),
            Some(&b"1"[..]),
            "a failed call's writes are undone"
        );
        // A Rust panic in a method is the contract's panic, and the chain goes on.
        let head = chain.head();
        let answer = run(&chain.sign("alice.mock", "counter.mock", vec![call("explode", 0)]), chain);
        assert_eq!(
            failure_kind(&answer),
            json!({"FunctionCallError": {"ExecutionError": "Smart contract panicked: a bug in the contract"}})
        );
        assert_eq!(chain.account("counter.mock").unwrap().state.get(&b"n"[..]).map(Vec::as_slice), Some(&b"1"[..]));
        assert!(chain.head() > head && chain.block_hash(chain.head()) != chain.block_hash(head));
        let account = chain.account("counter.mock").unwrap();
        assert!(chain.view_call(account, "explode", b"{}").unwrap_err().0.contains("a bug in the contract"));
        // Too little gas: all of it burnt, nothing changed.
        let starved = Action::function_call("increment", b"{}".to_vec(), NearGas::from_gas(1), NearToken::from_yoctonear(0));
        let answer = run(&chain.sign("alice.mock", "counter.mock", vec![starved]), chain);
        assert_eq!(failure_kind(&answer), json!({"FunctionCallError": {"HostError": "GasExceeded"}}));
        assert_eq!(chain.account("counter.mock").unwrap().state.get(&b"n"[..]).map(Vec::as_slice), Some(&b"1"[..]));
        // Code deployed by a transaction runs the contract its bytes name.
        let deploy = Action::DeployContract { code: counter.code() };
        run(&chain.sign("bob.mock", "bob.mock", vec![deploy]), chain);
        let answer = run(&chain.sign("alice.mock", "bob.mock", vec![call("increment", 0)]), chain);
        assert_eq!(answer["status"], json!({"SuccessValue": "MQ=="}));
    });
}

#[test]
fn a_delegate_action_runs_its_actions_as_the_sender() {
    let mut chain = Chain::new();
    let bob = chain::secret_key("bob.mock");
    let bob_nonce = chain.account("bob.mock").unwrap().keys[0].nonce;
    let delegate = |nonce: u64, max_block_height: u64| {
        DelegateAction {
            sender_id: "bob.mock".parse().unwrap(),
            receiver_id: chain::CONTRACT.parse().unwrap(),
            actions: vec![NonDelegateAction::try_from(Action::function_call(
                "set_status",
                br#"{"message":"relayed"}"#.to_vec(),
                NearGas::from_tgas(20),
                NearToken::from_yoctonear(0),
            ))
            .unwrap()],
            nonce,
            max_block_height,
            public_key: bob.public_key(),
        }
        .sign(&bob)
    };
    let bob_balance = balance(&chain, "bob.mock");
    let relayer = balance(&chain, "alice.mock");
    let signed = chain.sign(
        "alice.mock",
        "bob.mock",
        vec![Action::Delegate(Box::new(delegate(
            bob_nonce + 1,
            chain.head() + 100,
        )))],
    );
    let answer = run(&signed, &mut chain);
    assert_eq!(answer["status"], json!({"SuccessValue": ""}), "{answer:#}");
    // The inner receipt: from bob, signed by the relayer, who paid for everything.
    let inner = answer["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["receiver_id"] == chain::CONTRACT)
        .unwrap();
    assert_eq!(inner["predecessor_id"], "bob.mock");
    assert_eq!(inner["receipt"]["Action"]["signer_id"], "alice.mock");
    assert_eq!(balance(&chain, "bob.mock"), bob_balance);
    // The relayer pays what was burnt, in both receipts, and gets the rest back.
    assert_eq!(
        balance(&chain, "alice.mock"),
        relayer - total_burnt(&answer)
    );
    assert_eq!(
        chain.account("bob.mock").unwrap().keys[0].nonce,
        bob_nonce + 1
    );
    // Replayed: the nonce is taken.
    let signed = chain.sign(
        "alice.mock",
        "bob.mock",
        vec![Action::Delegate(Box::new(delegate(
            bob_nonce + 1,
            chain.head() + 100,
        )))],
    );
    let answer = run(&signed, &mut chain);
    assert_eq!(
        failure_kind(&answer),
        json!({"DelegateActionInvalidNonce": {"delegate_nonce": bob_nonce + 1, "ak_nonce": bob_nonce + 1}})
    );
    let signed = chain.sign(
        "alice.mock",
        "bob.mock",
        vec![Action::Delegate(Box::new(delegate(bob_nonce + 2, 1)))],
    );
    assert_eq!(
        failure_kind(&run(&signed, &mut chain)),
        json!("DelegateActionExpired")
    );
    // Two delegate actions in one transaction: refused before anything runs, with
    // nearcore's error, though each alone would be valid.
    let nonce = chain.account("bob.mock").unwrap().keys[0].nonce;
    let two = vec![
        Action::Delegate(Box::new(delegate(nonce + 1, chain.head() + 100))),
        Action::transfer(NearToken::from_yoctonear(1)),
        Action::Delegate(Box::new(delegate(nonce + 2, chain.head() + 100))),
    ];
    let before = balance(&chain, "alice.mock");
    assert_eq!(
        refusal(&chain.sign("alice.mock", "bob.mock", two), &mut chain),
        json!({"ActionsValidation": "DelegateActionMustBeOnlyOne"})
    );
    assert_eq!(balance(&chain, "alice.mock"), before);
    assert_eq!(chain.account("bob.mock").unwrap().keys[0].nonce, nonce);
}

#[tokio::test]
async fn the_write_path_of_near_rpc_runs_against_it() {
    let node = MockNode::new();
    let client = node.client();
    let alice = node.signer("alice.mock").expect("alice.mock signs");
    assert!(node.signer("nobody.mock").is_none());
    let before = node.with_chain(|c| balance(c, "bob.mock"));
    let outcome = client.transfer(&alice, "bob.mock", near(3)).await.unwrap();
    assert!(!outcome.is_failure());
    assert_eq!(
        node.with_chain(|c| balance(c, "bob.mock")),
        before + 3 * NEAR
    );
    let outcome = client
        .function_call(
            &alice,
            chain::CONTRACT,
            "set_status",
            json!({"message": "via the client"}),
        )
        .await
        .unwrap();
    assert!(!outcome.is_failure());
    let status: Option<String> = client
        .call_function(
            chain::CONTRACT,
            "get_status",
            json!({"account_id": "alice.mock"}),
        )
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(status.as_deref(), Some("via the client"));
    // A failure on chain is the outcome's, typed.
    let outcome = client
        .transfer(&alice, "nobody.mock", near(1))
        .await
        .unwrap();
    assert!(outcome.is_failure());
}

#[test]
fn credential_files_for_every_account_a_client_can_sign_for() {
    let node = MockNode::new();
    let dir =
        std::env::temp_dir().join(format!("near-rpc-mock-credentials-{}", std::process::id()));
    let written = node.write_credentials(&dir).unwrap();
    let names: Vec<String> = written
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "alice.mock.json",
            "bob.mock.json",
            "contract.mock.json",
            "validator.mock.json"
        ]
    );
    for path in &written {
        assert_eq!(path.parent().unwrap(), dir.join("mock"));
        let credentials = near_rpc::tx::Credentials::from_file(path).unwrap();
        let id = credentials.account_id.to_string();
        assert_eq!(credentials.public_key(), chain::public_key(&id));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(path).unwrap().permissions().mode();
            assert_eq!(
                mode & 0o077,
                0,
                "{}: readable by its owner only",
                path.display()
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_saved_chain_starts_again_with_its_hashes_and_state() {
    let node = MockNode::new();
    let (signed, pending) = node.with_chain(|chain| {
        let signed = chain.sign("alice.mock", "bob.mock", vec![Action::transfer(near(2))]);
        run(&signed, chain);
        // One left waiting for the next block, and one receipt due after it.
        let pending = chain.sign("bob.mock", "alice.mock", vec![Action::transfer(near(1))]);
        chain.submit(&pending.to_borsh()).unwrap();
        chain.advance(1);
        (signed, pending)
    });
    let file =
        std::env::temp_dir().join(format!("near-rpc-mock-state-{}.json", std::process::id()));
    node.save(&file).unwrap();
    let loaded = MockNode::load(&file).unwrap();
    let same = |chain: &Chain| {
        (
            chain.head(),
            chain.block_hash(chain.head()),
            balance(chain, "alice.mock"),
            balance(chain, "bob.mock"),
            chain.transactions.len(),
        )
    };
    assert_eq!(node.with_chain(|c| same(c)), loaded.with_chain(|c| same(c)));
    // Both go on alike: the due receipt executes, the same blocks hash the same.
    node.advance(3);
    loaded.advance(3);
    assert_eq!(node.with_chain(|c| same(c)), loaded.with_chain(|c| same(c)));
    loaded.with_chain(|chain| {
        for hash in [signed.hash(), pending.hash()] {
            assert_eq!(chain.level(chain.transaction(&hash).unwrap()), Level::Final);
        }
    });

    // Balances may be edited; history may not.
    let mut state: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    state["accounts"][1]["amount"] = json!("5");
    std::fs::write(&file, state.to_string()).unwrap();
    let edited = MockNode::load(&file).unwrap();
    assert_eq!(edited.with_chain(|c| balance(c, "bob.mock")), 5);
    let gas = state["transactions"][0]["outcomes"][0]["gas_burnt"].clone();
    state["transactions"][0]["outcomes"][0]["gas_burnt"] = json!(1);
    std::fs::write(&file, state.to_string()).unwrap();
    let error = MockNode::load(&file).unwrap_err().to_string();
    assert!(
        error.contains("block 105") && error.contains("edited"),
        "{error}"
    );
    std::fs::write(&file, r#"{"format": "something else"}"#).unwrap();
    let error = MockNode::load(&file).unwrap_err().to_string();
    assert!(error.contains("not a mock chain"), "{error}");
    state["transactions"][0]["outcomes"][0]["gas_burnt"] = gas;
    // What the file states beside the outcomes must agree with them, and every outcome
    // must be a known one in exactly the block of its height.
    let refused = |edit: &dyn Fn(&mut Value), expected: &str| {
        let mut edited = state.clone();
        edit(&mut edited);
        std::fs::write(&file, edited.to_string()).unwrap();
        let error = MockNode::load(&file).unwrap_err().to_string();
        assert!(error.contains(expected), "{expected}: {error}");
    };
    refused(
        &|s| s["transactions"][0]["height"] = json!(999),
        "`height` is Some(999)",
    );
    refused(
        &|s| s["transactions"][0]["unexecuted"] = json!(7),
        "`unexecuted` is 7",
    );
    refused(
        &|s| {
            s["transactions"][0]["outcomes"]
                .as_array_mut()
                .unwrap()
                .swap(0, 1)
        },
        "not the transaction's own",
    );
    refused(
        &|s| s["transactions"][0]["outcomes"][1]["height"] = json!(1),
        "says it is at height 1",
    );
    refused(
        &|s| s["transactions"][0]["outcomes"][1]["executor"] = json!("NOT AN ID"),
        "outcome",
    );
    state["accounts"][0]["amount"] = json!("lots");
    std::fs::write(&file, state.to_string()).unwrap();
    let error = MockNode::load(&file).unwrap_err().to_string();
    assert!(
        error.contains("account alice.mock: amount: `lots`"),
        "{error}"
    );
    std::fs::remove_file(&file).unwrap();
}

/// Several signers at once over HTTP (keep-alive connections), each sending several
/// transfers concurrently to an existing account: what executes moves exactly its
/// amount and is charged once, and no update is lost (the receiver gains exactly the
/// sum of what reached it).
///
/// How many must succeed, and why at least 4 of each sender's 5: a transfer is refused
/// only with `InvalidNonce` (everything else is plentiful), that is when a block already
/// holds a higher nonce of its key, and the client signs it anew at most
/// `MAX_RESIGNS` (3) times, so a transfer fails only after 4 refusals. A signer hands
/// out nonces in increasing order (a re-signing takes one past every nonce handed out),
/// so each refusal of an attempt is caused by an attempt signed after it, of another
/// transfer, included in a block before it arrived; the attempt that replaces it is
/// signed after that inclusion, so the next refusal needs yet another transfer's attempt.
/// A failed transfer thus needs 4 other transfers of its sender included; with 5 per
/// sender, two failures would need 4 each among the 3 others that succeed: at most one
/// fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_signers_lose_no_update() {
    const PER_SENDER: u128 = 5;
    let server = MockNode::start().await;
    let senders = ["alice.mock", "bob.mock", "contract.mock", "validator.mock"];
    let receiver = "receiver.mock";
    server.with_chain(|c| c.accounts.push(chain::Account::new(receiver, 1)));
    let balances = |ids: &[&str]| -> Vec<u128> {
        ids.iter()
            .map(|id| server.with_chain(|c| balance(c, id)))
            .collect()
    };
    let before = balances(&senders);
    let receiver_before = balances(&[receiver])[0];
    let mut tasks = Vec::new();
    for (i, sender) in senders.into_iter().enumerate() {
        let client = near_rpc::Client::new(server.url()).unwrap();
        let signer = server.signer(sender).unwrap();
        for n in 1..=PER_SENDER {
            let (client, signer) = (client.clone(), signer.clone());
            // Every transfer its own amount, so that one counted twice or lost shows.
            let amount = (i as u128 * PER_SENDER + n) * NEAR / 1_000;
            tasks.push(tokio::spawn(async move {
                let sent = NearToken::from_yoctonear(amount);
                let result = client.transfer(&signer, receiver, sent).await;
                (sender, amount, result)
            }));
        }
    }
    // Per sender: what its executed transfers moved, and what their outcomes burnt.
    let mut moved = std::collections::HashMap::<&str, (u128, u128, u128)>::new();
    let mut hashes = std::collections::HashSet::new();
    for task in tasks {
        let (sender, amount, result) = task.await.unwrap();
        match result {
            Ok(outcome) => {
                let outcome = serde_json::to_value(&outcome).unwrap();
                assert_eq!(outcome["status"], json!({"SuccessValue": ""}), "{sender}");
                assert!(hashes.insert(outcome["transaction"]["hash"].clone()));
                let entry = moved.entry(sender).or_default();
                entry.0 += 1;
                entry.1 += amount;
                entry.2 += total_burnt(&outcome);
            }
            Err(refused) => assert!(
                matches!(
                    refused.invalid_tx_error(),
                    Some(near_rpc::types::InvalidTxError::InvalidNonce { .. })
                ),
                "{sender}: {refused}"
            ),
        }
    }
    server.advance(3);
    let mut received = 0;
    for ((sender, before), after) in senders.iter().zip(before).zip(balances(&senders)) {
        let (succeeded, sent, burnt) = moved.get(sender).copied().unwrap_or_default();
        assert!(
            succeeded >= PER_SENDER - 1,
            "{sender}: {succeeded} of {PER_SENDER} transfers executed; at most one may fail"
        );
        assert_eq!(
            after,
            before - sent - burnt,
            "{sender}: exactly what its executed transfers sent and burnt"
        );
        received += sent;
    }
    assert_eq!(
        balances(&[receiver])[0],
        receiver_before + received,
        "the receiver gained every executed transfer, once"
    );
    // Each answered transaction executed exactly once, and nothing else did.
    let executed: std::collections::HashSet<Value> = server.with_chain(|c| {
        c.transactions
            .iter()
            .filter(|t| t.receiver == receiver && t.height().is_some())
            .map(|t| json!(t.hash.to_string()))
            .collect()
    });
    assert_eq!(executed, hashes);
}

/// The raw answer of `node` to one request.
async fn ask(node: &MockNode, method: &'static str, params: Value) -> Value {
    use near_rpc::client::transport::{RpcRequest, Transport};
    let body = json!({"jsonrpc": "2.0", "id": "1", "method": method, "params": params});
    let request = RpcRequest::new(method, 1, serde_json::to_vec(&body).unwrap(), false);
    let response = node.send(request).await.expect("the mock answers");
    serde_json::from_slice(&response.body).unwrap()
}

/// What a transaction changed is what `EXPERIMENTAL_changes` and
/// `EXPERIMENTAL_changes_in_block` report, at the blocks its outcomes name, with causes.
#[tokio::test]
async fn state_changes_are_reported_where_they_happened() {
    let node = MockNode::new();
    let (tx, set) = node.with_chain(|chain| {
        let tx = chain.sign("alice.mock", "bob.mock", vec![Action::transfer(near(1))]);
        run(&tx, chain);
        let call = Action::function_call(
            "set_status",
            br#"{"message":"changed"}"#.to_vec(),
            NearGas::from_tgas(10),
            NearToken::from_yoctonear(0),
        );
        let set = chain.sign("alice.mock", chain::CONTRACT, vec![call]);
        run(&set, chain);
        (tx.hash(), set.hash())
    });
    let (tx_height, receipt_height, receipt, bob) = node.with_chain(|chain| {
        let t = chain.transaction(&tx).unwrap();
        (
            t.outcomes[0].height,
            t.outcomes[1].height,
            t.outcomes[1].id,
            balance(chain, "bob.mock"),
        )
    });
    let changes = ask(
        &node,
        "EXPERIMENTAL_changes",
        json!({"block_id": receipt_height, "changes_type": "account_changes", "account_ids": ["bob.mock"]}),
    )
    .await;
    let changes = changes["result"]["changes"].as_array().unwrap().clone();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0]["type"], "account_update");
    assert_eq!(changes[0]["change"]["amount"], bob.to_string());
    assert_eq!(
        changes[0]["cause"],
        json!({"type": "receipt_processing", "receipt_hash": receipt.to_string()})
    );
    // The signer was charged where the transaction was included.
    let charged = ask(
        &node,
        "changes",
        json!({"block_id": tx_height, "changes_type": "account_changes", "account_ids": ["alice.mock"]}),
    )
    .await;
    assert_eq!(
        charged["result"]["changes"][0]["cause"],
        json!({"type": "transaction_processing", "tx_hash": tx.to_string()})
    );
    let touched = ask(
        &node,
        "EXPERIMENTAL_changes_in_block",
        json!({"block_id": receipt_height}),
    )
    .await;
    assert!(
        touched["result"]["changes"]
            .as_array()
            .unwrap()
            .contains(&json!({"type": "account_touched", "account_id": "bob.mock"})),
        "{touched}"
    );
    // The contract's storage, by key prefix.
    let call_height = node.with_chain(|chain| chain.transaction(&set).unwrap().outcomes[1].height);
    let data = ask(
        &node,
        "EXPERIMENTAL_changes",
        json!({"block_id": call_height, "changes_type": "data_changes", "account_ids": [chain::CONTRACT], "key_prefix_base64": "YWxpY2U="}),
    )
    .await;
    assert_eq!(
        data["result"]["changes"][0]["type"], "data_update",
        "{data}"
    );
    assert_eq!(
        data["result"]["changes"][0]["change"]["key_base64"],
        "YWxpY2UubW9jaw=="
    );
    assert_eq!(
        data["result"]["changes"][0]["change"]["value_base64"],
        "Y2hhbmdlZA=="
    );
    // A block without changes has none.
    let quiet = ask(
        &node,
        "EXPERIMENTAL_changes_in_block",
        json!({"block_id": chain::GENESIS_HEIGHT}),
    )
    .await;
    assert_eq!(quiet["result"]["changes"], json!([]));
}
