//! Light-client blocks (`next_light_client_block`): a [`LightClientHead`] the caller
//! trusts, and each next block checked against it before it becomes the head, by the
//! rules of NEAR's light-client specification as nearcore produces the blocks:
//!
//! 1. **height**: above the head's;
//! 2. **epoch**: the head's epoch or the next one;
//! 3. **next block producers**: present when the block starts a new epoch;
//! 4. **signatures**: each approval of the block after next is the signature of the
//!    epoch's block producer at the same index over `borsh(Endorsement(next block hash))
//!    ‖ (height + 2)`; a signature that does not verify refuses the block (approvals past
//!    the last producer are ignored, a missing one counts as not approving);
//! 5. **stake**: the approving producers hold more than 2/3 of the epoch's stake;
//! 6. **next producers' hash**: `sha256(borsh(next_bps))` is the header's `next_bp_hash`.

use std::fmt;

use super::header;
use super::merkle::combine;
use crate::primitives::CryptoHash;
use crate::primitives::KeyType;
use crate::tx::{borsh_writer, verify};
use crate::types::{
    BlockHeaderInnerLiteView, LightClientBlockLiteView, RpcLightClientNextBlockResponse,
    ValidatorStakeView,
};

/// The step at which a light-client block failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BlockStep {
    /// A field the check needs is missing (an empty answer: no newer block).
    Incomplete,
    /// Its height is not above the head's.
    Height,
    /// Its epoch is neither the head's nor the next.
    Epoch,
    /// It starts an epoch without naming the next epoch's block producers.
    NextBpsMissing,
    /// The head does not know the block producers of its epoch.
    UnknownProducers,
    /// Its header cannot be hashed.
    BlockHash,
    /// The approval at this index does not verify.
    Signature(usize),
    /// The approving stake is not above 2/3.
    Stake,
    /// `next_bps` does not hash to `next_bp_hash`.
    NextBpHash,
}

impl fmt::Display for BlockStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Incomplete => f.write_str("completeness"),
            Self::Height => f.write_str("height"),
            Self::Epoch => f.write_str("epoch"),
            Self::NextBpsMissing => f.write_str("next block producers"),
            Self::UnknownProducers => f.write_str("block producers"),
            Self::BlockHash => f.write_str("block hash"),
            Self::Signature(index) => write!(f, "approval signature {index}"),
            Self::Stake => f.write_str("approving stake"),
            Self::NextBpHash => f.write_str("next block producers' hash"),
        }
    }
}

/// A light-client block that is not a valid successor of the head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockError {
    /// The step that failed.
    pub step: BlockStep,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for BlockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} check failed: {}", self.step, self.message)
    }
}

impl std::error::Error for BlockError {}

fn fail(step: BlockStep, message: impl Into<String>) -> BlockError {
    BlockError {
        step,
        message: message.into(),
    }
}

/// The block producers of one epoch.
#[derive(Debug, Clone, PartialEq)]
struct EpochProducers {
    epoch_id: CryptoHash,
    producers: Vec<ValidatorStakeView>,
}

/// A block a light client trusts, and the block producers of the epochs it can check
/// blocks of: the next epoch's always (from the block's `next_bps`), its own epoch's when
/// known.
#[derive(Debug, Clone, PartialEq)]
pub struct LightClientHead {
    header: LightClientBlockLiteView,
    hash: CryptoHash,
    epochs: Vec<EpochProducers>,
}

/// `sha256(borsh(producers))`, as the header's `next_bp_hash`.
pub fn producers_hash(producers: &[ValidatorStakeView]) -> Result<CryptoHash, String> {
    let mut w = borsh_writer();
    w.len(producers.len());
    for (i, producer) in producers.iter().enumerate() {
        let ValidatorStakeView::V1(v1) = producer else {
            return Err(format!(
                "next_bps[{i}] is of a version these bindings do not know"
            ));
        };
        w.u8(0);
        w.string(v1.account_id.as_str());
        w.u8(match v1.public_key.key_type() {
            KeyType::Ed25519 => 0,
            KeyType::Secp256k1 => 1,
            // nearcore 0.38's tag; validators' keys are ed25519, but the encoding is
            // the key's whatever it is.
            #[cfg(feature = "nearcore_0_38_0")]
            KeyType::MlDsa65 => 2,
        });
        w.fixed(v1.public_key.as_bytes());
        w.u128(v1.stake.as_yoctonear());
    }
    Ok(CryptoHash::hash_bytes(&w.into_bytes()))
}

