//! [`VerifiedClient`]: reads whose answers are checked against a light-client head the
//! caller trusts, instead of believed ([`Client::verified`]).
//!
//! The head follows the chain: [`VerifiedClient::sync`] asks `next_light_client_block`
//! from the head until there is no newer block, validating each (signatures of more than
//! 2/3 of each epoch's stake) before moving. A verified transaction status then fetches a
//! `light_client_proof` against the head for the transaction's outcome and for every
//! receipt's, checks each against the head's block Merkle root, and checks that the
//! status shows exactly the proven outcomes.
//!
//! What this guarantees, and what it does not, is `near_rpc::verify`'s: a view call's
//! result, an account's balance, anything without a proof is not covered. The cost is in
//! round trips: one per epoch the head moves, and one proof per outcome (BENCHMARKS.md).

use std::fmt;
use std::sync::Arc;

use super::{Client, Error};
use crate::types::{
    ExecutionOutcomeWithIdView, RpcLightClientExecutionProofRequest,
    RpcLightClientExecutionProofRequestKind, RpcLightClientNextBlockError,
    RpcLightClientNextBlockRequest, RpcLightClientProofError, RpcTransactionError,
    TxExecutionStatus,
};
use crate::verify::{self, BlockError, LightClientHead, ProofError, VerifiedOutcome};
use crate::{methods, AccountId, CryptoHash, RpcTransactionResponse};

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
    /// The answer shows something other than what was proven (or nothing to prove).
    Mismatch {
        /// What differs.
        message: String,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Status(e) => write!(f, "cannot read the transaction status: {e}"),
            Self::NextBlock(e) => write!(f, "cannot read the next light-client block: {e}"),
            Self::Proof(e) => write!(f, "cannot read a proof: {e}"),
            Self::Block(e) => write!(f, "the node's light-client block does not verify: {e}"),
            Self::Outcome { id, error } => write!(f, "the outcome of {id}: {error}"),
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
            Self::Mismatch { .. } => None,
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
    /// block on the way; returns the new head. A block that does not validate leaves the
    /// head where it was.
    pub async fn sync(&self) -> Result<LightClientHead, VerifyError> {
        let mut head = self.head.lock().await;
        for _ in 0..MAX_SYNC_BLOCKS {
            let request = RpcLightClientNextBlockRequest {
                last_block_hash: head.hash(),
            };
            let block = self
                .client
                .call::<methods::NextLightClientBlockMethod>(request)
                .await
                .map_err(|e| VerifyError::NextBlock(Box::new(e)))?;
            // An empty answer: the head is the newest block the node can vouch for.
            if block.inner_lite.is_none() {
                break;
            }
            head.advance(&block).map_err(VerifyError::Block)?;
        }
        Ok(head.clone())
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
        let request = RpcLightClientExecutionProofRequest {
            light_client_head: head.hash(),
            kind: of,
        };
        let proof = self
            .client
            .call::<methods::LightClientProofMethod>(request)
            .await
            .map_err(|e| VerifyError::Proof(Box::new(e)))?;
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
            return Err(VerifyError::Mismatch {
                message: format!(
                    "the status ({:?}) has no outcome to prove yet",
                    status.final_execution_status
                ),
            });
        };
        let head = self.sync().await?;
        let mut shown = vec![(
            outcome.transaction_outcome(),
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
        for (view, of) in shown {
            let (_, verified) = self.prove(&head, of).await?;
            let leaf = verify::outcome_leaf(view)
                .map_err(|error| VerifyError::Outcome { id: view.id, error })?;
            if leaf != verified.outcome_hash || view.block_hash != verified.block_hash {
                return Err(VerifyError::Mismatch {
                    message: format!(
                        "the status shows an outcome of {} that is not the proven one",
                        view.id
                    ),
                });
            }
            outcomes.push(verified);
        }
        Ok(Verified {
            value: status,
            head_hash: head.hash(),
            head_height: head.height(),
            outcomes,
        })
    }
}
