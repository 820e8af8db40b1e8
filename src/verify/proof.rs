//! Execution proofs (`light_client_proof`): an outcome, checked step by step up to a
//! block Merkle root the caller trusts, as nearcore's `neard verify-proof` checks it.
//!
//! 1. **outcome hash**: `sha256(borsh([id, sha256(borsh(partial outcome)), sha256(log)...]))`,
//!    the partial outcome being the receipt ids, gas and tokens burnt, executor and
//!    status (a failure's details and the metadata are not hashed, as in nearcore);
//! 2. **outcome proof**: its path from that hash to the chunk's outcome root;
//! 3. **outcome root proof**: its path from `sha256(chunk outcome root)` to the block's
//!    `outcome_root`, which must be the lite header's;
//! 4. **block hash**: the lite header's hash must be the outcome's `block_hash`;
//! 5. **block proof**: its path from the block hash must reach the trusted root.
//!
//! Not checked, because nothing in the answer fixes it: the leaves' positions. nearcore
//! checks none on these paths either: an outcome's index in its chunk and a block's
//! ordinal (inside the header's hidden `inner_rest`) are not in the proof. What binds
//! the leaves is their preimages: an outcome leaf is a hash of a list of hashes, a block
//! leaf a block hash, so no inner node of another shape can stand in for one.

use std::fmt;

use super::header;
use super::merkle::{root_from_path, PathError};
use crate::primitives::CryptoHash;
use crate::tx::borsh_writer;
use crate::types::{
    ExecutionOutcomeWithIdView, ExecutionStatusView, RpcLightClientExecutionProofResponse,
};

/// The step of an execution proof's check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProofStep {
    /// Hashing the outcome.
    OutcomeHash,
    /// The outcome's path to its chunk's outcome root.
    OutcomeProof,
    /// The chunk's outcome root's path to the header's `outcome_root`.
    OutcomeRootProof,
    /// The lite header's hash against the outcome's `block_hash`.
    BlockHash,
    /// The block's path to the trusted block Merkle root.
    BlockProof,
}

impl fmt::Display for ProofStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::OutcomeHash => "outcome hash",
            Self::OutcomeProof => "outcome proof",
            Self::OutcomeRootProof => "outcome root proof",
            Self::BlockHash => "block hash",
            Self::BlockProof => "block proof",
        })
    }
}

/// An execution proof that does not verify: the step, and what it found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofError {
    /// Where it failed.
    pub step: ProofStep,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} does not verify: {}", self.step, self.message)
    }
}

impl std::error::Error for ProofError {}

fn fail(step: ProofStep, message: impl Into<String>) -> ProofError {
    ProofError {
        step,
        message: message.into(),
    }
}

fn walk(
    step: ProofStep,
    field: &str,
    path: &[crate::types::MerklePathItem],
    leaf: CryptoHash,
) -> Result<CryptoHash, ProofError> {
    root_from_path(path, leaf).map_err(|e| match e {
        PathError::UnknownDirection(i) => {
            fail(step, format!("{field}[{i}] has an unknown direction"))
        }
        PathError::TooLong(n) => fail(step, format!("{field} has {n} items, more than any tree")),
    })
}

/// What a verified proof vouches for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedOutcome {
    /// The transaction's or receipt's id whose outcome it is.
    pub id: CryptoHash,
    /// The block whose header the proof goes through (nearcore's `outcome_proof.block_hash`:
    /// the first block with a new chunk after the one the outcome executed in, so not the
    /// `block_hash` a transaction status shows).
    pub block_hash: CryptoHash,
    /// That block's height.
    pub block_height: u64,
    /// The outcome's hash (the leaf).
    pub outcome_hash: CryptoHash,
}

/// The outcome's leaf hash (step 1).
pub fn outcome_hash(
    proof: &RpcLightClientExecutionProofResponse,
) -> Result<CryptoHash, ProofError> {
    outcome_leaf(&proof.outcome_proof)
}

