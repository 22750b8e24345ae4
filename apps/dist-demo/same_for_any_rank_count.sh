#!/usr/bin/env bash
# Runs loom-dist-demo (small sizes) with 2 ranks, then 1 and 4, and checks that every result line
# is the same: the demo's results must not depend on the rank count.
#   same_for_any_rank_count.sh <mpiexec> <loom-dist-demo>
set -euo pipefail
mpiexec=$1 demo=$2
args=(--size 200000 --grid 64 --steps 50 --target cpu)
out=()
for np in 2 1 4; do
  o=$("$mpiexec" -np "$np" --oversubscribe "$demo" "${args[@]}")
  echo "$o"
  out+=("$(grep -v '^loom-dist-demo:' <<<"$o")")
done
[ "${out[0]}" = "${out[1]}" ] && [ "${out[0]}" = "${out[2]}" ] || { echo "results differ"; exit 1; }
echo "same results for 1, 2 and 4 ranks"
