#!/usr/bin/env bash
# What a verified read costs in CPU: the time to verify one execution proof and to
# validate one light-client block (about a hundred signatures), in a release build,
# on the real data in ../shared (NEAR_RPC_SHARED). A scratch crate under
# target/verify-cost, built with the workspace's target directory.
#
#   scripts/verify-cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
shared=${NEAR_RPC_SHARED:-$root/../shared}
scratch=$root/target/verify-cost
mkdir -p "$scratch/src"
cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "verify-cost"
version = "0.0.0"
edition = "2021"
publish = false
[workspace]
[dependencies]
near-rpc = { path = "$root", default-features = false, features = ["verify"] }
serde_json = "1"
TOML
cat > "$scratch/src/main.rs" <<'RUST'
use std::time::Instant;
use near_rpc::verify::{self, LightClientHead};

fn main() {
    let shared = std::path::PathBuf::from(std::env::args().nth(1).expect("the shared dir"));
    let read = |p: &str| std::fs::read_to_string(shared.join(p)).expect(p);
    let proof = verify::execution_proof_from_json(serde_json::from_str(&read(
        "light-client/light_client_proof/nearlightclient-old.json")).unwrap()).unwrap();
    let root = "WWrLWbWHwSmjtTn5oBZPYgRCuCYn6fkYVa4yhPWNK4L".parse().unwrap();
    let chain = read("light-client/next_light_client_block/nearlightclient-mainnet.jsonl");
    let blocks: Vec<_> = chain.lines()
        .map(|l| verify::light_client_block_from_json(serde_json::from_str(l).unwrap()).unwrap())
        .collect();
    let first = &blocks[0];
    let header = near_rpc::types::LightClientBlockLiteView {
        inner_lite: first.inner_lite.clone().unwrap(),
        inner_rest_hash: first.inner_rest_hash.unwrap(),
        prev_block_hash: first.prev_block_hash.unwrap(),
    };
    let head = LightClientHead::from_block(first, &verify::block_hash(&header).unwrap()).unwrap();
    let signatures = blocks[1].approvals_after_next.iter().filter(|a| a.is_some()).count();
    for round in 0..3 {
        let n = 20_000;
        let start = Instant::now();
        for _ in 0..n {
            verify::verify_execution_proof(&proof, &root).unwrap();
        }
        let proof_us = start.elapsed().as_secs_f64() * 1e6 / n as f64;
        let m = 50;
        let start = Instant::now();
        for _ in 0..m {
            head.validate(&blocks[1]).unwrap();
        }
        let block_us = start.elapsed().as_secs_f64() * 1e6 / m as f64;
        println!("round {round}: execution proof {proof_us:.1} us (a {}-step block proof); light-client block {block_us:.0} us ({signatures} signatures)", proof.block_proof.len());
    }
}
RUST
cd "$scratch" && cargo run --release --quiet --target-dir "$root/target" -- "$shared"
