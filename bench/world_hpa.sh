#!/usr/bin/env bash
# A big map as one world region, searched flat or through its HPA* bake (see world_hpa.c): random
# queries planned and refined in both worlds, timed and checked. Prints, last, one JSON line.
#
# usage: bench/world_hpa.sh MAP [--queries N] [--cluster C] [--levels L] [--seed X]
# needs: a built build/libnav.a (Release), cc, libspng, libcjson
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -I"$here/nav/include" -I"$here/hpa/include" -I"$here/mesh/include" -I"$here/waypoints/include" \
    -o "$work/world_hpa" "$here/bench/world_hpa.c" "$here/build/libnav.a" $(pkg-config --libs spng libcjson) \
    -lm -pthread
"$work/world_hpa" "$@"
