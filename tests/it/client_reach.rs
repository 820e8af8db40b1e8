//! Archival routing and per-endpoint rate limits through `ClientBuilder`: against two
//! mock nodes (one keeping a window of recent blocks as a regular node does, one keeping
//! every block as an archival node does), in process and over HTTP, and against scripted
//! transports on tokio's paused clock.

#![cfg(feature = "client")]

use std::time::Duration;

use near_rpc::client::layers::{RateBudget, RetryPolicy};
use near_rpc::client::transport::{MockReply, MockTransport, RpcRequest, Transport};
use near_rpc::client::BuildError;
use near_rpc::types::{RpcBlockError, RpcQueryError};
use near_rpc::{Client, Finality, NearToken};
use near_rpc_mock::chain::{GENESIS_HEIGHT, INITIAL_HEAD};
use near_rpc_mock::MockNode;
use serde_json::{json, Value};

/// Blocks the windowed node keeps below its head.
const KEEP: u64 = 5;

/// A regular node: the last [`KEEP`] blocks below the head.
fn windowed() -> MockNode {
    let node = MockNode::new();
    node.keep_blocks(KEEP);
    node.set_block_time(Duration::ZERO);
    node
}

/// An archival node: every block.
fn full() -> MockNode {
    let node = MockNode::new();
    node.set_block_time(Duration::ZERO);
    node
}

/// `(method, params)` of every request `node` received.
fn seen(node: &MockNode) -> Vec<(String, Value)> {
    node.requests()
        .iter()
        .map(|r| (r.method.clone(), r.params()))
        .collect()
}

/// The routing promise, through `client` whose regular endpoint is `regular` and whose
/// archival endpoint is `archival`: the archival node gets exactly the reads of blocks
/// the regular one no longer keeps, and nothing else.
async fn old_reads_and_only_they_reach_the_archival_node(
    client: Client,
    regular: &MockNode,
    archival: &MockNode,
) {
    let old = INITIAL_HEAD - KEEP - 10;
    // `query` at a collected block: GARBAGE_COLLECTED_BLOCK, then the archival node.
    let account = client.at(old).view_account("alice.mock").await.unwrap();
    assert_eq!(account.block_height, old);
    // `block` at a collected height: UNKNOWN_BLOCK below the node's earliest block.
    let block = client.block(old - 1).await.unwrap();
    assert_eq!(block.header.height, old - 1);
    // Within the window, and at the head: the regular node answers.
    let recent = client
        .at(INITIAL_HEAD - 1)
        .view_account("alice.mock")
        .await
        .unwrap();
    assert_eq!(recent.block_height, INITIAL_HEAD - 1);
    client.block(Finality::Final).await.unwrap();
    // Above the head: UNKNOWN_BLOCK that the archival node could not change.
    let error = client.block(INITIAL_HEAD + 1_000).await.unwrap_err();
    assert!(
        matches!(
            error.handler_error(),
            Some(RpcBlockError::UnknownBlock { .. })
        ),
        "{error}"
    );
    // A transaction: the regular node alone, whatever happens.
    let signer = regular.signer("alice.mock").unwrap();
    client
        .transfer(&signer, "bob.mock", NearToken::from_yoctonear(1))
        .await
        .unwrap();

    assert_eq!(
        seen(archival),
        [
            (
                "query".to_owned(),
                json!({"request_type": "view_account", "account_id": "alice.mock", "block_id": old})
            ),
            ("block".to_owned(), json!({"block_id": old - 1})),
        ]
    );
    // The regular node was asked everything first, and what it keeps once per
    // UNKNOWN_BLOCK by height.
    let asked = seen(regular);
    let status = asked.iter().filter(|(m, _)| m == "status").count();
    assert_eq!(status, 2, "{asked:?}");
    assert!(asked.iter().any(|(m, _)| m == "send_tx"), "{asked:?}");
}

#[tokio::test]
async fn archival_routing_in_process() {
    let (regular, archival) = (windowed(), full());
    let client = Client::builder()
        .transport(regular.clone())
        .archival_transport(archival.clone())
        .build()
        .unwrap();
    old_reads_and_only_they_reach_the_archival_node(client, &regular, &archival).await;
}

#[tokio::test]
async fn archival_routing_over_http() {
    let (regular, archival) = (windowed(), full());
    let regular_server = regular.serve(0).await.unwrap();
    let archival_server = archival.serve(0).await.unwrap();
    let client = Client::builder()
        .endpoint(regular_server.url())
        .unwrap()
        .archival(archival_server.url())
        .unwrap()
        .build()
        .unwrap();
    old_reads_and_only_they_reach_the_archival_node(client, &regular, &archival).await;
}

