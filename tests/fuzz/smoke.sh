#!/usr/bin/env bash
# Fuzz smoke: builds every libFuzzer harness here with clang (AddressSanitizer +
# UndefinedBehaviorSanitizer, every library source coverage-instrumented), writes each one's seeds,
# replays them, then fuzzes each for FUZZ_SECONDS (default 60). Fails on the first crash, trap,
# sanitizer report or leak; the input that caused it is left in $FUZZ_DIR/<harness>/.
#
#   tests/fuzz/smoke.sh                      # from the repository root
#   FUZZ_SECONDS=600 tests/fuzz/smoke.sh     # a longer run
#   FUZZ_DIR=/tmp/fz tests/fuzz/smoke.sh     # where builds and corpora go (default: a temp dir)
#
# Needs clang, its fuzzer runtime (Debian 12: clang libclang-rt-14-dev), pkg-config, libspng-dev,
# libcjson-dev, libstb-dev.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${FUZZ_SECONDS:-60}
dir=${FUZZ_DIR:-$(mktemp -d)}
cc=${CLANG:-clang}
mkdir -p "$dir"

stb_prefixed=0
[ -e /usr/include/stb/stb_ds.h ] && stb_prefixed=1
common=(-g -std=gnu11 -DNAV_STB_PREFIXED=$stb_prefixed -Inav/include -Inav/src -Inav/bake -Ihpa/include -Ihpa/src
        -Imesh/include -Imesh/src -Imesh/bake -Iwaypoints/include -Iwaypoints/src -Itests -I/usr/include/stb $(pkg-config --cflags spng libcjson)
        -DNAV_FUZZ_WORLD_DIR="\"$PWD/data/worlds/village\"")
srcs=(nav/src/*.c hpa/src/*.c mesh/src/*.c waypoints/src/*.c nav/bake/*.c hpa/bake/*.c mesh/bake/*.c waypoints/bake/*.c)
libs=($(pkg-config --libs spng libcjson) -lm -pthread)

# each harness and the longest input it is fed
harnesses=(fuzz_container fuzz_loaders fuzz_hpa fuzz_nav fuzz_mesh fuzz_geometry fuzz_waypoints fuzz_world)
# sources beyond the library a harness needs
declare -A extra=([fuzz_waypoints]=tests/reference.c [fuzz_loaders]="tests/mapgen.c tests/levelgen.c")
declare -A max_len=([fuzz_container]=8192 [fuzz_loaders]=65536 [fuzz_hpa]=40000 [fuzz_nav]=40000 [fuzz_mesh]=40000 [fuzz_geometry]=2701 [fuzz_waypoints]=8192 [fuzz_world]=16384)

for h in "${harnesses[@]}"; do
    work="$dir/$h"
    mkdir -p "$work/seeds" "$work/corpus"
    echo "== $h: build"
    $cc -O1 "${common[@]}" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        "tests/fuzz/$h.c" ${extra[$h]:-} "${srcs[@]}" "${libs[@]}" -o "$work/$h"
    if grep -q 'static void make_seeds(const char' "tests/fuzz/$h.c"; then
        $cc -O1 "${common[@]}" -DNAV_FUZZ_MAKE_SEEDS "tests/fuzz/$h.c" ${extra[$h]:-} "${srcs[@]}" "${libs[@]}" \
            -o "$work/make_seeds"
        "$work/make_seeds" "$work/seeds"
    fi
    if [ "$h" = fuzz_loaders ]; then # (its seed writer makes the maps, scenarios and level itself)
        for f in tests/data/*.txt; do (printf '\001'; cat "$f") > "$work/seeds/$(basename "$f")"; done
    fi
    echo "== $h: $(ls "$work/seeds" | wc -l) seeds, ${seconds} s"
    if ! (cd "$work" && ./"$h" corpus seeds -max_len="${max_len[$h]}" -max_total_time="$seconds" \
              -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 >log 2>&1); then
        tail -n 60 "$work/log" >&2
        echo "fuzz smoke: $h failed; its log and the input are in $work" >&2
        exit 1
    fi
    grep -E '^#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss_mb' "$work/log" | tail -n 3
done
echo "fuzz smoke: ${#harnesses[@]} harnesses, ${seconds} s each, nothing found"
