//! Verified reads (`near_rpc::verify`) on real proofs and light-client blocks
//! (`../shared`), each against the trusted root or head its public test suite uses, and
//! on mutations of them: every field, path step and signature, each refused at the step
//! (and approval index) it breaks, over every proof and every block in `../shared`.
//!
//! Trusted roots and heads, quoted from (data only):
//! - near-api-js `packages/light-client/test/execution-proof.test.js` at
//!   153dfa74d74a1d4ac4b964cf22602d0d4d40216e (the roots of proofs 2 to 7);
//! - nearcore `neard/src/cli.rs` at 0064c62b0a8eee98a22c0856075a928d432be375,
//!   `verify_proof_test` (proof_example's block hash and root; invalid_proof's failure,
//!   for which that test names no root: see `invalid_proofs_fail_at_their_step`);
//! - near/near-light-client `src/client/proof.rs` at
//!   a28204a2cf160c4abb1f51da9e8a607581ef40e0 (`BLOCK_MERKLE_ROOT` of old.json, new.json),
//!   and `crates/test-utils/src/lib.rs` at 1926f5e936f254e9fa276e55c9869028c8cd404f
//!   (`mainnet_state`, `testnet_state`: the head is `main_0.json`/`test_0.json`, the first
//!   line of `nearlightclient-{mainnet,testnet}.jsonl`, with its `next_bps`, as here);
//! - austinabell/near-light-client-tests: the invalid vectors carry their own
//!   `block_merkle_root`, or `previous_block` and `current_bps`. Its chains are checked in
//!   that suite from a trusted head that is not in `../shared` (`SOURCES.tsv` there: each
//!   `.jsonl` holds the vectors' `new_block`s only), so here each chain's first block is
//!   trusted by its own hash; only the first block of 60000000-61000000 is checked from a
//!   head of the suite's (the invalid vectors' `previous_block` and `current_bps`).

#![cfg(feature = "verify")]

use near_rpc::types::{RpcLightClientExecutionProofResponse, RpcLightClientNextBlockResponse};
use near_rpc::verify::{self, BlockStep, LightClientHead, ProofStep};
use near_rpc::CryptoHash;
use serde_json::{json, Value};

use crate::common;

