//! A transaction's checks, as nearcore's `verifier.rs` makes them: at submission
//! ([`Chain::submit`], as a node's pool does) and again when a block takes it, where it
//! is also charged (the signer's balance, the key's nonce and allowance).

use near_rpc::tx::{
    AccessKeyPermission, Action, NonceMode, SignedTransaction, Transaction as NearTransaction,
};
use near_rpc::types::SignedTransactionView;
use near_rpc::{CryptoHash, PublicKey};
use serde_json::{json, Value};

use super::{deposits, gas_of, storage_shortfall, SubmitError};
use crate::chain::{
    yocto, Chain, Pending, Permission, Transaction, GAS_PRICE, MAX_GAS_KEY_NONCES,
    NONCE_RANGE_MULTIPLIER,
};
use crate::fees::{self, action_fee, TRANSACTION_VALIDITY_PERIOD};

fn invalid(error: Value) -> SubmitError {
    SubmitError::Invalid(error)
}

fn access_key_error(error: Value) -> SubmitError {
    invalid(json!({ "InvalidAccessKeyError": error }))
}

/// What charging a transaction in a block did.
#[derive(Debug)]
pub(super) struct Charged {
    /// The gas burnt turning it into a receipt.
    pub(super) send_gas: u64,
    /// For a gas key's transaction whose deposits the account could not cover: the
    /// `InvalidTxError` it fails with, its gas charged all the same, no receipt made.
    pub(super) deposit_failed: Option<Value>,
}

impl Charged {
    fn sent(send_gas: u64) -> Self {
        Self {
            send_gas,
            deposit_failed: None,
        }
    }
}

