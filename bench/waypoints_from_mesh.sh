#!/usr/bin/env bash
# Waypoint graphs made from navigation meshes against those made from grids: for every shared map,
# the mesh built from its grid (no agent radius) has the grid's convex corners, so the two graphs
# and their tables must be the same (see waypoints_from_mesh.c). Prints a line a map with both
# bakes' sizes and seconds (2 threads). Offline: a few minutes.
#
# usage: bench/waypoints_from_mesh.sh [MAP...]     (default: every ../shared/maps/*/*.map)
# needs: a built build/libnav.a (Release), cc, libspng, libcjson
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/shared.sh"
maps=("$@")
[ ${#maps[@]} -gt 0 ] || { need_shared maps; maps=("$shared"/maps/*/*.map); }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -I"$here/nav/include" -I"$here/mesh/include" -I"$here/waypoints/include" -o "$work/check" \
    "$here/bench/waypoints_from_mesh.c" "$here/build/libnav.a" $(pkg-config --libs spng libcjson) -lm -pthread
status=0
for map in "${maps[@]}"; do
    rc=0
    "$work/check" "$map" || rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 3 ] || status=1
done
exit $status
