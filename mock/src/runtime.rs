//! The mock's runtime: transactions checked, charged and executed as nearcore's
//! runtime does it, block by block.
//!
//! - **Submission** ([`Chain::submit`]) checks a signed transaction against the state at
//!   the head, as a node's pool does, in nearcore's order: signature, actions, block
//!   hash, signer, access key, nonce, balance, the key's allowance, storage staking (the
//!   balance left and the locked stake together; a refusal names what is missing), then
//!   a function-call key's permission. A refusal is nearcore's `InvalidTxError`.
//! - **Blocks** ([`Chain::advance`]): each block takes the submitted transactions in
//!   nonce order per key, checks each again and charges it (the signer's balance, the
//!   key's nonce and allowance; one that no longer passes is dropped, as nodes drop
//!   it), records its outcome (its send fees); once every transaction is in, it
//!   executes the receipts due at its height: those to their own signer from this
//!   block's transactions, then those made in the block before. A receipt's actions
//!   apply all or nothing (storage staking checked after them, as at submission); its
//!   failure is nearcore's `ActionError`; a Rust panic in a contract is the contract's
//!   panic. Unused gas (back into a function-call key's allowance too) and failed
//!   deposits come back in refund receipts a block later; a delegate action's inner
//!   receipt runs on the gas its relayer prepaid.
//!
//! Balances are credited with saturating additions that never saturate: every credit
//! comes out of what the chain holds (the accounts' balances and what due receipts
//! carry), which fits in `u128` (a saved chain and a `sandbox_patch_state` that would
//! break that are refused). Gas sums stop at `u64::MAX` rather than wrap (a
//! transaction's prepaid gas is capped far below it).
//!
//! Action fees are `fees.rs`'s, the ones the protocol config shows. A contract method
//! is metered otherwise: [`fees::CALL_BASE_GAS`] plus [`fees::CALL_GAS_PER_BYTE`] per
//! byte of arguments and of state written, numbers the config does not show (its
//! `wasm_config` costs are shown, never charged).
//!
//! Not executed: promises (a contract calls no other contract), global contracts,
//! deterministic state init and gas keys (refused at submission with a message that
//! says so), Wasm (contracts are Rust, `contract.rs`). Staking locks and unlocks at once
//! rather than at an epoch's end. Every outcome's `gas_profile` is `null` (the mock
//! runs no Wasm to profile). An ETH-implicit account that a transfer creates gets no
//! wallet contract (nor a key): nothing can sign for it. Views read the current state,
//! whatever block they name.

use near_account_id::{AccountIdRef, AccountType};
use near_rpc::tx::{AccessKeyPermission, Action, SignedTransaction};
use near_rpc::types::SignedTransactionView;
use near_rpc::{CryptoHash, PublicKey};
use serde_json::{json, Value};

use crate::chain::{
    hash, yocto, Account, Chain, DueReceipt, Holding, Key, Level, Outcome, Pending, Permission,
    Transaction, GAS_PRICE, SYSTEM,
};
use crate::contract::Call;
use crate::fees::{self, action_fee, ACTION_RECEIPT, TRANSACTION_VALIDITY_PERIOD};

/// nearcore's bound on nonces: below the height times this.
const NONCE_RANGE_MULTIPLIER: u64 = 1_000_000;
/// The most blocks a request waits for a transaction to reach a level.
pub const MAX_WAIT_BLOCKS: u64 = 16;

/// Why a submission is refused.
#[derive(Debug, Clone, PartialEq)]
pub enum SubmitError {
    /// The bytes are no signed transaction.
    Undecodable(String),
    /// nearcore's `InvalidTxError`, as JSON.
    Invalid(Value),
    /// A transaction with an action the mock does not execute.
    Unsupported(String),
}

fn invalid(error: Value) -> SubmitError {
    SubmitError::Invalid(error)
}

fn access_key_error(error: Value) -> SubmitError {
    invalid(json!({ "InvalidAccessKeyError": error }))
}

