#!/usr/bin/env bash
# An any-angle planner (the navmesh's optimal mode, or waypoint point queries) against the brute-force
# reference on a sample of every shared map's scenario problems (see anyangle_vs_reference.c).
# Offline: minutes, not part of CI. Maps the waypoint bake refuses (too many corners) are listed, not
# failed.
#
# usage: bench/anyangle_vs_reference.sh [--every N] [--algo mesh|waypoints] [SCEN...]
#        (default: every 50th problem, mesh, every map)
# needs: a built build/libnav.a (Release), cc, libspng, libcjson
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/shared.sh"
every=50 algo=mesh
scens=()
while [ $# -gt 0 ]; do
    case $1 in
    --every) every=$2; shift 2 ;;
    --algo) algo=$2; shift 2 ;;
    *) scens+=("$1"); shift ;;
    esac
done
[ ${#scens[@]} -gt 0 ] || { need_shared maps; scens=("$shared"/maps/*/*.scen); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -I"$here/nav/include" -I"$here/mesh/include" -I"$here/waypoints/include" -I"$here/tests" -o "$work/check" \
    "$here/bench/anyangle_vs_reference.c" "$here/tests/reference.c" "$here/build/libnav.a" \
    $(pkg-config --libs spng libcjson) -lm -pthread
status=0
for scen in "${scens[@]}"; do
    rc=0
    "$work/check" "${scen%.scen}" "$scen" "$every" "$algo" || rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 3 ] || status=1
done
exit $status
