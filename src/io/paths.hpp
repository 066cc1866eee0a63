// Path text, as plain string work: a canonical path's tidy form, joining a folder and a
// relative path, and whether a path lies under a folder. Not std::filesystem::path's
// operator/, which replaces the left side when the right one is absolute: the right side is
// always a name or a relative path found by a walk.
#pragma once

#include <string>
#include <string_view>

namespace pgn_iccf::io::paths {

// A canonical path without a trailing '/': weakly_canonical keeps the one of "out/", and
// canonical paths are compared as strings.
inline std::string tidy(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    return path;
}

inline std::string join(std::string const& dir, std::string_view rel) {
    if (dir.empty()) return std::string(rel);
    std::string s = dir;
    if (s.back() != '/') s += '/';
    s += rel;
    return s;
}

// `path` is strictly inside `dir` (both tidy).
inline bool is_under(std::string const& path, std::string const& dir) {
    if (dir == "/") return path.size() > 1 && path.front() == '/';
    return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
           path[dir.size()] == '/';
}

} // namespace pgn_iccf::io::paths
