//! Loopback servers for the client tests: the mock node (`near-rpc-mock`) answering a
//! script of replies in order (the last repeats), on a thread of its own so that async
//! and blocking tests can both use it. Every request is recorded.

#![allow(dead_code)]

pub use near_rpc_mock::{unused_url as refused_url, HttpReply as Reply, Recorded};
use near_rpc_mock::{BackgroundServer, MockNode};

/// A scripted server; it stops when dropped.
pub struct TestServer(BackgroundServer);

impl TestServer {
    /// Starts serving `replies` in order; after the last, the last one repeats.
    pub fn start(replies: Vec<Reply>) -> Self {
        Self(MockNode::start_scripted(replies))
    }

    /// The base URL, with an optional path (where an API key may go).
    pub fn url(&self, path: &str) -> String {
        self.0.url_with(path)
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.0.requests()
    }
}

/// A successful outcome of `signed` at `level`, as nearcore answers `send_tx` and
/// `tx_status` (one receipt), whose transaction outcome names `id` (the transaction's
/// own hash, or another's for a node answering for the wrong one).
#[cfg(feature = "client")]
pub fn outcome_json(
    signed: &near_rpc::tx::SignedTransaction,
    level: &str,
    id: near_rpc::CryptoHash,
) -> serde_json::Value {
    use near_rpc::CryptoHash;
    use serde_json::{json, Value};
    let receipt = CryptoHash::hash_bytes(&id.0);
    let outcome = |id: CryptoHash, status: Value| {
        json!({
            "proof": [], "id": id.to_string(), "block_hash": CryptoHash([7; 32]).to_string(),
            "outcome": {"logs": [], "receipt_ids": [], "gas_burnt": 1, "tokens_burnt": "1",
                "executor_id": signed.transaction().signer_id().to_string(), "status": status,
                "metadata": {"version": 1, "gas_profile": null}}
        })
    };
    json!({
        "final_execution_status": level,
        "status": {"SuccessValue": ""},
        "transaction": near_rpc::types::SignedTransactionView::from(signed),
        "transaction_outcome": outcome(id, json!({"SuccessReceiptId": receipt.to_string()})),
        "receipts_outcome": [outcome(receipt, json!({"SuccessValue": ""}))]
    })
}
