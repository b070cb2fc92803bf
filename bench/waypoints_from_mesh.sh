#!/usr/bin/env bash
# Waypoint graphs made from navigation meshes against those made from grids: for every shared map,
# the mesh built from its grid (no agent radius) has the grid's convex corners, so the two graphs
# and their tables must be the same (see waypoints_from_mesh.c). Prints a line a map with both
# bakes' sizes and seconds (2 threads). Offline: a few minutes.
#
# usage: bench/waypoints_from_mesh.sh [MAP...]     (default: every ../shared/maps/*/*.map)
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson; the shared
#        maps ../shared/maps (or NAV_SHARED)
set -euo pipefail
. "$(dirname "$0")/require.sh"
maps=("$@")
if [ ${#maps[@]} -eq 0 ]; then
    bench_need_shared 'maps/*/*.map'
    maps=("$shared"/maps/*/*.map)
fi
bench_need_libnav
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_cc "$work/check" "$here/bench/waypoints_from_mesh.c"
status=0
for map in "${maps[@]}"; do
    rc=0
    "$work/check" "$map" || rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 3 ] || status=1
done
exit $status
