//! Merkle paths as nearcore walks them: `combine(a, b) = sha256(a ‖ b)`, a `Left` item
//! on the left of the running hash, a `Right` item on its right.

use crate::primitives::CryptoHash;
use crate::types::{Direction, MerklePathItem};

/// The longest path walked: nearcore's trees are of blocks, shards and outcomes, and a
/// tree of 2^64 leaves is past any chain; a longer path is refused rather than hashed.
pub const MAX_PATH_LEN: usize = 64;

/// `sha256(a ‖ b)`.
pub(crate) fn combine(a: &CryptoHash, b: &CryptoHash) -> CryptoHash {
    let mut bytes = [0u8; 64];
    bytes[..32].copy_from_slice(&a.0);
    bytes[32..].copy_from_slice(&b.0);
    CryptoHash::hash_bytes(&bytes)
}

/// Why a path could not be walked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PathError {
    /// A direction these bindings do not know (at this index).
    UnknownDirection(usize),
    /// More than [`MAX_PATH_LEN`] items.
    TooLong(usize),
}

/// The root `path` leads to from `leaf`.
pub(crate) fn root_from_path(
    path: &[MerklePathItem],
    leaf: CryptoHash,
) -> Result<CryptoHash, PathError> {
    if path.len() > MAX_PATH_LEN {
        return Err(PathError::TooLong(path.len()));
    }
    path.iter()
        .enumerate()
        .try_fold(leaf, |hash, (index, item)| match item.direction {
            Direction::Left => Ok(combine(&item.hash, &hash)),
            Direction::Right => Ok(combine(&hash, &item.hash)),
            _ => Err(PathError::UnknownDirection(index)),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_items_go_first_and_right_items_last() {
        let (a, b, leaf) = (
            CryptoHash([1; 32]),
            CryptoHash([2; 32]),
            CryptoHash([3; 32]),
        );
        let path = [
            MerklePathItem {
                direction: Direction::Left,
                hash: a,
            },
            MerklePathItem {
                direction: Direction::Right,
                hash: b,
            },
        ];
        let expected = combine(&combine(&a, &leaf), &b);
        assert_eq!(root_from_path(&path, leaf), Ok(expected));
        assert_eq!(root_from_path(&[], leaf), Ok(leaf));
        let long = vec![path[0].clone(); MAX_PATH_LEN + 1];
        assert_eq!(
            root_from_path(&long, leaf),
            Err(PathError::TooLong(MAX_PATH_LEN + 1))
        );
    }
}
