#!/usr/bin/env bash
# Builds the consumer programs (tests/consumer) as users would, and runs each:
#   1. against an installed libnav through find_package(Nav CONFIG)
#   2. against an installed libnav through pkg-config (nav, nav-bake), with no --static
#   3. from source through add_subdirectory
# runtime_only loads a .nav that the installed navtool baked, linking the run time alone; stb_user
# compiles stb_ds itself and links the bake (no clash with libnav's copy).
# usage: run.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
src=$1 build=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
expected="cost 32.314, 30 cells"
baked="$work/terrain.nav"
"$work/prefix/bin/navtool" bake "$src/tests/data/terrain.txt" -o "$baked" --quiet
baked_expected="cost 14.000, 15 cells" # terrain.txt: along the top row and the right column, all plain
stb_expected="100 of my own, a mesh of"

check() { # program, expected text, arguments...
    local program=$1 want=$2
    shift 2
    "$program" "$@" | tee "$work/out.txt"
    grep -q "$want" "$work/out.txt" || { echo "consumer: $program printed no \"$want\"" >&2; exit 1; }
}

cmake -S "$src/tests/consumer" -B "$work/find" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/find" >/dev/null
check "$work/find/example" "$expected"
check "$work/find/runtime_only" "$baked_expected" "$baked" 0 0 9 5
check "$work/find/stb_user" "$stb_expected"

libdir=$(ls -d "$work"/prefix/lib*/pkgconfig | head -n 1)
export PKG_CONFIG_PATH="$libdir"
runtime_libs=$(pkg-config --libs nav)
case "$runtime_libs" in
*spng* | *cjson*) echo "consumer: pkg-config --libs nav names the bake's dependencies: $runtime_libs" >&2; exit 1 ;;
esac
cc -o "$work/pc_example" "$src/tests/consumer/example.c" $(pkg-config --cflags nav) $runtime_libs
check "$work/pc_example" "$expected"
cc -o "$work/pc_runtime_only" "$src/tests/consumer/runtime_only.c" $(pkg-config --cflags nav) $runtime_libs
check "$work/pc_runtime_only" "$baked_expected" "$baked" 0 0 9 5
stb_dir=/usr/include
[ -e /usr/include/stb/stb_ds.h ] || stb_dir=/usr/include/stb
cc -o "$work/pc_stb_user" "$src/tests/consumer/stb_user.c" -I"$stb_dir" $(pkg-config --cflags --libs nav-bake)
check "$work/pc_stb_user" "$stb_expected"
unset PKG_CONFIG_PATH

cmake -S "$src/tests/consumer" -B "$work/sub" -DNAV_SOURCE_DIR="$src" >/dev/null
cmake --build "$work/sub" >/dev/null
check "$work/sub/example" "$expected"
check "$work/sub/stb_user" "$stb_expected"
echo "consumer: find_package, pkg-config and add_subdirectory builds all ran"
