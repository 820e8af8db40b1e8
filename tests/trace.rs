//! Tracing (feature `tracing`): every record at TRACE level, the client's and its HTTP
//! stack's (hyper), captured while calls go to endpoints holding keys in every place a
//! key can be given, through retries and failover: the spans and events are there, and
//! no key is in any of near-rpc's. (hyper-util's own TRACE events name the host it
//! connects to: a key given as a host label may be in them, and only there; the guide
//! says so.) Then the write path's events: a send that re-signs
//! records every decision (hashes, nonces, lane, endpoint index; no key, no bytes), and
//! an anomaly it resolves by hash is its only WARN.
//!
//! A test binary of its own: tracing caches per callsite whether anyone listens, and
//! tests of another binary hitting the same callsites from other threads with no
//! subscriber would race that cache against the capture.

#![cfg(feature = "tracing")]

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use near_rpc::client::layers::RetryPolicy;
use near_rpc::client::ApiKey;
use near_rpc::Client;
use near_rpc_mock::{HttpReply, MockNode};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Every span and event, as text: its target, its name, and every field, with the
/// targets of the spans by id.
#[derive(Clone, Default)]
struct Capture {
    records: Arc<Mutex<Vec<(String, String)>>>,
    targets: Arc<Mutex<HashMap<u64, String>>>,
    next_id: Arc<AtomicU64>,
}

struct Fields<'a>(&'a mut String);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = write!(self.0, " {}={value:?}", field.name());
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        let _ = write!(self.0, " {}={value}", field.name());
    }
}

impl Capture {
    fn push(&self, target: &str, text: String) {
        self.records.lock().unwrap().push((target.to_owned(), text));
    }