fn read(path: &str) -> Value {
    let path = common::shared_dir().join(path);
    serde_json::from_slice(&std::fs::read(&path).unwrap_or_else(|e| panic!("{path:?}: {e}")))
        .unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

fn proof(value: Value) -> RpcLightClientExecutionProofResponse {
    verify::execution_proof_from_json(value).expect("a proof")
}

fn hash(text: &str) -> CryptoHash {
    text.parse().unwrap()
}

/// The root a JSON Merkle path leads to from `leaf`, walked here (independently of the
/// verifier) as nearcore walks it: a `Left` item goes left of the running hash.
fn walk(path: &Value, leaf: CryptoHash) -> CryptoHash {
    path.as_array().unwrap().iter().fold(leaf, |running, item| {
        let other = hash(item["hash"].as_str().unwrap());
        match item["direction"].as_str().unwrap() {
            "Left" => verify::combine_hash(&other, &running),
            "Right" => verify::combine_hash(&running, &other),
            other => panic!("direction {other}"),
        }
    })
}

/// (file, trusted block Merkle root).
const PROOFS: &[(&str, &str)] = &[
    (
        "fixtures/EXPERIMENTAL_light_client_proof/nearapijs-proof2-result.json",
        "3MPAfhcDdADXGzvHyPHcaeN6xBZonbDQn1VXsBJHUJsL",
    ),
    (
        "fixtures/EXPERIMENTAL_light_client_proof/nearapijs-proof3-result.json",
        "sruDfbrdEwZRLdr3KUg1vSSJgBQku5Q1Qbhya3AZRbJ",
    ),
    (
        "fixtures/EXPERIMENTAL_light_client_proof/nearapijs-proof4-result.json",
        "37jihqoUDFY3agpY6Z5fQt43DUmAu2XfKDMuLC6T93Wz",
    ),
    (
        "fixtures/EXPERIMENTAL_light_client_proof/nearapijs-proof5-result.json",
        "CRqhRcE9PvLRLjMnJJpsk3uZtKKphenDGArUWt1FTr8F",
    ),
    (
        "fixtures/EXPERIMENTAL_light_client_proof/nearapijs-proof6-result.json",
        "EkCsgekRNn6nQmwS76JP8j8TmjKd8oABhWFZizqFZ2Xn",
    ),
    (
        "fixtures/EXPERIMENTAL_light_client_proof/nearapijs-proof7-result.json",
        "9no8PifBxHHaQKeFuCKuXsqjp5UkkvGKBtMsyuJ5nwLp",
    ),
    (
        "fixtures/EXPERIMENTAL_light_client_proof/nearcore-proof_example-1.json",
        "BWwZdhAhjAgKxZ5ycqn1CvXads5DjPMfj4kRdc1rWit8",
    ),
    (
        "light-client/light_client_proof/nearlightclient-old.json",
        "WWrLWbWHwSmjtTn5oBZPYgRCuCYn6fkYVa4yhPWNK4L",
    ),
    (
        "light-client/light_client_proof/nearlightclient-new.json",
        "WWrLWbWHwSmjtTn5oBZPYgRCuCYn6fkYVa4yhPWNK4L",
    ),
];

/// A proof file's result (the envelope taken off).
fn bare(file: &str) -> Value {
    let mut value = read(file);
    if value.get("result").is_some() {
        value = value["result"].take();
    }
    value
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn every_real_proof_verifies_against_its_trusted_root() {
    for (file, root) in PROOFS {
        let proof = proof(read(file));
        let verified = verify::verify_execution_proof(&proof, &hash(root))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(verified.id, proof.outcome_proof.id, "{file}");
        assert_eq!(
            verified.block_hash, proof.outcome_proof.block_hash,
            "{file}"
        );
    }
    // nearcore's test also names the block.
    let example = proof(read(PROOFS[6].0));
    let verified = verify::verify_execution_proof(&example, &hash(PROOFS[6].1)).unwrap();
    assert_eq!(
        verified.block_hash,
        hash("HqZHDTHSqH6Az22SZgFUjodGFDtfC2qSt4v9uYFpLuFC")
    );
    assert_eq!(verified.block_height, 38);
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn invalid_proofs_fail_at_their_step() {
    // nearcore's invalid_proof: the outcome does not lead to the header's outcome root.
    // nearcore's test gives no root for it (`verify-proof` computes the root rather than
    // comparing it), so the root here is the one the proof's own `block_proof` leads to
    // from its header's hash, computed below rather than quoted. The test does not
    // depend on it: the outcome root proof (step 3) fails before the root is compared
    // (step 5), and fails the same against any other root.
    let invalid_json =
        bare("fixtures/EXPERIMENTAL_light_client_proof/nearcore-invalid_proof-2.json");
    let invalid = proof(invalid_json.clone());
    let root = hash("AMr4o7dXUXD1LaHF5irfLTsoojxDK2M87KsjzcFaJUPt");
    let header_hash = verify::block_hash(&invalid.block_header_lite).unwrap();
    assert_eq!(header_hash, invalid.outcome_proof.block_hash);
    assert_eq!(walk(&invalid_json["block_proof"], header_hash), root);
    for root in [root, CryptoHash::default()] {
        let err = verify::verify_execution_proof(&invalid, &root).unwrap_err();
        assert_eq!(err.step, ProofStep::OutcomeRootProof, "{err}");
    }
    // austinabell's hand-made invalid vectors.
    let vectors = read("light-client/light_client_proof/lctests-executions-invalid-manual.json");
    let expected = [
        ProofStep::BlockProof,
        ProofStep::OutcomeRootProof,
        ProofStep::BlockHash,
    ];
    let vectors = vectors.as_array().unwrap();
    assert_eq!(vectors.len(), expected.len());
    for (vector, step) in vectors.iter().zip(expected) {
        assert_eq!(vector["expected"]["is_valid"], false);
        let proof = proof(vector["params"]["proof"].clone());
        let root = hash(vector["params"]["block_merkle_root"].as_str().unwrap());
        let err = verify::verify_execution_proof(&proof, &root).unwrap_err();
        assert_eq!(err.step, step, "{}: {err}", vector["description"]);
    }
}

/// Changes the value at a JSON pointer with `change`.
fn mutated(value: &Value, pointer: &str, change: impl FnOnce(&mut Value)) -> Value {
    let mut value = value.clone();
    change(
        value
            .pointer_mut(pointer)
            .unwrap_or_else(|| panic!("no {pointer}")),
    );
    value
}

/// Another valid hash (the last byte's lowest bit flipped).
fn other_hash(value: &mut Value) {
    let mut bytes = hash(value.as_str().unwrap()).0;
    bytes[31] ^= 1;
    *value = json!(CryptoHash(bytes).to_string());
}

/// A JSON pointer, a change there, and the step that must refuse it (`None`: a field
/// nearcore does not hash, whose change must still verify).
type Mutation = (String, Change, Option<ProofStep>);

/// A change to a JSON value.
type Change = Box<dyn Fn(&mut Value)>;

/// Every field and path step of every real proof, each changed alone: refused at the
/// step it breaks. The fields nearcore does not hash (`metadata`, the legacy
/// `timestamp` beside a `timestamp_nanosec`) change nothing.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn every_mutation_of_a_proof_is_refused_at_its_step() {
    let mut logs_changed = 0;
    for (file, root) in PROOFS {
        let original = bare(file);
        let root = hash(root);
        let check = |value: Value, step: Option<ProofStep>, what: &str| {
            let result = verify::verify_execution_proof(&proof(value), &root);
            match (result, step) {
                (Ok(_), None) => {}
                (Err(e), Some(step)) => assert_eq!(e.step, step, "{file} {what}: {e}"),
                (other, step) => panic!("{file} {what}: {other:?}, expected {step:?}"),
            }
        };
        let outcome = "/outcome_proof/outcome";
        let refused = Some(ProofStep::OutcomeRootProof);
        let mut cases: Vec<Mutation> = vec![
            ("/outcome_proof/id".into(), Box::new(other_hash), refused),
            (
                format!("{outcome}/gas_burnt"),
                Box::new(|v| *v = json!(v.as_u64().unwrap() + 1)),
                refused,
            ),
            (
                format!("{outcome}/tokens_burnt"),
                Box::new(|v| *v = json!("1")),
                refused,
            ),
            (
                format!("{outcome}/executor_id"),
                Box::new(|v| *v = json!("someone.else")),
                refused,
            ),
            (
                format!("{outcome}/status"),
                Box::new(|v| *v = json!("Unknown")),
                refused,
            ),
            // The status's own value changed, its variant kept.
            (
                format!("{outcome}/status"),
                Box::new(|v| {
                    if let Some(id) = v.get_mut("SuccessReceiptId") {
                        other_hash(id);
                    } else {
                        let value = &mut v["SuccessValue"];
                        *value = json!(if value == "AQ==" { "Ag==" } else { "AQ==" });
                    }
                }),
                refused,
            ),
            (
                format!("{outcome}/logs"),
                Box::new(|v| v.as_array_mut().unwrap().push(json!("extra"))),
                refused,
            ),
            (
                format!("{outcome}/receipt_ids"),
                Box::new(|v| {
                    v.as_array_mut()
                        .unwrap()
                        .push(json!("11111111111111111111111111111111"))
                }),
                refused,
            ),
            (
                format!("{outcome}/receipt_ids"),
                Box::new(|v| {
                    v.as_array_mut().unwrap().pop();
                }),
                refused,
            ),
            (
                outcome.into(),
                Box::new(|v| {
                    v.as_object_mut()
                        .unwrap()
                        .insert("metadata".into(), json!({"version": 3, "gas_profile": []}));
                }),
                None,
            ),
            (
                "/outcome_proof/block_hash".into(),
                Box::new(other_hash),
                Some(ProofStep::BlockHash),
            ),
            (
                "/block_header_lite/inner_lite/outcome_root".into(),
                Box::new(other_hash),
                refused,
            ),
            (
                "/block_header_lite/inner_lite/height".into(),
                Box::new(|v| *v = json!(v.as_u64().unwrap() + 1)),
                Some(ProofStep::BlockHash),
            ),
            (
                "/block_header_lite/inner_rest_hash".into(),
                Box::new(other_hash),
                Some(ProofStep::BlockHash),
            ),
            (
                "/block_header_lite/prev_block_hash".into(),
                Box::new(other_hash),
                Some(ProofStep::BlockHash),
            ),
        ];
        // The timestamp hashed is `timestamp_nanosec`; nodes from before 2022 sent only a
        // `timestamp` string, which is then the one hashed.
        let inner_lite = "/block_header_lite/inner_lite";
        if original
            .pointer(&format!("{inner_lite}/timestamp_nanosec"))
            .is_some()
        {
            cases.push((
                format!("{inner_lite}/timestamp"),
                Box::new(|v| *v = json!(1)),
                None,
            ));
            cases.push((
                format!("{inner_lite}/timestamp_nanosec"),
                Box::new(|v| *v = json!("1")),
                Some(ProofStep::BlockHash),
            ));
        } else {
            cases.push((
                format!("{inner_lite}/timestamp"),
                Box::new(|v| *v = json!("1")),
                Some(ProofStep::BlockHash),
            ));
        }
        // Every existing receipt id and log changed in place, not only appended to.
        let receipt_ids = original.pointer(&format!("{outcome}/receipt_ids")).unwrap();
        for i in 0..receipt_ids.as_array().unwrap().len() {
            cases.push((
                format!("{outcome}/receipt_ids/{i}"),
                Box::new(other_hash),
                refused,
            ));
        }
        let logs = original.pointer(&format!("{outcome}/logs")).unwrap();
        for i in 0..logs.as_array().unwrap().len() {
            logs_changed += 1;
            cases.push((
                format!("{outcome}/logs/{i}"),
                Box::new(|v| *v = json!(format!("{} ", v.as_str().unwrap()))),
                refused,
            ));
        }
        for field in [
            "epoch_id",
            "next_epoch_id",
            "prev_state_root",
            "next_bp_hash",
            "block_merkle_root",
        ] {
            cases.push((
                format!("/block_header_lite/inner_lite/{field}"),
                Box::new(other_hash),
                Some(ProofStep::BlockHash),
            ));
        }
        for (path, step) in [
            ("/outcome_proof/proof", ProofStep::OutcomeRootProof),
            ("/outcome_root_proof", ProofStep::OutcomeRootProof),
            ("/block_proof", ProofStep::BlockProof),
        ] {
            let len = original.pointer(path).unwrap().as_array().unwrap().len();
            for i in 0..len {
                cases.push((format!("{path}/{i}/hash"), Box::new(other_hash), Some(step)));
                cases.push((
                    format!("{path}/{i}/direction"),
                    Box::new(|v| *v = json!(if v == "Left" { "Right" } else { "Left" })),
                    Some(step),
                ));
            }
            // A step removed (when there is one), a step added.
            if len > 0 {
                cases.push((
                    path.into(),
                    Box::new(|v| {
                        v.as_array_mut().unwrap().pop();
                    }),
                    Some(step),
                ));
            }
            cases.push((
                path.into(),
                Box::new(|v| {
                    v.as_array_mut().unwrap().push(
                        json!({"hash": "11111111111111111111111111111111", "direction": "Left"}),
                    )
                }),
                Some(step),
            ));
        }
        for (pointer, change, step) in &cases {
            check(mutated(&original, pointer, change), *step, pointer);
        }
        // The trusted root itself.
        let mut other_root = root;
        other_root.0[0] ^= 1;
        let err =
            verify::verify_execution_proof(&proof(original.clone()), &other_root).unwrap_err();
        assert_eq!(err.step, ProofStep::BlockProof);
        assert!(
            err.to_string().starts_with("block proof does not verify: "),
            "{err}"
        );
    }
    assert!(
        logs_changed > 0,
        "no proof in ../shared has a log to change"
    );
}

/// A failure's details are not hashed (nearcore's `PartialExecutionStatus::Failure`
/// carries none: `core/primitives/src/transaction.rs`, `From<ExecutionStatus>`), so two
/// proofs that differ only there verify against the same root. No real proof in
/// `../shared` is of a failure, so one is made from proof_example: its outcome made a
/// failure, the outcome alone in its chunk and the chunk alone in its block (empty
/// paths), the header's `outcome_root` and the outcome's `block_hash` set to match, and
/// the root the real `block_proof` leads to from there computed here.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn a_failures_details_are_not_hashed() {
    let with_status = |status: Value| -> (RpcLightClientExecutionProofResponse, CryptoHash) {
        let mut value = bare(PROOFS[6].0);
        value["outcome_proof"]["outcome"]["status"] = status;
        value["outcome_proof"]["proof"] = json!([]);
        value["outcome_root_proof"] = json!([]);
        let leaf = verify::outcome_leaf(&proof(value.clone()).outcome_proof).unwrap();
        let outcome_root = CryptoHash::hash_bytes(&leaf.0);
        value["block_header_lite"]["inner_lite"]["outcome_root"] = json!(outcome_root.to_string());
        let block_hash = verify::block_hash(&proof(value.clone()).block_header_lite).unwrap();
        value["outcome_proof"]["block_hash"] = json!(block_hash.to_string());
        let root = walk(&value["block_proof"], block_hash);
        (proof(value), root)
    };
    let (expired, root) = with_status(json!({"Failure": {"InvalidTxError": "Expired"}}));
    let (missing, other_root) = with_status(json!({"Failure": {"ActionError": {
        "index": 0, "kind": {"AccountDoesNotExist": {"account_id": "nobody.near"}}}}}));
    assert_ne!(
        expired.outcome_proof.outcome.status,
        missing.outcome_proof.outcome.status
    );
    assert_eq!(root, other_root);
    for made in [&expired, &missing] {
        let verified = verify::verify_execution_proof(made, &root)
            .unwrap_or_else(|e| panic!("{:?}: {e}", made.outcome_proof.outcome.status));
        assert_eq!(
            verified.outcome_hash,
            verify::outcome_leaf(&expired.outcome_proof).unwrap()
        );
    }
    // Whether it failed is hashed: the same proof as a success is refused.
    let mut success = expired.clone();
    success.outcome_proof.outcome.status =
        near_rpc::types::ExecutionStatusView::SuccessValue(String::new());
    let err = verify::verify_execution_proof(&success, &root).unwrap_err();
    assert_eq!(err.step, ProofStep::OutcomeRootProof, "{err}");
}

fn raw_chain(file: &str) -> Vec<Value> {
    let path = common::shared_dir()
        .join("light-client/next_light_client_block")
        .join(file);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path:?}: {e}"))
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn chain(file: &str) -> Vec<RpcLightClientNextBlockResponse> {
    raw_chain(file)
        .into_iter()
        .map(|value| verify::light_client_block_from_json(value).unwrap())
        .collect()
}

const CHAINS: &[&str] = &[
    "lctests-mainnet-60000000-61000000.jsonl",
    "lctests-mainnet-70000000-71000000.jsonl",
    "lctests-mainnet-80000000-81000000.jsonl",
    "lctests-mainnet-85000000-86000000.jsonl",
    "nearlightclient-mainnet.jsonl",
    "nearlightclient-testnet.jsonl",
];

/// The head a chain starts from: its first block, trusted by its own hash (for the
/// lctests chains because their suite's trusted head is not in `../shared`; for
/// near-light-client's because its test-utils trust that block too).
fn first_head(blocks: &[RpcLightClientNextBlockResponse]) -> LightClientHead {
    let first = &blocks[0];
    let header = near_rpc::types::LightClientBlockLiteView {
        inner_lite: first.inner_lite.clone().unwrap(),
        inner_rest_hash: first.inner_rest_hash.unwrap(),
        prev_block_hash: first.prev_block_hash.unwrap(),
    };
    let trusted = verify::block_hash(&header).unwrap();
    LightClientHead::from_block(first, &trusted).unwrap()
}

/// The head of an lctests invalid vector: its `previous_block` and `current_bps`.
fn vector_head(params: &Value) -> LightClientHead {
    let previous = verify::light_client_block_from_json(params["previous_block"].clone()).unwrap();
    let header = near_rpc::types::LightClientBlockLiteView {
        inner_lite: previous.inner_lite.clone().unwrap(),
        inner_rest_hash: previous.inner_rest_hash.unwrap(),
        prev_block_hash: previous.prev_block_hash.unwrap(),
    };
    let bps = near_rpc::decode::from_value(params["current_bps"].clone()).unwrap();
    LightClientHead::new(header, bps).unwrap()
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn every_real_chain_validates_block_by_block() {
    for file in CHAINS {
        let blocks = chain(file);
        let mut head = first_head(&blocks);
        for (i, block) in blocks.iter().enumerate().skip(1) {
            head.advance(block)
                .unwrap_or_else(|e| panic!("{file} block {i}: {e}"));
            assert_eq!(head.height(), block.inner_lite.as_ref().unwrap().height);
        }
        // Stored and restored, the head goes on as before.
        let restored = LightClientHead::from_json(head.to_json()).unwrap();
        assert_eq!(restored, head, "{file}");
    }
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn invalid_blocks_fail_at_their_step() {
    let vectors = read("light-client/next_light_client_block/lctests-blocks-invalid-manual.json");
    let expected = [
        BlockStep::Height,
        BlockStep::Epoch,
        BlockStep::NextBpsMissing,
        BlockStep::Signature(2),
        BlockStep::Stake,
        BlockStep::NextBpHash,
    ];
    let vectors = vectors.as_array().unwrap();
    assert_eq!(vectors.len(), expected.len());
    for (vector, step) in vectors.iter().zip(expected) {
        let head = vector_head(&vector["params"]);
        let block =
            verify::light_client_block_from_json(vector["params"]["new_block"].clone()).unwrap();
        let err = head.validate(&block).unwrap_err();
        assert_eq!(err.step, step, "{}: {err}", vector["description"]);
    }
    // The valid block those vectors were made from passes from the same head.
    let blocks = chain(CHAINS[0]);
    vector_head(&vectors[0]["params"])
        .validate(&blocks[0])
        .unwrap();
}

/// A real block and the head it is checked from.
struct Step {
    what: String,
    head: LightClientHead,
    block: Value,
    /// How many block producers the head has for the block's epoch.
    producers: usize,
}

/// Every block of every chain in `../shared`, each with the head before it.
fn every_step() -> Vec<Step> {
    let vectors = read("light-client/next_light_client_block/lctests-blocks-invalid-manual.json");
    let params = &vectors[0]["params"];
    let mut steps = vec![Step {
        what: format!("{} block 0", CHAINS[0]),
        head: vector_head(params),
        block: raw_chain(CHAINS[0]).swap_remove(0),
        producers: params["current_bps"].as_array().unwrap().len(),
    }];
    for file in CHAINS {
        let raw = raw_chain(file);
        let blocks = chain(file);
        let mut head = first_head(&blocks);
        for k in 1..raw.len() {
            steps.push(Step {
                what: format!("{file} block {k}"),
                head: head.clone(),
                block: raw[k].clone(),
                producers: raw[k - 1]["next_bps"].as_array().unwrap().len(),
            });
            head.advance(&blocks[k]).unwrap();
        }
    }
    steps
}

fn approvals(block: &Value) -> &Vec<Value> {
    block["approvals_after_next"].as_array().unwrap()
}

fn first_approval(block: &Value) -> usize {
    approvals(block).iter().position(|a| !a.is_null()).unwrap()
}

/// A signature's bytes with the first one changed.
fn other_signature(value: &mut Value) {
    let sig: near_rpc::Signature = value.as_str().unwrap().parse().unwrap();
    let mut bytes = sig.as_bytes().to_vec();
    bytes[0] ^= 1;
    *value = json!(near_rpc::Signature::from_parts(sig.key_type(), &bytes)
        .unwrap()
        .to_string());
}

/// Every field of every real block, its approvals and its next producers, changed alone:
/// refused at the step it breaks, at the approval index where the step has one. The
/// legacy `timestamp` and approvals past the last producer are not checked (nearcore
/// hashes `timestamp_nanosec`, and ignores approvals without a producer), so changing
/// them changes nothing.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn every_mutation_of_a_block_is_refused_at_its_step() {
    let steps = every_step();
    assert!(steps.len() > 90, "{} blocks", steps.len());
    let (mut nulls_filled, mut past_producers) = (0, 0);
    for step in &steps {
        let Step {
            what,
            head,
            block: original,
            producers,
        } = step;
        let expect = |value: Value, change: &str, expected: Result<(), BlockStep>| {
            let block = verify::light_client_block_from_json(value).unwrap();
            let got = head.validate(&block).map(|_| ());
            assert_eq!(
                got.clone().map_err(|e| e.step),
                expected,
                "{what}, {change}: {got:?}"
            );
        };
        expect(original.clone(), "unchanged", Ok(()));
        let first = first_approval(original);
        assert!(first < *producers, "{what}");
        // Header fields: the block hash changes, so the first approval no longer
        // verifies; the epoch is checked before that.
        expect(
            mutated(original, "/inner_lite/epoch_id", other_hash),
            "epoch_id",
            Err(BlockStep::Epoch),
        );
        for pointer in [
            "/inner_lite/next_epoch_id",
            "/inner_lite/prev_state_root",
            "/inner_lite/outcome_root",
            "/inner_lite/block_merkle_root",
            "/inner_lite/next_bp_hash",
            "/inner_rest_hash",
            "/prev_block_hash",
            "/next_block_inner_hash",
        ] {
            expect(
                mutated(original, pointer, other_hash),
                pointer,
                Err(BlockStep::Signature(first)),
            );
        }
        expect(
            mutated(original, "/inner_lite/timestamp_nanosec", |v| {
                *v = json!("1")
            }),
            "timestamp_nanosec",
            Err(BlockStep::Signature(first)),
        );
        expect(
            mutated(original, "/inner_lite/height", |v| {
                *v = json!(v.as_u64().unwrap() + 1)
            }),
            "height",
            Err(BlockStep::Signature(first)),
        );
        // The legacy timestamp is not hashed.
        expect(
            mutated(original, "/inner_lite/timestamp", |v| *v = json!(1)),
            "timestamp",
            Ok(()),
        );
        // The next producers: any change to them no longer hashes to next_bp_hash.
        let next_bps: [(&str, Change); 5] = [
            (
                "/next_bps/0/account_id",
                Box::new(|v| *v = json!("someone-else.near")),
            ),
            (
                "/next_bps/0/public_key",
                Box::new(|v| {
                    let key: near_rpc::PublicKey = v.as_str().unwrap().parse().unwrap();
                    let mut bytes = key.as_bytes().to_vec();
                    bytes[0] ^= 1;
                    *v = json!(near_rpc::PublicKey::from_parts(key.key_type(), &bytes)
                        .unwrap()
                        .to_string());
                }),
            ),
            ("/next_bps/0/stake", Box::new(|v| *v = json!("1"))),
            (
                "/next_bps",
                Box::new(|v| {
                    let list = v.as_array_mut().unwrap();
                    list.push(list[0].clone());
                }),
            ),
            (
                "/next_bps",
                Box::new(|v| {
                    v.as_array_mut().unwrap().pop();
                }),
            ),
        ];
        for (i, (pointer, change)) in next_bps.iter().enumerate() {
            expect(
                mutated(original, pointer, change),
                &format!("next_bps change {i}"),
                Err(BlockStep::NextBpHash),
            );
        }
        // Approvals, at the producers' indices. A signature of the other key type.
        expect(
            mutated(original, &format!("/approvals_after_next/{first}"), |v| {
                *v = json!(near_rpc::Signature::secp256k1([1; 65]).to_string())
            }),
            "secp256k1 approval",
            Err(BlockStep::Signature(first)),
        );
        // A missing approval made present (another producer's signature).
        let signature = approvals(original)[first].clone();
        if let Some(null) = approvals(original)[..*producers]
            .iter()
            .position(Value::is_null)
        {
            nulls_filled += 1;
            expect(
                mutated(original, &format!("/approvals_after_next/{null}"), |v| {
                    *v = signature.clone()
                }),
                "null approval made present",
                Err(BlockStep::Signature(null)),
            );
        }
        // Approvals past the last producer: a bad one there, and one more, change nothing.
        if approvals(original).len() > *producers {
            past_producers += 1;
            expect(
                mutated(
                    original,
                    &format!("/approvals_after_next/{producers}"),
                    |v| *v = json!(near_rpc::Signature::secp256k1([1; 65]).to_string()),
                ),
                "bad approval past the producers",
                Ok(()),
            );
        }
        expect(
            mutated(original, "/approvals_after_next", |v| {
                v.as_array_mut().unwrap().push(signature.clone())
            }),
            "approval added past the producers",
            Ok(()),
        );
        // Present approvals with their signature changed: refused at their index. Every
        // one on one block; the first, a middle and the last on the others (each such
        // check verifies every signature before it).
        let present: Vec<usize> = approvals(original)[..*producers]
            .iter()
            .enumerate()
            .filter(|(_, a)| !a.is_null())
            .map(|(i, _)| i)
            .collect();
        let changed: Vec<usize> = if what == "nearlightclient-mainnet.jsonl block 1" {
            present.clone()
        } else {
            vec![
                present[0],
                present[present.len() / 2],
                present[present.len() - 1],
            ]
        };
        for i in changed {
            expect(
                mutated(
                    original,
                    &format!("/approvals_after_next/{i}"),
                    other_signature,
                ),
                &format!("approval {i}"),
                Err(BlockStep::Signature(i)),
            );
        }
        // No approval, or the list cut short after the first: every producer's stake
        // still counts, so too little approves.
        expect(
            mutated(original, "/approvals_after_next", |v| {
                v.as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .for_each(|a| *a = Value::Null)
            }),
            "no approvals",
            Err(BlockStep::Stake),
        );
        expect(
            mutated(original, "/approvals_after_next", |v| {
                v.as_array_mut().unwrap().truncate(first + 1)
            }),
            "approvals cut short",
            Err(BlockStep::Stake),
        );
    }
    assert!(nulls_filled > 0 && past_producers > 0);
    // Approvals withheld, one by one from the first, until too little stake approves.
    let step = steps
        .iter()
        .find(|s| s.what == "nearlightclient-mainnet.jsonl block 1")
        .unwrap();
    let mut withheld = step.block.clone();
    let mut refused_at = None;
    for i in 0..step.producers {
        withheld["approvals_after_next"][i] = Value::Null;
        let block = verify::light_client_block_from_json(withheld.clone()).unwrap();
        if let Err(e) = step.head.validate(&block) {
            assert_eq!(e.step, BlockStep::Stake, "{e}");
            refused_at = Some(i);
            break;
        }
    }
    assert!(refused_at.is_some(), "withholding approvals never mattered");
    // An empty answer (no newer block).
    let empty = verify::light_client_block_from_json(json!({})).unwrap();
    assert_eq!(
        step.head.validate(&empty).unwrap_err().step,
        BlockStep::Incomplete
    );
}

/// What the fuzzer (`fuzz/src/exercise.rs`, `verify_calls`) does with a block: a head
/// from it, given the block's `next_bps` as its own epoch's producers, checks the block
/// one height higher as its successor. On every real block that gets past the producers
/// and the block hash to the signatures, where it is refused (the approvals sign another
/// block); without those producers it stops at the producers.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn a_block_as_its_own_successor_reaches_the_signatures() {
    for file in CHAINS {
        for (i, block) in chain(file).iter().enumerate() {
            let header = near_rpc::types::LightClientBlockLiteView {
                inner_lite: block.inner_lite.clone().unwrap(),
                inner_rest_hash: block.inner_rest_hash.unwrap(),
                prev_block_hash: block.prev_block_hash.unwrap(),
            };
            let head =
                LightClientHead::from_block(block, &verify::block_hash(&header).unwrap()).unwrap();
            let mut higher = block.clone();
            higher.inner_lite.as_mut().unwrap().height += 1;
            assert_eq!(
                head.validate(&higher).unwrap_err().step,
                BlockStep::UnknownProducers,
                "{file} block {i}"
            );
            let head = head.with_current_producers(block.next_bps.clone().unwrap());
            let first = block
                .approvals_after_next
                .iter()
                .position(Option::is_some)
                .unwrap();
            assert_eq!(
                head.validate(&higher).unwrap_err().step,
                BlockStep::Signature(first),
                "{file} block {i}"
            );
        }
    }
}

/// A header of nearcore 0.38's second version (a `chunk_execution_root`) is refused by
/// name rather than hashed wrong, when read from JSON.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn headers_these_bindings_cannot_hash_are_refused_by_name() {
    let mut proof = read(PROOFS[6].0);
    proof["result"]["block_header_lite"]["inner_lite"]["chunk_execution_root"] =
        json!("11111111111111111111111111111111");
    let err = verify::execution_proof_from_json(proof).unwrap_err();
    assert_eq!(
        err.path(),
        "block_header_lite.inner_lite.chunk_execution_root",
        "{err}"
    );
}

