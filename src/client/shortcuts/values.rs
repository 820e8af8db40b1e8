//! What the shortcuts take and return beyond the generated types.

use std::fmt;
use std::ops::Deref;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::de::decode::DecodeError;
use crate::primitives::BlockId;
use crate::primitives::CryptoHash;
use crate::replaced::root::NearToken;
use crate::types::{CallResult, EpochId, RpcChunkRequestKind, RpcValidatorRequestKind, ShardId};

/// A view read at a block: the value, and the block's height and hash. Dereferences to
/// the value.
#[derive(Debug, Clone, PartialEq)]
pub struct AtBlock<T> {
    /// What was read.
    pub value: T,
    /// The height of the block it was read at.
    pub block_height: u64,
    /// The hash of that block.
    pub block_hash: CryptoHash,
}

impl<T> AtBlock<T> {
    /// The value, without the block.
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T> Deref for AtBlock<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl CallResult {
    /// The bytes the contract returned.
    pub fn bytes(&self) -> &[u8] {
        &self.result
    }

    /// The result as text (`None` when it is not UTF-8).
    pub fn text(&self) -> Option<&str> {
        std::str::from_utf8(&self.result).ok()
    }

    /// The result read as JSON into `T`; a mismatch names the JSON path.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, DecodeError> {
        crate::de::decode::from_slice(&self.result)
    }
}

/// Arguments of a contract call: any `Serialize` value, sent as JSON (`()` sends no
/// bytes), or [`RawArgs`], sent as they are.
pub trait ContractArgs {
    /// The bytes passed to the contract.
    fn into_bytes(self) -> Result<Vec<u8>, String>;
}

impl<T: Serialize> ContractArgs for T {
    fn into_bytes(self) -> Result<Vec<u8>, String> {
        let value = serde_json::to_value(self)
            .map_err(|e| format!("the args cannot be written as JSON: {e}"))?;
        if value.is_null() {
            return Ok(Vec::new());
        }
        serde_json::to_vec(&value).map_err(|e| format!("the args cannot be written as JSON: {e}"))
    }
}

/// Contract-call arguments passed as they are (borsh, or anything not JSON).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawArgs(pub Vec<u8>);

impl ContractArgs for RawArgs {
    fn into_bytes(self) -> Result<Vec<u8>, String> {
        Ok(self.0)
    }
}

/// A gas price: yoctoNEAR per unit of gas. Shown as such (`100000000 yoctoNEAR/gas`),
/// not as a NEAR amount rounded to nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GasPrice {
    /// yoctoNEAR (10⁻²⁴ NEAR) per gas unit.
    pub yocto_per_gas: u128,
}

impl GasPrice {
    /// What `gas` units cost at this price.
    pub fn cost(&self, gas: u64) -> NearToken {
        NearToken::from_yoctonear(self.yocto_per_gas.saturating_mul(u128::from(gas)))
    }
}

impl From<NearToken> for GasPrice {
    fn from(price: NearToken) -> Self {
        Self {
            yocto_per_gas: price.as_yoctonear(),
        }
    }
}

impl fmt::Display for GasPrice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} yoctoNEAR/gas", self.yocto_per_gas)
    }
}

/// Which chunk: by the block (height or hash) and shard, or by the chunk's hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkRef {
    /// The chunk of `shard` in `block`.
    InBlock {
        /// The block.
        block: BlockId,
        /// The shard.
        shard: u64,
    },
    /// The chunk with this hash.
    Hash(CryptoHash),
}

impl From<CryptoHash> for ChunkRef {
    fn from(hash: CryptoHash) -> Self {
        Self::Hash(hash)
    }
}

impl<B: Into<BlockId>> From<(B, u64)> for ChunkRef {
    fn from((block, shard): (B, u64)) -> Self {
        Self::InBlock {
            block: block.into(),
            shard,
        }
    }
}

impl From<ChunkRef> for RpcChunkRequestKind {
    fn from(chunk: ChunkRef) -> Self {
        match chunk {
            ChunkRef::InBlock { block, shard } => Self::BlockShardId {
                block_id: block,
                shard_id: ShardId(shard),
            },
            ChunkRef::Hash(chunk_id) => Self::ChunkHash { chunk_id },
        }
    }
}

/// Which epoch's validators: the latest, an epoch by id, or the epoch of a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Epoch {
    /// The current epoch.
    Latest,
    /// The epoch with this id.
    Id(CryptoHash),
    /// The epoch of this block (nearcore answers for the last block of an epoch only).
    OfBlock(BlockId),
}

impl From<BlockId> for Epoch {
    fn from(block: BlockId) -> Self {
        Self::OfBlock(block)
    }
}

impl From<Epoch> for RpcValidatorRequestKind {
    fn from(epoch: Epoch) -> Self {
        match epoch {
            Epoch::Latest => Self::Latest(()),
            Epoch::Id(id) => Self::EpochId(EpochId(id)),
            Epoch::OfBlock(block) => Self::BlockId(block),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_are_json_unit_is_empty_raw_is_raw() {
        assert_eq!(
            serde_json::json!({"a": 1}).into_bytes().unwrap(),
            br#"{"a":1}"#
        );
        assert_eq!(().into_bytes().unwrap(), b"");
        assert_eq!(RawArgs(vec![0, 159]).into_bytes().unwrap(), vec![0, 159]);
    }

    #[test]
    fn gas_price_is_shown_per_gas() {
        let price = GasPrice::from(NearToken::from_yoctonear(100_000_000));
        assert_eq!(price.to_string(), "100000000 yoctoNEAR/gas");
        assert_eq!(price.cost(10), NearToken::from_yoctonear(1_000_000_000));
    }

    #[test]
    fn call_results_read_as_bytes_text_or_json() {
        let result = CallResult {
            logs: vec![],
            result: br#"["a","b"]"#.to_vec(),
        };
        assert_eq!(result.text(), Some(r#"["a","b"]"#));
        assert_eq!(result.json::<Vec<String>>().unwrap(), ["a", "b"]);
        let err = result.json::<Vec<u8>>().unwrap_err();
        assert_eq!(err.path(), "[0]");
    }
}
