#!/usr/bin/env bash
# The client in wasm32, run: tests/wasm (a minimal dApp on near-rpc's default features)
# built for wasm32-unknown-unknown in release, bound for Node by wasm-bindgen, and run by
# tests/wasm/checks.mjs against `near-rpc mock` over loopback, twice: under Node (its
# standard `fetch`, run.mjs) and in a page of headless Chromium (index.html, served by
# serve.mjs from another origin, so through the mock's CORS preflight): balances read, a
# transfer signed in the wasm and sent, the chain checked, a redirecting and a silent
# provider (provider.mjs). Prints the module's size, raw and gzipped, as bound and after
# binaryen's `wasm-opt -Oz` (BENCHMARKS.md, "What does a browser dApp's wasm weigh?");
# the Node run runs the optimized module, the page the one as bound.
#
# Installs what it needs: the rustup target, and wasm-bindgen-cli at exactly the
# wasm-bindgen version of tests/wasm/Cargo.lock (the CLI and the library must agree),
# into the target directory (tools/), from crates.io; binaryen (its JS build) from npm,
# pinned by tests/wasm/package-lock.json; Chromium from Debian's packages when missing
# (as root). .ci/run runs it; it needs Node.js and npm.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v node >/dev/null && command -v npm >/dev/null || { echo "wasm: Node.js and npm are needed" >&2; exit 1; }
# A browser: Debian's chromium, installed when missing and apt can (as root, in CI).
chromium="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$chromium" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    # A fresh machine may have no package lists yet: fetched once, then installed.
    apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 \
        || { apt-get update >/dev/null && apt-get install -y --no-install-recommends chromium >/dev/null; }
    chromium="$(command -v chromium || true)"
fi
[ -n "$chromium" ] || { echo "wasm: Chromium is needed for the browser run (Debian: apt-get install chromium)" >&2; exit 1; }
target_dir="${CARGO_TARGET_DIR:-target}"
added="$(rustup target add wasm32-unknown-unknown 2>&1)" || { echo "$added" >&2; exit 1; }

version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' tests/wasm/Cargo.lock)"
[ -n "$version" ] || { echo "wasm: no wasm-bindgen in tests/wasm/Cargo.lock" >&2; exit 1; }
tools="$target_dir/tools/wasm-bindgen-$version"
bindgen="$tools/bin/wasm-bindgen"
if [ "$("$bindgen" --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    echo "wasm: installing wasm-bindgen-cli $version into $tools"
    mkdir -p "$tools"
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
mock=""; page=""; browser=""
trap 'kill $mock $page $browser 2>/dev/null || true; rm -rf "$work"' EXIT
"$bindgen" --target nodejs --out-dir "$work/pkg" "$wasm"

bound="$work/pkg/near_rpc_wasm_dapp_bg.wasm"
echo "wasm: the dApp's module: $(wc -c <"$bound") bytes, $(gzip -9c "$bound" | wc -c) gzipped"
(cd tests/wasm && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
tests/wasm/node_modules/.bin/wasm-opt -Oz "$bound" -o "$work/opt.wasm"
echo "wasm: after wasm-opt -Oz: $(wc -c <"$work/opt.wasm") bytes, $(gzip -9c "$work/opt.wasm" | wc -c) gzipped"
# The Node run below runs the optimized module: what is measured is what works.
mv "$work/opt.wasm" "$bound"

# The page's server first: the mock allows its origin (another port, so the browser
# asks the mock's CORS preflight first).
"$bindgen" --target web --out-dir "$work/web" "$wasm"
node tests/wasm/serve.mjs "$work/web" 120 >"$work/page" &
page=$!
wait_for_line() { # FILE PID WHAT
    for _ in $(seq 1 100); do
        [ -s "$1" ] && break
        kill -0 "$2" 2>/dev/null || { echo "$3 stopped before printing its URL" >&2; exit 1; }
        sleep 0.1
    done
    head -n 1 "$1"
}
origin="$(wait_for_line "$work/page" "$page" "the page's server")"
"$target_dir/debug/near-rpc" mock --port 0 --credentials-dir "$work/keys" --allow-origin "$origin" >"$work/url" &
mock=$!
url="$(wait_for_line "$work/url" "$mock" "near-rpc mock")"
[ -n "$url" ] || { echo "near-rpc mock printed no URL" >&2; exit 1; }

echo "wasm: under Node"
node tests/wasm/run.mjs "$work/pkg" "$url" "$work/keys"

echo "wasm: in headless Chromium, a page at $origin"
key="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).private_key)' "$work/keys/mock/alice.mock.json")"
# --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
"$chromium" --headless=new --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$work/profile" "$origin/index.html#$url|$key" >"$work/chromium.log" 2>&1 &
browser=$!
status=0
wait "$page" || status=$?
# Stopped and waited for, so that its profile is not being written as it is removed.
kill "$browser" 2>/dev/null || true
wait "$browser" 2>/dev/null || true
browser=""
cat "$work/page" | tail -n +2
if [ "$status" != 0 ]; then
    echo "wasm: the page failed (Chromium's log follows)" >&2
    tail -n 20 "$work/chromium.log" >&2
    exit 1
fi
