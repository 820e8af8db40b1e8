//! Verified reads (`near_rpc::verify`) on real proofs and light-client blocks
//! (`../shared`), each against the trusted root or head its public test suite uses, and
//! on mutations of them: every field, path step and signature, each refused at the step
//! it breaks.
//!
//! Trusted roots and heads, quoted from (data only):
//! - near-api-js `packages/light-client/test/execution-proof.test.js` at
//!   153dfa74d74a1d4ac4b964cf22602d0d4d40216e (the roots of proofs 2 to 7);
//! - nearcore `neard/src/cli.rs` at 0064c62b0a8eee98a22c0856075a928d432be375,
//!   `verify_proof_test` (proof_example's block hash and root; invalid_proof's failure);
//! - near/near-light-client `src/client/proof.rs` at
//!   a28204a2cf160c4abb1f51da9e8a607581ef40e0 (`BLOCK_MERKLE_ROOT` of old.json, new.json);
//! - austinabell/near-light-client-tests: the invalid vectors carry their own
//!   `block_merkle_root`, or `previous_block` and `current_bps`; the chains start at their
//!   first block, as `SOURCES.tsv` in `../shared/light-client` says.

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
    let invalid = proof(read(
        "fixtures/EXPERIMENTAL_light_client_proof/nearcore-invalid_proof-2.json",
    ));
    let root = hash("AMr4o7dXUXD1LaHF5irfLTsoojxDK2M87KsjzcFaJUPt");
    let err = verify::verify_execution_proof(&invalid, &root).unwrap_err();
    assert_eq!(err.step, ProofStep::OutcomeRootProof, "{err}");
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

/// Another valid hash (the next base58 character at the end, kept within 32 bytes).
fn other_hash(value: &mut Value) {
    let text = value.as_str().unwrap();
    let mut bytes = bs58_decode(text);
    bytes[31] ^= 1;
    *value = json!(CryptoHash(bytes).to_string());
}

fn bs58_decode(text: &str) -> [u8; 32] {
    hash(text).0
}

/// A JSON pointer, a change there, and the step that must refuse it (`None`: a field
/// nearcore does not hash, whose change must still verify).
type Mutation = (String, Box<dyn Fn(&mut Value)>, Option<ProofStep>);