/// Without an archival endpoint, the windowed node's answer is the caller's, typed.
#[tokio::test]
async fn a_windowed_node_alone_answers_as_nearcore_does() {
    let node = windowed();
    let client = Client::with_transport(node.clone());
    let old = INITIAL_HEAD - KEEP - 1;
    let error = client.at(old).view_account("alice.mock").await.unwrap_err();
    let hash = node.with_chain(|c| c.block_hash(old));
    assert!(
        matches!(
            error.handler_error(),
            Some(RpcQueryError::GarbageCollectedBlock { block_height, block_hash })
                if *block_height == old && *block_hash == hash
        ),
        "{error}"
    );
    // The oldest block kept is still there.
    client.block(INITIAL_HEAD - KEEP).await.unwrap();
    let status = client.status().await.unwrap();
    assert_eq!(
        status.sync_info.earliest_block_height,
        Some(INITIAL_HEAD - KEEP)
    );
    let kept = node.with_chain(|c| c.block_hash(INITIAL_HEAD - KEEP));
    assert_eq!(status.sync_info.earliest_block_hash, Some(kept));
}

/// The error object itself, byte for byte what nearcore sends: `name`/`cause` and the
/// legacy `code`/`message`/`data`; the window moves with the head.
#[tokio::test]
async fn the_windowed_nodes_error_has_nearcores_shape() {
    let node = windowed();
    let raw = |method: &'static str, params: Value| {
        let body = json!({"jsonrpc": "2.0", "id": "7", "method": method, "params": params});
        let node = node.clone();
        async move {
            let request = RpcRequest::new(method, 7, body.to_string(), false);
            let response = node.send(request).await.unwrap();
            (
                response.status,
                serde_json::from_slice::<Value>(&response.body).unwrap(),
            )
        }
    };
    let old = INITIAL_HEAD - KEEP - 1;
    let hash = node.with_chain(|c| c.block_hash(old)).to_string();
    let (status, body) = raw(
        "query",
        json!({"request_type": "view_account", "account_id": "alice.mock", "block_id": old}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        body["error"],
        json!({
            "name": "HANDLER_ERROR",
            "cause": {"name": "GARBAGE_COLLECTED_BLOCK", "info": {"block_height": old, "block_hash": hash}},
            "code": -32000,
            "message": "Server error",
            "data": format!("The data for block #{old} is garbage collected on this node, use an archival node to fetch historical data")
        })
    );
    // By hash, as by height.
    let (_, by_hash) = raw("block", json!({"block_id": hash})).await;
    assert_eq!(
        by_hash["error"]["cause"]["name"], "UNKNOWN_BLOCK",
        "{by_hash}"
    );
    let (_, genesis) = raw("block", json!({"sync_checkpoint": "genesis"})).await;
    assert_eq!(
        genesis["error"]["cause"]["name"], "UNKNOWN_BLOCK",
        "{genesis}"
    );
    let (_, positional) = raw("block", json!([old])).await;
    assert_eq!(
        positional["error"]["cause"]["name"], "UNKNOWN_BLOCK",
        "{positional}"
    );

    // Three blocks later, three more blocks are gone.
    node.advance(3);
    let (_, kept_before) = raw("block", json!({"block_id": INITIAL_HEAD - KEEP})).await;
    assert_eq!(
        kept_before["error"]["cause"]["name"], "UNKNOWN_BLOCK",
        "{kept_before}"
    );
    let (_, status) = raw("status", json!([])).await;
    assert_eq!(
        status["result"]["sync_info"]["earliest_block_height"],
        INITIAL_HEAD + 3 - KEEP
    );
    // A window wider than the chain keeps everything from genesis.
    node.keep_blocks(10_000);
    let (_, status) = raw("status", json!([])).await;
    assert_eq!(
        status["result"]["sync_info"]["earliest_block_height"],
        GENESIS_HEIGHT
    );
    let (_, genesis) = raw("block", json!({"sync_checkpoint": "genesis"})).await;
    assert!(genesis.get("result").is_some(), "{genesis}");
}

const PROTOCOL_CONFIG: &str = r#"{"jsonrpc":"2.0","id":"1","result":{"protocol_version":73}}"#;

/// The virtual time `n` concurrent calls through `client` take.
async fn time_of(client: &Client, n: usize) -> Duration {
    let started = tokio::time::Instant::now();
    let calls: Vec<_> = (0..n)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { client.protocol_config_at(Finality::Final).await })
        })
        .collect();
    for call in calls {
        call.await.unwrap().unwrap();
    }
    started.elapsed()
}

