//! The mock chain's runtime parameters: gas fees per action, storage staking and the
//! account-creation rules. One table serves both sides, so they cannot disagree: the
//! `runtime_config` that `EXPERIMENTAL_protocol_config` shows, and what the runtime
//! (`runtime.rs`) charges. The numbers are the mock's own (round, of nearcore's orders of
//! magnitude); the formulas are nearcore's (`node-runtime`'s `config.rs`).

use near_rpc::tx::{AccessKeyPermission, Action};
use serde_json::{json, Value};

/// A fee in gas: what creating an action costs the sender (`send_sir` when the sender
/// is the receiver, `send_not_sir` otherwise) and what executing it costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fee {
    /// Sending to oneself.
    pub send_sir: u64,
    /// Sending to another account.
    pub send_not_sir: u64,
    /// Executing.
    pub execution: u64,
}

impl Fee {
    const fn flat(gas: u64) -> Self {
        Self {
            send_sir: gas,
            send_not_sir: gas,
            execution: gas,
        }
    }

    /// The send fee for a sender that is (`sir`) or is not the receiver.
    pub fn send(&self, sir: bool) -> u64 {
        if sir {
            self.send_sir
        } else {
            self.send_not_sir
        }
    }

    fn times(&self, n: u64) -> Self {
        Self {
            send_sir: self.send_sir.saturating_mul(n),
            send_not_sir: self.send_not_sir.saturating_mul(n),
            execution: self.execution.saturating_mul(n),
        }
    }

    fn plus(&self, other: Fee) -> Self {
        Self {
            send_sir: self.send_sir.saturating_add(other.send_sir),
            send_not_sir: self.send_not_sir.saturating_add(other.send_not_sir),
            execution: self.execution.saturating_add(other.execution),
        }
    }

    fn to_json(self) -> Value {
        json!({"send_sir": self.send_sir, "send_not_sir": self.send_not_sir, "execution": self.execution})
    }
}

/// Gas per unit of work, in the mock's own round numbers.
const GGAS: u64 = 1_000_000_000;

/// Creating and executing any action receipt.
pub const ACTION_RECEIPT: Fee = Fee::flat(100 * GGAS);
/// `CreateAccount`.
pub const CREATE_ACCOUNT: Fee = Fee::flat(100 * GGAS);
/// `DeployContract`, base.
pub const DEPLOY_CONTRACT: Fee = Fee::flat(200 * GGAS);
/// `DeployContract`, per byte of code.
pub const DEPLOY_CONTRACT_PER_BYTE: Fee = Fee::flat(6_000_000);
/// `FunctionCall`, base.
pub const FUNCTION_CALL: Fee = Fee::flat(200 * GGAS);
/// `FunctionCall`, per byte of method name and arguments.
pub const FUNCTION_CALL_PER_BYTE: Fee = Fee::flat(2_000_000);
/// `Transfer`.
pub const TRANSFER: Fee = Fee::flat(100 * GGAS);
/// `Stake`.
pub const STAKE: Fee = Fee::flat(150 * GGAS);
/// `AddKey` with full access.
pub const ADD_FULL_ACCESS_KEY: Fee = Fee::flat(100 * GGAS);
/// `AddKey` with a function-call permission, base.
pub const ADD_FUNCTION_CALL_KEY: Fee = Fee::flat(100 * GGAS);
/// `AddKey` with a function-call permission, per byte of method names.
pub const ADD_FUNCTION_CALL_KEY_PER_BYTE: Fee = Fee::flat(15_000_000);
/// `DeleteKey`.
pub const DELETE_KEY: Fee = Fee::flat(100 * GGAS);
/// `DeleteAccount`.
pub const DELETE_ACCOUNT: Fee = Fee::flat(150 * GGAS);
/// `Delegate` (its inner actions are charged as themselves).
pub const DELEGATE: Fee = Fee::flat(200 * GGAS);
/// A data receipt (the mock creates none: no promises).
pub const DATA_RECEIPT: Fee = Fee::flat(400 * GGAS);
/// A data receipt, per byte.
pub const DATA_RECEIPT_PER_BYTE: Fee = Fee::flat(10_000_000);

/// What a contract method burns, whatever it does: the mock runs Rust, not Wasm, so
/// it meters a call by a flat amount plus its arguments and the state it writes.
pub const CALL_BASE_GAS: u64 = 2_000 * GGAS;
/// What a contract burns per byte it reads as arguments or writes to state.
pub const CALL_GAS_PER_BYTE: u64 = 1_000_000;

/// yoctoNEAR to hold per byte of storage an account uses.
pub const STORAGE_AMOUNT_PER_BYTE: u128 = 10_000_000_000_000_000_000;
/// The bytes of an account record.
pub const NUM_BYTES_ACCOUNT: u64 = 100;
/// The bytes every other record (a key, a state entry) adds beside its own.
pub const NUM_EXTRA_BYTES_RECORD: u64 = 40;
/// Accounts using at most this many bytes hold no balance for them (NEP-448).
pub const ZERO_BALANCE_ACCOUNT_STORAGE_LIMIT: u64 = 770;
/// The account that creates top-level accounts shorter than
/// [`MIN_TOP_LEVEL_ACCOUNT_LENGTH`].
pub const REGISTRAR: &str = "registrar";
/// Top-level accounts at least this long anyone may create.
pub const MIN_TOP_LEVEL_ACCOUNT_LENGTH: usize = 32;
/// The most gas one transaction may attach to its calls.
pub const MAX_TOTAL_PREPAID_GAS: u64 = 300_000 * GGAS;
/// The most actions one transaction may carry.
pub const MAX_ACTIONS_PER_RECEIPT: usize = 100;

