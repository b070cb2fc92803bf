#!/usr/bin/env bash
# The waypoint tables' figures per map, in one run against the yardstick and the navmesh: for each
# scenario file, ../shared/bench/refastar.c, `navtool scen --algo waypoints` (point to point, cell
# centre to cell centre) and `navtool scen --algo mesh` (the navmesh's optimal mode, 16 landmarks),
# back to back on the same problems, the order turned round each repeat, the fastest run of each
# kept. Prints one row a map: waypoints and links (after pruning), bake seconds (graph and tables,
# 2 threads on a 2-core machine), baked bytes, query object bytes, mean and p95 query time, the
# ratio of the mean to refastar's and to the mesh's, the mean and max length over the file's
# 8-connected optimum, and wrong / invalid counts. Maps whose corners exceed the default limit are
# listed as refused.
#
# usage: bench/waypoints_table.sh [--every N] [--repeat R] [SCEN...]
#   --every N      every Nth problem only (default 1: all)
#   --repeat R     R runs each, alternating which goes first; the fastest kept (default 1)
#   SCEN...        scenario files; default: every ../shared/maps/*/*.scen
# needs: a built build/tools/navtool (Release, or NAVTOOL), cc, python3; the shared data beside the
#        checkout (or NAV_SHARED): ../shared/bench/refastar.c and ../shared/maps, not part of the project
set -euo pipefail
. "$(dirname "$0")/require.sh"
navtool=${NAVTOOL:-$here/build/tools/navtool}
every=1 repeat=1
scens=()
while [ $# -gt 0 ]; do
    case $1 in
    --every) every=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
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
    if ! "$navtool" scen "$piece" --algo waypoints --json >"$work/out" 2>"$work/err"; then
        if grep -q "limit" "$work/err"; then
            echo "$name refused $(grep -o '[0-9]* convex corners' "$work/err" | head -n 1)" >>"$results"
            continue
        fi
        cat "$work/err" >&2
    fi
    ref() { echo "$name ref $("$work/refastar" "${piece%.scen}" "$piece")" >>"$results"; }
    run() { echo "$name $1 $("$navtool" scen "$piece" --algo "$1" --landmarks 16 --json | tail -n 1)" >>"$results"; }
    for ((i = 0; i < repeat; i++)); do
        if [ $((i % 2)) -eq 0 ]; then
            ref; run waypoints; run mesh
        else
            run mesh; run waypoints; ref
        fi
    done
done
python3 - "$results" <<'PY'
import json, sys
best, order, refused = {}, [], {}
for line in open(sys.argv[1]):
    name, side, text = line.rstrip("\n").split(" ", 2)
    if name not in order:
        order.append(name)
    if side == "refused":
        refused[name] = text
        continue
    d = json.loads(text)
    if (name, side) not in best or d["mean_us"] < best[(name, side)]["mean_us"]:
        best[(name, side)] = d
print("%-19s %6s %7s %7s %10s %7s | %8s %7s %7s %7s %8s %7s %4s" % (
    "map", "wps", "links", "bake_s", "bytes", "q_bytes", "mean_us", "p95_us", "/ref", "/mesh",
    "len_mean", "len_max", "w/i"))
for name in order:
    short = name.replace(".map", "")
    if name in refused:
        print("%-19s refused: %s, above the limit of 65535 waypoints" % (short, refused[name]))
        continue
    ref, wp, mesh = best[(name, "ref")], best[(name, "waypoints")], best[(name, "mesh")]
    print("%-19s %6d %7d %7.2f %10d %7d | %8.1f %7.1f %7.4f %7.3f %8.5f %7.5f %d/%d" % (
        short, wp["waypoints"], wp["links"], wp["bake_ms"] / 1000, wp["bake_bytes"], wp["query_bytes"],
        wp["mean_us"], wp["p95_us"], wp["mean_us"] / ref["mean_us"], wp["mean_us"] / mesh["mean_us"],
        wp["mean_ratio"], wp["max_ratio"], wp["wrong"], wp["invalid"]))
PY
