//! The default answer of every method: parse the params the way nearcore does, answer
//! from the [`Chain`], or fail with nearcore's error for that method (`UNKNOWN_ACCOUNT`,
//! `UNKNOWN_BLOCK`, `METHOD_NOT_FOUND`, ...), including its HTTP status and the legacy
//! `code`/`message`/`data` beside `name`/`cause`.

use base64::Engine as _;
use near_rpc::CryptoHash;
use serde_json::{json, Value};

use near_rpc::tx::SignedTransaction;

use crate::chain::{Chain, Level, GAS_PRICE, GENESIS_HEIGHT};
use crate::runtime::SubmitError;

/// A JSON-RPC error as nearcore sends it, with the HTTP status it sends it with.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The HTTP status.
    pub status: u16,
    /// The `error` member.
    pub error: Value,
}

impl RpcError {
    /// `HANDLER_ERROR` with cause `name` and `info` (HTTP 200; `TIMEOUT_ERROR` is 408).
    pub fn handler(name: &str, info: Value, message: impl Into<String>) -> Self {
        let status = if name == "TIMEOUT_ERROR" { 408 } else { 200 };
        let data = message.into();
        let mut cause = json!({ "name": name });
        if !info.is_null() {
            cause["info"] = info;
        }
        Self {
            status,
            error: json!({
                "name": "HANDLER_ERROR",
                "cause": cause,
                "code": -32000,
                "message": "Server error",
                "data": data
            }),
        }
    }

    /// `REQUEST_VALIDATION_ERROR` / `PARSE_ERROR` (HTTP 400).
    pub fn parse(message: impl Into<String>) -> Self {
        let message = message.into();
        Self {
            status: 400,
            error: json!({
                "name": "REQUEST_VALIDATION_ERROR",
                "cause": {"name": "PARSE_ERROR", "info": {"error_message": message}},
                "code": -32700,
                "message": "Parse error",
                "data": message
            }),
        }
    }

    /// `REQUEST_VALIDATION_ERROR` / `METHOD_NOT_FOUND` (HTTP 400).
    pub fn method_not_found(method: &str) -> Self {
        Self {
            status: 400,
            error: json!({
                "name": "REQUEST_VALIDATION_ERROR",
                "cause": {"name": "METHOD_NOT_FOUND", "info": {"method_name": method}},
                "code": -32601,
                "message": "Method not found",
                "data": method
            }),
        }
    }

    /// `INTERNAL_ERROR` (HTTP 500).
    pub fn internal(message: impl Into<String>) -> Self {
        let message = message.into();
        Self {
            status: 500,
            error: json!({
                "name": "INTERNAL_ERROR",
                "cause": {"name": "INTERNAL_ERROR", "info": {"error_message": message}},
                "code": -32000,
                "message": "Server error",
                "data": message
            }),
        }
    }
}

type Answer = Result<Value, RpcError>;

fn str_param<'a>(params: &'a Value, name: &str) -> Result<&'a str, RpcError> {
    params[name]
        .as_str()
        .ok_or_else(|| RpcError::parse(format!("missing field `{name}`")))
}

/// An account id param, checked as nearcore checks it.
fn account_param<'a>(params: &'a Value, name: &str) -> Result<&'a str, RpcError> {
    let id = str_param(params, name)?;
    id.parse::<near_rpc::AccountId>().map_err(|e| {
        RpcError::parse(format!("Failed parsing args: invalid `{name}` {id:?}: {e}"))
    })?;
    Ok(id)
}

fn hash_param(params: &Value, name: &str) -> Result<CryptoHash, RpcError> {
    str_param(params, name)?
        .parse()
        .map_err(|e| RpcError::parse(format!("invalid `{name}`: {e}")))
}

/// Base64 as nearcore reads it: padded or not (clients send both; recorded nodes
/// accepted both).
const BASE64: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    base64::engine::GeneralPurposeConfig::new()
        .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
);

fn base64_param(params: &Value, name: &str) -> Result<Vec<u8>, RpcError> {
    BASE64
        .decode(str_param(params, name)?)
        .map_err(|e| RpcError::parse(format!("invalid `{name}`: {e}")))
}

/// The most bytes of contract state a view returns (nearcore's
/// `trie_viewer_state_size_limit` default): past it, `TOO_LARGE_CONTRACT_STATE`.
const STATE_VIEW_LIMIT: usize = 50_000;

