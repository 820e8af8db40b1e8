//! Receipts executed: a receipt's actions applied all or nothing (nearcore's
//! `ActionError` when one fails), function calls run on the Rust contracts, delegate
//! actions checked and forwarded, refunds of unused gas and failed deposits; and view
//! calls, which run a contract method without changing the chain.

use near_account_id::{AccountIdRef, AccountType};
use near_rpc::tx::{AccessKeyPermission, Action};
use near_rpc::PublicKey;
use serde_json::{json, Value};

use super::{account_type, gas_of, near_implicit_key, receipt_deposits, storage_shortfall};
use crate::chain::{
    hash, yocto, Account, Chain, DueReceipt, GasKey, Key, Outcome, Permission,
    NONCE_RANGE_MULTIPLIER, SYSTEM,
};
use crate::contract::Call;
use crate::fees::{self, action_fee, ACTION_RECEIPT};

impl Chain {
    /// A new receipt of `parent`'s transaction, due at the next block.
    fn child(&self, parent: &DueReceipt, height: u64, n: usize) -> DueReceipt {
        let tx = self.transaction(&parent.tx);
        let index = tx.map_or(0, |t| t.receipts.len()) + n;
        DueReceipt {
            id: tx.map_or_else(|| hash("orphan receipt"), |t| t.receipt_id(index)),
            tx: parent.tx,
            at: height + 1,
            predecessor: parent.receiver.clone(),
            receiver: String::new(),
            signer: parent.signer.clone(),
            signer_key: parent.signer_key.clone(),
            gas_price: parent.gas_price,
            actions: Vec::new(),
        }
    }

    /// A refund of `amount` to `receiver`, from the system.
    /// `key`: for a refund of gas, the key that paid for it (a function-call key gets
    /// its allowance back, as nearcore refunds it); none for a refund of deposits.
    fn refund(
        &self,
        parent: &DueReceipt,
        height: u64,
        n: usize,
        (receiver, amount, key): (&str, u128, Option<&PublicKey>),
    ) -> DueReceipt {
        DueReceipt {
            predecessor: SYSTEM.into(),
            receiver: receiver.into(),
            signer: SYSTEM.into(),
            signer_key: key.cloned().unwrap_or_else(|| PublicKey::ed25519([0; 32])),
            gas_price: 0,
            actions: vec![Action::transfer(near_rpc::NearToken::from_yoctonear(
                amount,
            ))],
            ..self.child(parent, height, n)
        }
    }

