//! `Client::verified`: a transaction status whose outcomes are proven against a head
//! that follows the chain, on a small chain forged here (three validators with known
//! keys, a block holding a transaction's outcome and its receipt's, the next epoch's
//! light-client block signed by them), and on forgeries of each part. The hashing this
//! relies on is checked on real data in `verify.rs`.

#![cfg(feature = "client")]

use std::sync::{Arc, Mutex};

use near_rpc::client::layers::RetryPolicy;
use near_rpc::client::transport::TransportFuture;
use near_rpc::client::transport::{HttpResponse, RpcRequest, Transport, TransportError};
use near_rpc::client::VerifyError;
use near_rpc::tx::{Action, SecretKey, Transaction};
use near_rpc::types::{LightClientBlockLiteView, TxExecutionStatus};
use near_rpc::verify::{self, BlockStep, LightClientHead, ProofStep};
use near_rpc::{Client, CryptoHash, NearToken};
use serde_json::{json, Value};

fn h(n: u8) -> CryptoHash {
    CryptoHash([n; 32])
}

use near_rpc::verify::combine_hash as combine;

/// The forged chain: JSON answers, as a node would give them.
struct Forge {
    head: Value,
    next_block: Value,
    status: Value,
    tx_proof: Value,
    receipt_proof: Value,
    tx_hash: CryptoHash,
}

fn inner_lite(
    height: u64,
    epoch: u8,
    next_epoch: u8,
    outcome_root: CryptoHash,
    bp_hash: CryptoHash,
    merkle_root: CryptoHash,
) -> Value {
    json!({"height": height, "epoch_id": h(epoch), "next_epoch_id": h(next_epoch),
        "prev_state_root": h(9), "outcome_root": outcome_root, "timestamp": height * 1000,
        "timestamp_nanosec": (height * 1000).to_string(), "next_bp_hash": bp_hash,
        "block_merkle_root": merkle_root})
}

fn lite_hash(header: &Value) -> CryptoHash {
    let header: LightClientBlockLiteView = near_rpc::decode::from_value(header.clone()).unwrap();
    verify::block_hash(&header).unwrap()
}

