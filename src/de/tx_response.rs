//! The response of `tx`, `EXPERIMENTAL_tx_status`, `send_tx` and `broadcast_tx_commit`.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::generated::types::{
    ExecutionOutcomeWithIdView, FinalExecutionOutcomeView, FinalExecutionOutcomeWithReceiptView,
    FinalExecutionStatus, ReceiptView, SignedTransactionView, TxExecutionStatus,
};

/// A transaction's status: how far it got (`final_execution_status`) and, once it has
/// executed, its outcome.
///
/// With `wait_until` NONE or INCLUDED a node answers before execution, with only
/// `final_execution_status`: then `outcome` is `None`. The spec models this as an `anyOf`
/// whose last arm accepts anything, which would let an outcome with a broken field pass
/// as "no outcome"; here an outcome that is present must decode, and a failure names the
/// JSON path of the bad field.
///
/// ```
/// use near_rpc::types::{RpcTransactionResponse, TxExecutionStatus};
///
/// let pending: RpcTransactionResponse =
///     serde_json::from_str(r#"{"final_execution_status": "INCLUDED"}"#).unwrap();
/// assert_eq!(pending.final_execution_status, TxExecutionStatus::Included);
/// assert!(pending.outcome.is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct RpcTransactionResponse {
    /// The milestone the transaction reached (`wait_until` asks for one).
    pub final_execution_status: TxExecutionStatus,
    /// The execution outcome, once there is one.
    pub outcome: Option<TransactionOutcome>,
}

/// A transaction's execution outcome: `EXPERIMENTAL_tx_status` includes the receipts,
/// `tx` does not.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum TransactionOutcome {
    /// The outcome with the receipts it produced.
    WithReceipts(FinalExecutionOutcomeWithReceiptView),
    /// The outcome alone.
    WithoutReceipts(FinalExecutionOutcomeView),
}

/// Every field of both outcome shapes, optional, decoded in one pass straight from the
/// input (no buffering: this is the largest common response, and errors keep their
/// path); which shape it is gets decided afterwards, by [`Wire::into_response`].
#[derive(Deserialize)]
struct Wire {
    final_execution_status: TxExecutionStatus,
    #[serde(default)]
    status: Option<FinalExecutionStatus>,
    #[serde(default)]
    transaction: Option<SignedTransactionView>,
    #[serde(default)]
    transaction_outcome: Option<ExecutionOutcomeWithIdView>,
    #[serde(default)]
    receipts_outcome: Option<Vec<ExecutionOutcomeWithIdView>>,
    #[serde(default)]
    receipts: Option<Vec<ReceiptView>>,
}

impl Wire {
    fn into_response(self) -> Result<RpcTransactionResponse, String> {
        let final_execution_status = self.final_execution_status;
        let parts = (
            self.status,
            self.transaction,
            self.transaction_outcome,
            self.receipts_outcome,
        );
        let outcome = match parts {
            (None, None, None, None) if self.receipts.is_none() => None,
            (
                Some(status),
                Some(transaction),
                Some(transaction_outcome),
                Some(receipts_outcome),
            ) => {
                // Exhaustive literals: a field the spec adds to these views fails to compile
                // here, rather than being dropped.
                Some(match self.receipts {
                    Some(receipts) => {
                        TransactionOutcome::WithReceipts(FinalExecutionOutcomeWithReceiptView {
                            receipts,
                            receipts_outcome,
                            status,
                            transaction,
                            transaction_outcome,
                        })
                    }
                    None => TransactionOutcome::WithoutReceipts(FinalExecutionOutcomeView {
                        receipts_outcome,
                        status,
                        transaction,
                        transaction_outcome,
                    }),
                })
            }
            (status, transaction, transaction_outcome, _) => {
                let missing = if status.is_none() {
                    "status"
                } else if transaction.is_none() {
                    "transaction"
                } else if transaction_outcome.is_none() {
                    "transaction_outcome"
                } else {
                    "receipts_outcome"
                };
                return Err(format!(
                    "missing field `{missing}`: an outcome has status, transaction, \
                     transaction_outcome and receipts_outcome"
                ));
            }
        };
        Ok(RpcTransactionResponse {
            final_execution_status,
            outcome,
        })
    }
}

impl<'de> Deserialize<'de> for RpcTransactionResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Wire::deserialize(deserializer)?
            .into_response()
            .map_err(D::Error::custom)
    }
}

impl crate::de::native::Decode for RpcTransactionResponse {
    fn decode(r: &mut crate::de::native::Reader<'_>) -> Result<Self, crate::de::native::Error> {
        let wire = decode_fields!(r, "struct RpcTransactionResponse", Wire {
            final_execution_status "final_execution_status" required,
            status "status" default,
            transaction "transaction" default,
            transaction_outcome "transaction_outcome" default,
            receipts_outcome "receipts_outcome" default,
            receipts "receipts" default,
        });
        wire.into_response().map_err(|e| r.data_error(e))
    }
}

impl Serialize for RpcTransactionResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Wire<'a> {
            final_execution_status: &'a TxExecutionStatus,
            #[serde(flatten, skip_serializing_if = "Option::is_none")]
            outcome: &'a Option<TransactionOutcome>,
        }
        Wire {
            final_execution_status: &self.final_execution_status,
            outcome: &self.outcome,
        }
        .serialize(serializer)
    }
}
