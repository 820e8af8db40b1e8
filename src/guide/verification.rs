//! Verified reads: what a node answers, checked against a root or a head you trust.
//!
//! An RPC provider can answer anything. [`near_rpc::verify`](crate::verify) (feature
//! `verify`, on with `client`) checks what it answers against a root or a head you trust,
//! with the proofs nearcore serves:
//!
//! ```no_run
//! use near_rpc::verify::{self, LightClientHead};
//!
//! fn example(proof_json: serde_json::Value, head_json: serde_json::Value, next_json: serde_json::Value)
//!     -> Result<(), Box<dyn std::error::Error>> {
//!     // An execution proof (`light_client_proof`) against the block Merkle root of the
//!     // light-client head it was asked against.
//!     let proof = verify::execution_proof_from_json(proof_json)?;
//!     let root = "BWwZdhAhjAgKxZ5ycqn1CvXads5DjPMfj4kRdc1rWit8".parse()?;
//!     let outcome = verify::verify_execution_proof(&proof, &root)?;
//!     println!("{} is in block {}", outcome.id, outcome.block_hash);
//!
//!     // Light-client blocks, from a checkpoint you trust, one epoch at a time.
//!     let checkpoint = verify::light_client_block_from_json(head_json)?;
//!     let mut head = LightClientHead::from_block(&checkpoint, &"Doy7Y7aVMgN8YhdAseGBMHNmYoqzWsXszqJ7MFLNMcQ7".parse()?)?;
//!     head.advance(&verify::light_client_block_from_json(next_json)?)?;
//!     std::fs::write("head.json", head.to_json().to_string())?; // LightClientHead::from_json restores it
//!     Ok(())
//! }
//! ```
//!
//! - **Execution proofs**, as nearcore's `neard verify-proof` checks them, each failure
//!   naming its step (`ProofStep`): the outcome's hash (its id, receipt ids, gas and tokens
//!   burnt, executor, status and logs, hashed in nearcore's types), `outcome_proof` to the
//!   chunk's outcome root, `outcome_root_proof` to the lite header's `outcome_root`, the
//!   header's block hash (its `timestamp_nanosec`, not the legacy rounded `timestamp`),
//!   `block_proof` to the trusted root. Not checked: the leaves' positions in their trees,
//!   which nothing in a proof fixes (nearcore checks none either); the outcome's
//!   `metadata` and a failure's details, which nearcore does not hash.
//! - **Light-client blocks**, by the specification's rules as nearcore produces the
//!   blocks (`BlockStep`): a height above the head's; the head's epoch or the next; the
//!   next epoch's producers present when an epoch starts; every approval of the block
//!   after next verified against the epoch's producer at its index (one bad signature
//!   refuses the block; an approval list shorter than the producers refuses it too); more
//!   than 2/3 of the whole epoch's stake approving; `next_bps` hashing to
//!   `next_bp_hash`. A head is created from a block whose hash you trust, moved by
//!   `advance`, and stored and restored as JSON (its hashes are checked again on restore).
//! - **In the client**: `client.verified(head)` is a `VerifiedClient` whose head follows the
//!   chain (`sync()`: `next_light_client_block` from the head until there is no newer one,
//!   each block validated before the head moves) and whose `tx_status(hash, sender,
//!   wait_until)` proves the transaction's outcome and every receipt's against the synced
//!   head (`light_client_proof`, one per outcome, each checked to be the one asked for),
//!   then checks the status against them: the transaction's id, every outcome's hashed
//!   fields, that the receipts shown are exactly those the outcomes lead to, and the final
//!   status (a value byte for byte; a failure only as a failure: nearcore hashes no failure
//!   details). Not proven: the `receipts` and `transaction` views beside the outcomes, and
//!   a failure's details. `outcome(kind)` proves one outcome. `tests/it/client_verified.rs`
//!   runs it on a forged chain and refuses each forgery (another transaction's status, a
//!   receipt hidden, a final status the outcomes do not make, a forged approval, a proof of
//!   another outcome, a forged proof, a head that does not cover the outcome).
//! - **Starting**: a head made from a block (`from_block`, with the hash you trust) knows
//!   the next epoch's block producers only, so it checks blocks of the next epoch; for
//!   blocks of its own epoch give that epoch's producers (`with_current_producers`), or
//!   start from an epoch's last block (what `next_light_client_block` returns when it
//!   crosses an epoch). No RPC method returns the light-client view of a given block: a
//!   checkpoint is a `next_light_client_block` answer you saved, or a stored head. A head
//!   is followed however old; validators that have since left could sign a fork from an
//!   old one, so keep it fresh.
//! - **What a verified answer guarantees**: that block producers holding more than 2/3 of
//!   each epoch's stake, followed from your checkpoint, signed a chain containing the
//!   block, and that the block contains exactly this outcome (headers of nearcore 0.38's
//!   second version, with a `chunk_execution_root`, are refused by name rather than hashed
//!   wrong). **What it does not**: anything no proof covers (a view call's result, an
//!   account's balance, a receipt's outcome unless its own proof is checked), and it
//!   cannot make a node answer.
//! - **State is not checked.** For `view_state` with `include_proof` at block B, what is
//!   there: a header's `prev_state_root` is the Merkle root over every chunk's
//!   `prev_state_root` (nearcore's `Block::compute_state_root`), a `block` answer lists
//!   those, and a light-client proof's `block_proof` (or a head) authenticates the header.
//!   What is missing: decoding nearcore's trie nodes and walking them from a shard's root
//!   to the key, and the right root (a chunk's `prev_state_root` is the state before it,
//!   so the state after B is the `prev_state_root` of the shard's next chunk, in a later
//!   block). nearcore 0.38's `EXPERIMENTAL_light_client_state_proof` is for spice chains:
//!   `roots` (`ChunkExecutionRoots`) by `roots_proof` to the certifying header's
//!   `chunk_execution_root`, that header by `certifying_block_proof` to the head's block
//!   Merkle root, then trie nodes to `roots.state_root`. It is not checked: that header
//!   is the second version these bindings do not hash, and nodes without spice (all of
//!   mainnet today) answer `CHUNK_NOT_CERTIFIED`, so there are no real answers to test on.
//! - Tested on every real proof and light-client block chain in `../shared` (near-api-js's,
//!   nearcore's, near/near-light-client's and austinabell/near-light-client-tests'), each
//!   against the root or head its suite uses (the lctests chains from their first block:
//!   that suite's trusted head is not in `../shared`), on every invalid vector of those
//!   suites, and on mutations of every proof and block there: every field, path step, log
//!   and receipt id, a next producer's account, key and stake, one added or removed,
//!   approvals (every one of one block, three of each other block; a missing one made
//!   present; one of the wrong key type), each refused at its step and approval index, or
//!   accepted where nearcore checks nothing (the legacy `timestamp` beside
//!   `timestamp_nanosec`, `metadata`, a failure's details, approvals past the last
//!   producer) (`tests/it/verify.rs`).
//!