fn forge() -> Forge {
    let validators: Vec<SecretKey> = (1..=3)
        .map(|i| SecretKey::ed25519_from_seed(&[i; 32]))
        .collect();
    let bps: Value = validators
        .iter()
        .enumerate()
        .map(|(i, key)| {
            json!({"validator_stake_struct_version": "V1", "account_id": format!("v{i}.near"),
            "public_key": key.public_key().to_string(), "stake": "100"})
        })
        .collect();
    let bp_hash =
        verify::producers_hash(&near_rpc::decode::from_value::<Vec<_>>(bps.clone()).unwrap())
            .unwrap();

    // A real signed transaction; its outcome and its receipt's, in one chunk of block X.
    let signer = SecretKey::ed25519_from_seed(&[7; 32]);
    let signed = Transaction::new(
        "alice.near".parse().unwrap(),
        signer.public_key(),
        1,
        "bob.near".parse().unwrap(),
        h(4),
        vec![Action::transfer(NearToken::from_near(1))],
    )
    .sign(&signer);
    let tx_hash = signed.hash();
    let receipt_id = h(5);
    let outcome = |id: CryptoHash, executor: &str, receipts: Vec<CryptoHash>, status: Value| {
        json!({"id": id, "block_hash": h(0), "proof": [], "outcome": {"logs": ["a log"], "receipt_ids": receipts,
            "gas_burnt": 223182562500u64, "tokens_burnt": "22318256250000000000", "executor_id": executor,
            "status": status, "metadata": {"version": 1, "gas_profile": null}}})
    };
    let tx_outcome = outcome(
        tx_hash,
        "alice.near",
        vec![receipt_id],
        json!({"SuccessReceiptId": receipt_id}),
    );
    let receipt_outcome = outcome(receipt_id, "bob.near", vec![], json!({"SuccessValue": ""}));
    let leaf = |o: &Value| {
        verify::outcome_leaf(&near_rpc::decode::from_value(o.clone()).unwrap()).unwrap()
    };
    let (tx_leaf, receipt_leaf) = (leaf(&tx_outcome), leaf(&receipt_outcome));
    let chunk_root = combine(&tx_leaf, &receipt_leaf);
    let outcome_root = CryptoHash::hash_bytes(&chunk_root.0);
    let x = json!({"inner_lite": inner_lite(10, 1, 2, outcome_root, bp_hash, h(8)), "inner_rest_hash": h(11), "prev_block_hash": h(12)});
    let x_hash = lite_hash(&x);
    // As nearcore: the status shows the block the outcome executed in (h(0) here), the
    // proof the next block with a new chunk (X): the leaf does not include it.
    let proven = |o: &Value| {
        let mut o = o.clone();
        o["block_hash"] = json!(x_hash);
        o
    };

    // The trusted head (epoch 1, naming epoch 2's producers) and the next block (epoch
    // 2), whose block Merkle root is X's hash (X the only block under it: empty path).
    let head = json!({"prev_block_hash": h(13), "inner_rest_hash": h(14), "next_block_inner_hash": h(15),
        "inner_lite": inner_lite(5, 1, 2, h(16), bp_hash, h(17)), "next_bps": bps, "approvals_after_next": []});
    let mut next_block = json!({"prev_block_hash": h(18), "inner_rest_hash": h(19), "next_block_inner_hash": h(20),
        "inner_lite": inner_lite(20, 2, 3, h(21), bp_hash, x_hash), "next_bps": bps});
    let message = {
        let next_hash = combine(&h(20), &lite_hash(&next_block));
        let mut m = vec![0u8];
        m.extend_from_slice(&next_hash.0);
        m.extend_from_slice(&22u64.to_le_bytes());
        m
    };
    next_block["approvals_after_next"] = validators
        .iter()
        .map(|k| json!(k.sign(&message).to_string()))
        .collect();

    let proof = |outcome: &Value, sibling: CryptoHash, direction: &str| {
        let mut outcome = outcome.clone();
        outcome["proof"] = json!([{"hash": sibling, "direction": direction}]);
        json!({"outcome_proof": outcome, "outcome_root_proof": [], "block_header_lite": x, "block_proof": []})
    };
    let status = json!({"final_execution_status": "FINAL", "status": {"SuccessValue": ""},
        "transaction": near_rpc::types::SignedTransactionView::from(&signed),
        "transaction_outcome": tx_outcome, "receipts_outcome": [receipt_outcome], "receipts": []});
    Forge {
        tx_proof: proof(&proven(&tx_outcome), receipt_leaf, "Right"),
        receipt_proof: proof(&proven(&receipt_outcome), tx_leaf, "Left"),
        head,
        next_block,
        status,
        tx_hash,
    }
}

/// A node answering from the forge; every request recorded.
#[derive(Clone, Debug)]
struct Node {
    answers: Arc<Mutex<ForgeAnswers>>,
}

#[derive(Debug)]
struct ForgeAnswers {
    head_hash: CryptoHash,
    next_hash: CryptoHash,
    next_block: Value,
    status: Value,
    tx_proof: Value,
    receipt_proof: Value,
    methods: Vec<String>,
}

impl Transport for Node {
    fn send(&self, request: RpcRequest) -> TransportFuture<'_> {
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        let params = &body["params"];
        let mut answers = self.answers.lock().unwrap();
        answers.methods.push(request.method.to_owned());
        let result = match request.method {
            "EXPERIMENTAL_tx_status" => answers.status.clone(),
            "next_light_client_block" => {
                let last: CryptoHash = params["last_block_hash"].as_str().unwrap().parse().unwrap();
                if last == answers.head_hash {
                    answers.next_block.clone()
                } else {
                    assert_eq!(last, answers.next_hash, "asked from an unknown block");
                    json!({})
                }
            }
            "light_client_proof" => {
                if params.get("transaction_hash").is_some() {
                    answers.tx_proof.clone()
                } else {
                    answers.receipt_proof.clone()
                }
            }
            other => panic!("unexpected {other}"),
        };
        let body = json!({"jsonrpc": "2.0", "id": request.id.to_string(), "result": result});
        let answer: Result<HttpResponse, TransportError> = Ok(HttpResponse::new(
            "forge",
            200,
            serde_json::to_vec(&body).unwrap(),
        ));
        Box::pin(async move { answer })
    }

    fn describe(&self) -> String {
        "forge".into()
    }
}