/// The height a block reference (`finality`, `block_id` or `sync_checkpoint`) names.
fn block_height(chain: &Chain, params: &Value) -> Result<u64, RpcError> {
    let unknown = |reference: Value| {
        RpcError::handler(
            "UNKNOWN_BLOCK",
            json!({ "block_reference": reference }),
            "DB Not Found Error: BLOCK HEIGHT",
        )
    };
    if let Some(finality) = params.get("finality") {
        let name = finality.as_str().unwrap_or_default();
        return chain.height_at(name).ok_or_else(|| {
            RpcError::parse(format!(
                "unknown variant `{name}`, expected one of `optimistic`, `near-final`, `final`"
            ))
        });
    }
    if let Some(id) = params.get("block_id") {
        // A height or a hash, as nearcore's untagged `BlockId` reads it; anything else
        // does not parse.
        let not_a_block_id = || {
            RpcError::parse(format!(
                "Failed parsing args: `block_id` {id} is neither a height nor a block hash"
            ))
        };
        let height = match id {
            Value::Number(n) => {
                let height = n.as_u64().ok_or_else(not_a_block_id)?;
                Some(height).filter(|h| (GENESIS_HEIGHT..=chain.head).contains(h))
            }
            Value::String(s) => {
                let hash = s.parse::<CryptoHash>().map_err(|_| not_a_block_id())?;
                chain.height_of(&hash)
            }
            _ => return Err(not_a_block_id()),
        };
        return height.ok_or_else(|| unknown(json!({ "block_id": id })));
    }
    match params.get("sync_checkpoint").and_then(Value::as_str) {
        Some("genesis" | "earliest_available") => Ok(GENESIS_HEIGHT),
        Some(other) => Err(RpcError::parse(format!(
            "unknown sync checkpoint `{other}`"
        ))),
        None => Err(RpcError::parse(
            "one of `finality`, `block_id` or `sync_checkpoint` is required",
        )),
    }
}

/// A view answer with the block it was read at.
fn at_block(chain: &Chain, height: u64, mut view: Value) -> Value {
    view["block_height"] = json!(height);
    view["block_hash"] = json!(chain.block_hash(height).to_string());
    view
}

fn account_info(chain: &Chain, height: u64, account: &str) -> Value {
    json!({
        "requested_account_id": account,
        "block_height": height,
        "block_hash": chain.block_hash(height).to_string()
    })
}

/// A transaction a request waits for, until it reaches a level.
#[derive(Debug)]
pub(crate) struct Wait {
    hash: CryptoHash,
    level: Level,
    receipts: bool,
}

/// What a request asks of the node: an answer now, or to wait for a transaction while
/// blocks are produced (`send_tx`, `broadcast_tx_commit`, `tx`, `EXPERIMENTAL_tx_status`).
pub(crate) enum Step {
    Now(Answer),
    Wait(Wait),
}

impl From<Result<Wait, RpcError>> for Step {
    fn from(wait: Result<Wait, RpcError>) -> Self {
        match wait {
            Ok(wait) => Self::Wait(wait),
            Err(e) => Self::Now(Err(e)),
        }
    }
}

/// `params` in the named form nearcore reads: its positional arrays (`[block_id]`,
/// `[tx_hash, sender]`, `[signed_tx_base64]`, ...) and the legacy `query` path form
/// (`["account/alice.near", ""]`) turned into the objects they stand for.
pub(crate) fn named(method: &str, params: &Value) -> Result<Value, RpcError> {
    let Value::Array(items) = params else {
        return Ok(params.clone());
    };
    let one = |name: &str, value: &Value| {
        let mut object = serde_json::Map::new();
        object.insert(name.to_owned(), value.clone());
        Value::Object(object)
    };
    Ok(match (method, items.as_slice()) {
        ("block" | "EXPERIMENTAL_changes_in_block" | "block_effects", [id]) => one("block_id", id),
        ("chunk", [id]) => one("chunk_id", id),
        ("chunk", [block, shard]) => json!({"block_id": block, "shard_id": shard}),
        ("gas_price" | "EXPERIMENTAL_validators_ordered", [id]) => one("block_id", id),
        ("validators", [id]) if id.is_null() => json!("latest"),
        ("validators", [id]) => one("block_id", id),
        ("tx" | "EXPERIMENTAL_tx_status", [hash, sender]) => {
            json!({"tx_hash": hash, "sender_account_id": sender})
        }
        (
            "tx"
            | "EXPERIMENTAL_tx_status"
            | "send_tx"
            | "broadcast_tx_async"
            | "broadcast_tx_commit",
            [signed],
        ) => one("signed_tx_base64", signed),
        ("next_light_client_block", [hash]) => one("last_block_hash", hash),
        ("EXPERIMENTAL_receipt", [id]) => one("receipt_id", id),
        ("query", [path, data]) => legacy_query(path, data)?,
        // Methods without params take an empty list.
        (
            "status"
            | "health"
            | "network_info"
            | "genesis_config"
            | "EXPERIMENTAL_genesis_config"
            | "client_config"
            | "EXPERIMENTAL_client_config"
            | "EXPERIMENTAL_split_storage_info",
            [],
        ) => Value::Null,
        _ => {
            return Err(RpcError::parse(format!(
                "`{method}` has no positional form of {} params; send its params by name",
                items.len()
            )))
        }
    })
}

