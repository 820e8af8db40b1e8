#!/usr/bin/env bash
# Instructions per round (the transaction-status payloads of count_decode) of the
# client's redaction beside near-rpc's decode, counted by callgrind as instructions.sh
# counts: (ROUNDS+1 rounds) - (1 round), divided by ROUNDS.
#
#   ./redact.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")"
rounds=${1:-20}
cargo build -q --release --example count_redact
bin=target/release/examples/count_redact
count() { # mode rounds
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '| mode | instructions per round | less the copy |\n|---|---|---|\n'
for mode in copy exact any-case decode; do
  one=$(count "$mode" 1)
  many=$(count "$mode" $((rounds + 1)))
  per=$(( (many - one) / rounds ))
  [ "$mode" = copy ] && copy=$per
  printf '| %s | %s | %s |\n' "$mode" "$per" "$(( per - copy ))"
done