fn setup(change: impl FnOnce(&mut Forge)) -> (Node, LightClientHead, CryptoHash) {
    let mut forge = forge();
    let head_block = verify::light_client_block_from_json(forge.head.clone()).unwrap();
    let head_hash = lite_hash(&forge.head);
    let head = LightClientHead::from_block(&head_block, &head_hash).unwrap();
    let next_hash = lite_hash(&forge.next_block);
    change(&mut forge);
    let node = Node {
        answers: Arc::new(Mutex::new(ForgeAnswers {
            head_hash,
            next_hash,
            next_block: forge.next_block,
            status: forge.status,
            tx_proof: forge.tx_proof,
            receipt_proof: forge.receipt_proof,
            methods: Vec::new(),
        })),
    };
    (node, head, forge.tx_hash)
}

fn client(node: &Node) -> Client {
    Client::builder()
        .transport(node.clone())
        .retry(RetryPolicy::none())
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_verified_status_proves_every_outcome_against_the_synced_head() {
    let (node, head, tx_hash) = setup(|_| {});
    let verified = client(&node).verified(head);
    let answer = verified
        .tx_status(
            tx_hash,
            "alice.near".parse().unwrap(),
            Some(TxExecutionStatus::Final),
        )
        .await
        .unwrap();
    assert_eq!(answer.outcomes.len(), 2);
    assert_eq!(answer.outcomes[0].id, tx_hash);
    assert_eq!(answer.head_height, 20);
    let methods = node.answers.lock().unwrap().methods.clone();
    // The status, the head moved one epoch (then nothing newer), two proofs.
    assert_eq!(
        methods,
        [
            "EXPERIMENTAL_tx_status",
            "next_light_client_block",
            "next_light_client_block",
            "light_client_proof",
            "light_client_proof"
        ]
    );
    // The head followed the chain, and is stored and restored whole.
    let head = verified.head().await;
    assert_eq!(head.height(), 20);
    assert_eq!(LightClientHead::from_json(head.to_json()).unwrap(), head);
}

#[tokio::test]
async fn a_status_that_is_not_what_was_proven_is_refused() {
    let (node, head, tx_hash) = setup(|f| {
        f.status["transaction_outcome"]["outcome"]["gas_burnt"] = json!(1);
    });
    let err = client(&node)
        .verified(head)
        .tx_status(tx_hash, "alice.near".parse().unwrap(), None)
        .await
        .unwrap_err();
    assert!(matches!(err, VerifyError::Mismatch { .. }), "{err}");
    // A receipt's outcome changed in the status.
    let (node, head, tx_hash) = setup(|f| {
        f.status["receipts_outcome"][0]["outcome"]["logs"] = json!([]);
    });
    let err = client(&node)
        .verified(head)
        .tx_status(tx_hash, "alice.near".parse().unwrap(), None)
        .await
        .unwrap_err();
    assert!(matches!(err, VerifyError::Mismatch { .. }), "{err}");
}

/// Another transaction's status (with its genuine proofs), a receipt left out, a
/// final status the outcomes do not make: each refused.
#[tokio::test]
async fn a_status_of_another_transaction_or_hiding_a_receipt_is_refused() {
    let (node, head, _) = setup(|_| {});
    let err = client(&node)
        .verified(head)
        .tx_status(h(99), "alice.near".parse().unwrap(), None)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("the status is of"), "{err}");
    let (node, head, tx_hash) = setup(|f| {
        f.status["receipts_outcome"] = json!([]);
    });
    let err = client(&node)
        .verified(head)
        .tx_status(tx_hash, "alice.near".parse().unwrap(), None)
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("receipts shown are not those"),
        "{err}"
    );
    for forged in [
        json!({"SuccessValue": "AQ=="}),
        json!({"Failure": {"ActionError": {"index": 0, "kind": {"AccountDoesNotExist": {"account_id": "bob.near"}}}}}),
    ] {
        let (node, head, tx_hash) = setup(|f| f.status["status"] = forged.clone());
        let err = client(&node)
            .verified(head)
            .tx_status(tx_hash, "alice.near".parse().unwrap(), None)
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("final status shown"),
            "{forged}: {err}"
        );
    }
    // A proof of another outcome than the one asked for.
    let (node, head, tx_hash) = setup(|f| f.receipt_proof = f.tx_proof.clone());
    let err = client(&node)
        .verified(head)
        .tx_status(tx_hash, "alice.near".parse().unwrap(), None)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("the proof is of"), "{err}");
}

