// The yardstick of issue 14: Recast's solo-mesh build (RecastDemo's defaults, watershed regions) on
// a level .obj, or its tiled build (Sample_TileMesh's tiles, one after another), timed stage by
// stage, with the walkable area of its polygon mesh. Our own driver over Recast's public API
// (Recast.h), built against Recast as Debian ships it (librecast-dev, 1.5.1+git20210215.e75adf8:
// headers in /usr/include/recastnavigation, -lRecast) by bench/recast_build.sh and
// bench/geometry_vs_recast.sh; it uses only calls that version and later ones share.
//
// usage: recast_driver LEVEL.obj [--runs N] [--tile CELLS] [--each 1]
// prints, for the fastest of N runs (5 by default), one JSON line: triangles, cells, the
// milliseconds of each stage and in all, polygons, vertices, walkable area (square world units, the
// polygon mesh's polygons on the xz plane). With --each 1: instead, each run's milliseconds and
// minor page faults on one line, as bench/first_build.c prints them (the first build of a process
// against the next: bench/first_build.sh --recast).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "Recast.h"
#include "obj_reader.h"

namespace
{

double ms_since(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

struct result {
    double stage[8] = {}; // rasterise, filter, compact, erode, regions, contours, polymesh, detail
    double total = 0, area = 0;
    int polys = 0, verts = 0, width = 0, height = 0;
};

const char *const stage_names[8] = {"rasterize", "filter",   "compact",  "erode",
                                    "regions",   "contours", "polymesh", "detail"};

// One Recast build (RecastDemo's Sample_SoloMesh, or one tile of Sample_TileMesh) of the triangles
// `tris` over the box [bmin, bmax] grown by `border` cells; its stage times, polygons and walkable
// area (the border's own is none: Recast leaves it out) added to r.
bool build_box(const std::vector<float> &verts, const std::vector<int> &tris, const float *bmin,
               const float *bmax, int border, result &r)
{
    rcContext ctx(false);
    rcConfig cfg;
    std::memset(&cfg, 0, sizeof cfg);
    // RecastDemo's defaults (Sample::resetCommonSettings)
    const float cell = 0.3f, cell_height = 0.2f, agent_height = 2.0f, radius = 0.6f, climb = 0.9f,
                slope = 45.0f;
    cfg.cs = cell;
    cfg.ch = cell_height;
    cfg.walkableSlopeAngle = slope;
    cfg.walkableHeight = static_cast<int>(std::ceil(agent_height / cfg.ch));
    cfg.walkableClimb = static_cast<int>(std::floor(climb / cfg.ch));
    cfg.walkableRadius = static_cast<int>(std::ceil(radius / cfg.cs));
    cfg.maxEdgeLen = static_cast<int>(12.0f / cell);
    cfg.maxSimplificationError = 1.3f;
    cfg.minRegionArea = 8 * 8;
    cfg.mergeRegionArea = 20 * 20;
    cfg.maxVertsPerPoly = 6;
    cfg.detailSampleDist = cell * 6.0f;
    cfg.detailSampleMaxError = cell_height * 1.0f;
    const int nv = static_cast<int>(verts.size() / 3), nt = static_cast<int>(tris.size() / 3);
    cfg.borderSize = border;
    for (int k = 0; k < 3; k++) cfg.bmin[k] = bmin[k], cfg.bmax[k] = bmax[k];
    cfg.bmin[0] -= border * cfg.cs, cfg.bmin[2] -= border * cfg.cs;
    cfg.bmax[0] += border * cfg.cs, cfg.bmax[2] += border * cfg.cs;
    rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);

    auto all = std::chrono::steady_clock::now();
    auto t = all;
    rcHeightfield *hf = rcAllocHeightfield();
    std::vector<unsigned char> areas(static_cast<size_t>(nt), 0);
    bool ok = hf && rcCreateHeightfield(&ctx, *hf, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch);
    if (ok) {
        rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, verts.data(), nv, tris.data(), nt,
                                areas.data());
        ok = rcRasterizeTriangles(&ctx, verts.data(), nv, tris.data(), areas.data(), nt, *hf,
                                  cfg.walkableClimb);
    }
    r.stage[0] += ms_since(t), t = std::chrono::steady_clock::now();
    if (ok) {
        rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *hf);
        rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf);
        rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *hf);
    }
    r.stage[1] += ms_since(t), t = std::chrono::steady_clock::now();
    rcCompactHeightfield *chf = rcAllocCompactHeightfield();
    ok = ok && chf && rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf, *chf);
    rcFreeHeightField(hf);
    r.stage[2] += ms_since(t), t = std::chrono::steady_clock::now();
    ok = ok && rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf);
    r.stage[3] += ms_since(t), t = std::chrono::steady_clock::now();
    ok = ok && rcBuildDistanceField(&ctx, *chf) &&
         rcBuildRegions(&ctx, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea);
    r.stage[4] += ms_since(t), t = std::chrono::steady_clock::now();
    rcContourSet *cset = rcAllocContourSet();
    ok = ok && cset && rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset);
    r.stage[5] += ms_since(t), t = std::chrono::steady_clock::now();
    rcPolyMesh *pmesh = rcAllocPolyMesh();
    ok = ok && pmesh && rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *pmesh);
    r.stage[6] += ms_since(t), t = std::chrono::steady_clock::now();
    rcPolyMeshDetail *dmesh = rcAllocPolyMeshDetail();
    ok = ok && dmesh &&
         rcBuildPolyMeshDetail(&ctx, *pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *dmesh);
    r.stage[7] += ms_since(t);
    r.total += ms_since(all);
    if (ok) { // the walkable area: each polygon on the xz plane (vertices in cells from bmin)
        r.polys += pmesh->npolys, r.verts += pmesh->nverts;
        for (int i = 0; i < pmesh->npolys; i++) {
            const unsigned short *p = &pmesh->polys[i * 2 * pmesh->nvp];
            if (pmesh->areas[i] == RC_NULL_AREA) continue;
            int n = 0;
            while (n < pmesh->nvp && p[n] != RC_MESH_NULL_IDX) n++;
            double twice = 0;
            for (int k = 0; k < n; k++) {
                const unsigned short *a = &pmesh->verts[p[k] * 3], *b = &pmesh->verts[p[(k + 1) % n] * 3];
                twice += static_cast<double>(a[0]) * b[2] - static_cast<double>(b[0]) * a[2];
            }
            r.area += std::fabs(twice) * 0.5 * cfg.cs * cfg.cs;
        }
    }
    rcFreeCompactHeightfield(chf);
    rcFreeContourSet(cset);
    rcFreePolyMesh(pmesh);
    rcFreePolyMeshDetail(dmesh);
    return ok;
}

