#!/usr/bin/env bash
# The mock server's peak memory under the largest requests it accepts: `near-rpc mock`
# (its small request log) and a node with the library's defaults (the `serve` example)
# are each flooded by the `flood` example (COUNT bodies of 16 MiB, every other one on a
# new connection, from CONNECTIONS clients at once), then their peak resident set size
# (VmHWM) is read from /proc (Linux). Release builds, in cargo's target directory.
#
#   scripts/mock-memory.sh [COUNT] [CONNECTIONS] [KIND]   # defaults: 200 1 string
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-200}
connections=${2:-1}
kind=${3:-string}
cargo build --quiet --release -p near-rpc-cli
cargo build --quiet --release -p near-rpc-mock --example flood --example serve
target=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
bin=$target/release
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

measure() { # NAME COMMAND...
    local name=$1
    shift
    "$@" >"$scratch/url" &
    local pid=$!
    while [ ! -s "$scratch/url" ]; do
        kill -0 "$pid" 2>/dev/null || { echo "$name exited before printing its URL" >&2; exit 1; }
        sleep 0.1
    done
    local before
    before=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
    "$bin/examples/flood" "$(head -n1 "$scratch/url")" "$count" "$connections" "$kind"
    awk -v name="$name" -v before="$before" '
        /VmHWM/ {peak = $2} /VmRSS/ {now = $2}
        END {printf "%s: %.1f MiB at start, peak %.1f MiB, %.1f MiB after\n", name, before / 1024, peak / 1024, now / 1024}
    ' "/proc/$pid/status"
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null || true
    : >"$scratch/url"
}

measure "near-rpc mock" "$bin/near-rpc" mock
measure "library defaults (serve example)" "$bin/examples/serve"
