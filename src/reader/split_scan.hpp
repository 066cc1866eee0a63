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

// Skips movetext bytes that cannot matter to the splitter, a window of 32 bytes at a time (64
// with AVX-512BW). It stops at (a superset of what the caller's scalar loop acts on): a CR; a
// LF before a blank, a control byte, '[' or '%' (a LF before any other byte only goes on with
// movetext); ';', '(', ')'; a result start after a byte that may precede a result ('*', 0xC2,
// and '1' or '0' before '-' or '/': "1-0", "0-1", "1/2-1/2", "1/2"); and the '{' of a comment
// that holds a CR or a LF before such a byte (where a tag-like line may start). Any other
// comment is skipped whole, whatever it holds (the caller's short_comment_end, brace case and
// comment() find nothing in it either), across windows if need be; where braces do not
// alternate in a window, it stops at the first brace. It never returns inside a comment: at
// the limit, within one, it returns its '{'. p must be outside comments; p - 1 and p[64] must
// be readable. The scalar loop of the caller handles the rest. (Where more bytes are to come,
// the scalar loop waits at a '1' or '0' within 8 bytes of the end for the bytes that decide
// whether a result starts there; the skip decides from the next byte alone, so a scan may
// pause a few bytes further on. That moves no cut: a digit not before '-' or '/' starts no
// result either way.)
#if defined(__AVX2__)
// What skip_plain needs of the window at p (p[-1] and p[width] readable): the bytes it stops at
// outside comments, braces and line ends, one bit a byte.
#if defined(__AVX512BW__)
using SkipMask = std::uint64_t;
inline constexpr int skip_width = 64;
#else
using SkipMask = std::uint32_t;
inline constexpr int skip_width = 32;
#endif
struct SkipMasks {
    SkipMask stops = 0; // every stop but '{'
    SkipMask open = 0, close = 0;
    SkipMask line_ends = 0; // CR, and LF before a blank, a control byte, '[' or '%'
};

// Both classifications use two nibble lookups (a byte is in a class when
// lo[low nibble] & hi[high nibble] has one of the class's bits):
// - the byte itself: 1 LF CR, 2 ( ), 8 ;, 32 { (special); 4 *, 16 0 1, 64 0xC2 (result start);
// - the byte before: bytes that may precede a result: control bytes and space (1, 2),
//   $ ( ) . (2), ; [ { (4, 8, 16), ] } (8, 16), DEL (16); not '"'.
// Each table is repeated in every 16-byte lane.
constexpr std::array<char, 64> lanes(std::array<int, 16> t) {
    std::array<char, 64> r{};
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = static_cast<char>(t[i % 16]);
    return r;
}
alignas(64) inline constexpr std::array<char, 64> skip_x_lo = lanes({16, 16, 64, 0, 0, 0, 0, 0, 2,
                                                                     2, 1 | 4, 8 | 32, 0, 1, 0, 0});
alignas(64) inline constexpr std::array<char, 64> skip_x_hi = lanes({1, 0, 2 | 4, 8 | 16, 0, 0, 0,
                                                                     32, 0, 0, 0, 0, 64, 0, 0, 0});
alignas(64) inline constexpr std::array<char, 64> skip_prev_lo = lanes({1 | 2, 1, 1, 1, 1 | 2, 1, 1,
                                                                        1, 1 | 2, 1 | 2, 1,
                                                                        1 | 4 | 8 | 16, 1,
                                                                        1 | 8 | 16, 1 | 2, 1 | 16});
alignas(64) inline constexpr std::array<char, 64> skip_prev_hi = lanes({1, 1, 2, 4, 0, 8, 0, 16, 0,
                                                                        0, 0, 0, 0, 0, 0, 0});

