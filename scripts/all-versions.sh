#!/usr/bin/env bash
# Every shipped spec version (spec/SOURCE.toml): the library's unit tests, the integration
# tests (less the version-independent nested builds) and the CLI, built for that version.
# CI runs the default and the latest on every run; this is the full set.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEAR_RPC_SHARED="${NEAR_RPC_SHARED:-$PWD/../shared}"
versions=$(sed -n 's/^shipped = "\([0-9.]*\) .*/\1/p' spec/SOURCE.toml)
for version in $versions; do
    feature="v${version//./_}"
    echo "== $version (feature $feature, at ${SECONDS}s)"
    cargo test -q -p near-rpc --features "$feature,blocking" --lib --test it -- \
        --skip all_versions --skip build_script_path
    cargo check -q -p near-rpc-cli --features "near-rpc/$feature"
done
echo "== all $(echo $versions | wc -w) versions green in ${SECONDS}s"