/// The parts of a `next_light_client_block` answer, all present.
struct Block<'a> {
    prev_block_hash: &'a CryptoHash,
    inner_rest_hash: &'a CryptoHash,
    inner_lite: &'a BlockHeaderInnerLiteView,
    next_block_inner_hash: &'a CryptoHash,
}

fn parts(block: &RpcLightClientNextBlockResponse) -> Result<Block<'_>, BlockError> {
    let missing = |field: &str| {
        fail(
            BlockStep::Incomplete,
            format!("the block has no `{field}` (an empty answer: no block after the head)"),
        )
    };
    Ok(Block {
        prev_block_hash: block
            .prev_block_hash
            .as_ref()
            .ok_or_else(|| missing("prev_block_hash"))?,
        inner_rest_hash: block
            .inner_rest_hash
            .as_ref()
            .ok_or_else(|| missing("inner_rest_hash"))?,
        inner_lite: block
            .inner_lite
            .as_ref()
            .ok_or_else(|| missing("inner_lite"))?,
        next_block_inner_hash: block
            .next_block_inner_hash
            .as_ref()
            .ok_or_else(|| missing("next_block_inner_hash"))?,
    })
}

impl LightClientHead {
    /// A head from a light-client block the caller trusts (a checkpoint): its hash must
    /// be `trusted_hash`, and its `next_bps` (which the head needs to check the next
    /// epoch's blocks) must hash to its `next_bp_hash`.
    pub fn from_block(
        block: &RpcLightClientNextBlockResponse,
        trusted_hash: &CryptoHash,
    ) -> Result<Self, BlockError> {
        let parts = parts(block)?;
        let header = LightClientBlockLiteView {
            inner_lite: parts.inner_lite.clone(),
            inner_rest_hash: *parts.inner_rest_hash,
            prev_block_hash: *parts.prev_block_hash,
        };
        let next_bps = block.next_bps.clone().ok_or_else(|| {
            fail(
                BlockStep::NextBpsMissing,
                "a head needs its block's next_bps to check the next epoch",
            )
        })?;
        let head = Self::new(header, next_bps)?;
        if head.hash != *trusted_hash {
            return Err(fail(
                BlockStep::BlockHash,
                format!(
                    "the block hashes to {}, not the trusted {trusted_hash}",
                    head.hash
                ),
            ));
        }
        Ok(head)
    }

    /// A head from a lite header the caller trusts and the next epoch's block producers,
    /// which must hash to the header's `next_bp_hash`.
    pub fn new(
        header: LightClientBlockLiteView,
        next_bps: Vec<ValidatorStakeView>,
    ) -> Result<Self, BlockError> {
        let hash = header::block_hash(
            &header.inner_lite,
            &header.inner_rest_hash,
            &header.prev_block_hash,
        )
        .map_err(|e| fail(BlockStep::BlockHash, e))?;
        let bp_hash = producers_hash(&next_bps).map_err(|e| fail(BlockStep::NextBpHash, e))?;
        if bp_hash != header.inner_lite.next_bp_hash {
            return Err(fail(
                BlockStep::NextBpHash,
                format!(
                    "next_bps hash to {bp_hash}, the header has {}",
                    header.inner_lite.next_bp_hash
                ),
            ));
        }
        let epochs = vec![EpochProducers {
            epoch_id: header.inner_lite.next_epoch_id,
            producers: next_bps,
        }];
        Ok(Self {
            header,
            hash,
            epochs,
        })
    }

    /// Adds the block producers of the head's own epoch, so that blocks of that epoch
    /// can be checked too (they cannot be checked against the header: the caller vouches
    /// for them).
    pub fn with_current_producers(mut self, producers: Vec<ValidatorStakeView>) -> Self {
        let epoch_id = self.header.inner_lite.epoch_id;
        self.epochs.retain(|e| e.epoch_id != epoch_id);
        self.epochs.push(EpochProducers {
            epoch_id,
            producers,
        });
        self
    }

    /// The head block's hash.
    pub fn hash(&self) -> CryptoHash {
        self.hash
    }