/// nearcore's legacy `query` form: a path (`account/ID`, `access_key/ID[/KEY]`,
/// `code/ID`, `contract/ID`, `call/ID/METHOD`) and data (base58: the state prefix, the
/// call's args), read at `optimistic` finality as nearcore reads it.
fn legacy_query(path: &Value, data: &Value) -> Result<Value, RpcError> {
    let (Some(path), Some(data)) = (path.as_str(), data.as_str()) else {
        return Err(RpcError::parse(
            "the legacy `query` form is [path, data], two strings",
        ));
    };
    let data = bs58::decode(data)
        .into_vec()
        .map_err(|e| RpcError::parse(format!("the legacy `query` data is not base58: {e}")))?;
    let data = base64::engine::general_purpose::STANDARD.encode(data);
    let parts: Vec<&str> = path.split('/').collect();
    let request = match parts.as_slice() {
        ["account", id] => json!({"request_type": "view_account", "account_id": id}),
        ["access_key", id] => json!({"request_type": "view_access_key_list", "account_id": id}),
        ["access_key", id, key] => {
            json!({"request_type": "view_access_key", "account_id": id, "public_key": key})
        }
        ["code", id] => json!({"request_type": "view_code", "account_id": id}),
        ["contract", id] => {
            json!({"request_type": "view_state", "account_id": id, "prefix_base64": data})
        }
        ["call", id, method] => json!({
            "request_type": "call_function", "account_id": id, "method_name": method,
            "args_base64": data
        }),
        _ => {
            return Err(RpcError::parse(format!(
                "Unknown path {path}: the legacy `query` paths are account/ID, \
                 access_key/ID[/KEY], code/ID, contract/ID and call/ID/METHOD"
            )))
        }
    };
    let mut request = request;
    request["finality"] = json!("optimistic");
    Ok(request)
}

/// What `method` asks of the node.
pub(crate) fn step(chain: &mut Chain, method: &str, params: &Value) -> Step {
    let params = match named(method, params) {
        Ok(params) => params,
        Err(e) => return Step::Now(Err(e)),
    };
    let params = &params;
    match method {
        "send_tx" => Step::from(wait_until(params).and_then(|level| {
            Ok(Wait {
                hash: submit(chain, params)?,
                level,
                receipts: false,
            })
        })),
        // nearcore's `broadcast_tx_commit` is `send_tx` waiting for execution.
        "broadcast_tx_commit" => Step::from(submit(chain, params).map(|hash| Wait {
            hash,
            level: Level::ExecutedOptimistic,
            receipts: false,
        })),
        "tx" => Step::from(tx_status(chain, params, false)),
        "EXPERIMENTAL_tx_status" => Step::from(tx_status(chain, params, true)),
        _ => Step::Now(answer(chain, method, params)),
    }
}

/// The answer to a waiting request once its transaction has reached its level (or is
/// gone); `None` while it has not.
pub(crate) fn resume(chain: &Chain, wait: &Wait) -> Option<Answer> {
    match chain.transaction(&wait.hash) {
        None => Some(Err(unknown_transaction(&wait.hash))),
        Some(tx) if chain.level(tx) >= wait.level => {
            Some(Ok(chain.transaction_status(tx, wait.receipts)))
        }
        Some(_) => None,
    }
}

/// `TIMEOUT_ERROR` for a request that waited `blocks` blocks in vain.
pub(crate) fn timeout(wait: &Wait, blocks: u64) -> RpcError {
    RpcError::handler(
        "TIMEOUT_ERROR",
        Value::Null,
        format!(
            "Timeout: transaction {} did not reach {} in {blocks} blocks",
            wait.hash,
            wait.level.name()
        ),
    )
}

