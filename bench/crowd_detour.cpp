// Issue 44's crowd benchmark, DetourCrowd's side (bench/crowd.c is libnav's; bench/crowd.sh runs
// both on the same scene and agents). Our own program over the public API of Recast and Detour as
// Debian ships them (librecast-dev, 1.5.1+git20210215.e75adf8: headers in
// /usr/include/recastnavigation, -lDetourCrowd -lDetour -lRecast); no part of their source is
// copied here.
//
// It reads a level's triangles from an .obj file (the plaza: the file bench/crowd.c --write-obj
// wrote, so both sides build from the very same triangles) and builds a navigation mesh of one
// tile as RecastDemo's Sample_SoloMesh does, with bench/crowd.c's agent settings (radius 0.4,
// height 2, climb 0.4, slope 45 degrees, cells of 0.2 x 0.2 m by default) and RecastDemo's other
// defaults (edges of 12 m at most, outline error 1.3 cells, regions of 8 x 8 cells at least, merged
// below 20 x 20, 6 vertices a polygon, heights sampled every 6 cells within a cell height, watershed
// regions). Then a dtCrowd of the agents of the file bench/crowd.c --write-agents wrote (one line
// an agent: start x y z, goal x y z, the shortest path's length libnav planned), each placed at
// the mesh's point nearest its start and sent to the point nearest its goal, with the agent
// parameters of RecastDemo's crowd tool but for size and speed (radius 0.4, height 2, 1.5 m/s,
// 4 m/s^2; collision query range 12 radii, path optimisation range 30 radii, separation weight 2;
// anticipated turns, visibility and topology optimisation, obstacle avoidance, separation),
// obstacle avoidance of quality 3 (RecastDemo's "High (66)": 7 divisions, 3 rings, depth 3, velocity
// bias 0.5) and the default query filter. 30 ticks a second for T seconds; only dtCrowd::update is
// timed.
//
// It measures as bench/crowd.c does and prints one JSON line with its keys: arrived (the share of
// agents within their radius, across, of the file's goal at the end), travel_ratio (of those, the
// time to the first tick within reach over the file's path length at full speed), overlap (the
// penetration depth summed over pairs, a tick's mean, found through the same hash of 2 m cells),
// off_surface (agent-ticks whose position has no polygon within a box 5 cm across and the agent's
// height up and down, or whose nearest point there lies more than 1 cm away across), peak_rss_mb
// (getrusage: the build included, as on libnav's side); and besides: off_own_polygon (agent-ticks
// whose position is not over the first polygon of its path corridor, dtNavMeshQuery::getPolyHeight),
// polygons, build_ms, starts_moved and goals_moved (agents whose start or goal the mesh's nearest
// point moved more than 10 cm across), unplaced (agents DetourCrowd could not add), waiting_for_path
// (agents whose full path dtCrowd's path queue had not yet planned at the end: they walk the quick
// partial path it gives at first).
//
// DetourCrowd's limit: its proximity grid (dtProximityGrid) links its items by 16-bit indices in a
// pool of 4 items an agent, so a crowd holds at most 16,383 agents; past that this program refuses.
//
// usage: crowd_detour --scene LEVEL.obj --read-agents FILE [--agents N (all)] [--seconds T (60)]
//                     [--cell C (0.2)] [--label NAME (the .obj's base name)] [--monotone]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "DetourCrowd.h"
#include "DetourNavMesh.h"
#include "DetourNavMeshBuilder.h"
#include "DetourNavMeshQuery.h"
#include "Recast.h"
#include "obj_reader.h"

