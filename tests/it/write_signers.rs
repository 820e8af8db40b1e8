//! The write path with signers of more than one nonce sequence, against a scripted node:
//! a gas key's nonce indexes (`TransactionV1` with `GasKeyNonce`), a pool of access keys,
//! and strict nonce mode. What is checked: each lane (a key, or a gas key's index) counts
//! its own nonces from one read; concurrent sends take distinct lanes; an intent keeps
//! its lane through every re-sign, `InvalidNonce` on one index re-signs only that index
//! and moves only its count, `Expired` keeps the nonce and the index; an `UNKNOWN` about
//! another hash, or a refusal that cannot be true, signs nothing anew; everything
//! recorded names its key and index. Then, over real sockets to the mock node's chain, a
//! pool, and a gas key whose index another process spent.
//! Time is tokio's paused clock: no test sleeps.

#![cfg(feature = "client")]

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use near_rpc::client::layers::RetryPolicy;
use near_rpc::client::transport::TransportFuture;
use near_rpc::client::transport::{HttpResponse, RpcRequest, Transport, TransportError};
use near_rpc::client::{SendErrorKind, SignerError, MAX_NONCE_RESIGNS};
use near_rpc::tx::{
    Action, NonceMode, SecretKey, SignedTransaction, Transaction, TransactionNonce,
};
use near_rpc::{Client, CryptoHash, NearToken, PublicKey, Signer};
use serde_json::{json, Value};

/// What the node answers to one `send_tx` or `EXPERIMENTAL_tx_status`.
#[derive(Clone, Debug)]
enum Reply {
    /// The outcome of the transaction sent (or asked about).
    Outcome,
    /// A JSON-RPC error object.
    Error(Value),
    /// (To a status query.) `UNKNOWN_TRANSACTION` naming the hash asked about.
    Unknown,
    /// (To a status query.) `UNKNOWN_TRANSACTION` naming another hash.
    UnknownOther,
}

/// A lane as the node sees a transaction: its key and nonce index.
type Lane = (PublicKey, Option<u16>);

#[derive(Debug, Default)]
struct State {
    /// Access keys' nonces.
    access: HashMap<PublicKey, u64>,
    /// The gas key's nonces, one per index.
    gas: Option<(PublicKey, Vec<u64>)>,
    /// The height every key read answers at; each read moves it on by one.
    block: u64,
    /// Scripted answers to the sends of one lane (after a script runs out: the outcome).
    sends: HashMap<Lane, VecDeque<Reply>>,
    /// Scripted answers to status queries (after it runs out: the outcome).
    statuses: VecDeque<Reply>,
    /// Every request: method and params.
    requests: Vec<(String, Value)>,
}

/// A node with some access keys and at most one gas key of `alice.near`.
#[derive(Clone, Debug, Default)]
struct Node(Arc<Mutex<State>>);

fn block_hash(height: u64) -> CryptoHash {
    CryptoHash::hash_bytes(format!("block {height}").as_bytes())
}

fn handler_error(name: &str, info: Value, data: Value) -> Value {
    json!({"name": "HANDLER_ERROR", "cause": {"name": name, "info": info}, "code": -32000,
           "message": "Server error", "data": data})
}

fn invalid_tx(error: Value) -> Reply {
    Reply::Error(handler_error(
        "INVALID_TRANSACTION",
        json!({}),
        json!({"TxExecutionError": {"InvalidTxError": error}}),
    ))
}

/// nearcore's `InvalidNonce` (for a gas key, `ak_nonce` is the nonce at the
/// transaction's own index: runtime/runtime/src/verifier.rs, `verify_nonce`).
fn invalid_nonce(ak_nonce: u64, tx_nonce: u64) -> Reply {
    invalid_tx(json!({"InvalidNonce": {"ak_nonce": ak_nonce, "tx_nonce": tx_nonce}}))
}

fn expired() -> Reply {
    invalid_tx(json!("Expired"))
}

fn secret(n: u8) -> SecretKey {
    SecretKey::ed25519_from_seed(&[n; 32])
}

fn alice() -> near_rpc::AccountId {
    "alice.near".parse().unwrap()
}

impl Node {
    fn new() -> Self {
        let node = Self::default();
        node.with(|s| s.block = 100);
        node
    }

    fn with(&self, f: impl FnOnce(&mut State)) -> &Self {
        f(&mut self.0.lock().unwrap());
        self
    }

    fn access_key(&self, key: &SecretKey, nonce: u64) -> &Self {
        self.with(|s| {
            s.access.insert(key.public_key(), nonce);
        })
    }

    fn gas_key(&self, key: &SecretKey, nonces: Vec<u64>) -> &Self {
        self.with(|s| s.gas = Some((key.public_key(), nonces)))
    }

