#!/usr/bin/env bash
# Issue 44's crowd benchmark: the same scenes, agents and goals walked by libnav's crowd
# (bench/crowd.c) and by DetourCrowd (bench/crowd_detour.cpp, over Debian's librecast-dev), 30 ticks
# a second; one JSON line a run, libnav's then DetourCrowd's. For each scene, libnav builds its mesh
# from the level's triangles, draws the agents on it and writes them (start, goal, the shortest
# path's length) and, for the plaza, its triangles to a temporary folder; DetourCrowd builds its
# mesh with Recast from the same triangles and reads the same agents.
#
# usage: bench/crowd.sh [--scene S]... [--agents N]... [--seconds T (60)] [--libnav-only]
#                       [--threads N] [--seed X] [--side S (200)] [--cell C (0.2)] [--grid]
#   --scene: plaza (generated), a mesh of the shared data (dungeon.obj, nav_test.obj) or a path to an
#            .obj file; by default plaza, dungeon.obj and nav_test.obj
#   --agents: by default 100, 1000 and 10000
#   --threads: passed to bench/crowd.c (the crowd's threads, once nav_crowd_desc has them)
#   --grid: the plaza as libnav's grid region instead (libnav only)
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson; the shared
# meshes; for DetourCrowd g++ and librecast-dev
set -euo pipefail
. "$(dirname "$0")/require.sh"
scenes=() counts=() seconds=60 libnav_only=0 grid=0 crowd_options=() cell=0.2 side=200
while [ $# -gt 0 ]; do
    case $1 in
    --scene) scenes+=("$2"); shift 2 ;;
    --agents) counts+=("$2"); shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --libnav-only) libnav_only=1; shift ;;
    --grid) grid=1; libnav_only=1; shift ;;
    --threads | --seed) crowd_options+=("$1" "$2"); shift 2 ;;
    --cell) cell=$2; shift 2 ;;
    --side) side=$2; shift 2 ;;
    *) bench_fail "unknown option $1 (see the usage at the top of $here/bench/crowd.sh)" ;;
    esac
done
[ ${#scenes[@]} -gt 0 ] || [ $grid = 1 ] || scenes=(plaza dungeon.obj nav_test.obj)
[ ${#scenes[@]} -gt 0 ] || scenes=(plaza)
[ ${#counts[@]} -gt 0 ] || counts=(100 1000 10000)

# Each scene's level: plaza, or the path of its .obj file
levels=()
for scene in "${scenes[@]}"; do
    case $scene in
    plaza) levels+=(plaza) ;;
    */*) [ -f "$scene" ] || bench_fail "no level file $scene"; levels+=("$scene") ;;
    *) bench_need_shared "meshes/$scene"; levels+=("$shared/meshes/$scene") ;;
    esac
done
[ $grid = 0 ] || [ "${levels[*]}" = plaza ] || bench_fail "--grid is for the plaza alone (--scene plaza)"
bench_need_libnav
[ $libnav_only = 1 ] || bench_need_recast
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_cc "$work/crowd" "$here/bench/crowd.c"
[ $libnav_only = 1 ] || bench_crowd_detour "$work/crowd_detour"

for level in "${levels[@]}"; do
    for n in "${counts[@]}"; do
        if [ "$level" = plaza ]; then
            obj=$work/plaza$side.obj
            scene_options=(--scene plaza --side "$side" --write-obj "$obj")
            [ $grid = 0 ] || scene_options+=(--grid)
        else
            obj=$level
            scene_options=(--scene "$level")
        fi
        "$work/crowd" "${scene_options[@]}" --agents "$n" --seconds "$seconds" --cell "$cell" \
            --write-agents "$work/agents" "${crowd_options[@]}"
        [ $libnav_only = 1 ] ||
            "$work/crowd_detour" --scene "$obj" --read-agents "$work/agents" --seconds "$seconds" \
                --cell "$cell" ||
            echo "$me: DetourCrowd did not run $n agents on $(basename "$obj") (above)" >&2
    done
done
