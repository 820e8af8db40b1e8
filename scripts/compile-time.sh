#!/usr/bin/env bash
# Cold build time of the bindings library alone, against near-openapi-types 0.8.0 built
# the same way: dependencies first, then only the library itself, with incremental
# compilation off, in debug and release. Prints seconds and the ratio.
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
done
