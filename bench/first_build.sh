#!/usr/bin/env bash
# The first build of a level in a process against the next two (issue 43, defect 10), on 1 and on 2
# threads: bench/first_build.c in P processes a level and thread count, in turns; prints the medians
# of each build's milliseconds and the mean of its minor page faults. --prefault MB: each process
# first makes MB of heap its own and keeps it (bench/first_build.c), to tell the page faults' share.
#
# usage: bench/first_build.sh [--processes P] [--prefault MB] [LEVEL.obj ...]
#        (default: ../shared/meshes/dungeon.obj)
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson
set -euo pipefail
. "$(dirname "$0")/require.sh"
processes=21
prefault=()
levels=()
while [ $# -gt 0 ]; do
    case $1 in
    --processes) processes=$2; shift 2 ;;
    --prefault) prefault=("$2"); shift 2 ;;
    -*) echo "$me: unexpected argument '$1'; usage: $me [--processes P] [--prefault MB] [LEVEL.obj ...]" >&2; exit 2 ;;
    *) levels+=("$1"); shift ;;
    esac
done
if [ ${#levels[@]} -eq 0 ]; then
    bench_need_shared meshes/dungeon.obj
    levels=("$shared/meshes/dungeon.obj")
fi
bench_need_libnav
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_cc "$work/first_build" "$here/bench/first_build.c"
median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for level in "${levels[@]}"; do
    : >"$work/1" && : >"$work/2"
    for _ in $(seq "$processes"); do
        for threads in 1 2; do "$work/first_build" "$level" "$threads" ${prefault[@]+"${prefault[@]}"} >>"$work/$threads"; done
    done
    for threads in 1 2; do
        line="$(basename "$level") on $threads thread(s), $processes processes:"
        for build in 1 2 3; do
            ms=$(awk -v k=$((2 * build - 1)) '{print $k}' "$work/$threads" | median)
            faults=$(awk -v k=$((2 * build)) '{s += $k} END {printf "%.0f", s / NR}' "$work/$threads")
            line+=" build $build $ms ms ($faults faults)"
        done
        echo "$line"
    done
done
