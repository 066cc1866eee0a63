// The byte scanners of the splitter (splitter.cpp, its only user): byte classes, vector
// skips over movetext and tag lines, tag pairs on one line. They build on the lexical rules
// that the grammar shares (grammar/scan.hpp).
#pragma once

#include "grammar/scan.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#ifdef __AVX2__
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pgn_iccf::reader::detail {

using namespace pgn_iccf::scan;

// Byte classes of the splitter's movetext loop.
enum class SplitClass : std::uint8_t {
    plain = 0,
    newline,
    brace,
    semicolon,
    paren_open,
    paren_close,
    result_start,
};

constexpr std::array<SplitClass, 256> make_split_classes() {
    using enum SplitClass;
    std::array<SplitClass, 256> t{}; // plain
    t['\n'] = newline;
    t['\r'] = newline;
    t['{'] = brace;
    t[';'] = semicolon;
    t['('] = paren_open;
    t[')'] = paren_close;
    t['*'] = result_start;
    t['1'] = result_start;
    t['0'] = result_start;
    t[0xC2] = result_start;
    return t;
}
constexpr std::array<SplitClass, 256> split_classes = make_split_classes();

// The first byte at or after p that is not plain, or end. With 16 bytes readable they are
// tested in one unrolled run without the end test (the byte loop with it took more
// instructions per byte; callgrind, master games: see the commit).
inline char const* next_split_byte(char const* p, char const* end) {
    while (end - p >= 16)
        if (char const* const e = first_where<16>(p, [](char c) {
                return split_classes[static_cast<unsigned char>(c)] != SplitClass::plain;
            }))
            return e;
        else
            p += 16;
    while (p != end && split_classes[static_cast<unsigned char>(*p)] == SplitClass::plain) ++p;
    return p;
}

// The tag name after '[' (blanks skipped).
inline std::string_view tag_name_at(char const* p, char const* end) {
    p = skip_blanks(p + 1, end);
    return {p, static_cast<std::size_t>(tag_name_end(p, end) - p)};
}

// Skips one tag pair starting at '[' on a line ending at le; returns the byte after its ']'
// or le if the pair is malformed (the parser reports it).
inline char const* skip_tag_pair(char const* p, char const* le) {
    auto const name = tag_name_at(p, le);
    char const* q = skip_blanks(name.data() + name.size(), le);
    if (q == le || *q != '"') return le;
    auto const v = scan_tag_value(q + 1, le);
    if (v.close == nullptr) return le;
    q = skip_blanks(v.missing_quote ? v.close : v.close + 1, le);
    return (q != le && *q == ']') ? q + 1 : le;
}

// Skips movetext bytes that cannot matter to the splitter, 32 at a time. It stops at (a
// superset of what the caller's scalar loop acts on): a CR; a LF before a blank, a control
// byte, '[' or '%' (a LF before any other byte only goes on with movetext); ';', '(', ')';
// a result start after a byte that may precede a result ('*', 0xC2, and '1' or '0' before
// '-' or '/': "1-0", "0-1", "1/2-1/2", "1/2"); and the '{' of a comment that holds a line
// end. A comment closed on its line is skipped whole, whatever it holds (the caller's
// short_comment_end and brace case skip it too), across windows if need be; where braces do
// not alternate in a window, it stops at the first brace. It never returns inside a
// comment: at the limit, within one, it returns its '{'. p must be outside comments; p - 1
// and p[32] must be readable. The scalar loop of the caller handles the rest.
inline char const* skip_plain(char const* p, char const* limit) {
#ifdef __AVX2__
    // Both classifications use two nibble lookups (a byte is in a class when
    // lo[low nibble] & hi[high nibble] has one of the class's bits):
    // - the byte itself: 1 LF CR, 2 ( ), 8 ;, 32 { (special); 4 *, 16 0 1, 64 0xC2 (result start);
    // - the byte before: bytes that may precede a result: control bytes and space (1, 2),
    //   $ ( ) . (2), ; [ { (4, 8, 16), ] } (8, 16), DEL (16); not '"'.
    __m256i const x_lo =
        _mm256_setr_epi8(16, 16, 64, 0, 0, 0, 0, 0, 2, 2, 1 | 4, 8 | 32, 0, 1, 0, 0, 16, 16, 64, 0,
                         0, 0, 0, 0, 2, 2, 1 | 4, 8 | 32, 0, 1, 0, 0);
    __m256i const x_hi =
        _mm256_setr_epi8(1, 0, 2 | 4, 8 | 16, 0, 0, 0, 32, 0, 0, 0, 0, 64, 0, 0, 0, 1, 0, 2 | 4,
                         8 | 16, 0, 0, 0, 32, 0, 0, 0, 0, 64, 0, 0, 0);
    __m256i const prev_lo =
        _mm256_setr_epi8(1 | 2, 1, 1, 1, 1 | 2, 1, 1, 1, 1 | 2, 1 | 2, 1, 1 | 4 | 8 | 16, 1,
                         1 | 8 | 16, 1 | 2, 1 | 16, 1 | 2, 1, 1, 1, 1 | 2, 1, 1, 1, 1 | 2, 1 | 2, 1,
                         1 | 4 | 8 | 16, 1, 1 | 8 | 16, 1 | 2, 1 | 16);
    __m256i const prev_hi = _mm256_setr_epi8(1, 1, 2, 4, 0, 8, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                             2, 4, 0, 8, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0);
    __m256i const nibble = _mm256_set1_epi8(0x0F);
    __m256i const zero = _mm256_setzero_si256();
    auto const classes = [&](__m256i v, __m256i lo, __m256i hi) {
        return _mm256_and_si256(
            _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble)),
            _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)));
    };
    auto const none = [&](__m256i v) {
        return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, zero)));
    };
    auto const is = [](__m256i v, char c) {
        return static_cast<std::uint32_t>(
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(c))));
    };
    std::uint32_t carry = 0; // all ones: the window starts inside a comment, opened at:
    char const* opened = nullptr;
    while (limit - p > 32) {
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p));
        __m256i const prev = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p - 1));
        __m256i const next = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p + 1));
        __m256i const cx = classes(x, x_lo, x_hi);
        std::uint32_t const special = ~none(_mm256_and_si256(cx, _mm256_set1_epi8(1 | 2 | 8 | 32)));
        std::uint32_t result = ~none(_mm256_and_si256(cx, _mm256_set1_epi8(4 | 16 | 64)));
        std::uint32_t const before = ~none(classes(prev, prev_lo, prev_hi));
        // A digit starts a result only before '-' or '/'.
        std::uint32_t const digit = is(x, '1') | is(x, '0');
        result &= ~digit | is(next, '-') | is(next, '/');
        // A LF before a byte that is not whitespace (0x00-0x20, DEL), '[' or '%'.
        std::uint32_t const goes_on = (static_cast<std::uint32_t>(_mm256_movemask_epi8(
                                           _mm256_cmpgt_epi8(next, _mm256_set1_epi8(0x20)))) |
                                       static_cast<std::uint32_t>(_mm256_movemask_epi8(next))) &
                                      ~(is(next, 0x7F) | is(next, '[') | is(next, '%'));
        std::uint32_t const open = is(x, '{');
        std::uint32_t stops = (special & ~open & ~(is(x, '\n') & goes_on)) | (result & before);
        // Comments: with the braces alternating ('{' outside, '}' inside: the usual case), the
        // bytes inside are those after an odd number of braces, a prefix XOR (`open` bits
        // included, and the '}' added). A comment may cross into the next window (`carry`).
        std::uint32_t const close = is(x, '}');
        std::uint32_t const braces = open | close;
        std::uint32_t after = braces; // after[i]: an odd number of braces up to byte i
        after ^= after << 1;
        after ^= after << 2;
        after ^= after << 4;
        after ^= after << 8;
        after ^= after << 16;
        after ^= carry;
        std::uint32_t const before_byte = after ^ braces;
        // Braces that do not alternate ('{' inside a comment, '}' outside one): the scalar
        // loop takes over at the first brace (or at the carried comment's '{').
        if ((open & before_byte) != 0 || (close & ~before_byte) != 0) {
            if (carry != 0) return opened;
            std::uint32_t const m = stops | braces;
            return p + std::countr_zero(m);
        }
        std::uint32_t const inside = after | close;
        std::uint32_t const line_ends = is(x, '\n') | is(x, '\r');
        std::uint32_t const broken = line_ends & inside; // a comment over a line end
        std::uint32_t const out = stops & ~inside;
        if ((out | broken) != 0) {
            // The first of: a stop outside comments, the '{' of the first comment that holds
            // a line end (which the scalar loop reads line by line).
            std::uint32_t const le = broken & -broken;
            if (le != 0 && (out & (le - 1)) == 0) {
                std::uint32_t const openers = open & (le - 1);
                return openers == 0 ? opened : p + (31 - std::countl_zero(openers));
            }
            return p + std::countr_zero(out);
        }
        if (after >> 31 != 0) { // a comment goes on in the next window
            if (open != 0) opened = p + (31 - std::countl_zero(open)); // the last brace
            carry = ~std::uint32_t{0};
        } else {
            carry = 0;
        }
        p += 32;
    }
    if (carry != 0) return opened; // the scalar loop reads the comment