    /// `(target, text)` of every record.
    fn records(&self) -> Vec<(String, String)> {
        self.records.lock().unwrap().clone()
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(tracing::level_filters::LevelFilter::TRACE)
    }

    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut text = format!("span {}", span.metadata().name());
        span.record(&mut Fields(&mut text));
        let target = span.metadata().target();
        self.push(target, text);
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        self.targets.lock().unwrap().insert(id, target.to_owned());
        Id::from_u64(id)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut text = format!("record {}", span.into_u64());
        values.record(&mut Fields(&mut text));
        let target = self.targets.lock().unwrap().get(&span.into_u64()).cloned();
        self.push(&target.unwrap_or_default(), text);
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut text = format!("event {}", event.metadata().level());
        event.record(&mut Fields(&mut text));
        self.push(event.metadata().target(), text);
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// Runs `f` with `capture` as this thread's subscriber. tracing caches per callsite
/// whether anyone listens, and other tests of this binary hit the same callsites from
/// other threads with no subscriber at all: the cache is rebuilt once `capture` is
/// registered, so every callsite is judged with it listening, and the capturing tests
/// take turns, so no other capture comes or goes meanwhile.
fn captured<T>(capture: &Capture, f: impl FnOnce() -> T) -> T {
    static TURN: Mutex<()> = Mutex::new(());
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    tracing::subscriber::with_default(capture.clone(), || {
        tracing::callsite::rebuild_interest_cache();
        f()
    })
}

/// Key-like values, one per place a key can be given.
const IN_PATH: &str = "PathKey7Qw9Zr3Lm5Tx8Vb2Nc4Hd6Jf1Kp0Sy";
const IN_QUERY: &str = "QueryKey4Mn8Bv2Cx6Zl1Kj5Hg9Fd3Sa7Po0";
const IN_USERINFO: &str = "UserKey9Hy3Tg7Rf1Ed5Ws2Qa8Zx4Cv6Bn0";
const IN_HEADER: &str = "HeaderKey2Lk6Jh0Gf4Ds8Ap3Oi7Uy1Tr5Ew9";
const IN_HOST: &str = "hostkey5mn1bv7cx3zl9kj2hg6fd0sa4po8iu";

#[test]
fn traces_hold_every_call_and_no_key() {
    let capture = Capture::default();
    let records = captured(&capture, || {
        // The node echoes every key in its bodies and headers, as a hostile one might.
        let echo = format!("{IN_PATH} {IN_QUERY} {IN_USERINFO} {IN_HEADER} {IN_HOST}");
        let busy = HttpReply::status(503, &echo).header("x-echo", &echo);
        let result = format!(r#"{{"jsonrpc":"2.0","id":"1","result":{{"echo":"{echo}"}}}}"#);
        let node = MockNode::start_scripted(vec![busy, HttpReply::json(&result)]);
        let port = node
            .url()
            .rsplit(':')
            .next()
            .unwrap()
            .trim_end_matches('/')
            .to_owned();
        let keyed = format!("http://u:{IN_USERINFO}@127.0.0.1:{port}/{IN_PATH}?key={IN_QUERY}");
        // A key as a host label: it may not resolve, which is one more failure to trace.
        let by_host = format!(
            "http://{IN_HOST}.localhost:{}/",
            near_rpc_mock::unused_url()
                .rsplit(':')
                .next()
                .unwrap()
                .trim_end_matches('/')
        );
        let client = Client::builder()
            .endpoint(&by_host)
            .unwrap()
            .endpoint(&keyed)
            .unwrap()
            .api_key(ApiKey::x_api_key(IN_HEADER).unwrap())
            .retry(RetryPolicy {
                max_retries: 2,
                initial_backoff: std::time::Duration::from_millis(1),
                ..RetryPolicy::default()
            })
            .build()
            .unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        // The answer is not a health answer: whether it decodes does not matter here.
        let _ = runtime.block_on(client.health());
        drop(node);
        capture.records()
    });
    let all = records
        .iter()
        .map(|(target, text)| format!("{target}: {text}"))
        .collect::<Vec<_>>()
        .join("\n");
    let ours: Vec<&(String, String)> = records
        .iter()
        .filter(|(target, _)| target.starts_with("near_rpc"))
        .collect();
    assert!(ours.len() >= 8, "too few of near-rpc's records:\n{all}");
    for name in [
        "span near_rpc.call",
        "span near_rpc.attempt",
        "span near_rpc.endpoint",
    ] {
        assert!(all.contains(name), "no {name} in:\n{all}");
    }
    assert!(
        all.contains("near_rpc: retrying"),
        "no retry event in:\n{all}"
    );
    assert!(
        all.contains("near_rpc: failing over"),
        "no failover event in:\n{all}"
    );
    assert!(all.contains("status=503"), "no HTTP status in:\n{all}");
    assert!(all.contains("attempt=2"), "no second attempt in:\n{all}");
    assert!(all.contains("bytes="), "no size in:\n{all}");
    let holds = |text: &str, key: &str| {
        let text = text.to_lowercase();
        [key, &key[..12], &key[key.len() - 12..]]
            .iter()
            .any(|part| text.contains(&part.to_lowercase()))
    };
    for key in [IN_PATH, IN_QUERY, IN_USERINFO, IN_HEADER, IN_HOST] {
        for (target, text) in &records {
            // hyper-util names the host it connects to, at TRACE.
            let hosts_own = key == IN_HOST && target.starts_with("hyper_util::client::legacy");
            assert!(
                hosts_own || !holds(text, key),
                "a key in {target}: {text}\n{all}"
            );
        }
    }
    // near-rpc's records are never part of that exception. (Whether hyper-util's record
    // of the host reaches this thread's subscriber depends on the thread it resolves the
    // name on, so its presence is not asserted.)
    assert!(ours.iter().all(|(_, text)| !holds(text, IN_HOST)));
}

/// A read of a collected block re-routed to the archival endpoint, and a call held for
/// its endpoint's budget, each leave their event, naming the cause and the wait.
#[test]
fn archival_reads_and_budget_waits_are_traced() {
    use near_rpc::client::layers::RateBudget;
    use near_rpc_mock::chain::INITIAL_HEAD;

    let capture = Capture::default();
    let records = captured(&capture, || {
        let regular = MockNode::new();
        regular.keep_blocks(5);
        let client = Client::builder()
            .transport(regular)
            .rate_limit(RateBudget::per_second(10))
            .archival_transport(MockNode::new())
            .build()
            .unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .unwrap();
        runtime.block_on(async {
            let old = client.at(INITIAL_HEAD - 10);
            let account = old.view_account("alice.mock").await.unwrap();
            assert_eq!(account.block_height, INITIAL_HEAD - 10);
            // The first call spent the bucket's one token: this one waits 100 ms.
            client.block(INITIAL_HEAD).await.unwrap();
        });
        capture.records()
    });
    let ours: Vec<&String> = records
        .iter()
        .filter(|(target, _)| target.starts_with("near_rpc"))
        .map(|(_, text)| text)
        .collect();
    let archival = ours
        .iter()
        .find(|t| t.contains("near_rpc: reading from the archival endpoints"));
    assert!(
        archival.is_some_and(
            |t| t.contains("cause=GARBAGE_COLLECTED_BLOCK") && t.contains("method=query")
        ),
        "{ours:#?}"
    );
    let wait = ours
        .iter()
        .find(|t| t.contains("near_rpc: waiting for the rate budget"));
    assert!(
        wait.is_some_and(|t| t.contains("method=block") && t.contains("wait_ms=100")),
        "{ours:#?}"
    );
    // The archival endpoint is numbered after the regular one.
    assert!(
        ours.iter()
            .any(|t| t.contains("span near_rpc.endpoint") && t.contains("endpoint_index=1")),
        "{ours:#?}"
    );
}

/// The `InvalidTxError` to answer a transaction of this nonce with.
type Refusal = Box<dyn Fn(u64) -> serde_json::Value + Send>;

/// The mock node, except that its first `send_tx` answers are the refusals given (and
/// each moves the chain on, so that a re-sign finds a fresh final block): the write
/// path re-signs through them and records every decision.
struct Refusing {
    node: MockNode,
    refusals: Mutex<Vec<Refusal>>,
    /// The causes the first status queries are answered with.
    statuses: Mutex<Vec<serde_json::Value>>,
}

/// A JSON-RPC `HANDLER_ERROR` answer to `body` with this cause (and `data`).
fn handler_error(
    body: &serde_json::Value,
    cause: serde_json::Value,
    data: serde_json::Value,
) -> near_rpc::client::transport::HttpResponse {
    let reply = serde_json::json!({
        "jsonrpc": "2.0", "id": body["id"], "error": {
            "name": "HANDLER_ERROR", "code": -32000, "message": "Server error",
            "cause": cause, "data": data,
        }
    });
    near_rpc::client::transport::HttpResponse::new("mock", 200, serde_json::to_vec(&reply).unwrap())
}

impl std::fmt::Debug for Refusing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Refusing")
            .field("node", &self.node)
            .finish()
    }
}

