//! A transaction's checks, as nearcore's `verifier.rs` makes them: at submission
//! ([`Chain::submit`], as a node's pool does) and again when a block takes it, where it
//! is also charged (the signer's balance, the key's nonce and allowance).

use near_rpc::tx::{AccessKeyPermission, Action, SignedTransaction};
use near_rpc::types::SignedTransactionView;
use near_rpc::{CryptoHash, PublicKey};
use serde_json::{json, Value};

use super::{deposits, gas_of, storage_shortfall, SubmitError, NONCE_RANGE_MULTIPLIER};
use crate::chain::{yocto, Chain, Pending, Permission, Transaction, GAS_PRICE};
use crate::fees::{self, action_fee, TRANSACTION_VALIDITY_PERIOD};

fn invalid(error: Value) -> SubmitError {
    SubmitError::Invalid(error)
}

fn access_key_error(error: Value) -> SubmitError {
    invalid(json!({ "InvalidAccessKeyError": error }))
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

    /// nearcore's `verify_and_charge_transaction`: every check first, then, if `apply`,
    /// the signer's balance, nonce and allowance change. Returns the send gas burnt.
    pub(super) fn charge(
        &mut self,
        signed: &SignedTransaction,
        apply: bool,
    ) -> Result<u64, SubmitError> {
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
}
