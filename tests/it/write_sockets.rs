//! The write path's promises over real sockets: `Client` built with `.endpoint(url)`,
//! talking HTTP on loopback to the mock node (`near-rpc-mock`), whose chain executes what
//! it accepts. The product: where the send fails (nothing listens; the node executes it
//! and then drops the connection, answers 503, an HTML page, a truncated body, another
//! request's id, a body over the size limit, nothing before the attempt's timeout,
//! `TIMEOUT_ERROR`, no outcome, an outcome below the level asked, another transaction's
//! outcome, `InvalidNonce` for the nonce that transaction spent; the node refuses it
//! honestly; the node executes it and says it refused it, and its status says it does
//! not know it, or says its signer id is invalid) × its status queries answered or
//! dropped × one endpoint or two (the second an independent node with a chain of its
//! own, which never saw the first's transactions: two honest servers that disagree) ×
//! each wait level × the caller dropping the send once the node has received it, or not.
//!
//! What counts is the chains' own state after the run: the transactions they executed,
//! the sender's key nonce and the balances. Checked in every case: everything executed
//! was handed to `Signer::before_send` first; at most one transfer executes, or, when the
//! node lied twice (it said it refused a transaction it executed, and then that it does
//! not know it), at most 1 + `MAX_NONCE_RESIGNS` with distinct nonces; success is the
//! outcome of the executed transaction signed last, at the level asked; `Rejected` only
//! when nothing executed (without a lie); `Unresolved` names the only transaction that
//! may have executed; every error carries every transaction signed. `write_matrix.rs`
//! holds the same promises over a scripted transport and more answers; this file is
//! about what real connections and a real chain add.
//!
//! Time is tokio's paused clock (the resolve backoff takes no real time), with the mock
//! producing blocks at once (`set_block_time(ZERO)`).

#![cfg(feature = "client")]

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use near_rpc::client::{Client, SendErrorKind, Signer, MAX_NONCE_RESIGNS, MAX_RESIGNS};
use near_rpc::tx::{Action, SignedTransaction};
use near_rpc::types::{ExecutionOutcomeWithIdView, TxExecutionStatus};
use near_rpc::{CryptoHash, NearToken};
use near_rpc_mock::chain::Level;
use near_rpc_mock::runtime::SubmitError;
use near_rpc_mock::{unused_url, Fault, FaultRule, MockNode, MockServer, Reply, RpcError};
use serde_json::{json, Value};

const ALICE: &str = "alice.mock";

/// The client's largest response body in the `Oversized` cases (every honest answer here
/// is a few kilobytes).
const RESPONSE_LIMIT: usize = 256 * 1024;
const BOB: &str = "bob.mock";

/// What the receiving node does with the first `send_tx` of the intent (later ones, and
/// the same bytes again, it answers honestly, except that a refusal of given bytes is
/// repeated for them).
#[derive(Clone, Copy, Debug, PartialEq)]
enum SendFault {
    /// Honest.
    None,
    /// Nothing listens at its address: no connection.
    Unreachable,
    /// It executes the transaction, then closes the connection without an answer.
    DropAfter,
    /// It executes it, then answers HTTP 503 with a JSON-RPC `INTERNAL_ERROR`.
    Http503,
    /// It executes it, then a proxy's HTML page (502).
    Html,
    /// It executes it, then the answer is cut short.
    Truncated,
    /// It executes it, then answers with another request's id.
    WrongId,
    /// It executes it, then answers with a body over the client's size limit.
    Oversized,
    /// It executes it, then answers after the client's per-attempt timeout.
    SlowAnswer,
    /// It executes it, then answers `TIMEOUT_ERROR`.
    Timeout,
    /// It executes it, then answers the level asked with no outcome.
    NoOutcome,
    /// It answers once the transaction is at the level below the one asked (the real
    /// answer there).
    BelowLevel,
    /// It executes it, then answers with the outcome of another transaction.
    OtherOutcome,
    /// It executes it and answers `InvalidNonce`, its nonce being spent by that very
    /// transaction, as nearcore's re-validation of an accepted transaction can; its
    /// status says it knows it (honest).
    Revalidated,
    /// Honest refusals: nothing executes. The mock refuses `Expired` only after 86 400
    /// blocks and cannot be sent an invalid signer id, so those two are overrides;
    /// `NotEnoughBalance` is the chain's own (the intent moves more than the balance).
    Expired,
    NotEnoughBalance,
    InvalidSignerId,
    /// Lies: it executes the transaction, says `Expired` (or `InvalidNonce`, its nonce
    /// being spent by that very transaction), and its status says it does not know it.
    LieExpired,
    LieInvalidNonce,
    /// A lie the client cannot see through: it executes the transaction and says its
    /// signer id is invalid, which is final without a lookup (`Rejected` for what
    /// executed, as the write path's docs say a lying node can make happen).
    LieInvalidSignerId,
}

