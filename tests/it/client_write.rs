//! The write path (`Client::send` and the write shortcuts) against a scripted node, at
//! every point a send can fail: before sending, after sending with no answer, a
//! timeout (the transport's and the node's `TIMEOUT_ERROR`), node errors, an answer for
//! another transaction. The promise checked throughout: one intent is never signed
//! twice once it may have reached a node, and whatever is re-sent is the same bytes.
//! Time is tokio's paused clock: no test sleeps.

#![cfg(feature = "client")]

use std::collections::{BTreeSet, VecDeque};
use std::sync::{Arc, Mutex};

use near_rpc::client::layers::RetryPolicy;
use near_rpc::client::transport::{HttpResponse, RpcRequest, Transport, TransportError};
use near_rpc::client::transport::{TransportErrorKind, TransportFuture};
use near_rpc::client::SendErrorKind;
use near_rpc::client::{MAX_NONCE_RESIGNS, RESOLVE_ATTEMPTS};
use near_rpc::tx::{Action, SecretKey, SignedTransaction};
use near_rpc::types::{InvalidTxError, TxExecutionStatus};
use near_rpc::{Client, CryptoHash, NearToken, Signer};
use serde_json::{json, Value};

const SECRET: &str = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3";

/// What the node answers to one `send_tx` or `EXPERIMENTAL_tx_status`.
#[derive(Clone, Debug)]
enum Reply {
    /// The outcome of the transaction asked about.
    Outcome,
    /// The outcome of some other transaction.
    OtherOutcome,
    /// A JSON-RPC error object, with an HTTP status.
    Error(u16, Value),
    /// No answer.
    Fail(TransportErrorKind),
    /// (To a key read.) The key as of block `height`.
    KeyAt(u64),
    /// (To a status query.) `UNKNOWN_TRANSACTION` naming the hash asked about.
    Unknown,
    /// (To a status query.) `UNKNOWN_TRANSACTION` naming another hash.
    UnknownOther,
}

#[derive(Debug, Default)]
struct State {
    key_nonce: u64,
    block: u64,
    sends: VecDeque<Reply>,
    statuses: VecDeque<Reply>,
    key_reads: VecDeque<Reply>,
    /// Every request: method and params.
    requests: Vec<(String, Value)>,
}

/// A node that knows one access key and answers sends and status queries from scripts
/// (after a script runs out: the outcome).
#[derive(Clone, Debug, Default)]
struct Node(Arc<Mutex<State>>);

fn block_hash(height: u64) -> CryptoHash {
    CryptoHash::hash_bytes(format!("block {height}").as_bytes())
}

fn error(name: &str, info: Value, data: Value) -> Value {
    json!({"name": "HANDLER_ERROR", "cause": {"name": name, "info": info}, "code": -32000,
           "message": "Server error", "data": data})
}

fn invalid_nonce(ak_nonce: u64, tx_nonce: u64) -> Reply {
    Reply::Error(
        200,
        error(
            "INVALID_TRANSACTION",
            json!({}),
            json!({"TxExecutionError": {"InvalidTxError": {"InvalidNonce": {"tx_nonce": tx_nonce, "ak_nonce": ak_nonce}}}}),
        ),
    )
}

fn expired() -> Reply {
    Reply::Error(
        200,
        error(
            "INVALID_TRANSACTION",
            json!({}),
            json!({"TxExecutionError": {"InvalidTxError": "Expired"}}),
        ),
    )
}

fn timeout_error() -> Reply {
    Reply::Error(
        408,
        json!({"name": "HANDLER_ERROR", "cause": {"name": "TIMEOUT_ERROR"}, "code": -32000,
               "message": "Server error", "data": "Timeout"}),
    )
}

fn unknown_transaction() -> Reply {
    Reply::Unknown
}

/// `UNKNOWN_TRANSACTION` naming `hash`, as nearcore answers `tx_status`.
fn unknown_error(hash: &str) -> Value {
    error(
        "UNKNOWN_TRANSACTION",
        json!({ "requested_transaction_hash": hash }),
        json!(format!("Transaction {hash} doesn't exist")),
    )
}

impl Node {
    fn new(key_nonce: u64) -> Self {
        let node = Self::default();
        {
            let mut state = node.0.lock().unwrap();
            state.key_nonce = key_nonce;
            state.block = 100;
        }
        node
    }

    fn with(&self, f: impl FnOnce(&mut State)) -> &Self {
        f(&mut self.0.lock().unwrap());
        self
    }

    fn requests(&self) -> Vec<(String, Value)> {
        self.0.lock().unwrap().requests.clone()
    }

    fn count(&self, method: &str) -> usize {
        self.requests().iter().filter(|(m, _)| m == method).count()
    }

    /// Every transaction sent, decoded, in order.
    fn sent(&self) -> Vec<SignedTransaction> {
        self.requests()
            .iter()
            .filter(|(m, _)| m == "send_tx")
            .map(|(_, p)| {
                SignedTransaction::from_base64(p["signed_tx_base64"].as_str().unwrap()).unwrap()
            })
            .collect()
    }