namespace
{

const float agent_radius = 0.4f, agent_height = 2.0f, agent_climb = 0.4f, max_slope = 45.0f,
            cell_height = 0.2f;
const float max_speed = 1.5f, max_accel = 4.0f;
// dtProximityGrid: items linked by unsigned short, 4 an agent (dtCrowd::init)
const int most_agents = 65535 / 4;

struct trip {
    float start[3], goal[3];
    double route; // the shortest path's length libnav planned
};

// The first n trips of the file (all when n is 0); false when it cannot be read or holds fewer.
bool read_trips(const char *path, size_t n, std::vector<trip> &trips)
{
    FILE *f = std::fopen(path, "r");
    if (!f) return false;
    char line[512];
    while ((n == 0 || trips.size() < n) && std::fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        trip t;
        if (std::sscanf(line, "%f %f %f %f %f %f %lf", &t.start[0], &t.start[1], &t.start[2], &t.goal[0],
                        &t.goal[1], &t.goal[2], &t.route) != 7) {
            std::fclose(f);
            return false;
        }
        trips.push_back(t);
    }
    std::fclose(f);
    return !trips.empty() && (n == 0 || trips.size() == n);
}

double dist_xz(const float *a, const float *b)
{
    return std::hypot(static_cast<double>(a[0]) - b[0], static_cast<double>(a[2]) - b[2]);
}

// The navigation mesh of the level, built as Sample_SoloMesh builds it; its polygon count in polygons.
dtNavMesh *build_navmesh(const std::vector<float> &verts, const std::vector<int> &tris, float cell,
                         bool monotone, int &polygons)
{
    rcContext ctx(false);
    rcConfig cfg;
    std::memset(&cfg, 0, sizeof cfg);
    cfg.cs = cell;
    cfg.ch = cell_height;
    cfg.walkableSlopeAngle = max_slope;
    cfg.walkableHeight = static_cast<int>(std::ceil(agent_height / cfg.ch));
    cfg.walkableClimb = static_cast<int>(std::floor(agent_climb / cfg.ch));
    cfg.walkableRadius = static_cast<int>(std::ceil(agent_radius / cfg.cs));
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

    rcHeightfield *hf = rcAllocHeightfield();
    std::vector<unsigned char> areas(static_cast<size_t>(nt), 0);
    bool ok = hf && rcCreateHeightfield(&ctx, *hf, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch);
    if (ok) {
        rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, verts.data(), nv, tris.data(), nt,
                                areas.data());
        ok = rcRasterizeTriangles(&ctx, verts.data(), nv, tris.data(), areas.data(), nt, *hf,
                                  cfg.walkableClimb);
    }
    if (ok) {
        rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *hf);
        rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf);
        rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *hf);
    }
    rcCompactHeightfield *chf = rcAllocCompactHeightfield();
    ok = ok && chf && rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *hf, *chf);
    rcFreeHeightField(hf);
    ok = ok && rcErodeWalkableArea(&ctx, cfg.walkableRadius, *chf);
    if (monotone)
        ok = ok && rcBuildRegionsMonotone(&ctx, *chf, 0, cfg.minRegionArea, cfg.mergeRegionArea);
    else
        ok = ok && rcBuildDistanceField(&ctx, *chf) &&
             rcBuildRegions(&ctx, *chf, 0, cfg.minRegionArea, cfg.mergeRegionArea);
    rcContourSet *cset = rcAllocContourSet();
    ok = ok && cset && rcBuildContours(&ctx, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *cset);
    rcPolyMesh *pmesh = rcAllocPolyMesh();
    ok = ok && pmesh && rcBuildPolyMesh(&ctx, *cset, cfg.maxVertsPerPoly, *pmesh);
    rcPolyMeshDetail *dmesh = rcAllocPolyMeshDetail();
    ok = ok && dmesh &&
         rcBuildPolyMeshDetail(&ctx, *pmesh, *chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *dmesh);
    rcFreeCompactHeightfield(chf);
    rcFreeContourSet(cset);

    dtNavMesh *nav = nullptr;
    if (ok) {
        // every walkable polygon gets flag 1, which the default filter (include all, exclude none) passes
        for (int i = 0; i < pmesh->npolys; i++) pmesh->flags[i] = pmesh->areas[i] == RC_WALKABLE_AREA ? 1 : 0;
        polygons = pmesh->npolys;
        dtNavMeshCreateParams params;
        std::memset(&params, 0, sizeof params);
        params.verts = pmesh->verts;
        params.vertCount = pmesh->nverts;
        params.polys = pmesh->polys;
        params.polyAreas = pmesh->areas;
        params.polyFlags = pmesh->flags;
        params.polyCount = pmesh->npolys;
        params.nvp = pmesh->nvp;
        params.detailMeshes = dmesh->meshes;
        params.detailVerts = dmesh->verts;
        params.detailVertsCount = dmesh->nverts;
        params.detailTris = dmesh->tris;
        params.detailTriCount = dmesh->ntris;
        params.walkableHeight = agent_height;
        params.walkableRadius = agent_radius;
        params.walkableClimb = agent_climb;
        rcVcopy(params.bmin, pmesh->bmin);
        rcVcopy(params.bmax, pmesh->bmax);
        params.cs = cfg.cs;
        params.ch = cfg.ch;
        params.buildBvTree = true;
        unsigned char *data = nullptr;
        int size = 0;
        nav = dtAllocNavMesh();
        // (the mesh owns data once init succeeds: DT_TILE_FREE_DATA)
        if (!nav || !dtCreateNavMeshData(&params, &data, &size) ||
            dtStatusFailed(nav->init(data, size, DT_TILE_FREE_DATA))) {
            dtFree(data);
            dtFreeNavMesh(nav);
            nav = nullptr;
        }
    }
    rcFreePolyMesh(pmesh);
    rcFreePolyMeshDetail(dmesh);
    return nav;
}

