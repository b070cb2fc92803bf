#!/usr/bin/env bash
# A big map as one world region, searched flat or through its HPA* bake (see world_hpa.c): random
# queries planned and refined in both worlds, timed and checked. Prints, last, one JSON line.
#
# usage: bench/world_hpa.sh MAP [--queries N] [--cluster C] [--levels L] [--seed X]
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson
set -euo pipefail
. "$(dirname "$0")/require.sh"
bench_need_libnav
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_cc "$work/world_hpa" "$here/bench/world_hpa.c"
"$work/world_hpa" "$@"
