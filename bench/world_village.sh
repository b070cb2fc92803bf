#!/usr/bin/env bash
# The bundled village world queried end to end (bench/world_village.c: every ordered pair of six
# points, R rounds of nav_world_find_path): one JSON line. With --callgrind, the instructions in
# nav_world_find_path too (valgrind; repeatable whatever else the machine does), the yardstick of
# the world's per-kind layer (issue 44: "world queries no slower").
#
# With --filtered, the query plans under a mesh filter of the meshes' own costs (lazily over the
# tables: the same routes); with --grid-filtered, under a grid filter that doubles the cost of the
# house's floors (lazily over their tables).
#
# usage: bench/world_village.sh [--rounds R (50)] [--callgrind] [--filtered | --grid-filtered]
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson; valgrind
#        for --callgrind
set -euo pipefail
. "$(dirname "$0")/require.sh"
rounds=50 callgrind=0 filtered=()
while [ $# -gt 0 ]; do
    case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --callgrind) callgrind=1; shift ;;
    --filtered) filtered=(filtered); shift ;;
    --grid-filtered) filtered=(grid-filtered); shift ;;
    *) bench_fail "unknown option $1 (usage: $me [--rounds R] [--callgrind] [--filtered | --grid-filtered])" ;;
    esac
done
bench_need_libnav
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_cc "$work/world_village" "$here/bench/world_village.c"
village="$here/data/worlds/village/village.json"
"$work/world_village" "$village" "$rounds" "${filtered[@]}"
if [ "$callgrind" = 1 ]; then
    bench_need_programs valgrind
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=nav_world_find_path \
        "$work/world_village" "$village" "$rounds" "${filtered[@]}" 2>&1 >/dev/null | awk '/Collected/ {print "instructions in nav_world_find_path: " $4}'
fi
