#!/usr/bin/env bash
# Checks what a shared build of libnav exports and needs (issue 43): libnav.so exports exactly the
# functions the headers mark NAV_API, libnav-bake.so exactly those marked NAV_BAKE_API, nothing else
# (no nav__ internals, no stb_ds), and the run time needs neither libspng nor cJSON.
# usage: tests/check_exports.sh SHARED_BUILD_DIR   (configured with -DBUILD_SHARED_LIBS=ON)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: check_exports.sh SHARED_BUILD_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

# the names each header marks, one a line
declared() { # macro
    cat "$src"/*/include/nav/*.h | tr '\n' ' ' | grep -oE "\b$1 [^;{]*\(" |
        grep -oE '\bnav_[a-z0-9_]+ *\($' | tr -d ' (' | sort -u
}
exported() { # library
    nm -D --defined-only "$build/$1" | awk '{print $NF}' | sed 's/@.*//' | sort -u
}

for pair in "libnav.so NAV_API" "libnav-bake.so NAV_BAKE_API"; do
    set -- $pair
    [ -e "$build/$1" ] || { echo "check_exports: $build/$1 not found (a shared build?)" >&2; exit 1; }
    declared "$2" >"$work/declared"
    exported "$1" >"$work/exported"
    if grep -vE '^nav_[a-z0-9]' "$work/exported" >"$work/bad"; then
        echo "check_exports: $1 exports names that are not the API:" >&2
        sed 's/^/  /' "$work/bad" >&2
        fail=1
    fi
    if ! diff -u "$work/declared" "$work/exported" >"$work/diff"; then
        echo "check_exports: $1's exports differ from the functions marked $2 (- declared, + exported):" >&2
        grep -E '^[-+]nav' "$work/diff" | sed 's/^/  /' >&2
        fail=1
    fi
    echo "check_exports: $1: $(wc -l <"$work/exported") functions, all marked $2"
done
if readelf -d "$build/libnav.so" | grep NEEDED | grep -Ei 'spng|cjson'; then
    echo "check_exports: the run time needs a bake dependency" >&2
    fail=1
fi
echo "check_exports: libnav.so needs$(readelf -d "$build/libnav.so" | grep NEEDED | grep -oE '\[[^]]+\]' | tr -d '[]' | sed 's/^/ /' | tr -d '\n')"
exit $fail