#if defined(__AVX512VBMI__)
// With AVX-512 VBMI one 128-byte table lookup (vpermi2b) classifies each ASCII byte in one of
// eight classes at once (bytes 0x80-0xFF are in none): 1 CR ; ( ), 2 LF, 4 '{', 8 '}', 16 '0'
// '1', 32 '*', 64 may precede a result (blanks and control bytes, DEL, $ ( ) . ; [ { ] }), 128
// ends a movetext line's run (blanks and control bytes, DEL, '[', '%'). The classes of the
// byte before and of the byte after come from shifting the masks by one.
constexpr std::array<std::uint8_t, 256> make_skip_classes() {
    std::array<std::uint8_t, 256> t{};
    for (int c = 0; c <= 0x20; ++c) t[std::size_t(c)] = 64 | 128;
    t[0x7F] = 64 | 128;
    t['\r'] |= 1;
    t['\n'] |= 2;
    for (char c : {';', '(', ')'}) t[std::size_t(c)] |= 1;
    t['{'] |= 4;
    t['}'] |= 8;
    t['0'] |= 16;
    t['1'] |= 16;
    t['*'] |= 32;
    for (char c : {'$', '(', ')', '.', ';', '[', '{', ']', '}'}) t[std::size_t(c)] |= 64;
    t['['] |= 128;
    t['%'] |= 128;
    return t;
}
alignas(64) inline constexpr std::array<std::uint8_t, 256> skip_classes = make_skip_classes();
#endif

#if defined(__AVX512VBMI__)
inline SkipMasks skip_masks(char const* p) {
    using V = __m512i;
    V const x = _mm512_loadu_si512(p);
    auto const is = [&](char c) {
        return SkipMask{_mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(c))};
    };
    V const classes = _mm512_maskz_permutex2var_epi8(~_mm512_movepi8_mask(x),
                                                     _mm512_load_si512(skip_classes.data()), x,
                                                     _mm512_load_si512(skip_classes.data() + 64));
    auto const in = [&](int bits) {
        return SkipMask{_mm512_test_epi8_mask(classes, _mm512_set1_epi8(static_cast<char>(bits)))};
    };
    auto const last_bit = [](bool b) { return SkipMask{b} << 63; };
    auto const before_class = skip_classes[static_cast<unsigned char>(p[-1])];
    auto const after = static_cast<unsigned char>(p[64]);
    SkipMask const before = (in(64) << 1) | SkipMask{(before_class & 64) != 0};
    SkipMask const dash = is('-') | is('/');
    SkipMask const next_dash = (dash >> 1) | last_bit(after == '-' || after == '/');
    SkipMask const next_ends_run = (in(128) >> 1) | last_bit((skip_classes[after] & 128) != 0);
    // A digit starts a result only before '-' or '/'.
    SkipMask const result = ((in(16) & next_dash) | in(32) | is('\xC2')) & before;
    SkipMask const lf = in(2);
    SkipMask const lf_on = lf & ~next_ends_run; // a LF that only goes on with movetext
    SkipMasks m;
    m.open = in(4);
    m.close = in(8);
    m.line_ends = (lf & ~lf_on) | is('\r');
    m.stops = in(1) | (lf & ~lf_on) | result;
    return m;
}
#else
inline SkipMasks skip_masks(char const* p) {
#if defined(__AVX512BW__)
    using V = __m512i;
    auto const table = [](std::array<char, 64> const& t) { return _mm512_load_si512(t.data()); };
    V const nibble = _mm512_set1_epi8(0x0F);
    auto const classes = [&](V v, V lo, V hi) {
        return _mm512_and_si512(
            _mm512_shuffle_epi8(lo, _mm512_and_si512(v, nibble)),
            _mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble)));
    };
    auto const any = [](V v, int bits) {
        return SkipMask{_mm512_test_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(bits)))};
    };
    auto const is = [](V v, char c) {
        return SkipMask{_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(c))};
    };
    V const x = _mm512_loadu_si512(p);
    V const prev = _mm512_loadu_si512(p - 1);
    V const next = _mm512_loadu_si512(p + 1);
    SkipMask const above_space = _mm512_cmpgt_epi8_mask(next, _mm512_set1_epi8(0x20)) |
                                 _mm512_movepi8_mask(next); // bytes 0x21-0x7F, 0x80-0xFF