impl near_rpc::client::transport::Transport for Refusing {
    fn send(
        &self,
        request: near_rpc::client::transport::RpcRequest,
    ) -> near_rpc::client::transport::TransportFuture<'_> {
        let body: serde_json::Value = serde_json::from_slice(&request.body).unwrap();
        if request.method == "EXPERIMENTAL_tx_status" {
            let mut statuses = self.statuses.lock().unwrap();
            if !statuses.is_empty() {
                let response = handler_error(&body, statuses.remove(0), serde_json::Value::Null);
                return Box::pin(async move { Ok(response) });
            }
        }
        if request.method == "send_tx" {
            let mut refusals = self.refusals.lock().unwrap();
            if !refusals.is_empty() {
                let refusal = refusals.remove(0);
                let base64 = body["params"]["signed_tx_base64"].as_str().unwrap();
                let signed = near_rpc::tx::SignedTransaction::from_base64(base64).unwrap();
                let error = refusal(signed.transaction().nonce());
                let response = handler_error(
                    &body,
                    serde_json::json!({"name": "INVALID_TRANSACTION", "info": {}}),
                    serde_json::json!({"TxExecutionError": {"InvalidTxError": error}}),
                );
                self.node.advance(3);
                return Box::pin(async move { Ok(response) });
            }
        }
        self.node.send(request)
    }

    fn describe(&self) -> String {
        "refusing mock".to_owned()
    }
}