/// The answer of `method` to `params`, from `chain`, for a method that does not wait.
fn answer(chain: &mut Chain, method: &str, params: &Value) -> Answer {
    match method {
        "block" => {
            let height = block_height(chain, params)?;
            Ok(chain.block(height))
        }
        "chunk" => chunk(chain, params),
        "status" => Ok(chain.status()),
        "health" => Ok(Value::Null),
        "network_info" => Ok(chain.network_info()),
        "gas_price" => {
            // The price never changes on this chain; a named block must still exist.
            if !matches!(params.get("block_id"), None | Some(Value::Null)) {
                block_height(chain, params)?;
            }
            Ok(json!({ "gas_price": GAS_PRICE.to_string() }))
        }
        "validators" => Ok(chain.validators()),
        "EXPERIMENTAL_validators_ordered" => Ok(chain.validators_ordered()),
        "genesis_config" | "EXPERIMENTAL_genesis_config" => Ok(chain.genesis_config()),
        "EXPERIMENTAL_protocol_config" => {
            block_height(chain, params)?;
            Ok(chain.protocol_config())
        }
        // `EXPERIMENTAL_client_config` and `light_client_block_proof` are in nearcore's
        // OpenRPC document only; nodes answer them as their twins.
        "client_config" | "EXPERIMENTAL_client_config" => Ok(chain.client_config()),
        "maintenance_windows" | "EXPERIMENTAL_maintenance_windows" => Ok(json!([])),
        "EXPERIMENTAL_congestion_level" => Ok(json!({ "congestion_level": 0.0 })),
        "EXPERIMENTAL_split_storage_info" => Ok(json!({
            "head_height": chain.head,
            "final_head_height": chain.height_at("final"),
            "cold_head_height": null,
            "hot_db_kind": "RPC"
        })),
        "changes" | "EXPERIMENTAL_changes" => {
            let height = block_height(chain, params)?;
            let changes = changes_of(chain, height, params)?;
            Ok(json!({ "block_hash": chain.block_hash(height).to_string(), "changes": changes }))
        }
        "EXPERIMENTAL_changes_in_block" => {
            let height = block_height(chain, params)?;
            Ok(json!({
                "block_hash": chain.block_hash(height).to_string(),
                "changes": touched(chain, height)
            }))
        }
        // The spec names the list `changes`; newer nodes send `block_effects`: both.
        "block_effects" => {
            let height = block_height(chain, params)?;
            let touched = touched(chain, height);
            Ok(json!({
                "block_hash": chain.block_hash(height).to_string(),
                "changes": touched,
                "block_effects": touched
            }))
        }
        "query" => query(chain, params),
        "EXPERIMENTAL_view_account" => view(chain, params, "view_account"),
        "EXPERIMENTAL_view_code" => view(chain, params, "view_code"),
        "EXPERIMENTAL_view_state" => view(chain, params, "view_state"),
        "EXPERIMENTAL_view_access_key" => view(chain, params, "view_access_key"),
        "EXPERIMENTAL_view_access_key_list" => view(chain, params, "view_access_key_list"),
        "EXPERIMENTAL_call_function" => view(chain, params, "call_function"),
        "broadcast_tx_async" => Ok(json!(submit(chain, params)?.to_string())),
        // A sandbox node's: write state records, produce blocks.
        "sandbox_patch_state" => {
            chain
                .patch_state(&params["records"])
                .map_err(|e| RpcError::parse(format!("Failed parsing args: {e}")))?;
            Ok(json!({}))
        }
        "sandbox_fast_forward" => {
            let blocks = params["delta_height"]
                .as_u64()
                .ok_or_else(|| RpcError::parse("missing field `delta_height`"))?;
            // Each block is hashed and kept: a bound, said rather than applied quietly.
            if blocks > 10_000 {
                return Err(RpcError::parse(format!(
                    "`delta_height` {blocks} is more than the mock produces at once (10000)"
                )));
            }
            chain.advance(blocks);
            Ok(json!({}))
        }
        "EXPERIMENTAL_receipt" => {
            let id = hash_param(params, "receipt_id")?;
            let (tx, n) = chain.receipt(&id).ok_or_else(|| unknown_receipt(&id))?;
            Ok(tx.receipts[n].clone())
        }
        "EXPERIMENTAL_receipt_to_tx" => {
            let id = hash_param(params, "receipt_id")?;
            let (tx, _) = chain.receipt(&id).ok_or_else(|| unknown_receipt(&id))?;
            Ok(json!({
                "transaction_hash": tx.hash.to_string(),
                "sender_account_id": tx.signer
            }))
        }
        "light_client_proof" | "EXPERIMENTAL_light_client_proof" => {
            light_client_proof(chain, params)
        }
        "light_client_block_proof" | "EXPERIMENTAL_light_client_block_proof" => {
            let height_of = |name: &str| {
                let hash = hash_param(params, name)?;
                chain.height_of(&hash).ok_or_else(|| {
                    RpcError::handler(
                        "UNKNOWN_BLOCK",
                        json!({ "error_message": "DB Not Found Error: BLOCK HASH" }),
                        format!("block {hash} is unknown"),
                    )
                })
            };
            let height = height_of("block_hash")?;
            let head = height_of("light_client_head")?;
            chain.block_proof(height, head).map_err(RpcError::internal)
        }
        // nearcore 0.38's proofs of spice (separate execution) chunks: the mock's chain
        // executes with its blocks, so no chunk is certified by a later one.
        "EXPERIMENTAL_light_client_chunk_execution_proof"
        | "EXPERIMENTAL_light_client_state_proof" => {
            let block = hash_param(&params["chunk_id"], "block_hash")?;
            let shard = params["chunk_id"]["shard_id"]
                .as_u64()
                .ok_or_else(|| RpcError::parse("missing field `chunk_id.shard_id`"))?;
            hash_param(params, "light_client_head")?;
            Err(not_certified(chain, block, shard))
        }
        "EXPERIMENTAL_light_client_execution_outcome_proof" => {
            let id = outcome_id(params)?;
            hash_param(params, "light_client_head")?;
            match chain.outcome(&id) {
                Some(outcome) => Err(not_certified(chain, chain.block_hash(outcome.height), 0)),
                None => Err(RpcError::handler(
                    "UNKNOWN_TRANSACTION_OR_RECEIPT",
                    json!({ "transaction_or_receipt_id": id.to_string() }),
                    format!("{id} has not been found"),
                )),
            }
        }
        "next_light_client_block" => {
            let last = hash_param(params, "last_block_hash")?;
            Ok(chain.next_light_client_block(&last))
        }
        _ => Err(RpcError::method_not_found(method)),
    }
}

