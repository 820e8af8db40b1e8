#!/usr/bin/env bash
# Cold build time of the bindings library alone, against near-openapi-types 0.8.0 built
# the same way: dependencies first, then only the library itself, with incremental
# compilation off, in debug and release. Prints seconds and the ratio. Then the same for
# a small user crate on each library that decodes the three methods that matter most,
# since decoding code is generic and compiled in the user's crate.
#
#   scripts/compile-time.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
export CARGO_INCREMENTAL=0
scratch=target/compile-time
mkdir -p "$scratch/peer/src"

# The peer, in a scratch workspace of its own.
cat > "$scratch/peer/Cargo.toml" <<'TOML'
[package]
name = "peer-build"
version = "0.0.0"
edition = "2021"
publish = false
[workspace]
[dependencies]
near-openapi-types = "=0.8.0"
TOML
echo "" > "$scratch/peer/src/lib.rs"

# What a user's crate pays on top: decoding code is generic, so it is compiled where a
# user decodes. Two scratch crates decode the three methods that matter most, one with
# each library; each is built cold after its dependencies, like the libraries above.
user_crate() { # dir, dependency line, source
  mkdir -p "$1/src"
  printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n[workspace]\n[dependencies]\nserde_json = "1"\n%s\n' \
    "$(basename "$1")" "$2" > "$1/Cargo.toml"
  printf '%s\n' "$3" > "$1/src/lib.rs"
}
user_crate "$scratch/user-near-rpc" "near-rpc = { path = \"$PWD\", default-features = false }" '
use near_rpc::{decode::{from_slice, DecodeError}, methods::*, ErrorWrapper, Response, RpcMethod};
type Body<M> = Response<<M as RpcMethod>::Result, ErrorWrapper<<M as RpcMethod>::Error>>;
pub fn tx_status(b: &[u8]) -> Result<Body<ExperimentalTxStatus>, DecodeError> { from_slice(b) }
pub fn genesis_config(b: &[u8]) -> Result<Body<GenesisConfig>, DecodeError> { from_slice(b) }
pub fn protocol_config(b: &[u8]) -> Result<Body<ExperimentalProtocolConfig>, DecodeError> { from_slice(b) }'
user_crate "$scratch/user-peer" 'near-openapi-types = "=0.8.0"' '
use near_openapi_types::*;
use serde_json::{from_slice, Result};
pub fn tx_status(b: &[u8]) -> Result<JsonRpcResponseForRpcTransactionResponseAndRpcTransactionError> { from_slice(b) }
pub fn genesis_config(b: &[u8]) -> Result<JsonRpcResponseForGenesisConfigAndGenesisConfigError> { from_slice(b) }
pub fn protocol_config(b: &[u8]) -> Result<JsonRpcResponseForRpcProtocolConfigResponseAndRpcProtocolConfigError> { from_slice(b) }'

measure() { # label, command...: best of $rounds, seconds
  local label=$1; shift
  local best=""
  for _ in $(seq "$rounds"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    local t
    t=$(echo "$end - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
  done
  printf '%s\t%.2f\n' "$label" "$best"
}

for profile in dev release; do
  flag=""; [ "$profile" = release ] && flag="--release"
  # Dependencies once, then the library alone, cold, each round.
  cargo build -q $flag -p near-rpc --no-default-features
  cargo build -q $flag --manifest-path "$scratch/peer/Cargo.toml" --target-dir "$scratch/target"
  ours=$(measure "near-rpc ($profile, types only)" sh -c "cargo clean -q $flag -p near-rpc && cargo build -q $flag -p near-rpc --no-default-features")
  cargo build -q $flag -p near-rpc
  ours_client=$(measure "near-rpc ($profile, with client)" sh -c "cargo clean -q $flag -p near-rpc && cargo build -q $flag -p near-rpc")
  peer=$(measure "near-openapi-types ($profile)" sh -c "cargo clean -q $flag --manifest-path $scratch/peer/Cargo.toml --target-dir $scratch/target -p near-openapi-types && cargo build -q $flag --manifest-path $scratch/peer/Cargo.toml --target-dir $scratch/target")
  echo "$ours"; echo "$ours_client"; echo "$peer"
  a=$(echo "$ours" | cut -f2); p=$(echo "$peer" | cut -f2)
  printf 'ratio near-rpc / near-openapi-types (%s): %.2f\n' "$profile" "$(echo "$a / $p" | bc -l)"
  for user in user-near-rpc user-peer; do
    cargo build -q $flag --manifest-path "$scratch/$user/Cargo.toml" --target-dir "$scratch/target"
  done
  user_ours=$(measure "user crate on near-rpc ($profile)" sh -c "cargo clean -q $flag --manifest-path $scratch/user-near-rpc/Cargo.toml --target-dir $scratch/target -p user-near-rpc && cargo build -q $flag --manifest-path $scratch/user-near-rpc/Cargo.toml --target-dir $scratch/target")
  user_peer=$(measure "user crate on near-openapi-types ($profile)" sh -c "cargo clean -q $flag --manifest-path $scratch/user-peer/Cargo.toml --target-dir $scratch/target -p user-peer && cargo build -q $flag --manifest-path $scratch/user-peer/Cargo.toml --target-dir $scratch/target")
  echo "$user_ours"; echo "$user_peer"
  u=$(echo "$user_ours" | cut -f2); q=$(echo "$user_peer" | cut -f2)
  printf 'library + user crate, near-rpc / near-openapi-types (%s): %.2f\n' "$profile" "$(echo "($a + $u) / ($p + $q)" | bc -l)"
done
