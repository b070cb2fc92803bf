#!/usr/bin/env bash
# A* against the yardstick: for each map, run ../shared/bench/refastar.c and `navtool scen` back
# to back on the same scenario file and print the ratio of mean query times (ours / theirs).
# Ratios from one run on one machine are what to quote; absolute times on shared machines are not.
#
# usage: bench/astar_vs_ref.sh [--every N] [--repeat R] [--algo A] [SCEN...]
#   --every N   use every Nth problem only (quick iterations); default: all problems
#   --repeat R  run both R times, alternating, and keep each one's fastest mean (default 1); on a
#               shared machine the fastest run is the one least disturbed by others
#   SCEN...    scenario files; default: every ../shared/maps/*/*.scen
# needs: a built build/tools/navtool (Release), cc
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${NAV_SHARED:-$here/../shared}
navtool=${NAVTOOL:-$here/build/tools/navtool}
every=1 repeat=1 algo=astar
scens=()
while [ $# -gt 0 ]; do
    case $1 in
    --every) every=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --algo) algo=$2; shift 2 ;;
    *) scens+=("$1"); shift ;;
    esac
done
[ ${#scens[@]} -gt 0 ] || scens=("$shared"/maps/*/*.scen)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/refastar" "$shared/bench/refastar.c" -lm

printf '%-22s %7s %12s %12s %7s %10s %10s %s\n' map problems ref_us ours_us ratio ref_exp ours_exp check
for scen in "${scens[@]}"; do
    map=${scen%.scen}
    name=$(basename "$map")
    if [ "$every" -gt 1 ]; then
        head -n 1 "$scen" >"$work/$name.scen"
        tail -n +2 "$scen" | awk -v n="$every" 'NR % n == 1' >>"$work/$name.scen"
        cp "$map" "$work/$name"
        scen=$work/$name.scen map=$work/$name
    fi
    runs=()
    for ((i = 0; i < repeat; i++)); do
        runs+=("$("$work/refastar" "$map" "$scen")" "$("$navtool" scen "$scen" --algo "$algo" --json | tail -n 1)")
    done
    python3 - "${runs[@]}" <<'PY'
import json, sys
runs = [json.loads(a) for a in sys.argv[1:]]
r = min(runs[0::2], key=lambda d: d["mean_us"])
o = min(runs[1::2], key=lambda d: d["mean_us"])
check = "ok" if o["wrong"] == 0 and o["invalid"] == 0 and o["mismatches"] == 0 else \
    "wrong %d invalid %d mismatches %d" % (o["wrong"], o["invalid"], o["mismatches"])
print("%-22s %7d %12.1f %12.1f %7.3f %10.1f %10.1f %s" % (o["map"], o["problems"], r["mean_us"], o["mean_us"],
      o["mean_us"] / r["mean_us"], r["mean_expanded"], o["mean_expanded"], check))
PY
done