/// The level `wait_until` names (`EXECUTED_OPTIMISTIC` when absent).
fn wait_until(params: &Value) -> Result<Level, RpcError> {
    match params.get("wait_until") {
        None | Some(Value::Null) => Ok(Level::ExecutedOptimistic),
        Some(value) => value.as_str().and_then(Level::parse).ok_or_else(|| {
            RpcError::parse(format!(
                "unknown variant {value} of `wait_until`, expected one of `NONE`, `INCLUDED`, \
                 `EXECUTED_OPTIMISTIC`, `INCLUDED_FINAL`, `EXECUTED`, `FINAL`"
            ))
        }),
    }
}

/// Submits `signed_tx_base64`; a refusal as nearcore words it.
fn submit(chain: &mut Chain, params: &Value) -> Result<CryptoHash, RpcError> {
    let bytes = base64_param(params, "signed_tx_base64")?;
    chain.submit(&bytes).map_err(|e| match e {
        SubmitError::Undecodable(message) => {
            RpcError::parse(format!("Failed to decode transaction: {message}"))
        }
        SubmitError::Invalid(error) => {
            let data = json!({ "TxExecutionError": { "InvalidTxError": error } });
            let info = if error.is_object() { error } else { json!({}) };
            RpcError {
                status: 200,
                error: json!({
                    "name": "HANDLER_ERROR",
                    "cause": {"name": "INVALID_TRANSACTION", "info": info},
                    "code": -32000,
                    "message": "Server error",
                    "data": data
                }),
            }
        }
        SubmitError::Unsupported(message) => RpcError::internal(message),
    })
}

fn unknown_transaction(hash: &CryptoHash) -> RpcError {
    RpcError::handler(
        "UNKNOWN_TRANSACTION",
        json!({ "requested_transaction_hash": hash.to_string() }),
        format!("Transaction {hash} doesn't exist"),
    )
}

/// The state changes of the block at `height` that `params` ask for (`changes_type`
/// with `account_ids`, `keys` or `key_prefix_base64`), as `EXPERIMENTAL_changes` answers.
fn changes_of(chain: &Chain, height: u64, params: &Value) -> Result<Vec<Value>, RpcError> {
    let kind = str_param(params, "changes_type")?;
    let ids = |name: &str| -> Result<Vec<String>, RpcError> {
        serde_json::from_value(params[name].clone())
            .map_err(|e| RpcError::parse(format!("invalid `{name}`: {e}")))
    };
    let types: &[&str] = match kind {
        "account_changes" => &["account_update", "account_deletion"],
        // A gas key's nonces go with its access key (nearcore's `AllAccessKeyChanges`).
        "single_access_key_changes" | "all_access_key_changes" => &[
            "access_key_update",
            "access_key_deletion",
            "gas_key_nonce_update",
        ],
        "data_changes" => &["data_update", "data_deletion"],
        "contract_code_changes" => &["contract_code_update", "contract_code_deletion"],
        other => {
            return Err(RpcError::parse(format!(
                "unknown variant `{other}` of `changes_type`"
            )))
        }
    };
    let wanted: Vec<(String, Option<String>)> = if kind == "single_access_key_changes" {
        params["keys"]
            .as_array()
            .ok_or_else(|| RpcError::parse("missing field `keys`"))?
            .iter()
            .map(|k| {
                let id = k["account_id"].as_str().unwrap_or_default().to_owned();
                (id, k["public_key"].as_str().map(str::to_owned))
            })
            .collect()
    } else {
        ids("account_ids")?
            .into_iter()
            .map(|id| (id, None))
            .collect()
    };
    let prefix = match params.get("key_prefix_base64").and_then(Value::as_str) {
        Some(prefix) => BASE64
            .decode(prefix)
            .map_err(|e| RpcError::parse(format!("invalid `key_prefix_base64`: {e}")))?,
        None => Vec::new(),
    };
    let block = chain.sealed(height);
    Ok(block
        .changes
        .iter()
        .filter(|c| types.contains(&c["type"].as_str().unwrap_or_default()))
        .filter(|c| {
            let change = &c["change"];
            wanted.iter().any(|(id, key)| {
                change["account_id"] == json!(id)
                    && key
                        .as_ref()
                        .is_none_or(|k| change["public_key"] == json!(k))
            })
        })
        .filter(|c| {
            c["change"]["key_base64"]
                .as_str()
                .and_then(|k| BASE64.decode(k).ok())
                .is_none_or(|k| k.starts_with(&prefix))
        })
        .cloned()
        .collect())
}

