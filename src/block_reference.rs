//! Conversions into the generated `BlockReference`, so a block can be named by a height,
//! a hash, a finality or a sync checkpoint wherever one is asked for.

use crate::generated::types::{BlockReference, Finality, SyncCheckpoint};
use crate::primitives::BlockId;
use crate::primitives::CryptoHash;

impl From<Finality> for BlockReference {
    fn from(finality: Finality) -> Self {
        Self::Finality(finality)
    }
}

impl From<BlockId> for BlockReference {
    fn from(block_id: BlockId) -> Self {
        Self::BlockId(block_id)
    }
}

impl From<SyncCheckpoint> for BlockReference {
    fn from(checkpoint: SyncCheckpoint) -> Self {
        Self::SyncCheckpoint(checkpoint)
    }
}

impl From<u64> for BlockReference {
    /// A block height.
    fn from(height: u64) -> Self {
        Self::BlockId(BlockId::Height(height))
    }
}

impl From<CryptoHash> for BlockReference {
    fn from(hash: CryptoHash) -> Self {
        Self::BlockId(BlockId::Hash(hash))
    }
}