impl SendFault {
    const ALL: [SendFault; 20] = [
        Self::None,
        Self::Unreachable,
        Self::DropAfter,
        Self::Http503,
        Self::Html,
        Self::Truncated,
        Self::WrongId,
        Self::Oversized,
        Self::SlowAnswer,
        Self::Timeout,
        Self::NoOutcome,
        Self::BelowLevel,
        Self::OtherOutcome,
        Self::Revalidated,
        Self::Expired,
        Self::NotEnoughBalance,
        Self::InvalidSignerId,
        Self::LieExpired,
        Self::LieInvalidNonce,
        Self::LieInvalidSignerId,
    ];

    /// The fault the mock applies to the answer once the request was executed, if it is
    /// one of its own.
    fn wire_fault(self) -> Option<Fault> {
        match self {
            Self::DropAfter => Some(Fault::DropConnection),
            Self::Http503 => Some(Fault::status(503)),
            Self::Html => Some(Fault::HtmlPage { status: 502 }),
            Self::Truncated => Some(Fault::Truncated),
            Self::WrongId => Some(Fault::WrongId),
            Self::Oversized => Some(Fault::Oversized {
                bytes: 2 * RESPONSE_LIMIT,
            }),
            // Past the client's 30 s per attempt (`DEFAULT_TIMEOUT`).
            Self::SlowAnswer => Some(Fault::Latency(
                3 * near_rpc::client::transport::DEFAULT_TIMEOUT,
            )),
            _ => None,
        }
    }

    /// Whether the first answer is made by the test's `send_tx` handler.
    fn needs_handler(self) -> bool {
        matches!(
            self,
            Self::Timeout
                | Self::NoOutcome
                | Self::BelowLevel
                | Self::OtherOutcome
                | Self::Revalidated
                | Self::Expired
                | Self::InvalidSignerId
                | Self::LieExpired
                | Self::LieInvalidNonce
                | Self::LieInvalidSignerId
        )
    }

    fn is_lie(self) -> bool {
        matches!(
            self,
            Self::LieExpired | Self::LieInvalidNonce | Self::LieInvalidSignerId
        )
    }
}

/// How the receiving node answers status queries.
#[derive(Clone, Copy, Debug, PartialEq)]
enum StatusFault {
    /// Honest (but for the lie of `SendFault::Lie*`).
    None,
    /// It closes the connection on every `EXPERIMENTAL_tx_status`: it never says.
    Silent,
}

/// The endpoints of the client.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Endpoints {
    /// The receiving node alone.
    One,
    /// The receiving node first, then an independent node with a chain of its own.
    Two,
}

#[derive(Clone, Copy, Debug)]
struct Case {
    send: SendFault,
    status: StatusFault,
    endpoints: Endpoints,
    level: Level,
    /// The caller drops the send once the receiving node has its first `send_tx`.
    cancel: bool,
}

/// How a case ends when the caller waits for it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum End {
    Outcome,
    Rejected,
    Unresolved,
    /// The key read failed: nothing was signed.
    AccessKey,
}

