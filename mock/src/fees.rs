//! The mock chain's runtime parameters: gas fees per action, storage staking and the
//! account-creation rules. One table serves both sides, so they cannot disagree: the
//! `runtime_config` that `EXPERIMENTAL_protocol_config` shows, and what the runtime
//! (`runtime/`) charges. The numbers are the mock's own (round, of nearcore's orders of
//! magnitude); the formulas are nearcore's (`node-runtime`'s `config.rs`). One exception:
//! what a contract method burns ([`CALL_BASE_GAS`], [`CALL_GAS_PER_BYTE`]) is the
//! mock's own metering of Rust closures, which the config does not show (its
//! `wasm_config` host-function costs are shown, never charged).

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

/// How many blocks back a transaction's block hash may be (the protocol config's
/// `transaction_validity_period`, which the chain's config shows).
pub const TRANSACTION_VALIDITY_PERIOD: u64 = 86_400;

/// The gas price, in yoctoNEAR per gas unit: the same at every block.
pub const GAS_PRICE: u128 = 100_000_000;

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
/// it meters a call by a flat amount plus its arguments and the state it writes. Not
/// in the protocol config a node shows.
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

/// The most a gas key's balance (an account's gas keys' together, when it is deleted)
/// may hold when the key is deleted, the balance burnt with it: 1 NEAR (nearcore's
/// `GasKeyInfo::MAX_BALANCE_TO_BURN`). A fuller key is emptied first
/// (`WithdrawFromGasKey`).
pub const MAX_GAS_KEY_BALANCE_TO_BURN: u128 = 1_000_000_000_000_000_000_000_000;

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
        // The delegate action's own fee, the inner actions' send fees and their
        // receipt's, and, prepaid like a call's gas, what executing that receipt costs.
        Action::Delegate(signed) => {
            let inner: Vec<(Fee, u64)> = signed
                .delegate_action
                .actions
                .iter()
                .map(|a| action_fee(a.action()))
                .collect();
            let send = |own: u64, receipt: u64, of: fn(&Fee) -> u64| {
                inner.iter().fold(own.saturating_add(receipt), |g, (f, _)| {
                    g.saturating_add(of(f))
                })
            };
            let prepaid = inner
                .iter()
                .fold(ACTION_RECEIPT.execution, |g, (f, attached)| {
                    g.saturating_add(f.execution).saturating_add(*attached)
                });
            (
                Fee {
                    send_sir: send(DELEGATE.send_sir, ACTION_RECEIPT.send_sir, |f| f.send_sir),
                    send_not_sir: send(DELEGATE.send_not_sir, ACTION_RECEIPT.send_not_sir, |f| {
                        f.send_not_sir
                    }),
                    execution: DELEGATE.execution,
                },
                prepaid,
            )
        }
        // The protocol config (1.2.6's `ActionCreationConfigView`) shows no fee for
        // moving tokens to or from a gas key: the mock charges a transfer's.
        Action::TransferToGasKey { .. } | Action::WithdrawFromGasKey { .. } => (TRANSFER, 0),
        // Actions the mock does not execute are charged as a transfer; they fail.
        _ => (TRANSFER, 0),
    }
}