    /// The head block's height.
    pub fn height(&self) -> u64 {
        self.header.inner_lite.height
    }

    /// The head block's lite header.
    pub fn header(&self) -> &LightClientBlockLiteView {
        &self.header
    }

    fn producers(&self, epoch_id: &CryptoHash) -> Option<&[ValidatorStakeView]> {
        self.epochs
            .iter()
            .find(|e| e.epoch_id == *epoch_id)
            .map(|e| e.producers.as_slice())
    }

    /// Checks `block` as the head's successor and, if it is valid, returns the head it
    /// makes. The head itself is unchanged.
    pub fn validate(&self, block: &RpcLightClientNextBlockResponse) -> Result<Self, BlockError> {
        let parts = parts(block)?;
        let inner = parts.inner_lite;
        let head = &self.header.inner_lite;
        if inner.height <= head.height {
            return Err(fail(
                BlockStep::Height,
                format!(
                    "height {} is not above the head's {}",
                    inner.height, head.height
                ),
            ));
        }
        if inner.epoch_id != head.epoch_id && inner.epoch_id != head.next_epoch_id {
            return Err(fail(
                BlockStep::Epoch,
                format!(
                    "epoch {} is neither the head's {} nor its next {}",
                    inner.epoch_id, head.epoch_id, head.next_epoch_id
                ),
            ));
        }
        if inner.epoch_id == head.next_epoch_id && block.next_bps.is_none() {
            return Err(fail(
                BlockStep::NextBpsMissing,
                "the block starts a new epoch without its next_bps",
            ));
        }
        let producers = self.producers(&inner.epoch_id).ok_or_else(|| {
            fail(
                BlockStep::UnknownProducers,
                format!(
                    "the head does not know the block producers of epoch {} (its own; give \
                     them with `with_current_producers`)",
                    inner.epoch_id
                ),
            )
        })?;
        let hash = header::block_hash(inner, parts.inner_rest_hash, parts.prev_block_hash)
            .map_err(|e| fail(BlockStep::BlockHash, e))?;
        let next_block_hash = combine(parts.next_block_inner_hash, &hash);
        let mut message = Vec::with_capacity(41);
        message.push(0); // ApprovalInner::Endorsement
        message.extend_from_slice(&next_block_hash.0);
        let target = inner
            .height
            .checked_add(2)
            .ok_or_else(|| fail(BlockStep::Height, "the height is too large to be approved"))?;
        message.extend_from_slice(&target.to_le_bytes());
        let overflow = || fail(BlockStep::Stake, "the stakes add up past 2^128");
        // Every producer's stake counts in the total, approving or not: an answer cut
        // short must not shrink what more than 2/3 is of.
        if block.approvals_after_next.len() < producers.len() {
            return Err(fail(
                BlockStep::Stake,
                format!(
                    "{} approvals for {} block producers: every producer has a slot",
                    block.approvals_after_next.len(),
                    producers.len()
                ),
            ));
        }
        let mut total = 0u128;
        for (index, producer) in producers.iter().enumerate() {
            let ValidatorStakeView::V1(producer) = producer else {
                return Err(fail(
                    BlockStep::UnknownProducers,
                    format!("block producer {index} is of a version these bindings do not know"),
                ));
            };
            total = total
                .checked_add(producer.stake.as_yoctonear())
                .ok_or_else(overflow)?;
        }
        let mut approved = 0u128;
        for (index, (approval, producer)) in
            block.approvals_after_next.iter().zip(producers).enumerate()
        {
            let ValidatorStakeView::V1(producer) = producer else {
                continue; // refused above
            };
            let stake = producer.stake.as_yoctonear();
            let Some(signature) = approval else {
                continue;
            };
            // nearcore signs approvals with ed25519 only (a secp256k1 key cannot sign the
            // 41-byte message there), so no other approval is valid.
            let ed25519 = producer.public_key.key_type() == KeyType::Ed25519;
            if !ed25519 || !verify(&producer.public_key, &message, signature) {
                return Err(fail(
                    BlockStep::Signature(index),
                    format!(
                        "the approval of {} ({}) is not its signature of the endorsement of \
                         block {next_block_hash} at height {target}",
                        producer.account_id, producer.public_key
                    ),
                ));
            }
            approved = approved.checked_add(stake).ok_or_else(overflow)?;
        }
        let more_than_two_thirds = match (approved.checked_mul(3), total.checked_mul(2)) {
            (Some(a), Some(t)) => a > t,
            _ => return Err(overflow()),
        };
        if !more_than_two_thirds {
            return Err(fail(
                BlockStep::Stake,
                format!("{approved} of {total} yoctoNEAR staked approve: not more than 2/3"),
            ));
        }
        let mut epochs = vec![EpochProducers {
            epoch_id: inner.epoch_id,
            producers: producers.to_vec(),
        }];
        match &block.next_bps {
            Some(next_bps) => {
                let bp_hash =
                    producers_hash(next_bps).map_err(|e| fail(BlockStep::NextBpHash, e))?;
                if bp_hash != inner.next_bp_hash {
                    return Err(fail(
                        BlockStep::NextBpHash,
                        format!(
                            "next_bps hash to {bp_hash}, the header has {}",
                            inner.next_bp_hash
                        ),
                    ));
                }
                epochs.push(EpochProducers {
                    epoch_id: inner.next_epoch_id,
                    producers: next_bps.clone(),
                });
            }
            None => {
                if let Some(next) = self.producers(&inner.next_epoch_id) {
                    epochs.push(EpochProducers {
                        epoch_id: inner.next_epoch_id,
                        producers: next.to_vec(),
                    });
                }
            }
        }
        Ok(Self {
            header: LightClientBlockLiteView {
                inner_lite: inner.clone(),
                inner_rest_hash: *parts.inner_rest_hash,
                prev_block_hash: *parts.prev_block_hash,
            },
            hash,
            epochs,
        })
    }

