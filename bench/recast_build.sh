#!/usr/bin/env bash
# The yardstick of issue 14: Recast's solo-mesh build (RecastDemo's defaults) of each level .obj, or
# its tiled build, stage by stage, timed by our own driver bench/recast_driver.cpp over Recast as
# Debian ships it (librecast-dev: apt-get install -y librecast-dev). Prints one JSON line a level.
#
# usage: bench/recast_build.sh [LEVEL.obj ...] [-- --runs N] [-- --tile CELLS]
#        (default levels: ../shared/meshes/*.obj; the driver's options after --)
# needs: g++, librecast-dev
set -euo pipefail
. "$(dirname "$0")/require.sh"
levels=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do levels+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
if [ ${#levels[@]} -eq 0 ]; then
    bench_need_shared 'meshes/*.obj'
    levels=("$shared"/meshes/*.obj)
fi
bench_need_recast
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_recast_driver "$work/recast_driver"
for level in "${levels[@]}"; do "$work/recast_driver" "$level" "$@"; done