impl Case {
    fn expected(self) -> End {
        use SendFault as S;
        let silent = self.status == StatusFault::Silent;
        let two = self.endpoints == Endpoints::Two;
        match self.send {
            S::None => End::Outcome,
            S::Unreachable if two => End::Outcome,
            S::Unreachable => End::AccessKey,
            // A refusal of the transaction's own bytes: final, without a lookup.
            S::InvalidSignerId | S::LieInvalidSignerId => End::Rejected,
            // The refusing node is asked whether it knows the hash: silent, it leaves the
            // outcome unknown (the other node's "unknown" only gets the same bytes
            // re-sent, to the node that refuses them again).
            S::NotEnoughBalance if silent => End::Unresolved,
            S::NotEnoughBalance => End::Rejected,
            S::Expired if silent => End::Unresolved,
            S::Expired => End::Outcome,
            // Everything else executed on the receiving node; when it does not say, only
            // the other node's "unknown" gets the same bytes re-sent, which the receiving
            // node then answers with their outcome.
            _ if silent && !two => End::Unresolved,
            _ => End::Outcome,
        }
    }

    fn amount(self) -> NearToken {
        // alice.mock holds 100 NEAR.
        if self.send == SendFault::NotEnoughBalance {
            NearToken::from_near(1_000)
        } else {
            NearToken::from_near(1)
        }
    }
}

/// What the receiving node's handlers share with the test.
#[derive(Default)]
struct Shared {
    /// `send_tx` requests so far.
    sends: AtomicUsize,
    /// Notified on the first `send_tx` (for a case that cancels).
    received: tokio::sync::Notify,
    /// Refusals the node repeats for the same bytes.
    refused: Mutex<BTreeMap<CryptoHash, Value>>,
    /// Block hashes the node holds to be too old: it refuses every transaction naming
    /// one as `Expired`.
    expired: Mutex<BTreeSet<CryptoHash>>,
    /// Hashes it executed and says it does not know.
    denied: Mutex<BTreeSet<CryptoHash>>,
    /// Whether it said it refused a transaction it executed.
    lied: AtomicBool,
    /// Whether it then said it does not know that transaction: the second lie, the only
    /// way to more than one execution.
    denied_to_client: AtomicBool,
    /// Every transaction handed to `before_send`, in order.
    journal: Mutex<Vec<SignedTransaction>>,
    /// Transactions the node received that had not been handed to `before_send` first.
    unjournaled: Mutex<Vec<CryptoHash>>,
}

fn level_param(params: &Value) -> Level {
    params["wait_until"]
        .as_str()
        .map_or(Level::ExecutedOptimistic, |name| {
            Level::parse(name).unwrap_or_else(|| panic!("wait_until {name}"))
        })
}

fn signed_param(params: &Value) -> SignedTransaction {
    let text = params["signed_tx_base64"]
        .as_str()
        .expect("signed_tx_base64");
    SignedTransaction::from_base64(text).expect("the client sends a signed transaction")
}

/// nearcore's `INVALID_TRANSACTION` (as the mock words it).
fn invalid_tx(reason: Value) -> Reply {
    let info = if reason.is_object() {
        reason.clone()
    } else {
        json!({})
    };
    Reply::Error(RpcError {
        status: 200,
        error: json!({
            "name": "HANDLER_ERROR",
            "cause": {"name": "INVALID_TRANSACTION", "info": info},
            "code": -32000,
            "message": "Server error",
            "data": {"TxExecutionError": {"InvalidTxError": reason}}
        }),
    })
}

fn unknown_transaction(hash: CryptoHash) -> Reply {
    Reply::handler_error(
        "UNKNOWN_TRANSACTION",
        json!({"requested_transaction_hash": hash.to_string()}),
    )
}

fn timeout_error() -> Reply {
    Reply::Error(RpcError::handler("TIMEOUT_ERROR", Value::Null, "Timeout"))
}

