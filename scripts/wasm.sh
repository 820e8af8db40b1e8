#!/usr/bin/env bash
# The client in wasm32, run: tests/wasm (a minimal dApp on near-rpc's default features)
# built for wasm32-unknown-unknown in release, bound for Node by wasm-bindgen, and run by
# tests/wasm/run.cjs against `near-rpc mock` over loopback (Node's standard `fetch`):
# balances read, a transfer signed in the wasm and sent, the chain checked. Prints the
# module's size, raw and gzipped (BENCHMARKS.md, "The client in wasm32").
#
# Installs what it needs: the rustup target, and wasm-bindgen-cli at exactly the
# wasm-bindgen version of tests/wasm/Cargo.lock (the CLI and the library must agree),
# into the target directory (tools/), from crates.io. .ci/run runs it; it needs Node.js.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v node >/dev/null || { echo "wasm: Node.js is needed" >&2; exit 1; }
target_dir="${CARGO_TARGET_DIR:-target}"
added="$(rustup target add wasm32-unknown-unknown 2>&1)" || { echo "$added" >&2; exit 1; }

version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' tests/wasm/Cargo.lock)"
[ -n "$version" ] || { echo "wasm: no wasm-bindgen in tests/wasm/Cargo.lock" >&2; exit 1; }
tools="$target_dir/tools/wasm-bindgen-$version"
bindgen="$tools/bin/wasm-bindgen"
if [ "$("$bindgen" --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    echo "wasm: installing wasm-bindgen-cli $version into $tools"
    # With the CLI's own lock file where the registry has all of it; else resolved anew
    # (same CLI version, said here rather than hidden).
    if ! cargo install --quiet --locked wasm-bindgen-cli --version "=$version" --root "$tools" 2>"$tools.log"; then
        echo "wasm: the CLI's lock file does not resolve here ($(grep -m1 '^error' "$tools.log" || true)); installing without it"
        cargo install --quiet wasm-bindgen-cli --version "=$version" --root "$tools"
    fi
fi

cargo build --quiet --release --manifest-path tests/wasm/Cargo.toml \
    --target wasm32-unknown-unknown --target-dir "$target_dir"
cargo build --quiet -p near-rpc-cli
wasm="$target_dir/wasm32-unknown-unknown/release/near_rpc_wasm_dapp.wasm"
work="$(mktemp -d)"
trap 'kill "$mock" 2>/dev/null || true; rm -rf "$work"' EXIT
"$bindgen" --target nodejs --out-dir "$work/pkg" "$wasm"

bound="$work/pkg/near_rpc_wasm_dapp_bg.wasm"
echo "wasm: the dApp's module: $(wc -c <"$bound") bytes, $(gzip -9c "$bound" | wc -c) gzipped"
if command -v wasm-opt >/dev/null; then
    wasm-opt -Oz "$bound" -o "$work/opt.wasm"
    echo "wasm: after wasm-opt -Oz: $(wc -c <"$work/opt.wasm") bytes, $(gzip -9c "$work/opt.wasm" | wc -c) gzipped"
else
    echo "wasm: no wasm-opt here: sizes without it"
fi

"$target_dir/debug/near-rpc" mock --port 0 --credentials-dir "$work/keys" >"$work/url" &
mock=$!
for _ in $(seq 1 100); do
    [ -s "$work/url" ] && break
    kill -0 "$mock" 2>/dev/null || { echo "near-rpc mock stopped before printing its URL" >&2; exit 1; }
    sleep 0.1
done
url="$(head -n 1 "$work/url")"
[ -n "$url" ] || { echo "near-rpc mock printed no URL" >&2; exit 1; }
node tests/wasm/run.cjs "$work/pkg" "$url" "$work/keys"
