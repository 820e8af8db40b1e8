#!/usr/bin/env bash
# Every shipped spec version (spec/SOURCE.toml): the library's unit tests, the integration
# tests (less the version-independent nested builds), the examples, and the CLI's and
# the mock's tests, built for that version.
# CI runs the default and the latest on every run; this is the full set.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEAR_RPC_SHARED="${NEAR_RPC_SHARED:-$PWD/../shared}"
# Each shipped version and its feature, from spec/SOURCE.toml through the generator's
# one parser of it.
# (Captured first: a failure inside `<( )` would go unnoticed under `set -e`.)
listed=$(cargo run -q -p near-rpc-codegen -- shipped)
mapfile -t pins <<<"$listed"
if [ -z "$listed" ]; then
    echo "spec/SOURCE.toml ships no version" >&2
    exit 1
fi
for pin in "${pins[@]}"; do
    version=${pin% *}
    feature=${pin#* }
    echo "== $version (feature $feature, at ${SECONDS}s)"
    cargo test -q -p near-rpc --features "$feature,blocking" --lib --test it -- \
        --skip all_versions --skip build_script_path --skip codegen_bump
    # What users build on it: the examples, the CLI and the mock, tested.
    cargo check -q -p near-rpc --examples --features "$feature,blocking"
    cargo test -q -p near-rpc-cli -p near-rpc-mock --features "near-rpc/$feature"
done
echo "== all ${#pins[@]} versions green in ${SECONDS}s"
