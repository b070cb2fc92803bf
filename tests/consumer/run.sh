#!/usr/bin/env bash
# Builds tests/consumer/example.c three ways, as users would, and runs each:
#   1. against an installed libnav through find_package(Nav CONFIG)
#   2. against an installed libnav through pkg-config
#   3. from source through add_subdirectory
# usage: run.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
src=$1 build=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
expected="cost 32.314, 30 cells"

cmake -S "$src/tests/consumer" -B "$work/find" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/find" >/dev/null
"$work/find/example" | tee "$work/find.out"
grep -q "$expected" "$work/find.out"

libdir=$(ls -d "$work"/prefix/lib*/pkgconfig | head -n 1)
PKG_CONFIG_PATH="$libdir" cc -o "$work/pc_example" "$src/tests/consumer/example.c" \
    $(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs --static nav)
"$work/pc_example" | grep -q "$expected"

cmake -S "$src/tests/consumer" -B "$work/sub" -DNAV_SOURCE_DIR="$src" >/dev/null
cmake --build "$work/sub" >/dev/null
"$work/sub/example" | grep -q "$expected"
echo "consumer: find_package, pkg-config and add_subdirectory builds all ran"
