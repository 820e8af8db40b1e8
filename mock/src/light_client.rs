//! The mock chain as a light client sees it: block hashes computed from light-client
//! headers as nearcore computes them, outcome roots over the outcomes of each block, a
//! block Merkle tree, light-client blocks approved by the validator's real key, and
//! execution proofs with real Merkle paths, so that `near_rpc::verify` accepts them.
//!
//! Simplifications, each consistent with what the mock answers elsewhere: one shard
//! (a block's outcome root is `sha256` of its one chunk's), one epoch (every block's),
//! one block producer, and an outcome proven through the header of the block it is in.

use near_rpc::types::{
    BlockHeaderInnerLiteView, Direction, LightClientBlockLiteView, MerklePathItem,
    ValidatorStakeView, ValidatorStakeViewV1,
};
use near_rpc::verify;
use near_rpc::verify::combine_hash as combine;
use near_rpc::{CryptoHash, NearToken};

use crate::block_tree::BlockTree;
use serde_json::{json, Value};

use crate::chain::{
    hash, public_key, secret_key, Chain, Outcome, SealedBlock, GENESIS_HEIGHT, VALIDATOR,
};

/// The validator's stake, as `validators` shows it.
const STAKE: u128 = 500 * 1_000_000_000_000_000_000_000_000;

/// The block producers of every epoch: the validator alone.
pub fn block_producers() -> Vec<ValidatorStakeView> {
    vec![ValidatorStakeView::V1(ValidatorStakeViewV1 {
        account_id: VALIDATOR.parse().expect("a valid account id"),
        public_key: public_key(VALIDATOR),
        stake: NearToken::from_yoctonear(STAKE),
    })]
}

/// The hash of [`block_producers`], every block's `next_bp_hash` (computed once in
/// [`header_template`]: deriving the validator's key would be most of what sealing a
/// block costs).
fn next_bp_hash() -> CryptoHash {
    verify::producers_hash(&block_producers()).expect("V1 producers")
}

/// What every block's light-client header shares (epochs, producers), the rest at
/// zero. Read from JSON, once: newer bindings' header has fields a pre-spice chain
/// leaves out (`chunk_execution_root`), which a struct literal would have to name.
fn header_template() -> &'static BlockHeaderInnerLiteView {
    static HEADER: std::sync::OnceLock<BlockHeaderInnerLiteView> = std::sync::OnceLock::new();
    HEADER.get_or_init(|| {
        let zero = CryptoHash([0; 32]);
        near_rpc::decode::from_value(json!({
            "block_merkle_root": zero,
            "epoch_id": epoch_id(),
            "height": 0,
            "next_bp_hash": next_bp_hash(),
            "next_epoch_id": next_epoch_id(),
            "outcome_root": zero,
            "prev_state_root": zero,
            "timestamp": 0,
            "timestamp_nanosec": "0",
        }))
        .expect("the mock's header decodes")
    })
}

/// The epoch every block is in.
pub fn epoch_id() -> CryptoHash {
    CryptoHash([0; 32])
}

/// The epoch after it (never reached).
pub fn next_epoch_id() -> CryptoHash {
    hash("epoch 2")
}

/// The root of a Merkle tree over `leaves` (nearcore's shape: pairs combined level by
/// level, an odd last node carried up), and the path of leaf `index` if asked.
fn merkle(leaves: &[CryptoHash], index: Option<usize>) -> (CryptoHash, Vec<MerklePathItem>) {
    if leaves.is_empty() {
        return (CryptoHash([0; 32]), Vec::new());
    }
    let mut level = leaves.to_vec();
    let mut at = index;
    let mut path = Vec::new();
    while level.len() > 1 {
        if let Some(i) = at {
            let sibling = i ^ 1;
            if sibling < level.len() {
                path.push(MerklePathItem {
                    direction: if sibling < i {
                        Direction::Left
                    } else {
                        Direction::Right
                    },
                    hash: level[sibling],
                });
            }
            at = Some(i / 2);
        }
        level = level
            .chunks(2)
            .map(|pair| match pair {
                [a, b] => combine(a, b),
                [a] => *a,
                _ => unreachable!("chunks of two"),
            })
            .collect();
    }
    (level[0], path)
}

