// terminal_safe (terminal.hpp): input bytes quoted in a diagnostic, strict UTF-8 decoded, the
// controls and dangerous code points escaped, Latin-1 shown as such, and cut at a byte limit.
#include "report/terminal.hpp"

#include <algorithm>
#include <cstdint>

namespace pgn_iccf::report {

namespace {

// One character of the input: `len` bytes decoding to code point `cp`, or one byte that is
// not valid UTF-8 (valid == false, cp the byte).
struct Unit {
    std::size_t len = 1;
    char32_t cp = 0;
    bool valid = true;
};

constexpr bool is_continuation(unsigned char c) { return (c & 0xC0U) == 0x80U; }

// Strict UTF-8 (Unicode Table 3-7): no overlong forms, no surrogates, nothing past U+10FFFF.
Unit decode(std::string_view s, std::size_t i) {
    auto const b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    unsigned char const c = b(0);
    if (c < 0x80) return {1, c, true};
    Unit bad{1, c, false};
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF; // range of the second byte
    char32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1FU;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0FU;
        if (c == 0xE0) lo = 0xA0; // overlong
        if (c == 0xED) hi = 0x9F; // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07U;
        if (c == 0xF0) lo = 0x90; // overlong
        if (c == 0xF4) hi = 0x8F; // past U+10FFFF
    } else {
        return bad; // 0x80..0xC1 (continuation, overlong lead), 0xF5..0xFF
    }
    if (s.size() - i < len) return bad;
    if (b(1) < lo || b(1) > hi) return bad;
    for (std::size_t k = 1; k < len; ++k) {
        if (!is_continuation(b(k))) return bad;
        cp = (cp << 6) | (b(k) & 0x3FU);
    }
    return {len, cp, true};
}

// Valid characters written as \uXXXX: C1 controls, bidi formatting, line/paragraph separators.
constexpr bool escaped_code_point(char32_t cp) {
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

constexpr bool is_control(char32_t cp) { return cp < 0x20 || cp == 0x7F; }

// Whether unit u is written as an escape (starting with a backslash).
bool starts_with_backslash(Unit const& u) {
    return u.cp == '\\' || !u.valid || is_control(u.cp) || escaped_code_point(u.cp);
}

constexpr char hex_digit(unsigned v) { return "0123456789abcdef"[v & 0xFU]; }

void append_hex_byte(std::string& out, unsigned v) {
    out.push_back('\\');
    out.push_back('x');
    out.push_back(hex_digit(v >> 4));
    out.push_back(hex_digit(v));
}

void append_control(std::string& out, char32_t cp) {
    switch (cp) {
    case '\n':
        out.append("\\n");
        break;
    case '\r':
        out.append("\\r");
        break;
    case '\t':
        out.append("\\t");
        break;
    default:
        append_hex_byte(out, static_cast<unsigned>(cp));
        break;
    }
}

void append_utf8(std::string& out, char32_t cp) { // cp < 0x800 here (Latin-1)
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else {
        out.push_back(static_cast<char>(0xC0U | (cp >> 6)));
        out.push_back(static_cast<char>(0x80U | (cp & 0x3FU)));
    }
}

bool plain(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char ch) {
        auto const c = static_cast<unsigned char>(ch);
        return c >= 0x20 && c < 0x7F && c != '\\';
    });
}

// Whether the bytes before `limit` (characters that start there, read against the whole
// text) are to be shown as Latin-1: not valid UTF-8, and every byte >= 0x80 printable Latin-1.
bool latin1_text(std::string_view s, std::size_t limit) {
    bool invalid = false;
    for (std::size_t i = 0; i < limit; ++i) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80 && c < 0xA0) return false;
    }
    for (std::size_t i = 0; i < limit && !invalid;) {
        Unit const u = decode(s, i);
        invalid = !u.valid;
        i += u.len;
    }
    return invalid;
}

} // namespace

void append_terminal_safe(std::string& out, std::string_view bytes, std::size_t max_bytes) {
    bool const cut = bytes.size() > max_bytes;
    std::size_t const limit = cut ? max_bytes : bytes.size();
    if (!cut && plain(bytes)) {
        out.append(bytes);
        return;
    }
    bool const latin1 = latin1_text(bytes, limit);
    auto const unit_at = [&](std::size_t i) {
        if (!latin1) return decode(bytes, i);
        return Unit{1, static_cast<unsigned char>(bytes[i]), true};
    };
    std::size_t i = 0;
    while (i < limit) {
        Unit const u = unit_at(i);
        if (i + u.len > limit) break; // a character across the cut: left out whole
        if (u.cp == '\\') {
            // Doubled only where the next thing written would otherwise read as an escape.
            bool dbl = false;
            std::size_t const j = i + 1;
            if (j < limit) {
                Unit const next = unit_at(j);
                if (j + next.len <= limit) {
                    dbl = starts_with_backslash(next) || next.cp == 'x' || next.cp == 'u' ||
                          next.cp == 'n' || next.cp == 'r' || next.cp == 't';
                }
            }
            out.append(dbl ? "\\\\" : "\\");
        } else if (!u.valid) {
            append_hex_byte(out, static_cast<unsigned>(u.cp));
        } else if (is_control(u.cp)) {
            append_control(out, u.cp);
        } else if (escaped_code_point(u.cp)) {
            out.append("\\u");
            for (int shift = 12; shift >= 0; shift -= 4)
                out.push_back(hex_digit(static_cast<unsigned>(u.cp >> shift)));
        } else if (latin1) {
            append_utf8(out, u.cp);
        } else {
            out.append(bytes.substr(i, u.len));
        }
        i += u.len;
    }
    if (cut) out.append("...");
}

std::string terminal_safe(std::string_view bytes, std::size_t max_bytes) {
    std::string s;
    append_terminal_safe(s, bytes, max_bytes);
    return s;
}

void append_terminal_safe_message(std::string& out, std::string_view message,
                                  std::string_view quoted, std::size_t max_bytes) {
    std::size_t const at = quoted.empty() ? std::string_view::npos : message.find(quoted);
    if (at == std::string_view::npos) {
        append_terminal_safe(out, message, max_bytes);
        return;
    }
    append_terminal_safe(out, message.substr(0, at), max_bytes);
    append_terminal_safe(out, quoted, quoted_bytes);
    append_terminal_safe(out, message.substr(at + quoted.size()), max_bytes);
}

} // namespace pgn_iccf::report