#[tokio::test]
async fn a_forged_light_client_block_stops_the_head() {
    let (node, head, tx_hash) = setup(|f| {
        f.next_block["approvals_after_next"][1] = f.next_block["approvals_after_next"][0].clone();
    });
    let verified = client(&node).verified(head.clone());
    let err = verified
        .tx_status(tx_hash, "alice.near".parse().unwrap(), None)
        .await
        .unwrap_err();
    let VerifyError::Block(block) = &err else {
        panic!("{err}")
    };
    assert_eq!(block.step, BlockStep::Signature(1));
    assert_eq!(verified.head().await, head, "the head did not move");
}

#[tokio::test]
async fn a_forged_proof_is_refused_at_its_step() {
    let (node, head, tx_hash) = setup(|f| {
        f.receipt_proof["outcome_proof"]["proof"][0]["direction"] = json!("Right");
    });
    let err = client(&node)
        .verified(head)
        .tx_status(tx_hash, "alice.near".parse().unwrap(), None)
        .await
        .unwrap_err();
    let VerifyError::Outcome { error, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(error.step, ProofStep::OutcomeRootProof);
    // A node that never moves the head past the outcome's block: not covered by the
    // trusted head's root.
    let (node, head, tx_hash) = setup(|f| f.next_block = json!({}));
    let err = client(&node)
        .verified(head)
        .tx_status(tx_hash, "alice.near".parse().unwrap(), None)
        .await
        .unwrap_err();
    let VerifyError::Outcome { error, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(error.step, ProofStep::BlockProof);
}

#[tokio::test]
async fn nothing_to_prove_is_said_so() {
    let (node, head, tx_hash) = setup(|f| f.status = json!({"final_execution_status": "NONE"}));
    let err = client(&node)
        .verified(head)
        .tx_status(
            tx_hash,
            "alice.near".parse().unwrap(),
            Some(TxExecutionStatus::None),
        )
        .await
        .unwrap_err();
    assert!(matches!(err, VerifyError::NoOutcome { .. }), "{err}");
}

/// The mock node's light-client blocks and proofs verify: a head from its genesis
/// block (the validator as its epoch's producer) follows the chain, and a finished
/// transaction's status is proven whole; a transaction signed and sent here too, once
/// the chain has moved past it.
#[tokio::test]
async fn the_mock_nodes_proofs_verify() {
    use near_rpc_mock::chain::{secret_key, Chain, GENESIS_HEIGHT};
    use near_rpc_mock::MockNode;

    let chain = Chain::new();
    let genesis: LightClientBlockLiteView =
        near_rpc::decode::from_value(chain.block_header_lite(GENESIS_HEIGHT)).unwrap();
    let producers = near_rpc_mock::light_client::block_producers();
    let head = LightClientHead::new(genesis, producers.clone())
        .unwrap()
        .with_current_producers(producers);
    let node = MockNode::new();
    let client = Client::with_transport(node.clone());
    let verified = client.verified(head);
    let transfer = &chain.transactions[0];
    let answer = verified
        .tx_status(
            transfer.hash,
            "alice.mock".parse().unwrap(),
            Some(TxExecutionStatus::Final),
        )
        .await
        .unwrap();
    // The transaction's and its receipt's (a transfer burns what it prepaid: no refund).
    assert_eq!(answer.outcomes.len(), 2);
    assert_eq!(answer.outcomes.len(), transfer.outcomes.len());
    assert_eq!(answer.head_height, chain.height_at("final").unwrap());
    // The failed call: its failure is proven as a failure.
    let failed = &chain.transactions[1];
    let answer = verified
        .tx_status(failed.hash, "alice.mock".parse().unwrap(), None)
        .await
        .unwrap();
    assert!(answer.value.is_failure());

    // A transaction sent now: not yet below a final head (NOT_CONFIRMED), then proven.
    let signer = near_rpc::Signer::new("alice.mock".parse().unwrap(), secret_key("alice.mock"));
    let sent = client
        .transfer(&signer, "bob.mock", NearToken::from_near(1))
        .await
        .unwrap();
    let hash = sent.outcome.unwrap().transaction_outcome().id;
    let err = verified
        .tx_status(hash, "alice.mock".parse().unwrap(), None)
        .await
        .unwrap_err();
    assert!(matches!(err, VerifyError::Proof(_)), "{err}");
    node.advance(5);
    let answer = verified
        .tx_status(hash, "alice.mock".parse().unwrap(), None)
        .await
        .unwrap();
    assert_eq!(answer.outcomes[0].id, hash);
}