/// Every field and path step of two real proofs (one with a receipt id, one with a
/// value and a log), each changed alone: refused at the step it breaks. The fields
/// nearcore does not hash (`metadata`, the legacy `timestamp`) change nothing.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn every_mutation_of_a_proof_is_refused_at_its_step() {
    for (file, root) in [PROOFS[6], PROOFS[7]] {
        let mut original = read(file);
        if original.get("result").is_some() {
            original = original["result"].take();
        }
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
        let mut cases: Vec<Mutation> = vec![
            (
                "/outcome_proof/id".into(),
                Box::new(other_hash),
                Some(ProofStep::OutcomeRootProof),
            ),
            (
                format!("{outcome}/gas_burnt"),
                Box::new(|v| *v = json!(v.as_u64().unwrap() + 1)),
                Some(ProofStep::OutcomeRootProof),
            ),
            (
                format!("{outcome}/tokens_burnt"),
                Box::new(|v| *v = json!("1")),
                Some(ProofStep::OutcomeRootProof),
            ),
            (
                format!("{outcome}/executor_id"),
                Box::new(|v| *v = json!("someone.else")),
                Some(ProofStep::OutcomeRootProof),
            ),
            (
                format!("{outcome}/status"),
                Box::new(|v| *v = json!({"SuccessValue": ""})),
                Some(ProofStep::OutcomeRootProof),
            ),
            (
                format!("{outcome}/logs"),
                Box::new(|v| v.as_array_mut().unwrap().push(json!("extra"))),
                Some(ProofStep::OutcomeRootProof),
            ),
            (
                format!("{outcome}/receipt_ids"),
                Box::new(|v| {
                    v.as_array_mut()
                        .unwrap()
                        .push(json!("11111111111111111111111111111111"))
                }),
                Some(ProofStep::OutcomeRootProof),
            ),
            (
                format!("{outcome}/metadata"),
                Box::new(|v| *v = json!({"version": 3, "gas_profile": []})),
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
                Some(ProofStep::OutcomeRootProof),
            ),
            (
                "/block_header_lite/inner_lite/timestamp".into(),
                Box::new(|v| *v = json!(1)),
                None,
            ),
            (
                "/block_header_lite/inner_lite/timestamp_nanosec".into(),
                Box::new(|v| *v = json!("1")),
                Some(ProofStep::BlockHash),
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
            assert!(len > 0, "{file}: {path} is empty");
            for i in 0..len {
                cases.push((format!("{path}/{i}/hash"), Box::new(other_hash), Some(step)));
                cases.push((
                    format!("{path}/{i}/direction"),
                    Box::new(|v| *v = json!(if v == "Left" { "Right" } else { "Left" })),
                    Some(step),
                ));
            }
            // A step removed, a step added.
            cases.push((
                path.into(),
                Box::new(|v| {
                    v.as_array_mut().unwrap().pop();
                }),
                Some(step),
            ));
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
}

fn chain(file: &str) -> Vec<RpcLightClientNextBlockResponse> {
    let path = common::shared_dir()
        .join("light-client/next_light_client_block")
        .join(file);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path:?}: {e}"))
        .lines()
        .map(|line| {
            verify::light_client_block_from_json(serde_json::from_str(line).unwrap()).unwrap()
        })
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

/// The head a chain starts from: its first block, trusted by its hash.
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
        let params = &vector["params"];
        let previous =
            verify::light_client_block_from_json(params["previous_block"].clone()).unwrap();
        let header = near_rpc::types::LightClientBlockLiteView {
            inner_lite: previous.inner_lite.clone().unwrap(),
            inner_rest_hash: previous.inner_rest_hash.unwrap(),
            prev_block_hash: previous.prev_block_hash.unwrap(),
        };
        let bps = near_rpc::decode::from_value(params["current_bps"].clone()).unwrap();
        let head = LightClientHead::new(header, bps).unwrap();
        let block = verify::light_client_block_from_json(params["new_block"].clone()).unwrap();
        let err = head.validate(&block).unwrap_err();
        assert_eq!(err.step, step, "{}: {err}", vector["description"]);
    }
    // The valid block those vectors were made from passes from the same head.
    let blocks = chain(CHAINS[0]);
    let params = &vectors[0]["params"];
    let previous = verify::light_client_block_from_json(params["previous_block"].clone()).unwrap();
    let header = near_rpc::types::LightClientBlockLiteView {
        inner_lite: previous.inner_lite.clone().unwrap(),
        inner_rest_hash: previous.inner_rest_hash.unwrap(),
        prev_block_hash: previous.prev_block_hash.unwrap(),
    };
    let bps = near_rpc::decode::from_value(params["current_bps"].clone()).unwrap();
    LightClientHead::new(header, bps)
        .unwrap()
        .validate(&blocks[0])
        .unwrap();
}