/// What the mock's own `send_tx` does, produced at once: submit to the chain, produce
/// blocks until the transaction is at `level`, answer its status there.
fn honest_send(node: &MockNode, signed: &SignedTransaction, level: Level) -> Reply {
    node.with_chain(|chain| match chain.submit(&signed.to_borsh()) {
        Err(SubmitError::Invalid(reason)) => invalid_tx(reason),
        Err(other) => panic!("the mock cannot take a transfer: {other:?}"),
        Ok(hash) => {
            if !chain.wait_for(&hash, level) {
                return timeout_error();
            }
            let tx = chain.transaction(&hash).expect("submitted");
            Reply::Result(chain.transaction_status(tx, false))
        }
    })
}

/// What the mock's own `EXPERIMENTAL_tx_status` by hash does, produced at once.
fn honest_status(node: &MockNode, params: &Value) -> Reply {
    let hash: CryptoHash = params["tx_hash"]
        .as_str()
        .and_then(|h| h.parse().ok())
        .expect("the client asks by hash");
    let sender = params["sender_account_id"].as_str().unwrap_or_default();
    let level = level_param(params);
    node.with_chain(|chain| {
        if chain
            .transaction(&hash)
            .is_none_or(|tx| tx.signer != sender)
        {
            return unknown_transaction(hash);
        }
        if !chain.wait_for(&hash, level) {
            return timeout_error();
        }
        let tx = chain.transaction(&hash).expect("known");
        Reply::Result(chain.transaction_status(tx, true))
    })
}

/// The receiving node's `send_tx`: the case's fault on the first, honest after.
fn on_send(node: &MockNode, case: Case, shared: &Shared, params: &Value) -> Reply {
    let signed = signed_param(params);
    let hash = signed.hash();
    let level = level_param(params);
    let first = shared.sends.fetch_add(1, Ordering::SeqCst) == 0;
    let journaled = shared
        .journal
        .lock()
        .unwrap()
        .iter()
        .any(|s| s.hash() == hash);
    if !journaled {
        shared.unjournaled.lock().unwrap().push(hash);
    }
    if first && case.cancel {
        // The caller drops the send now; whatever follows happens all the same.
        shared.received.notify_one();
    }
    if let Some(reason) = shared.refused.lock().unwrap().get(&hash) {
        return invalid_tx(reason.clone());
    }
    let block = *signed.transaction().block_hash();
    if shared.expired.lock().unwrap().contains(&block) {
        return invalid_tx(json!("Expired"));
    }
    let fault = if first { case.send } else { SendFault::None };
    match fault {
        SendFault::Expired => {
            // As if the validity window had just passed that block: the node refuses
            // whatever names it, and its final block moves on.
            shared.expired.lock().unwrap().insert(block);
            node.advance(3);
            return invalid_tx(json!("Expired"));
        }
        SendFault::InvalidSignerId => {
            let reason = json!({"InvalidSignerId": {"signer_id": ALICE}});
            shared.refused.lock().unwrap().insert(hash, reason.clone());
            return invalid_tx(reason);
        }
        SendFault::BelowLevel => {
            let below = match level {
                Level::Final => Level::ExecutedOptimistic,
                _ => Level::Included,
            };
            return honest_send(node, &signed, below);
        }
        _ => {}
    }
    let answer = honest_send(node, &signed, level);
    let executed = matches!(answer, Reply::Result(_));
    if fault.is_lie() && executed {
        shared.lied.store(true, Ordering::SeqCst);
        shared.denied.lock().unwrap().insert(hash);
    }
    match fault {
        SendFault::Timeout => timeout_error(),
        SendFault::NoOutcome => Reply::Result(json!({"final_execution_status": level.name()})),
        SendFault::OtherOutcome => node.with_chain(|chain| {
            let other = chain.genesis_transfer();
            let tx = chain.transaction(&other).expect("the genesis transfer");
            Reply::Result(chain.transaction_status(tx, false))
        }),
        SendFault::LieExpired if executed => invalid_tx(json!("Expired")),
        SendFault::LieInvalidSignerId if executed => {
            invalid_tx(json!({"InvalidSignerId": {"signer_id": ALICE}}))
        }
        SendFault::LieInvalidNonce | SendFault::Revalidated if executed => {
            let nonce = signed.transaction().nonce();
            let ak_nonce = node.with_chain(|chain| {
                let key = signed.transaction().public_key();
                chain
                    .account(ALICE)
                    .and_then(|a| a.key(key))
                    .map(|k| k.nonce)
            });
            invalid_tx(json!({"InvalidNonce": {"tx_nonce": nonce, "ak_nonce": ak_nonce}}))
        }
        _ => answer,
    }
}

