#!/usr/bin/env bash
# The open world of issue 13 (see open_world.c): T x T tiles of S x S generated cells, each a grid
# region, joined where they touch, baked on every core; random queries across it timed in parts and
# checked (every path a walk of the one grid; a sample against A* on that grid). Prints, last, one
# JSON line: tiles, cells, bake_s, queries, wrong, invalid, mean_ms, p95_ms, locate_ms, plan_ms,
# legs_ms, mean_cost_ratio (against A*'s 8-connected optimum, on the sample), peak_rss_mb.
#
# usage: bench/open_world.sh [--tiles T] [--side S] [--queries N] [--sample M] [--threads K]
#                            [--seed X] [--join entrances|every] [--long N]
#        (defaults: 64 tiles, 256 cells, 1000 queries, a sample of 100; --long: see open_world.c)
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson
set -euo pipefail
. "$(dirname "$0")/require.sh"
bench_need_libnav
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_cc "$work/open_world" "$here/bench/open_world.c"
"$work/open_world" "$@"
