//! [`VerifiedClient`]: reads whose answers are checked against a light-client head the
//! caller trusts, instead of believed ([`Client::verified`]).
//!
//! The head follows the chain: [`VerifiedClient::sync`] asks `next_light_client_block`
//! from the head until there is no newer block, validating each (signatures of more than
//! 2/3 of each epoch's stake) before moving. A verified transaction status then fetches a
//! `light_client_proof` against the head for the transaction's outcome and for every
//! receipt's, checks each against the head's block Merkle root, and checks the status
//! against them: the transaction's id, every outcome's hashed fields, that the receipts
//! shown are exactly those the outcomes lead to, and the final status (a value byte for
//! byte; a failure only as a failure, since nearcore hashes no failure details). Not
//! proven: the `receipts` views and the `transaction` view (beyond its hash), and a
//! failure's details.
//!
//! Answers are decoded into the typed views, which with the `nearcore_0_38_0` bindings
//! keep a header's `chunk_execution_root`: such a header (spice) is refused by name at
//! the block hash step ([`VerifyError::Block`] or [`VerifyError::Outcome`]), since its
//! hash is not computed here.
//!
//! What this guarantees, and what it does not, is `near_rpc::verify`'s: a view call's
//! result, an account's balance, anything without a proof is not covered. The cost is in
//! round trips: one per epoch the head moves, and one proof per outcome (BENCHMARKS.md).

use std::fmt;
use std::sync::Arc;

use super::{Client, Error};
use crate::methods;
use crate::primitives::CryptoHash;
use crate::replaced::root::AccountId;
use crate::types::RpcTransactionResponse;
use crate::types::{
    ExecutionOutcomeWithIdView, RpcLightClientExecutionProofRequest,
    RpcLightClientExecutionProofRequestKind, RpcLightClientNextBlockError,
    RpcLightClientNextBlockRequest, RpcLightClientProofError, RpcTransactionError,
    TxExecutionStatus,
};
use crate::verify::{self, BlockError, LightClientHead, ProofError, VerifiedOutcome};

/// How many blocks one [`VerifiedClient::sync`] follows at most (a block per epoch: a
/// year of mainnet is about 730).
pub const MAX_SYNC_BLOCKS: usize = 10_000;

/// A read that could not be verified: the call failed, or the answer does not check.
#[derive(Debug)]
#[non_exhaustive]
pub enum VerifyError {
    /// The transaction status could not be read.
    Status(Box<Error<RpcTransactionError>>),
    /// The next light-client block could not be read.
    NextBlock(Box<Error<RpcLightClientNextBlockError>>),
    /// A proof could not be read (the outcome may be newer than the head: sync first).
    Proof(Box<Error<RpcLightClientProofError>>),
    /// A light-client block from the node is not a valid successor of the head: the
    /// node's chain is not the one the head trusts, or the answer was forged.
    Block(BlockError),
    /// An outcome's proof does not verify against the head.
    Outcome {
        /// The transaction or receipt.
        id: CryptoHash,
        /// The step that failed.
        error: ProofError,
    },
    /// The status has no outcome yet (it was asked to wait less than execution): nothing
    /// to prove; ask again later.
    NoOutcome {
        /// The milestone the transaction had reached.
        reached: TxExecutionStatus,
    },
    /// The answer shows something other than what was proven.
    Mismatch {
        /// What differs.
        message: String,
    },
}

impl fmt::Display for VerifyError {
    /// This level's failure in one line; the failed call or check is
    /// [`source`](std::error::Error::source) (print both with
    /// [`ErrorReport`](crate::ErrorReport)).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Status(_) => f.write_str("cannot read the transaction status"),
            Self::NextBlock(_) => f.write_str("cannot read the next light-client block"),
            Self::Proof(_) => f.write_str("cannot read a proof"),
            Self::Block(_) => f.write_str("the node's light-client block does not verify"),
            Self::Outcome { id, .. } => write!(f, "the outcome of {id} is not proven"),
            Self::NoOutcome { reached } => write!(
                f,
                "the transaction has no outcome to prove yet (it reached {reached:?})"
            ),
            Self::Mismatch { message } => write!(f, "the answer is not what was proven: {message}"),
        }
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Status(e) => Some(&**e),
            Self::NextBlock(e) => Some(&**e),
            Self::Proof(e) => Some(&**e),
            Self::Block(e) => Some(e),
            Self::Outcome { error, .. } => Some(error),
            Self::NoOutcome { .. } | Self::Mismatch { .. } => None,
        }
    }
}

/// A verified answer: the value, the head it was checked against, and what was proven.
#[derive(Debug, Clone)]
pub struct Verified<T> {
    /// The answer.
    pub value: T,
    /// The hash of the head the proofs were checked against.
    pub head_hash: CryptoHash,
    /// Its height.
    pub head_height: u64,
    /// Every outcome proven, in the answer's order.
    pub outcomes: Vec<VerifiedOutcome>,
}

