#!/usr/bin/env bash
# A big map as one world region, searched flat or through its HPA* bake (see world_hpa.c): random
# queries planned and refined in both worlds, timed and checked. Prints, last, one JSON line.
#
# With --callgrind (first), also the instructions of the HPA* world's queries alone (valgrind;
# repeatable whatever else the machine does): the yardstick of the world's HPA* region kind.
#
# usage: bench/world_hpa.sh [--callgrind] MAP [--queries N] [--cluster C] [--levels L] [--seed X]
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson; valgrind
#        for --callgrind
set -euo pipefail
. "$(dirname "$0")/require.sh"
callgrind=0
if [ "${1:-}" = --callgrind ]; then callgrind=1; shift; fi
bench_need_libnav
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_cc "$work/world_hpa" "$here/bench/world_hpa.c"
"$work/world_hpa" "$@"
if [ "$callgrind" = 1 ]; then
    bench_need_programs valgrind
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=hpa_world_query \
        "$work/world_hpa" "$@" 2>&1 >/dev/null | awk '/Collected/ {print "instructions in the HPA* world'"'"'s queries: " $4}'
fi
