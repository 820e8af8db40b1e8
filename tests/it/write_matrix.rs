//! The write path's promises over the product of the cases: where a send fails (before
//! it leaves, after it was written, in the answer), what the node answers (honest, or
//! lying about the transaction or about its status), one endpoint or two (the second
//! honest but behind: it knows only what it received), each wait level, and a caller
//! that drops the send after each request; signed with an access key, or with a gas key
//! (nonce index 1 of two, its nonce read with `view_gas_key_nonces`). One chain is
//! modelled under the endpoints: what executes there is what counts.
//!
//! Checked in every case: every transaction that executes was handed to
//! `Signer::before_send` before it was sent; without a lie at most one executes, with
//! any lie at most 1 + `MAX_NONCE_RESIGNS`, and more than one only after the lie the docs
//! name; success is only the outcome of the transaction signed last, executed, at the
//! level asked; `Rejected` only when nothing executed (without a lie); `Unresolved` only
//! with every executed transaction being the one it names; every error after signing
//! carries every transaction signed; every transaction of the intent is on the one key
//! and nonce index it started on. Time is tokio's paused clock.

#![cfg(feature = "client")]

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use near_rpc::client::layers::RetryPolicy;
use near_rpc::client::transport::{HttpResponse, RpcRequest, Transport, TransportError};
use near_rpc::client::transport::{TransportErrorKind, TransportFuture};
use near_rpc::client::SendErrorKind;
use near_rpc::client::{MAX_NONCE_RESIGNS, MAX_RESIGNS};
use near_rpc::tx::SignedTransaction;
use near_rpc::types::TxExecutionStatus;
use near_rpc::{Client, CryptoHash, NearToken, Signer};
use serde_json::{json, Value};

const SECRET: &str = "ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3";

/// How the receiving endpoint treats the first `send_tx` of the intent (later ones are
/// answered honestly).
#[derive(Clone, Copy, Debug, PartialEq)]
enum SendFault {
    /// Honest.
    None,
    /// No connection: nothing arrives.
    Unsent,
    /// The connection breaks before the node read the request.
    LostBefore,
    /// The node executes it; the answer is lost.
    LostAfter,
    /// The node executes it and answers `TIMEOUT_ERROR`.
    Timeout,
    /// The node executes it and answers its level with no outcome.
    NoOutcome,
    /// The node executes it and answers `INCLUDED` (below any level asked here).
    LowerLevel,
    /// The node executes it and answers with another transaction's outcome.
    OtherOutcome,
    /// Honest refusals: nothing executes.
    Expired,
    NotEnoughBalance,
    InvalidSignerId,
    ParseError,
    /// The node executes it and answers as nearcore's re-validation can: `InvalidNonce`
    /// with the key at its own nonce (honest: its status then says it knows it).
    Revalidated,
    /// Lies: the node executes it and says it refused it.
    LieExpired,
    LieNotEnoughBalance,
    LieInvalidSignerId,
}

impl SendFault {
    const ALL: [SendFault; 16] = [
        Self::None,
        Self::Unsent,
        Self::LostBefore,
        Self::LostAfter,
        Self::Timeout,
        Self::NoOutcome,
        Self::LowerLevel,
        Self::OtherOutcome,
        Self::Expired,
        Self::NotEnoughBalance,
        Self::InvalidSignerId,
        Self::ParseError,
        Self::Revalidated,
        Self::LieExpired,
        Self::LieNotEnoughBalance,
        Self::LieInvalidSignerId,
    ];

    fn is_lie(self) -> bool {
        matches!(
            self,
            Self::LieExpired | Self::LieNotEnoughBalance | Self::LieInvalidSignerId
        )
    }

    /// Whether a send with this fault ends in the outcome (else in a rejection) when
    /// nothing else goes wrong: honest status answers, no cancel.
    fn ends_in_outcome(self, endpoints: Endpoints) -> bool {
        match self {
            // Another endpoint takes what never left for the first.
            Self::Unsent => endpoints == Endpoints::TwoFirstAnswers,
            // Refusals of the transaction's own bytes are final, lie or not.
            Self::NotEnoughBalance
            | Self::InvalidSignerId
            | Self::ParseError
            | Self::LieInvalidSignerId => false,
            _ => true,
        }
    }
}