/// The host-function costs a node's `wasm_config` lists. The mock runs no Wasm, so none
/// is charged: they are shown, each at one value, for clients that read the config.
const EXT_COSTS: &[&str] = &[
    "alt_bn128_g1_multiexp_base",
    "alt_bn128_g1_multiexp_element",
    "alt_bn128_g1_sum_base",
    "alt_bn128_g1_sum_element",
    "alt_bn128_pairing_check_base",
    "alt_bn128_pairing_check_element",
    "base",
    "bls12381_g1_multiexp_base",
    "bls12381_g1_multiexp_element",
    "bls12381_g2_multiexp_base",
    "bls12381_g2_multiexp_element",
    "bls12381_map_fp2_to_g2_base",
    "bls12381_map_fp2_to_g2_element",
    "bls12381_map_fp_to_g1_base",
    "bls12381_map_fp_to_g1_element",
    "bls12381_p1_decompress_base",
    "bls12381_p1_decompress_element",
    "bls12381_p1_sum_base",
    "bls12381_p1_sum_element",
    "bls12381_p2_decompress_base",
    "bls12381_p2_decompress_element",
    "bls12381_p2_sum_base",
    "bls12381_p2_sum_element",
    "bls12381_pairing_base",
    "bls12381_pairing_element",
    "contract_compile_base",
    "contract_compile_bytes",
    "contract_loading_base",
    "contract_loading_bytes",
    "ecrecover_base",
    "ed25519_verify_base",
    "ed25519_verify_byte",
    "keccak256_base",
    "keccak256_byte",
    "keccak512_base",
    "keccak512_byte",
    "log_base",
    "log_byte",
    "p256_verify_base",
    "p256_verify_byte",
    "promise_and_base",
    "promise_and_per_promise",
    "promise_return",
    "read_cached_trie_node",
    "read_memory_base",
    "read_memory_byte",
    "read_register_base",
    "read_register_byte",
    "ripemd160_base",
    "ripemd160_block",
    "sha256_base",
    "sha256_byte",
    "storage_has_key_base",
    "storage_has_key_byte",
    "storage_iter_create_from_byte",
    "storage_iter_create_prefix_base",
    "storage_iter_create_prefix_byte",
    "storage_iter_create_range_base",
    "storage_iter_create_to_byte",
    "storage_iter_next_base",
    "storage_iter_next_key_byte",
    "storage_iter_next_value_byte",
    "storage_large_read_overhead_base",
    "storage_large_read_overhead_byte",
    "storage_read_base",
    "storage_read_key_byte",
    "storage_read_value_byte",
    "storage_remove_base",
    "storage_remove_key_byte",
    "storage_remove_ret_value_byte",
    "storage_write_base",
    "storage_write_evicted_byte",
    "storage_write_key_byte",
    "storage_write_value_byte",
    "touching_trie_node",
    "utf16_decoding_base",
    "utf16_decoding_byte",
    "utf8_decoding_base",
    "utf8_decoding_byte",
    "validator_stake_base",
    "validator_total_stake_base",
    "write_memory_base",
    "write_memory_byte",
    "write_register_base",
    "write_register_byte",
    "yield_create_base",
    "yield_create_byte",
    "yield_resume_base",
    "yield_resume_byte",
    "yield_create_with_id_base",
];

/// The `limit_config` of `wasm_config`: what the mock enforces (prepaid gas, actions per
/// receipt), the rest its own round numbers.
const LIMITS: &[(&str, u64)] = &[
    ("max_total_prepaid_gas", MAX_TOTAL_PREPAID_GAS),
    ("max_actions_per_receipt", MAX_ACTIONS_PER_RECEIPT as u64),
    ("max_gas_burnt", MAX_TOTAL_PREPAID_GAS),
    ("max_gas_burnt_view", MAX_TOTAL_PREPAID_GAS),
    ("account_id_validity_rules_version", 1),
    ("contract_prepare_version", 2),
    ("initial_memory_pages", 1_024),
    ("max_memory_pages", 2_048),
    ("max_stack_height", 262_144),
    ("max_arguments_length", 4_194_304),
    ("max_contract_size", 4_194_304),
    ("max_transaction_size", 1_572_864),
    ("max_receipt_size", 4_194_304),
    ("max_length_method_name", 256),
    ("max_length_returned_data", 4_194_304),
    ("max_length_storage_key", 2_048),
    ("max_length_storage_value", 4_194_304),
    ("max_number_bytes_method_names", 2_000),
    ("max_number_input_data_dependencies", 128),
    ("max_number_logs", 100),
    ("max_number_registers", 100),
    ("max_total_log_length", 16_384),
    ("max_register_size", 104_857_600),
    ("registers_memory_limit", 1_073_741_824),
    ("max_promises_per_function_call_action", 1_024),
    ("max_functions_number_per_contract", 10_000),
    ("max_locals_per_contract", 1_000_000),
    ("max_yield_payload_size", 1_024),
    ("yield_timeout_length_in_blocks", 200),
    ("per_receipt_storage_proof_size_limit", 4_000_000),
    ("wasmer2_stack_limit", 204_800),
    ("max_blocks_per_contract", 10_000),
    ("max_blocks_per_function", 10_000),
    ("max_deploy_actions_per_receipt", 1),
    ("max_elements_per_contract_table", 10_000),
    ("max_function_body_size", 1_048_576),
    ("max_instrumented_code_size", 8_388_608),
    ("max_operand_stack_bytes_per_function", 65_536),
    ("max_params_per_contract", 100_000),
    ("max_params_per_function", 1_000),
    ("max_tables_per_contract", 1),
    ("max_types_per_contract", 10_000),
];