    /// Executes a receipt in the block at `height`: its actions all or nothing, then
    /// refunds of unused gas (to the signer) and, if it failed, of its deposits (to the
    /// predecessor).
    pub(super) fn execute(&mut self, receipt: DueReceipt, height: u64) {
        if receipt.is_refund() {
            let amount = receipt_deposits(&receipt);
            let status = match self.account_mut(&receipt.receiver) {
                Some(account) => {
                    let payer = account
                        .keys
                        .iter_mut()
                        .find(|k| k.public_key == receipt.signer_key);
                    match payer {
                        // A refund of gas to a gas key goes back to its balance, not
                        // the account's (nearcore's `try_refund_gas_key_balance`).
                        Some(Key {
                            gas_key: Some(gas), ..
                        }) => gas.balance = gas.balance.saturating_add(amount),
                        // A refund of gas restores the allowance of the key that paid.
                        Some(Key {
                            permission:
                                Permission::FunctionCall {
                                    allowance: Some(allowance),
                                    ..
                                },
                            ..
                        }) => {
                            *allowance = allowance.saturating_add(amount);
                            account.amount = account.amount.saturating_add(amount);
                        }
                        _ => account.amount = account.amount.saturating_add(amount),
                    }
                    json!({"SuccessValue": ""})
                }
                None => action_failure(
                    Some(0),
                    json!({"AccountDoesNotExist": {"account_id": receipt.receiver}}),
                ),
            };
            self.record(
                receipt.tx,
                Outcome {
                    id: receipt.id,
                    height,
                    executor: receipt.receiver.clone(),
                    status,
                    receipt_ids: Vec::new(),
                    gas_burnt: 0,
                    tokens_burnt: 0,
                    logs: Vec::new(),
                },
            );
            return;
        }
        let sir = receipt.signer == receipt.receiver;
        let (_, prepaid) = gas_of(&receipt.actions, sir);
        let exec_fees = receipt
            .actions
            .iter()
            .fold(ACTION_RECEIPT.execution, |gas, a| {
                gas.saturating_add(action_fee(a).0.execution)
            });
        let snapshot = self.accounts.clone();
        let mut run = Run {
            gas_burnt: exec_fees,
            logs: Vec::new(),
            value: Vec::new(),
            children: Vec::new(),
            payouts: Vec::new(),
            forwarded: 0,
            balance_burnt: 0,
            actor: receipt.predecessor.clone(),
        };
        let mut result = Ok(());
        for (index, action) in receipt.actions.iter().enumerate() {
            if let Err(kind) = self.apply(&receipt, action, height, &mut run) {
                result = Err(action_failure(Some(index as u64), kind));
                break;
            }
        }
        if result.is_ok() {
            if let Some(lacking) = self.account(&receipt.receiver).and_then(storage_shortfall) {
                result = Err(action_failure(
                    None,
                    json!({"LackBalanceForState": {
                        "account_id": receipt.receiver,
                        "amount": yocto(lacking)
                    }}),
                ));
            }
        }
        let mut children = Vec::new();
        let mut refunds: Vec<(String, u128)> = Vec::new();
        let status = match result {
            Ok(()) => {
                children = std::mem::take(&mut run.children);
                refunds = std::mem::take(&mut run.payouts);
                json!({"SuccessValue": crate::chain::b64(&run.value)})
            }
            Err(failure) => {
                self.accounts = snapshot;
                run.balance_burnt = 0;
                failure
            }
        };
        let failed = status.get("Failure").is_some();
        // Children first take their ids, then the refunds.
        let mut made: Vec<DueReceipt> = Vec::new();
        for (n, (receiver, actions)) in children.into_iter().enumerate() {
            made.push(DueReceipt {
                receiver,
                actions,
                ..self.child(&receipt, height, n)
            });
        }
        let deposits = receipt_deposits(&receipt);
        // What was prepaid and neither burnt nor handed to a receipt made here (a
        // delegate action's) comes back.
        let unused = prepaid
            .saturating_sub(run.gas_burnt)
            .saturating_sub(run.forwarded);
        // Within what the receipt prepaid at its price, which fits in a balance (checked
        // at load for a saved chain's receipts; the runtime's are at `GAS_PRICE`).
        let gas_refund = u128::from(unused).saturating_mul(receipt.gas_price);
        if failed && deposits > 0 {
            refunds.push((receipt.predecessor.clone(), deposits));
        }
        for (to, amount) in refunds {
            let n = made.len();
            made.push(self.refund(&receipt, height, n, (&to, amount, None)));
        }
        if gas_refund > 0 {
            let n = made.len();
            let key = receipt.signer_key.clone();
            made.push(self.refund(
                &receipt,
                height,
                n,
                (&receipt.signer, gas_refund, Some(&key)),
            ));
        }
        self.record(
            receipt.tx,
            Outcome {
                id: receipt.id,
                height,
                executor: receipt.receiver.clone(),
                status,
                receipt_ids: made.iter().map(|r| r.id).collect(),
                gas_burnt: run.gas_burnt,
                tokens_burnt: u128::from(run.gas_burnt)
                    .saturating_mul(receipt.gas_price)
                    .saturating_add(run.balance_burnt),
                logs: run.logs,
            },
        );
        for child in made {
            // Children are due at the next block: none comes back.
            let _ = self.schedule(child, height);
        }
    }