    /// The nonces of the transactions sent, in order.
    fn sent_nonces(&self) -> Vec<u64> {
        self.sent()
            .iter()
            .map(|s| s.transaction().nonce())
            .collect()
    }

    fn answer(&self, request: &RpcRequest) -> Result<HttpResponse, TransportError> {
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        let params = body["params"].clone();
        let mut state = self.0.lock().unwrap();
        state
            .requests
            .push((request.method.to_owned(), params.clone()));
        let ok = |result: Value| {
            let body = json!({"jsonrpc": "2.0", "id": request.id.to_string(), "result": result});
            Ok(HttpResponse::new(
                "node",
                200,
                serde_json::to_vec(&body).unwrap(),
            ))
        };
        let reply = match request.method {
            "query" => {
                assert_eq!(params["request_type"], "view_access_key");
                assert_eq!(params["finality"], "final");
                let key_nonce = state.key_nonce;
                let key = |height: u64| {
                    json!({"nonce": key_nonce, "permission": "FullAccess",
                        "block_height": height, "block_hash": block_hash(height).to_string()})
                };
                match state.key_reads.pop_front() {
                    Some(Reply::KeyAt(height)) => return ok(key(height)),
                    Some(reply) => reply,
                    None => return ok(key(state.block)),
                }
            }
            "send_tx" => state.sends.pop_front().unwrap_or(Reply::Outcome),
            "EXPERIMENTAL_tx_status" => state.statuses.pop_front().unwrap_or(Reply::Outcome),
            other => panic!("unexpected method {other}"),
        };
        match reply {
            Reply::Outcome | Reply::OtherOutcome => {
                let bytes = match request.method {
                    "send_tx" => {
                        SignedTransaction::from_base64(params["signed_tx_base64"].as_str().unwrap())
                            .unwrap()
                            .to_borsh()
                    }
                    // The status of the last transaction sent.
                    _ => {
                        let last = state
                            .requests
                            .iter()
                            .rev()
                            .find(|(m, _)| m == "send_tx")
                            .unwrap();
                        let signed = SignedTransaction::from_base64(
                            last.1["signed_tx_base64"].as_str().unwrap(),
                        )
                        .unwrap();
                        assert_eq!(params["tx_hash"], signed.hash().to_string());
                        signed.to_borsh()
                    }
                };
                let signed = SignedTransaction::from_borsh(&bytes).unwrap();
                let level = params["wait_until"]
                    .as_str()
                    .unwrap_or("EXECUTED_OPTIMISTIC");
                ok(outcome(
                    &signed,
                    level,
                    matches!(reply, Reply::OtherOutcome),
                ))
            }
            Reply::Error(status, error) => {
                let body = json!({"jsonrpc": "2.0", "id": request.id.to_string(), "error": error});
                Ok(HttpResponse::new(
                    "node",
                    status,
                    serde_json::to_vec(&body).unwrap(),
                ))
            }
            Reply::Fail(kind) => Err(TransportError::new("node", kind, "scripted")),
            Reply::Unknown | Reply::UnknownOther => {
                let asked = params["tx_hash"]
                    .as_str()
                    .expect("a status query")
                    .to_owned();
                let named = match reply {
                    Reply::Unknown => asked,
                    _ => CryptoHash::hash_bytes(b"another").to_string(),
                };
                let body = json!({"jsonrpc": "2.0", "id": request.id.to_string(),
                                  "error": unknown_error(&named)});
                Ok(HttpResponse::new(
                    "node",
                    200,
                    serde_json::to_vec(&body).unwrap(),
                ))
            }
            Reply::KeyAt(_) => panic!("a key answer to {}", request.method),
        }
    }
}

/// A successful outcome of `signed` at `level` as a node answers it (only the level
/// before execution); with `another`, an outcome naming another transaction.
fn outcome(signed: &SignedTransaction, level: &str, another: bool) -> Value {
    if matches!(level, "NONE" | "INCLUDED") {
        return json!({"final_execution_status": level});
    }
    let id = if another {
        CryptoHash::hash_bytes(b"another")
    } else {
        signed.hash()
    };
    crate::support::outcome_json(signed, level, id)
}

impl Transport for Node {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        let answer = self.answer(&request);
        Box::pin(async move { answer })
    }

    fn describe(&self) -> String {
        "node".to_owned()
    }
}

fn client(node: &Node) -> Client {
    Client::builder()
        .transport(node.clone())
        .retry(RetryPolicy::none())
        .build()
        .unwrap()
}

fn signer() -> Signer {
    Signer::new("alice.near".parse().unwrap(), SECRET.parse().unwrap())
}

/// Every hash ever signed, over every request.
fn hashes(node: &Node) -> BTreeSet<CryptoHash> {
    node.sent().iter().map(SignedTransaction::hash).collect()
}