/// Every field of a real block and every approval, changed alone: refused.
#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn every_mutation_of_a_block_is_refused() {
    let blocks = chain("nearlightclient-mainnet.jsonl");
    let head = first_head(&blocks);
    let path = common::shared_dir()
        .join("light-client/next_light_client_block/nearlightclient-mainnet.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let original: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    head.validate(&blocks[1]).unwrap();
    let check = |value: Value, what: &str| -> BlockStep {
        let block = verify::light_client_block_from_json(value).unwrap();
        head.validate(&block).map(|_| ()).expect_err(what).step
    };
    // Header fields: the block hash changes, so the first approval no longer verifies
    // (or an earlier check refuses it).
    for field in [
        "epoch_id",
        "next_epoch_id",
        "prev_state_root",
        "outcome_root",
        "block_merkle_root",
    ] {
        let step = check(
            mutated(&original, &format!("/inner_lite/{field}"), other_hash),
            field,
        );
        let expected_epoch = matches!(field, "epoch_id");
        assert!(
            matches!(step, BlockStep::Signature(_)) || (expected_epoch && step == BlockStep::Epoch),
            "{field}: {step:?}"
        );
    }
    for pointer in [
        "/inner_rest_hash",
        "/prev_block_hash",
        "/next_block_inner_hash",
    ] {
        let step = check(mutated(&original, pointer, other_hash), pointer);
        assert!(
            matches!(step, BlockStep::Signature(_)),
            "{pointer}: {step:?}"
        );
    }
    let step = check(
        mutated(&original, "/inner_lite/timestamp_nanosec", |v| {
            *v = json!("1")
        }),
        "timestamp",
    );
    assert!(matches!(step, BlockStep::Signature(_)), "{step:?}");
    let step = check(
        mutated(&original, "/inner_lite/height", |v| {
            *v = json!(v.as_u64().unwrap() + 1)
        }),
        "height",
    );
    assert!(matches!(step, BlockStep::Signature(_)), "{step:?}");
    // next_bp_hash: the producers no longer match it.
    assert_eq!(
        check(
            mutated(&original, "/inner_lite/next_bp_hash", other_hash),
            "next_bp_hash"
        ),
        BlockStep::Signature(first_approval(&original))
    );
    // Every present approval, its signature changed: refused at its index.
    let approvals = original["approvals_after_next"].as_array().unwrap();
    let producers = head_producers(&text);
    for (i, approval) in approvals.iter().enumerate().take(producers) {
        if approval.is_null() {
            continue;
        }
        let changed = mutated(&original, &format!("/approvals_after_next/{i}"), |v| {
            let sig: near_rpc::Signature = v.as_str().unwrap().parse().unwrap();
            let mut bytes = sig.as_bytes().to_vec();
            bytes[0] ^= 1;
            *v = json!(near_rpc::Signature::from_parts(sig.key_type(), &bytes)
                .unwrap()
                .to_string());
        });
        assert_eq!(check(changed, "approval"), BlockStep::Signature(i));
    }
    // Approvals withheld, one by one from the first, until too little stake approves.
    let mut withheld = original.clone();
    let mut refused_at = None;
    for i in 0..producers {
        withheld["approvals_after_next"][i] = Value::Null;
        let block = verify::light_client_block_from_json(withheld.clone()).unwrap();
        if let Err(e) = head.validate(&block) {
            assert_eq!(e.step, BlockStep::Stake, "{e}");
            refused_at = Some(i);
            break;
        }
    }
    assert!(refused_at.is_some(), "withholding approvals never mattered");
    // The approvals cut short after the first: every producer's stake still counts.
    let mut cut = original.clone();
    let first = first_approval(&original);
    cut["approvals_after_next"] =
        json!(original["approvals_after_next"].as_array().unwrap()[..=first]);
    assert_eq!(check(cut, "cut short"), BlockStep::Stake);
    // A next producer's stake changed: the next producers' hash no longer matches.
    let changed = mutated(&original, "/next_bps/0/stake", |v| *v = json!("1"));
    assert_eq!(check(changed, "next_bps"), BlockStep::NextBpHash);
    // An empty answer (no newer block).
    assert_eq!(check(json!({}), "empty"), BlockStep::Incomplete);
}

fn first_approval(block: &Value) -> usize {
    block["approvals_after_next"]
        .as_array()
        .unwrap()
        .iter()
        .position(|a| !a.is_null())
        .unwrap()
}

/// How many block producers the chain's first block names for the next epoch.
fn head_producers(text: &str) -> usize {
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    first["next_bps"].as_array().unwrap().len()
}

/// A header of nearcore 0.38's second version (a `chunk_execution_root`) is refused by
/// name rather than hashed wrong.
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
