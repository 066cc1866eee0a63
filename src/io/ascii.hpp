// ASCII letter case, whatever the locale: the one home of lower-casing for names (file
// endings, tag names). Bytes outside A-Z are left as they are.
#pragma once

#include <cstddef>
#include <string_view>

namespace pgn_iccf::io::ascii {

constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Equal but for the case of ASCII letters.
constexpr bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

// `s` ends with `tail`, but for the case of ASCII letters.
constexpr bool ends_with_icase(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && iequals(s.substr(s.size() - tail.size()), tail);
}

} // namespace pgn_iccf::io::ascii