/// nearcore's checks of a function-call key (a gas key's too) against what it signs:
/// one call, without deposit, to its receiver, of one of its methods.
fn check_permission(
    permission: &Permission,
    actions: &[Action],
    receiver_id: &str,
) -> Result<(), SubmitError> {
    let Permission::FunctionCall {
        receiver, methods, ..
    } = permission
    else {
        return Ok(());
    };
    let [Action::FunctionCall(call)] = actions else {
        return Err(access_key_error(json!("RequiresFullAccess")));
    };
    if call.deposit.as_yoctonear() > 0 {
        return Err(access_key_error(json!("DepositWithFunctionCall")));
    }
    if receiver != receiver_id {
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
    Ok(())
}

/// nearcore's rules for a gas key an `AddKey` adds (`validate_add_key_action`,
/// `runtime/runtime/src/action_validation.rs`): no allowance, 1 to
/// [`MAX_GAS_KEY_NONCES`] nonces, and an empty balance (`TransferToGasKey` funds it).
/// The `ActionsValidationError` when one is broken.
fn gas_key_rules(permission: &AccessKeyPermission) -> Result<(), Value> {
    let info = match permission {
        AccessKeyPermission::GasKeyFunctionCall(info, permission) => {
            if permission.allowance.is_some() {
                return Err(json!("GasKeyFunctionCallAllowanceNotAllowed"));
            }
            info
        }
        AccessKeyPermission::GasKeyFullAccess(info) => info,
        _ => return Ok(()),
    };
    if info.num_nonces == 0 || info.num_nonces > MAX_GAS_KEY_NONCES {
        return Err(json!({"GasKeyInvalidNumNonces": {
            "requested_nonces": info.num_nonces,
            "limit": MAX_GAS_KEY_NONCES
        }}));
    }
    if info.balance.as_yoctonear() != 0 {
        return Err(json!({"AddGasKeyWithNonZeroBalance": {
            "balance": yocto(info.balance.as_yoctonear())
        }}));
    }
    Ok(())
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
    // nearcore's `validate_actions` (`runtime/runtime/src/action_validation.rs`): one
    // delegate action per transaction, whatever stands between two.
    let mut delegate_seen = false;
    for (i, action) in actions.iter().enumerate() {
        // nearcore 0.38's `DelegateV2` and `UniversalStateInit` exist only in a near-rpc
        // built with its `nearcore_0_38_0` feature, so they are told by name.
        let unexecuted = matches!(
            action,
            Action::DeployGlobalContract { .. }
                | Action::UseGlobalContract { .. }
                | Action::DeterministicStateInit { .. }
        ) || matches!(action.name(), "DelegateV2" | "UniversalStateInit");
        if unexecuted {
            return Err(SubmitError::Unsupported(format!(
                "the mock node does not execute {} actions (action {i})",
                action.name()
            )));
        }
        match action {
            Action::DeleteAccount { .. } if i + 1 != actions.len() => {
                return Err(validation(json!("DeleteActionMustBeFinal")));
            }
            Action::Delegate(_) if delegate_seen => {
                return Err(validation(json!("DelegateActionMustBeOnlyOne")));
            }
            Action::Delegate(_) => delegate_seen = true,
            Action::FunctionCall(call) if call.gas.as_gas() == 0 => {
                return Err(validation(json!("FunctionCallZeroAttachedGas")));
            }
            // nearcore's `validate_add_key_action` (`action_validation.rs`): a gas key
            // has no allowance, 1 to 1024 nonces, and starts empty (funded by
            // `TransferToGasKey`).
            Action::AddKey { access_key, .. } => {
                gas_key_rules(&access_key.permission).map_err(validation)?;
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

impl Chain {
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

    /// nearcore's `verify_and_charge_transaction` (`runtime/runtime/src/verifier.rs`):
    /// every check first, then, if `apply`, the signer's balance, the key's nonce and
    /// allowance (a gas key's: its balance and the nonce of the index) change.
    ///
    /// A transaction signed with a gas key names a nonce index (`TransactionV1` with
    /// `GasKeyNonce`): its gas comes from the key's balance, its deposits from the
    /// account's. When the account cannot cover the deposits, nearcore refuses it at
    /// submission but, in a block, still charges the key for what turning it into a
    /// receipt burnt and fails it (`NotEnoughBalanceForDeposit`): [`Charged::deposit_failed`].
    pub(super) fn charge(
        &mut self,
        signed: &SignedTransaction,
        apply: bool,
    ) -> Result<Charged, SubmitError> {
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
        // The nonce to compare with: the key's, or a gas key's at the index named. A gas
        // key signs only with an index, other keys never (`InvalidNonceIndex`, whose
        // `num_nonces` is 0 for a key that is no gas key).
        let num_nonces = key.gas_key.as_ref().map_or(0, |g| g.nonces.len());
        let index_error = |index: Option<u16>| {
            invalid(json!({"InvalidNonceIndex": {
                "tx_nonce_index": index,
                "num_nonces": num_nonces
            }}))
        };
        let current = match (tx.nonce_index(), &key.gas_key) {
            (None, None) => key.nonce,
            (None, Some(_)) => return Err(index_error(None)),
            (Some(index), gas) => *gas
                .as_ref()
                .and_then(|g| g.nonces.get(usize::from(index)))
                .ok_or_else(|| index_error(Some(index)))?,
        };
        let strict = matches!(tx, NearTransaction::V1(v1) if v1.nonce_mode == NonceMode::Strict);
        // In strict mode a submission follows what waits for the next block with the
        // same key and index, as nearcore's pool counts its pending nonces
        // (`PendingConstraints`): several in flight at once are n + 1, n + 2, ...
        let current = if strict && !apply {
            self.mempool
                .iter()
                .map(|p| p.signed.transaction())
                .filter(|p| {
                    p.signer_id() == tx.signer_id()
                        && p.public_key() == tx.public_key()
                        && p.nonce_index() == tx.nonce_index()
                })
                .map(|p| p.nonce())
                .fold(current, u64::max)
        } else {
            current
        };
        let nonce_ok = if strict {
            current.checked_add(1) == Some(tx.nonce())
        } else {
            tx.nonce() > current
        };
        if !nonce_ok {
            return Err(invalid(json!({"InvalidNonce": {
                "tx_nonce": tx.nonce(),
                "ak_nonce": current
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
        if let (Some(index), Some(gas)) = (tx.nonce_index(), &key.gas_key) {
            return self.charge_gas_key(
                signed,
                (index, gas.balance),
                (send_gas, gas_cost, deposits),
                apply,
            );
        }
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
        check_permission(&key.permission, tx.actions(), &receiver_id)?;
        if !apply {
            return Ok(Charged::sent(send_gas));
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
        Ok(Charged::sent(send_gas))
    }

    /// The rest of [`Chain::charge`] for a transaction signed with a gas key, its nonce
    /// checked already: nearcore's `verify_and_charge_gas_key_tx_ephemeral`. The gas
    /// (`gas_cost`) from the key's balance, then the key's permission, then the
    /// deposits from the account's balance and storage staking; `index`: the nonce
    /// index, `balance`: the key's.
    fn charge_gas_key(
        &mut self,
        signed: &SignedTransaction,
        (index, balance): (u16, u128),
        (send_gas, gas_cost, deposits): (u64, u128, u128),
        apply: bool,
    ) -> Result<Charged, SubmitError> {
        let tx = signed.transaction();
        let signer_id = tx.signer_id().to_string();
        let receiver_id = tx.receiver_id().to_string();
        if balance < gas_cost {
            return Err(invalid(json!({"NotEnoughGasKeyBalance": {
                "signer_id": signer_id,
                "balance": yocto(balance),
                "cost": yocto(gas_cost)
            }})));
        }
        let (Some(account), burnt) = (self.account(&signer_id), u128::from(send_gas) * GAS_PRICE)
        else {
            return Err(invalid(
                json!({"SignerDoesNotExist": {"signer_id": signer_id}}),
            ));
        };
        if let Some(key) = account.key(tx.public_key()) {
            check_permission(&key.permission, tx.actions(), &receiver_id)?;
        }
        // The deposits, from the account: what it lacks fails the transaction, not the
        // gas (`DepositCostFailureReason`).
        let deposit_failure = |balance: u128, cost: u128, reason: &str| {
            json!({"NotEnoughBalanceForDeposit": {
                "signer_id": signer_id,
                "balance": yocto(balance),
                "cost": yocto(cost),
                "reason": reason
            }})
        };
        let mut after = account.clone();
        let failure = match after.amount.checked_sub(deposits) {
            None => Some(deposit_failure(after.amount, deposits, "NotEnoughBalance")),
            Some(left) => {
                after.amount = left;
                storage_shortfall(&after)
                    .map(|lacking| deposit_failure(left, lacking, "LackBalanceForState"))
            }
        };
        if let Some(error) = &failure {
            if !apply {
                return Err(invalid(error.clone()));
            }
            // Only the gas that turning it into a receipt burnt is charged.
            after = account.clone();
        }
        if !apply {
            return Ok(Charged::sent(send_gas));
        }
        let charged = if failure.is_some() { burnt } else { gas_cost };
        if let Some(gas) = after
            .keys
            .iter_mut()
            .find(|k| &k.public_key == tx.public_key())
            .and_then(|k| k.gas_key.as_mut())
        {
            gas.balance -= charged;
            if let Some(nonce) = gas.nonces.get_mut(usize::from(index)) {
                *nonce = tx.nonce();
            }
        }
        if let Some(account) = self.account_mut(&signer_id) {
            *account = after;
        }
        Ok(Charged {
            send_gas,
            deposit_failed: failure,
        })
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
}
