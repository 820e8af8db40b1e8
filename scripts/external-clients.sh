#!/usr/bin/env bash
# A client no one here wrote, as its users run it, against `near-rpc mock`: near-api-js
# (pinned in tests/external/near-api-js/package-lock.json, installed from the npm
# registry) reads and writes with the keys `near-rpc mock --credentials-dir` writes.
# .ci/run runs it after the README's test command; it needs Node.js 20 and npm.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v node >/dev/null && command -v npm >/dev/null || {
    echo "external clients: Node.js and npm are needed (node $(node --version 2>/dev/null || echo missing))" >&2
    exit 1
}
client=tests/external/near-api-js
(cd "$client" && npm ci --no-audit --no-fund --loglevel=error)

cargo build --quiet -p near-rpc-cli
binary="${CARGO_TARGET_DIR:-target}/debug/near-rpc"
work="$(mktemp -d)"
trap 'kill "$mock" 2>/dev/null || true; rm -rf "$work"' EXIT
"$binary" mock --port 0 --credentials-dir "$work/keys" >"$work/url" &
mock=$!
for _ in $(seq 1 100); do
    [ -s "$work/url" ] && break
    kill -0 "$mock" 2>/dev/null || { echo "near-rpc mock stopped before printing its URL" >&2; exit 1; }
    sleep 0.1
done
url="$(head -n 1 "$work/url")"
[ -n "$url" ] || { echo "near-rpc mock printed no URL" >&2; exit 1; }
node "$client/client.mjs" "$url" "$work/keys"