/// The `wasm_config` a node shows: the mock's limits (the prepaid gas and action counts
/// it enforces, the rest its own round numbers), its host-function costs (shown, not
/// charged), and the features a 2.x node has on.
fn wasm_config() -> Value {
    let ext_costs: serde_json::Map<String, Value> = EXT_COSTS
        .iter()
        .map(|name| ((*name).to_owned(), json!(GGAS)))
        .collect();
    let features = [
        "alt_bn128",
        "bls12381_not_in_group_fix",
        "chain_id_host_fn",
        "deterministic_account_ids",
        "discard_custom_sections",
        "ed25519_verify",
        "eth_implicit_accounts",
        "fix_contract_loading_cost",
        "function_call_weight",
        "global_contract_host_fns",
        "implicit_account_creation",
        "math_extension",
        "reftypes_bulk_memory",
        "yield_resume_host_functions",
        "yield_with_id_host_fns",
    ];
    let mut config = json!({
        "ext_costs": ext_costs,
        "grow_mem_cost": 1,
        "regular_op_cost": 800_000,
        "linear_op_base_cost": 800_000,
        "linear_op_unit_cost": 1_000,
        "vm_kind": "NearVm",
        "storage_get_mode": "FlatStorage",
        "eth_implicit_global_contract": false,
        "gas_key_host_fns": false,
        "one_yocto_on_promise": true,
        "p256_verify_host_fn": false,
        "disable_9393_fix": false
    });
    for feature in features {
        config[feature] = json!(true);
    }
    let limits: serde_json::Map<String, Value> = LIMITS
        .iter()
        .map(|(name, value)| ((*name).to_owned(), json!(value)))
        .collect();
    config["limit_config"] = Value::Object(limits);
    config
}

/// The `runtime_config` member of `EXPERIMENTAL_protocol_config`: the table above.
pub fn runtime_config() -> Value {
    let fee = |f: Fee| f.to_json();
    json!({
        "storage_amount_per_byte": STORAGE_AMOUNT_PER_BYTE.to_string(),
        // Shown as newer nodes show them; the mock charges neither.
        "account_creation_charge": "0",
        "min_gas_purchase_price": GAS_PRICE.to_string(),
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
            "ml_dsa_65_verification_cost": 100 * GGAS,
            // The gas price never changes on this chain, so nothing is prepaid above it.
            "pessimistic_gas_price_inflation_ratio": [1, 1]
        },
        "wasm_config": wasm_config(),
        "congestion_control_config": {
            "max_congestion_incoming_gas": 400_000 * GGAS * 1_000,
            "max_congestion_outgoing_gas": 10_000 * GGAS * 1_000,
            "max_congestion_memory_consumption": 1_000_000_000u64,
            "max_congestion_missed_chunks": 5,
            "max_outgoing_gas": 300 * GGAS * 1_000,
            "min_outgoing_gas": GGAS * 1_000,
            "allowed_shard_outgoing_gas": GGAS * 1_000,
            "max_tx_gas": 500 * GGAS * 1_000,
            "min_tx_gas": 20 * GGAS * 1_000,
            "reject_tx_congestion_threshold": 0.5,
            "outgoing_receipts_usual_size_limit": 102_400,
            "outgoing_receipts_big_size_limit": 4_718_592
        },
        "witness_config": {
            "main_storage_proof_size_soft_limit": 4_000_000,
            "combined_transactions_size_limit": 4_194_304,
            "new_transactions_validation_state_size_soft_limit": 572_864
        },
        "account_creation_config": {
            "min_allowed_top_level_account_length": MIN_TOP_LEVEL_ACCOUNT_LENGTH,
            "registrar_account_id": REGISTRAR
        }
    })
}