/// What the block at `height` touched, once per account and kind, as
/// `EXPERIMENTAL_changes_in_block` answers.
fn touched(chain: &Chain, height: u64) -> Vec<Value> {
    let mut touched: Vec<Value> = Vec::new();
    for change in &chain.sealed(height).changes {
        let kind = match change["type"].as_str().unwrap_or_default() {
            "account_update" | "account_deletion" => "account_touched",
            "access_key_update" | "access_key_deletion" | "gas_key_nonce_update" => {
                "access_key_touched"
            }
            "data_update" | "data_deletion" => "data_touched",
            _ => "contract_code_touched",
        };
        let entry = json!({"type": kind, "account_id": change["change"]["account_id"]});
        if !touched.contains(&entry) {
            touched.push(entry);
        }
    }
    touched
}

/// Why the mock has no execution proof of a chunk: its block is unknown, its shard is
/// not the one there is, or (the chain is not a spice chain) no block certifies it.
fn not_certified(chain: &Chain, block: CryptoHash, shard: u64) -> RpcError {
    if chain.height_of(&block).is_none() {
        return RpcError::handler(
            "UNKNOWN_BLOCK",
            json!({ "block_hash": block.to_string() }),
            format!("block {block} is unknown"),
        );
    }
    if shard != 0 {
        return RpcError::handler(
            "SHARD_NOT_TRACKED",
            json!({ "shard_id": shard }),
            format!("shard {shard} is not tracked"),
        );
    }
    RpcError::handler(
        "CHUNK_NOT_CERTIFIED",
        json!({ "chunk_id": { "block_hash": block.to_string(), "shard_id": shard } }),
        format!("the chunk of shard {shard} in block {block} is not certified"),
    )
}

fn unknown_receipt(id: &CryptoHash) -> RpcError {
    RpcError::handler(
        "UNKNOWN_RECEIPT",
        json!({ "receipt_id": id.to_string() }),
        format!("Receipt {id} is not found"),
    )
}

fn chunk(chain: &Chain, params: &Value) -> Answer {
    let height = if let Some(id) = params.get("chunk_id") {
        let hash: CryptoHash = id
            .as_str()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| RpcError::parse("invalid `chunk_id`"))?;
        (GENESIS_HEIGHT..=chain.head)
            .find(|&h| chain.chunk_header(h)["chunk_hash"] == json!(hash.to_string()))
            .ok_or_else(|| {
                RpcError::handler(
                    "UNKNOWN_CHUNK",
                    json!({ "chunk_hash": hash.to_string() }),
                    format!("Chunk Missing (unavailable on the node): {hash}"),
                )
            })?
    } else {
        // The block first, then its shard, as nearcore looks them up.
        let height = block_height(chain, params)?;
        let shard = params["shard_id"].as_u64();
        if shard != Some(0) {
            return Err(RpcError::handler(
                "INVALID_SHARD_ID",
                json!({ "shard_id": shard.unwrap_or(u64::MAX) }),
                "Shard id does not exist",
            ));
        }
        height
    };
    let transactions: Vec<Value> = chain
        .transactions
        .iter()
        .filter(|t| t.height() == Some(height))
        .map(|t| t.signed_view.clone())
        .collect();
    // The receipts the chunk executes that came from another block (local ones, to the
    // signer, execute where their transaction is and travel in no chunk).
    let receipts: Vec<Value> = chain
        .transactions
        .iter()
        .flat_map(|t| {
            t.receipts.iter().enumerate().filter(move |(n, _)| {
                t.outcome(&t.receipt_id(*n))
                    .is_some_and(|o| o.height == height && t.height() != Some(height))
            })
        })
        .map(|(_, r)| r.clone())
        .collect();
    Ok(json!({
        "author": crate::chain::VALIDATOR,
        "header": chain.chunk_header(height),
        "transactions": transactions,
        "receipts": receipts
    }))
}