    /// One action of a receipt; the `ActionErrorKind` if it fails.
    fn apply(
        &mut self,
        receipt: &DueReceipt,
        action: &Action,
        height: u64,
        run: &mut Run,
    ) -> Result<(), Value> {
        let receiver = receipt.receiver.as_str();
        let exists = self.account(receiver).is_some();
        let not_found = || json!({"AccountDoesNotExist": {"account_id": receiver}});
        let needs_actor = matches!(
            action,
            Action::DeployContract { .. }
                | Action::Stake { .. }
                | Action::AddKey { .. }
                | Action::DeleteKey { .. }
                | Action::DeleteAccount { .. }
                | Action::WithdrawFromGasKey { .. }
        );
        if needs_actor && exists && run.actor != receiver {
            return Err(json!({"ActorNoPermission": {
                "account_id": receiver,
                "actor_id": run.actor
            }}));
        }
        match action {
            Action::CreateAccount => {
                if exists {
                    return Err(json!({"AccountAlreadyExists": {"account_id": receiver}}));
                }
                let predecessor = receipt.predecessor.as_str();
                if account_type(receiver).is_implicit() {
                    return Err(json!({"OnlyImplicitAccountCreationAllowed": {
                        "account_id": receiver
                    }}));
                }
                // A top-level name is the registrar's when short; a sub-account is its
                // direct parent's to create (nearcore's `action_create_account`).
                // Receivers were checked as account ids when their transaction came in.
                let id = AccountIdRef::new(receiver).ok();
                let parent = AccountIdRef::new(predecessor).ok();
                if id.is_some_and(AccountIdRef::is_top_level) {
                    if receiver.len() < fees::MIN_TOP_LEVEL_ACCOUNT_LENGTH
                        && predecessor != fees::REGISTRAR
                    {
                        return Err(json!({"CreateAccountOnlyByRegistrar": {
                            "account_id": receiver,
                            "registrar_account_id": fees::REGISTRAR,
                            "predecessor_id": predecessor
                        }}));
                    }
                } else if !id
                    .zip(parent)
                    .is_some_and(|(id, parent)| id.is_sub_account_of(parent))
                {
                    return Err(json!({"CreateAccountNotAllowed": {
                        "account_id": receiver,
                        "predecessor_id": predecessor
                    }}));
                }
                self.accounts.push(Account {
                    id: receiver.to_owned(),
                    amount: 0,
                    locked: 0,
                    keys: Vec::new(),
                    code: None,
                    state: Default::default(),
                });
                // nearcore: what follows acts as the new account.
                run.actor = receiver.to_owned();
                Ok(())
            }
            Action::Transfer { deposit } => {
                let amount = deposit.as_yoctonear();
                if let Some(account) = self.account_mut(receiver) {
                    account.amount = account.amount.saturating_add(amount);
                    return Ok(());
                }
                // A transfer creates the implicit account it is sent to.
                let keys = match near_implicit_key(receiver) {
                    Some(key) => vec![Key::full_access(
                        key,
                        (height - 1).saturating_mul(NONCE_RANGE_MULTIPLIER),
                    )],
                    None if account_type(receiver) == AccountType::EthImplicitAccount => Vec::new(),
                    None => return Err(not_found()),
                };
                self.accounts.push(Account {
                    id: receiver.to_owned(),
                    amount,
                    locked: 0,
                    keys,
                    code: None,
                    state: Default::default(),
                });
                Ok(())
            }
            Action::FunctionCall(call) => self.call(receipt, call, run),
            _ if !exists => Err(not_found()),
            Action::DeployContract { code } => {
                if let Some(account) = self.account_mut(receiver) {
                    account.code = Some(code.clone());
                }
                Ok(())
            }
            Action::Stake { stake, .. } => {
                let Some(account) = self.account_mut(receiver) else {
                    return Err(not_found());
                };
                let stake = stake.as_yoctonear();
                if stake == 0 && account.locked == 0 {
                    return Err(json!({"TriesToUnstake": {"account_id": receiver}}));
                }
                // Held and staked together (a patched state may hold near u128::MAX).
                let holdings = account.amount.saturating_add(account.locked);
                if stake > holdings {
                    return Err(json!({"TriesToStake": {
                        "account_id": receiver,
                        "stake": yocto(stake),
                        "locked": yocto(account.locked),
                        "balance": yocto(account.amount)
                    }}));
                }
                account.amount = holdings - stake;
                account.locked = stake;
                Ok(())
            }
            Action::AddKey {
                public_key,
                access_key,
            } => {
                let Some(account) = self.account_mut(receiver) else {
                    return Err(not_found());
                };
                if account.key(public_key).is_some() {
                    return Err(json!({"AddKeyAlreadyExists": {
                        "account_id": receiver,
                        "public_key": public_key.to_string()
                    }}));
                }
                let function_call =
                    |p: &near_rpc::tx::FunctionCallPermission| Permission::FunctionCall {
                        receiver: p.receiver_id.clone(),
                        methods: p.method_names.clone(),
                        allowance: p.allowance.map(|a| a.as_yoctonear()),
                    };
                // nearcore starts a new key's nonce from the height; a gas key's every
                // index, its own nonce staying 0 (`access_keys.rs`, `add_gas_key`).
                let nonce = (height - 1).saturating_mul(NONCE_RANGE_MULTIPLIER);
                let key = match &access_key.permission {
                    AccessKeyPermission::FunctionCall(p) => Key {
                        public_key: public_key.clone(),
                        nonce,
                        permission: function_call(p),
                        gas_key: None,
                    },
                    AccessKeyPermission::GasKeyFunctionCall(info, p) => {
                        Key::gas_key(public_key.clone(), function_call(p), info.num_nonces, nonce)
                    }
                    AccessKeyPermission::GasKeyFullAccess(info) => Key::gas_key(
                        public_key.clone(),
                        Permission::FullAccess,
                        info.num_nonces,
                        nonce,
                    ),
                    _ => Key::full_access(public_key.clone(), nonce),
                };
                account.keys.push(key);
                Ok(())
            }
            Action::DeleteKey { public_key } => {
                let Some(account) = self.account_mut(receiver) else {
                    return Err(not_found());
                };
                let Some(at) = account
                    .keys
                    .iter()
                    .position(|k| &k.public_key == public_key)
                else {
                    return Err(json!({"DeleteKeyDoesNotExist": {
                        "account_id": receiver,
                        "public_key": public_key.to_string()
                    }}));
                };
                // A gas key's balance is burnt with it, up to a limit past which the key
                // must be emptied first (`WithdrawFromGasKey`): nearcore's
                // `delete_gas_key`, `GasKeyInfo::MAX_BALANCE_TO_BURN`.
                let burnt = account.keys[at].gas_key.as_ref().map_or(0, |g| g.balance);
                if burnt > fees::MAX_GAS_KEY_BALANCE_TO_BURN {
                    return Err(json!({"GasKeyBalanceTooHigh": {
                        "account_id": receiver,
                        "public_key": public_key.to_string(),
                        "balance": yocto(burnt)
                    }}));
                }
                account.keys.remove(at);
                run.balance_burnt = run.balance_burnt.saturating_add(burnt);
                Ok(())
            }
            Action::DeleteAccount { beneficiary_id } => {
                let Some(account) = self.account(receiver) else {
                    return Err(not_found());
                };
                if account.locked > 0 {
                    return Err(json!({"DeleteAccountStaking": {"account_id": receiver}}));
                }
                // Its gas keys' balances are burnt, within the same limit, all together
                // (nearcore's `action_delete_account`).
                let burnt = account
                    .keys
                    .iter()
                    .filter_map(|k| k.gas_key.as_ref())
                    .fold(0u128, |sum, g| sum.saturating_add(g.balance));
                if burnt > fees::MAX_GAS_KEY_BALANCE_TO_BURN {
                    return Err(json!({"GasKeyBalanceTooHigh": {
                        "account_id": receiver,
                        "public_key": null,
                        "balance": yocto(burnt)
                    }}));
                }
                run.balance_burnt = run.balance_burnt.saturating_add(burnt);
                let amount = account.amount;
                self.accounts.retain(|a| a.id != receiver);
                // nearcore sends the balance as a refund: from the system, free of gas.
                if amount > 0 {
                    run.payouts.push((beneficiary_id.to_string(), amount));
                }
                Ok(())
            }
            Action::Delegate(signed) => self.delegate(receipt, signed, height, run),
            Action::TransferToGasKey {
                public_key,
                deposit,
            } => {
                let gas = self.gas_key_mut(receiver, public_key)?;
                gas.balance = gas.balance.saturating_add(deposit.as_yoctonear());
                Ok(())
            }
            Action::WithdrawFromGasKey { public_key, amount } => {
                let amount = amount.as_yoctonear();
                let gas = self.gas_key_mut(receiver, public_key)?;
                let Some(left) = gas.balance.checked_sub(amount) else {
                    return Err(json!({"InsufficientGasKeyBalance": {
                        "account_id": receiver,
                        "public_key": public_key.to_string(),
                        "balance": yocto(gas.balance),
                        "required": yocto(amount)
                    }}));
                };
                gas.balance = left;
                if let Some(account) = self.account_mut(receiver) {
                    account.amount = account.amount.saturating_add(amount);
                }
                Ok(())
            }
            other => Err(json!({"UnsupportedAction": {"action": other.name()}})),
        }
    }

