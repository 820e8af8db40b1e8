//! `verify proof` and `verify light-client-block`: a node's answer, saved in a file,
//! checked against a root or head the user trusts (`near_rpc::verify`). Exit 6 when it
//! does not verify, with the failed step on stderr.

use std::path::Path;

use near_rpc::verify::{self, LightClientHead};
use near_rpc::CryptoHash;
use serde_json::{json, Value};

use crate::output::{describe_decode_error, write_stdout, Failure, EXIT_DECODE, EXIT_UNVERIFIED};

/// The JSON of FILE: unreadable or not JSON is a usage error (2).
fn json_file(path: &Path, what: &str) -> Result<Value, Failure> {
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::usage(format!("cannot read {what} {}: {e}", path.display())))?;
    let value = serde_json::from_slice(&bytes)
        .map_err(|e| Failure::usage(format!("{what} {} is not JSON: {e}", path.display())))?;
    // serde_json kept the last of a repeated key: what was verified would not be all
    // the file says.
    near_rpc::decode::check_unique_keys(&bytes)
        .map_err(|e| Failure::usage(format!("{what} {}: {e}", path.display())))?;
    Ok(value)
}

fn undecodable(what: &str, path: &Path, error: &near_rpc::decode::DecodeError) -> Failure {
    Failure::new(
        EXIT_DECODE,
        format!("{what} {} {}", path.display(), describe_decode_error(error)),
    )
}

/// `verify proof FILE --block-merkle-root HASH`.
pub fn proof(file: &Path, block_merkle_root: &CryptoHash) -> Result<(), Failure> {
    let proof = verify::execution_proof_from_json(json_file(file, "the proof")?)
        .map_err(|e| undecodable("the proof", file, &e))?;
    let verified = verify::verify_execution_proof(&proof, block_merkle_root).map_err(|e| {
        Failure::new(
            EXIT_UNVERIFIED,
            format!("the proof {}: {e}", file.display()),
        )
    })?;
    let line = json!({
        "verified": true,
        "outcome_id": verified.id.to_string(),
        "block_hash": verified.block_hash.to_string(),
        "block_height": verified.block_height,
    });
    write_stdout(&format!("{line}\n"))
}

/// `verify light-client-block FILE --trusted-head HEAD_FILE`.
pub fn light_client_block(file: &Path, trusted_head: &Path) -> Result<(), Failure> {
    let head = verify::light_client_block_from_json(json_file(trusted_head, "the trusted head")?)
        .map_err(|e| undecodable("the trusted head", trusted_head, &e))?;
    let block = verify::light_client_block_from_json(json_file(file, "the block")?)
        .map_err(|e| undecodable("the block", file, &e))?;
    let header = match (&head.inner_lite, head.inner_rest_hash, head.prev_block_hash) {
        (Some(inner_lite), Some(inner_rest_hash), Some(prev_block_hash)) => {
            near_rpc::types::LightClientBlockLiteView {
                inner_lite: inner_lite.clone(),
                inner_rest_hash,
                prev_block_hash,
            }
        }
        _ => {
            return Err(Failure::usage(format!(
                "the trusted head {} is not a whole light-client block",
                trusted_head.display()
            )))
        }
    };
    // The file is the trust: its own hash is the head's.
    let hash = verify::block_hash(&header)
        .map_err(|e| Failure::usage(format!("the trusted head {}: {e}", trusted_head.display())))?;
    let head = LightClientHead::from_block(&head, &hash)
        .map_err(|e| Failure::usage(format!("the trusted head {}: {e}", trusted_head.display())))?;
    let next = head.validate(&block).map_err(|e| {
        Failure::new(
            EXIT_UNVERIFIED,
            format!("the block {}: {e}", file.display()),
        )
    })?;
    let line = json!({
        "valid": true,
        "block_hash": next.hash().to_string(),
        "height": next.height(),
    });
    write_stdout(&format!("{line}\n"))
}