/// A transfer refused `Expired`, then `InvalidNonce`, settles on its third transaction:
/// each decision is an event (signed, believed UNKNOWN, same nonce, new nonce, settled)
/// naming hashes, nonces, the lane and the endpoint, and none holds the signer's key or
/// a transaction's bytes.
#[test]
fn a_send_that_resigns_traces_every_decision_and_no_secret() {
    use near_rpc::NearToken;

    let node = MockNode::new();
    let signer = node.signer("alice.mock").unwrap();
    let secret = signer.secret_key().to_secret_string().to_string();
    let secret_body = secret.split(':').nth(1).unwrap().to_owned();
    let refusing = Refusing {
        node: node.clone(),
        refusals: Mutex::new(vec![
            Box::new(|_| serde_json::json!("Expired")),
            Box::new(
                |nonce| serde_json::json!({"InvalidNonce": {"tx_nonce": nonce, "ak_nonce": nonce}}),
            ),
        ]),
        statuses: Mutex::new(Vec::new()),
    };
    let capture = Capture::default();
    let (records, sent) = captured(&capture, || {
        let client = Client::builder().transport(refusing).build().unwrap();
        let alice = client.with_signer(signer);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .unwrap();
        let outcome = runtime
            .block_on(alice.transfer("bob.mock", NearToken::from_near(1)).send())
            .unwrap();
        assert!(!outcome.is_failure());
        (capture.records(), node.requests_for("send_tx"))
    });
    let ours: Vec<&String> = records
        .iter()
        .filter(|(target, _)| target.starts_with("near_rpc"))
        .map(|(_, text)| text)
        .collect();
    let find = |message: &str| -> Vec<&String> {
        ours.iter()
            .filter(|t| t.contains(message))
            .copied()
            .collect()
    };
    // Three transactions signed, the last two as re-signs.
    let signed = find("near_rpc: signed");
    assert_eq!(signed.len(), 3, "{ours:#?}");
    for (n, text) in signed.iter().enumerate() {
        assert!(text.starts_with("event DEBUG"), "{text}");
        assert!(text.contains(&format!("resign={n}")), "{text}");
        assert!(text.contains("hash=") && text.contains("lane=0"), "{text}");
    }
    let believed = find("UNKNOWN to the node that refused it: believed");
    assert_eq!(believed.len(), 2, "{ours:#?}");
    assert!(believed[0].contains("refusal=Expired") && believed[0].contains("endpoint_index=0"));
    assert!(believed[1].contains("refusal=InvalidNonce"));
    let same = find("near_rpc: Expired: signing again with the same nonce");
    assert_eq!(same.len(), 1, "{ours:#?}");
    let fresh = find("near_rpc: InvalidNonce: signing again with a new nonce");
    assert_eq!(fresh.len(), 1, "{ours:#?}");
    // The nonces the events name are those signed: the same twice, then the node's + 1.
    let field = |text: &str, name: &str| -> u64 {
        let start = text.find(&format!(" {name}=")).unwrap() + name.len() + 2;
        text[start..].split(' ').next().unwrap().parse().unwrap()
    };
    let nonces: Vec<u64> = signed.iter().map(|t| field(t, "nonce")).collect();
    assert_eq!(nonces[0], nonces[1]);
    assert_eq!(field(same[0], "nonce"), nonces[0]);
    assert_eq!(field(fresh[0], "key_nonce"), nonces[1]);
    assert_eq!(field(fresh[0], "new_nonce"), nonces[2]);
    assert_eq!(nonces[2], nonces[1] + 1);
    let settled = find("near_rpc: settled");
    assert_eq!(settled.len(), 1, "{ours:#?}");
    assert!(settled[0].contains("level=") && settled[0].contains("by=send_tx"));
    // No anomaly here: nothing at WARN.
    assert!(
        ours.iter().all(|t| !t.starts_with("event WARN")),
        "{ours:#?}"
    );
    // Only the third reached the node; the events name its hash, and no record holds
    // the key or the bytes of a transaction.
    assert_eq!(sent.len(), 1);
    let body = sent[0].params()["signed_tx_base64"]
        .as_str()
        .unwrap()
        .to_owned();
    let hash = near_rpc::tx::SignedTransaction::from_base64(&body)
        .unwrap()
        .hash()
        .to_string();
    assert!(signed[2].contains(&format!("hash={hash}")), "{}", signed[2]);
    assert!(settled[0].contains(&format!("hash={hash}")));
    for (target, text) in &records {
        for secret in [&secret_body[..], &secret_body[..16], &body[..40]] {
            assert!(!text.contains(secret), "a secret in {target}: {text}");
        }
    }
}

/// An `UNKNOWN_TRANSACTION` naming another hash after a refusal is not believed: a WARN
/// naming both hashes, then the transaction is resolved by hash (its same bytes sent
/// again) and settles; nothing is signed anew.
#[test]
fn an_unknown_about_another_hash_is_a_warning_and_resolved_by_hash() {
    use near_rpc::NearToken;

    let node = MockNode::new();
    let other = near_rpc::CryptoHash::hash_bytes(b"another transaction");
    let refusing = Refusing {
        node: node.clone(),
        refusals: Mutex::new(vec![Box::new(|_| serde_json::json!("Expired"))]),
        statuses: Mutex::new(vec![serde_json::json!({
            "name": "UNKNOWN_TRANSACTION",
            "info": {"requested_transaction_hash": other.to_string()},
        })]),
    };
    let capture = Capture::default();
    let records = captured(&capture, || {
        let client = Client::builder().transport(refusing).build().unwrap();
        let alice = client.with_signer(node.signer("alice.mock").unwrap());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .unwrap();
        runtime
            .block_on(alice.transfer("bob.mock", NearToken::from_near(1)).send())
            .unwrap();
        capture.records()
    });
    let ours: Vec<&String> = records
        .iter()
        .filter(|(target, _)| target.starts_with("near_rpc"))
        .map(|(_, text)| text)
        .collect();
    let warnings: Vec<&&String> = ours
        .iter()
        .filter(|t| t.starts_with("event WARN"))
        .collect();
    assert_eq!(warnings.len(), 1, "{ours:#?}");
    assert!(
        warnings[0].contains("UNKNOWN_TRANSACTION naming another hash")
            && warnings[0].contains(&format!("named={other}"))
            && warnings[0].contains("endpoint_index=0"),
        "{}",
        warnings[0]
    );
    let count = |message: &str| ours.iter().filter(|t| t.contains(message)).count();
    assert_eq!(count("near_rpc: signed"), 1, "{ours:#?}");
    assert_eq!(
        count("did not say it does not know it: resolving by hash"),
        1
    );
    assert_eq!(count("near_rpc: resolving by hash"), 1, "{ours:#?}");
    assert_eq!(count("sending the same bytes again"), 1, "{ours:#?}");
    assert_eq!(count("near_rpc: settled"), 1, "{ours:#?}");
}