/// The deposit an action moves to its receiver (`None`: more than a balance holds).
fn deposit_of(action: &Action) -> Option<u128> {
    match action {
        Action::Transfer { deposit } => Some(deposit.as_yoctonear()),
        Action::FunctionCall(call) => Some(call.deposit.as_yoctonear()),
        Action::Delegate(signed) => {
            deposits(signed.delegate_action.actions.iter().map(|a| a.action()))
        }
        _ => Some(0),
    }
}

/// The deposits of `actions` together (`None`: more than a balance holds).
fn deposits<'a>(actions: impl IntoIterator<Item = &'a Action>) -> Option<u128> {
    actions
        .into_iter()
        .try_fold(0u128, |sum, action| sum.checked_add(deposit_of(action)?))
}

/// The deposits of a receipt the runtime executes: a transaction's were checked when it
/// was charged (`CostOverflow`), a saved chain's when it was loaded
/// ([`Chain::holdings`]), so the sum fits; it would stop at `u128::MAX`, never wrap.
fn receipt_deposits(receipt: &DueReceipt) -> u128 {
    deposits(&receipt.actions).unwrap_or(u128::MAX)
}

/// What executing `receipt` can still credit to accounts: its deposits (to its
/// receiver, or back to its predecessor when it fails) and, unless it is a refund, the
/// gas it prepaid at its gas price (the most its gas refund can be). `None` past
/// `u128::MAX`.
fn in_flight(receipt: &DueReceipt) -> Option<u128> {
    let deposits = deposits(&receipt.actions)?;
    if receipt.is_refund() {
        return Some(deposits);
    }
    let (_, prepaid) = gas_of(&receipt.actions, receipt.signer == receipt.receiver);
    u128::from(prepaid)
        .checked_mul(receipt.gas_price)?
        .checked_add(deposits)
}

// Products the runtime makes of a gas amount and the gas price, and of storage bytes
// and their price: they fit in a balance whatever the amount, so they need no check.
const _: () = assert!((u64::MAX as u128).checked_mul(GAS_PRICE).is_some());
const _: () = assert!((u64::MAX as u128)
    .checked_mul(fees::STORAGE_AMOUNT_PER_BYTE)
    .is_some());

/// The send and execution gas of `actions` (execution includes the gas attached to
/// calls), sent by a signer that is (`sir`) or is not the receiver.
fn gas_of(actions: &[Action], sir: bool) -> (u64, u64) {
    actions.iter().fold(
        (ACTION_RECEIPT.send(sir), ACTION_RECEIPT.execution),
        |(send, exec), action| {
            let (fee, attached) = action_fee(action);
            (
                send.saturating_add(fee.send(sir)),
                exec.saturating_add(fee.execution).saturating_add(attached),
            )
        },
    )
}

/// nearcore's checks of the actions alone (`ActionsValidationError`).
fn validate_actions(actions: &[Action]) -> Result<(), SubmitError> {
    let validation = |error: Value| invalid(json!({ "ActionsValidation": error }));
    if actions.len() > fees::MAX_ACTIONS_PER_RECEIPT {
        return Err(validation(json!({"TotalNumberOfActionsExceeded": {
            "total_number_of_actions": actions.len(),
            "limit": fees::MAX_ACTIONS_PER_RECEIPT
        }})));
    }
    let mut prepaid: u64 = 0;
    for (i, action) in actions.iter().enumerate() {
        match action {
            Action::DeleteAccount { .. } if i + 1 != actions.len() => {
                return Err(validation(json!("DeleteActionMustBeFinal")));
            }
            Action::FunctionCall(call) if call.gas.as_gas() == 0 => {
                return Err(validation(json!("FunctionCallZeroAttachedGas")));
            }
            Action::AddKey { access_key, .. }
                if matches!(
                    access_key.permission,
                    AccessKeyPermission::GasKeyFunctionCall(..)
                        | AccessKeyPermission::GasKeyFullAccess(..)
                ) =>
            {
                return Err(SubmitError::Unsupported(format!(
                    "the mock node does not execute gas keys (action {i} adds one)"
                )));
            }
            Action::DeployGlobalContract { .. }
            | Action::UseGlobalContract { .. }
            | Action::DeterministicStateInit { .. }
            | Action::TransferToGasKey { .. }
            | Action::WithdrawFromGasKey { .. } => {
                return Err(SubmitError::Unsupported(format!(
                    "the mock node does not execute {} actions (action {i})",
                    action.name()
                )));
            }
            _ => {}
        }
        prepaid = prepaid.saturating_add(action_fee(action).1);
    }
    if prepaid > fees::MAX_TOTAL_PREPAID_GAS {
        return Err(validation(json!({"TotalPrepaidGasExceeded": {
            "total_prepaid_gas": prepaid,
            "limit": fees::MAX_TOTAL_PREPAID_GAS
        }})));
    }
    Ok(())
}

