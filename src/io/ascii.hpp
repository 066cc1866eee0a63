// ASCII letter case and letter classes, whatever the locale: the one home of lower-casing
// for names (file endings, tag names, Variant values). Header-only and dependency-free, so
// that the grammar uses it too (CMake target pgn_iccf::ascii). Bytes outside A-Z are left as
// they are; bytes >= 0x80 are never letters or digits.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pgn_iccf::io::ascii {

constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// `s` with its ASCII letters in lower case: the word values of options (-t SAN) are taken in
// any case, by the command line and the browser binding alike.
inline std::string lowered(std::string_view s) {
    std::string r(s);
    for (char& ch : r) ch = lower(ch);
    return r;
}

// An ASCII letter or digit (std::isalnum in the C locale).
constexpr bool is_alnum(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

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