/// One chain's state, to compare before and after.
#[derive(Debug, Clone)]
struct Snapshot {
    transactions: BTreeSet<CryptoHash>,
    alice: u128,
    bob: u128,
    nonce: u64,
}

fn snapshot(node: &MockNode, signer: &Signer) -> Snapshot {
    node.with_chain(|chain| Snapshot {
        transactions: chain.transactions.iter().map(|t| t.hash).collect(),
        alice: chain.account(ALICE).expect("alice").amount,
        bob: chain.account(BOB).expect("bob").amount,
        nonce: chain
            .account(ALICE)
            .and_then(|a| a.key(signer.public_key()))
            .expect("alice's key")
            .nonce,
    })
}

/// What one chain executed during the case: each transaction's hash, nonce and the
/// `transaction_outcome` it shows; checked against the balances and the key's nonce.
fn executed_on(
    node: &MockNode,
    before: &Snapshot,
    signer: &Signer,
    amount: NearToken,
    what: &str,
) -> BTreeMap<CryptoHash, (u64, Value)> {
    // Whatever was accepted and still waits gets its blocks (and its refunds).
    node.advance(8);
    let after = snapshot(node, signer);
    node.with_chain(|chain| {
        let mut executed = BTreeMap::new();
        let mut burnt = 0u128;
        for tx in &chain.transactions {
            if before.transactions.contains(&tx.hash) {
                continue;
            }
            assert!(tx.height().is_some(), "{what}: {} not included", tx.hash);
            assert_eq!(tx.signer, ALICE, "{what}");
            assert_eq!(tx.status(), json!({"SuccessValue": ""}), "{what}");
            burnt += tx.outcomes.iter().map(|o| o.tokens_burnt).sum::<u128>();
            let nonce = tx.signed_view["nonce"].as_u64().expect("a nonce");
            let status = chain.transaction_status(tx, false);
            executed.insert(tx.hash, (nonce, status["transaction_outcome"].clone()));
        }
        let count = executed.len() as u128;
        let moved = amount.as_yoctonear() * count;
        assert_eq!(after.bob, before.bob + moved, "{what}: bob's balance");
        assert_eq!(
            after.alice,
            before.alice - moved - burnt,
            "{what}: alice's balance"
        );
        let top = executed.values().map(|(n, _)| *n).max();
        assert_eq!(
            after.nonce,
            top.unwrap_or(before.nonce),
            "{what}: the key's nonce"
        );
        executed
    })
}

