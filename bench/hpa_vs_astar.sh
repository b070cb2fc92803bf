#!/usr/bin/env bash
# HPA* against the project's own A*: for each map, run `navtool scen --algo astar` and
# `navtool scen --algo hpa --smooth` back to back on the same scenario file (alternating which
# goes first when repeated, the fastest run of each kept) and print the speed-up (A*'s mean query
# time over HPA*'s, smoothing included), HPA*'s smoothed length ratios, its correctness counts
# and its bake time and bytes.
#
# usage: bench/hpa_vs_astar.sh [--repeat R] [HPA OPTIONS...] [-- SCEN...]
#   --repeat R   run both R times (default 1)
#   HPA OPTIONS  passed to the HPA* runs (--cluster N, --levels N, --ratio N, --long N)
#   SCEN...      scenario files; default: every ../shared/maps/*/*.scen
# needs: a built build/tools/navtool (Release, or NAVTOOL), python3; the shared maps ../shared/maps
#        (or NAV_SHARED)
set -euo pipefail
. "$(dirname "$0")/require.sh"
navtool=${NAVTOOL:-$here/build/tools/navtool}
repeat=1
opts=()
scens=()
while [ $# -gt 0 ]; do
    case $1 in
    --repeat) repeat=$2; shift 2 ;;
    --) shift; scens=("$@"); break ;;
    *) opts+=("$1"); shift ;;
    esac
done
if [ ${#scens[@]} -eq 0 ]; then
    bench_need_shared 'maps/*/*.scen'
    scens=("$shared"/maps/*/*.scen)
fi
bench_need_navtool
bench_need_programs python3
printf '%-20s %9s %9s %8s %8s %8s %6s %8s %10s\n' map astar_us hpa_us speedup ratio max_ratio check bake_ms bake_bytes
for scen in "${scens[@]}"; do
    a_best="" h_best=""
    for ((r = 0; r < repeat; r++)); do
        if ((r % 2 == 0)); then
            a=$("$navtool" scen "$scen" --algo astar --json | tail -1)
            h=$("$navtool" scen "$scen" --algo hpa --smooth "${opts[@]}" --json | tail -1)
        else
            h=$("$navtool" scen "$scen" --algo hpa --smooth "${opts[@]}" --json | tail -1)
            a=$("$navtool" scen "$scen" --algo astar --json | tail -1)
        fi
        a_best=$(python3 -c 'import json,sys; x=[json.loads(s) for s in sys.argv[1:] if s]; print(json.dumps(min(x, key=lambda d: d["mean_us"])))' "$a" "$a_best")
        h_best=$(python3 -c 'import json,sys; x=[json.loads(s) for s in sys.argv[1:] if s]; print(json.dumps(min(x, key=lambda d: d["mean_us"])))' "$h" "$h_best")
    done
    python3 - "$a_best" "$h_best" <<'PY'
import json, sys
a, h = json.loads(sys.argv[1]), json.loads(sys.argv[2])
ok = "ok" if h["wrong"] == 0 and h["invalid"] == 0 and a["wrong"] == 0 and a["invalid"] == 0 else "FAIL"
print(f'{h["map"]:20s} {a["mean_us"]:9.1f} {h["mean_us"]:9.1f} {a["mean_us"] / h["mean_us"]:8.2f} '
      f'{h["mean_ratio"]:8.4f} {h["max_ratio"]:8.4f} {ok:>6s} {h["bake_ms"]:8.0f} {h["bake_bytes"]:10d}')
PY
done
