#!/usr/bin/env bash
# The first build of a level in a process against the next two (issue 43, defect 10), on 1 and on 2
# threads: bench/first_build.c in P processes a level and thread count, in turns; prints the medians
# of each build's milliseconds and the mean of its minor page faults. --prefault MB: each process
# first makes MB of heap its own and keeps it (bench/first_build.c), to tell the page faults' share.
#
# --recast: Recast's solo-mesh build too (bench/recast_driver.cpp --each 1, RecastDemo's defaults, on
# one thread: Recast has no threads of its own), in the same turns: the yardstick of what a first
# build in a process costs any builder, its memory new to the process.
#
# usage: bench/first_build.sh [--processes P] [--prefault MB] [--recast] [LEVEL.obj ...]
#        (default: ../shared/meshes/dungeon.obj)
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson; for
#        --recast, g++ and librecast-dev
set -euo pipefail
. "$(dirname "$0")/require.sh"
processes=21
prefault=()
recast=0
levels=()
while [ $# -gt 0 ]; do
    case $1 in
    --processes) processes=$2; shift 2 ;;
    --prefault) prefault=("$2"); shift 2 ;;
    --recast) recast=1; shift ;;
    -*) echo "$me: unexpected argument '$1'; usage: $me [--processes P] [--prefault MB] [--recast] [LEVEL.obj ...]" >&2; exit 2 ;;
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
runs=(1 2)
if [ "$recast" = 1 ]; then
    bench_need_recast
    bench_recast_driver "$work/recast_driver"
    runs+=(recast)
fi
median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for level in "${levels[@]}"; do
    for run in "${runs[@]}"; do : >"$work/$run"; done
    for _ in $(seq "$processes"); do
        for run in "${runs[@]}"; do
            if [ "$run" = recast ]; then
                "$work/recast_driver" "$level" --runs 3 --each 1 >>"$work/$run"
            else
                "$work/first_build" "$level" "$run" ${prefault[@]+"${prefault[@]}"} >>"$work/$run"
            fi
        done
    done
    for run in "${runs[@]}"; do
        if [ "$run" = recast ]; then
            line="$(basename "$level") by Recast, $processes processes:"
        else
            line="$(basename "$level") on $run thread(s), $processes processes:"
        fi
        for build in 1 2 3; do
            ms=$(awk -v k=$((2 * build - 1)) '{print $k}' "$work/$run" | median)
            faults=$(awk -v k=$((2 * build)) '{s += $k} END {printf "%.0f", s / NR}' "$work/$run")
            line+=" build $build $ms ms ($faults faults)"
        done
        echo "$line"
    done
done