/// Runs one case and checks it.
async fn run(case: Case) {
    let shared = Arc::new(Shared::default());
    // The receiving node, and the independent one when there are two.
    let nodes: Vec<MockNode> = match case.endpoints {
        Endpoints::One => vec![MockNode::new()],
        Endpoints::Two => vec![MockNode::new(), MockNode::new()],
    };
    for node in &nodes {
        node.set_block_time(Duration::ZERO);
    }
    let receiving = &nodes[0];
    if let Some(fault) = case.send.wire_fault() {
        receiving.inject(FaultRule::new(fault).for_method("send_tx").times(1));
    }
    if case.status == StatusFault::Silent {
        receiving
            .inject(FaultRule::new(Fault::DropConnection).for_method("EXPERIMENTAL_tx_status"));
    }
    if case.send.needs_handler() || case.cancel {
        let (node, shared) = (receiving.clone(), shared.clone());
        receiving.on("send_tx", move |params| {
            on_send(&node, case, &shared, params)
        });
    }
    if case.send.is_lie() {
        let (node, shared) = (receiving.clone(), shared.clone());
        receiving.on("EXPERIMENTAL_tx_status", move |params| {
            let asked: Option<CryptoHash> = params["tx_hash"].as_str().and_then(|h| h.parse().ok());
            match asked {
                Some(hash) if shared.denied.lock().unwrap().contains(&hash) => {
                    shared.denied_to_client.store(true, Ordering::SeqCst);
                    unknown_transaction(hash)
                }
                _ => honest_status(&node, params),
            }
        });
    }
    let mut servers: Vec<MockServer> = Vec::new();
    let receiving_url = if case.send == SendFault::Unreachable {
        unused_url()
    } else {
        let server = receiving.serve(0).await.expect("listen");
        let url = server.url().to_owned();
        servers.push(server);
        url
    };
    let mut builder = Client::builder().endpoint(&receiving_url).unwrap();
    for other in &nodes[1..] {
        let server = other.serve(0).await.expect("listen");
        builder = builder.endpoint(server.url()).unwrap();
        servers.push(server);
    }
    let level: TxExecutionStatus = serde_json::from_value(json!(case.level.name())).unwrap();
    if case.send == SendFault::Oversized {
        builder = builder.max_response_bytes(RESPONSE_LIMIT);
    }
    let client = builder.build().unwrap().waiting_until(level.clone());
    let journal = shared.clone();
    let signer = receiving
        .signer(ALICE)
        .expect("alice signs")
        .before_send(move |signed| {
            journal.journal.lock().unwrap().push(signed.clone());
            Ok(())
        });
    let before: Vec<Snapshot> = nodes.iter().map(|n| snapshot(n, &signer)).collect();

    let result = tokio::select! {
        biased;
        () = shared.received.notified(), if case.cancel => None,
        result = client.transfer(&signer, BOB, case.amount()) => Some(result),
    };
    for server in servers {
        server.stop().await;
    }

    let journal = shared.journal.lock().unwrap().clone();
    let what = format!("{case:?}: {result:?}, signed {:?}", hashes(&journal));
    // The same bytes may execute on both chains: one transaction, by its hash.
    let mut executed = BTreeMap::new();
    for (node, before) in nodes.iter().zip(&before) {
        executed.extend(executed_on(node, before, &signer, case.amount(), &what));
    }
    let lied = shared.lied.load(Ordering::SeqCst);
    let lied_twice = lied && shared.denied_to_client.load(Ordering::SeqCst);
    let what = format!(
        "{what}, executed {:?}, lied {lied}, twice {lied_twice}",
        executed.keys()
    );

    // Nothing reached the node before it was handed to `before_send`, so nothing
    // executed that was not.
    assert!(shared.unjournaled.lock().unwrap().is_empty(), "{what}");
    let signed: BTreeSet<CryptoHash> = journal.iter().map(SignedTransaction::hash).collect();
    assert!(executed.keys().all(|h| signed.contains(h)), "{what}");
    assert!(journal.len() <= 1 + MAX_RESIGNS as usize, "{what}");
    let nonces: BTreeSet<u64> = executed.values().map(|(n, _)| *n).collect();
    assert_eq!(nonces.len(), executed.len(), "{what}: one per nonce");
    if lied_twice {
        assert!(executed.len() <= 1 + MAX_NONCE_RESIGNS as usize, "{what}");
    } else {
        assert!(executed.len() <= 1, "{what}");
    }

    let Some(result) = result else {
        assert!(case.cancel, "{what}");
        return;
    };
    let end = match &result {
        Ok(_) => End::Outcome,
        Err(e) => match e.kind() {
            SendErrorKind::Rejected(_) => End::Rejected,
            SendErrorKind::Unresolved(_) => End::Unresolved,
            SendErrorKind::AccessKey(_) => End::AccessKey,
            other => panic!("{what}: {other:?}"),
        },
    };
    assert_eq!(end, case.expected(), "{what}");
    match result {
        Ok(response) => {
            let last = journal.last().expect("signed").hash();
            let outcome = response.outcome.as_ref().expect("an outcome");
            assert_eq!(outcome.transaction_outcome().id, last, "{what}");
            let (_, shown) = executed
                .get(&last)
                .expect("the outcome's transaction executed");
            let shown: ExecutionOutcomeWithIdView =
                serde_json::from_value(shown.clone()).expect("the chain's outcome decodes");
            assert_eq!(
                json!(outcome.transaction_outcome()),
                json!(shown),
                "{what}: the chain's own outcome"
            );
            let reached = match case.level {
                Level::Final => vec!["FINAL"],
                _ => vec!["EXECUTED_OPTIMISTIC", "EXECUTED", "FINAL"],
            };
            let status = json!(response.final_execution_status);
            assert!(reached.iter().any(|l| status == *l), "{what}");
        }
        Err(error) => {
            assert_eq!(hashes(error.transactions()), hashes(&journal), "{what}");
            match error.kind() {
                SendErrorKind::Rejected(_) if !lied => assert!(executed.is_empty(), "{what}"),
                SendErrorKind::Unresolved(_) => {
                    let named = error.hash().expect("a hash");
                    assert!(executed.keys().all(|h| *h == named), "{what}");
                }
                SendErrorKind::AccessKey(_) => assert!(journal.is_empty(), "{what}"),
                _ => {}
            }
        }
    }
    // A refusal of the transaction's own bytes is final: no lookup, nothing re-sent.
    if matches!(
        case.send,
        SendFault::InvalidSignerId | SendFault::LieInvalidSignerId
    ) && !case.cancel
    {
        let asked: usize = nodes
            .iter()
            .map(|n| n.requests_for("EXPERIMENTAL_tx_status").len())
            .sum();
        assert_eq!((asked, journal.len()), (0, 1), "{what}");
        assert_eq!(receiving.requests_for("send_tx").len(), 1, "{what}");
    }
    // After an honest `Expired` the intent keeps its nonce.
    if case.send == SendFault::Expired && case.status == StatusFault::None {
        let nonces: BTreeSet<u64> = journal.iter().map(|s| s.transaction().nonce()).collect();
        assert_eq!((journal.len(), nonces.len()), (2, 1), "{what}");
    }
}

