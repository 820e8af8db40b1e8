#!/usr/bin/env bash
# What a user pays to compile, near-rpc against near-openapi-types 0.8.0 and
# near-openrpc-client 0.3.0, every figure measured side by side in this one run:
#
#   1. a user crate rebuilt alone (its dependencies built, incremental off), debug and
#      release, for two crates per library: one decoding the three methods that matter
#      most from bytes, one calling a client for them (near-openapi-types has no client);
#   2. the library and the decoding crate rebuilt together (the dependencies built);
#   3. everything cold, dependencies included, for a crate using the types only;
#   4. for information, each library alone.
#
# Each figure is the best of ROUNDS builds (default 3; the cold ones run once per round).
# Scratch crates live under target/compile-time (not workspace members), with their own
# target directory.
#
#   scripts/compile-time.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
export CARGO_INCREMENTAL=0
root=$PWD
scratch=$root/target/compile-time
target=$scratch/target
mkdir -p "$scratch"

crate() { # name, dependency lines, source
  mkdir -p "$scratch/$1/src"
  printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n[workspace]\n[dependencies]\n%s\n' \
    "$1" "$2" > "$scratch/$1/Cargo.toml"
  printf '%s\n' "$3" > "$scratch/$1/src/lib.rs"
}

ours_types="near-rpc = { path = \"$root\", default-features = false }"
ours_client="near-rpc = { path = \"$root\" }"
openapi='near-openapi-types = "=0.8.0"'
openrpc_types='near-openrpc-client = { version = "=0.3.0", default-features = false }'
openrpc_client='near-openrpc-client = "=0.3.0"'

# Decoding a whole response body of each method, the way each library offers.
crate decode-near-rpc "$ours_types" '
use near_rpc::{decode::DecodeError, methods::*, EnvelopeOf, RpcMethod};
pub fn tx_status(b: &[u8]) -> Result<EnvelopeOf<ExperimentalTxStatusMethod>, DecodeError> { ExperimentalTxStatusMethod::decode_response(b) }
pub fn genesis_config(b: &[u8]) -> Result<EnvelopeOf<GenesisConfigMethod>, DecodeError> { GenesisConfigMethod::decode_response(b) }
pub fn protocol_config(b: &[u8]) -> Result<EnvelopeOf<ExperimentalProtocolConfigMethod>, DecodeError> { ExperimentalProtocolConfigMethod::decode_response(b) }'
# For information: the generic path a user takes when decoding our types inside their
# own (`decode::from_slice::<T>`), which compiles T's decoder in the user's crate.
crate decode-near-rpc-generic "$ours_types" '
use near_rpc::{decode::{from_slice, DecodeError}, methods::*, EnvelopeOf};
pub fn tx_status(b: &[u8]) -> Result<EnvelopeOf<ExperimentalTxStatusMethod>, DecodeError> { from_slice(b) }
pub fn genesis_config(b: &[u8]) -> Result<EnvelopeOf<GenesisConfigMethod>, DecodeError> { from_slice(b) }
pub fn protocol_config(b: &[u8]) -> Result<EnvelopeOf<ExperimentalProtocolConfigMethod>, DecodeError> { from_slice(b) }'
crate decode-openapi "$openapi
serde_json = \"1\"" '
use near_openapi_types::*;
use serde_json::{from_slice, Result};
pub fn tx_status(b: &[u8]) -> Result<JsonRpcResponseForRpcTransactionResponseAndRpcTransactionError> { from_slice(b) }
pub fn genesis_config(b: &[u8]) -> Result<JsonRpcResponseForGenesisConfigAndGenesisConfigError> { from_slice(b) }
pub fn protocol_config(b: &[u8]) -> Result<JsonRpcResponseForRpcProtocolConfigResponseAndRpcProtocolConfigError> { from_slice(b) }'
# near-openrpc-client has no envelope type: its client reads the body into a Value and
# decodes `result` from it; so does this crate.
crate decode-openrpc "$openrpc_types
serde = \"1\"
serde_json = \"1\"" '
use near_openrpc_client::types::*;
use serde_json::{from_slice, from_value, Result, Value};
fn result<T: serde::de::DeserializeOwned>(b: &[u8]) -> Result<T> { let mut v: Value = from_slice(b)?; from_value(v["result"].take()) }
pub fn tx_status(b: &[u8]) -> Result<RpcTransactionResponse> { result(b) }
pub fn genesis_config(b: &[u8]) -> Result<GenesisConfig> { result(b) }
pub fn protocol_config(b: &[u8]) -> Result<RpcProtocolConfigResponse> { result(b) }'