#[tokio::test(start_paused = true)]
async fn a_transfer_reads_the_key_once_signs_and_returns_the_outcome() {
    let node = Node::new(41);
    let signer = signer();
    let outcome = client(&node)
        .transfer(&signer, "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    assert!(!outcome.is_failure());
    let [signed] = &node.sent()[..] else {
        panic!("{:?}", node.requests())
    };
    assert!(signed.verify());
    let tx = signed.transaction();
    assert_eq!(tx.nonce(), 42);
    assert_eq!(tx.signer_id(), "alice.near");
    assert_eq!(tx.receiver_id(), "bob.near");
    assert_eq!(*tx.block_hash(), block_hash(100));
    assert_eq!(tx.actions(), &[Action::transfer(NearToken::from_near(1))]);
    assert_eq!(
        outcome.outcome.unwrap().transaction_outcome().id,
        signed.hash()
    );
    // The default wait, as nearcore's.
    let (_, params) = node
        .requests()
        .into_iter()
        .find(|(m, _)| m == "send_tx")
        .unwrap();
    assert_eq!(params["wait_until"], "EXECUTED_OPTIMISTIC");
    // A second transaction counts on locally: no second key read.
    client(&node)
        .waiting_until(TxExecutionStatus::Final)
        .transfer(&signer, "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    assert_eq!(node.count("query"), 1);
    assert_eq!(node.sent()[1].transaction().nonce(), 43);
    let (_, params) = node
        .requests()
        .into_iter()
        .rev()
        .find(|(m, _)| m == "send_tx")
        .unwrap();
    assert_eq!(params["wait_until"], "FINAL");
}

#[tokio::test(start_paused = true)]
async fn concurrent_sends_get_consecutive_nonces_without_a_read_each() {
    let node = Node::new(7);
    let signer = signer();
    let client = client(&node);
    let sends = (0..20).map(|i| {
        let (client, signer) = (client.clone(), signer.clone());
        async move {
            client
                .transfer(&signer, "bob.near", NearToken::from_yoctonear(i))
                .await
        }
    });
    for outcome in futures_join_all(sends).await {
        outcome.unwrap();
    }
    let nonces: BTreeSet<u64> = node.sent_nonces().into_iter().collect();
    assert_eq!(nonces, (8..28).collect());
    // One read for all twenty: the first send reads the key holding the signer's
    // reading lock, the others wait for it and then count on from what it read.
    assert_eq!(node.count("query"), 1);
    // And a later send counts on too: still that one read.
    client
        .transfer(&signer, "bob.near", NearToken::from_yoctonear(1))
        .await
        .unwrap();
    assert_eq!(node.count("query"), 1);
    assert_eq!(node.sent().last().unwrap().transaction().nonce(), 28);
}

/// `join_all` without the futures crate: each future on its own task.
async fn futures_join_all<F>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.into_iter().map(tokio::spawn).collect();
    let mut out = Vec::new();
    for handle in handles {
        out.push(handle.await.unwrap());
    }
    out
}

#[tokio::test(start_paused = true)]
async fn before_sending_a_failed_key_read_signs_nothing() {
    let node = Node::new(1);
    node.with(|s| {
        s.key_reads
            .push_back(Reply::Fail(TransportErrorKind::Connect))
    });
    let err = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap_err();
    assert!(matches!(err.kind(), SendErrorKind::AccessKey(_)), "{err}");
    assert_eq!(err.hash(), None);
    assert_eq!(node.count("send_tx"), 0);
    // An unknown key: the node's error, named.
    let node = Node::new(1);
    node.with(|s| {
        s.key_reads.push_back(Reply::Error(
            200,
            error("UNKNOWN_ACCESS_KEY", json!({"public_key": "ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW", "block_height": 1, "block_hash": block_hash(1).to_string()}), json!("")),
        ))
    });
    let err = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap_err();
    let cause = std::error::Error::source(&err).unwrap().to_string();
    assert!(cause.contains("UNKNOWN_ACCESS_KEY"), "{cause}");
    assert_eq!(node.count("send_tx"), 0);
}

#[tokio::test(start_paused = true)]
async fn a_send_that_never_connected_is_rejected_not_resolved() {
    let node = Node::new(1);
    node.with(|s| s.sends.push_back(Reply::Fail(TransportErrorKind::Connect)));
    let err = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap_err();
    assert!(err.is_rejected(), "{err}");
    assert_eq!(node.count("EXPERIMENTAL_tx_status"), 0);
    assert_eq!(node.count("send_tx"), 1);
}

/// After sending, before an answer: the connection breaks. The client asks for the
/// transaction's status by hash and returns it; it signs nothing new.
#[tokio::test(start_paused = true)]
async fn after_sending_without_an_answer_the_status_is_asked_by_hash() {
    for kind in [
        TransportErrorKind::Connection,
        TransportErrorKind::Timeout,
        TransportErrorKind::Other,
    ] {
        let node = Node::new(1);
        node.with(|s| s.sends.push_back(Reply::Fail(kind.clone())));
        let outcome = client(&node)
            .transfer(&signer(), "bob.near", NearToken::from_near(1))
            .await
            .unwrap();
        let [signed] = &node.sent()[..] else {
            panic!("{kind:?}: {:?}", node.requests())
        };
        assert_eq!(
            outcome.outcome.unwrap().transaction_outcome().id,
            signed.hash()
        );
        let (_, params) = node
            .requests()
            .into_iter()
            .find(|(m, _)| m == "EXPERIMENTAL_tx_status")
            .unwrap();
        assert_eq!(params["tx_hash"], signed.hash().to_string());
        assert_eq!(params["sender_account_id"], "alice.near");
    }
}

/// The node has not seen it (the bytes were lost): the same bytes are sent again, never
/// a new signature.
#[tokio::test(start_paused = true)]
async fn a_transaction_the_node_never_saw_is_resent_as_the_same_bytes() {
    let node = Node::new(1);
    node.with(|s| {
        s.sends.push_back(Reply::Fail(TransportErrorKind::Timeout));
        s.statuses.push_back(unknown_transaction());
    });
    client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    let sent: Vec<_> = node
        .requests()
        .into_iter()
        .filter(|(m, _)| m == "send_tx")
        .map(|(_, p)| p["signed_tx_base64"].clone())
        .collect();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0], sent[1], "the same bytes");
}