fn hashes(signed: &[SignedTransaction]) -> Vec<CryptoHash> {
    signed.iter().map(SignedTransaction::hash).collect()
}

/// The most the paused clock moves at once while the runtime waits on a socket.
const TICK: Duration = Duration::from_millis(10);

/// Paused time over real sockets: with nothing to run, the paused clock jumps to the
/// next timer at once, even while an answer is on its way through the kernel (a
/// request's timeout could fire that never would). A task that sleeps [`TICK`] at a time
/// bounds each jump to that; waits of seconds (the resolve backoff) still take
/// no real time to speak of.
fn tick() -> tokio::task::JoinHandle<()> {
    tokio::spawn(async {
        loop {
            tokio::time::sleep(TICK).await;
        }
    })
}

/// Runs every case of `sends`: × status answered or not × one or two endpoints × each
/// level × cancelled or not (a cancel comes before any status query, so it is run with
/// honest status only). Returns how many ran.
async fn product(sends: &[SendFault]) -> usize {
    let ticker = tick();
    let mut cases = 0;
    for &send in sends {
        for status in [StatusFault::None, StatusFault::Silent] {
            for endpoints in [Endpoints::One, Endpoints::Two] {
                for level in [Level::ExecutedOptimistic, Level::Final] {
                    for cancel in [false, true] {
                        if cancel && status == StatusFault::Silent {
                            continue;
                        }
                        run(Case {
                            send,
                            status,
                            endpoints,
                            level,
                            cancel,
                        })
                        .await;
                        cases += 1;
                    }
                }
            }
        }
    }
    ticker.abort();
    cases
}

/// The tests the faults are run in.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Group {
    Honest,
    Broken,
    Unsettled,
    Refused,
    Lied,
}

