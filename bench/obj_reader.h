// bench/obj_reader.h - our plain .obj reader for the Recast drivers (bench/recast_driver.cpp,
// bench/crowd_detour.cpp): "v x y z" and "f" of any size (a fan), indices from 1 or from the end
// when negative, anything after a '/' ignored; other lines skipped. False when the file cannot be
// read or has no triangle.
#ifndef NAV_BENCH_OBJ_READER_H
#define NAV_BENCH_OBJ_READER_H

#include <cstdio>
#include <cstdlib>
#include <vector>

inline bool load_obj(const char *path, std::vector<float> &verts, std::vector<int> &tris)
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

#endif
