#!/usr/bin/env bash
# The yardstick of issue 14: Recast's solo-mesh build of each level .obj (RecastDemo's defaults),
# timed by bench/recast_driver.cpp. Recast is built from a checkout of its public repository that
# lives outside this project (never copied in).
#
# usage: bench/recast_build.sh RECAST_CHECKOUT [LEVEL.obj ...] [-- --runs N]
#        (default levels: ../shared/meshes/*.obj; NAV_SHARED_DIR sets where the shared data is)
# needs: g++
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/shared.sh"
recast=${1:?usage: bench/recast_build.sh RECAST_CHECKOUT [LEVEL.obj ...]}
shift
levels=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do levels+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
if [ ${#levels[@]} -eq 0 ]; then
    need_shared meshes
    levels=("$shared"/meshes/*.obj)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -O2 -DNDEBUG -I"$recast/Recast/Include" -o "$work/recast_driver" "$here/bench/recast_driver.cpp" \
    "$recast"/Recast/Source/*.cpp
for level in "${levels[@]}"; do "$work/recast_driver" "$level" "$@"; done