/// An outcome's Merkle leaf as nearcore hashes it, or why it has none (an outcome
/// read from a saved chain may not decode).
pub(crate) fn leaf(outcome: &Outcome) -> Result<CryptoHash, String> {
    let mut view = outcome.to_json();
    view["block_hash"] = json!(CryptoHash([0; 32]).to_string());
    let view = near_rpc::decode::from_value(view).map_err(|e| e.to_string())?;
    verify::outcome_leaf(&view).map_err(|e| e.to_string())
}

impl Chain {
    /// The Merkle leaf of an outcome of the block being produced.
    pub(crate) fn add_leaf(&mut self, outcome: &Outcome) {
        let leaf = leaf(outcome).expect("the mock's own outcome hashes");
        self.producing.push((outcome.id, leaf));
    }

    /// Seals the block at `height` (the next one) with the outcomes recorded for it:
    /// its outcome root, its place in the block Merkle tree, its hash.
    pub(crate) fn seal_block(&mut self, height: u64) {
        let leaves = std::mem::take(&mut self.producing);
        let changes = std::mem::take(&mut self.changing);
        let only: Vec<CryptoHash> = leaves.iter().map(|(_, l)| *l).collect();
        let outcome_root = CryptoHash::hash_bytes(&merkle(&only, None).0 .0);
        let prev = self.blocks.last().map_or(CryptoHash([0; 32]), |b| b.hash);
        let timestamp = self.timestamp(height);
        let mut inner_lite = header_template().clone();
        inner_lite.block_merkle_root = self.block_tree.root();
        inner_lite.height = height;
        inner_lite.outcome_root = outcome_root;
        inner_lite.prev_state_root = hash(&format!("state root {}", height.saturating_sub(1)));
        inner_lite.timestamp = timestamp;
        inner_lite.timestamp_nanosec = timestamp.to_string();
        let lite = LightClientBlockLiteView {
            inner_lite,
            inner_rest_hash: hash(&format!("inner rest {height}")),
            prev_block_hash: prev,
        };
        let hash = verify::block_hash(&lite).expect("the mock's timestamps are numbers");
        self.block_tree.push(hash);
        self.blocks.push(SealedBlock {
            hash,
            lite,
            leaves,
            changes,
        });
    }

    /// Forgets every block (a saved chain seals its own again).
    pub(crate) fn clear_blocks(&mut self) {
        self.blocks.clear();
        self.block_tree = BlockTree::default();
    }

    /// The block at `height` (genesis below it, the head above it).
    pub(crate) fn sealed(&self, height: u64) -> &SealedBlock {
        let index = height.saturating_sub(GENESIS_HEIGHT) as usize;
        &self.blocks[index.min(self.blocks.len() - 1)]
    }

    /// The hashes of the blocks from genesis to `height`, in order.
    fn block_hashes(&self, height: u64) -> Vec<CryptoHash> {
        let count = (height.saturating_sub(GENESIS_HEIGHT) as usize + 1).min(self.blocks.len());
        self.blocks[..count].iter().map(|b| b.hash).collect()
    }

    /// The light-client header of the block at `height`.
    pub(crate) fn lite_at(&self, height: u64) -> LightClientBlockLiteView {
        self.sealed(height).lite.clone()
    }

