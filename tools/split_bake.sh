#!/usr/bin/env bash
# A world's bake split over a job runner (docs/worlds.md, "Split bakes"): SHARDS part files, each the
# tables of every SHARDS-th region, baked side by side by GNU parallel (or xargs -P when parallel is
# missing), then linked into one .nav file that is byte for byte the file
# `navtool bake WORLD.json -o OUT.nav` writes in one process.
#
#   tools/split_bake.sh WORLD.json OUT.nav [SHARDS [JOBS]]     (defaults: one shard a core, every core)
#
# NAVTOOL (default: the checkout's build/tools/navtool, found from this script's place, so the script
# runs from any directory; WORLD.json and OUT.nav are relative to the caller's) is the program; PARTS
# (default: a temporary folder, removed when the script ends, whether or not it succeeds) is where the
# part files go, kept when set.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 2 ]; then
    echo "usage: $0 WORLD.json OUT.nav [SHARDS [JOBS]]" >&2
    exit 2
fi
world=$1
out=$2
shards=${3:-$(nproc)}
jobs=${4:-$(nproc)}
navtool=${NAVTOOL:-$here/build/tools/navtool}
if ! command -v "$navtool" >/dev/null; then
    echo "$0: no navtool at $navtool: build it (cmake -S '$here' -B '$here/build' -DCMAKE_BUILD_TYPE=Release" \
        "&& cmake --build '$here/build' -j2) or set NAVTOOL to the program" >&2
    exit 1
fi
if [ -n "${PARTS:-}" ]; then
    parts=$PARTS
    mkdir -p "$parts"
else
    parts=$(mktemp -d)
    trap 'rm -rf "$parts"' EXIT
fi
echo "split bake: $shards shards on $jobs jobs, parts in $parts"

bake_shard() { # its number
    "$navtool" bake "$world" --shard "$1/$shards" -o "$parts/$1.nav" --quiet --threads 1 > /dev/null
}
export -f bake_shard
export world parts navtool shards
start=$(date +%s.%N)
if command -v parallel > /dev/null; then
    parallel --will-cite --halt now,fail=1 -j "$jobs" bake_shard ::: $(seq 0 $((shards - 1)))
else
    seq 0 $((shards - 1)) | xargs -P "$jobs" -I{} bash -c 'bake_shard {}'
fi
parts_done=$(date +%s.%N)
files=()
for k in $(seq 0 $((shards - 1))); do files+=("$parts/$k.nav"); done
"$navtool" bake "$world" --link "${files[@]}" -o "$out" --quiet
end=$(date +%s.%N)
echo "split bake: parts $(awk "BEGIN{printf \"%.2f\", $parts_done - $start}") s, link $(awk "BEGIN{printf \"%.2f\", $end - $parts_done}") s -> $out"