/// How the receiving endpoint answers status queries.
#[derive(Clone, Copy, Debug, PartialEq)]
enum StatusFault {
    /// Honest: the outcome if it received the transaction, else `UNKNOWN_TRANSACTION`.
    None,
    /// The first query gets no answer.
    FailOnce,
    /// A lie: `UNKNOWN_TRANSACTION` for the hash asked about, always.
    LieUnknown,
    /// `UNKNOWN_TRANSACTION` naming another hash, always.
    UnknownOther,
}

/// The endpoints.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Endpoints {
    /// One node.
    One,
    /// Two; the send goes to the first, the second is honest and knows only what it
    /// received.
    TwoFirstAnswers,
    /// Two; the first is down (no connection), so everything goes to the second, which
    /// has the faults.
    TwoFirstDown,
}

#[derive(Debug, Default)]
struct Chain {
    key_nonce: u64,
    /// Every transaction executed, in order.
    executed: Vec<SignedTransaction>,
    /// What each endpoint received (and so knows).
    known: HashMap<usize, BTreeSet<CryptoHash>>,
    /// Requests so far, over all endpoints; at `cancel_at`, the request is processed and
    /// its answer never comes (the caller drops the send).
    requests: usize,
    cancel_at: Option<usize>,
    cancelled: Option<Arc<tokio::sync::Notify>>,
    /// Whether the first `send_tx` was answered yet.
    first_send_done: bool,
    /// Whether an endpoint lied (about a transaction or its status).
    lied: bool,
    /// The final block's height: an honest `Expired` comes when the chain has moved on.
    height: u64,
    /// Whether a status query was failed already (`StatusFault::FailOnce`).
    status_failed: bool,
    /// Status queries answered, over all endpoints.
    status_queries: usize,
}

#[derive(Clone, Copy, Debug)]
struct Case {
    send: SendFault,
    status: StatusFault,
    endpoints: Endpoints,
    level: &'static str,
    cancel_at: Option<usize>,
    /// Signed with the gas key's nonce index 1 (`TransactionV1`), not an access key.
    gas_key: bool,
}

/// The gas key's nonce index the gas key cases sign on (the chain models its nonce).
const GAS_INDEX: u16 = 1;

/// One endpoint over the shared chain.
#[derive(Clone, Debug)]
struct Endpoint {
    index: usize,
    chain: Arc<Mutex<Chain>>,
    /// Down: every request fails to connect.
    down: bool,
    /// The faulty one (the receiving node).
    faulty: bool,
    case: CaseRef,
}

#[derive(Clone, Copy, Debug)]
struct CaseRef(Case);

fn block_hash(height: u64) -> CryptoHash {
    CryptoHash::hash_bytes(format!("block {height}").as_bytes())
}

fn handler_error(name: &str, info: Value) -> Value {
    json!({"name": "HANDLER_ERROR", "cause": {"name": name, "info": info}, "code": -32000,
           "message": "Server error", "data": info})
}

fn invalid_tx(reason: Value) -> Value {
    handler_error(
        "INVALID_TRANSACTION",
        json!({"TxExecutionError": {"InvalidTxError": reason}}),
    )
}

/// What the endpoint does with one request: an answer, or none.
enum Answer {
    Result(Value),
    Error(u16, Value),
    Fail(TransportErrorKind),
}

