//! A regular node's window of recent blocks ([`MockNode::keep_blocks`]): reads of a
//! block older than the window fail as a garbage-collecting nearcore node's do, so that
//! a client's archival routing can be tested against a windowed node and a full one.
//!
//! nearcore keeps every block header but garbage-collects blocks, chunks and state older
//! than its `gc_num_epochs_to_keep` (nearcore `chain/chain/src/garbage_collection.rs`):
//! a `query` at such a block finds no state and answers `GARBAGE_COLLECTED_BLOCK` with
//! the block's height and hash (nearcore `chain/jsonrpc-primitives/src/types/query.rs`),
//! other reads find no block and answer `UNKNOWN_BLOCK`. Its `status` reports the
//! earliest block kept in `sync_info.earliest_block_height`.

use std::sync::{Arc, Weak};

use near_rpc::CryptoHash;
use serde_json::{json, Value};

use crate::chain::{Chain, GENESIS_HEIGHT};
use crate::handler::{self, RpcError, Step};
use crate::node::MockNode;
use crate::node::State;
use crate::wire::Reply;

/// The methods that read at a block, and `status`: what the window answers.
const WINDOWED: &[&str] = &[
    "status",
    "block",
    "chunk",
    "query",
    "EXPERIMENTAL_view_account",
    "EXPERIMENTAL_view_code",
    "EXPERIMENTAL_view_state",
    "EXPERIMENTAL_view_access_key",
    "EXPERIMENTAL_view_access_key_list",
    "EXPERIMENTAL_call_function",
    "changes",
    "EXPERIMENTAL_changes",
    "EXPERIMENTAL_changes_in_block",
    "block_effects",
    "gas_price",
    "EXPERIMENTAL_protocol_config",
];

impl MockNode {
    /// Keeps only the last `blocks` blocks below the head, as a regular (not archival)
    /// nearcore node does: a read at an older block answers `GARBAGE_COLLECTED_BLOCK`
    /// (`query`) or `UNKNOWN_BLOCK` (every other read), exactly as nearcore shapes them
    /// (legacy `code`/`message`/`data` included), and `status` reports `head - blocks`
    /// as the earliest block. The window moves with the head.
    ///
    /// Blocks are named by `block_id` (height or hash) or `sync_checkpoint: "genesis"`;
    /// a chunk by its own hash and a transaction's status are answered as before, from
    /// the whole chain.
    ///
    /// The window answers the methods that read at a block through per-method handlers
    /// ([`MockNode::on`]): a handler set later for one of them replaces the window for
    /// that method.
    pub fn keep_blocks(&self, blocks: u64) {
        let state = Arc::downgrade(&self.state);
        for method in WINDOWED {
            let state = state.clone();
            self.on(method, move |params| {
                windowed(&state, blocks, method, params)
            });
        }
    }
}

/// The answer of a node keeping `keep` blocks below its head.
fn windowed(
    state: &Weak<std::sync::Mutex<State>>,
    keep: u64,
    method: &str,
    params: &Value,
) -> Reply {
    let Some(state) = state.upgrade() else {
        return Reply::Error(RpcError::internal("the node is gone"));
    };
    let mut state = state.lock().unwrap_or_else(|p| p.into_inner());
    let chain = &mut state.chain;
    let earliest = chain.head().saturating_sub(keep).max(GENESIS_HEIGHT);
    if method != "status" {
        let named = match handler::named(method, params) {
            Ok(named) => named,
            Err(e) => return Reply::Error(e),
        };
        if let Some((height, by_hash)) = referenced(chain, &named) {
            if height < earliest {
                return Reply::Error(collected(chain, method, height, by_hash, &named));
            }
        }
    }
    match handler::step(chain, method, params) {
        Step::Now(Ok(mut result)) => {
            if method == "status" {
                let sync = &mut result["sync_info"];
                sync["earliest_block_height"] = json!(earliest);
                sync["earliest_block_hash"] = json!(chain.block_hash(earliest).to_string());
            }
            Reply::Result(result)
        }
        Step::Now(Err(e)) => Reply::Error(e),
        // None of the windowed methods waits for a transaction.
        Step::Wait(_) => Reply::Error(RpcError::internal(format!("{method} cannot wait"))),
    }
}

/// The existing block `params` name by `block_id` or `sync_checkpoint: "genesis"`, and
/// whether by hash. A finality names the head, always kept; a block that does not exist
/// is the handler's to refuse.
fn referenced(chain: &Chain, params: &Value) -> Option<(u64, bool)> {
    match params.get("block_id") {
        Some(Value::Number(n)) => n
            .as_u64()
            .filter(|h| (GENESIS_HEIGHT..=chain.head()).contains(h))
            .map(|h| (h, false)),
        Some(Value::String(s)) => chain
            .height_of(&s.parse::<CryptoHash>().ok()?)
            .map(|h| (h, true)),
        _ => (params.get("sync_checkpoint").and_then(Value::as_str) == Some("genesis"))
            .then_some((GENESIS_HEIGHT, false)),
    }
}

/// nearcore's answer to a read at a collected block: `GARBAGE_COLLECTED_BLOCK` to
/// `query`, `UNKNOWN_BLOCK` to the rest.
fn collected(chain: &Chain, method: &str, height: u64, by_hash: bool, params: &Value) -> RpcError {
    if method == "query" {
        return RpcError::handler(
            "GARBAGE_COLLECTED_BLOCK",
            json!({
                "block_height": height,
                "block_hash": chain.block_hash(height).to_string()
            }),
            format!(
                "The data for block #{height} is garbage collected on this node, use an \
                 archival node to fetch historical data"
            ),
        );
    }
    let reference = match params.get("block_id") {
        Some(id) => json!({ "block_id": id }),
        None => json!({ "sync_checkpoint": "genesis" }),
    };
    let what = if by_hash {
        "BLOCK HASH"
    } else {
        "BLOCK HEIGHT"
    };
    RpcError::handler(
        "UNKNOWN_BLOCK",
        json!({ "block_reference": reference }),
        format!("DB Not Found Error: {what}"),
    )
}
