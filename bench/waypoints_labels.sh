#!/usr/bin/env bash
# Hub labels' size and bake cost on chains and lattices (the graphs pruned landmark labelling finds
# hardest) and on the shared maps that keep labels (above 4096 corners): one row a graph, each bake
# in its own process under /usr/bin/time -v for its peak memory. See waypoints_labels.c.
#
# usage: bench/waypoints_labels.sh [--threads T] [--pairs P] [GRAPH...]
#   GRAPH  "chain N", "lattice W H", "wlattice W H" or "map FILE" (one argument each, quoted);
#          default: chains of 8,192 to 65,535, lattices of 64 x 80 to 256 x 255 (unit and random
#          link costs), and the shared maps AcrosstheCape, Berlin_0_1024, TheFrozenSea, 8room_000
#          and maze512-1-0
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson, python3,
#        /usr/bin/time; the shared maps ../shared/maps (or NAV_SHARED) for the default maps
set -euo pipefail
. "$(dirname "$0")/require.sh"
threads=2 pairs=1000
graphs=()
while [ $# -gt 0 ]; do
    case $1 in
    --threads) threads=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    *) graphs+=("$1"); shift ;;
    esac
done
if [ ${#graphs[@]} -eq 0 ]; then
    graphs=("chain 8192" "chain 16384" "chain 32768" "chain 65535"
            "lattice 64 80" "lattice 128 128" "lattice 256 255" "wlattice 64 80" "wlattice 128 128"
            "wlattice 256 255")
    bench_need_shared 'maps/*/*.map'
    for map in AcrosstheCape Berlin_0_1024 TheFrozenSea 8room_000 maze512-1-0; do
        graphs+=("map $(ls "$shared"/maps/*/"$map".map | head -n 1)")
    done
fi
bench_need_libnav
bench_need_programs python3 /usr/bin/time
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_cc "$work/labels" -I"$here/waypoints/src" -I"$here/nav/src" "$here/bench/waypoints_labels.c"
status=0
for graph in "${graphs[@]}"; do
    rc=0
    # shellcheck disable=SC2086 # a graph is its kind and its numbers
    /usr/bin/time -v -o "$work/time" "$work/labels" $graph --threads "$threads" --pairs "$pairs" \
        >"$work/row" || rc=$?
    [ $rc -eq 0 ] || status=1
    kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time")
    python3 -c 'import json, sys; r = json.loads(sys.argv[1]); r["peak_mb"] = int(sys.argv[2]) / 1024; print(json.dumps(r))' \
        "$(tail -n 1 "$work/row")" "$kb" >>"$work/results"
done
python3 - "$work/results" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
print("| Graph | Waypoints | Links | Bake s | Bake CPU s | Peak MB | Entries / waypoint | Longest label | Wrong |")
print("|---|---|---|---|---|---|---|---|---|")
for r in rows:
    if "failed" in r:
        print(f"| {r['graph']} | failed: {r['failed']} | | | | | | | |")
        continue
    print(f"| {r['graph']} | {r['waypoints']:,} | {r['links']:,} | {r['bake_s']:.2f} | {r['bake_cpu_s']:.2f} "
          f"| {r['peak_mb']:.0f} | {r['entries_per_waypoint']:.1f} | {r['longest_label']:,} | {r['wrong']} of {r['pairs']} |")
PY
exit $status