// The whole level: one box (tile 0), or RecastDemo's tiles of `tile` cells with a border of the
// radius and 3 (each built alone, one after another, from the triangles meeting it).
bool build(const std::vector<float> &verts, const std::vector<int> &tris, int tile, result &r)
{
    float bmin[3], bmax[3];
    rcCalcBounds(verts.data(), static_cast<int>(verts.size() / 3), bmin, bmax);
    rcCalcGridSize(bmin, bmax, 0.3f, &r.width, &r.height);
    if (tile == 0) return build_box(verts, tris, bmin, bmax, 0, r);
    const float cs = 0.3f, size = tile * cs;
    const int border = static_cast<int>(std::ceil(0.6f / cs)) + 3;
    const int tx = (r.width + tile - 1) / tile, tz = (r.height + tile - 1) / tile;
    // each tile's triangles (chosen before the clock starts, as RecastDemo's chunky mesh does)
    std::vector<std::vector<int>> lists(static_cast<size_t>(tx * tz));
    for (size_t i = 0; i < tris.size(); i += 3) {
        float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
        for (int k = 0; k < 3; k++) {
            const float *v = &verts[static_cast<size_t>(tris[i + k]) * 3];
            lo[0] = std::min(lo[0], v[0]), hi[0] = std::max(hi[0], v[0]);
            lo[1] = std::min(lo[1], v[2]), hi[1] = std::max(hi[1], v[2]);
        }
        const float pad = (border + 1) * cs;
        int x0 = std::max(0, static_cast<int>(std::floor((lo[0] - pad - bmin[0]) / size))),
            x1 = std::min(tx - 1, static_cast<int>(std::floor((hi[0] + pad - bmin[0]) / size))),
            z0 = std::max(0, static_cast<int>(std::floor((lo[1] - pad - bmin[2]) / size))),
            z1 = std::min(tz - 1, static_cast<int>(std::floor((hi[1] + pad - bmin[2]) / size)));
        for (int z = z0; z <= z1; z++)
            for (int x = x0; x <= x1; x++)
                lists[static_cast<size_t>(z * tx + x)].insert(lists[static_cast<size_t>(z * tx + x)].end(),
                                                              {tris[i], tris[i + 1], tris[i + 2]});
    }
    bool ok = true;
    for (int z = 0; z < tz && ok; z++)
        for (int x = 0; x < tx && ok; x++) {
            const std::vector<int> &list = lists[static_cast<size_t>(z * tx + x)];
            if (list.empty()) continue;
            float lo[3] = {bmin[0] + x * size, bmin[1], bmin[2] + z * size};
            float hi[3] = {bmin[0] + (x + 1) * size, bmax[1], bmin[2] + (z + 1) * size};
            ok = build_box(verts, list, lo, hi, border, r);
        }
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: recast_driver LEVEL.obj [--runs N] [--tile CELLS]\n");
        return 2;
    }
    int runs = 5, tile = 0, each = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--tile")) tile = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--each")) each = std::atoi(argv[i + 1]);
    }
    std::vector<float> verts;
    std::vector<int> tris;
    if (!load_obj(argv[1], verts, tris)) {
        std::fprintf(stderr, "recast_driver: %s: no triangles\n", argv[1]);
        return 1;
    }
    result best;
    best.total = INFINITY;
    for (int i = 0; i < runs; i++) {
        result r;
        rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        if (!build(verts, tris, tile, r)) {
            std::fprintf(stderr, "recast_driver: the build failed\n");
            return 1;
        }
        getrusage(RUSAGE_SELF, &after);
        if (each) std::printf("%s%.3f %ld", i ? " " : "", r.total, after.ru_minflt - before.ru_minflt);
        if (r.total < best.total) best = r;
    }
    if (each) {
        std::printf("\n");
        return 0;
    }
    std::printf(
        "{\"scene\":\"%s\",\"triangles\":%zu,\"cells\":\"%d x %d\",\"tile\":%d,\"runs\":%d,\"total_ms\":%.3f",
        argv[1], tris.size() / 3, best.width, best.height, tile, runs, best.total);
    for (int s = 0; s < 8; s++) std::printf(",\"%s_ms\":%.3f", stage_names[s], best.stage[s]);
    std::printf(",\"polygons\":%d,\"vertices\":%d,\"walkable_area\":%.2f}\n", best.polys, best.verts,
                best.area);
    return 0;
}
