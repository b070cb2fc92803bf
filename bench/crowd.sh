#!/usr/bin/env bash
# A crowd on the generated plaza (bench/crowd.c: issue 44's benchmark scene, libnav's side; the
# side by side with DetourCrowd is still to come): one JSON line a run.
#
# usage: bench/crowd.sh [--agents N (1000)] [--seconds T (60)] [--side S (200)] [--grid | --mesh] [--seed X]
#        (several --agents: a run each, e.g. bench/crowd.sh --agents 100 --agents 1000 --agents 10000)
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson
set -euo pipefail
. "$(dirname "$0")/require.sh"
counts=() rest=()
while [ $# -gt 0 ]; do
    case $1 in
    --agents) counts+=("$2"); shift 2 ;;
    *) rest+=("$1"); shift ;;
    esac
done
[ ${#counts[@]} -gt 0 ] || counts=(1000)
bench_need_libnav
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_cc "$work/crowd" "$here/bench/crowd.c"
for n in "${counts[@]}"; do "$work/crowd" --agents "$n" "${rest[@]}"; done