    /// `next_light_client_block` from the block `last`: the latest final block, if it is
    /// newer, with the validator's approval of the block after next; else `{}`.
    pub fn next_light_client_block(&self, last: &CryptoHash) -> Value {
        let Some(final_height) = self.height_at("final") else {
            return json!({});
        };
        let known = self.height_of(last).unwrap_or(0);
        if final_height <= known || final_height + 1 > self.head {
            return json!({});
        }
        let lite = self.lite_at(final_height);
        let hash = self.block_hash(final_height);
        let next = self.lite_at(final_height + 1);
        let next_inner_hash = verify::inner_hash(&next).expect("the mock's timestamps are numbers");
        let next_block_hash = combine(&next_inner_hash, &hash);
        let mut message = vec![0u8];
        message.extend_from_slice(&next_block_hash.0);
        message.extend_from_slice(&(final_height + 2).to_le_bytes());
        let approval = secret_key(VALIDATOR).sign(&message);
        json!({
            "prev_block_hash": lite.prev_block_hash,
            "inner_rest_hash": lite.inner_rest_hash,
            "inner_lite": lite.inner_lite,
            "next_block_inner_hash": next_inner_hash,
            "next_bps": block_producers(),
            "approvals_after_next": [approval.to_string()],
        })
    }

    /// An execution proof of the outcome `id` against the head `head` (by height), or
    /// why not: unknown, or not below the head.
    pub fn execution_proof(&self, id: &CryptoHash, head: u64) -> Result<Value, &'static str> {
        let outcome = self.outcome(id).ok_or("UNKNOWN_TRANSACTION_OR_RECEIPT")?;
        let height = outcome.height;
        if height >= head {
            return Err("NOT_CONFIRMED");
        }
        let leaves = &self.sealed(height).leaves;
        let index = leaves
            .iter()
            .position(|(i, _)| i == id)
            .ok_or("UNKNOWN_TRANSACTION_OR_RECEIPT")?;
        let only_leaves: Vec<CryptoHash> = leaves.iter().map(|(_, l)| *l).collect();
        let (_, outcome_path) = merkle(&only_leaves, Some(index));
        let mut outcome_proof = outcome.to_json();
        outcome_proof["block_hash"] = json!(self.block_hash(height).to_string());
        outcome_proof["proof"] = json!(outcome_path);
        Ok(json!({
            "outcome_proof": outcome_proof,
            "outcome_root_proof": [],
            "block_header_lite": self.lite_at(height),
            "block_proof": self.block_path(height, head),
        }))
    }

    /// `light_client_block_proof`: the light-client header of the block at `height` and
    /// its Merkle path to the block Merkle root in the header of the block at `head`;
    /// an empty path for the head itself, as nearcore answers it, and nearcore's error
    /// for a block after the head.
    pub fn block_proof(&self, height: u64, head: u64) -> Result<Value, String> {
        if height > head {
            return Err(format!(
                "block {} is ahead of head block {}",
                self.block_hash(height),
                self.block_hash(head)
            ));
        }
        let path = if height == head {
            Vec::new()
        } else {
            self.block_path(height, head)
        };
        Ok(json!({
            "block_header_lite": self.lite_at(height),
            "block_proof": path,
        }))
    }

    /// The Merkle path of the block at `height` to the block Merkle root in the header
    /// of the later block at `head`: the root of the tree over every block before it.
    fn block_path(&self, height: u64, head: u64) -> Vec<MerklePathItem> {
        let hashes = self.block_hashes(head);
        let block_index = (height - GENESIS_HEIGHT) as usize;
        let head_index = (head - GENESIS_HEIGHT) as usize;
        merkle(&hashes[..head_index], Some(block_index)).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree grown a block at a time has the root the whole list has, for every
    /// shape (full, odd, one short of full).
    #[test]
    fn the_growing_tree_has_the_whole_lists_root() {
        let mut tree = BlockTree::default();
        let mut leaves = Vec::new();
        assert_eq!(tree.root(), merkle(&leaves, None).0);
        for n in 0..70 {
            let leaf = hash(&format!("leaf {n}"));
            tree.push(leaf);
            leaves.push(leaf);
            assert_eq!(tree.root(), merkle(&leaves, None).0, "{} leaves", n + 1);
        }
    }
}