    /// The gas key `public_key` of `account_id`; nearcore's `GasKeyDoesNotExist` when
    /// the account has no such key or it is no gas key (`access_keys.rs`).
    fn gas_key_mut(
        &mut self,
        account_id: &str,
        public_key: &PublicKey,
    ) -> Result<&mut GasKey, Value> {
        self.account_mut(account_id)
            .and_then(|a| a.keys.iter_mut().find(|k| &k.public_key == public_key))
            .and_then(|k| k.gas_key.as_mut())
            .ok_or_else(|| {
                json!({"GasKeyDoesNotExist": {
                    "account_id": account_id,
                    "public_key": public_key.to_string()
                }})
            })
    }

    /// A function call: the deposit reaches the receiver, then its contract's method runs.
    fn call(
        &mut self,
        receipt: &DueReceipt,
        call: &near_rpc::tx::FunctionCall,
        run: &mut Run,
    ) -> Result<(), Value> {
        let receiver = receipt.receiver.as_str();
        let Some(account) = self.account(receiver) else {
            return Err(json!({"AccountDoesNotExist": {"account_id": receiver}}));
        };
        if account.code.is_none() {
            return Err(function_call_error(json!({"CompilationError": {
                "CodeDoesNotExist": {"account_id": receiver}
            }})));
        }
        let method = self
            .contract_of(account)
            .and_then(|c| c.get(&call.method_name))
            .ok_or_else(|| function_call_error(json!({"MethodResolveError": "MethodNotFound"})))?;
        let attached = call.gas.as_gas();
        let Some(account) = self.account_mut(receiver) else {
            return Err(json!({"AccountDoesNotExist": {"account_id": receiver}}));
        };
        account.amount = account.amount.saturating_add(call.deposit.as_yoctonear());
        let mut state = account.state.clone();
        let mut context = Call {
            contract: receiver,
            signer: &receipt.signer,
            predecessor: &receipt.predecessor,
            deposit: call.deposit.as_yoctonear(),
            args: &call.args,
            view: false,
            state: &mut state,
            logs: Vec::new(),
            wrote_in_view: false,
            bytes_written: 0,
        };
        let returned = run_method(&method, &mut context);
        let used = fees::CALL_BASE_GAS.saturating_add(
            fees::CALL_GAS_PER_BYTE.saturating_mul(call.args.len() as u64 + context.bytes_written),
        );
        run.logs.append(&mut context.logs);
        if used > attached {
            run.gas_burnt = run.gas_burnt.saturating_add(attached);
            return Err(function_call_error(json!({"HostError": "GasExceeded"})));
        }
        run.gas_burnt = run.gas_burnt.saturating_add(used);
        match returned {
            Ok(value) => {
                account.state = state;
                run.value = value;
                Ok(())
            }
            Err(message) => Err(function_call_error(json!({
                "ExecutionError": format!("Smart contract panicked: {message}")
            }))),
        }
    }