impl SendFault {
    fn group(self) -> Group {
        match self {
            Self::None | Self::Unreachable => Group::Honest,
            Self::DropAfter
            | Self::Http503
            | Self::Html
            | Self::Truncated
            | Self::WrongId
            | Self::Oversized
            | Self::SlowAnswer => Group::Broken,
            Self::Timeout
            | Self::NoOutcome
            | Self::BelowLevel
            | Self::OtherOutcome
            | Self::Revalidated => Group::Unsettled,
            Self::Expired | Self::NotEnoughBalance | Self::InvalidSignerId => Group::Refused,
            Self::LieExpired | Self::LieInvalidNonce | Self::LieInvalidSignerId => Group::Lied,
        }
    }
}

/// Every case of the faults in `group`.
async fn product_of(group: Group) {
    let sends: Vec<SendFault> = SendFault::ALL
        .into_iter()
        .filter(|s| s.group() == group)
        .collect();
    assert!(!sends.is_empty(), "{group:?}");
    assert_eq!(product(&sends).await, sends.len() * 12);
}

/// Honest, and nothing listening at the receiving node's address.
#[tokio::test(start_paused = true)]
async fn honest_or_unreachable_over_real_sockets() {
    product_of(Group::Honest).await;
}

/// The node executes the transaction and its answer is lost or broken on the wire.
#[tokio::test(start_paused = true)]
async fn executed_then_the_answer_broken_over_real_sockets() {
    product_of(Group::Broken).await;
}

/// The node executes the transaction and answers without its outcome at the level (or
/// with `InvalidNonce`, its nonce spent by that very transaction).
#[tokio::test(start_paused = true)]
async fn executed_then_no_outcome_at_the_level_over_real_sockets() {
    product_of(Group::Unsettled).await;
}

/// The node refuses the transaction honestly.
#[tokio::test(start_paused = true)]
async fn honest_refusals_over_real_sockets() {
    product_of(Group::Refused).await;
}

/// The node executes the transaction and says it refused it and does not know it.
#[tokio::test(start_paused = true)]
async fn lies_over_real_sockets() {
    product_of(Group::Lied).await;
}

/// Connection refused at the send itself (the node stopped after the transaction was
/// prepared), on its one endpoint or on both: `Rejected`, never sent, with the
/// transaction; the chain is unchanged.
#[tokio::test(start_paused = true)]
async fn a_send_whose_connection_is_refused_is_rejected_with_its_transaction() {
    let ticker = tick();
    let node = MockNode::new();
    node.set_block_time(Duration::ZERO);
    let server = node.serve(0).await.expect("listen");
    let url = server.url().to_owned();
    let signer = node.signer(ALICE).expect("alice signs");
    let client = Client::builder().endpoint(&url).unwrap().build().unwrap();
    let actions = vec![Action::transfer(NearToken::from_near(1))];
    let signed = client.prepare(&signer, BOB, actions).await.unwrap();
    let before = snapshot(&node, &signer);
    server.stop().await;
    // Alone, or with another endpoint where nothing listens either. A client of its own
    // each time, so that no connection of the prepare is left to reuse.
    for endpoints in [vec![url.clone()], vec![url.clone(), unused_url()]] {
        let mut builder = Client::builder();
        for endpoint in &endpoints {
            builder = builder.endpoint(endpoint).unwrap();
        }
        let error = builder
            .build()
            .unwrap()
            .send_signed(&signed)
            .await
            .unwrap_err();
        assert!(error.is_rejected(), "{endpoints:?}: {error}");
        let failed = error.transaction_error().unwrap();
        assert!(failed.nothing_sent(), "{endpoints:?}: {error}");
        assert_eq!(hashes(error.transactions()), [signed.hash()]);
    }
    assert!(node.requests_for("send_tx").is_empty());
    let executed = executed_on(&node, &before, &signer, NearToken::from_near(1), "refused");
    assert!(executed.is_empty());
    ticker.abort();
}
