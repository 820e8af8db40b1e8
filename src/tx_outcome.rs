//! What a transaction's response says, read without matching its versions by hand: its
//! status, its failures, the value it returned, its receipts beside their outcomes.

use base64::Engine as _;

use crate::de::tx_response::RpcTransactionResponse;
use crate::de::tx_response::TransactionOutcome;
use crate::generated::types::{
    ExecutionOutcomeWithIdView, ExecutionStatusView, FinalExecutionStatus, ReceiptView,
    TxExecutionError,
};

/// A value that should be base64 but isn't.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidBase64(pub String);

impl std::fmt::Display for InvalidBase64 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "success value is not base64: {}", self.0)
    }
}

impl std::error::Error for InvalidBase64 {}

impl TransactionOutcome {
    /// The outcome's status.
    pub fn status(&self) -> &FinalExecutionStatus {
        match self {
            Self::WithReceipts(o) => &o.status,
            Self::WithoutReceipts(o) => &o.status,
        }
    }

    /// The transaction, as the node read it (its `hash` names it).
    pub fn transaction(&self) -> &crate::generated::types::SignedTransactionView {
        match self {
            Self::WithReceipts(o) => &o.transaction,
            Self::WithoutReceipts(o) => &o.transaction,
        }
    }

    /// The outcome of the transaction itself.
    pub fn transaction_outcome(&self) -> &ExecutionOutcomeWithIdView {
        match self {
            Self::WithReceipts(o) => &o.transaction_outcome,
            Self::WithoutReceipts(o) => &o.transaction_outcome,
        }
    }

    /// The outcomes of the receipts, in the node's order.
    pub fn receipts_outcome(&self) -> &[ExecutionOutcomeWithIdView] {
        match self {
            Self::WithReceipts(o) => &o.receipts_outcome,
            Self::WithoutReceipts(o) => &o.receipts_outcome,
        }
    }

    /// The receipts (only `EXPERIMENTAL_tx_status` returns them).
    pub fn receipts(&self) -> &[ReceiptView] {
        match self {
            Self::WithReceipts(o) => &o.receipts,
            Self::WithoutReceipts(_) => &[],
        }
    }
}

impl RpcTransactionResponse {
    /// The transaction's failure, if the outcome says it failed.
    pub fn failure(&self) -> Option<&TxExecutionError> {
        match self.outcome.as_ref()?.status() {
            FinalExecutionStatus::Failure(error) => Some(error),
            _ => None,
        }
    }

    /// Whether the transaction or any of its receipts failed.
    pub fn is_failure(&self) -> bool {
        self.first_failure().is_some()
    }

    /// The first failure among the transaction and its receipts, in execution order.
    pub fn first_failure(&self) -> Option<&TxExecutionError> {
        let outcome = self.outcome.as_ref()?;
        std::iter::once(outcome.transaction_outcome())
            .chain(outcome.receipts_outcome())
            .find_map(|o| match &o.outcome.status {
                ExecutionStatusView::Failure(error) => Some(error),
                _ => None,
            })
            .or_else(|| self.failure())
    }

    /// The bytes the transaction returned (`SuccessValue`, decoded from base64); `None`
    /// before execution or when it did not succeed with a value.
    pub fn success_value(&self) -> Option<Result<Vec<u8>, InvalidBase64>> {
        match self.outcome.as_ref()?.status() {
            FinalExecutionStatus::SuccessValue(base64) => Some(
                base64::engine::general_purpose::STANDARD
                    .decode(base64)
                    .map_err(|e| InvalidBase64(e.to_string())),
            ),
            _ => None,
        }
    }

    /// Each receipt with its outcome, matched by receipt id (`EXPERIMENTAL_tx_status`
    /// only; a receipt whose outcome is missing is paired with `None`).
    pub fn receipts_with_outcomes(
        &self,
    ) -> impl Iterator<Item = (&ReceiptView, Option<&ExecutionOutcomeWithIdView>)> {
        let outcome = self.outcome.as_ref();
        let receipts = outcome
            .map(TransactionOutcome::receipts)
            .unwrap_or_default();
        let outcomes = outcome
            .map(TransactionOutcome::receipts_outcome)
            .unwrap_or_default();
        receipts.iter().map(move |receipt| {
            let matching = outcomes.iter().find(|o| o.id == receipt.receipt_id);
            (receipt, matching)
        })
    }
}