/// A client whose reads of outcomes are proven against a light-client head; cheap to
/// clone (clones share the head).
#[derive(Debug, Clone)]
pub struct VerifiedClient {
    client: Client,
    head: Arc<tokio::sync::Mutex<LightClientHead>>,
}

impl Client {
    /// A client that checks outcomes against `head`, a light-client head you trust (a
    /// checkpoint, or one stored by an earlier run: `LightClientHead::from_json`).
    pub fn verified(&self, head: LightClientHead) -> VerifiedClient {
        VerifiedClient {
            client: self.clone(),
            head: Arc::new(tokio::sync::Mutex::new(head)),
        }
    }
}

impl VerifiedClient {
    /// The client underneath (its reads are not verified).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The current head (store it with `to_json` to start from it next time).
    pub async fn head(&self) -> LightClientHead {
        self.head.lock().await.clone()
    }

    /// Moves the head as far as the node's chain goes, validating every light-client
    /// block on the way, and returns the new head. A block that does not validate is an
    /// error and stops the head at the last one that did. A head that knows only the next
    /// epoch's producers (a checkpoint from `from_block`) cannot check a block of its own
    /// epoch: give those with `with_current_producers`, or start from the last block of
    /// an epoch.
    pub async fn sync(&self) -> Result<LightClientHead, VerifyError> {
        // Followed on a copy, so that `head()` and other clones never wait on the
        // network; what was validated is kept, even when a later block fails.
        let mut head = self.head().await;
        let mut result = Ok(());
        for _ in 0..MAX_SYNC_BLOCKS {
            let request = RpcLightClientNextBlockRequest {
                last_block_hash: head.hash(),
            };
            let block = match self
                .client
                .call::<methods::NextLightClientBlockMethod>(request)
                .await
            {
                Ok(block) => block,
                Err(e) => {
                    result = Err(VerifyError::NextBlock(Box::new(e)));
                    break;
                }
            };
            // An empty answer: the head is the newest block the node can vouch for.
            if block.inner_lite.is_none() {
                break;
            }
            if let Err(e) = head.advance(&block) {
                result = Err(VerifyError::Block(e));
                break;
            }
        }
        let mut stored = self.head.lock().await;
        // Another clone may have moved further meanwhile.
        if head.height() > stored.height() {
            *stored = head;
        }
        let newest = stored.clone();
        drop(stored);
        result.map(|()| newest)
    }

    /// The outcome of a transaction or receipt, with its proof checked against the head
    /// (synced first).
    pub async fn outcome(
        &self,
        of: RpcLightClientExecutionProofRequestKind,
    ) -> Result<(ExecutionOutcomeWithIdView, VerifiedOutcome), VerifyError> {
        let head = self.sync().await?;
        self.prove(&head, of).await
    }

    async fn prove(
        &self,
        head: &LightClientHead,
        of: RpcLightClientExecutionProofRequestKind,
    ) -> Result<(ExecutionOutcomeWithIdView, VerifiedOutcome), VerifyError> {
        let asked = match &of {
            RpcLightClientExecutionProofRequestKind::Transaction {
                transaction_hash, ..
            } => *transaction_hash,
            RpcLightClientExecutionProofRequestKind::Receipt { receipt_id, .. } => *receipt_id,
        };
        let request = RpcLightClientExecutionProofRequest {
            light_client_head: head.hash(),
            kind: of,
        };
        let proof = self
            .client
            .call::<methods::LightClientProofMethod>(request)
            .await
            .map_err(|e| VerifyError::Proof(Box::new(e)))?;
        // A valid proof of another outcome proves nothing about this one.
        if asked != proof.outcome_proof.id {
            return Err(VerifyError::Mismatch {
                message: format!(
                    "asked for the outcome of {asked}, the proof is of {}",
                    proof.outcome_proof.id
                ),
            });
        }
        let root = head.header().inner_lite.block_merkle_root;
        let verified = verify::verify_execution_proof(&proof, &root).map_err(|error| {
            VerifyError::Outcome {
                id: proof.outcome_proof.id,
                error,
            }
        })?;
        Ok((proof.outcome_proof, verified))
    }

