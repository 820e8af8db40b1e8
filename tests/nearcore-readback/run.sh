#!/usr/bin/env bash
# nearcore reads back what near-rpc signs (tests/nearcore-readback/tests/*.rs): builds the
# workspace's `near-rpc` binary (unless NEAR_RPC_BIN names one already built), then runs
# this crate's tests against it. nearcore's crates build only here, never in the
# workspace. Extra arguments go to `cargo test` (a test name, `-- --nocapture`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# The tests run in this crate's directory: a relative path given is made absolute here.
if [ -n "${NEAR_RPC_BIN:-}" ]; then
    NEAR_RPC_BIN="$(cd "$(dirname "$NEAR_RPC_BIN")" && pwd)/$(basename "$NEAR_RPC_BIN")"
    export NEAR_RPC_BIN
fi
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
if [ -z "${NEAR_RPC_BIN:-}" ]; then
    cargo build --quiet -p near-rpc-cli --target-dir "$target"
    export NEAR_RPC_BIN="$target/debug/near-rpc"
fi
cargo test --manifest-path "$here/Cargo.toml" --target-dir "$target" "$@"
