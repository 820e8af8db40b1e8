#!/usr/bin/env bash
# Every shipped spec version (spec/SOURCE.toml): the library's unit tests, the integration
# tests (less the version-independent nested builds) and the CLI, built for that version.
# CI runs the default and the latest on every run; this is the full set.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEAR_RPC_SHARED="${NEAR_RPC_SHARED:-$PWD/../shared}"
# The first word of each entry of the `shipped` array.
versions=$(awk '/^shipped = \[/ { inside = 1; next } inside && /^\]/ { inside = 0 } inside { gsub(/[",]/, ""); print $1 }' spec/SOURCE.toml)
for version in $versions; do
    # 1.2.6 → v1_2_6; a derived document, nearcore-0.38.0 → nearcore_0_38_0.
    case "$version" in
        nearcore-*) feature="nearcore_${version#nearcore-}"; feature="${feature//./_}" ;;
        *) feature="v${version//./_}" ;;
    esac
    echo "== $version (feature $feature, at ${SECONDS}s)"
    cargo test -q -p near-rpc --features "$feature,blocking" --lib --test it -- \
        --skip all_versions --skip build_script_path
    cargo check -q -p near-rpc-cli --features "near-rpc/$feature"
done
echo "== all $(echo $versions | wc -w) versions green in ${SECONDS}s"