/// The leaf hash of an outcome as a node shows it (in a proof or in a transaction's
/// status): `sha256(borsh([id, sha256(borsh(partial outcome)), sha256(log)...]))`.
pub fn outcome_leaf(with_id: &ExecutionOutcomeWithIdView) -> Result<CryptoHash, ProofError> {
    let outcome = &with_id.outcome;
    let mut partial = borsh_writer();
    partial.len(outcome.receipt_ids.len());
    for id in &outcome.receipt_ids {
        partial.fixed(&id.0);
    }
    partial.u64(outcome.gas_burnt.as_gas());
    partial.u128(outcome.tokens_burnt.as_yoctonear());
    partial.string(outcome.executor_id.as_str());
    match &outcome.status {
        ExecutionStatusView::Unknown => partial.u8(0),
        ExecutionStatusView::Failure(_) => partial.u8(1),
        ExecutionStatusView::SuccessValue(value) => {
            let bytes = crate::types::FunctionArgs(value.clone())
                .to_bytes()
                .map_err(|e| {
                    fail(
                        ProofStep::OutcomeHash,
                        format!("outcome.status.SuccessValue: {e}"),
                    )
                })?;
            partial.u8(2);
            partial.bytes(&bytes);
        }
        ExecutionStatusView::SuccessReceiptId(id) => {
            partial.u8(3);
            partial.fixed(&id.0);
        }
        _ => {
            return Err(fail(
                ProofStep::OutcomeHash,
                "outcome.status is a variant these bindings do not know, so it cannot be hashed",
            ))
        }
    }
    let mut hashes = vec![with_id.id, CryptoHash::hash_bytes(&partial.into_bytes())];
    hashes.extend(
        outcome
            .logs
            .iter()
            .map(|log| CryptoHash::hash_bytes(log.as_bytes())),
    );
    let mut list = borsh_writer();
    list.len(hashes.len());
    for hash in &hashes {
        list.fixed(&hash.0);
    }
    Ok(CryptoHash::hash_bytes(&list.into_bytes()))
}

/// Verifies an execution proof against `block_merkle_root`, the Merkle root of the
/// blocks in the header of the light-client head the proof was asked against (its
/// `inner_lite.block_merkle_root`). Every step is checked; the first that fails is
/// named.
pub fn verify_execution_proof(
    proof: &RpcLightClientExecutionProofResponse,
    block_merkle_root: &CryptoHash,
) -> Result<VerifiedOutcome, ProofError> {
    let leaf = outcome_hash(proof)?;
    let chunk_root = walk(
        ProofStep::OutcomeProof,
        "outcome_proof.proof",
        &proof.outcome_proof.proof,
        leaf,
    )?;
    let header = &proof.block_header_lite;
    let outcome_root = walk(
        ProofStep::OutcomeRootProof,
        "outcome_root_proof",
        &proof.outcome_root_proof,
        CryptoHash::hash_bytes(&chunk_root.0),
    )?;
    if outcome_root != header.inner_lite.outcome_root {
        // The outcome's own path cannot be told apart from the root's: either may be
        // wrong, and the outcome root proof is where they meet.
        return Err(fail(
            ProofStep::OutcomeRootProof,
            format!(
                "the outcome leads to outcome root {outcome_root}, the header has {}",
                header.inner_lite.outcome_root
            ),
        ));
    }
    let block_hash = header::block_hash(
        &header.inner_lite,
        &header.inner_rest_hash,
        &header.prev_block_hash,
    )
    .map_err(|e| fail(ProofStep::BlockHash, e))?;
    if block_hash != proof.outcome_proof.block_hash {
        return Err(fail(
            ProofStep::BlockHash,
            format!(
                "the header hashes to {block_hash}, the outcome names block {}",
                proof.outcome_proof.block_hash
            ),
        ));
    }
    let root = walk(
        ProofStep::BlockProof,
        "block_proof",
        &proof.block_proof,
        block_hash,
    )?;
    if root != *block_merkle_root {
        return Err(fail(
            ProofStep::BlockProof,
            format!("the block leads to root {root}, not the trusted {block_merkle_root}"),
        ));
    }
    Ok(VerifiedOutcome {
        id: proof.outcome_proof.id,
        block_hash,
        block_height: header.inner_lite.height,
        outcome_hash: leaf,
    })
}
