#!/usr/bin/env bash
# An any-angle planner (the navmesh's optimal mode, or waypoint point queries) against the brute-force
# reference on a sample of every shared map's scenario problems (see anyangle_vs_reference.c).
# Offline: minutes, not part of CI. Maps the waypoint bake refuses (too many corners) are listed, not
# failed.
#
# usage: bench/anyangle_vs_reference.sh [--every N] [--algo mesh|waypoints] [SCEN...]
#        (default: every 50th problem, mesh, every map)
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson; the shared
#        maps ../shared/maps (or NAV_SHARED)
set -euo pipefail
. "$(dirname "$0")/require.sh"
every=50 algo=mesh
scens=()
while [ $# -gt 0 ]; do
    case $1 in
    --every) every=$2; shift 2 ;;
    --algo) algo=$2; shift 2 ;;
    *) scens+=("$1"); shift ;;
    esac
done
if [ ${#scens[@]} -eq 0 ]; then
    bench_need_shared 'maps/*/*.scen'
    scens=("$shared"/maps/*/*.scen)
fi
bench_need_libnav
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_cc "$work/check" -I"$here/tests" "$here/bench/anyangle_vs_reference.c" "$here/tests/reference.c"
status=0
for scen in "${scens[@]}"; do
    rc=0
    "$work/check" "${scen%.scen}" "$scen" "$every" "$algo" || rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 3 ] || status=1
done
exit $status