/// The fee of one action (its base and per-byte parts together), and the gas it
/// attaches for a call. Delegate actions are charged with their inner actions, as nearcore
/// charges them.
pub fn action_fee(action: &Action) -> (Fee, u64) {
    match action {
        Action::CreateAccount => (CREATE_ACCOUNT, 0),
        Action::DeployContract { code } => (
            DEPLOY_CONTRACT.plus(DEPLOY_CONTRACT_PER_BYTE.times(code.len() as u64)),
            0,
        ),
        Action::FunctionCall(call) => {
            let bytes = (call.method_name.len() + call.args.len()) as u64;
            (
                FUNCTION_CALL.plus(FUNCTION_CALL_PER_BYTE.times(bytes)),
                call.gas.as_gas(),
            )
        }
        Action::Transfer { .. } => (TRANSFER, 0),
        Action::Stake { .. } => (STAKE, 0),
        Action::AddKey { access_key, .. } => match &access_key.permission {
            AccessKeyPermission::FunctionCall(permission)
            | AccessKeyPermission::GasKeyFunctionCall(_, permission) => {
                // nearcore counts each name's bytes plus one.
                let bytes: u64 = permission
                    .method_names
                    .iter()
                    .map(|name| name.len() as u64 + 1)
                    .sum();
                (
                    ADD_FUNCTION_CALL_KEY.plus(ADD_FUNCTION_CALL_KEY_PER_BYTE.times(bytes)),
                    0,
                )
            }
            _ => (ADD_FULL_ACCESS_KEY, 0),
        },
        Action::DeleteKey { .. } => (DELETE_KEY, 0),
        Action::DeleteAccount { .. } => (DELETE_ACCOUNT, 0),
        Action::Delegate(signed) => {
            signed
                .delegate_action
                .actions
                .iter()
                .fold((DELEGATE, 0), |(fee, gas), inner| {
                    let (inner_fee, inner_gas) = action_fee(inner.action());
                    // The inner actions' receipt is created and executed too.
                    (
                        fee.plus(inner_fee).plus(ACTION_RECEIPT),
                        gas.saturating_add(inner_gas),
                    )
                })
        }
        // Actions the mock does not execute are charged as a transfer; they fail.
        _ => (TRANSFER, 0),
    }
}

/// The `runtime_config` member of `EXPERIMENTAL_protocol_config`: the table above.
pub fn runtime_config() -> Value {
    let fee = |f: Fee| f.to_json();
    json!({
        "storage_amount_per_byte": STORAGE_AMOUNT_PER_BYTE.to_string(),
        "transaction_costs": {
            "action_receipt_creation_config": fee(ACTION_RECEIPT),
            "data_receipt_creation_config": {
                "base_cost": fee(DATA_RECEIPT),
                "cost_per_byte": fee(DATA_RECEIPT_PER_BYTE)
            },
            "action_creation_config": {
                "create_account_cost": fee(CREATE_ACCOUNT),
                "deploy_contract_cost": fee(DEPLOY_CONTRACT),
                "deploy_contract_cost_per_byte": fee(DEPLOY_CONTRACT_PER_BYTE),
                "function_call_cost": fee(FUNCTION_CALL),
                "function_call_cost_per_byte": fee(FUNCTION_CALL_PER_BYTE),
                "transfer_cost": fee(TRANSFER),
                "stake_cost": fee(STAKE),
                "add_key_cost": {
                    "full_access_cost": fee(ADD_FULL_ACCESS_KEY),
                    "function_call_cost": fee(ADD_FUNCTION_CALL_KEY),
                    "function_call_cost_per_byte": fee(ADD_FUNCTION_CALL_KEY_PER_BYTE)
                },
                "delete_key_cost": fee(DELETE_KEY),
                "delete_account_cost": fee(DELETE_ACCOUNT),
                "delegate_cost": fee(DELEGATE)
            },
            "storage_usage_config": {
                "num_bytes_account": NUM_BYTES_ACCOUNT,
                "num_extra_bytes_record": NUM_EXTRA_BYTES_RECORD
            },
            "burnt_gas_reward": [3, 10],
            // The gas price never changes on this chain, so nothing is prepaid above it.
            "pessimistic_gas_price_inflation_ratio": [1, 1]
        },
        "wasm_config": {
            "limit_config": {
                "max_total_prepaid_gas": MAX_TOTAL_PREPAID_GAS,
                "max_actions_per_receipt": MAX_ACTIONS_PER_RECEIPT
            }
        },
        "account_creation_config": {
            "min_allowed_top_level_account_length": MIN_TOP_LEVEL_ACCOUNT_LENGTH,
            "registrar_account_id": REGISTRAR
        }
    })
}
