#!/usr/bin/env bash
# The optimal mesh mode against the brute-force reference on a sample of every shared map's
# scenario problems (see mesh_vs_reference.c). Offline: minutes, not part of CI.
#
# usage: bench/mesh_vs_reference.sh [--every N] [SCEN...]   (default: every 50th problem, every map)
# needs: a built build/libnav.a (Release), cc, libspng
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${NAV_SHARED:-$here/../shared}
every=50
scens=()
while [ $# -gt 0 ]; do
    case $1 in
    --every) every=$2; shift 2 ;;
    *) scens+=("$1"); shift ;;
    esac
done
[ ${#scens[@]} -gt 0 ] || scens=("$shared"/maps/*/*.scen)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -I"$here/nav/include" -I"$here/mesh/include" -I"$here/tests" -o "$work/check" \
    "$here/bench/mesh_vs_reference.c" "$here/tests/reference.c" "$here/build/libnav.a" \
    $(pkg-config --libs spng) -lm
status=0
for scen in "${scens[@]}"; do
    "$work/check" "${scen%.scen}" "$scen" "$every" || status=1
done
exit $status