    fn script(&self, key: &SecretKey, index: Option<u16>, replies: Vec<Reply>) -> &Self {
        self.with(|s| {
            s.sends
                .insert((key.public_key(), index), replies.into_iter().collect());
        })
    }

    fn statuses(&self, replies: Vec<Reply>) -> &Self {
        self.with(|s| s.statuses = replies.into_iter().collect())
    }

    fn requests(&self) -> Vec<(String, Value)> {
        self.0.lock().unwrap().requests.clone()
    }

    /// The key reads, by request type.
    fn reads(&self, request_type: &str) -> Vec<Value> {
        self.requests()
            .into_iter()
            .filter(|(m, p)| m == "query" && p["request_type"] == request_type)
            .map(|(_, p)| p)
            .collect()
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

    /// The nonces sent on each lane, in order.
    fn by_lane(&self) -> BTreeMap<(String, Option<u16>), Vec<u64>> {
        let mut lanes = BTreeMap::new();
        for signed in self.sent() {
            let tx = signed.transaction();
            lanes
                .entry((tx.public_key().to_string(), tx.nonce_index()))
                .or_insert_with(Vec::new)
                .push(tx.nonce());
        }
        lanes
    }

    fn answer(&self, request: &RpcRequest) -> Result<HttpResponse, TransportError> {
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        let params = body["params"].clone();
        let mut state = self.0.lock().unwrap();
        state
            .requests
            .push((request.method.to_owned(), params.clone()));
        let respond = |key: &str, value: Value| {
            let body = json!({"jsonrpc": "2.0", "id": request.id.to_string(), key: value});
            Ok(HttpResponse::new(
                "node",
                200,
                serde_json::to_vec(&body).unwrap(),
            ))
        };
        let reply = match request.method {
            "query" => {
                assert_eq!(params["finality"], "final");
                assert_eq!(params["account_id"], "alice.near");
                let key: PublicKey = params["public_key"].as_str().unwrap().parse().unwrap();
                state.block += 1;
                let height = state.block;
                let at =
                    json!({"block_height": height, "block_hash": block_hash(height).to_string()});
                let mut result = match params["request_type"].as_str() {
                    Some("view_access_key") => {
                        let nonce = state.access[&key];
                        json!({"nonce": nonce, "permission": "FullAccess"})
                    }
                    Some("view_gas_key_nonces") => {
                        let (gas_key, nonces) = state.gas.clone().unwrap();
                        assert_eq!(gas_key, key);
                        json!({ "nonces": nonces })
                    }
                    other => panic!("unexpected query {other:?}"),
                };
                result
                    .as_object_mut()
                    .unwrap()
                    .extend(at.as_object().unwrap().clone());
                return respond("result", result);
            }
            "send_tx" => {
                let signed =
                    SignedTransaction::from_base64(params["signed_tx_base64"].as_str().unwrap())
                        .unwrap();
                assert!(signed.verify(), "a bad signature");
                let tx = signed.transaction();
                let lane = (tx.public_key().clone(), tx.nonce_index());
                state
                    .sends
                    .get_mut(&lane)
                    .and_then(VecDeque::pop_front)
                    .unwrap_or(Reply::Outcome)
            }
            "EXPERIMENTAL_tx_status" => state.statuses.pop_front().unwrap_or(Reply::Outcome),
            other => panic!("unexpected method {other}"),
        };
        let level = params["wait_until"]
            .as_str()
            .unwrap_or("EXECUTED_OPTIMISTIC");
        match reply {
            Reply::Outcome => {
                let signed = match request.method {
                    "send_tx" => {
                        SignedTransaction::from_base64(params["signed_tx_base64"].as_str().unwrap())
                            .unwrap()
                    }
                    // The transaction asked about, among those sent.
                    _ => {
                        let asked = params["tx_hash"].as_str().unwrap();
                        state
                            .requests
                            .iter()
                            .filter(|(m, _)| m == "send_tx")
                            .map(|(_, p)| {
                                SignedTransaction::from_base64(
                                    p["signed_tx_base64"].as_str().unwrap(),
                                )
                                .unwrap()
                            })
                            .find(|s| s.hash().to_string() == asked)
                            .expect("a status query about a transaction sent")
                    }
                };
                respond(
                    "result",
                    crate::support::outcome_json(&signed, level, signed.hash()),
                )
            }
            Reply::Error(error) => respond("error", error),
            Reply::Unknown | Reply::UnknownOther => {
                let asked = params["tx_hash"].as_str().expect("a status query");
                let named = match reply {
                    Reply::Unknown => asked.to_owned(),
                    _ => CryptoHash::hash_bytes(b"another").to_string(),
                };
                respond(
                    "error",
                    handler_error(
                        "UNKNOWN_TRANSACTION",
                        json!({ "requested_transaction_hash": named }),
                        json!(format!("Transaction {named} doesn't exist")),
                    ),
                )
            }
        }
    }
}

impl Transport for Node {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        let node = self.clone();
        // Each answer after a yield, so that sends started together interleave.
        Box::pin(async move {
            tokio::task::yield_now().await;
            node.answer(&request)
        })
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

fn one_near() -> NearToken {
    NearToken::from_near(1)
}

fn gas_signer(key: &SecretKey, indexes: impl IntoIterator<Item = u16>) -> Signer {
    Signer::gas_key(alice(), key.clone(), indexes).unwrap()
}

/// The version-1 parts of a transaction: its nonce (with index) and mode.
fn v1(signed: &SignedTransaction) -> (TransactionNonce, NonceMode) {
    match signed.transaction() {
        Transaction::V1(tx) => (tx.nonce, tx.nonce_mode),
        other => panic!("not version 1: {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_gas_key_signs_v1_on_each_index_in_turn_counting_each_from_one_read() {
    let key = secret(1);
    let node = Node::new();
    node.gas_key(&key, vec![5, 50, 500]);
    let signer = gas_signer(&key, 0..3);
    let client = client(&node);
    for _ in 0..6 {
        let outcome = client
            .transfer(&signer, "bob.near", one_near())
            .await
            .unwrap();
        assert!(!outcome.is_failure());
    }
    let sent = node.sent();
    let nonces: Vec<_> = sent.iter().map(v1).collect();
    let expected: Vec<_> = [(6, 0), (51, 1), (501, 2), (7, 0), (52, 1), (502, 2)]
        .into_iter()
        .map(|(nonce, nonce_index)| {
            (
                TransactionNonce::GasKeyNonce { nonce, nonce_index },
                NonceMode::Monotonic,
            )
        })
        .collect();
    assert_eq!(nonces, expected);
    for signed in &sent {
        assert_eq!(signed.transaction().public_key(), &key.public_key());
        assert_eq!(signed.transaction().signer_id(), "alice.near");
        // Version 1 starts with its tag; the signature is over its hash.
        assert_eq!(signed.transaction().to_borsh()[0], 1);
        assert!(signed.verify());
    }
    // One read of the gas key's nonces served every index; no access key was read.
    let reads = node.reads("view_gas_key_nonces");
    assert_eq!(reads.len(), 1, "{:?}", node.requests());
    assert_eq!(reads[0]["public_key"], key.public_key().to_string());
    assert!(node.reads("view_access_key").is_empty());
}

#[tokio::test(start_paused = true)]
async fn concurrent_gas_key_sends_take_distinct_indexes_after_one_read() {
    let key = secret(2);
    let node = Node::new();
    node.gas_key(&key, vec![10, 20, 30, 40]);
    let signer = gas_signer(&key, 0..4);
    let client = client(&node);
    let send = || client.transfer(&signer, "bob.near", one_near());
    let (a, b, c, d) = tokio::join!(send(), send(), send(), send());
    for result in [a, b, c, d] {
        assert!(!result.unwrap().is_failure());
    }
    // Each on its own index, each the index's nonce + 1; the three that found the read
    // under way waited for it instead of reading again.
    let lanes = node.by_lane();
    let pk = key.public_key().to_string();
    let expected: BTreeMap<_, _> = (0..4u16)
        .map(|i| ((pk.clone(), Some(i)), vec![u64::from(i + 1) * 10 + 1]))
        .collect();
    assert_eq!(lanes, expected);
    assert_eq!(node.reads("view_gas_key_nonces").len(), 1);
}

#[tokio::test(start_paused = true)]
async fn invalid_nonce_on_one_index_re_signs_only_that_index() {
    let key = secret(3);
    let node = Node::new();
    node.gas_key(&key, vec![10, 20, 30]);
    // Index 1's first transaction (nonce 21) is refused: the index is at 25.
    node.script(&key, Some(1), vec![invalid_nonce(25, 21)]);
    node.statuses(vec![Reply::Unknown]);
    let recorded = Arc::new(Mutex::new(Vec::new()));
    let journal = recorded.clone();
    let signer = gas_signer(&key, 0..3).before_send(move |signed| {
        let tx = signed.transaction();
        journal.lock().unwrap().push((tx.nonce_index(), tx.nonce()));
        Ok(())
    });
    let client = client(&node);
    let send = || client.transfer(&signer, "bob.near", one_near());
    let (a, b, c) = tokio::join!(send(), send(), send());
    for result in [a, b, c] {
        assert!(!result.unwrap().is_failure());
    }
    let pk = key.public_key().to_string();
    let lanes = node.by_lane();
    assert_eq!(lanes[&(pk.clone(), Some(0))], [11]);
    assert_eq!(lanes[&(pk.clone(), Some(1))], [21, 26]);
    assert_eq!(lanes[&(pk.clone(), Some(2))], [31]);
    // The question went about index 1's refused transaction, and only that one.
    let asked: Vec<_> = node
        .requests()
        .into_iter()
        .filter(|(m, _)| m == "EXPERIMENTAL_tx_status")
        .map(|(_, p)| p["tx_hash"].as_str().unwrap().to_owned())
        .collect();
    let refused = node
        .sent()
        .into_iter()
        .find(|s| s.transaction().nonce() == 21)
        .unwrap();
    assert_eq!(asked, [refused.hash().to_string()]);
    // The hook saw every transaction before it was sent, index and nonce.
    let mut seen = recorded.lock().unwrap().clone();
    seen.sort();
    assert_eq!(
        seen,
        [(Some(0), 11), (Some(1), 21), (Some(1), 26), (Some(2), 31)]
    );
    // Only index 1's count moved past the node's nonce; the others count on.
    for _ in 0..3 {
        client
            .transfer(&signer, "bob.near", one_near())
            .await
            .unwrap();
    }
    let lanes = node.by_lane();
    assert_eq!(lanes[&(pk.clone(), Some(0))], [11, 12]);
    assert_eq!(lanes[&(pk.clone(), Some(1))], [21, 26, 27]);
    assert_eq!(lanes[&(pk, Some(2))], [31, 32]);
}

#[tokio::test(start_paused = true)]
async fn a_second_invalid_nonce_on_an_index_is_rejected_naming_that_index_each_time() {
    let key = secret(4);
    let node = Node::new();
    node.gas_key(&key, vec![0, 7]);
    node.script(
        &key,
        Some(1),
        vec![invalid_nonce(9, 8), invalid_nonce(12, 10)],
    );
    node.statuses(vec![Reply::Unknown, Reply::Unknown]);
    // Index 0 first, then index 1.
    let signer = gas_signer(&key, [0, 1]);
    let client = client(&node);
    client
        .transfer(&signer, "bob.near", one_near())
        .await
        .unwrap();
    let error = client
        .transfer(&signer, "bob.near", one_near())
        .await
        .unwrap_err();
    assert!(error.is_rejected(), "{error}");
    // 1 + MAX_NONCE_RESIGNS transactions, both on index 1 of the gas key.
    let signed: Vec<_> = error.transactions().iter().map(v1).collect();
    assert_eq!(signed.len(), 1 + MAX_NONCE_RESIGNS as usize);
    assert_eq!(
        signed,
        [
            (
                TransactionNonce::GasKeyNonce {
                    nonce: 8,
                    nonce_index: 1
                },
                NonceMode::Monotonic
            ),
            (
                TransactionNonce::GasKeyNonce {
                    nonce: 10,
                    nonce_index: 1
                },
                NonceMode::Monotonic
            ),
        ]
    );
    // The index counts on past the node's last word; index 0 is untouched.
    client
        .transfer(&signer, "bob.near", one_near())
        .await
        .unwrap();
    client
        .transfer(&signer, "bob.near", one_near())
        .await
        .unwrap();
    let pk = key.public_key().to_string();
    let lanes = node.by_lane();
    assert_eq!(lanes[&(pk.clone(), Some(0))], [1, 2]);
    assert_eq!(lanes[&(pk, Some(1))], [8, 10, 13]);
}

#[tokio::test(start_paused = true)]
async fn expired_re_signs_with_the_same_nonce_and_index_on_a_fresh_block() {
    let key = secret(5);
    let node = Node::new();
    node.gas_key(&key, vec![3, 4]);
    node.script(&key, Some(0), vec![expired()]);
    node.statuses(vec![Reply::Unknown]);
    let signer = gas_signer(&key, 0..2).nonce_mode(NonceMode::Strict);
    let outcome = client(&node)
        .transfer(&signer, "bob.near", one_near())
        .await
        .unwrap();
    let [first, second] = &node.sent()[..] else {
        panic!("{:?}", node.requests())
    };
    let strict_at_4 = (
        TransactionNonce::GasKeyNonce {
            nonce: 4,
            nonce_index: 0,
        },
        NonceMode::Strict,
    );
    assert_eq!(v1(first), strict_at_4);
    assert_eq!(v1(second), strict_at_4);
    assert_eq!(*first.transaction().block_hash(), block_hash(101));
    assert_eq!(*second.transaction().block_hash(), block_hash(102));
    assert_ne!(first.hash(), second.hash());
    assert_eq!(
        outcome.outcome.unwrap().transaction_outcome().id,
        second.hash()
    );
}

/// A refusal followed by an `UNKNOWN_TRANSACTION` about another hash is no word on the
/// transaction sent: it is resolved by its hash and never signed anew. So is an
/// `InvalidNonce` that cannot be true of it (in monotonic mode, a key's nonce below it).
#[tokio::test(start_paused = true)]
async fn a_lying_unknown_or_an_impossible_refusal_signs_nothing_anew() {
    for (refusal, status) in [
        (
            invalid_nonce(30, 11),
            vec![Reply::UnknownOther, Reply::Outcome],
        ),
        (expired(), vec![Reply::UnknownOther, Reply::Outcome]),
        (invalid_nonce(5, 11), vec![Reply::Outcome]),
    ] {
        let key = secret(6);
        let node = Node::new();
        node.gas_key(&key, vec![10]);
        node.script(&key, Some(0), vec![refusal.clone()]);
        node.statuses(status);
        let signer = gas_signer(&key, [0]);
        let outcome = client(&node)
            .transfer(&signer, "bob.near", one_near())
            .await;
        let sent = node.sent();
        let hashes: BTreeSet<_> = sent.iter().map(SignedTransaction::hash).collect();
        assert_eq!(hashes.len(), 1, "{refusal:?}: {:?}", node.requests());
        assert_eq!(
            v1(&sent[0]).0,
            TransactionNonce::GasKeyNonce {
                nonce: 11,
                nonce_index: 0
            }
        );
        let outcome = outcome.unwrap();
        assert_eq!(
            outcome.outcome.unwrap().transaction_outcome().id,
            sent[0].hash(),
            "{refusal:?}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn strict_mode_on_an_access_key_signs_v1_with_its_plain_nonce() {
    let key = secret(7);
    let node = Node::new();
    node.access_key(&key, 40);
    // A gap (the key is at 40, the transaction 42) and, later, a taken nonce.
    node.script(&key, None, vec![Reply::Outcome, invalid_nonce(40, 42)]);
    node.statuses(vec![Reply::Unknown]);
    let signer = Signer::new(alice(), key.clone()).nonce_mode(NonceMode::Strict);
    let client = client(&node);
    client
        .transfer(&signer, "bob.near", one_near())
        .await
        .unwrap();
    let error = client
        .transfer(&signer, "bob.near", one_near())
        .await
        .unwrap_err();
    // A gap is refused for now: never signed anew, the key read afresh next time.
    assert!(error.is_rejected(), "{error}");
    assert_eq!(error.transactions().len(), 1);
    let sent = node.sent();
    let plain = |nonce| (TransactionNonce::Nonce { nonce }, NonceMode::Strict);
    assert_eq!(
        sent.iter().map(v1).collect::<Vec<_>>(),
        [plain(41), plain(42)]
    );
    assert_eq!(node.reads("view_access_key").len(), 1);
    node.access_key(&key, 41);
    client
        .transfer(&signer, "bob.near", one_near())
        .await
        .unwrap();
    assert_eq!(node.reads("view_access_key").len(), 2);
    assert_eq!(v1(&node.sent()[2]), plain(42));
    // A taken nonce in strict mode is re-signed as in monotonic mode, once.
    node.script(&key, None, vec![invalid_nonce(45, 43)]);
    node.statuses(vec![Reply::Unknown]);
    client
        .transfer(&signer, "bob.near", one_near())
        .await
        .unwrap();
    let sent = node.sent();
    assert_eq!(
        sent[3..].iter().map(v1).collect::<Vec<_>>(),
        [plain(43), plain(46)]
    );
}

#[tokio::test(start_paused = true)]
async fn a_plain_signer_still_signs_v0() {
    let key = secret(8);
    let node = Node::new();
    node.access_key(&key, 1);
    client(&node)
        .transfer(&Signer::new(alice(), key), "bob.near", one_near())
        .await
        .unwrap();
    let sent = node.sent();
    assert!(matches!(sent[0].transaction(), Transaction::V0(_)));
    assert_eq!(sent[0].transaction().nonce(), 2);
}

#[tokio::test(start_paused = true)]
async fn a_pool_rotates_over_its_keys_counting_each_apart() {
    let keys = [secret(11), secret(12), secret(13)];
    let node = Node::new();
    for (key, nonce) in keys.iter().zip([100, 200, 300]) {
        node.access_key(key, nonce);
    }
    // The second key's first transaction is refused for a taken nonce.
    node.script(&keys[1], None, vec![invalid_nonce(250, 201)]);
    node.statuses(vec![Reply::Unknown]);
    let signer = Signer::pool(alice(), keys.clone()).unwrap();
    let lanes: Vec<_> = signer.lanes().map(|(k, i)| (k.clone(), i)).collect();
    assert_eq!(
        lanes,
        keys.iter()
            .map(|k| (k.public_key(), None))
            .collect::<Vec<_>>()
    );
    let client = client(&node);
    let send = || client.transfer(&signer, "bob.near", one_near());
    let (a, b, c) = tokio::join!(send(), send(), send());
    for result in [a, b, c] {
        result.unwrap();
    }
    // They ran at once: the three keys were read before anything was sent.
    let methods: Vec<_> = node.requests().into_iter().map(|(m, _)| m).collect();
    assert_eq!(methods[..4], ["query", "query", "query", "send_tx"]);
    for _ in 0..3 {
        client
            .transfer(&signer, "bob.near", one_near())
            .await
            .unwrap();
    }
    let lanes = node.by_lane();
    let at = |k: &SecretKey| lanes[&(k.public_key().to_string(), None)].clone();
    assert_eq!(at(&keys[0]), [101, 102]);
    assert_eq!(at(&keys[1]), [201, 251, 252]);
    assert_eq!(at(&keys[2]), [301, 302]);
    // Version 0 throughout, each key read once.
    assert!(node
        .sent()
        .iter()
        .all(|s| matches!(s.transaction(), Transaction::V0(_))));
    let read: BTreeSet<_> = node
        .reads("view_access_key")
        .iter()
        .map(|p| p["public_key"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(read.len(), 3);
    assert_eq!(node.reads("view_access_key").len(), 3);
    // Resetting one lane reads that key again, and only it.
    assert!(signer.reset_lane(&keys[2].public_key(), None));
    assert!(!signer.reset_lane(&keys[2].public_key(), Some(0)));
    assert!(!signer.reset_lane(&secret(99).public_key(), None));
    for _ in 0..3 {
        client
            .transfer(&signer, "bob.near", one_near())
            .await
            .unwrap();
    }
    let reads = node.reads("view_access_key");
    assert_eq!(reads.len(), 4);
    assert_eq!(reads[3]["public_key"], keys[2].public_key().to_string());
}

#[tokio::test(start_paused = true)]
async fn prepare_and_renew_keep_the_key_the_index_the_nonce_and_the_mode() {
    let key = secret(21);
    let node = Node::new();
    node.gas_key(&key, vec![0, 0, 70]);
    let signer = gas_signer(&key, [2]).nonce_mode(NonceMode::Strict);
    let client = client(&node);
    let signed = client
        .prepare(&signer, "bob.near", vec![Action::transfer(one_near())])
        .await
        .unwrap();
    let renewed = client.renew(&signer, &signed).await.unwrap();
    let expected = (
        TransactionNonce::GasKeyNonce {
            nonce: 71,
            nonce_index: 2,
        },
        NonceMode::Strict,
    );
    assert_eq!(v1(&signed), expected);
    assert_eq!(v1(&renewed), expected);
    assert_ne!(
        signed.transaction().block_hash(),
        renewed.transaction().block_hash()
    );
    assert!(renewed.verify());
    // Another index of the same key is another signer's: refused by name.
    let other = gas_signer(&key, [1]);
    let error = client.renew(&other, &signed).await.unwrap_err();
    assert!(
        matches!(error.kind(), SendErrorKind::Usage { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("nonce index 2"), "{error}");
}

#[tokio::test(start_paused = true)]
async fn an_index_the_node_does_not_list_is_a_usage_error_before_signing() {
    let key = secret(22);
    let node = Node::new();
    node.gas_key(&key, vec![1, 2]);
    let signer = gas_signer(&key, [5]);
    let error = client(&node)
        .transfer(&signer, "bob.near", one_near())
        .await
        .unwrap_err();
    assert!(
        matches!(error.kind(), SendErrorKind::Usage { .. }),
        "{error}"
    );
    let text = error.to_string();
    assert!(
        text.contains("nonce index 5") && text.contains("2 nonce(s)"),
        "{text}"
    );
    assert!(error.transactions().is_empty());
    assert!(node.sent().is_empty());
}

#[tokio::test(start_paused = true)]
async fn gas_key_balance_shortcuts_send_their_action_to_the_signer_account() {
    let key = secret(23);
    let gas = secret(24).public_key();
    let node = Node::new();
    node.access_key(&key, 0);
    let signer = Signer::new(alice(), key);
    let client = client(&node);
    client
        .transfer_to_gas_key(&signer, gas.to_string().as_str(), one_near())
        .await
        .unwrap();
    client
        .withdraw_from_gas_key(
            &signer,
            gas.to_string().as_str(),
            NearToken::from_millinear(5),
        )
        .await
        .unwrap();
    let sent = node.sent();
    assert!(sent
        .iter()
        .all(|s| s.transaction().receiver_id() == "alice.near"));
    assert_eq!(
        sent[0].transaction().actions(),
        [Action::TransferToGasKey {
            public_key: gas.clone(),
            deposit: one_near()
        }]
    );
    assert_eq!(
        sent[1].transaction().actions(),
        [Action::WithdrawFromGasKey {
            public_key: gas,
            amount: NearToken::from_millinear(5)
        }]
    );
    // A key that does not parse is named, and nothing is read or sent.
    let before = node.requests().len();
    let error = client
        .transfer_to_gas_key(&signer, "ed25519:nope", one_near())
        .await
        .unwrap_err();
    assert!(error.to_string().contains("the gas key"), "{error}");
    assert_eq!(node.requests().len(), before);
}

#[tokio::test(start_paused = true)]
async fn view_gas_key_nonces_reads_one_nonce_per_index() {
    let key = secret(25);
    let node = Node::new();
    node.gas_key(&key, vec![9, 8, 7]);
    let view = client(&node)
        .view_gas_key_nonces("alice.near", key.public_key().to_string().as_str())
        .await
        .unwrap();
    assert_eq!(view.nonces, [9, 8, 7]);
    assert_eq!(view.block_hash, block_hash(101));
    let (_, params) = node.requests().pop().unwrap();
    assert_eq!(params["request_type"], "view_gas_key_nonces");
}

#[test]
fn signers_refuse_empty_and_repeated_keys_and_indexes_and_never_show_a_secret() {
    let key = secret(31);
    assert_eq!(
        Signer::pool(alice(), Vec::new()).unwrap_err(),
        SignerError::Empty { what: "keys" }
    );
    assert_eq!(
        Signer::pool(alice(), [key.clone(), secret(32), key.clone()]).unwrap_err(),
        SignerError::DuplicateKey(key.public_key())
    );
    assert_eq!(
        Signer::gas_key(alice(), key.clone(), 0..0).unwrap_err(),
        SignerError::Empty {
            what: "nonce indexes"
        }
    );
    let error = Signer::gas_key(alice(), key.clone(), [0, 3, 3]).unwrap_err();
    assert_eq!(error, SignerError::DuplicateNonceIndex(3));
    assert!(error.to_string().contains("nonce index 3"), "{error}");
    let pool = Signer::pool(alice(), [key.clone(), secret(32)]).unwrap();
    let gas = gas_signer(&key, [4, 2]).nonce_mode(NonceMode::Strict);
    for shown in [format!("{pool:?}"), format!("{gas:?}")] {
        assert!(shown.contains(&key.public_key().to_string()), "{shown}");
        assert!(!shown.contains(&*key.to_secret_string()), "{shown}");
    }
    assert!(format!("{gas:?}").contains("[4, 2]"));
    assert_eq!(
        gas.lanes().map(|(_, i)| i).collect::<Vec<_>>(),
        [Some(4), Some(2)]
    );
}

/// A pool of plain keys against the mock node's chain: eight transfers at once over four
/// keys of one account, two on each key, all executed.
#[tokio::test(start_paused = true)]
async fn a_pool_of_access_keys_sends_concurrently_on_the_mock_chain() {
    let MockChain { node, client, .. } = &mock_chain().await;
    let alice_signer = node.signer("alice.mock").expect("alice signs");
    let account = alice_signer.account_id().clone();
    let extra: Vec<SecretKey> = (41..44).map(secret).collect();
    for key in &extra {
        client
            .add_key(
                &alice_signer,
                key.public_key().to_string().as_str(),
                near_rpc::tx::AccessKey::full_access(),
            )
            .await
            .unwrap();
    }
    let mut keys = vec![alice_signer.secret_key().clone()];
    keys.extend(extra);
    let nonce_of = |key: &SecretKey| {
        node.with_chain(|chain| {
            chain
                .account("alice.mock")
                .and_then(|a| a.key(&key.public_key()))
                .map(|k| k.nonce)
                .unwrap()
        })
    };
    let before: Vec<u64> = keys.iter().map(nonce_of).collect();
    let bob_before = node.with_chain(|c| c.account("bob.mock").unwrap().amount);
    let pool = Signer::pool(account, keys.clone()).unwrap();
    let send = || client.transfer(&pool, "bob.mock", one_near());
    let results = tokio::join!(
        send(),
        send(),
        send(),
        send(),
        send(),
        send(),
        send(),
        send()
    );
    let results = [
        results.0, results.1, results.2, results.3, results.4, results.5, results.6, results.7,
    ];
    let mut used: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for result in results {
        let outcome = result.unwrap();
        assert!(!outcome.is_failure());
        let tx = outcome.outcome.unwrap().transaction().clone();
        used.entry(tx.public_key.to_string())
            .or_default()
            .push(tx.nonce);
    }
    // Two on each key, in turn; each key's nonces its own, above what it had, and the
    // key's nonce on chain is the last of them. (Two sends on one key may reach the
    // node out of order: the later nonce first. Then the earlier is refused and signed
    // anew above it, so exact values are not promised; the count per key is.)
    for (key, before) in keys.iter().zip(before) {
        let mut nonces = used[&key.public_key().to_string()].clone();
        nonces.sort_unstable();
        nonces.dedup();
        assert_eq!(nonces.len(), 2, "{}: {nonces:?}", key.public_key());
        assert!(nonces[0] > before, "{}: {nonces:?}", key.public_key());
        assert_eq!(nonce_of(key), nonces[1]);
    }
    let bob_after = node.with_chain(|c| c.account("bob.mock").unwrap().amount);
    assert_eq!(bob_after - bob_before, 8 * one_near().as_yoctonear());
}

/// A gas key against the mock node's chain, over a real socket: another process spends
/// index 1's nonces behind the signer's back; the next send on index 1 is refused
/// (`InvalidNonce`) and signed anew on index 1 only, above the chain's nonce, and every
/// transfer executes exactly once. Index 0's count never moves for it.
#[tokio::test(start_paused = true)]
async fn an_index_spent_elsewhere_is_signed_anew_on_that_index_on_the_mock_chain() {
    use near_rpc_mock::chain;
    let MockChain { node, client, .. } = &mock_chain().await;
    let gas_key = node
        .add_gas_key("alice.mock", 2, 10 * one_near().as_yoctonear())
        .expect("a gas key for alice");
    let signer = Signer::gas_key(
        "alice.mock".parse().unwrap(),
        chain::gas_key_secret("alice.mock"),
        [0, 1],
    )
    .unwrap();
    let nonces = || {
        node.with_chain(|c| {
            let key = c.account("alice.mock").unwrap().key(&gas_key).unwrap();
            key.gas_key.as_ref().unwrap().nonces.clone()
        })
    };
    let bob = || node.with_chain(|c| c.account("bob.mock").unwrap().amount);
    let bob_before = bob();
    // A transfer of 1 NEAR to bob: the index and nonce it was signed with.
    let send = || async {
        let outcome = client
            .transfer(&signer, "bob.mock", one_near())
            .await
            .unwrap();
        assert!(!outcome.is_failure());
        let tx = outcome.outcome.unwrap().transaction().clone();
        (tx.nonce_index.expect("a gas key's index"), tx.nonce)
    };
    // One send on each index, from the one read of the key's nonces.
    let start = nonces();
    let first = send().await;
    let second = send().await;
    let mut indexes = [first.0, second.0];
    indexes.sort_unstable();
    assert_eq!(indexes, [0, 1], "each index in turn");
    assert_eq!(nonces(), vec![start[0] + 1, start[1] + 1]);
    // Another process signs with index 1 five times: the chain's nonce moves, the
    // signer's count does not know it.
    node.with_chain(|c| {
        let account = c
            .accounts
            .iter_mut()
            .find(|a| a.id == "alice.mock")
            .unwrap();
        let key = account
            .keys
            .iter_mut()
            .find(|k| k.public_key == gas_key)
            .unwrap();
        key.gas_key.as_mut().unwrap().nonces[1] += 5;
    });
    let spent = nonces()[1];
    let third = send().await;
    let fourth = send().await;
    let (on_one, on_zero) = if third.0 == 1 {
        (third, fourth)
    } else {
        (fourth, third)
    };
    assert_eq!((on_zero.0, on_one.0), (0, 1));
    // Index 1 signed anew above the chain's nonce; index 0 counted on from its own.
    assert_eq!(on_one.1, spent + 1, "index 1 after the refusal");
    assert_eq!(
        on_zero.1,
        start[0] + 2,
        "index 0 untouched by index 1's refusal"
    );
    assert_eq!(nonces(), vec![start[0] + 2, spent + 1]);
    // Four transfers, each executed once.
    assert_eq!(bob() - bob_before, 4 * one_near().as_yoctonear());
}

/// The mock node's chain over a real socket, producing each block at once, and a client
/// of it; a task keeps the paused clock moving while it lives.
struct MockChain {
    node: near_rpc_mock::MockNode,
    client: Client,
    _server: near_rpc_mock::MockServer,
    ticker: tokio::task::JoinHandle<()>,
}

impl Drop for MockChain {
    fn drop(&mut self) {
        self.ticker.abort();
    }
}

async fn mock_chain() -> MockChain {
    let ticker = tokio::spawn(async {
        loop {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    let node = near_rpc_mock::MockNode::new();
    node.set_block_time(Duration::ZERO);
    let server = node.serve(0).await.expect("listen");
    let client = Client::builder()
        .endpoint(server.url())
        .unwrap()
        .build()
        .unwrap();
    MockChain {
        node,
        client,
        _server: server,
        ticker,
    }
}