#else
    using V = __m256i;
    auto const table = [](std::array<char, 64> const& t) {
        return _mm256_load_si256(reinterpret_cast<V const*>(t.data()));
    };
    V const nibble = _mm256_set1_epi8(0x0F);
    auto const classes = [&](V v, V lo, V hi) {
        return _mm256_and_si256(
            _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble)),
            _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)));
    };
    auto const any = [](V v, int bits) {
        return ~static_cast<SkipMask>(_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_and_si256(v, _mm256_set1_epi8(static_cast<char>(bits))),
                              _mm256_setzero_si256())));
    };
    auto const is = [](V v, char c) {
        return static_cast<SkipMask>(
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(c))));
    };
    V const x = _mm256_loadu_si256(reinterpret_cast<V const*>(p));
    V const prev = _mm256_loadu_si256(reinterpret_cast<V const*>(p - 1));
    V const next = _mm256_loadu_si256(reinterpret_cast<V const*>(p + 1));
    SkipMask const above_space =
        static_cast<SkipMask>(
            _mm256_movemask_epi8(_mm256_cmpgt_epi8(next, _mm256_set1_epi8(0x20)))) |
        static_cast<SkipMask>(_mm256_movemask_epi8(next)); // bytes 0x21-0x7F, 0x80-0xFF
#endif
    V const x_lo = table(skip_x_lo), x_hi = table(skip_x_hi);
    V const prev_lo = table(skip_prev_lo), prev_hi = table(skip_prev_hi);
    V const cx = classes(x, x_lo, x_hi);
    SkipMask const special = any(cx, 1 | 2 | 8 | 32);
    SkipMask result = any(cx, 4 | 16 | 64);
    SkipMask const before = any(classes(prev, prev_lo, prev_hi), 0xFF);
    // A digit starts a result only before '-' or '/'.
    result &= ~(is(x, '1') | is(x, '0')) | is(next, '-') | is(next, '/');
    // A LF before a byte that is not whitespace (0x00-0x20, DEL), '[' or '%' goes on.
    SkipMask const goes_on = above_space & ~(is(next, 0x7F) | is(next, '[') | is(next, '%'));
    SkipMasks m;
    SkipMask const lf = is(x, '\n');
    m.open = is(x, '{');
    m.close = is(x, '}');
    // A LF before any other byte neither ends a game in movetext nor starts a tag-like line in
    // a comment.
    SkipMask const lf_on = lf & goes_on;
    m.line_ends = (lf & ~lf_on) | is(x, '\r');
    m.stops = (special & ~m.open & ~lf_on) | (result & before);
    return m;
}
#endif
#endif

inline char const* skip_plain(char const* p, char const* limit) {
#ifdef __AVX2__
    constexpr int top = skip_width - 1;
    SkipMask carry = 0; // all ones: the window starts inside a comment, opened at:
    char const* opened = nullptr;
    while (limit - p > skip_width) {
        SkipMasks const m = skip_masks(p);
        // Comments: with the braces alternating ('{' outside, '}' inside: the usual case), the
        // bytes inside are those after an odd number of braces, a prefix XOR (`open` bits
        // included, and the '}' added). A comment may cross into the next window (`carry`).
        SkipMask const braces = m.open | m.close;
        SkipMask after = braces; // after[i]: an odd number of braces up to byte i
        for (int shift = 1; shift < skip_width; shift *= 2) after ^= after << shift;
        after ^= carry;
        SkipMask const before_byte = after ^ braces;
        // Braces that do not alternate ('{' inside a comment, '}' outside one): the scalar
        // loop takes over at the first brace (or at the carried comment's '{').
        if ((m.open & before_byte) != 0 || (m.close & ~before_byte) != 0) {
            if (carry != 0) return opened;
            return p + std::countr_zero(m.stops | braces);
        }
        SkipMask const inside = after | m.close;
        // A comment over a line end where a tag-like line may start (the scalar loop reads
        // it line by line).
        SkipMask const broken = m.line_ends & inside;
        SkipMask const out = m.stops & ~inside;
        if ((out | broken) != 0) {
            // The first of: a stop outside comments, the '{' of the first broken comment.
            SkipMask const le = broken & -broken;
            if (le != 0 && (out & (le - 1)) == 0) {
                SkipMask const openers = m.open & (le - 1);
                return openers == 0 ? opened : p + (top - std::countl_zero(openers));
            }
            return p + std::countr_zero(out);
        }
        if (after >> top != 0) { // a comment goes on in the next window
            if (m.open != 0) opened = p + (top - std::countl_zero(m.open)); // the last brace
            carry = ~SkipMask{0};
        } else {
            carry = 0;
        }
        p += skip_width;
    }
    if (carry != 0) return opened; // the scalar loop reads the comment
#endif
    (void)limit;
    return p;
}

