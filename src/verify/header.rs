//! A block's hash from its light-client header, as nearcore computes it:
//! `sha256(sha256(sha256(borsh(inner_lite)) ‖ inner_rest_hash) ‖ prev_block_hash)`, where
//! `borsh(inner_lite)` is the 208 bytes of height, epoch ids, state and outcome roots,
//! timestamp, next block producers' hash and block Merkle root. The timestamp hashed is
//! `timestamp_nanosec`: the JSON number `timestamp` is legacy, and writers that read it
//! as a float have rounded it.
//!
//! A header of nearcore 0.38's second version (spice blocks: `BlockHeaderInnerLiteV2`,
//! with a `chunk_execution_root`) hashes that root too, in a layout these bindings do not
//! reproduce: such a header is refused by name ([`V2_HEADER`]) rather than given a wrong
//! hash. Only the `nearcore_0_38_0` bindings decode the field; older ones drop it, so
//! the JSON entry points of [`super`] look for it before decoding.

use super::merkle::combine;
use crate::primitives::CryptoHash;
use crate::tx::borsh_writer;
use crate::types::BlockHeaderInnerLiteView;

/// The timestamp nearcore hashes, or why it is not one.
pub(crate) fn timestamp(inner: &BlockHeaderInnerLiteView) -> Result<u64, String> {
    inner.timestamp_nanosec.parse().map_err(|_| {
        format!(
            "inner_lite.timestamp_nanosec {:?} is not a u64 count of nanoseconds",
            inner.timestamp_nanosec
        )
    })
}

/// Why a header with a `chunk_execution_root` is refused, after the field's path.
pub(crate) const V2_HEADER: &str = "a header with a chunk execution root (nearcore 0.38's \
     second version), whose hash these bindings do not compute";

/// `borsh(inner_lite)`: 208 bytes.
pub(crate) fn inner_lite_bytes(inner: &BlockHeaderInnerLiteView) -> Result<Vec<u8>, String> {
    #[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]
    if inner.chunk_execution_root.is_some() {
        return Err(format!("inner_lite.chunk_execution_root: {V2_HEADER}"));
    }
    let mut w = borsh_writer();
    w.u64(inner.height);
    w.fixed(&inner.epoch_id.0);
    w.fixed(&inner.next_epoch_id.0);
    w.fixed(&inner.prev_state_root.0);
    w.fixed(&inner.outcome_root.0);
    w.u64(timestamp(inner)?);
    w.fixed(&inner.next_bp_hash.0);
    w.fixed(&inner.block_merkle_root.0);
    Ok(w.into_bytes())
}

/// The header's inner hash, `sha256(sha256(borsh(inner_lite)) ‖ inner_rest_hash)`: what
/// a light-client block's `next_block_inner_hash` is of the block after it.
pub(crate) fn inner_hash(
    inner: &BlockHeaderInnerLiteView,
    inner_rest_hash: &CryptoHash,
) -> Result<CryptoHash, String> {
    let inner_lite_hash = CryptoHash::hash_bytes(&inner_lite_bytes(inner)?);
    Ok(combine(&inner_lite_hash, inner_rest_hash))
}

/// The hash of the block whose header parts these are.
pub(crate) fn block_hash(
    inner: &BlockHeaderInnerLiteView,
    inner_rest_hash: &CryptoHash,
    prev_block_hash: &CryptoHash,
) -> Result<CryptoHash, String> {
    Ok(combine(
        &inner_hash(inner, inner_rest_hash)?,
        prev_block_hash,
    ))
}
