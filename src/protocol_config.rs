//! Accessors for the protocol config fields every node fills. The spec marks all of
//! `EXPERIMENTAL_protocol_config`'s fields optional, so the generated struct is all
//! `Option`s; these read the common ones without `and_then` chains, and say which field
//! was missing when a node left one out.

use std::fmt;

use crate::generated::types::{RpcProtocolConfigResponse, RuntimeConfigView, ShardLayout};
use crate::primitives::NearGas;
use near_token::NearToken;

/// A field the node left out of its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingField(pub &'static str);

impl fmt::Display for MissingField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the node's answer has no `{}`", self.0)
    }
}

impl std::error::Error for MissingField {}

macro_rules! accessors {
    ($($(#[$doc:meta])* $name:ident: $ty:ty = |$c:ident| $path:expr, $wire:literal;)*) => {
        impl RpcProtocolConfigResponse {
            $(
                $(#[$doc])*
                pub fn $name(&self) -> Result<$ty, MissingField> {
                    let $c = self;
                    $path.ok_or(MissingField($wire))
                }
            )*
        }
    };
}

accessors! {
    /// The protocol version the config is for.
    protocol_version: u32 = |c| c.protocol_version, "protocol_version";
    /// The chain id (`mainnet`, `testnet`, ...).
    chain_id: &str = |c| c.chain_id.as_deref(), "chain_id";
    /// Blocks per epoch.
    epoch_length: u64 = |c| c.epoch_length, "epoch_length";
    /// The height of the genesis block.
    genesis_height: u64 = |c| c.genesis_height, "genesis_height";
    /// The lowest gas price, in yoctoNEAR per gas.
    min_gas_price: NearToken = |c| c.min_gas_price, "min_gas_price";
    /// The highest gas price, in yoctoNEAR per gas.
    max_gas_price: NearToken = |c| c.max_gas_price, "max_gas_price";
    /// The gas limit of a chunk.
    gas_limit: NearGas = |c| c.gas_limit, "gas_limit";
    /// Block producer seats.
    num_block_producer_seats: u64 = |c| c.num_block_producer_seats, "num_block_producer_seats";
    /// How the chain is split into shards.
    shard_layout: &ShardLayout = |c| c.shard_layout.as_ref(), "shard_layout";
    /// Fees, limits and VM settings.
    runtime_config: &RuntimeConfigView = |c| c.runtime_config.as_ref(), "runtime_config";
    /// What storing one byte costs.
    storage_amount_per_byte: NearToken = |c| c
        .runtime_config
        .as_ref()
        .and_then(|r| r.storage_amount_per_byte),
        "runtime_config.storage_amount_per_byte";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn present_fields_are_read_and_missing_ones_named() {
        let config: RpcProtocolConfigResponse = serde_json::from_value(serde_json::json!({
            "protocol_version": 73,
            "epoch_length": 43200,
            "runtime_config": {"storage_amount_per_byte": "10000000000000000000"}
        }))
        .unwrap();
        assert_eq!(config.protocol_version(), Ok(73));
        assert_eq!(config.epoch_length(), Ok(43200));
        assert_eq!(
            config.storage_amount_per_byte(),
            Ok(NearToken::from_yoctonear(10_000_000_000_000_000_000))
        );
        let err = config.chain_id().unwrap_err();
        assert_eq!(err.to_string(), "the node's answer has no `chain_id`");
        assert_eq!(
            RpcProtocolConfigResponse::default().storage_amount_per_byte(),
            Err(MissingField("runtime_config.storage_amount_per_byte"))
        );
    }
}
