//! The response of `tx`, `EXPERIMENTAL_tx_status`, `send_tx` and `broadcast_tx_commit`.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::__private::decode;
use crate::types::{
    FinalExecutionOutcomeView, FinalExecutionOutcomeWithReceiptView, TxExecutionStatus,
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
/// use near_rpc::{RpcTransactionResponse, types::TxExecutionStatus};
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

/// Keys of which any one means an outcome is present.
const OUTCOME_KEYS: [&str; 4] = [
    "status",
    "transaction",
    "transaction_outcome",
    "receipts_outcome",
];

impl<'de> Deserialize<'de> for RpcTransactionResponse {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut map = Map::<String, Value>::deserialize(deserializer)?;
        let status = map
            .remove("final_execution_status")
            .ok_or_else(|| D::Error::missing_field("final_execution_status"))?;
        let final_execution_status = decode(&status)
            .map_err(|e| D::Error::custom(format!("final_execution_status: {e}")))?;
        if !OUTCOME_KEYS.iter().any(|k| map.contains_key(*k)) {
            return Ok(Self {
                final_execution_status,
                outcome: None,
            });
        }
        let value = Value::Object(map);
        let outcome = if value.get("receipts").is_some() {
            decode(&value).map(TransactionOutcome::WithReceipts)
        } else {
            decode(&value).map(TransactionOutcome::WithoutReceipts)
        };
        Ok(Self {
            final_execution_status,
            outcome: Some(outcome.map_err(D::Error::custom)?),
        })
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