# Calling a client for the same three methods.
crate client-near-rpc "$ours_client" '
use near_rpc::client::{Client, Error};
use near_rpc::types::*;
pub async fn tx_status(c: &Client, hash: CryptoHash, sender: AccountId) -> Result<RpcTransactionResponse, Error<RpcTransactionError>> { c.tx_status((hash, sender), Some(TxExecutionStatus::Final)).await }
pub async fn genesis_config(c: &Client) -> Result<GenesisConfig, Error<GenesisConfigError>> { c.genesis_config().await }
pub async fn protocol_config(c: &Client) -> Result<RpcProtocolConfigResponse, Error<RpcProtocolConfigError>> { c.protocol_config_at(Finality::Final).await }'
crate client-openrpc "$openrpc_client" '
use near_openrpc_client::{client::Result, types::*, NearRpcClient};
pub async fn tx_status(c: &NearRpcClient, tx_hash: CryptoHash, sender_account_id: AccountId) -> Result<RpcTransactionResponse> { c.tx(RpcTransactionStatusRequest::TxHashSenderAccountId { tx_hash, sender_account_id, wait_until: TxExecutionStatus::Final }).await }
pub async fn genesis_config(c: &NearRpcClient) -> Result<GenesisConfig> { c.genesis_config().await }
pub async fn protocol_config(c: &NearRpcClient) -> Result<RpcProtocolConfigResponse> { c.protocol_config(RpcProtocolConfigRequest::Finality(Finality::Final)).await }'

measure() { # label, command...: best of $rounds, seconds
  local label=$1; shift
  local best=""
  for _ in $(seq "$rounds"); do
    local start end t
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "failed: $label" >&2; "$@" >&2; exit 1; }
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
  done
  printf '%.2f' "$best"
}
build() { # crate, profile flag, [packages to clean first...]
  local crate=$1 flag=$2; shift 2
  local manifest=$scratch/$crate/Cargo.toml
  local p
  for p in "$@"; do cargo clean -q $flag --manifest-path "$manifest" --target-dir "$target" -p "$p"; done
  cargo build -q $flag --manifest-path "$manifest" --target-dir "$target"
}
ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }

for profile in dev release; do
  flag=""; [ "$profile" = release ] && flag="--release"
  for c in decode-near-rpc decode-near-rpc-generic decode-openapi decode-openrpc client-near-rpc client-openrpc; do
    build "$c" "$flag" # the dependencies, once
  done
  echo "## $profile"
  declare -A t
  for c in decode-near-rpc decode-near-rpc-generic decode-openapi decode-openrpc client-near-rpc client-openrpc; do
    t[$c]=$(measure "$c" build "$c" "$flag" "$c")
    echo "user crate $c rebuilt alone: ${t[$c]} s"
  done
  echo "decode crate, near-rpc / near-openapi-types: $(ratio "${t[decode-near-rpc]}" "${t[decode-openapi]}")"
  echo "decode crate, near-rpc / near-openrpc-client: $(ratio "${t[decode-near-rpc]}" "${t[decode-openrpc]}")"
  echo "client crate, near-rpc / near-openrpc-client: $(ratio "${t[client-near-rpc]}" "${t[client-openrpc]}")"

  lib_ours=$(measure "library + decode crate, near-rpc" build decode-near-rpc "$flag" near-rpc decode-near-rpc)
  lib_openapi=$(measure "library + decode crate, openapi" build decode-openapi "$flag" near-openapi-types decode-openapi)
  lib_openrpc=$(measure "library + decode crate, openrpc" build decode-openrpc "$flag" near-openrpc-client decode-openrpc)
  echo "library + decode crate: near-rpc $lib_ours s, near-openapi-types $lib_openapi s, near-openrpc-client $lib_openrpc s"
  echo "library + decode crate, near-rpc / near-openapi-types: $(ratio "$lib_ours" "$lib_openapi")"

  # For information: each library alone (the types only), dependencies built.
  alone_ours=$(measure "near-rpc alone" sh -c "cargo clean -q $flag --manifest-path $scratch/decode-near-rpc/Cargo.toml --target-dir $target -p near-rpc && cargo build -q $flag --manifest-path $scratch/decode-near-rpc/Cargo.toml --target-dir $target -p near-rpc")
  echo "library alone: near-rpc $alone_ours s (with the client: see the client crate)"

  # Everything cold, dependencies included, for a types-only user crate.
  cold() { # crate
    local dir=$scratch/cold-target
    rm -rf "$dir"
    cargo build -q $flag --manifest-path "$scratch/$1/Cargo.toml" --target-dir "$dir"
  }
  cold_ours=$(measure "cold near-rpc" cold decode-near-rpc)
  cold_openrpc=$(measure "cold openrpc" cold decode-openrpc)
  cold_openapi=$(measure "cold openapi" cold decode-openapi)
  rm -rf "$scratch/cold-target"
  echo "everything cold, decode crate: near-rpc $cold_ours s, near-openrpc-client $cold_openrpc s, near-openapi-types $cold_openapi s"
  echo "everything cold, near-rpc / near-openrpc-client: $(ratio "$cold_ours" "$cold_openrpc")"
done