    /// A delegate action (NEP-366): the sender's signature, key and nonce checked, then
    /// its actions sent as a receipt from the sender, due at the next block.
    fn delegate(
        &mut self,
        receipt: &DueReceipt,
        signed: &near_rpc::tx::SignedDelegateAction,
        height: u64,
        run: &mut Run,
    ) -> Result<(), Value> {
        let action = &signed.delegate_action;
        if !signed.verify() {
            return Err(json!("DelegateActionInvalidSignature"));
        }
        if height > action.max_block_height {
            return Err(json!("DelegateActionExpired"));
        }
        if action.sender_id.as_str() != receipt.receiver {
            return Err(json!({"DelegateActionSenderDoesNotMatchTxReceiver": {
                "sender_id": action.sender_id.to_string(),
                "receiver_id": receipt.receiver
            }}));
        }
        let sender = action.sender_id.to_string();
        let Some(account) = self.account_mut(&sender) else {
            return Err(json!({"AccountDoesNotExist": {"account_id": sender}}));
        };
        let Some(key) = account
            .keys
            .iter_mut()
            .find(|k| k.public_key == action.public_key)
        else {
            return Err(
                json!({"DelegateActionAccessKeyError": {"AccessKeyNotFound": {
                    "account_id": sender,
                    "public_key": action.public_key.to_string()
                }}}),
            );
        };
        // A delegate action's plain nonce is an access key's: a gas key, whose nonces
        // are per index, cannot sign one (nearcore's `validate_delegate_action_key`,
        // `runtime/runtime/src/actions.rs`).
        if key.gas_key.is_some() {
            return Err(json!({"DelegateActionAccessKeyError": "DelegateActionRequiresNonGasKey"}));
        }
        if action.nonce <= key.nonce {
            return Err(json!({"DelegateActionInvalidNonce": {
                "delegate_nonce": action.nonce,
                "ak_nonce": key.nonce
            }}));
        }
        let upper_bound = height.saturating_mul(NONCE_RANGE_MULTIPLIER);
        if action.nonce >= upper_bound {
            return Err(json!({"DelegateActionNonceTooLarge": {
                "delegate_nonce": action.nonce,
                "upper_bound": upper_bound
            }}));
        }
        if let Permission::FunctionCall {
            receiver, methods, ..
        } = &key.permission
        {
            let calls_only = action.actions.len() == 1
                && matches!(action.actions[0].action(), Action::FunctionCall(call)
                    if call.deposit.as_yoctonear() == 0
                        && *receiver == action.receiver_id.as_str()
                        && (methods.is_empty() || methods.contains(&call.method_name)));
            if !calls_only {
                return Err(json!({"DelegateActionAccessKeyError": "RequiresFullAccess"}));
            }
        }
        key.nonce = action.nonce;
        let actions: Vec<Action> = action.actions.iter().map(|a| a.action().clone()).collect();
        // The receipt made here executes on what the relayer prepaid for it.
        let sir = receipt.signer == action.receiver_id.as_str();
        run.forwarded = run.forwarded.saturating_add(gas_of(&actions, sir).1);
        run.children.push((action.receiver_id.to_string(), actions));
        Ok(())
    }

