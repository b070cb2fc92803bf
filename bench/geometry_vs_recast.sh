#!/usr/bin/env bash
# Issue 14's comparison, in one run: libnav's build from level geometry (bench/geometry_build.c)
# against Recast's (our driver bench/recast_driver.cpp over Recast as Debian ships it, librecast-dev),
# both with RecastDemo's settings (cell 0.3, height 0.2, agent 2.0 high, radius 0.6, climb 0.9,
# slope 45), on each sample scene (../shared/meshes/*.obj) and on the largest scene made of them:
# copies of nav_test.obj side by side in a 16 x 16 arrangement. Each scene is built whole
# (RecastDemo's Sample_SoloMesh; Recast cannot make the big scene whole: its polygon mesh holds 65535
# vertices at most) and in tiles of 128 cells with a border of the radius and 3 (Sample_TileMesh's
# build of each tile, one after another: Recast has no threads), and by libnav whole and in tiles of
# 128, each on 1 and on 2 threads (whole: its stages in bands of rows on the threads). Each builder
# runs N times in a row (1 for the big scene), and the builders take turns in K rounds (3), so that a
# noisy spell of a shared machine falls on all of them; each figure is the fastest of its N x K
# builds. Prints a JSON line a builder and round, then a table. Runs from any directory; its
# programs and the big scene go to a temporary folder, removed when it ends.
#
# usage: bench/geometry_vs_recast.sh [--runs N] [--rounds K] [--copies N]
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, g++, awk, python3, libspng,
#        libcjson; Recast as Debian ships it (apt-get install -y librecast-dev); the sample scenes
#        ../shared/meshes/*.obj
set -euo pipefail
. "$(dirname "$0")/require.sh"
runs=5
rounds=3
copies=16
while [ $# -gt 0 ]; do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --copies) copies=$2; shift 2 ;;
    *) echo "$me: unexpected argument '$1'; usage: $me [--runs N] [--rounds K] [--copies N]" >&2; exit 2 ;;
    esac
done
bench_need_shared 'meshes/*.obj' meshes/nav_test.obj
bench_need_libnav
bench_need_recast
bench_need_programs awk python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench_recast_driver "$work/recast_driver"
bench_cc "$work/geometry_build" "$here/bench/geometry_build.c"

# copies x copies of nav_test.obj, each moved by the scene's extent (and a metre) in x and z
big="$work/nav_test_${copies}x${copies}.obj"
awk -v n="$copies" '
    $1 == "v" { nv++; x[nv] = $2; y[nv] = $3; z[nv] = $4
                if (nv == 1 || $2 < x0) x0 = $2; if (nv == 1 || $2 > x1) x1 = $2
                if (nv == 1 || $4 < z0) z0 = $4; if (nv == 1 || $4 > z1) z1 = $4 }
    $1 == "f" { nf++; face[nf] = $0 }
    END {
        dx = x1 - x0 + 1; dz = z1 - z0 + 1
        for (j = 0; j < n; j++) for (i = 0; i < n; i++) {
            for (k = 1; k <= nv; k++) printf "v %.4f %.4f %.4f\n", x[k] + i * dx, y[k], z[k] + j * dz
            base = (j * n + i) * nv
            for (k = 1; k <= nf; k++) {
                m = split(face[k], part); line = "f"
                for (p = 2; p <= m; p++) { split(part[p], idx, "/"); line = line " " (idx[1] + base) }
                print line
            }
        }
    }' "$shared/meshes/nav_test.obj" > "$big"

levels=("$shared"/meshes/*.obj "$big")
for level in "${levels[@]}"; do
    r=$runs
    [ "$level" = "$big" ] && r=1
    for round in $(seq "$rounds"); do
        if [ "$level" != "$big" ]; then
            "$work/recast_driver" "$level" --runs "$r" | sed 's/^{/{"builder":"recast",/'
        fi
        "$work/recast_driver" "$level" --runs "$r" --tile 128 | sed 's/^{/{"builder":"recast",/'
        "$work/geometry_build" "$level" --runs "$r" --threads 1
        "$work/geometry_build" "$level" --runs "$r" --threads 2
        "$work/geometry_build" "$level" --runs "$r" --tile 128 --threads 1
        "$work/geometry_build" "$level" --runs "$r" --tile 128 --threads 2
    done
done | tee "$work/results.jsonl"

python3 "$here/bench/geometry_table.py" "$work/results.jsonl"
