#!/usr/bin/env bash
# Waypoint to waypoint on every shared map: the tables (a distance read, a route by first moves)
# against a Dijkstra search on the same graph, and routes under a filter that shuts 2% of the links
# (see waypoints_routes.c). Prints one row a map; maps whose corners exceed the default limit are
# listed as refused.
#
# usage: bench/waypoints_routes.sh [--pairs N] [MAP...]   (default 2000 pairs; every map that has a
#        scenario file under ../shared/maps)
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson, python3; the
#        shared maps ../shared/maps (or NAV_SHARED)
set -euo pipefail
. "$(dirname "$0")/require.sh"
pairs=2000
maps=()
while [ $# -gt 0 ]; do
    case $1 in
    --pairs) pairs=$2; shift 2 ;;
    *) maps+=("$1"); shift ;;
    esac
done
if [ ${#maps[@]} -eq 0 ]; then
    bench_need_shared 'maps/*/*.scen'
    for scen in "$shared"/maps/*/*.scen; do maps+=("${scen%.scen}"); done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_need_libnav
bench_need_programs python3
bench_cc "$work/routes" "$here/bench/waypoints_routes.c"
status=0
for map in "${maps[@]}"; do
    rc=0
    "$work/routes" "$map" "$pairs" >>"$work/results" || rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 3 ] || status=1
done
python3 - "$work/results" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
print("| Map | Waypoints | Links | Distance ns | Route us | Dijkstra us | Dijkstra / route | Dijkstra / distance "
      "| 2% shut: us | searched | Dijkstra / it | wrong |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
refused = []
for r in rows:
    if r.get("refused"):
        refused.append(r["map"])
        continue
    print(f"| {r['map']} | {r['waypoints']:,} | {r['links']:,} | {r['distance_us'] * 1000:.1f} | {r['route_us']:.2f} "
          f"| {r['dijkstra_us']:.1f} | {r['route_speedup']:.0f}x | {r['distance_speedup']:,.0f}x "
          f"| {r['filtered_us']:.2f} | {r['filtered_searched'] * 100:.0f}% | {r['filtered_speedup']:.0f}x | {r['wrong']} |")
speed = [r for r in rows if not r.get("refused")]
if speed:
    print(f"\nmaps {len(speed)}; Dijkstra / route: min {min(r['route_speedup'] for r in speed):.0f}x, "
          f"Dijkstra / distance: min {min(r['distance_speedup'] for r in speed):,.0f}x; "
          f"under 2% shut links, Dijkstra / filtered: min {min(r['filtered_speedup'] for r in speed):.0f}x; "
          f"wrong {sum(r['wrong'] for r in speed)}")
if refused:
    print("refused (more corners than the default limit): " + ", ".join(refused))
PY
exit $status
