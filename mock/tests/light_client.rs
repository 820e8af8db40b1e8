//! The mock's light-client proofs, checked with near-rpc's own verifier.

use near_rpc::client::transport::{RpcRequest, Transport};
use near_rpc::types::{Direction, RpcLightClientBlockProofResponse};
use near_rpc::verify::{self, ProofStep};
use near_rpc::CryptoHash;
use near_rpc_mock::chain::{GENESIS_HEIGHT, INITIAL_HEAD, TX_HEIGHT};
use near_rpc_mock::MockNode;
use serde_json::{json, Value};

/// The raw answer of `node` to `method` with `params`.
async fn ask(node: &MockNode, method: &'static str, params: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": "1", "method": method, "params": params});
    let request = RpcRequest::new(method, 1, serde_json::to_vec(&body).unwrap(), false);
    let response = node.send(request).await.expect("the mock answers");
    serde_json::from_slice(&response.body).unwrap()
}

/// `light_client_block_proof` of the block at `height` against the head at `head`.
async fn block_proof(node: &MockNode, height: u64, head: u64) -> RpcLightClientBlockProofResponse {
    let hash = |h| node.with_chain(|c| c.block_hash(h)).to_string();
    let params = json!({"block_hash": hash(height), "light_client_head": hash(head)});
    let answer = ask(node, "light_client_block_proof", params).await;
    near_rpc::decode::from_value(answer["result"].clone())
        .unwrap_or_else(|e| panic!("block {height} to head {head}: {e}: {answer}"))
}

/// The root a Merkle path leads to from `leaf`, walked as nearcore walks it.
fn walk(path: &[near_rpc::types::MerklePathItem], leaf: CryptoHash) -> CryptoHash {
    path.iter().fold(leaf, |hash, item| match item.direction {
        Direction::Left => verify::combine_hash(&item.hash, &hash),
        _ => verify::combine_hash(&hash, &item.hash),
    })
}

/// Every block, to heads whose trees have 0, 1, an odd and an even number of leaves,
/// is proven by its header (which hashes to it) and a path to the head's block Merkle
/// root; near-rpc's execution-proof verifier walks that path to the same root.
#[tokio::test]
async fn block_proofs_lead_to_the_heads_block_merkle_root() {
    let node = MockNode::new();
    node.advance(3);
    let last = node.with_chain(|c| c.head());
    let transfer = node.with_chain(|c| c.genesis_transfer());
    for head in [
        GENESIS_HEIGHT,
        GENESIS_HEIGHT + 1,
        TX_HEIGHT + 1,
        INITIAL_HEAD,
        last,
    ] {
        // A block proven to itself: its header, and no path (nearcore's answer).
        let own = block_proof(&node, head, head).await;
        assert!(own.block_proof.is_empty(), "head {head}");
        let root = own.block_header_lite.inner_lite.block_merkle_root;
        for height in GENESIS_HEIGHT..head {
            let proof = block_proof(&node, height, head).await;
            let hash = node.with_chain(|c| c.block_hash(height));
            assert_eq!(
                verify::block_hash(&proof.block_header_lite).unwrap(),
                hash,
                "the header of block {height}"
            );
            // Only a tree of one block (the genesis, under the block after it) is its
            // own root.
            assert_eq!(
                proof.block_proof.is_empty(),
                head == GENESIS_HEIGHT + 1,
                "block {height} to head {head}"
            );
            assert_eq!(
                walk(&proof.block_proof, hash),
                root,
                "block {height} to head {head}"
            );
        }
        if head <= TX_HEIGHT {
            continue;
        }
        // near-rpc's verifier: the transfer's execution proof, carrying the block proof
        // answered for its block, leads to the head's root; another block's path does
        // not.
        let answer = node.with_chain(|c| c.execution_proof(&transfer, head).unwrap());
        let mut proof = verify::execution_proof_from_json(answer).unwrap();
        proof.block_proof = block_proof(&node, TX_HEIGHT, head).await.block_proof;
        let verified = verify::verify_execution_proof(&proof, &root).unwrap();
        assert_eq!(verified.block_height, TX_HEIGHT);
        proof.block_proof = block_proof(&node, TX_HEIGHT - 1, head).await.block_proof;
        let error = verify::verify_execution_proof(&proof, &root).unwrap_err();
        assert_eq!(error.step, ProofStep::BlockProof, "{error}");
    }
}

/// A block after the head, or a head the node does not know, is refused as nearcore
/// refuses it.
#[tokio::test]
async fn a_block_proof_needs_a_known_head_not_before_the_block() {
    let node = MockNode::new();
    let hash = |h| node.with_chain(|c| c.block_hash(h)).to_string();
    let answer = ask(
        &node,
        "light_client_block_proof",
        json!({"block_hash": hash(TX_HEIGHT + 1), "light_client_head": hash(TX_HEIGHT)}),
    )
    .await;
    assert_eq!(
        answer["error"]["cause"]["name"], "INTERNAL_ERROR",
        "{answer}"
    );
    let message = answer["error"]["data"].as_str().unwrap();
    assert_eq!(
        message,
        format!(
            "block {} is ahead of head block {}",
            hash(TX_HEIGHT + 1),
            hash(TX_HEIGHT)
        )
    );
    let unknown = near_rpc_mock::chain::hash("no such block").to_string();
    let answer = ask(
        &node,
        "EXPERIMENTAL_light_client_block_proof",
        json!({"block_hash": hash(TX_HEIGHT), "light_client_head": unknown}),
    )
    .await;
    assert_eq!(
        answer["error"]["cause"]["name"], "UNKNOWN_BLOCK",
        "{answer}"
    );
    let answer = ask(
        &node,
        "light_client_block_proof",
        json!({"block_hash": hash(TX_HEIGHT)}),
    )
    .await;
    assert_eq!(answer["error"]["cause"]["name"], "PARSE_ERROR", "{answer}");
}
