#!/usr/bin/env bash
# Whole levels built on 1 and on 2 threads, in turns (bench/busy_build.c), on a machine kept busy by
# --load K programs that spin (K = the cores by default: every core busy) and with none: a build on 2
# threads must never be slower than on 1 (issue 43, defect 11).
#
# usage: bench/busy_build.sh [--runs N] [--load K] [LEVEL.obj ...]   (default: ../shared/meshes/*.obj)
# needs: a built build/libnav.a and build/libnav-bake.a (Release), cc, libspng, libcjson
set -euo pipefail
. "$(dirname "$0")/require.sh"
runs=20
load=$(nproc)
levels=()
while [ $# -gt 0 ]; do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    --load) load=$2; shift 2 ;;
    -*) echo "$me: unexpected argument '$1'; usage: $me [--runs N] [--load K] [LEVEL.obj ...]" >&2; exit 2 ;;
    *) levels+=("$1"); shift ;;
    esac
done
if [ ${#levels[@]} -eq 0 ]; then
    bench_need_shared 'meshes/*.obj'
    levels=("$shared"/meshes/*.obj)
fi
bench_need_libnav
work=$(mktemp -d)
spinners=()
cleanup() {
    [ ${#spinners[@]} -gt 0 ] && kill "${spinners[@]}" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
bench_cc "$work/busy_build" "$here/bench/busy_build.c"
echo "== no load"
for level in "${levels[@]}"; do "$work/busy_build" "$level" --runs "$runs"; done
echo "== $load programs spinning"
for _ in $(seq "$load"); do
    (while :; do :; done) &
    spinners+=($!)
done
for level in "${levels[@]}"; do "$work/busy_build" "$level" --runs "$runs"; done