/// The node's own `TIMEOUT_ERROR` (HTTP 408): its status is polled until it comes.
#[tokio::test(start_paused = true)]
async fn timeout_error_polls_the_status_and_never_resigns() {
    let node = Node::new(1);
    node.with(|s| {
        s.sends.push_back(timeout_error());
        s.statuses.push_back(timeout_error());
        s.statuses
            .push_back(Reply::Fail(TransportErrorKind::Connection));
        s.statuses.push_back(timeout_error());
    });
    let outcome = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    assert!(!outcome.is_failure());
    assert_eq!(node.count("send_tx"), 1);
    assert_eq!(node.count("EXPERIMENTAL_tx_status"), 4);
    assert_eq!(hashes(&node).len(), 1);
}

/// Nobody ever says: after the bounded attempts, `Unresolved` with the hash and the
/// signed transaction, and only ever one transaction signed.
#[tokio::test(start_paused = true)]
async fn no_answer_at_all_ends_unresolved_with_the_hash_and_bytes() {
    let node = Node::new(1);
    node.with(|s| {
        s.sends.push_back(Reply::Fail(TransportErrorKind::Timeout));
        for _ in 0..RESOLVE_ATTEMPTS {
            s.statuses.push_back(unknown_transaction());
            s.sends
                .push_back(Reply::Fail(TransportErrorKind::Connection));
        }
    });
    let started = tokio::time::Instant::now();
    let err = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap_err();
    assert!(err.is_unresolved(), "{err}");
    let (hash, signed) = (err.hash().unwrap(), err.signed().unwrap());
    assert_eq!(signed.hash(), hash);
    assert_eq!(err.transactions().len(), 1);
    assert_eq!(hashes(&node), BTreeSet::from([hash]));
    assert_eq!(
        node.count("EXPERIMENTAL_tx_status"),
        RESOLVE_ATTEMPTS as usize
    );
    // Waits between attempts (on the paused clock): 1 + 2 + 4 + 8 s.
    assert!(
        started.elapsed() >= std::time::Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    let text = err.to_string();
    assert!(
        text.contains(&hash.to_string()) && text.contains("look it up"),
        "{text}"
    );
}

/// A re-send after an ambiguous failure that the node answers with `InvalidNonce` (the
/// nonce may be spent by this very transaction) is not a reason to sign again.
#[tokio::test(start_paused = true)]
async fn invalid_nonce_after_an_ambiguous_send_never_resigns() {
    let node = Node::new(1);
    node.with(|s| {
        s.sends.push_back(Reply::Fail(TransportErrorKind::Timeout));
        s.statuses.push_back(unknown_transaction());
        s.sends.push_back(invalid_nonce(2, 2));
        s.statuses.push_back(Reply::Outcome);
    });
    client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    assert_eq!(hashes(&node).len(), 1);
}

/// `InvalidNonce`, and the node does not know the transaction: signed anew with the
/// node's nonce + 1, as nearcore reports it in `data` or in the cause's `info`.
#[tokio::test(start_paused = true)]
async fn invalid_nonce_resigns_with_the_nodes_nonce_once_the_node_does_not_know_it() {
    for in_info in [false, true] {
        let node = Node::new(5);
        let refusal = if in_info {
            Reply::Error(
                200,
                error(
                    "INVALID_TRANSACTION",
                    json!({"InvalidNonce": {"tx_nonce": 6, "ak_nonce": 9}}),
                    json!(null),
                ),
            )
        } else {
            invalid_nonce(9, 6)
        };
        node.with(|s| {
            s.sends.push_back(refusal);
            s.statuses.push_back(unknown_transaction());
        });
        client(&node)
            .transfer(&signer(), "bob.near", NearToken::from_near(1))
            .await
            .unwrap();
        let nonces = node.sent_nonces();
        assert_eq!(nonces, [6, 10], "in info: {in_info}");
        // The refused transaction was looked up first, without waiting.
        let (_, params) = node
            .requests()
            .into_iter()
            .find(|(m, _)| m == "EXPERIMENTAL_tx_status")
            .unwrap();
        assert_eq!(params["tx_hash"], node.sent()[0].hash().to_string());
        assert_eq!(params["wait_until"], "NONE");
    }
}

/// `InvalidNonce` for a transaction the node already holds (nearcore re-validates an
/// accepted transaction while `send_tx` waits, and its own spent nonce fails that): the
/// node's answer is followed, nothing is signed anew.
#[tokio::test(start_paused = true)]
async fn invalid_nonce_for_a_transaction_the_node_holds_never_resigns() {
    for refusal in [invalid_nonce(6, 6), expired()] {
        let node = Node::new(5);
        node.with(|s| s.sends.push_back(refusal.clone()));
        let outcome = client(&node)
            .transfer(&signer(), "bob.near", NearToken::from_near(1))
            .await
            .unwrap();
        assert_eq!(hashes(&node).len(), 1, "{refusal:?}");
        assert_eq!(node.count("send_tx"), 1);
        assert_eq!(
            outcome.outcome.unwrap().transaction_outcome().id,
            node.sent()[0].hash()
        );
    }
    // Nor when the lookup itself fails: the outcome is then unknown.
    let node = Node::new(5);
    node.with(|s| {
        s.sends.push_back(invalid_nonce(6, 6));
        s.statuses
            .extend((0..10).map(|_| Reply::Fail(TransportErrorKind::Connection)));
    });
    let err = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap_err();
    assert!(err.is_unresolved(), "{err}");
    assert_eq!(hashes(&node).len(), 1);
}

/// Only [`MAX_NONCE_RESIGNS`] re-signs after `InvalidNonce` take a new nonce: however
/// often a node says so, one intent has at most 1 + that many nonces.
#[tokio::test(start_paused = true)]
async fn invalid_nonce_resigning_is_bounded() {
    let node = Node::new(5);
    node.with(|s| {
        for i in 0..10 {
            s.sends
                .push_back(invalid_nonce(10 + 10 * i, [6, 11][i as usize % 2]));
            s.statuses.push_back(unknown_transaction());
        }
    });
    let err = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap_err();
    assert!(err.is_rejected(), "{err}");
    assert!(matches!(
        err.invalid_tx_error(),
        Some(InvalidTxError::InvalidNonce { .. })
    ));
    let sends = 1 + MAX_NONCE_RESIGNS as usize;
    assert_eq!(node.count("send_tx"), sends);
    assert_eq!(err.transactions().len(), sends);
    assert_eq!(node.sent_nonces(), [6, 11]);
}

/// `NonceTooLarge` (the count pushed too far, say by a hostile node's `ak_nonce`): the
/// signer forgets its count and reads the key again for the next transaction.
#[tokio::test(start_paused = true)]
async fn nonce_too_large_makes_the_signer_read_the_key_again() {
    let node = Node::new(5);
    let too_large = Reply::Error(
        200,
        error(
            "INVALID_TRANSACTION",
            json!({}),
            json!({"TxExecutionError": {"InvalidTxError": {"NonceTooLarge": {"tx_nonce": 6, "upper_bound": 5}}}}),
        ),
    );
    node.with(|s| {
        s.sends.push_back(too_large);
        s.statuses.push_back(unknown_transaction());
    });
    let client = client(&node);
    let signer = signer();
    let err = client
        .transfer(&signer, "bob.near", NearToken::from_near(1))
        .await
        .unwrap_err();
    assert!(err.is_rejected(), "{err}");
    client
        .transfer(&signer, "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    assert_eq!(node.count("query"), 2);
    let nonces = node.sent_nonces();
    assert_eq!(nonces, [6, 6]);
}

/// A hostile node's `InvalidNonce` at the end of the nonce range (`ak_nonce` of
/// `u64::MAX`, or `u64::MAX - 1`, which leaves one nonce and no count after it) does not
/// wedge the signer: the count it pushed to the end is forgotten, the key is read again,
/// and the intent is signed with the key's nonce + 1; later sends from the signer and its
/// clones count on as usual.
#[tokio::test(start_paused = true)]
async fn a_nonce_at_the_end_of_the_range_from_a_node_does_not_wedge_the_signer() {
    for hostile in [u64::MAX, u64::MAX - 1] {
        let node = Node::new(41);
        node.with(|s| {
            s.sends.push_back(invalid_nonce(hostile, 42));
            s.statuses.push_back(unknown_transaction());
        });
        let client = client(&node);
        let signer = signer();
        client
            .transfer(&signer, "bob.near", NearToken::from_near(1))
            .await
            .unwrap_or_else(|e| panic!("ak_nonce {hostile}: {e}"));
        client
            .transfer(&signer.clone(), "bob.near", NearToken::from_near(1))
            .await
            .unwrap_or_else(|e| panic!("ak_nonce {hostile}, a clone: {e}"));
        client
            .transfer(&signer, "bob.near", NearToken::from_near(1))
            .await
            .unwrap_or_else(|e| panic!("ak_nonce {hostile}, later: {e}"));
        let nonces = node.sent_nonces();
        assert_eq!(nonces, [42, 42, 43, 44], "ak_nonce {hostile}");
        // The first read, and the one after the count was forgotten.
        assert_eq!(node.count("query"), 2, "ak_nonce {hostile}");
    }
}

/// A node whose key read says the key is at `u64::MAX`: that key can sign nothing more,
/// and the error says so (naming the key, the account and the nonce). Nothing is signed,
/// and the signer is not wedged: once the node answers sanely, it signs again.
#[tokio::test(start_paused = true)]
async fn a_key_at_the_last_nonce_is_named_and_a_sane_answer_later_still_signs() {
    let node = Node::new(u64::MAX);
    let client = client(&node);
    let signer = signer();
    let err = client
        .transfer(&signer, "bob.near", NearToken::from_near(1))
        .await
        .unwrap_err();
    let SendErrorKind::Usage { message } = err.kind() else {
        panic!("{err}")
    };
    assert_eq!(
        message,
        &format!(
            "the access key {} of alice.near is at nonce 18446744073709551615 (u64::MAX), the \
             largest a nonce can be: it can sign no more transactions; add another key to the \
             account",
            signer.public_key()
        )
    );
    assert_eq!(node.count("send_tx"), 0);
    // At `u64::MAX - 1` one nonce is left: it is signed with, and nothing counted on.
    node.with(|s| s.key_nonce = u64::MAX - 1);
    client
        .transfer(&signer, "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    assert_eq!(node.sent()[0].transaction().nonce(), u64::MAX);
    // The node recovers its senses (or the signer meets an honest node): signing resumes
    // from what it reads, on the signer and on a clone.
    node.with(|s| s.key_nonce = 41);
    client
        .transfer(&signer, "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    client
        .transfer(&signer.clone(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    let nonces = node.sent_nonces();
    assert_eq!(nonces, [u64::MAX, 42, 43]);
    assert_eq!(node.count("query"), 3);
}

/// `Expired`: a fresh block hash is read and the intent signed anew with the same nonce.
#[tokio::test(start_paused = true)]
async fn expired_resigns_with_a_fresh_block_hash() {
    let node = Node::new(5);
    // The first read is at block 100; by the second the chain is at 200.
    node.with(|s| {
        s.sends.push_back(expired());
        s.statuses.push_back(unknown_transaction());
        s.key_reads.extend([Reply::KeyAt(100), Reply::KeyAt(200)]);
    });
    client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    let sent = node.sent();
    assert_eq!(sent.len(), 2);
    assert_eq!(*sent[0].transaction().block_hash(), block_hash(100));
    assert_eq!(*sent[1].transaction().block_hash(), block_hash(200));
    // The same nonce: at most one of the two can ever execute.
    assert_eq!(node.sent_nonces(), [6, 6]);
    assert_eq!(node.count("query"), 2);
}

/// Any other refusal, once the node says it does not hold the transaction, is final:
/// `Rejected` with the node's reason, nothing re-sent. (Held, it is followed: a
/// refusal of an accepted transaction's re-validation says nothing.)
#[tokio::test(start_paused = true)]
async fn other_refusals_are_rejected_with_the_reason() {
    let not_enough = Reply::Error(
        200,
        error(
            "INVALID_TRANSACTION",
            json!({}),
            json!({"TxExecutionError": {"InvalidTxError": {"NotEnoughBalance": {"signer_id": "alice.near", "balance": "1", "cost": "2"}}}}),
        ),
    );
    let node = Node::new(5);
    node.with(|s| s.sends.push_back(not_enough.clone()));
    let outcome = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    assert_eq!(
        outcome.outcome.unwrap().transaction_outcome().id,
        node.sent()[0].hash()
    );
    let node = Node::new(5);
    node.with(|s| {
        s.sends.push_back(not_enough);
        s.statuses.push_back(unknown_transaction());
    });
    let err = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err.invalid_tx_error(),
            Some(InvalidTxError::NotEnoughBalance { .. })
        ),
        "{err}"
    );
    assert!(err.to_string().contains("NotEnoughBalance"), "{err}");
    assert_eq!(node.count("send_tx"), 1);
    assert_eq!(node.count("EXPERIMENTAL_tx_status"), 1);
    // A request the node could not read (a validation error) was never processed.
    let node = Node::new(5);
    node.with(|s| {
        s.sends.push_back(Reply::Error(
            200,
            json!({"name": "REQUEST_VALIDATION_ERROR", "cause": {"name": "PARSE_ERROR", "info": {"error_message": "bad"}}}),
        ))
    });
    let err = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap_err();
    assert!(err.is_rejected(), "{err}");
    assert_eq!(node.count("EXPERIMENTAL_tx_status"), 0);
}

/// A node that answers with another transaction's outcome says nothing of ours: the
/// status is asked by our hash.
#[tokio::test(start_paused = true)]
async fn an_outcome_of_another_transaction_is_not_taken() {
    let node = Node::new(5);
    node.with(|s| s.sends.push_back(Reply::OtherOutcome));
    let outcome = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    let hash = node.sent()[0].hash();
    assert_eq!(outcome.outcome.unwrap().transaction_outcome().id, hash);
    assert_eq!(node.count("EXPERIMENTAL_tx_status"), 1);
    assert_eq!(hashes(&node).len(), 1);
}

/// With the default retry layer too: a transaction is never sent twice by the layers
/// after an ambiguous failure (only the write path re-sends, and the same bytes).
#[tokio::test(start_paused = true)]
async fn the_retry_layer_does_not_resend_after_an_ambiguous_failure() {
    let node = Node::new(1);
    node.with(|s| {
        s.sends
            .push_back(Reply::Fail(TransportErrorKind::Connection));
        s.statuses
            .push_back(Reply::Fail(TransportErrorKind::Connection));
    });
    let client = Client::builder().transport(node.clone()).build().unwrap();
    client
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    assert_eq!(node.count("send_tx"), 1);
    assert_eq!(hashes(&node).len(), 1);
    // The status read was retried by the layer (a read is safe to repeat).
    assert_eq!(node.count("EXPERIMENTAL_tx_status"), 2);
}

/// Usage errors sign nothing and name the input; nothing shows the secret key.
#[tokio::test(start_paused = true)]
async fn bad_input_is_named_and_the_key_never_shows() {
    let node = Node::new(1);
    let signer = signer();
    let err = client(&node)
        .transfer(&signer, "Bob Near", NearToken::from_near(1))
        .await
        .unwrap_err();
    assert!(matches!(err.kind(), SendErrorKind::Usage { .. }));
    assert!(
        err.to_string()
            .contains("the receiver `Bob Near` is not valid"),
        "{err}"
    );
    assert!(node.requests().is_empty());
    // Nothing printed or sent carries the secret.
    let secret = &SECRET[8..];
    let key: SecretKey = SECRET.parse().unwrap();
    for shown in [
        format!("{signer:?}"),
        format!("{err} {err:?}"),
        format!("{key:?}"),
    ] {
        assert!(
            !shown.contains(secret) && !shown.contains(&secret[..20]),
            "{shown}"
        );
    }
    node.with(|s| s.sends.push_back(invalid_nonce(u64::MAX, 2)));
    let _ = client(&node)
        .transfer(&signer, "bob.near", NearToken::from_near(1))
        .await;
    for (_, params) in node.requests() {
        assert!(!params.to_string().contains(&secret[..20]));
    }
}

/// A delegate action whose ed25519 signature nearcore's borsh decoding refuses (a top
/// bit of its last byte set) is a usage error naming the action; nothing is read, signed
/// or sent.
#[tokio::test(start_paused = true)]
async fn a_delegate_action_no_node_could_read_is_refused_before_signing() {
    use near_rpc::tx::{DelegateAction, NonDelegateAction, SignedDelegateAction};
    let node = Node::new(1);
    let key: SecretKey = SECRET.parse().unwrap();
    let mut signed = DelegateAction {
        sender_id: "carol.near".parse().unwrap(),
        receiver_id: "app.near".parse().unwrap(),
        actions: vec![NonDelegateAction::try_from(Action::CreateAccount).unwrap()],
        nonce: 1,
        max_block_height: 100,
        public_key: key.public_key(),
    }
    .sign(&key);
    let mut bytes: [u8; 64] = signed.signature.as_bytes().try_into().unwrap();
    bytes[63] |= 0b0100_0000;
    signed = SignedDelegateAction {
        signature: near_rpc::Signature::ed25519(bytes),
        ..signed
    };
    let actions = vec![Action::CreateAccount, Action::Delegate(Box::new(signed))];
    let client = client(&node);
    let err = client
        .send(&signer(), "carol.near", actions.clone())
        .await
        .unwrap_err();
    let SendErrorKind::Usage { message } = err.kind() else {
        panic!("{err}")
    };
    assert!(message.starts_with("action 1 (Delegate): "), "{message}");
    assert!(err.transactions().is_empty());
    // Nor is one prepared for sending later.
    let err = client
        .prepare(&signer(), "carol.near", actions)
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), SendErrorKind::Usage { message } if message.starts_with("action 1 (Delegate): ")),
        "{err}"
    );
    assert!(node.requests().is_empty());
}

/// Two delegate actions in one transaction (nearcore's `DelegateActionMustBeOnlyOne`) are
/// a usage error naming both; nothing is read, signed or sent.
#[tokio::test(start_paused = true)]
async fn two_delegate_actions_in_one_transaction_are_refused_before_signing() {
    use near_rpc::tx::{DelegateAction, NonDelegateAction};
    let node = Node::new(1);
    let key: SecretKey = SECRET.parse().unwrap();
    let delegate = |nonce| {
        Action::Delegate(Box::new(
            DelegateAction {
                sender_id: "carol.near".parse().unwrap(),
                receiver_id: "app.near".parse().unwrap(),
                actions: vec![NonDelegateAction::try_from(Action::CreateAccount).unwrap()],
                nonce,
                max_block_height: 100,
                public_key: key.public_key(),
            }
            .sign(&key),
        ))
    };
    // Each alone is valid and readable: only their number is wrong.
    let actions = vec![delegate(1), Action::CreateAccount, delegate(2)];
    assert!(actions.iter().all(|a| match a {
        Action::Delegate(d) => d.signature.borsh_readable(),
        _ => true,
    }));
    let client = client(&node);
    for err in [
        client
            .send(&signer(), "carol.near", actions.clone())
            .await
            .unwrap_err(),
        client
            .prepare(&signer(), "carol.near", actions.clone())
            .await
            .unwrap_err(),
    ] {
        let SendErrorKind::Usage { message } = err.kind() else {
            panic!("{err}")
        };
        assert!(
            message.starts_with("actions 0 and 2 are both delegate actions"),
            "{message}"
        );
        assert!(err.transactions().is_empty());
    }
    assert!(node.requests().is_empty());
}

/// Each write shortcut sends the actions it names to the right receiver.
#[tokio::test(start_paused = true)]
async fn the_write_shortcuts_build_their_actions() {
    use near_rpc::tx::AccessKey;
    let node = Node::new(1);
    let client = client(&node);
    let signer = signer();
    let key = "ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW";
    client
        .function_call(&signer, "app.near", "vote", json!({"id": 1}))
        .await
        .unwrap();
    client
        .create_account(&signer, "sub.alice.near", key, NearToken::from_near(2))
        .await
        .unwrap();
    client
        .add_key(&signer, key, AccessKey::full_access())
        .await
        .unwrap();
    client.delete_key(&signer, key).await.unwrap();
    client.deploy(&signer, b"\0asm".to_vec()).await.unwrap();
    client.delete_account(&signer, "bob.near").await.unwrap();
    let sent = node.sent();
    let shape: Vec<(String, Vec<&str>)> = sent
        .iter()
        .map(|s| {
            let tx = s.transaction();
            (
                tx.receiver_id().to_string(),
                tx.actions().iter().map(Action::name).collect(),
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            ("app.near".to_owned(), vec!["FunctionCall"]),
            (
                "sub.alice.near".to_owned(),
                vec!["CreateAccount", "Transfer", "AddKey"]
            ),
            ("alice.near".to_owned(), vec!["AddKey"]),
            ("alice.near".to_owned(), vec!["DeleteKey"]),
            ("alice.near".to_owned(), vec!["DeployContract"]),
            ("alice.near".to_owned(), vec!["DeleteAccount"]),
        ]
    );
    let Action::FunctionCall(call) = &sent[0].transaction().actions()[0] else {
        panic!()
    };
    assert_eq!(call.args, br#"{"id":1}"#);
    assert_eq!(call.gas, near_rpc::client::DEFAULT_CALL_GAS);
    assert_eq!(call.deposit, NearToken::from_yoctonear(0));
}

/// An `UNKNOWN_TRANSACTION` that names another hash says nothing of this one: the
/// refused transaction is resolved by hash (and here found), never signed anew.
#[tokio::test(start_paused = true)]
async fn unknown_transaction_naming_another_hash_is_not_believed() {
    let node = Node::new(5);
    node.with(|s| {
        s.sends.push_back(invalid_nonce(6, 6));
        s.statuses.push_back(Reply::UnknownOther);
    });
    let outcome = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap();
    assert_eq!(hashes(&node).len(), 1);
    assert_eq!(
        outcome.outcome.unwrap().transaction_outcome().id,
        node.sent()[0].hash()
    );
}

/// `Expired` for a transaction whose block is still the final one (a node that lags, or
/// lies): signing again would make the very same transaction, so the refusal stands.
#[tokio::test(start_paused = true)]
async fn expired_on_the_final_block_is_not_signed_again() {
    let node = Node::new(5);
    node.with(|s| {
        s.sends.push_back(expired());
        s.statuses.push_back(unknown_transaction());
        s.key_reads.extend([Reply::KeyAt(100), Reply::KeyAt(100)]);
    });
    let err = client(&node)
        .transfer(&signer(), "bob.near", NearToken::from_near(1))
        .await
        .unwrap_err();
    assert!(err.is_rejected(), "{err}");
    assert!(matches!(
        err.invalid_tx_error(),
        Some(InvalidTxError::Expired)
    ));
    assert_eq!(node.count("send_tx"), 1);
    assert_eq!(err.transactions().len(), 1);
}
