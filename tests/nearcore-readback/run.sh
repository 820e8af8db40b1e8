#!/usr/bin/env bash
# nearcore reads back what near-rpc signs (tests/nearcore-readback/tests/*.rs): builds the
# workspace's `near-rpc` binary, then runs this crate's tests against it. nearcore's crates
# build only here, never in the workspace. Extra arguments go to `cargo test` (a test name).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
cargo build --quiet -p near-rpc-cli --target-dir "$target"
NEAR_RPC_BIN="$target/debug/near-rpc" \
    cargo test --manifest-path "$here/Cargo.toml" --target-dir "$target" "$@"
