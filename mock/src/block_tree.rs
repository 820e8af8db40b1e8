//! The block Merkle tree of the mock chain, grown one block at a time: what each block
//! header's `block_merkle_root` commits to, without hashing every block before it.

use near_rpc::verify::combine_hash as combine;
use near_rpc::CryptoHash;

/// The block Merkle tree grown one block at a time: the roots of its full subtrees,
/// largest first (nearcore's `PartialMerkleTree`). Its root is the light-client module's `merkle` over
/// every block so far, at a cost in the tree's height rather than in the blocks, so that a
/// long chain (a saved one loading, or one running for days) seals each block as fast
/// as the first.
#[derive(Debug, Clone, Default)]
pub(crate) struct BlockTree {
    subtrees: Vec<CryptoHash>,
    size: u64,
}

impl BlockTree {
    /// Adds the next block's hash.
    pub(crate) fn push(&mut self, leaf: CryptoHash) {
        let mut node = leaf;
        let mut size = self.size;
        // Each full subtree the new leaf completes merges with its left neighbour.
        while size % 2 == 1 {
            let Some(left) = self.subtrees.pop() else {
                break;
            };
            node = combine(&left, &node);
            size /= 2;
        }
        self.subtrees.push(node);
        self.size += 1;
    }

    /// The root over every hash pushed (zeros for none), as the light-client module's `merkle` computes it: an
    /// odd last node carried up is the smaller subtrees combined from the right.
    pub(crate) fn root(&self) -> CryptoHash {
        let mut subtrees = self.subtrees.iter().rev();
        let Some(smallest) = subtrees.next() else {
            return CryptoHash([0; 32]);
        };
        subtrees.fold(*smallest, |right, left| combine(left, &right))
    }
}
