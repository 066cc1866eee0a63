// Helpers of the property checks (tests/support): message formatting, a seeded random
// generator, and line/column counting independent of the reader. Not for other code.
#pragma once

#include "grammar/syntax.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::properties::detail {

// Concatenation through a stream (GCC 12 warns falsely on `"literal" + std::string`).
template <class... A>
std::string cat(A const&... a) {
    std::ostringstream o;
    (o << ... << a);
    return o.str();
}

// Bytes for a message: printable ASCII as is, the rest as \xNN, at most 60 bytes.
inline std::string show(std::string_view s) {
    std::string r = "'";
    for (std::size_t i = 0; i < s.size() && i < 60; ++i) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7F && c != '\\') {
            r.push_back(char(c));
        } else {
            constexpr char hex[] = "0123456789abcdef";
            r += "\\x";
            r.push_back(hex[c >> 4]);
            r.push_back(hex[c & 15]);
        }
    }
    if (s.size() > 60) r += "...";
    return r + "'";
}

inline std::string show(syntax::Location l) {
    return cat(l.line, ':', l.column, " (offset ", l.offset, ')');
}

inline bool same(syntax::Location a, syntax::Location b) {
    return a.offset == b.offset && a.line == b.line && a.column == b.column;
}

// splitmix64: small, fast, and the same everywhere.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : s_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : next() % n; }

private:
    std::uint64_t s_;
};

// Line and column of every offset of an input, counted independently of the reader: a line
// ends at LF, or at a CR not followed by LF.
class Lines {
public:
    explicit Lines(std::string_view bytes) {
        starts_.push_back(0);
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            char const c = bytes[i];
            if (c == '\n' || (c == '\r' && (i + 1 == bytes.size() || bytes[i + 1] != '\n')))
                starts_.push_back(i + 1);
        }
    }
    syntax::Location at(std::uint64_t offset) const {
        auto const it = std::upper_bound(starts_.begin(), starts_.end(), offset) - 1;
        return {offset, static_cast<std::uint32_t>(it - starts_.begin() + 1),
                static_cast<std::uint32_t>(offset - *it + 1)};
    }

private:
    std::vector<std::uint64_t> starts_;
};

} // namespace pgn_iccf::properties::detail