/// The kind of account `id` names, by near-account-id's rules (nearcore's).
fn account_type(id: &str) -> AccountType {
    AccountIdRef::new(id).map_or(AccountType::NamedAccount, AccountIdRef::get_account_type)
}

/// The ed25519 key a NEAR-implicit account's id spells (64 hex digits).
fn near_implicit_key(id: &str) -> Option<PublicKey> {
    if account_type(id) != AccountType::NearImplicitAccount {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&id[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(PublicKey::ed25519(key))
}

/// nearcore's storage staking check (`check_storage_stake`): what `account` lacks to
/// cover its storage, its balance and its locked stake counted together; `None` when
/// they cover it (always for an account within the zero-balance limit, whose storage
/// costs nothing).
fn storage_shortfall(account: &Account) -> Option<u128> {
    let required = account.storage_cost();
    let available = account.amount.saturating_add(account.locked);
    required
        .checked_sub(available)
        .filter(|lacking| *lacking > 0)
}

impl Chain {
    /// Every yoctoNEAR the chain holds: the accounts' balances (`amount` and `locked`)
    /// and what its due receipts can still credit. Every credit the runtime makes
    /// comes out of this total (a transaction's deposits and prepaid gas leave its
    /// signer's balance before its receipt carries them; burnt gas leaves for good), so
    /// while it fits in `u128` no balance can overflow: a saved chain is refused at load
    /// and a `sandbox_patch_state` when it would not. `Err`: where the sum first passes
    /// `u128::MAX`.
    pub(crate) fn holdings(&self) -> Result<u128, Holding> {
        let mut total = 0u128;
        for (i, account) in self.accounts.iter().enumerate() {
            total = total
                .checked_add(account.amount)
                .ok_or(Holding::Amount(i))?
                .checked_add(account.locked)
                .ok_or(Holding::Locked(i))?;
        }
        for (i, receipt) in self.due.iter().enumerate() {
            total = in_flight(receipt)
                .and_then(|credit| total.checked_add(credit))
                .ok_or(Holding::Due(i))?;
        }
        Ok(total)
    }

    /// Checks a signed transaction (borsh bytes) and queues it for the next block;
    /// returns its hash. Bytes already submitted are the same transaction: their hash
    /// again, nothing queued twice.
    pub fn submit(&mut self, signed_tx: &[u8]) -> Result<CryptoHash, SubmitError> {
        let signed = SignedTransaction::from_borsh(signed_tx)
            .map_err(|e| SubmitError::Undecodable(e.to_string()))?;
        let hash = signed.hash();
        if self.transaction(&hash).is_some() {
            return Ok(hash);
        }
        self.charge(&signed, false)?;
        let tx = signed.transaction();
        self.transactions.push(Transaction {
            hash,
            signer: tx.signer_id().to_string(),
            receiver: tx.receiver_id().to_string(),
            signed_view: serde_json::to_value(SignedTransactionView::from(&signed))
                .unwrap_or(Value::Null),
            outcomes: Vec::new(),
            receipts: Vec::new(),
        });
        self.mempool.push(Pending { tx: hash, signed });
        Ok(hash)
    }

    /// nearcore's `verify_and_charge_transaction`: every check first, then, if `apply`,
    /// the signer's balance, nonce and allowance change. Returns the send gas burnt.
    fn charge(&mut self, signed: &SignedTransaction, apply: bool) -> Result<u64, SubmitError> {
        let tx = signed.transaction();
        if !signed.verify() {
            return Err(invalid(json!("InvalidSignature")));
        }
        validate_actions(tx.actions())?;
        let head = self.head;
        match self.height_of(tx.block_hash()) {
            Some(base) if head <= base + TRANSACTION_VALIDITY_PERIOD => {}
            _ => return Err(invalid(json!("Expired"))),
        }
        let signer_id = tx.signer_id().to_string();
        let receiver_id = tx.receiver_id().to_string();
        let Some(account) = self.account(&signer_id) else {
            return Err(invalid(
                json!({"SignerDoesNotExist": {"signer_id": signer_id}}),
            ));
        };
        let Some(key) = account.key(tx.public_key()) else {
            return Err(access_key_error(json!({"AccessKeyNotFound": {
                "account_id": signer_id,
                "public_key": tx.public_key().to_string()
            }})));
        };
        if tx.nonce() <= key.nonce {
            return Err(invalid(json!({"InvalidNonce": {
                "tx_nonce": tx.nonce(),
                "ak_nonce": key.nonce
            }})));
        }
        // Heights count blocks: far below where these products would overflow.
        let upper_bound = (head + 1).saturating_mul(NONCE_RANGE_MULTIPLIER);
        if tx.nonce() >= upper_bound {
            return Err(invalid(json!({"NonceTooLarge": {
                "tx_nonce": tx.nonce(),
                "upper_bound": upper_bound
            }})));
        }
        let (send_gas, exec_gas) = gas_of(tx.actions(), signer_id == receiver_id);
        let gas_cost = u128::from(send_gas.saturating_add(exec_gas)) * GAS_PRICE;
        // Deposits past what a balance can hold are nearcore's `CostOverflow`.
        let deposits = deposits(tx.actions()).ok_or_else(|| invalid(json!("CostOverflow")))?;
        let total = gas_cost
            .checked_add(deposits)
            .ok_or_else(|| invalid(json!("CostOverflow")))?;
        // nearcore's order (`verify_and_charge_transaction`): the balance, then the
        // allowance, then storage staking, and only then the key's permission.
        if account.amount < total {
            return Err(invalid(json!({"NotEnoughBalance": {
                "signer_id": signer_id,
                "balance": yocto(account.amount),
                "cost": yocto(total)
            }})));
        }
        // nearcore takes the whole cost, deposits included, from the allowance (a
        // function-call key's deposits are refused below, after this check).
        let mut allowance_left = None;
        if let Permission::FunctionCall {
            allowance: Some(allowance),
            ..
        } = &key.permission
        {
            if *allowance < total {
                return Err(access_key_error(json!({"NotEnoughAllowance": {
                    "account_id": signer_id,
                    "public_key": tx.public_key().to_string(),
                    "allowance": yocto(*allowance),
                    "cost": yocto(total)
                }})));
            }
            allowance_left = Some(allowance - total);
        }
        let mut after = account.clone();
        after.amount -= total;
        if let Some(lacking) = storage_shortfall(&after) {
            return Err(invalid(json!({"LackBalanceForState": {
                "signer_id": signer_id,
                "amount": yocto(lacking)
            }})));
        }
        if let Permission::FunctionCall {
            receiver, methods, ..
        } = &key.permission
        {
            let [Action::FunctionCall(call)] = tx.actions() else {
                return Err(access_key_error(json!("RequiresFullAccess")));
            };
            if call.deposit.as_yoctonear() > 0 {
                return Err(access_key_error(json!("DepositWithFunctionCall")));
            }
            if *receiver != receiver_id {
                return Err(access_key_error(json!({"ReceiverMismatch": {
                    "tx_receiver": receiver_id,
                    "ak_receiver": receiver
                }})));
            }
            if !methods.is_empty() && !methods.contains(&call.method_name) {
                return Err(access_key_error(json!({"MethodNameMismatch": {
                    "method_name": call.method_name
                }})));
            }
        }
        if !apply {
            return Ok(send_gas);
        }
        let public_key = tx.public_key().clone();
        let nonce = tx.nonce();
        if let Some(key) = after.keys.iter_mut().find(|k| k.public_key == public_key) {
            key.nonce = nonce;
            if let (
                Permission::FunctionCall {
                    allowance: Some(allowance),
                    ..
                },
                Some(left),
            ) = (&mut key.permission, allowance_left)
            {
                *allowance = left;
            }
        }
        if let Some(account) = self.account_mut(&signer_id) {
            *account = after;
        }
        Ok(send_gas)
    }

    /// How many submitted transactions of `signer` with `public_key` wait for a block.
    pub(crate) fn pending_with(&self, public_key: &PublicKey, signer: &str) -> usize {
        self.mempool
            .iter()
            .filter(|p| {
                let tx = p.signed.transaction();
                tx.public_key() == public_key && tx.signer_id().as_str() == signer
            })
            .count()
    }

    /// Produces `n` blocks.
    pub fn advance(&mut self, n: u64) {
        for _ in 0..n {
            self.produce_block();
        }
    }

    /// Produces blocks until the transaction `hash` reaches `level` (at most
    /// [`MAX_WAIT_BLOCKS`]); whether it did.
    pub fn wait_for(&mut self, hash: &CryptoHash, level: Level) -> bool {
        for _ in 0..=MAX_WAIT_BLOCKS {
            match self.transaction(hash) {
                Some(tx) if self.level(tx) >= level => return true,
                Some(_) => self.produce_block(),
                None => return false,
            }
        }
        false
    }

    /// The next block: the submitted transactions in it, then the receipts due.
    fn produce_block(&mut self) {
        let height = self.head + 1;
        self.head = height;
        let mut pool = std::mem::take(&mut self.mempool);
        // A key's transactions in nonce order, as nodes take them from the pool.
        pool.sort_by(|a, b| {
            let (a, b) = (a.signed.transaction(), b.signed.transaction());
            (a.signer_id(), a.public_key().to_string(), a.nonce()).cmp(&(
                b.signer_id(),
                b.public_key().to_string(),
                b.nonce(),
            ))
        });
        // Every transaction first, then the receipts to their own signers (nearcore's
        // local receipts), then those that came from earlier blocks.
        let mut local = Vec::new();
        for pending in pool {
            let before = self.accounts.clone();
            let cause =
                json!({"type": "transaction_processing", "tx_hash": pending.tx.to_string()});
            match self.charge(&pending.signed, true) {
                Ok(send_gas) => {
                    self.note_changes(&before, cause);
                    local.extend(self.include(pending, send_gas, height));
                }
                // No longer valid (its nonce taken, its balance spent): dropped.
                Err(_) => self.transactions.retain(|t| t.hash != pending.tx),
            }
        }
        let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.due)
            .into_iter()
            .partition(|r| r.at <= height);
        self.due = later;
        for receipt in local.into_iter().chain(due) {
            let before = self.accounts.clone();
            let cause =
                json!({"type": "receipt_processing", "receipt_hash": receipt.id.to_string()});
            self.execute(receipt, height);
            self.note_changes(&before, cause);
        }
        self.seal_block(height);
    }

    /// A transaction joins the block at `height`: its outcome, and its receipt, which is
    /// returned when it is to the signer itself (a local receipt, executed in this
    /// block), else due at the next.
    fn include(&mut self, pending: Pending, send_gas: u64, height: u64) -> Option<DueReceipt> {
        let tx = pending.signed.transaction();
        let index = self
            .transactions
            .iter()
            .position(|t| t.hash == pending.tx)?;
        let receipt_id = self.transactions[index].receipt_id(0);
        let sir = tx.signer_id() == tx.receiver_id();
        let receipt = DueReceipt {
            id: receipt_id,
            tx: pending.tx,
            at: if sir { height } else { height + 1 },
            predecessor: tx.signer_id().to_string(),
            receiver: tx.receiver_id().to_string(),
            signer: tx.signer_id().to_string(),
            signer_key: tx.public_key().clone(),
            gas_price: GAS_PRICE,
            actions: tx.actions().to_vec(),
        };
        self.record(
            pending.tx,
            Outcome {
                id: pending.tx,
                height,
                executor: receipt.signer.clone(),
                status: json!({"SuccessReceiptId": receipt_id.to_string()}),
                receipt_ids: vec![receipt_id],
                gas_burnt: send_gas,
                tokens_burnt: u128::from(send_gas) * GAS_PRICE,
                logs: Vec::new(),
            },
        );
        self.schedule(receipt, height)
    }

    /// Records, for the block being produced, how the state differs from `before`, as
    /// nearcore reports it (`EXPERIMENTAL_changes`): accounts, keys, data and code
    /// updated or deleted, with their cause.
    fn note_changes(&mut self, before: &[Account], cause: Value) {
        let mut changes = Vec::new();
        let mut change = |kind: &str, body: Value| {
            changes.push(json!({"cause": cause, "type": kind, "change": body}));
        };
        let find = |accounts: &[Account], id: &str| accounts.iter().position(|a| a.id == id);
        let mut ids: Vec<&str> = before.iter().map(|a| a.id.as_str()).collect();
        ids.extend(self.accounts.iter().map(|a| a.id.as_str()));
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            let old = find(before, id).map(|i| &before[i]);
            let new = find(&self.accounts, id).map(|i| &self.accounts[i]);
            let Some(new) = new else {
                if let Some(old) = old {
                    change("account_deletion", json!({"account_id": id}));
                    for key in &old.keys {
                        let key = key.public_key.to_string();
                        change(
                            "access_key_deletion",
                            json!({"account_id": id, "public_key": key}),
                        );
                    }
                    for k in old.state.keys() {
                        change(
                            "data_deletion",
                            json!({"account_id": id, "key_base64": crate::chain::b64(k)}),
                        );
                    }
                    if old.code.is_some() {
                        change("contract_code_deletion", json!({"account_id": id}));
                    }
                }
                continue;
            };
            let unchanged = old.is_some_and(|o| {
                o.amount == new.amount
                    && o.locked == new.locked
                    && o.code == new.code
                    && o.storage_usage() == new.storage_usage()
            });
            if !unchanged {
                let mut view = self.account_view(new);
                view["account_id"] = json!(id);
                change("account_update", view);
            }
            for key in &new.keys {
                let was = old.and_then(|o| o.key(&key.public_key));
                if was.is_none_or(|w| w.nonce != key.nonce || w.permission != key.permission) {
                    change(
                        "access_key_update",
                        json!({
                            "account_id": id,
                            "public_key": key.public_key.to_string(),
                            "access_key": self.access_key_view(key)
                        }),
                    );
                }
            }
            for key in old.map(|o| o.keys.as_slice()).unwrap_or_default() {
                if new.key(&key.public_key).is_none() {
                    let key = key.public_key.to_string();
                    change(
                        "access_key_deletion",
                        json!({"account_id": id, "public_key": key}),
                    );
                }
            }
            for (k, v) in &new.state {
                if old.and_then(|o| o.state.get(k)) != Some(v) {
                    change(
                        "data_update",
                        json!({
                            "account_id": id,
                            "key_base64": crate::chain::b64(k),
                            "value_base64": crate::chain::b64(v)
                        }),
                    );
                }
            }
            for k in old
                .map(|o| o.state.keys().collect::<Vec<_>>())
                .unwrap_or_default()
            {
                if !new.state.contains_key(k) {
                    change(
                        "data_deletion",
                        json!({"account_id": id, "key_base64": crate::chain::b64(k)}),
                    );
                }
            }
            if new.code.is_some() && old.is_none_or(|o| o.code != new.code) {
                let code = new.code.as_deref().map(crate::chain::b64);
                change(
                    "contract_code_update",
                    json!({"account_id": id, "code_base64": code}),
                );
            }
        }
        self.changing.extend(changes);
    }

    /// Adds a receipt to its transaction; returns it if it is due in this block, else
    /// keeps it for its block.
    fn schedule(&mut self, receipt: DueReceipt, height: u64) -> Option<DueReceipt> {
        if let Some(tx) = self.transactions.iter_mut().find(|t| t.hash == receipt.tx) {
            tx.receipts.push(receipt.view());
        }
        if receipt.at <= height {
            return Some(receipt);
        }
        self.due.push(receipt);
        None
    }

    /// Records an outcome of transaction `tx` in the block being produced.
    fn record(&mut self, tx: CryptoHash, outcome: Outcome) {
        self.add_leaf(&outcome);
        if let Some(tx) = self.transactions.iter_mut().find(|t| t.hash == tx) {
            tx.outcomes.push(outcome);
        }
    }

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
    fn execute(&mut self, receipt: DueReceipt, height: u64) {
        if receipt.is_refund() {
            let amount = receipt_deposits(&receipt);
            let status = match self.account_mut(&receipt.receiver) {
                Some(account) => {
                    account.amount = account.amount.saturating_add(amount);
                    // A refund of gas restores the allowance of the key that paid.
                    if let Some(Permission::FunctionCall {
                        allowance: Some(allowance),
                        ..
                    }) = account
                        .keys
                        .iter_mut()
                        .find(|k| k.public_key == receipt.signer_key)
                        .map(|k| &mut k.permission)
                    {
                        *allowance = allowance.saturating_add(amount);
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
                tokens_burnt: u128::from(run.gas_burnt).saturating_mul(receipt.gas_price),
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
                let permission = match &access_key.permission {
                    AccessKeyPermission::FunctionCall(p) => Permission::FunctionCall {
                        receiver: p.receiver_id.clone(),
                        methods: p.method_names.clone(),
                        allowance: p.allowance.map(|a| a.as_yoctonear()),
                    },
                    _ => Permission::FullAccess,
                };
                account.keys.push(Key {
                    public_key: public_key.clone(),
                    // nearcore starts a new key's nonce from the height.
                    nonce: (height - 1).saturating_mul(NONCE_RANGE_MULTIPLIER),
                    permission,
                });
                Ok(())
            }
            Action::DeleteKey { public_key } => {
                let Some(account) = self.account_mut(receiver) else {
                    return Err(not_found());
                };
                let before = account.keys.len();
                account.keys.retain(|k| &k.public_key != public_key);
                if account.keys.len() == before {
                    return Err(json!({"DeleteKeyDoesNotExist": {
                        "account_id": receiver,
                        "public_key": public_key.to_string()
                    }}));
                }
                Ok(())
            }
            Action::DeleteAccount { beneficiary_id } => {
                let Some(account) = self.account(receiver) else {
                    return Err(not_found());
                };
                if account.locked > 0 {
                    return Err(json!({"DeleteAccountStaking": {"account_id": receiver}}));
                }
                let amount = account.amount;
                self.accounts.retain(|a| a.id != receiver);
                // nearcore sends the balance as a refund: from the system, free of gas.
                if amount > 0 {
                    run.payouts.push((beneficiary_id.to_string(), amount));
                }
                Ok(())
            }
            Action::Delegate(signed) => self.delegate(receipt, signed, height, run),
            other => Err(json!({"UnsupportedAction": {"action": other.name()}})),
        }
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
