#!/usr/bin/env bash
# Instructions per decode, counted by callgrind: stable on a noisy machine. Each count is
# (ROUNDS+1 rounds) - (1 round), divided by ROUNDS, so start-up and file reading cancel.
#
#   ./instructions.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")"
rounds=${1:-20}
cargo build -q --release --example count_decode
bin=target/release/examples/count_decode
count() { # method decoder rounds
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '| method | near-rpc | near-openapi-types | Value | peer / near-rpc | Value / near-rpc |\n|---|---|---|---|---|---|\n'
for method in tx_status genesis_config protocol_config; do
  declare -A per
  for decoder in near-rpc peer value; do
    one=$(count "$method" "$decoder" 1)
    many=$(count "$method" "$decoder" $((rounds + 1)))
    per[$decoder]=$(( (many - one) / rounds ))
  done
  printf '| %s | %s | %s | %s | %.2f× | %.2f× |\n' "$method" "${per[near-rpc]}" "${per[peer]}" "${per[value]}" \
    "$(echo "${per[peer]} / ${per[near-rpc]}" | bc -l)" "$(echo "${per[value]} / ${per[near-rpc]}" | bc -l)"
done