/// A budget holds its endpoint to its rate (10 calls at 4 per second with bursts of 2:
/// 2 s), and belongs to the endpoint added last, no other.
#[tokio::test(start_paused = true)]
async fn a_budget_holds_the_endpoint_added_last_to_its_rate() {
    let budget = RateBudget::per_second(4).burst(2);
    let endpoint = || MockTransport::new("m", [MockReply::json(PROTOCOL_CONFIG)]);
    let (first, second) = (endpoint(), endpoint());
    let client = Client::builder()
        .transport(first.clone())
        .rate_limit(budget)
        .transport(second.clone())
        .build()
        .unwrap();
    assert_eq!(time_of(&client, 10).await, Duration::from_secs(2));
    assert_eq!((first.requests().len(), second.requests().len()), (10, 0));

    // The budget on the second endpoint leaves the first, which answers, unlimited.
    let client = Client::builder()
        .transport(endpoint())
        .transport(endpoint())
        .rate_limit(budget)
        .build()
        .unwrap();
    assert_eq!(time_of(&client, 10).await, Duration::ZERO);

    // Off by default.
    let client = Client::builder().transport(endpoint()).build().unwrap();
    assert_eq!(time_of(&client, 50).await, Duration::ZERO);
}

/// Retries spend from the budget too: a 503 then a result, at 1 per second, is the
/// backoff or the budget's second, whichever is longer.
#[tokio::test(start_paused = true)]
async fn retries_spend_from_the_budget() {
    let busy = MockTransport::new(
        "m",
        [
            MockReply::status(503, "busy").header("retry-after", "0"),
            MockReply::json(PROTOCOL_CONFIG),
        ],
    );
    let client = Client::builder()
        .transport(busy.clone())
        .rate_limit(RateBudget::per_second(1))
        .retry(RetryPolicy::default())
        .build()
        .unwrap();
    // The backoff floor is 250 ms; the budget makes it 1 s.
    assert_eq!(time_of(&client, 1).await, Duration::from_secs(1));
    assert_eq!(busy.requests().len(), 2);
}

#[test]
fn a_budget_that_cannot_apply_is_refused_by_name() {
    let error = Client::builder()
        .rate_limit(RateBudget::per_second(5))
        .transport(MockTransport::new("m", []))
        .build()
        .unwrap_err();
    assert!(
        matches!(
            &error,
            BuildError::InvalidOption {
                option: "ClientBuilder::rate_limit",
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("before any endpoint"), "{error}");
    for (budget, option) in [
        (RateBudget::per_second(0), "RateBudget requests"),
        (RateBudget::per_second(5).burst(0), "RateBudget burst"),
    ] {
        let error = Client::builder()
            .transport(MockTransport::new("m", []))
            .rate_limit(budget)
            .build()
            .unwrap_err();
        assert!(
            matches!(&error, BuildError::InvalidOption { option: o, .. } if *o == option),
            "{error}"
        );
    }
    // Archival endpoints alone are no endpoint to read from.
    let error = Client::builder()
        .archival_transport(MockTransport::new("m", []))
        .build()
        .unwrap_err();
    assert!(matches!(error, BuildError::NoEndpoint), "{error}");
}

/// An API key and a budget given right after an archival endpoint are that endpoint's.
#[tokio::test(start_paused = true)]
async fn options_after_an_archival_endpoint_are_its_own() {
    let gc = r#"{"jsonrpc":"2.0","id":"1","error":{"name":"HANDLER_ERROR","cause":{"name":"GARBAGE_COLLECTED_BLOCK","info":{"block_height":1,"block_hash":"11111111111111111111111111111111"}}}}"#;
    let view = r#"{"jsonrpc":"2.0","id":"1","result":{"amount":"1","locked":"0","code_hash":"11111111111111111111111111111111","storage_usage":1,"storage_paid_at":0,"block_height":1,"block_hash":"11111111111111111111111111111111"}}"#;
    let regular = MockTransport::new("regular", [MockReply::json(gc)]);
    let archival = MockTransport::new("archival", [MockReply::json(view)]);
    let client = Client::builder()
        .transport(regular.clone())
        .archival_transport(archival.clone())
        .rate_limit(RateBudget::per_second(1))
        .build()
        .unwrap();
    let started = tokio::time::Instant::now();
    for _ in 0..3 {
        client.at(1u64).view_account("alice.near").await.unwrap();
    }
    // The archival endpoint's budget: 3 reads in 2 s; the regular one is unlimited.
    assert_eq!(started.elapsed(), Duration::from_secs(2));
    assert_eq!(
        (regular.requests().len(), archival.requests().len()),
        (3, 3)
    );
}
