#!/usr/bin/env bash
# One big grid region with many links (issue 43, defect 19: a region's table grew with the square
# of its chokepoints): writes the world (world_links.c: SIDE x SIDE cells, its links strewn inside
# it or along its border to small huts), bakes it with navtool under /usr/bin/time -v, and prints
# one JSON line: links, layout, side, bake_s (wall), cpu_s (user + system, every thread), peak_rss_mb,
# file_bytes, table_entries.
#
# usage: bench/world_links.sh --links N [--layout interior|border] [--side S] [--seed X]
#                             [--threads K] [--max-table-mb MB]
#        (defaults: interior, 1000 cells a side, seed 1, every core)
# needs: a built navtool (Release: build/tools/navtool, or NAVTOOL), cc, /usr/bin/time
set -euo pipefail
. "$(dirname "$0")/require.sh"
navtool=${NAVTOOL:-$here/build/tools/navtool}
bench_need_navtool
bench_need_programs cc
[ -x /usr/bin/time ] || bench_fail "needs GNU time at /usr/bin/time (Debian: apt-get install time)"
gen=() bake=() layout=interior side=1000 links=0
while [ $# -gt 0 ]; do
    case $1 in
    --links) links=$2; gen+=("$1" "$2"); shift 2 ;;
    --layout) layout=$2; gen+=("$1" "$2"); shift 2 ;;
    --side) side=$2; gen+=("$1" "$2"); shift 2 ;;
    --seed) gen+=("$1" "$2"); shift 2 ;;
    --threads | --max-table-mb) bake+=("$1" "$2"); shift 2 ;;
    *) bench_fail "unknown option $1 (see the top of the script)" ;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/world_links" "$here/bench/world_links.c"
"$work/world_links" "${gen[@]}" --out "$work"
status=0
/usr/bin/time -v -o "$work/time" "$navtool" bake "$work/world.json" -o "$work/world.nav" --quiet "${bake[@]}" \
    >"$work/out" 2>"$work/err" || status=$?
if [ $status -ne 0 ]; then
    cat "$work/err" >&2
    echo "{\"links\":$links,\"layout\":\"$layout\",\"side\":$side,\"refused\":true}"
    exit 0
fi
bake_s=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$work/time")
cpu_s=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$work/time")
rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
entries=$(sed -n 's/.* \([0-9]*\) table entries.*/\1/p' "$work/out")
echo "{\"links\":$links,\"layout\":\"$layout\",\"side\":$side,\"bake_s\":$bake_s,\"cpu_s\":$cpu_s,\"peak_rss_mb\":$((rss_kb / 1024)),\"file_bytes\":$(stat -c %s "$work/world.nav"),\"table_entries\":$entries}"
