"""The table of bench/geometry_vs_recast.sh: its JSON lines (one a builder and round) side by side, a row a
scene, each figure the fastest of a builder's rounds."""
import json
import os
import sys


def pick(rows, builder, tile, threads=None):
    """The fastest of a builder's rounds."""
    best = None
    for r in rows:
        if r.get("builder") == builder and r.get("tile") == tile and (threads is None or r.get("threads") == threads):
            if best is None or r["total_ms"] < best["total_ms"]:
                best = r
    return best


def main(path):
    scenes = {}
    for line in open(path):
        r = json.loads(line)
        scenes.setdefault(os.path.basename(r.get("level") or r.get("scene")), []).append(r)
    print()
    print("| scene | triangles | Recast whole ms | libnav whole, 1 thread | ratio | libnav whole, 2 threads | ratio | "
          "Recast tiles ms | libnav tiles, 1 thread | ratio | libnav tiles, 2 threads | ratio | "
          "polygons Recast / libnav | walkable m2 Recast / libnav | area |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, rows in scenes.items():
        rw, rt = pick(rows, "recast", 0), pick(rows, "recast", 128)
        lw, lw2 = pick(rows, "libnav", 0, 1), pick(rows, "libnav", 0, 2)
        l1, l2 = pick(rows, "libnav", 128, 1), pick(rows, "libnav", 128, 2)
        if rw:
            whole = (f"{rw['total_ms']:.1f} | {lw['total_ms']:.1f} | {lw['total_ms'] / rw['total_ms']:.2f} | "
                     f"{lw2['total_ms']:.1f} | {lw2['total_ms'] / rw['total_ms']:.2f}")
            ref, ours = rw, lw  # whole against whole
        else:
            whole = f"(cannot) | {lw['total_ms']:.1f} | - | {lw2['total_ms']:.1f} | -"
            ref, ours = rt, l1  # tiles against tiles
        print(f"| {name} | {lw['triangles']:,} | {whole} | {rt['total_ms']:.1f} | {l1['total_ms']:.1f} | "
              f"{l1['total_ms'] / rt['total_ms']:.2f} | {l2['total_ms']:.1f} | {l2['total_ms'] / rt['total_ms']:.2f} | "
              f"{ref['polygons']} / {ours['polygons']} | {ref['walkable_area']:.2f} / {ours['walkable_m2']:.2f} | "
              f"{ours['walkable_m2'] / ref['walkable_area'] - 1:+.2%} |")


if __name__ == "__main__":
    main(sys.argv[1])
