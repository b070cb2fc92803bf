// The yardstick of issue 14: Recast's solo-mesh build (RecastDemo's defaults, watershed regions) on
// a level .obj, timed stage by stage, with the walkable area of its polygon mesh. Our own driver
// over Recast's public API (Recast/Include/Recast.h); Recast itself is built from its public
// repository outside this project by bench/recast_build.sh, never copied here.
//
// usage: recast_driver LEVEL.obj [--runs N]
// prints, per run kept (the fastest of N, 5 by default), one JSON line: triangles, cells, the
// milliseconds of each stage and in all, polygons, vertices, walkable area (square world units, the
// polygon mesh's polygons on the xz plane).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Recast.h"

namespace
{

// A plain .obj reader of our own: "v x y z" and "f" of any size (a fan), indices from 1 or from
// the end when negative, anything after a '/' ignored; other lines skipped.
bool load_obj(const char *path, std::vector<float> &verts, std::vector<int> &tris)
{
    FILE *f = std::fopen(path, "rb");
    if (!f) return false;
    char line[4096];
    while (std::fgets(line, sizeof line, f)) {
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (p[0] == 'v' && (p[1] == ' ' || p[1] == '\t')) {
            float x, y, z;
            if (std::sscanf(p + 1, "%f %f %f", &x, &y, &z) == 3) verts.insert(verts.end(), {x, y, z});
        } else if (p[0] == 'f' && (p[1] == ' ' || p[1] == '\t')) {
            std::vector<int> face;
            char *q = p + 1;
            while (*q) {
                while (*q == ' ' || *q == '\t') q++;
                if (!*q || *q == '\n' || *q == '\r' || *q == '#') break;
                long i = std::strtol(q, &q, 10);
                int n = static_cast<int>(verts.size() / 3);
                face.push_back(i < 0 ? n + static_cast<int>(i) : static_cast<int>(i) - 1);
                while (*q && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r') q++;
            }
            for (size_t k = 2; k < face.size(); k++) tris.insert(tris.end(), {face[0], face[k - 1], face[k]});
        }
    }
    std::fclose(f);
    return !tris.empty();
}

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

bool build(const std::vector<float> &verts, const std::vector<int> &tris, result &r)
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
    rcCalcBounds(verts.data(), nv, cfg.bmin, cfg.bmax);
    rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);
    r.width = cfg.width, r.height = cfg.height;

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
    r.stage[0] = ms_since(t), t = std::chrono::steady_clock::now();
    if (ok) {
        rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *hf);
        rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf);
        rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *hf);
    }
    r.stage[1] = ms_since(t), t = std::chrono::steady_clock::now();
    rcCompactHeightfield *chf = rcAllocCompactHeightfield();
    ok = ok && chf && rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf, *chf);
    rcFreeHeightField(hf);
    r.stage[2] = ms_since(t), t = std::chrono::steady_clock::now();
    ok = ok && rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf);
    r.stage[3] = ms_since(t), t = std::chrono::steady_clock::now();
    ok = ok && rcBuildDistanceField(&ctx, *chf) &&
         rcBuildRegions(&ctx, *chf, 0, cfg.minRegionArea, cfg.mergeRegionArea);
    r.stage[4] = ms_since(t), t = std::chrono::steady_clock::now();
    rcContourSet *cset = rcAllocContourSet();
    ok = ok && cset && rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset);
    r.stage[5] = ms_since(t), t = std::chrono::steady_clock::now();
    rcPolyMesh *pmesh = rcAllocPolyMesh();
    ok = ok && pmesh && rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *pmesh);
    r.stage[6] = ms_since(t), t = std::chrono::steady_clock::now();
    rcPolyMeshDetail *dmesh = rcAllocPolyMeshDetail();
    ok = ok && dmesh &&
         rcBuildPolyMeshDetail(&ctx, *pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *dmesh);
    r.stage[7] = ms_since(t);
    r.total = ms_since(all);
    if (ok) { // the walkable area: each polygon on the xz plane (vertices in cells from bmin)
        r.polys = pmesh->npolys, r.verts = pmesh->nverts;
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

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: recast_driver LEVEL.obj [--runs N]\n");
        return 2;
    }
    int runs = 5;
    for (int i = 2; i + 1 < argc; i += 2)
        if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
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
        if (!build(verts, tris, r)) {
            std::fprintf(stderr, "recast_driver: the build failed\n");
            return 1;
        }
        if (r.total < best.total) best = r;
    }
    std::printf("{\"scene\":\"%s\",\"triangles\":%zu,\"cells\":\"%d x %d\",\"runs\":%d,\"total_ms\":%.3f",
                argv[1], tris.size() / 3, best.width, best.height, runs, best.total);
    for (int s = 0; s < 8; s++) std::printf(",\"%s_ms\":%.3f", stage_names[s], best.stage[s]);
    std::printf(",\"polygons\":%d,\"vertices\":%d,\"walkable_area\":%.2f}\n", best.polys, best.verts,
                best.area);
    return 0;
}
