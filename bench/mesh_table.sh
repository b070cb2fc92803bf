#!/usr/bin/env bash
# The navmesh's figures per map, both modes against the yardstick, in one run: for each scenario
# file, ../shared/bench/refastar.c, `navtool scen --algo mesh` (optimal) and `navtool scen --algo
# mesh-funnel`, back to back on the same problems, the order turned round each repeat, and the
# fastest run of each kept. Prints one row a map: polygons, mesh build ms, baked bytes (mesh and
# landmarks), landmark bake ms, then per mode the mean and p95 query time, the ratio of the mean to
# refastar's, the mean and max length over the file's 8-connected optimum, and wrong / invalid
# counts; last, the funnel mode's mean length over the optimal mode's.
#
# usage: bench/mesh_table.sh [--every N] [--repeat R] [--landmarks K] [SCEN...]
#   --every N      every Nth problem only (default 1: all)
#   --repeat R     R runs each, alternating which goes first; the fastest kept (default 1)
#   --landmarks K  landmarks baked into each mesh (default 16)
#   SCEN...        scenario files; default: every ../shared/maps/*/*.scen
# needs: a built build/tools/navtool (Release, or NAVTOOL), cc, python3; the shared data beside the
#        checkout (or NAV_SHARED): ../shared/bench/refastar.c and ../shared/maps, not part of the project
set -euo pipefail
. "$(dirname "$0")/require.sh"
navtool=${NAVTOOL:-$here/build/tools/navtool}
every=1 repeat=1 landmarks=16
scens=()
while [ $# -gt 0 ]; do
    case $1 in
    --every) every=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --landmarks) landmarks=$2; shift 2 ;;
    *) scens+=("$1"); shift ;;
    esac
done
if [ ${#scens[@]} -eq 0 ]; then
    bench_need_shared 'maps/*/*.scen'
    scens=("$shared"/maps/*/*.scen)
fi
bench_need_navtool
bench_need_shared bench/refastar.c
bench_need_programs python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_refastar "$work/refastar"
. "$here/bench/piece.sh"

results=$work/results
: >"$results"
for scen in "${scens[@]}"; do
    name=$(basename "${scen%.scen}")
    piece=$(bench_piece "$scen" "$work" "$every") # every Nth problem beside a copy of the map
    ref() { echo "$name ref $("$work/refastar" "${piece%.scen}" "$piece")" >>"$results"; }
    mesh() { echo "$name $1 $("$navtool" scen "$piece" --algo "$1" --landmarks "$landmarks" --json | tail -n 1)" >>"$results"; }
    for ((i = 0; i < repeat; i++)); do
        if [ $((i % 2)) -eq 0 ]; then
            ref; mesh mesh; mesh mesh-funnel
        else
            mesh mesh-funnel; mesh mesh; ref
        fi
    done
done
python3 - "$results" <<'PY'
import json, sys
best = {}  # (map, side) -> the fastest run
order = []
for line in open(sys.argv[1]):
    name, side, text = line.split(" ", 2)
    d = json.loads(text)
    if name not in order:
        order.append(name)
    if (name, side) not in best or d["mean_us"] < best[(name, side)]["mean_us"]:
        best[(name, side)] = d
print("%-19s %6s %7s %8s %7s | %-40s | %-40s | %7s" % (
    "map", "polys", "build", "bytes", "lm_ms",
    "optimal: mean_us p95_us ratio len_mean len_max w/i",
    "funnel: mean_us p95_us ratio len_mean len_max w/i", "fun/opt"))
for name in order:
    ref, opt, fun = best[(name, "ref")], best[(name, "mesh")], best[(name, "mesh-funnel")]
    def mode(d):
        return "%8.1f %7.1f %6.3f %8.5f %7.5f %d/%d" % (
            d["mean_us"], d["p95_us"], d["mean_us"] / ref["mean_us"], d["mean_ratio"], d["max_ratio"],
            d["wrong"], d["invalid"])
    print("%-19s %6d %7.1f %8d %7.1f | %-40s | %-40s | %7.5f" % (
        name.replace(".map", ""), opt["polygons"], opt["bake_ms"], opt["bake_bytes"], opt["landmark_ms"],
        mode(opt), mode(fun), fun["mean_ratio"] / opt["mean_ratio"] if opt["mean_ratio"] else 0))
PY
