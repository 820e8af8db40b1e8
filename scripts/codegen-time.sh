#!/usr/bin/env bash
# End-to-end generation time with a release build of the generator: the shipped spec
# alone, and all 16 versions one after another. Best of ROUNDS.
#
#   scripts/codegen-time.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
shared=${NEAR_RPC_SHARED:-../shared}
cargo build -q --release -p near-rpc-codegen
bin=target/release/near-rpc-codegen
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

best() { # command...: best wall time of $rounds runs, in ms
  local best=""
  for _ in $(seq "$rounds"); do
    rm -rf "$out"/*
    local start end t
    start=$(date +%s%N); "$@" >/dev/null; end=$(date +%s%N)
    t=$(( (end - start) / 1000000 ))
    if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
  done
  echo "$best"
}

all_versions() {
  for spec in "$shared"/spec/openapi-*.json; do
    "$bin" generate --spec "$spec" --out "$out/$(basename "$spec" .json)"
  done
}

echo "1.2.6 alone: $(best "$bin" generate --spec "$shared/spec/openapi-1.2.6.json" --out "$out/one") ms"
echo "all $(ls "$shared"/spec/openapi-*.json | wc -l) versions: $(best all_versions) ms"