    /// [`LightClientHead::validate`], then moves the head to `block`.
    pub fn advance(&mut self, block: &RpcLightClientNextBlockResponse) -> Result<(), BlockError> {
        *self = self.validate(block)?;
        Ok(())
    }

    /// The head as JSON, to store and restore it ([`LightClientHead::from_json`]).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "hash": self.hash,
            "header": self.header,
            "epochs": self.epochs.iter().map(|e| serde_json::json!({
                "epoch_id": e.epoch_id,
                "block_producers": e.producers,
            })).collect::<Vec<_>>(),
        })
    }

    /// A head stored by [`LightClientHead::to_json`]. Its header must hash to its
    /// `hash`, and the next epoch's producers to the header's `next_bp_hash`: a damaged
    /// file is refused. The head epoch's own producers, when stored, are not checked
    /// against anything (nothing in the header commits to them): the file is trusted as
    /// the checkpoint was. An old head is followed as it is; keys of validators that
    /// have since left could sign a fork from it, so keep heads fresh.
    pub fn from_json(value: serde_json::Value) -> Result<Self, BlockError> {
        let bad = |message: String| fail(BlockStep::Incomplete, message);
        let hash: CryptoHash = crate::de::decode::from_value(value["hash"].clone())
            .map_err(|e| bad(format!("stored head: hash: {e}")))?;
        let header: LightClientBlockLiteView =
            crate::de::decode::from_value(value["header"].clone())
                .map_err(|e| bad(format!("stored head: header: {e}")))?;
        let mut epochs = Vec::new();
        for (i, epoch) in value["epochs"].as_array().into_iter().flatten().enumerate() {
            epochs.push(EpochProducers {
                epoch_id: crate::de::decode::from_value(epoch["epoch_id"].clone())
                    .map_err(|e| bad(format!("stored head: epochs[{i}].epoch_id: {e}")))?,
                producers: crate::de::decode::from_value(epoch["block_producers"].clone())
                    .map_err(|e| bad(format!("stored head: epochs[{i}].block_producers: {e}")))?,
            });
        }
        let next = epochs
            .iter()
            .find(|e| e.epoch_id == header.inner_lite.next_epoch_id)
            .map(|e| e.producers.clone())
            .ok_or_else(|| bad("stored head: no block producers for its next epoch".into()))?;
        let mut head = Self::new(header, next)?;
        if head.hash != hash {
            return Err(fail(
                BlockStep::BlockHash,
                format!(
                    "stored head: its header hashes to {}, not {hash}",
                    head.hash
                ),
            ));
        }
        head.epochs = epochs;
        Ok(head)
    }
}
