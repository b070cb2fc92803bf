# Sourced by the bench scripts: what a script needs, each check failing with a message that says what
# is missing, where it was looked for and how to get it; and the compiler lines that build a bench
# program over the built libraries or over Debian's Recast. Everything is found from the script's own
# place, so a script runs from any directory.
#
# Sets: here (the checkout), me (the script's name, for messages), shared (the shared data: maps,
# meshes and the yardstick, kept outside the project beside the checkout as ../shared, or
# NAV_SHARED_DIR, as the tests' CMake variable of that name; NAV_SHARED, its older name, too).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
me=bench/$(basename "$0")
shared=${NAV_SHARED_DIR:-${NAV_SHARED:-$(dirname "$here")/shared}}
build_hint="cmake -S '$here' -B '$here/build' -DCMAKE_BUILD_TYPE=Release && cmake --build '$here/build' -j2"

bench_fail() {
    echo "$me: $*" >&2
    exit 1
}

# bench_need_shared PATH...: files (or globs) of the shared data, relative to its folder
bench_need_shared() {
    local path
    for path in "$@"; do
        compgen -G "$shared/$path" >/dev/null ||
            bench_fail "needs the shared data's $path, expected at $shared/$path. The shared folder" \
                "(maps, meshes, bench/refastar.c) is not part of the project: it is kept beside the" \
                "checkout as ../shared; put it there or set NAV_SHARED_DIR to the folder that holds it"
    done
}

bench_need_programs() {
    local program
    for program in "$@"; do
        command -v "$program" >/dev/null || bench_fail "needs $program, not found on PATH"
    done
}

# The libraries of a Release build in build/ (the run time and the bake)
bench_need_libnav() {
    local lib
    for lib in libnav.a libnav-bake.a; do
        [ -f "$here/build/$lib" ] ||
            bench_fail "needs $here/build/$lib: build it first: $build_hint"
    done
}

# navtool: $NAVTOOL, by default the Release build's
bench_need_navtool() {
    [ -x "$navtool" ] ||
        bench_fail "needs navtool, expected at $navtool: build it first ($build_hint) or set NAVTOOL to" \
            "the program"
}

# Recast as Debian ships it (librecast-dev: headers in /usr/include/recastnavigation, libRecast)
recast_include=/usr/include/recastnavigation
bench_need_recast() {
    bench_need_programs g++
    # (g++ -print-file-name gives back the bare name when no library folder holds it)
    if [ ! -f "$recast_include/Recast.h" ] || [ "$(g++ -print-file-name=libRecast.so)" = libRecast.so ]
    then
        bench_fail "needs Recast's headers ($recast_include/Recast.h) and library (libRecast.so)," \
            "from Debian's package librecast-dev: install it with 'apt-get install -y librecast-dev'" \
            "(as root)"
    fi
}

# bench_cc OUT SOURCE...: a C bench program over build/libnav-bake.a and build/libnav.a (every
# module's public headers, and what the bake links: libspng, cJSON)
bench_cc() {
    local out=$1 include
    shift
    local flags=()
    for include in "$here"/*/include; do flags+=("-I$include"); done
    bench_need_programs cc pkg-config
    cc -O2 "${flags[@]}" -o "$out" "$@" "$here/build/libnav-bake.a" "$here/build/libnav.a" \
        $(pkg-config --libs spng libcjson) -lm -pthread
}

# bench_recast_driver OUT: bench/recast_driver.cpp (ours) over Debian's Recast
bench_recast_driver() {
    g++ -O2 -DNDEBUG -I"$recast_include" -o "$1" "$here/bench/recast_driver.cpp" -lRecast
}

# bench_crowd_detour OUT: bench/crowd_detour.cpp (ours) over Debian's Recast, Detour and DetourCrowd
bench_crowd_detour() {
    local lib
    [ -f "$recast_include/DetourCrowd.h" ] ||
        bench_fail "needs DetourCrowd's header ($recast_include/DetourCrowd.h), from Debian's package" \
            "librecast-dev: install it with 'apt-get install -y librecast-dev' (as root)"
    for lib in libDetour.so libDetourCrowd.so; do
        [ "$(g++ -print-file-name=$lib)" != $lib ] ||
            bench_fail "needs $lib, from Debian's package librecast-dev: install it with" \
                "'apt-get install -y librecast-dev' (as root)"
    done
    g++ -O2 -DNDEBUG -I"$recast_include" -o "$1" "$here/bench/crowd_detour.cpp" -lDetourCrowd -lDetour -lRecast
}

# bench_refastar OUT: the yardstick, ../shared/bench/refastar.c
bench_refastar() {
    bench_need_shared bench/refastar.c
    bench_need_programs cc
    cc -O2 -o "$1" "$shared/bench/refastar.c" -lm
}