    /// `EXPERIMENTAL_tx_status`, with the transaction's outcome and every receipt's
    /// proven against the head (synced after the status is read, so that it covers
    /// them). An answer without an outcome (`wait_until` before execution) has nothing
    /// to prove and is an error.
    pub async fn tx_status(
        &self,
        tx_hash: CryptoHash,
        sender: AccountId,
        wait_until: Option<TxExecutionStatus>,
    ) -> Result<Verified<RpcTransactionResponse>, VerifyError> {
        let status = self
            .client
            .tx_status((tx_hash, sender.clone()), wait_until)
            .await
            .map_err(|e| VerifyError::Status(Box::new(e)))?;
        let Some(outcome) = &status.outcome else {
            return Err(VerifyError::NoOutcome {
                reached: status.final_execution_status.clone(),
            });
        };
        let transaction_outcome = outcome.transaction_outcome();
        if transaction_outcome.id != tx_hash {
            return Err(VerifyError::Mismatch {
                message: format!(
                    "asked for transaction {tx_hash}, the status is of {}",
                    transaction_outcome.id
                ),
            });
        }
        let head = self.sync().await?;
        let mut shown = vec![(
            transaction_outcome,
            RpcLightClientExecutionProofRequestKind::Transaction {
                sender_id: sender,
                transaction_hash: tx_hash,
            },
        )];
        for receipt in outcome.receipts_outcome() {
            shown.push((
                receipt,
                RpcLightClientExecutionProofRequestKind::Receipt {
                    receipt_id: receipt.id,
                    receiver_id: receipt.outcome.executor_id.clone(),
                },
            ));
        }
        let mut outcomes = Vec::with_capacity(shown.len());
        for (view, of) in &shown {
            let (_, verified) = self.prove(&head, of.clone()).await?;
            // The leaf binds the id and every hashed field of the outcome; the proof's
            // block is the one after the outcome's, so block hashes are not compared.
            let leaf = verify::outcome_leaf(view)
                .map_err(|error| VerifyError::Outcome { id: view.id, error })?;
            if leaf != verified.outcome_hash {
                return Err(VerifyError::Mismatch {
                    message: format!(
                        "the status shows an outcome of {} that is not the proven one",
                        view.id
                    ),
                });
            }
            outcomes.push(verified);
        }
        let proven: Vec<&ExecutionOutcomeWithIdView> =
            shown.iter().map(|(view, _)| *view).collect();
        check_receipts_complete(&proven)?;
        check_final_status(&status, &proven)?;
        Ok(Verified {
            value: status,
            head_hash: head.hash(),
            head_height: head.height(),
            outcomes,
        })
    }
}

/// The receipts shown are exactly those the proven outcomes lead to: the transaction's
/// receipt ids, theirs, and so on. A receipt left out (a failure hidden) or one added
/// (another transaction's) is refused.
fn check_receipts_complete(proven: &[&ExecutionOutcomeWithIdView]) -> Result<(), VerifyError> {
    use std::collections::BTreeSet;
    let shown: BTreeSet<CryptoHash> = proven.iter().skip(1).map(|o| o.id).collect();
    let mut reached = BTreeSet::new();
    let mut next: Vec<CryptoHash> = proven[0].outcome.receipt_ids.clone();
    while let Some(id) = next.pop() {
        if !reached.insert(id) {
            continue;
        }
        if let Some(outcome) = proven.iter().find(|o| o.id == id) {
            next.extend(outcome.outcome.receipt_ids.iter().copied());
        }
    }
    if shown != reached || shown.len() + 1 != proven.len() {
        let missing: Vec<_> = reached
            .difference(&shown)
            .map(ToString::to_string)
            .collect();
        let extra: Vec<_> = shown
            .difference(&reached)
            .map(ToString::to_string)
            .collect();
        return Err(VerifyError::Mismatch {
            message: format!(
                "the receipts shown are not those the outcomes lead to (missing {missing:?}, \
                 not led to {extra:?})"
            ),
        });
    }
    Ok(())
}

/// The status's final status is what the proven outcomes make it, as nearcore derives
/// it: the transaction's outcome, followed through `SuccessReceiptId` to the receipt
/// that ends it. A failure's details are not hashed by nearcore, so only that it failed
/// is checked; a value is checked byte for byte.
fn check_final_status(
    status: &RpcTransactionResponse,
    proven: &[&ExecutionOutcomeWithIdView],
) -> Result<(), VerifyError> {
    use crate::types::{ExecutionStatusView as E, FinalExecutionStatus as F};
    let Some(outcome) = &status.outcome else {
        return Ok(());
    };
    let mismatch = |why: String| VerifyError::Mismatch { message: why };
    let mut current = proven[0];
    // At most one step per outcome: a cycle is refused.
    for _ in 0..=proven.len() {
        let agrees = match (&current.outcome.status, outcome.status()) {
            (E::SuccessReceiptId(id), _) => {
                current = proven
                    .iter()
                    .find(|o| o.id == *id)
                    .ok_or_else(|| mismatch(format!("the outcome of receipt {id} is not shown")))?;
                continue;
            }
            (E::SuccessValue(proven_value), F::SuccessValue(shown)) => proven_value == shown,
            (E::Failure(_), F::Failure(_)) => true,
            (E::Unknown, F::NotStarted | F::Started) => true,
            _ => false,
        };
        return if agrees {
            Ok(())
        } else {
            Err(mismatch(format!(
                "the final status shown is not what the proven outcomes make it (the chain \
                 ends at {})",
                current.id
            )))
        };
    }
    Err(mismatch(
        "the outcomes' receipt ids go round in a circle".to_owned(),
    ))
}