#endif
    (void)limit;
    return p;
}

// Whether the only ']' in [p, t) is t[-1] (t - p >= 1). [p, limit) is readable: a tag line of
// up to 64 bytes is checked with two loads and a mask instead of a byte loop.
inline bool only_bracket_is_last(char const* p, char const* t, char const* limit) {
#ifdef __AVX2__
    auto const n = t - p;
    if (n <= 64 && limit - p >= 64) {
        __m256i const br = _mm256_set1_epi8(']');
        auto const lo = static_cast<std::uint32_t>(_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<__m256i const*>(p)), br)));
        auto const hi = static_cast<std::uint32_t>(_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<__m256i const*>(p + 32)), br)));
        std::uint64_t const mask = (std::uint64_t{hi} << 32) | lo;
        std::uint64_t const in_line = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
        return (mask & in_line) == std::uint64_t{1} << (n - 1);
    }
#elif defined(__SSE2__)
    // Portable builds: a line of up to 32 bytes with two loads (find_byte's tail byte loop
    // cost more per tag line; callgrind, master games: see the commit).
    auto const n = t - p;
    if (n <= 32 && limit - p >= 32) {
        auto const brackets = [](char const* b) {
            __m128i const x = _mm_loadu_si128(reinterpret_cast<__m128i const*>(b));
            return static_cast<std::uint32_t>(
                _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(']'))));
        };
        std::uint32_t const mask = brackets(p) | (brackets(p + 16) << 16);
        std::uint32_t const in_line = n == 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << n) - 1;
        return (mask & in_line) == std::uint32_t{1} << (n - 1);
    }
#else
    (void)limit;
#endif
    return find_byte(p, t, ']') == t - 1;
}

// Whether the line [p, le) (p at its '[', t the end of its content) holds exactly one tag pair
// (then skip_tag_pair would end it at le): a line `[... "]` whose only ']' is the last byte.
// [p, limit) is readable.
inline bool one_tag_pair(char const* p, char const* t, char const* limit) {
    return t - p >= 3 && t[-1] == ']' && t[-2] == '"' && only_bracket_is_last(p, t, limit);
}

constexpr bool is_name_byte(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

} // namespace pgn_iccf::reader::detail
