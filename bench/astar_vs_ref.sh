#!/usr/bin/env bash
# A* against the yardstick: for each map, run ../shared/bench/refastar.c and `navtool scen` back
# to back on the same scenario file and print the ratio of mean query times (ours / theirs).
# Ratios from one run on one machine are what to quote; absolute times on shared machines are not.
#
# usage: bench/astar_vs_ref.sh [--every N] [--repeat R] [--chunk C] [--algo A] [--landmarks K] [SCEN...]
#   --every N   use every Nth problem only (quick iterations); default: all problems
#   --repeat R  run both R times, alternating which goes first, and keep each one's fastest time
#               (default 1); on a shared machine the fastest run is the one least disturbed
#   --chunk C   split each scenario file into pieces of C problems and alternate the two programs
#               piece by piece, keeping the fastest of the R runs of every piece: a burst of load
#               from elsewhere then falls on both sides alike instead of on one whole run
#               (default 0: whole files)
#   --algo A    navtool scen's algorithm (default astar)
#   --landmarks K  with --algo mesh or mesh-funnel: K landmarks baked into the mesh (default 0)
#   SCEN...    scenario files; default: every ../shared/maps/*/*.scen
# needs: a built build/tools/navtool (Release, or NAVTOOL), cc, python3; the shared data beside the
#        checkout (or NAV_SHARED): ../shared/bench/refastar.c and ../shared/maps, not part of the project
set -euo pipefail
. "$(dirname "$0")/require.sh"
navtool=${NAVTOOL:-$here/build/tools/navtool}
every=1 repeat=1 chunk=0 algo=astar landmarks=0
scens=()
while [ $# -gt 0 ]; do
    case $1 in
    --every) every=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --chunk) chunk=$2; shift 2 ;;
    --algo) algo=$2; shift 2 ;;
    --landmarks) landmarks=$2; shift 2 ;;
    *) scens+=("$1"); shift ;;
    esac
done
extra=()
[ "$landmarks" = 0 ] || extra=(--landmarks "$landmarks")
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

printf '%-22s %7s %12s %12s %7s %10s %10s %s\n' map problems ref_us ours_us ratio ref_exp ours_exp check
for scen in "${scens[@]}"; do
    map=${scen%.scen}
    name=$(basename "$map")
    mkdir -p "$work/$name.d"
    cp "$map" "$work/$name.d/$name"
    # the pieces: the header, then every Nth problem, C problems a piece
    tail -n +2 "$scen" | awk -v n="$every" 'NR % n == 1 || n == 1' >"$work/$name.d/problems"
    total=$(wc -l <"$work/$name.d/problems")
    size=$chunk
    [ "$size" -gt 0 ] || size=$total
    split -l "$size" -d -a 4 "$work/$name.d/problems" "$work/$name.d/piece."
    pieces=()
    for piece in "$work/$name.d"/piece.*; do
        { head -n 1 "$scen"; cat "$piece"; } >"$piece.$name.scen"
        # the map beside the piece, under the name the tools derive from the piece's name
        ln "$work/$name.d/$name" "$piece.$name"
        pieces+=("$piece.$name.scen")
    done
    results=$work/$name.d/results
    : >"$results"
    for ((i = 0; i < repeat; i++)); do
        for piece in "${pieces[@]}"; do
            ref() { echo "ref $piece $("$work/refastar" "${piece%.scen}" "$piece")" >>"$results"; }
            ours() { echo "ours $piece $("$navtool" scen "$piece" --algo "$algo" "${extra[@]}" --json | tail -n 1)" >>"$results"; }
            if [ $((i % 2)) -eq 0 ]; then ref; ours; else ours; ref; fi
        done
    done
    python3 - "$results" "$name" <<'PY'
import json, sys
best = {}  # (side, piece) -> the fastest run
for line in open(sys.argv[1]):
    side, piece, text = line.split(" ", 2)
    d = json.loads(text)
    key = (side, piece)
    if key not in best or d["mean_us"] < best[key]["mean_us"]:
        best[key] = d
def total(side, field):
    runs = [d for (s, _), d in best.items() if s == side]
    problems = sum(d["problems"] for d in runs)
    return sum(d[field] * d["problems"] for d in runs) / max(problems, 1), problems, runs
ref_us, problems, _ = total("ref", "mean_us")
ours_us, _, ours = total("ours", "mean_us")
ref_exp = total("ref", "mean_expanded")[0]
ours_exp = total("ours", "mean_expanded")[0]
bad = {k: sum(d[k] for d in ours) for k in ("wrong", "invalid", "mismatches")}
check = "ok" if not any(bad.values()) else "wrong %(wrong)d invalid %(invalid)d mismatches %(mismatches)d" % bad
name = sys.argv[2]
print("%-22s %7d %12.1f %12.1f %7.3f %10.1f %10.1f %s" % (name, problems, ref_us, ours_us, ours_us / ref_us,
      ref_exp, ours_exp, check))
PY
done