impl Endpoint {
    fn answer(&self, request: &RpcRequest) -> Answer {
        let case = self.case.0;
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        let params = &body["params"];
        let mut chain = self.chain.lock().unwrap();
        if self.down {
            return Answer::Fail(TransportErrorKind::Connect);
        }
        match request.method {
            "query" if case.gas_key => {
                assert_eq!(params["request_type"], "view_gas_key_nonces");
                // Index 0 belongs to nobody here; index 1 is the modelled nonce.
                Answer::Result(json!({"nonces": [3, chain.key_nonce],
                    "block_height": chain.height, "block_hash": block_hash(chain.height).to_string()}))
            }
            "query" => {
                assert_eq!(params["request_type"], "view_access_key");
                Answer::Result(json!({"nonce": chain.key_nonce, "permission": "FullAccess",
                    "block_height": chain.height, "block_hash": block_hash(chain.height).to_string()}))
            }
            "send_tx" => {
                let signed =
                    SignedTransaction::from_base64(params["signed_tx_base64"].as_str().unwrap())
                        .unwrap();
                let index = case.gas_key.then_some(GAS_INDEX);
                assert_eq!(signed.transaction().nonce_index(), index, "{case:?}");
                let fault = if self.faulty && !chain.first_send_done {
                    chain.first_send_done = true;
                    case.send
                } else {
                    SendFault::None
                };
                if fault == SendFault::Unsent {
                    return Answer::Fail(TransportErrorKind::Connect);
                }
                if fault == SendFault::LostBefore {
                    return Answer::Fail(TransportErrorKind::Connection);
                }
                let hash = signed.hash();
                let level = params["wait_until"].as_str().unwrap().to_owned();
                let refusal = |reason: Value| Answer::Error(200, invalid_tx(reason));
                match fault {
                    SendFault::Expired => {
                        chain.height += 1;
                        return refusal(json!("Expired"));
                    }
                    SendFault::NotEnoughBalance => {
                        return refusal(
                            json!({"NotEnoughBalance": {"signer_id": "alice.near", "balance": "1", "cost": "2"}}),
                        )
                    }
                    SendFault::InvalidSignerId => {
                        return refusal(json!({"InvalidSignerId": {"signer_id": "alice.near"}}))
                    }
                    SendFault::ParseError => {
                        return Answer::Error(
                            200,
                            json!({"name": "REQUEST_VALIDATION_ERROR", "cause": {"name": "PARSE_ERROR", "info": {"error_message": "bad"}}}),
                        )
                    }
                    _ => {}
                }
                chain.known.entry(self.index).or_default().insert(hash);
                let executed = chain.executed.iter().any(|e| e.hash() == hash);
                if !executed {
                    let nonce = signed.transaction().nonce();
                    if nonce <= chain.key_nonce {
                        let ak = chain.key_nonce;
                        return refusal(
                            json!({"InvalidNonce": {"tx_nonce": nonce, "ak_nonce": ak}}),
                        );
                    }
                    chain.key_nonce = nonce;
                    chain.executed.push(signed.clone());
                }
                if fault.is_lie() {
                    chain.lied = true;
                }
                match fault {
                    SendFault::LostAfter => Answer::Fail(TransportErrorKind::Connection),
                    SendFault::Timeout => Answer::Error(
                        408,
                        json!({"name": "HANDLER_ERROR", "cause": {"name": "TIMEOUT_ERROR"}, "code": -32000, "message": "Server error", "data": "Timeout"}),
                    ),
                    SendFault::NoOutcome => {
                        Answer::Result(json!({"final_execution_status": level}))
                    }
                    SendFault::LowerLevel => {
                        Answer::Result(json!({"final_execution_status": "INCLUDED"}))
                    }
                    SendFault::OtherOutcome => Answer::Result(crate::support::outcome_json(
                        &signed,
                        &level,
                        CryptoHash::hash_bytes(b"another"),
                    )),
                    SendFault::Revalidated => refusal(json!({"InvalidNonce": {
                        "tx_nonce": signed.transaction().nonce(), "ak_nonce": chain.key_nonce}})),
                    SendFault::LieExpired => refusal(json!("Expired")),
                    SendFault::LieNotEnoughBalance => refusal(
                        json!({"NotEnoughBalance": {"signer_id": "alice.near", "balance": "1", "cost": "2"}}),
                    ),
                    SendFault::LieInvalidSignerId => {
                        refusal(json!({"InvalidSignerId": {"signer_id": "alice.near"}}))
                    }
                    _ => Answer::Result(crate::support::outcome_json(&signed, &level, hash)),
                }
            }
            "EXPERIMENTAL_tx_status" => {
                chain.status_queries += 1;
                let asked: CryptoHash = params["tx_hash"].as_str().unwrap().parse().unwrap();
                let level = params["wait_until"].as_str().unwrap().to_owned();
                let fault = if self.faulty {
                    case.status
                } else {
                    StatusFault::None
                };
                let unknown = |named: CryptoHash| {
                    Answer::Error(
                        200,
                        handler_error(
                            "UNKNOWN_TRANSACTION",
                            json!({"requested_transaction_hash": named.to_string()}),
                        ),
                    )
                };
                let knows = chain
                    .known
                    .get(&self.index)
                    .is_some_and(|k| k.contains(&asked));
                match fault {
                    StatusFault::FailOnce if !chain.status_failed => {
                        chain.status_failed = true;
                        return Answer::Fail(TransportErrorKind::Connection);
                    }
                    StatusFault::LieUnknown => {
                        if knows {
                            chain.lied = true;
                        }
                        return unknown(asked);
                    }
                    StatusFault::UnknownOther => {
                        return unknown(CryptoHash::hash_bytes(b"another"))
                    }
                    _ => {}
                }
                let executed = chain.executed.iter().find(|e| e.hash() == asked).cloned();
                match executed {
                    Some(signed) if knows => {
                        if level == "NONE" {
                            Answer::Result(json!({"final_execution_status": "EXECUTED_OPTIMISTIC"}))
                        } else {
                            Answer::Result(crate::support::outcome_json(&signed, &level, asked))
                        }
                    }
                    _ => unknown(asked),
                }
            }
            other => panic!("unexpected method {other}"),
        }
    }
}