/// The `nearcore_0_38_0` bindings decode `chunk_execution_root` into the typed header (as
/// `VerifiedClient` reads answers): hashing such a header refuses it by name, with the
/// JSON path's message, at the block hash step, instead of computing a wrong hash.
#[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn typed_headers_with_a_chunk_execution_root_are_refused_by_name() {
    let execution_root = CryptoHash([7; 32]);
    let mut json = bare(PROOFS[6].0);
    json["block_header_lite"]["inner_lite"]["chunk_execution_root"] =
        json!(execution_root.to_string());
    let from_json = verify::execution_proof_from_json(json.clone()).unwrap_err();
    // Decoded as the client decodes answers, the field is kept.
    let typed: RpcLightClientExecutionProofResponse = near_rpc::decode::from_value(json).unwrap();
    assert_eq!(
        typed.block_header_lite.inner_lite.chunk_execution_root,
        Some(execution_root)
    );
    let root = hash(PROOFS[6].1);
    let err = verify::verify_execution_proof(&typed, &root).unwrap_err();
    assert_eq!(err.step, ProofStep::BlockHash, "{err}");
    assert_eq!(
        err.message,
        format!("inner_lite.chunk_execution_root: {}", from_json.message())
    );
    let err = verify::block_hash(&typed.block_header_lite).unwrap_err();
    assert!(
        err.starts_with("inner_lite.chunk_execution_root: "),
        "{err}"
    );
    // Without it (or with null), the same proof verifies.
    let mut without = typed.clone();
    without.block_header_lite.inner_lite.chunk_execution_root = None;
    verify::verify_execution_proof(&without, &root).unwrap();

    // A light-client block: as a successor, and as a checkpoint.
    let blocks = chain("nearlightclient-mainnet.jsonl");
    let head = first_head(&blocks);
    let mut block = blocks[1].clone();
    block.inner_lite.as_mut().unwrap().chunk_execution_root = Some(execution_root);
    let err = head.validate(&block).unwrap_err();
    assert_eq!(err.step, BlockStep::BlockHash, "{err}");
    assert!(
        err.message.starts_with("inner_lite.chunk_execution_root: "),
        "{err}"
    );
    let err = LightClientHead::from_block(&block, &CryptoHash::default()).unwrap_err();
    assert_eq!(err.step, BlockStep::BlockHash, "{err}");
    assert!(
        err.message.starts_with("inner_lite.chunk_execution_root: "),
        "{err}"
    );
    block.inner_lite.as_mut().unwrap().chunk_execution_root = None;
    head.validate(&block).unwrap();
}

#[test]
fn a_stored_head_that_does_not_hash_is_refused() {
    let head = json!({"hash": "11111111111111111111111111111111", "header": {
        "inner_lite": {"block_merkle_root": "11111111111111111111111111111111", "epoch_id": "11111111111111111111111111111111",
        "height": 1, "next_bp_hash": "11111111111111111111111111111111", "next_epoch_id": "11111111111111111111111111111111",
        "outcome_root": "11111111111111111111111111111111", "prev_state_root": "11111111111111111111111111111111",
        "timestamp": 1, "timestamp_nanosec": "1"},
        "inner_rest_hash": "11111111111111111111111111111111", "prev_block_hash": "11111111111111111111111111111111"},
        "epochs": [{"epoch_id": "11111111111111111111111111111111", "block_producers": []}]});
    let err = LightClientHead::from_json(head).unwrap_err();
    // The empty producer list does not hash to the header's next_bp_hash.
    assert_eq!(err.step, BlockStep::NextBpHash, "{err}");
    let err = LightClientHead::from_json(json!({"hash": 7})).unwrap_err();
    assert!(err.to_string().contains("stored head: hash"), "{err}");
}