    /// A view call of `method` on `account`'s contract: `Ok((result, logs))`, or the
    /// error as nodes word it and as nearcore's `FunctionCallError`.
    pub fn view_call(
        &self,
        account: &Account,
        method: &str,
        args: &[u8],
    ) -> Result<(Vec<u8>, Vec<String>), (String, Value)> {
        let not_found = || {
            (
                format!("wasm execution failed with error: MethodResolveError(MethodNotFound) for `{method}`"),
                json!({"MethodResolveError": "MethodNotFound"}),
            )
        };
        let method_fn = self
            .contract_of(account)
            .and_then(|c| c.get(method))
            .ok_or_else(not_found)?;
        let mut state = account.state.clone();
        let mut context = Call {
            contract: &account.id,
            signer: &account.id,
            predecessor: &account.id,
            deposit: 0,
            args,
            view: true,
            state: &mut state,
            logs: Vec::new(),
            wrote_in_view: false,
            bytes_written: 0,
        };
        let returned = run_method(&method_fn, &mut context);
        if context.wrote_in_view {
            return Err((
                "wasm execution failed with error: HostError(ProhibitedInView { method_name: \"storage_write\" })".into(),
                json!({"HostError": {"ProhibitedInView": {"method_name": "storage_write"}}}),
            ));
        }
        match returned {
            Ok(value) => Ok((value, context.logs)),
            Err(message) => Err((
                format!("wasm execution failed with error: ExecutionError(\"Smart contract panicked: {message}\")"),
                json!({"ExecutionError": format!("Smart contract panicked: {message}")}),
            )),
        }
    }
}

/// What one receipt's execution has done so far.
struct Run {
    gas_burnt: u64,
    logs: Vec<String>,
    value: Vec<u8>,
    /// Receipts to create on success: receiver and actions.
    children: Vec<(String, Vec<Action>)>,
    /// Balances to send on success, as refunds: receiver and amount.
    payouts: Vec<(String, u128)>,
    /// Prepaid gas handed to a receipt made here (a delegate action's), not refunded.
    forwarded: u64,
    /// Balances burnt on success: deleted gas keys'.
    balance_burnt: u128,
    /// Whom the account-changing actions act as (the predecessor, or a new account).
    actor: String,
}

/// Runs a contract method; a Rust panic in it is the contract's panic (its message),
/// never the node's: the chain is left as it was before the call.
fn run_method(
    method: &crate::contract::Method,
    call: &mut Call<'_>,
) -> crate::contract::MethodResult {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| method(call))).unwrap_or_else(
        |payload| {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "the method panicked".to_owned());
            Err(message)
        },
    )
}

fn action_failure(index: Option<u64>, kind: Value) -> Value {
    json!({"Failure": {"ActionError": {"index": index, "kind": kind}}})
}

fn function_call_error(error: Value) -> Value {
    json!({ "FunctionCallError": error })
}
