//! The typed shortcuts against recorded real traffic: each one sends what real clients
//! sent for the same inputs, and reads what real nodes answered (errors inside a `query`
//! result included) into its typed value or a typed error.

use near_rpc::client::layers::RetryPolicy;
use near_rpc::client::transport::{MockReply, MockTransport};
use near_rpc::client::{Epoch, ErrorKind, RawArgs};
use near_rpc::types::{
    BlockReference, FunctionCallError, MethodResolveError, RpcBlockError, RpcChunkError,
    RpcLightClientExecutionProofRequestKind, RpcQueryError,
    RpcStateChangesInBlockByTypeRequestKind,
};
use near_rpc::{BlockId, Client, CryptoHash, Finality};
use serde_json::{json, Value};

use crate::common::{fixtures, shared_dir};

/// A client whose node answers every request with the recorded body `path` (under
/// `fixtures/`), the request's id echoed.
fn replaying(path: &str) -> (Client, MockTransport) {
    let body = std::fs::read(shared_dir().join("fixtures").join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let node = MockTransport::new("recorded", [MockReply::json(body)]);
    let client = Client::builder()
        .transport(node.clone())
        .retry(RetryPolicy::none())
        .build()
        .unwrap();
    (client, node)
}

fn recorded_result(path: &str) -> Value {
    let body = std::fs::read(shared_dir().join("fixtures").join(path)).unwrap();
    serde_json::from_slice::<Value>(&body).unwrap()["result"].clone()
}

fn sent(node: &MockTransport) -> Value {
    let request = node.requests().pop().expect("a request was sent");
    serde_json::from_slice::<Value>(&request.body).unwrap()
}

fn run<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs ../shared")]
fn views_read_recorded_answers_with_their_block() {
    run(async {
        let path = "query/nearapiex-accounts-view_account-success.json";
        let (client, node) = replaying(path);
        let account = client
            .view_account("client.chainlink.testnet")
            .await
            .unwrap();
        let recorded = recorded_result(path);
        assert_eq!(
            account.amount.as_yoctonear().to_string(),
            recorded["amount"]
        );
        assert_eq!(json!(account.block_height), recorded["block_height"]);
        assert_eq!(account.block_hash.to_string(), recorded["block_hash"]);
        let params = &sent(&node)["params"];
        assert_eq!(params["request_type"], "view_account");
        assert_eq!(
            params["finality"], "final",
            "views default to the latest final block"
        );

        let (client, _) = replaying("query/neardocs-view_access_key-1.json");
        let key = client
            .view_access_key(
                "client.chainlink.testnet",
                "ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW",
            )
            .await
            .unwrap();
        assert_eq!(key.nonce, 85);

        let (client, _) = replaying("query/neardocs-view_access_key_list-2.json");
        let keys = client
            .view_access_key_list("example.testnet")
            .await
            .unwrap();
        assert!(!keys.keys.is_empty());

        let path = "query/neardocs-view_code-4.json";
        let (client, _) = replaying(path);
        let code = client.view_code("guest-book.testnet").await.unwrap();
        assert_eq!(code.hash.to_string(), recorded_result(path)["hash"]);

        let (client, node) = replaying("query/neardocs-view_state-5.json");
        let state = client.view_state("guest-book.testnet", b"").await.unwrap();
        assert!(!state.values.is_empty());
        assert_eq!(sent(&node)["params"]["prefix_base64"], "");
        let state = client
            .view_state_with_proof("guest-book.testnet", b"m::")
            .await;
        assert!(state.is_ok());
        let params = &sent(&node)["params"];
        assert_eq!(params["include_proof"], true);
        assert_eq!(params["prefix_base64"], "bTo6");
    });
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs ../shared")]
fn contract_calls_read_as_json_text_or_bytes() {
    run(async {
        let (client, node) =
            replaying("query/nearapiex-contracts-call_function-success_getter.json");
        let result = client
            .call_function(
                "yellowpie.testnet",
                "get_status",
                json!({"account_id": "x.testnet"}),
            )
            .await
            .unwrap();
        let greeting: String = result.json().unwrap();
        assert_eq!(greeting, "hello world");
        assert_eq!(result.text(), Some("\"hello world\""));
        assert_eq!(result.bytes(), b"\"hello world\"");
        assert!(result.logs.is_empty());
        let params = &sent(&node)["params"];
        assert_eq!(params["method_name"], "get_status");
        let args = params["args_base64"].as_str().unwrap();
        assert_eq!(args, "eyJhY2NvdW50X2lkIjoieC50ZXN0bmV0In0=");
        // A type that does not match names where.
        let err = result.json::<u64>().unwrap_err();
        assert!(err.to_string().contains("expected"), "{err}");

        // No args send no bytes; raw args are sent as they are.
        let _ = client
            .call_function("yellowpie.testnet", "get_status", ())
            .await;
        assert_eq!(sent(&node)["params"]["args_base64"], "");
        let _ = client
            .call_function("yellowpie.testnet", "get_status", RawArgs(vec![0, 1, 2]))
            .await;
        assert_eq!(sent(&node)["params"]["args_base64"], "AAEC");
    });
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs ../shared")]
fn errors_inside_a_query_result_are_typed_errors() {
    run(async {
        // A legacy node: HTTP 200, `result: {"error": "...", "logs": []}`.
        let (client, _) = replaying("query/nearapiex-access_keys-view_access_key-error.json");
        let err = client
            .view_access_key(
                "client.chainlink.testnet",
                "ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW",
            )
            .await
            .unwrap_err();
        let Some(RpcQueryError::UnknownAccessKey {
            public_key,
            block_height,
            ..
        }) = err.handler_error()
        else {
            panic!("{err:?}")
        };
        assert_eq!(*block_height, 76786602);
        assert_eq!(
            public_key.to_string(),
            "ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW"
        );
        let shown = err.to_string();
        assert!(
            shown.contains("UNKNOWN_ACCESS_KEY: access key ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW does not exist while viewing"),
            "{shown}"
        );
        assert!(matches!(err.kind(), ErrorKind::Rpc { status: 200, .. }));
        assert!(!err.is_retryable());

        let (client, _) =
            replaying("query/nearapiex-contracts-call_function-error_function_not_found.json");
        let err = client
            .call_function("yellowpie.testnet", "hello_world", ())
            .await
            .unwrap_err();
        let Some(RpcQueryError::ContractExecutionError { error, .. }) = err.handler_error() else {
            panic!("{err:?}")
        };
        assert_eq!(
            *error,
            FunctionCallError::MethodResolveError(MethodResolveError::MethodNotFound)
        );
        assert!(err
            .to_string()
            .contains("CONTRACT_EXECUTION_ERROR: wasm execution failed"));

        // A current node: a JSON-RPC error with the typed cause.
        let (client, _) = replaying("query/nearapiex-contracts-view_state-error_too_large.json");
        let err = client
            .view_state("client.chainlink.testnet", b"")
            .await
            .unwrap_err();
        assert!(matches!(
            err.handler_error(),
            Some(RpcQueryError::TooLargeContractState { .. })
        ));
        assert!(
            err.to_string().contains(
                "TOO_LARGE_CONTRACT_STATE: State of contract client.chainlink.testnet is too large to be viewed"
            ),
            "{err}"
        );
        let (client, _) =
            replaying("query/nearapiex-access_keys-view_access_key_list-error_unknown_block.json");
        let err = client
            .at(BlockId::Height(1))
            .view_access_key_list("client.chainlink.testnet")
            .await
            .unwrap_err();
        assert!(matches!(
            err.handler_error(),
            Some(RpcQueryError::UnknownBlock { .. })
        ));
    });
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs ../shared")]
fn a_view_answered_with_another_kind_is_an_error() {
    run(async {
        let (client, _) = replaying("query/neardocs-view_code-4.json");
        let err = client.view_account("guest-book.testnet").await.unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnexpectedAnswer { .. }),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "unexpected answer to `query`: the node answered with contract code"
        );
    });
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs ../shared")]
fn chain_shortcuts_read_recorded_answers() {
    run(async {
        let path = "block/neardocs2025-2.json";
        let (client, node) = replaying(path);
        let block = client.block(Finality::Final).await.unwrap();
        assert_eq!(
            json!(block.header.height),
            recorded_result(path)["header"]["height"]
        );
        assert_eq!(sent(&node)["params"], json!({"finality": "final"}));
        let _ = client.block(17_821_130).await;
        assert_eq!(sent(&node)["params"], json!({"block_id": 17_821_130}));

        let (client, _) = replaying("block/nearapiex-block-block-error.json");
        let err = client.block(1).await.unwrap_err();
        assert!(matches!(
            err.handler_error(),
            Some(RpcBlockError::UnknownBlock { .. })
        ));

        let (client, node) = replaying("chunk/neardocs2025-2.json");
        let chunk = client.chunk((187_310_138, 0)).await.unwrap();
        assert_eq!(chunk.author.as_str(), "kiln.pool.f863973.m0");
        assert_eq!(
            sent(&node)["params"],
            json!({"block_id": 187_310_138, "shard_id": 0})
        );
        let hash: CryptoHash = "EBM2qg5cGr47EjMPtH88uvmXHDHqmWPzKaQadbWhdw22"
            .parse()
            .unwrap();
        let _ = client.chunk(hash).await;
        assert_eq!(sent(&node)["params"], json!({"chunk_id": hash.to_string()}));
        let (client, _) = replaying("chunk/nearapiex-chunk-chunk-error_unknown_chunk.json");
        let err = client.chunk(hash).await.unwrap_err();
        assert!(matches!(
            err.handler_error(),
            Some(RpcChunkError::UnknownChunk { .. })
        ));

        let (client, node) = replaying("gas_price/neardocs2025-4.json");
        let price = client.gas_price(None).await.unwrap();
        assert_eq!(price.to_string(), "100000000 yoctoNEAR/gas");
        assert_eq!(sent(&node)["params"], json!({}));
        let _ = client.gas_price(BlockId::Height(5)).await;
        assert_eq!(sent(&node)["params"], json!({"block_id": 5}));

        let (client, _) = replaying("status/neardocs2025-3.json");
        assert_eq!(client.status().await.unwrap().chain_id, "testnet");

        let path = "network_info/neardocs-1.json";
        let (client, _) = replaying(path);
        let network = client.network_info().await.unwrap();
        assert_eq!(
            json!(network.num_active_peers),
            recorded_result(path)["num_active_peers"]
        );

        let (client, node) =
            replaying("EXPERIMENTAL_light_client_proof/nearcore-proof_example-1.json");
        let of = RpcLightClientExecutionProofRequestKind::Transaction {
            sender_id: "alice.near".parse().unwrap(),
            transaction_hash: hash,
        };
        let proof = client.light_client_proof(of, hash).await.unwrap();
        assert!(!proof.outcome_proof.proof.is_empty() || !proof.block_proof.is_empty());
        let params = &sent(&node)["params"];
        assert_eq!(params["type"], "transaction");
        assert_eq!(params["light_client_head"], hash.to_string());

        let (client, _) = replaying("validators/nearapiex-network-validators-success.json");
        let validators = client.validators(Epoch::Latest).await.unwrap();
        assert_eq!(validators.current_validators[0].account_id, "node1");

        let (client, node) = replaying("changes/neardocs2025-account_changes-1.json");
        let kind = RpcStateChangesInBlockByTypeRequestKind::AccountChanges {
            account_ids: vec!["your-account.testnet".parse().unwrap()],
        };
        let changes = client.at(19_103_244).changes(kind).await.unwrap();
        assert!(!changes.changes.is_empty());
        assert_eq!(
            sent(&node)["params"],
            json!({"block_id": 19_103_244, "changes_type": "account_changes",
                   "account_ids": ["your-account.testnet"]})
        );
    });
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs ../shared")]
fn transactions_are_sent_as_base64_and_read_back() {
    run(async {
        let (client, node) = replaying("send_tx/neardocs-1.json");
        let outcome = client.send_tx(vec![1u8, 2, 3], None).await.unwrap();
        assert!(!outcome.is_failure());
        let params = &sent(&node)["params"];
        assert_eq!(params["signed_tx_base64"], "AQID");
        assert_eq!(params["wait_until"], "EXECUTED_OPTIMISTIC");

        let (client, _) = replaying("broadcast_tx_commit/neardocs-1.json");
        let outcome = client.broadcast_tx_commit("AQID").await.unwrap();
        assert!(outcome.outcome.is_some());

        let (client, _) = replaying("broadcast_tx_async/neardocs2025-3.json");
        let hash = client.broadcast_tx_async(&b"\x01\x02"[..]).await.unwrap();
        assert_eq!(
            hash.to_string(),
            "9yzcZFHqtKqTUPnz9dx2DfTjDnFemPEQjbgVqSBdnvKr"
        );

        // Text that is not base64 is refused before anything is sent.
        let (client, node) = replaying("send_tx/neardocs-1.json");
        let err = client.send_tx("not base64!", None).await.unwrap_err();
        assert!(err.is_usage(), "{err:?}");
        assert!(err.to_string().contains("not valid base64"), "{err}");
        assert!(node.requests().is_empty());
    });
}

#[test]
fn bad_inputs_are_usage_errors_naming_the_parameter() {
    run(async {
        let node = MockTransport::new("mock", [MockReply::json("{}")]);
        let client = Client::with_transport(node.clone());
        let err = client.view_account("Not An Account").await.unwrap_err();
        assert!(err.is_usage());
        assert!(
            err.to_string()
                .contains("the account id `Not An Account` is not valid"),
            "{err}"
        );
        let err = client
            .view_access_key("alice.near", "ed25519:nope")
            .await
            .unwrap_err();
        assert!(err.to_string().contains("the public key"), "{err}");
        assert!(node.requests().is_empty(), "nothing was sent");
    });
}

/// For every recorded view request, the shortcut given the same inputs sends the same
/// params (the fields the spec defines; some recorded clients sent extra ones).
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs ../shared")]
fn shortcuts_send_what_real_clients_sent() {
    let shared = shared_dir();
    let mut compared = 0;
    run(async {
        for fixture in fixtures(&shared) {
            if fixture.method != "query" || fixture.kind != "request" {
                continue;
            }
            let recorded: Value =
                serde_json::from_slice(&std::fs::read(&fixture.path).unwrap()).unwrap();
            let params = &recorded["params"];
            if !params.is_object() {
                continue; // positional legacy requests: the shortcuts send objects
            }
            let node = MockTransport::new("mock", [MockReply::json("{}")]);
            let client = Client::with_transport(node.clone());
            let at: BlockReference = serde_json::from_value(match params.get("block_id") {
                Some(id) => json!({"block_id": id}),
                None => json!({"finality": params["finality"]}),
            })
            .unwrap();
            let client = client.at(at);
            let text = |key: &str| params[key].as_str().unwrap_or_default().to_owned();
            let account = text("account_id");
            let (result, fields): (Result<(), String>, &[&str]) =
                match params["request_type"].as_str() {
                    Some("view_account") => (
                        client
                            .view_account(account)
                            .await
                            .map(drop)
                            .map_err(|e| e.to_string()),
                        &["account_id"],
                    ),
                    Some("view_code") => (
                        client
                            .view_code(account)
                            .await
                            .map(drop)
                            .map_err(|e| e.to_string()),
                        &["account_id"],
                    ),
                    Some("view_access_key_list") => (
                        client
                            .view_access_key_list(account)
                            .await
                            .map(drop)
                            .map_err(|e| e.to_string()),
                        &["account_id"],
                    ),
                    Some("view_access_key") => (
                        client
                            .view_access_key(account, text("public_key"))
                            .await
                            .map(drop)
                            .map_err(|e| e.to_string()),
                        &["account_id", "public_key"],
                    ),
                    Some("view_state") => {
                        let prefix = base64_decode(&text("prefix_base64"));
                        (
                            client
                                .view_state(account, prefix)
                                .await
                                .map(drop)
                                .map_err(|e| e.to_string()),
                            &["account_id", "prefix_base64"],
                        )
                    }
                    Some("call_function") => {
                        let args = RawArgs(base64_decode(&text("args_base64")));
                        (
                            client
                                .call_function(account, &text("method_name"), args)
                                .await
                                .map(drop)
                                .map_err(|e| e.to_string()),
                            &["account_id", "method_name", "args_base64"],
                        )
                    }
                    other => panic!("{}: request type {other:?} has no shortcut", fixture.name),
                };
            let Some(request) = node.requests().pop() else {
                // Refused before sending: only for inputs a node would refuse too.
                let err = result.unwrap_err();
                assert!(err.contains("is not valid"), "{}: {err}", fixture.name);
                assert!(
                    fixture.name.contains("error"),
                    "{}: refused a good request: {err}",
                    fixture.name
                );
                continue;
            };
            let ours: Value = serde_json::from_slice(&request.body).unwrap();
            let ours = &ours["params"];
            for key in fields.iter().chain(&["request_type"]) {
                assert_eq!(ours[key], params[key], "{}: {key}", fixture.name);
            }
            for key in ["finality", "block_id"] {
                assert_eq!(ours.get(key), params.get(key), "{}: {key}", fixture.name);
            }
            compared += 1;
        }
    });
    assert!(compared >= 20, "only {compared} recorded requests compared");
}

fn base64_decode(text: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .unwrap()
}

#[test]
fn validators_and_health_against_the_mock_node() {
    // No recorded `health` answer exists upstream; the mock node's is nearcore's. The
    // three ways to name an epoch are checked on the requests.
    run(async {
        let node = near_rpc_mock::MockNode::new();
        let client = node.client();
        let validators = client.validators(Epoch::Latest).await.unwrap();
        assert_eq!(
            validators.current_validators[0].account_id,
            "validator.mock"
        );
        client.health().await.unwrap();
        let epoch = CryptoHash([9; 32]);
        let _ = client.validators(Epoch::Id(epoch)).await;
        let _ = client.validators(BlockId::Height(119)).await;
        let params: Vec<Value> = node
            .requests_for("validators")
            .iter()
            .map(|r| r.params())
            .collect();
        assert_eq!(
            params,
            [
                json!({"latest": null}),
                json!({"epoch_id": epoch.to_string()}),
                json!({"block_id": 119})
            ]
        );
    });
}

/// `node_info` puts the node's version beside the bindings' spec, and says when the
/// node's status has things the bindings don't know.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs ../shared")]
fn node_info_compares_the_node_with_the_bindings() {
    run(async {
        let path = "status/neardocs2025-3.json";
        let (client, node) = replaying(path);
        let info = client.node_info().await.unwrap();
        let recorded = recorded_result(path);
        assert_eq!(info.node_version, recorded["version"]["version"]);
        assert_eq!(json!(info.protocol_version), recorded["protocol_version"]);
        assert_eq!(info.bindings_spec, near_rpc::SPEC_VERSION);
        assert_eq!(sent(&node)["method"], "status");
        // Its validators carry `is_slashed`, which the 1.2.6 spec no longer has.
        assert_eq!(info.unrecognized.fields.len(), 3, "{:?}", info.unrecognized);
        assert!(info
            .unrecognized
            .fields
            .iter()
            .all(|f| f.ends_with("].is_slashed")));
        assert!(info.verdict().contains("don't know 3 field(s)"), "{info}");

        // Without what the spec dropped, nothing is unknown; a newer node's new field is.
        let mut body: Value = serde_json::from_slice(
            &std::fs::read(shared_dir().join("fixtures").join(path)).unwrap(),
        )
        .unwrap();
        for validator in body["result"]["validators"].as_array_mut().unwrap() {
            validator.as_object_mut().unwrap().remove("is_slashed");
        }
        let node = MockTransport::new("current", [MockReply::json(body.to_string())]);
        let info = Client::with_transport(node).node_info().await.unwrap();
        assert!(!info.has_unrecognized(), "{:?}", info.unrecognized);
        assert!(
            info.to_string()
                .contains("know everything in the node's status"),
            "{info}"
        );
        body["result"]["witness_cache"] = json!({"size": 3});
        let node = MockTransport::new("newer", [MockReply::json(body.to_string())]);
        let info = Client::with_transport(node).node_info().await.unwrap();
        assert_eq!(info.unrecognized.fields, ["result.witness_cache"]);
        let expected = format!(
            "the bindings (spec {}) don't know 1",
            near_rpc::SPEC_VERSION
        );
        assert!(info.verdict().starts_with(&expected), "{info}");
    });
}

// nearcore 0.38 pages access key lists.
near_rpc::if_spec_ge_nearcore_0_38_0! {
    /// One page at a time from the mock node (`limit`, `after_key`), and the whole list
    /// read page by page at the first page's block; a node that hands out a cursor again
    /// is an error, not a loop.
    #[tokio::test]
    async fn access_key_lists_come_in_pages() {
        use near_rpc_mock::{MockNode, Reply};
        let node = MockNode::new();
        let client = node.client();
        let first = client.view_access_key_page("alice.mock", None, Some(1)).await.unwrap();
        assert_eq!(first.value.keys.len(), 1);
        let cursor = first.value.last_key.clone().expect("a second page");
        let second = client
            .view_access_key_page("alice.mock", Some(cursor), Some(1))
            .await
            .unwrap();
        assert_eq!(second.value.keys.len(), 1);
        assert_eq!(second.value.last_key, None, "alice.mock has two keys");
        assert_ne!(first.value.keys[0].public_key, second.value.keys[0].public_key);

        // A node that pages by itself: one key per page, three pages.
        let paged = MockNode::new();
        let at = paged.with_chain(|c| c.block_hash(c.head()).to_string());
        let keys: Vec<String> = (0..3)
            .map(|i| near_rpc_mock::chain::public_key(&format!("key {i}")).to_string())
            .collect();
        let served = keys.clone();
        let block = at.clone();
        paged.on("query", move |params| {
            let after = params["after_key"].as_str();
            let i = after.map_or(0, |a| served.iter().position(|k| k == a).unwrap() + 1);
            let mut page = json!({
                "keys": [{"public_key": served[i], "access_key": {"nonce": 1, "permission": "FullAccess"}}],
                "block_height": 120, "block_hash": block
            });
            if i + 1 < served.len() {
                page["last_key"] = json!(served[i]);
            }
            Reply::Result(page)
        });
        let list = paged.client().view_access_key_list("alice.mock").await.unwrap();
        let got: Vec<String> = list.value.keys.iter().map(|k| k.public_key.to_string()).collect();
        assert_eq!(got, keys);
        assert_eq!(list.value.last_key, None);
        let asked = paged.requests_for("query");
        assert_eq!(asked.len(), 3);
        assert_eq!(asked[0].params()["finality"], "final");
        for later in &asked[1..] {
            assert_eq!(later.params()["block_id"], json!(at), "every page at the first one's block");
        }

        // The same cursor again: an error naming it.
        let looping = MockNode::new();
        looping.on("query", |_| {
            Reply::Result(json!({
                "keys": [], "last_key": "again", "block_height": 120,
                "block_hash": "11111111111111111111111111111111"
            }))
        });
        let error = looping.client().view_access_key_list("alice.mock").await.unwrap_err();
        assert!(error.to_string().contains("did not end"), "{error}");
    }
}