impl Transport for Endpoint {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        let answer = self.answer(&request);
        let cancelled = {
            let mut chain = self.chain.lock().unwrap();
            chain.requests += 1;
            (Some(chain.requests) == chain.cancel_at)
                .then(|| chain.cancelled.clone())
                .flatten()
        };
        let id = request.id;
        Box::pin(async move {
            if let Some(cancelled) = cancelled {
                // Processed; the answer never comes: the caller drops the send.
                cancelled.notify_one();
                std::future::pending::<()>().await;
            }
            let (status, body) = match answer {
                Answer::Result(result) => (
                    200,
                    json!({"jsonrpc": "2.0", "id": id.to_string(), "result": result}),
                ),
                Answer::Error(status, error) => (
                    status,
                    json!({"jsonrpc": "2.0", "id": id.to_string(), "error": error}),
                ),
                Answer::Fail(kind) => return Err(TransportError::new("node", kind, "scripted")),
            };
            Ok(HttpResponse::new(
                "node",
                status,
                serde_json::to_vec(&body).unwrap(),
            ))
        })
    }

    fn describe(&self) -> String {
        format!("node{}", self.index)
    }
}

fn level(name: &str) -> TxExecutionStatus {
    serde_json::from_value(json!(name)).unwrap()
}

/// Runs one case; returns what to check, with the case in every message.
async fn run(case: Case) {
    let chain = Arc::new(Mutex::new(Chain {
        key_nonce: 10,
        height: 100,
        cancel_at: case.cancel_at,
        cancelled: Some(Arc::new(tokio::sync::Notify::new())),
        ..Chain::default()
    }));
    let cancelled = chain.lock().unwrap().cancelled.clone().unwrap();
    let endpoint = |index, down, faulty| Endpoint {
        index,
        chain: chain.clone(),
        down,
        faulty,
        case: CaseRef(case),
    };
    let mut builder = Client::builder().retry(RetryPolicy::none());
    builder = match case.endpoints {
        Endpoints::One => builder.transport(endpoint(0, false, true)),
        Endpoints::TwoFirstAnswers => builder
            .transport(endpoint(0, false, true))
            .transport(endpoint(1, false, false)),
        Endpoints::TwoFirstDown => builder
            .transport(endpoint(0, true, false))
            .transport(endpoint(1, false, true)),
    };
    let client = builder.build().unwrap().waiting_until(level(case.level));
    let journal: Arc<Mutex<Vec<SignedTransaction>>> = Arc::default();
    let kept = journal.clone();
    let alice = "alice.near".parse().unwrap();
    let signer = if case.gas_key {
        // Index 1 first: the intent's lane.
        Signer::gas_key(alice, SECRET.parse().unwrap(), [GAS_INDEX, 0]).unwrap()
    } else {
        Signer::new(alice, SECRET.parse().unwrap())
    };
    let signer = signer.before_send(move |signed| {
        kept.lock().unwrap().push(signed.clone());
        Ok(())
    });
    let result = tokio::select! {
        result = client.transfer(&signer, "bob.near", NearToken::from_near(1)) => Some(result),
        () = cancelled.notified() => None,
    };
    let chain = chain.lock().unwrap();
    let journal = journal.lock().unwrap().clone();
    let executed = &chain.executed;
    let executed_hashes: BTreeSet<CryptoHash> = executed.iter().map(|e| e.hash()).collect();
    let journal_hashes: BTreeSet<CryptoHash> = journal.iter().map(|e| e.hash()).collect();
    let what = format!("{case:?}: result {result:?}, executed {executed_hashes:?}");

    // Nothing executes that the caller was not handed first.
    assert!(executed_hashes.is_subset(&journal_hashes), "{what}");
    // Every transaction of the intent on its one key and index; a gas key's version 1.
    for signed in &journal {
        let index = case.gas_key.then_some(GAS_INDEX);
        assert_eq!(signed.transaction().nonce_index(), index, "{what}");
        assert_eq!(
            matches!(signed.transaction(), near_rpc::tx::Transaction::V1(_)),
            case.gas_key,
            "{what}"
        );
    }
    assert!(journal.len() <= 1 + MAX_RESIGNS as usize, "{what}");
    let nonces: BTreeSet<u64> = journal.iter().map(|s| s.transaction().nonce()).collect();
    assert!(nonces.len() <= 1 + MAX_NONCE_RESIGNS as usize, "{what}");
    // At most one executes without a lie; with one, at most one per nonce.
    if chain.lied {
        assert!(executed.len() <= nonces.len(), "{what}");
    } else {
        assert!(executed.len() <= 1, "{what}");
    }
    let Some(result) = result else {
        return;
    };
    // Where one answer is right, it is the one given.
    if case.status == StatusFault::None {
        assert_eq!(
            result.is_ok(),
            case.send.ends_in_outcome(case.endpoints),
            "{what}"
        );
        // A refusal of the transaction's own bytes is not looked up, nor resent.
        if matches!(
            case.send,
            SendFault::InvalidSignerId | SendFault::ParseError | SendFault::LieInvalidSignerId
        ) {
            assert_eq!(chain.status_queries, 0, "{what}");
            assert_eq!(journal.len(), 1, "{what}");
        }
        // After `Expired` the intent keeps its nonce.
        if case.send == SendFault::Expired {
            assert_eq!((journal.len(), nonces.len()), (2, 1), "{what}");
        }
    }
    match result {
        Ok(response) => {
            let last = journal.last().expect("signed");
            let outcome = response.outcome.as_ref().expect("success has an outcome");
            assert_eq!(outcome.transaction_outcome().id, last.hash(), "{what}");
            assert!(executed_hashes.contains(&last.hash()), "{what}");
            assert_eq!(response.final_execution_status, level(case.level), "{what}");
        }
        Err(error) => {
            // Every transaction signed, the last the one the error is about.
            let carried: Vec<CryptoHash> = error.transactions().iter().map(|s| s.hash()).collect();
            let signed: Vec<CryptoHash> = journal.iter().map(|s| s.hash()).collect();
            assert_eq!(carried, signed, "{what}");
            match error.kind() {
                SendErrorKind::Rejected(_) if !chain.lied => {
                    assert!(executed.is_empty(), "{what}")
                }
                SendErrorKind::Rejected(_) => {}
                SendErrorKind::Unresolved(_) => {
                    let last = error.hash().unwrap();
                    assert!(executed_hashes.iter().all(|h| *h == last), "{what}");
                }
                other => panic!("{what}: {other:?}"),
            }
        }
    }
}

/// Every case. What each fault must end in, beyond the promises above, is checked by
/// the named tests below.
#[tokio::test(start_paused = true)]
async fn every_failure_point_answer_endpoint_level_and_cancel() {
    for send in SendFault::ALL {
        for status in [
            StatusFault::None,
            StatusFault::FailOnce,
            StatusFault::LieUnknown,
            StatusFault::UnknownOther,
        ] {
            for endpoints in [
                Endpoints::One,
                Endpoints::TwoFirstAnswers,
                Endpoints::TwoFirstDown,
            ] {
                for level in ["EXECUTED_OPTIMISTIC", "FINAL"] {
                    for cancel_at in [None, Some(2), Some(3), Some(4), Some(6)] {
                        for gas_key in [false, true] {
                            run(Case {
                                send,
                                status,
                                endpoints,
                                level,
                                cancel_at,
                                gas_key,
                            })
                            .await;
                        }
                    }
                }
            }
        }
    }
}
