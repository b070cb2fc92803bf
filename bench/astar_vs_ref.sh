#!/usr/bin/env bash
# A* against the yardstick: for each map, run ../shared/bench/refastar.c and `navtool scen` back
# to back on the same scenario file and print the ratio of mean query times (ours / theirs).
# Ratios from one run on one machine are what to quote; absolute times on shared machines are not.
#
# usage: bench/astar_vs_ref.sh [--every N] [--algo A] [SCEN...]
#   --every N  use every Nth problem only (quick iterations); default: all problems
#   SCEN...    scenario files; default: every ../shared/maps/*/*.scen
# needs: a built build/tools/navtool (Release), cc
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${NAV_SHARED:-$here/../shared}
navtool=${NAVTOOL:-$here/build/tools/navtool}
every=1 algo=astar
scens=()
while [ $# -gt 0 ]; do
    case $1 in
    --every) every=$2; shift 2 ;;
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
    ref=$("$work/refastar" "$map" "$scen")
    ours=$("$navtool" scen "$scen" --algo "$algo" --json | tail -n 1)
    python3 - "$ref" "$ours" <<'PY'
import json, sys
r, o = json.loads(sys.argv[1]), json.loads(sys.argv[2])
check = "ok" if o["wrong"] == 0 and o["invalid"] == 0 and o["mismatches"] == 0 else \
    "wrong %d invalid %d mismatches %d" % (o["wrong"], o["invalid"], o["mismatches"])
print("%-22s %7d %12.1f %12.1f %7.3f %10.1f %10.1f %s" % (o["map"], o["problems"], r["mean_us"], o["mean_us"],
      o["mean_us"] / r["mean_us"], r["mean_expanded"], o["mean_expanded"], check))
PY
done
