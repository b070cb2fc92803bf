#!/usr/bin/env bash
# The bytes a mesh query object holds against its mesh's, per map and mode (issue 43's goal: at most
# the mesh's own size, and under 1 MB for a mesh under 1 MB). For each scenario file, `navtool scen
# --algo mesh` (the optimal mode) and `--algo mesh-funnel`, each on a query object of its own that
# answers every problem of the file: the JSON keys bake_bytes (the mesh) and query_bytes (the object
# after the last problem: what the largest search grew it to). Prints a row a map (mesh bytes, then
# per mode the query object's bytes, their ratio to the mesh's, wrong / invalid), then per mode the
# least, median and largest ratio, the maps above 1, and the largest object of a mesh under 1 MB.
#
# usage: bench/query_memory.sh [SCEN...]   (default: every ../shared/maps/*/*.scen)
# needs: a built build/tools/navtool (Release, or NAVTOOL), python3; the shared maps beside the
#        checkout (or NAV_SHARED_DIR), not part of the project
set -euo pipefail
. "$(dirname "$0")/require.sh"
navtool=${NAVTOOL:-$here/build/tools/navtool}
scens=("$@")
if [ ${#scens[@]} -eq 0 ]; then
    bench_need_shared 'maps/*/*.scen'
    scens=("$shared"/maps/*/*.scen)
fi
bench_need_navtool
bench_need_programs python3
for scen in "${scens[@]}"; do
    for algo in mesh mesh-funnel; do
        echo "$algo $("$navtool" scen "$scen" --algo "$algo" --json | tail -n 1)"
    done
done | python3 -c "$(
    cat <<'EOF'
import json, statistics, sys
rows, ratios = {}, {"mesh": [], "mesh-funnel": []}
for line in sys.stdin:
    algo, text = line.split(" ", 1)
    d = json.loads(text)
    rows.setdefault(d["map"], {})[algo] = d
print(f"{'map':24s} {'mesh bytes':>11s} | {'optimal':>10s} {'/ mesh':>6s} w/i | {'funnel':>10s} {'/ mesh':>6s} w/i")
for name, r in rows.items():
    cells = []
    for algo in ("mesh", "mesh-funnel"):
        d = r[algo]
        ratio = d["query_bytes"] / d["bake_bytes"]
        ratios[algo].append((ratio, name, d["bake_bytes"], d["query_bytes"]))
        cells.append(f"{d['query_bytes']:>10,d} {ratio:6.2f} {d['wrong']}/{d['invalid']}")
    print(f"{name:24s} {r['mesh']['bake_bytes']:>11,d} | {cells[0]} | {cells[1]}")
for algo, label in (("mesh", "optimal"), ("mesh-funnel", "funnel")):
    v = sorted(ratios[algo])
    above = [f"{n} {x:.2f}" for x, n, _, _ in v if x > 1]
    small = [q for _, _, b, q in v if b < 1 << 20]
    print(f"{label}: {v[0][0]:.2f} to {v[-1][0]:.2f} times the mesh (median "
          f"{statistics.median(x for x, *_ in v):.2f}); above 1: {len(above)} ({', '.join(above) or 'none'});"
          f" largest for a mesh under 1 MB: {max(small) if small else 0:,d} bytes")
EOF
)"
