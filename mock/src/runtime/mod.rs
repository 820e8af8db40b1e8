//! The mock's runtime: transactions checked, charged and executed as nearcore's
//! runtime does it, block by block.
//!
//! - **Submission** ([`Chain::submit`]) checks a signed transaction against the state at
//!   the head, as a node's pool does, in nearcore's order: signature, actions, block
//!   hash, signer, access key, nonce, balance, the key's allowance, storage staking (the
//!   balance left and the locked stake together; a refusal names what is missing), then
//!   a function-call key's permission. A refusal is nearcore's `InvalidTxError`.
//!   Version-1 transactions name a nonce mode (strict: exactly the key's nonce plus
//!   one) and, for a gas key, a nonce index: each index has its own nonce, the gas is
//!   paid from the key's balance (`NotEnoughGasKeyBalance`) and the deposits from the
//!   account's (`NotEnoughBalanceForDeposit`), in the order of nearcore's
//!   `verify_and_charge_gas_key_tx_ephemeral`.
//! - **Blocks** ([`Chain::advance`]): each block takes the submitted transactions in
//!   nonce order per key, checks each again and charges it (the signer's balance, the
//!   key's nonce and allowance; one that no longer passes is dropped, as nodes drop
//!   it), records its outcome (its send fees); once every transaction is in, it
//!   executes the receipts due at its height: those to their own signer from this
//!   block's transactions, then those made in the block before. A receipt's actions
//!   apply all or nothing (storage staking checked after them, as at submission); its
//!   failure is nearcore's `ActionError`; a Rust panic in a contract is the contract's
//!   panic. Unused gas (back into a function-call key's allowance too, or into the gas
//!   key that paid it) and failed deposits come back in refund receipts a block later;
//!   a delegate action's inner receipt runs on the gas its relayer prepaid. A gas key's
//!   transaction whose deposits its account no longer covers fails in its block, its
//!   key charged the gas that turning it into a receipt burnt.
//!
//! Balances are credited with saturating additions that never saturate: every credit
//! comes out of what the chain holds (the accounts' and their gas keys' balances and
//! what due receipts carry), which fits in `u128` (a saved chain and a `sandbox_patch_state` that would
//! break that are refused). Gas sums stop at `u64::MAX` rather than wrap (a
//! transaction's prepaid gas is capped far below it).
//!
//! Action fees are `fees.rs`'s, the ones the protocol config shows. A contract method
//! is metered otherwise: [`fees::CALL_BASE_GAS`] plus [`fees::CALL_GAS_PER_BYTE`] per
//! byte of arguments and of state written, numbers the config does not show (its
//! `wasm_config` costs are shown, never charged).
//!
//! Its rooms, by stage: `validate.rs` (a transaction's checks, at submission and again
//! when a block takes it, and its charge), `block.rs` (block production: the pool in
//! nonce order, outcomes, the state changes each block reports), `execute.rs` (receipts
//! and their actions, refunds, view calls); the fees it charges are `fees.rs`'s.
//!
//! Not executed: promises (a contract calls no other contract), global contracts and
//! deterministic state init (refused at submission with a message that says so), Wasm (contracts are Rust, `contract.rs`). Staking locks and unlocks at once
//! rather than at an epoch's end. Every outcome's `gas_profile` is `null` (the mock
//! runs no Wasm to profile). An ETH-implicit account that a transfer creates gets no
//! wallet contract (nor a key): nothing can sign for it. Views read the current state,
//! whatever block they name.

mod block;
mod execute;
mod validate;

use near_account_id::{AccountIdRef, AccountType};
use near_rpc::tx::Action;
use near_rpc::PublicKey;
use serde_json::Value;

use crate::chain::{Account, Chain, DueReceipt, Holding, GAS_PRICE};
use crate::fees::{self, action_fee, ACTION_RECEIPT};

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

/// The deposit an action moves to its receiver (`None`: more than a balance holds).
fn deposit_of(action: &Action) -> Option<u128> {
    match action {
        Action::Transfer { deposit } => Some(deposit.as_yoctonear()),
        Action::FunctionCall(call) => Some(call.deposit.as_yoctonear()),
        Action::TransferToGasKey { deposit, .. } => Some(deposit.as_yoctonear()),
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
    /// Every yoctoNEAR the chain holds: the accounts' balances (`amount` and `locked`,
    /// and their gas keys' balances) and what its due receipts can still credit. Every credit the runtime makes
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
            for (j, key) in account.keys.iter().enumerate() {
                if let Some(gas) = &key.gas_key {
                    total = total
                        .checked_add(gas.balance)
                        .ok_or(Holding::GasKey(i, j))?;
                }
            }
        }
        for (i, receipt) in self.due.iter().enumerate() {
            total = in_flight(receipt)
                .and_then(|credit| total.checked_add(credit))
                .ok_or(Holding::Due(i))?;
        }
        Ok(total)
    }
}