// Summed penetration of the pairs of agents, found through a hash of 2 m cells over the level's box
// (bench/crowd.c's overlap_sum: agents overlap within 0.8 m, so each pair lies in neighbouring
// cells; agents outside the box go to its edge cells). Two an agent's height or more apart, one
// above the other on two floors, do not overlap.
struct pair_hash {
    double min_x, min_z;
    int cells_x, cells_z;
    std::vector<int> head, link;

    int cell(const float *p, int &cx, int &cz) const
    {
        cx = static_cast<int>(std::fmin(std::fmax((p[0] - min_x) / 2, 0), cells_x - 1));
        cz = static_cast<int>(std::fmin(std::fmax((p[2] - min_z) / 2, 0), cells_z - 1));
        return cz * cells_x + cx;
    }

    double overlap_sum(const std::vector<const float *> &pos, double radius)
    {
        int cx, cz;
        std::fill(head.begin(), head.end(), -1);
        const int n = static_cast<int>(pos.size());
        for (int i = 0; i < n; i++) {
            int c = cell(pos[i], cx, cz);
            link[i] = head[c], head[c] = i;
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            cell(pos[i], cx, cz);
            for (int dz = -1; dz <= 1; dz++)
                for (int dx = -1; dx <= 1; dx++) {
                    if (cx + dx < 0 || cz + dz < 0 || cx + dx >= cells_x || cz + dz >= cells_z) continue;
                    for (int j = head[(cz + dz) * cells_x + cx + dx]; j != -1; j = link[j]) {
                        if (j <= i || std::fabs(pos[i][1] - pos[j][1]) >= agent_height) continue;
                        double over = 2 * radius - dist_xz(pos[i], pos[j]);
                        if (over > 0) sum += over;
                    }
                }
        }
        return sum;
    }
};