fn tx_status(chain: &Chain, params: &Value, with_receipts: bool) -> Result<Wait, RpcError> {
    let level = wait_until(params)?;
    // nearcore reads the two forms as an untagged enum: a signed transaction that does
    // not decode leaves the hash and sender, when they are there too.
    let signed = params.get("signed_tx_base64").map(|_| {
        base64_param(params, "signed_tx_base64").and_then(|bytes| {
            SignedTransaction::from_borsh(&bytes)
                .map_err(|e| RpcError::parse(format!("Failed to decode transaction: {e}")))
        })
    });
    let by_id = params.get("tx_hash").is_some() && params.get("sender_account_id").is_some();
    let (hash, sender) = if let Some(signed) = signed.filter(|s| s.is_ok() || !by_id) {
        let signed = signed?;
        (signed.hash(), signed.transaction().signer_id().to_string())
    } else {
        (
            hash_param(params, "tx_hash")?,
            str_param(params, "sender_account_id")?.to_owned(),
        )
    };
    match chain.transaction(&hash) {
        Some(tx) if tx.signer == sender => Ok(Wait {
            hash,
            level,
            receipts: with_receipts,
        }),
        _ => Err(unknown_transaction(&hash)),
    }
}

/// The transaction or receipt a proof request names.
fn outcome_id(params: &Value) -> Result<CryptoHash, RpcError> {
    params
        .get("transaction_hash")
        .or_else(|| params.get("receipt_id"))
        .and_then(Value::as_str)
        .and_then(|s| s.parse::<CryptoHash>().ok())
        .ok_or_else(|| RpcError::parse("`transaction_hash` or `receipt_id` is required"))
}

fn light_client_proof(chain: &Chain, params: &Value) -> Answer {
    let id = outcome_id(params)?;
    let head = params
        .get("light_client_head")
        .and_then(Value::as_str)
        .and_then(|s| s.parse::<CryptoHash>().ok())
        .and_then(|h| chain.height_of(&h))
        .unwrap_or(chain.head);
    chain.execution_proof(&id, head).map_err(|name| {
        RpcError::handler(
            name,
            json!({ "transaction_or_receipt_id": id.to_string() }),
            match name {
                "NOT_CONFIRMED" => format!("{id} is not in a block before the light client head"),
                _ => format!("{id} has not been found"),
            },
        )
    })
}

/// `query`: the request type picks the view; nearcore answers a failed view call and an
/// unknown access key inside the result (`{"error": .., "logs": []}`), as it always has.
fn query(chain: &mut Chain, params: &Value) -> Answer {
    let kind = str_param(params, "request_type")?;
    match kind {
        "view_account"
        | "view_code"
        | "view_state"
        | "view_access_key"
        | "view_access_key_list"
        | "view_gas_key_nonces"
        | "call_function" => {}
        other => {
            return Err(RpcError::parse(format!(
                "unknown variant `{other}` of `request_type`"
            )))
        }
    }
    let height = block_height(chain, params)?;
    match view_at(chain, params, kind, height) {
        Err(ViewError::InResult(message, _)) => Ok(at_block(
            chain,
            height,
            json!({ "error": message, "logs": [] }),
        )),
        Err(ViewError::Rpc(e)) => Err(e),
        Ok(view) => Ok(view),
    }
}

/// `EXPERIMENTAL_view_*` and `EXPERIMENTAL_call_function`: the same views, every failure
/// a typed handler error.
fn view(chain: &mut Chain, params: &Value, kind: &str) -> Answer {
    let height = block_height(chain, params)?;
    view_at(chain, params, kind, height).map_err(|e| match e {
        ViewError::Rpc(e) => e,
        ViewError::InResult(message, Value::Null) => {
            let info = json!({
                "public_key": params["public_key"],
                "block_height": height,
                "block_hash": chain.block_hash(height).to_string()
            });
            RpcError::handler("UNKNOWN_ACCESS_KEY", info, message)
        }
        ViewError::InResult(message, vm_error) => {
            let info = json!({
                "vm_error": vm_error,
                "block_height": height,
                "block_hash": chain.block_hash(height).to_string()
            });
            RpcError::handler("CONTRACT_EXECUTION_ERROR", info, message)
        }
    })
}

enum ViewError {
    Rpc(RpcError),
    /// A failure nearcore's `query` reports inside the result: the text, and the
    /// `FunctionCallError` the typed methods report.
    InResult(String, Value),
}

impl From<RpcError> for ViewError {
    fn from(e: RpcError) -> Self {
        Self::Rpc(e)
    }
}