#ifdef __AVX2__
// The bytes equal to c among the 64 at p (readable), one bit a byte, with two 32-byte loads.
inline std::uint64_t eq_mask64(char const* p, char c) {
    __m256i const v = _mm256_set1_epi8(c);
    auto const lo = static_cast<std::uint32_t>(_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<__m256i const*>(p)), v)));
    auto const hi = static_cast<std::uint32_t>(_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<__m256i const*>(p + 32)), v)));
    return (std::uint64_t{hi} << 32) | lo;
}
#endif

// Whether the only ']' in [p, t) is t[-1] (t - p >= 1). [p, limit) is readable: a tag line of
// up to 64 bytes is checked with two loads and a mask instead of a byte loop.
inline bool only_bracket_is_last(char const* p, char const* t, char const* limit) {
#ifdef __AVX2__
    auto const n = t - p;
    if (n <= 64 && limit - p >= 64) {
        std::uint64_t const mask = eq_mask64(p, ']');
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

// Tag lines one after the other, 64 bytes at a time: p (at the '[' of a tag line) moves past
// the lines that the splitter's tag_line loop takes one by one as a single tag pair followed
// by another tag line: a line `[...` ending in `"]` and its LF, with no other ']' and no CR,
// whose next line (its first byte in the window) starts with '['. It stops at the first line
// that is not such a line for certain (the last tag line, a line longer than the window, a
// CR), where that loop goes on. [p, end) is the bytes read; none past them are looked at.
inline char const* skip_tag_lines(char const* p, char const* end) {
#ifdef __AVX2__
    while (end - p >= 64) {
        // The LFs whose next byte is in the window (bit 63 has none), the last of them, and
        // the bytes of the lines they end.
        std::uint64_t const lf = eq_mask64(p, '\n') & ~(std::uint64_t{1} << 63);
        if (lf == 0) break;
        int const last = 63 - std::countl_zero(lf);
        std::uint64_t const span = (std::uint64_t{2} << last) - 1;
        std::uint64_t const closes = lf >> 1;       // each line's ']'
        std::uint64_t const quotes = lf >> 2;       // each line's closing quote
        std::uint64_t const starts = (lf << 1) | 1; // each line's '[', and the next line's
        // A bit where a line breaks the shape; a line ending at LF i is taken when no such
        // bit is at or before i + 1 (its bytes, its LF and the next line's first byte).
        std::uint64_t const bad = ((eq_mask64(p, ']') & span) ^ closes) |
                                  ((eq_mask64(p, '"') & quotes) ^ quotes) |
                                  ((eq_mask64(p, '[') & starts) ^ starts) | eq_mask64(p, '\r');
        if (bad == 0) {
            p += last + 1;
            continue;
        }
        int const first_bad = std::countr_zero(bad);
        std::uint64_t const taken =
            first_bad < 2 ? 0 : lf & ((std::uint64_t{1} << (first_bad - 1)) - 1);
        if (taken != 0) p += 64 - std::countl_zero(taken);
        break;
    }
#else
    (void)end;
#endif
    return p;
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