int usage()
{
    std::fprintf(stderr,
                 "usage: crowd_detour --scene LEVEL.obj --read-agents FILE [--agents N] [--seconds T]\n"
                 "                    [--cell C] [--label NAME] [--monotone]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    const char *scene_path = nullptr, *agents_path = nullptr, *label = nullptr;
    size_t wanted = 0;
    double seconds = 60;
    float cell = 0.2f;
    bool monotone = false;
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!std::strcmp(argv[i], "--monotone"))
            monotone = true;
        else if (!value)
            return usage();
        else if (!std::strcmp(argv[i], "--scene"))
            scene_path = value, i++;
        else if (!std::strcmp(argv[i], "--read-agents"))
            agents_path = value, i++;
        else if (!std::strcmp(argv[i], "--label"))
            label = value, i++;
        else if (!std::strcmp(argv[i], "--agents"))
            wanted = static_cast<size_t>(std::atol(value)), i++;
        else if (!std::strcmp(argv[i], "--seconds"))
            seconds = std::atof(value), i++;
        else if (!std::strcmp(argv[i], "--cell"))
            cell = static_cast<float>(std::atof(value)), i++;
        else
            return usage();
    }
    if (!scene_path || !agents_path || !(seconds > 0) || !(cell > 0)) return usage();
    std::string scene;
    if (label)
        scene = label;
    else {
        const char *slash = std::strrchr(scene_path, '/');
        scene = slash ? slash + 1 : scene_path;
        scene = scene.substr(0, scene.find('.'));
    }

    std::vector<trip> trips;
    if (!read_trips(agents_path, wanted, trips)) {
        std::fprintf(stderr, "crowd_detour: %s cannot be read, or holds fewer agents than asked\n",
                     agents_path);
        return 1;
    }
    const int n = static_cast<int>(trips.size());
    if (trips.size() > static_cast<size_t>(most_agents)) {
        std::fprintf(
            stderr,
            "crowd_detour: %d agents: a dtCrowd holds at most %d (its proximity grid links its items, 4 "
            "an agent, by 16-bit indices)\n",
            n, most_agents);
        std::printf(
            "{\"library\":\"detourcrowd\",\"scene\":\"%s\",\"agents\":%d,\"error\":\"over dtCrowd's limit "
            "of %d agents\"}\n",
            scene.c_str(), n, most_agents);
        return 1;
    }
    std::vector<float> verts;
    std::vector<int> tris;
    if (!load_obj(scene_path, verts, tris)) {
        std::fprintf(stderr, "crowd_detour: %s: no triangles\n", scene_path);
        return 1;
    }

    auto build_start = std::chrono::steady_clock::now();
    int polygons = 0;
    dtNavMesh *nav = build_navmesh(verts, tris, cell, monotone, polygons);
    dtNavMeshQuery *query = dtAllocNavMeshQuery();
    if (!nav || !query || dtStatusFailed(query->init(nav, 2048))) {
        std::fprintf(stderr, "crowd_detour: %s: the navigation mesh cannot be built\n", scene_path);
        return 1;
    }
    dtCrowd *crowd = dtAllocCrowd();
    if (!crowd || !crowd->init(n, agent_radius, nav)) {
        std::fprintf(stderr, "crowd_detour: the crowd of %d agents cannot be made\n", n);
        return 1;
    }
    double build_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - build_start).count();
    // RecastDemo's obstacle avoidance qualities (CrowdToolState::init): 3 is "High (66)"
    dtObstacleAvoidanceParams quality;
    std::memcpy(&quality, crowd->getObstacleAvoidanceParams(0), sizeof quality);
    const unsigned char divisions[4] = {5, 5, 7, 7}, rings[4] = {2, 2, 2, 3}, depth[4] = {1, 2, 3, 3};
    for (int q = 0; q < 4; q++) {
        quality.velBias = 0.5f;
        quality.adaptiveDivs = divisions[q];
        quality.adaptiveRings = rings[q];
        quality.adaptiveDepth = depth[q];
        crowd->setObstacleAvoidanceParams(q, &quality);
    }
    dtCrowdAgentParams walker;
    std::memset(&walker, 0, sizeof walker);
    walker.radius = agent_radius;
    walker.height = agent_height;
    walker.maxAcceleration = max_accel;
    walker.maxSpeed = max_speed;
    walker.collisionQueryRange = agent_radius * 12.0f;
    walker.pathOptimizationRange = agent_radius * 30.0f;
    walker.separationWeight = 2.0f;
    walker.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                         DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
    walker.obstacleAvoidanceType = 3;
    walker.queryFilterType = 0;

    // The agents, at the mesh's points nearest their starts (within 2 m across and 4 m up and down, the
    // box of libnav's locate on a level's mesh), sent to the points nearest their goals
    const dtQueryFilter *filter = crowd->getFilter(0);
    const float placing[3] = {2, 4, 2};
    std::vector<int> index(static_cast<size_t>(n), -1);
    int starts_moved = 0, goals_moved = 0, unplaced = 0;
    for (int i = 0; i < n; i++) {
        trip &t = trips[static_cast<size_t>(i)];
        dtPolyRef start_ref = 0, goal_ref = 0;
        float start[3], goal[3];
        query->findNearestPoly(t.start, placing, filter, &start_ref, start);
        query->findNearestPoly(t.goal, placing, filter, &goal_ref, goal);
        if (!start_ref || !goal_ref) {
            unplaced++;
            continue;
        }
        starts_moved += dist_xz(start, t.start) > 0.1;
        goals_moved += dist_xz(goal, t.goal) > 0.1;
        int idx = crowd->addAgent(start, &walker);
        if (idx < 0 || !crowd->requestMoveTarget(idx, goal_ref, goal)) {
            unplaced++;
            continue;
        }
        index[static_cast<size_t>(i)] = idx;
    }

    // The run: only dtCrowd::update is timed; every agent checked on the surface after each tick
    float box_min[3], box_max[3];
    rcCalcBounds(verts.data(), static_cast<int>(verts.size() / 3), box_min, box_max);
    pair_hash hash;
    hash.min_x = box_min[0], hash.min_z = box_min[2];
    hash.cells_x = static_cast<int>(std::ceil((box_max[0] - box_min[0]) / 2)) + 1;
    hash.cells_z = static_cast<int>(std::ceil((box_max[2] - box_min[2]) / 2)) + 1;
    hash.head.resize(static_cast<size_t>(hash.cells_x) * hash.cells_z);
    hash.link.resize(static_cast<size_t>(n));
    const int ticks = static_cast<int>(std::ceil(seconds * 30));
    std::vector<double> tick_ms(static_cast<size_t>(ticks)), arrived_at(static_cast<size_t>(n), INFINITY);
    std::vector<const float *> positions;
    const float thin_box[3] = {0.025f, agent_height, 0.025f};
    double overlap = 0;
    unsigned long long off_surface = 0, off_own_polygon = 0;
    for (int k = 0; k < ticks; k++) {
        auto t0 = std::chrono::steady_clock::now();
        crowd->update(1.0f / 30, nullptr);
        tick_ms[static_cast<size_t>(k)] =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        positions.clear();
        for (int i = 0; i < n; i++) {
            if (index[static_cast<size_t>(i)] < 0) continue;
            const dtCrowdAgent *a = crowd->getAgent(index[static_cast<size_t>(i)]);
            const float *p = a->npos;
            positions.push_back(p);
            if (arrived_at[static_cast<size_t>(i)] == INFINITY &&
                dist_xz(p, trips[static_cast<size_t>(i)].goal) <= agent_radius)
                arrived_at[static_cast<size_t>(i)] = (k + 1) / 30.0;
            dtPolyRef ref = 0;
            float nearest[3], height;
            query->findNearestPoly(p, thin_box, filter, &ref, nearest);
            bool off = !ref || dist_xz(nearest, p) > 0.01;
            if (off && off_surface < 5)
                std::fprintf(stderr,
                             "crowd_detour: %s: agent %d off the mesh at tick %d: at (%.5f, %.5f, %.5f)%s\n",
                             scene.c_str(), i, k, p[0], p[1], p[2], ref ? "" : ", no polygon in the box");
            off_surface += off;
            off_own_polygon += dtStatusFailed(query->getPolyHeight(a->corridor.getFirstPoly(), p, &height));
        }
        overlap += hash.overlap_sum(positions, agent_radius);
    }

    // agents still on the quick partial path dtCrowd gives at first, their full path not yet planned:
    // its path queue takes 8 requests at once and runs 100 search iterations an update
    int waiting = 0;
    for (int idx : index) {
        if (idx < 0) continue;
        unsigned char target = crowd->getAgent(idx)->targetState;
        waiting += target == DT_CROWDAGENT_TARGET_WAITING_FOR_QUEUE ||
                   target == DT_CROWDAGENT_TARGET_WAITING_FOR_PATH;
    }
    int arrived = 0;
    double ratio = 0;
    for (int i = 0; i < n; i++)
        if (arrived_at[static_cast<size_t>(i)] < INFINITY)
            arrived++, ratio += arrived_at[static_cast<size_t>(i)] /
                                std::fmax(trips[static_cast<size_t>(i)].route / max_speed, 1e-9);
    double sum = 0;
    for (double t : tick_ms) sum += t;
    std::sort(tick_ms.begin(), tick_ms.end());
    rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::printf(
        "{\"library\":\"detourcrowd\",\"scene\":\"%s\",\"agents\":%d,\"tick_mean_ms\":%.3f,\"tick_p99_ms\":%."
        "3f,\"arrived\":%.4f,\"travel_ratio\":%.4f,\"overlap\":%.6f,\"off_surface\":%llu,\"peak_rss_mb\":%."
        "1f,"
        "\"off_own_polygon\":%llu,\"polygons\":%d,\"build_ms\":%.0f,\"starts_moved\":%d,\"goals_moved\":%d,"
        "\"unplaced\":%d,\"waiting_for_path\":%d,\"regions\":\"%s\"}\n",
        scene.c_str(), n, sum / ticks, tick_ms[static_cast<size_t>(std::floor(0.99 * (ticks - 1)))],
        static_cast<double>(arrived) / n, arrived ? ratio / arrived : 0, overlap / ticks, off_surface,
        ru.ru_maxrss / 1024.0, off_own_polygon, polygons, build_ms, starts_moved, goals_moved, unplaced,
        waiting, monotone ? "monotone" : "watershed");
    dtFreeCrowd(crowd);
    dtFreeNavMeshQuery(query);
    dtFreeNavMesh(nav);
    return 0;
}
