# Sourced by the bench scripts: bench_piece SCEN WORK EVERY copies the map of SCEN (NAME.map.scen)
# into WORK/NAME.map.d/ with every EVERYth problem of SCEN beside it, under the names the tools
# derive, and prints the new scenario file's path.
bench_piece() {
    local scen=$1 work=$2 every=$3
    local map=${scen%.scen}
    local name
    name=$(basename "$map")
    mkdir -p "$work/$name.d"
    cp "$map" "$work/$name.d/$name"
    { head -n 1 "$scen"; tail -n +2 "$scen" | awk -v n="$every" 'NR % n == 1 || n == 1'; } \
        >"$work/$name.d/$name.scen"
    echo "$work/$name.d/$name.scen"
}
