# Sourced by the bench scripts that read the shared benchmark data, which is not part of the project
# (Moving AI maps and scenarios under maps/SET/, level meshes under meshes/, refastar.c under bench/):
# $NAV_SHARED_DIR (or NAV_SHARED, its older name), by default ../shared beside the source tree, where
# CMake's NAV_SHARED_DIR looks too. `need_shared PART...` stops the script, saying which part is
# missing, when one is not there. Expects $here, the source tree.
shared=${NAV_SHARED_DIR:-${NAV_SHARED:-$here/../shared}}
need_shared() {
    local part
    for part in "$@"; do
        if [ ! -e "$shared/$part" ]; then
            echo "$(basename "$0"): $shared/$part not found: the benchmarks read the shared data (set NAV_SHARED_DIR)" >&2
            exit 1
        fi
    done
}