fn view_at(chain: &Chain, params: &Value, kind: &str, height: u64) -> Result<Value, ViewError> {
    let account_id = account_param(params, "account_id")?;
    let Some(account) = chain.account(account_id) else {
        return Err(RpcError::handler(
            "UNKNOWN_ACCOUNT",
            account_info(chain, height, account_id),
            format!("account {account_id} does not exist while viewing"),
        )
        .into());
    };
    let no_code = || {
        ViewError::Rpc(RpcError::handler(
            "NO_CONTRACT_CODE",
            json!({
                "contract_account_id": account_id,
                "block_height": height,
                "block_hash": chain.block_hash(height).to_string()
            }),
            format!(
                "Contract code for contract ID #{account_id} has never been observed on the node"
            ),
        ))
    };
    let view = match kind {
        "view_account" => chain.account_view(account),
        "view_code" => {
            let Some(code) = &account.code else {
                return Err(no_code());
            };
            json!({ "code_base64": crate::chain::b64(code), "hash": account.code_hash().to_string() })
        }
        "view_state" => {
            let prefix = BASE64
                .decode(params["prefix_base64"].as_str().unwrap_or(""))
                .map_err(|e| RpcError::parse(format!("invalid `prefix_base64`: {e}")))?;
            let size: usize = account
                .state
                .iter()
                .filter(|(k, _)| k.starts_with(&prefix))
                .map(|(k, v)| k.len() + v.len())
                .sum();
            if size > STATE_VIEW_LIMIT {
                return Err(ViewError::Rpc(RpcError::handler(
                    "TOO_LARGE_CONTRACT_STATE",
                    json!({
                        "contract_account_id": account_id,
                        "block_height": height,
                        "block_hash": chain.block_hash(height).to_string()
                    }),
                    format!("State of contract {account_id} is too large to be viewed"),
                )));
            }
            chain.state(account, &prefix)
        }
        "view_access_key" => {
            let key = str_param(params, "public_key")?;
            match account
                .keys
                .iter()
                .find(|k| k.public_key.to_string() == key)
            {
                Some(k) => chain.access_key_view(k),
                None => {
                    let message = format!("access key {key} does not exist while viewing");
                    return Err(ViewError::InResult(message, Value::Null));
                }
            }
        }
        "view_gas_key_nonces" => {
            // nearcore's `GasKeyNoncesView`; a key that is missing or no gas key is
            // `UNKNOWN_GAS_KEY` (`state_viewer`'s `view_gas_key_nonces`).
            let key = str_param(params, "public_key")?;
            match account
                .keys
                .iter()
                .find(|k| k.public_key.to_string() == key)
                .and_then(|k| k.gas_key.as_ref())
            {
                Some(gas) => json!({ "nonces": gas.nonces }),
                None => {
                    return Err(ViewError::Rpc(RpcError::handler(
                        "UNKNOWN_GAS_KEY",
                        json!({
                            "public_key": key,
                            "block_height": height,
                            "block_hash": chain.block_hash(height).to_string()
                        }),
                        format!("Gas key {key} does not exist while viewing"),
                    )))
                }
            }
        }
        "view_access_key_list" => {
            // nearcore 0.38 pages the list when asked to (`limit`, after the cursor
            // `after_key`, a key the page before ended at); the cursor is the key.
            let after = params["after_key"].as_str();
            let limit = match &params["limit"] {
                Value::Null => usize::MAX,
                limit => limit
                    .as_u64()
                    .and_then(|l| usize::try_from(l).ok())
                    .ok_or_else(|| RpcError::parse("`limit` is not a count"))?,
            };
            let mut keys: Vec<&crate::chain::Key> = account.keys.iter().collect();
            keys.sort_by_key(|k| k.public_key.to_string());
            let start = match after {
                Some(cursor) => keys
                    .iter()
                    .position(|k| k.public_key.to_string() == cursor)
                    .map(|i| i + 1)
                    .ok_or_else(|| RpcError::parse(format!("unknown `after_key` {cursor}")))?,
                None if params["limit"].is_null() => {
                    // Unpaged, in the account's own order, as nodes before 0.38 answer.
                    keys = account.keys.iter().collect();
                    0
                }
                None => 0,
            };
            let page: Vec<Value> = keys
                .iter()
                .skip(start)
                .take(limit)
                .map(|k| {
                    json!({
                        "public_key": k.public_key.to_string(),
                        "access_key": chain.access_key_view(k)
                    })
                })
                .collect();
            let mut list = json!({ "keys": page });
            let shown = start.saturating_add(limit.min(keys.len()));
            if shown < keys.len() {
                if let Some(last) = keys.get(shown.saturating_sub(1)) {
                    list["last_key"] = json!(last.public_key.to_string());
                }
            }
            list
        }
        "call_function" => {
            if account.code.is_none() {
                return Err(no_code());
            }
            let method = str_param(params, "method_name")?;
            let args = base64_param(params, "args_base64")?;
            let (result, logs) = chain
                .view_call(account, method, &args)
                .map_err(|(message, error)| ViewError::InResult(message, error))?;
            json!({ "result": result, "logs": logs })
        }
        _ => unreachable_kind(kind)?,
    };
    Ok(at_block(chain, height, view))
}

fn unreachable_kind(kind: &str) -> Result<Value, ViewError> {
    Err(RpcError::internal(format!("no view `{kind}`")).into())
}
