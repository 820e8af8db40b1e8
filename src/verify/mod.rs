//! Verified reads (feature `verify`, on with `client`): what an RPC node answers,
//! checked against a root or a head the caller trusts, instead of believed.
//!
//! - [`verify_execution_proof`]: a `light_client_proof` answer (a transaction's or
//!   receipt's outcome with Merkle paths) against a trusted block Merkle root, every step
//!   checked as nearcore's `neard verify-proof` checks it; a failure names the step
//!   ([`ProofStep`]).
//! - [`LightClientHead`]: a trusted block and its epoch's successors' block producers;
//!   [`LightClientHead::validate`] checks a `next_light_client_block` answer as its
//!   successor (heights, epochs, every approval's signature, more than 2/3 of the stake,
//!   the next producers' hash) and [`LightClientHead::advance`] moves to it. A head is
//!   stored and restored as JSON.
//!
//! What a verified answer guarantees: that the chain's block producers (more than 2/3
//! of the stake of each epoch followed from the trusted head) signed a chain containing
//! the block, and that the block's outcome root contains exactly this outcome. What it
//! does not: anything a proof does not cover, such as a view call's result, an account's
//! balance or the receipts' own outcomes (each needs its own proof), and it cannot tell
//! a node that withholds an answer. The leaves' positions in their trees are not checked
//! (see [`verify_execution_proof`]).
//!
//! State is not checked. For a `view_state` proof (`include_proof`) at block B the parts
//! exist: a header's `prev_state_root` is the Merkle root over every chunk's
//! `prev_state_root` (nearcore's `Block::compute_state_root`), a `block` answer lists
//! those, and a light-client proof's `block_proof` (or a head) authenticates the header.
//! What is missing is decoding nearcore's trie nodes and walking them from a shard's root
//! to the key, and taking the right root: a chunk's `prev_state_root` is the state
//! before it, so the state after block B is the `prev_state_root` of that shard's next
//! chunk, in a later block. nearcore 0.38's `EXPERIMENTAL_light_client_state_proof` is
//! not checked either: it is for spice chains, where the chain goes `roots` (a chunk's
//! `ChunkExecutionRoots`) by `roots_proof` to the certifying header's
//! `chunk_execution_root`, that header by `certifying_block_proof` to the head's block
//! Merkle root, then the trie nodes to `roots.state_root`. That header is of the second
//! version, whose hash these bindings do not compute, and nodes without spice (all of
//! mainnet today) answer `CHUNK_NOT_CERTIFIED`, so there are no real answers to test on.
//!
//! ```
//! use near_rpc::verify;
//!
//! # fn run(answer: serde_json::Value, root: near_rpc::CryptoHash) -> Result<(), Box<dyn std::error::Error>> {
//! let proof = verify::execution_proof_from_json(answer)?; // an envelope or a bare result
//! let verified = verify::verify_execution_proof(&proof, &root)?;
//! println!("outcome {} in block {}", verified.id, verified.block_hash);
//! # Ok(()) }
//! ```

mod header;
mod light_client;
mod merkle;
mod proof;

pub use light_client::{producers_hash, BlockError, BlockStep, LightClientHead};
pub use merkle::MAX_PATH_LEN;
pub use proof::{
    outcome_hash, outcome_leaf, verify_execution_proof, ProofError, ProofStep, VerifiedOutcome,
};

use crate::de::decode::DecodeError;
use crate::primitives::CryptoHash;
use crate::types::{
    LightClientBlockLiteView, RpcLightClientExecutionProofResponse, RpcLightClientNextBlockResponse,
};

/// `sha256(a ‖ b)`: how nearcore combines two hashes (Merkle nodes, block hashes).
pub fn combine_hash(a: &CryptoHash, b: &CryptoHash) -> CryptoHash {
    merkle::combine(a, b)
}

/// A lite header's inner hash (`sha256(sha256(borsh(inner_lite)) ‖ inner_rest_hash)`),
/// as a light-client block's `next_block_inner_hash` gives it for the next block.
pub fn inner_hash(header: &LightClientBlockLiteView) -> Result<CryptoHash, String> {
    header::inner_hash(&header.inner_lite, &header.inner_rest_hash)
}

/// The hash of the block a lite header describes.
pub fn block_hash(header: &LightClientBlockLiteView) -> Result<CryptoHash, String> {
    header::block_hash(
        &header.inner_lite,
        &header.inner_rest_hash,
        &header.prev_block_hash,
    )
}

/// An execution proof from JSON: a JSON-RPC envelope or its bare `result`. Proofs of
/// nodes from before 2022 (a `timestamp` string, no `timestamp_nanosec`) are read too.
pub fn execution_proof_from_json(
    value: serde_json::Value,
) -> Result<RpcLightClientExecutionProofResponse, DecodeError> {
    let value = normalized(value);
    refuse_v2_headers(&value, "")?;
    crate::de::decode::from_value(value)
}

/// A light-client block (`next_light_client_block`'s result) from JSON: an envelope or
/// the bare result, old timestamps read as in [`execution_proof_from_json`].
pub fn light_client_block_from_json(
    value: serde_json::Value,
) -> Result<RpcLightClientNextBlockResponse, DecodeError> {
    let value = normalized(value);
    refuse_v2_headers(&value, "")?;
    crate::de::decode::from_value(value)
}

/// Headers of nearcore 0.38 and later with a `chunk_execution_root` hash it too, in a
/// layout these bindings do not reproduce: their block hash would come out wrong, and
/// every check after it fail for a reason that is not the real one. Refused by name
/// instead. The bindings before `nearcore_0_38_0` drop the field when decoding, so it is
/// looked for here, in the JSON; the `nearcore_0_38_0` bindings keep it, and hashing a
/// typed header that has one refuses it with the same message (`header::V2_HEADER`).
fn refuse_v2_headers(value: &serde_json::Value, at: &str) -> Result<(), DecodeError> {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let path = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                if key == "inner_lite"
                    && inner
                        .get("chunk_execution_root")
                        .is_some_and(|v| !v.is_null())
                {
                    return Err(DecodeError::new(
                        format!("{path}.chunk_execution_root"),
                        header::V2_HEADER.to_owned(),
                    ));
                }
                refuse_v2_headers(inner, &path)?;
            }
            Ok(())
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| refuse_v2_headers(item, &format!("{at}[{i}]"))),
        _ => Ok(()),
    }
}

/// The result of an envelope (or the value itself), with every `inner_lite` given the
/// `timestamp_nanosec` old nodes did not send, from their `timestamp`.
fn normalized(mut value: serde_json::Value) -> serde_json::Value {
    if value.get("jsonrpc").is_some() {
        if let Some(result) = value.get_mut("result") {
            value = result.take();
        }
    }
    legacy_timestamps(&mut value);
    value
}

fn legacy_timestamps(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            if let Some(Value::Object(inner)) = map.get_mut("inner_lite") {
                if !inner.contains_key("timestamp_nanosec") {
                    let nanos = match inner.get("timestamp") {
                        Some(Value::String(text)) => Some(text.clone()),
                        Some(Value::Number(n)) if n.is_u64() => Some(n.to_string()),
                        _ => None,
                    };
                    if let Some(nanos) = nanos {
                        if let Ok(number) = nanos.parse::<u64>() {
                            inner.insert("timestamp".into(), Value::from(number));
                        }
                        inner.insert("timestamp_nanosec".into(), Value::String(nanos));
                    }
                }
            }
            map.values_mut().for_each(legacy_timestamps);
        }
        Value::Array(items) => items.iter_mut().for_each(legacy_timestamps),
        _ => {}
    }
}
