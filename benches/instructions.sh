#!/usr/bin/env bash
# Instructions per decode, counted by callgrind: stable on a noisy machine. Each count is
# (ROUNDS+1 rounds) - (1 round), divided by ROUNDS, so start-up and file reading cancel.
# Columns: near-rpc, near-openapi-types 0.8.0, near-openrpc-client 0.3.0 decoding the way
# its client does, serde_json::Value, and serde::de::IgnoredAny (the floor: every byte
# read, nothing built); then each as a ratio to near-rpc (> 1: near-rpc does less work),
# except the last, near-rpc's distance from the floor (< 1 would be impossible). Then, for
# information, our types through serde (`decode::from_slice`, the path of a user who
# embeds them in their own), against `decode_response`.
#
#   ./instructions.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")"
rounds=${1:-20}
cargo build -q --release --example count_decode
bin=target/release/examples/count_decode
# Payloads some decoder refuses are left out for all of them (count_decode says which on
# stderr); a decoder refusing every payload of a method shows as "refuses all".
count() { # method decoder rounds
  "$bin" "$1" "$2" 1 2>/dev/null || return 0
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
ratio() { if [ -z "$1" ] || [ -z "$2" ]; then printf '—'; else printf '%.2f×' "$(echo "$1 / $2" | bc -l)"; fi; }
printf '| method | near-rpc | near-openapi-types | near-openrpc-client | Value | IgnoredAny | openapi-types / near-rpc | openrpc-client / near-rpc | Value / near-rpc | near-rpc / IgnoredAny |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
declare -A fast
for method in tx_status genesis_config protocol_config; do
  declare -A per
  for decoder in near-rpc peer openrpc value ignored; do
    one=$(count "$method" "$decoder" 1)
    many=$(count "$method" "$decoder" $((rounds + 1)))
    if [ -z "$one" ]; then per[$decoder]=""; else per[$decoder]=$(( (many - one) / rounds )); fi
  done
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$method" \
    "${per[near-rpc]}" "${per[peer]}" "${per[openrpc]:-refuses all}" "${per[value]}" "${per[ignored]}" \
    "$(ratio "${per[peer]}" "${per[near-rpc]}")" "$(ratio "${per[openrpc]}" "${per[near-rpc]}")" \
    "$(ratio "${per[value]}" "${per[near-rpc]}")" "$(ratio "${per[near-rpc]}" "${per[ignored]}")"
  fast[$method]=${per[near-rpc]}
done
printf '\n| method | near-rpc through serde | / near-rpc |\n|---|---|---|\n'
for method in tx_status genesis_config protocol_config; do
  generic=$(( ($(count "$method" generic $((rounds + 1))) - $(count "$method" generic 1)) / rounds ))
  printf '| %s | %s | %s |\n' "$method" "$generic" "$(ratio "$generic" "${fast[$method]}")"
done
