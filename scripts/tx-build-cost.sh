#!/usr/bin/env bash
# What the transaction codec (feature `tx`) adds to a user's cold build, and what the
# `borsh` crate would have added had the codec been derived with it, measured side by
# side in this one run: three scratch crates, each built cold (debug, incremental off)
# on a fresh target directory, one after the other.
#
#   1. types:        near-rpc without default features (the types alone);
#   2. types + tx:   the same with `tx`, signing a transfer;
#   3. + borsh:      (2) plus borsh 1 with `derive`, deriving one struct: the crate the
#                    hand-written codec replaces;
#   4. client:       near-rpc with its default features (the client, `tx` with it), for
#                    scale.
#
# Prints seconds and the number of crates compiled for each.
#
#   scripts/tx-build-cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_INCREMENTAL=0
root=$PWD
scratch=$root/target/tx-build-cost
rm -rf "$scratch"
mkdir -p "$scratch"

crate() { # name, dependency lines, source
  mkdir -p "$scratch/$1/src"
  printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n[workspace]\n[dependencies]\n%s\n' \
    "$1" "$2" > "$scratch/$1/Cargo.toml"
  printf '%s\n' "$3" > "$scratch/$1/src/lib.rs"
}

types="near-rpc = { path = \"$root\", default-features = false }"
with_tx="near-rpc = { path = \"$root\", default-features = false, features = [\"tx\"] }"
sign='
use near_rpc::tx::{Action, SecretKey, Transaction};
pub fn sign(key: &SecretKey, nonce: u64) -> String {
    let tx = Transaction::new("a.near".parse().unwrap(), key.public_key(), nonce,
        "b.near".parse().unwrap(), Default::default(),
        vec![Action::transfer(near_rpc::NearToken::from_near(1))]);
    tx.sign(key).to_base64()
}'

crate types "$types" 'pub use near_rpc::CryptoHash;'
crate types-tx "$with_tx" "$sign"
crate types-tx-borsh "$with_tx
borsh = { version = \"1\", features = [\"derive\"] }" "$sign
#[derive(borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Probe { pub a: u64, pub b: Vec<u8> }"

crate client "near-rpc = { path = \"$root\" }" "$sign"

names="types types-tx types-tx-borsh client"
for name in $names; do
  (cd "$scratch/$name" && cargo fetch --quiet)
done
for name in $names; do
  start=$(date +%s.%N)
  (cd "$scratch/$name" && cargo build --quiet --target-dir "$scratch/target-$name")
  end=$(date +%s.%N)
  crates=$(ls "$scratch/target-$name/debug/.fingerprint" | wc -l)
  printf '%-16s %6.1f s  %3d crates\n' "$name" "$(echo "$end - $start" | bc)" "$crates"
done
