// Byte-level scanning helpers shared by the game splitter (src/reader/splitter.cpp) and the
// X3 grammar (grammar/pgn_def.hpp). No Spirit here: plain inline functions over `char const*`.
//
// Both sides must agree on the lexical rules that decide where a game ends (what a tag pair,
// a comment and a result token look like), so those rules live here, once.
#pragma once

#include "grammar/syntax.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

#ifdef __AVX2__
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif
#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace pgn_iccf::scan {

#ifdef __AVX2__
// The line-end bytes ('\n', '\r') among the 32 bytes of x, as a bit mask (bit i: byte i).
inline std::uint32_t line_end_mask(__m256i x) {
    return static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n')),
                                             _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\r')))));
}
#elif defined(__SSE2__)
// Portable x86-64 builds (no AVX2): the line-end bytes among the 16 bytes at p, as a bit mask.
inline std::uint32_t line_end_mask16(char const* p) {
    __m128i const x = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_or_si128(
        _mm_cmpeq_epi8(x, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\r')))));
}
#endif

// Byte classes for the movetext lexer (§8.2). A move token is a maximal run of bytes that
// are neither whitespace nor one of the delimiters `{ } ( ) [ ] ; $ "`. Bytes >= 0x80 are
// token bytes, so UTF-8 letters and figurines (and Latin-1 bytes) stay inside tokens.
enum class ByteClass : std::uint8_t { token = 0, space, delimiter };

constexpr std::array<ByteClass, 256> make_byte_classes() {
    std::array<ByteClass, 256> t{}; // ByteClass::token
    // ASCII control bytes (DEL, the ^Z of old DOS files, ...) count as whitespace too.
    for (int c = 0; c <= 0x20; ++c) t[static_cast<std::size_t>(c)] = ByteClass::space;
    t[0x7F] = ByteClass::space;
    for (char c : std::string_view{"{}()[];$\""})
        t[static_cast<unsigned char>(c)] = ByteClass::delimiter;
    return t;
}
inline constexpr std::array<ByteClass, 256> byte_classes = make_byte_classes();

constexpr bool is_space(char c) {
    return byte_classes[static_cast<unsigned char>(c)] == ByteClass::space;
}
constexpr bool is_blank(char c) { return c == ' ' || c == '\t'; }
constexpr bool is_line_end(char c) { return c == '\n' || c == '\r'; }
constexpr bool is_token_byte(char c) {
    return byte_classes[static_cast<unsigned char>(c)] == ByteClass::token;
}
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The first of p[0..N) for which stop(byte) holds, or nullptr: the N bytes are tested in one
// unrolled run without an end test (p[0..N) must be readable).
template <std::size_t N, typename Stop>
inline char const* first_where(char const* p, Stop stop) {
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
        char const* e = nullptr;
        (void)((stop(p[K]) && (e = p + K, true)) || ...);
        return e;
    }
    (std::make_index_sequence<N>{});
}

// End of the move token starting at p (first delimiter or whitespace, or end). With AVX2 the
// next 32 bytes are classified at once by two nibble lookups (no per-byte loop and branch):
// a byte is not a token byte when lo_nibble_classes[low nibble] & hi_nibble_classes[high
// nibble] != 0. Bits: 1 control bytes 0x00-0x1F; 2 row 0x2_: space " $ ( ); 4 ';'; 8 '[' ']';
// 16 '{' '}' DEL. Bytes >= 0x80 have no bit: token bytes.
inline char const* token_end(char const* p, char const* end) {
#ifdef __AVX2__
    while (end - p >= 32) {
        __m256i const lo_nibble_classes =
            _mm256_setr_epi8(1 | 2, 1, 1 | 2, 1, 1 | 2, 1, 1, 1, 1 | 2, 1 | 2, 1, 1 | 4 | 8 | 16, 1,
                             1 | 8 | 16, 1, 1 | 16, 1 | 2, 1, 1 | 2, 1, 1 | 2, 1, 1, 1, 1 | 2,
                             1 | 2, 1, 1 | 4 | 8 | 16, 1, 1 | 8 | 16, 1, 1 | 16);
        __m256i const hi_nibble_classes =
            _mm256_setr_epi8(1, 1, 2, 4, 0, 8, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 4, 0, 8, 0,
                             16, 0, 0, 0, 0, 0, 0, 0, 0);
        __m256i const nibble = _mm256_set1_epi8(0x0F);
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p));
        __m256i const lo = _mm256_shuffle_epi8(lo_nibble_classes, _mm256_and_si256(x, nibble));
        __m256i const hi = _mm256_shuffle_epi8(hi_nibble_classes,
                                               _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble));
        auto const token = static_cast<std::uint32_t>(_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_and_si256(lo, hi), _mm256_setzero_si256())));
        if (token != 0xFFFFFFFFu) return p + std::countr_one(token);
        p += 32;
    }
#elif defined(__wasm_simd128__)
    // The WebAssembly build (src/web): the same two nibble lookups, 16 bytes at a time
    // (i8x16.swizzle; the nibbles are 0-15, where swizzle and pshufb agree).
    while (end - p >= 16) {
        v128_t const lo_nibble_classes =
            wasm_i8x16_make(1 | 2, 1, 1 | 2, 1, 1 | 2, 1, 1, 1, 1 | 2, 1 | 2, 1, 1 | 4 | 8 | 16, 1,
                            1 | 8 | 16, 1, 1 | 16);
        v128_t const hi_nibble_classes =
            wasm_i8x16_make(1, 1, 2, 4, 0, 8, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0);
        v128_t const x = wasm_v128_load(p);
        v128_t const lo =
            wasm_i8x16_swizzle(lo_nibble_classes, wasm_v128_and(x, wasm_i8x16_splat(0x0F)));
        v128_t const hi = wasm_i8x16_swizzle(hi_nibble_classes, wasm_u8x16_shr(x, 4));
        auto const token = static_cast<std::uint32_t>(
            wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_and(lo, hi), wasm_i8x16_splat(0))));
        if (token != 0xFFFFu) return p + std::countr_one(token);
        p += 16;
    }
#endif
    // Tokens are short: with 16 bytes readable, their bytes are tested in one unrolled run
    // without the end test (fewer instructions per byte than the byte loop; callgrind, see the
    // commit).
    while (end - p >= 16)
        if (char const* const e = first_where<16>(p, [](char c) { return !is_token_byte(c); }))
            return e;
        else
            p += 16;
    while (p != end && is_token_byte(*p)) ++p;
    return p;
}

// First line-end byte ('\n' or '\r') at or after p, or end.
inline char const* find_line_end(char const* p, char const* end) {
#ifdef __AVX2__
    while (end - p >= 32) {
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p));
        auto const mask = line_end_mask(x);
        if (mask != 0) return p + std::countr_zero(mask);
        p += 32;
    }
#elif defined(__SSE2__)
    // Portable builds: 16 bytes a step (a tag line, a comment line: a fraction of the byte
    // loop's instructions per byte).
    while (end - p >= 16) {
        auto const mask = line_end_mask16(p);
        if (mask != 0) return p + std::countr_zero(mask);
        p += 16;
    }
#endif
    while (p != end && !is_line_end(*p)) ++p;
    return p;
}

// find_line_end when [p, readable_end) is readable (readable_end >= end): the bytes up to end
// are checked 32 at a time with no byte loop for the last partial block.
inline char const* find_line_end(char const* p, char const* end, char const* readable_end) {
#ifdef __AVX2__
    while (p < end && readable_end - p >= 32) {
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p));
        auto const mask = line_end_mask(x);
        if (mask != 0) return std::min(p + std::countr_zero(mask), end);
        p += 32;
    }
    if (p >= end) return end;
#elif defined(__SSE2__)
    while (p < end && readable_end - p >= 16) {
        auto const mask = line_end_mask16(p);
        if (mask != 0) return std::min(p + std::countr_zero(mask), end);
        p += 16;
    }
    if (p >= end) return end;
#else
    (void)readable_end;
#endif
    return find_line_end(p, end);
}

// First byte equal to c in [p, end), or end. Inline rather than libc memchr: the spans searched
// (a clock comment, a tag line) are a few dozen bytes, where the call costs more than the scan.
inline char const* find_byte(char const* p, char const* end, char c) {
#ifdef __AVX2__
    __m256i const needle = _mm256_set1_epi8(c);
    while (end - p >= 32) {
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p));
        auto const mask =
            static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, needle)));
        if (mask != 0) return p + std::countr_zero(mask);
        p += 32;
    }
#elif defined(__SSE2__)
    __m128i const needle = _mm_set1_epi8(c);
    while (end - p >= 16) {
        __m128i const x = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
        auto const mask = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, needle)));
        if (mask != 0) return p + std::countr_zero(mask);
        p += 16;
    }
#endif
    while (p != end && *p != c) ++p;
    return p;
}

// The first byte at or after p that is not a blank (space or tab), or end.
inline char const* skip_blanks(char const* p, char const* end) {
    while (p != end && is_blank(*p)) ++p;
    return p;
}

// Skips one line terminator (LF, CRLF or a lone CR) at p, if any.
inline char const* skip_line_end(char const* p, char const* end) {
    if (p != end && *p == '\r')
        ++p;
    else if (p != end && *p == '\n')
        return p + 1;
    else
        return p;
    if (p != end && *p == '\n') ++p;
    return p;
}

// A result token: §8.2.6 game termination markers and the other spellings of
// syntax::result_spellings (`½-½`, `1/2`, the forfeits `(+)-(-)` and `(-)-(+)`, which the
// splitter checks where a '(' would open a variation). The whole token must be one: it must
// end at whitespace, a delimiter other than '"' (`"1-0"` is a tag value out of place, not a
// result) or `end`. match_result reads the table: the first spelling the bytes start with
// decides (a spelling comes before the shorter ones it starts with).
struct ResultMatch {
    std::size_t length = 0; // 0: no result token at p
    syntax::Result result{};
};
inline ResultMatch match_result(char const* p, char const* end) {
    auto const n = static_cast<std::size_t>(end - p);
    for (syntax::ResultSpelling const& s : syntax::result_spellings) {
        std::size_t const len = s.text.size();
        if (n < len || std::memcmp(p, s.text.data(), len) != 0) continue;
        if (n == len || (!is_token_byte(p[len]) && p[len] != '"')) return {len, s.result};
        return {};
    }
    return {};
}

// match_result(p, end).length by a switch instead of the table, for the hot tests: every
// movetext token, the splitter's result candidates (grammar_test: the two agree).
inline std::size_t result_length(char const* p, char const* end) {
    auto const n = static_cast<std::size_t>(end - p);
    auto ends_at = [&](std::size_t len) -> std::size_t {
        return (n == len || (!is_token_byte(p[len]) && p[len] != '"')) ? len : 0;
    };
    switch (*p) {
    case '*':
        return ends_at(1);
    case '1':
        if (n >= 3 && p[1] == '-' && p[2] == '0') return ends_at(3);
        if (n >= 7 && std::memcmp(p, "1/2-1/2", 7) == 0) return ends_at(7);
        if (n >= 3 && p[1] == '/' && p[2] == '2') return ends_at(3); // old files: "1/2"
        return 0;
    case '0':
        if (n >= 3 && p[1] == '-' && p[2] == '1') return ends_at(3);
        return 0;
    case '\xC2':
        if (n >= 5 && std::memcmp(p, "\xC2\xBD-\xC2\xBD", 5) == 0) return ends_at(5);
        return 0;
    case '(': // forfeits as ICCF and correspondence archives write them: (+)-(-), (-)-(+)
        if (n >= 7 && (std::memcmp(p, "(+)-(-)", 7) == 0 || std::memcmp(p, "(-)-(+)", 7) == 0))
            return ends_at(7);
        return 0;
    default:
        return 0;
    }
}

// The result of scanning a tag value (§8.1.1) from just after its opening quote.
struct TagValueScan {
    char const* close = nullptr;     // the closing quote, or nullptr if none on this line
    bool unescaped_quote = false;    // an inner '"' was not escaped (recovered)
    bool trailing_backslash = false; // the value ends in an unescaped '\' (recovered)
    bool missing_quote = false;      // no closing quote: `close` is the ']' ending the line
    bool plain = true;               // no '\\' before `close` (with no inner '"': no escape)
    char const* bracket = nullptr;   // the ']' after `close` (when a quote closes the value)
};

// A quote closes the value only if blanks and a ']' follow it: real files contain unescaped
// inner quotes (`"Smith "The King""`) and values ending in a lone backslash
// (`"Tournament \"]`). The first is recovered by that rule; the second by taking, when no
// closing quote exists on the line, the last `"]` of the line even though it looks escaped;
// and a value without any closing quote ends at a ']' that ends the line.
inline TagValueScan scan_tag_value(char const* p, char const* end) {
    TagValueScan r;
    auto closes = [&](char const* q) {
        ++q;
        while (q != end && is_blank(*q)) ++q;
        if (q == end || *q != ']') return false;
        r.bracket = q;
        return true;
    };
#ifdef __AVX2__
    // Fast path: the first of '"', '\\', CR, LF in the next 32 bytes is a '"' that closes the
    // value (no escapes, no inner quote): the loop below would stop there too.
    if (end - p >= 32) {
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p));
        auto const eq = [&](char c) { return _mm256_cmpeq_epi8(x, _mm256_set1_epi8(c)); };
        auto const mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_or_si256(
            _mm256_or_si256(eq('"'), eq('\\')), _mm256_or_si256(eq('\n'), eq('\r')))));
        if (mask != 0) {
            char const* q = p + std::countr_zero(mask);
            if (*q == '"' && closes(q)) {
                r.close = q;
                return r;
            }
        }
    }
#elif defined(__SSE2__)
    // The same fast path in portable builds, over 32 bytes in two halves.
    if (end - p >= 32) {
        auto const stops = [](char const* b) {
            __m128i const x = _mm_loadu_si128(reinterpret_cast<__m128i const*>(b));
            auto const eq = [&](char c) { return _mm_cmpeq_epi8(x, _mm_set1_epi8(c)); };
            return static_cast<std::uint32_t>(_mm_movemask_epi8(
                _mm_or_si128(_mm_or_si128(eq('"'), eq('\\')), _mm_or_si128(eq('\n'), eq('\r')))));
        };
        // The second half only when the first holds no stop (most values are short).
        std::uint32_t mask = stops(p);
        if (mask == 0) mask = stops(p + 16) << 16;
        if (mask != 0) {
            char const* q = p + std::countr_zero(mask);
            if (*q == '"' && closes(q)) {
                r.close = q;
                return r;
            }
        }
    }
#endif
    char const* q = p;
    for (; q != end && !is_line_end(*q); ++q) {
        if (*q == '\\') r.plain = false;
        if (*q == '\\' && q + 1 != end && (q[1] == '"' || q[1] == '\\')) {
            ++q;
            continue;
        }
        if (*q == '"') {
            if (closes(q)) {
                r.close = q;
                return r;
            }
            r.unescaped_quote = true;
        }
    }
    for (char const* b = q; b != p;) {
        --b;
        if (*b == '"' && closes(b)) {
            r.close = b;
            r.trailing_backslash = b != p && b[-1] == '\\';
            return r;
        }
    }
    // No closing quote at all (`[PlyCount "57\x94]`, a Windows-1252 quote): the value ends at
    // a ']' that ends the line.
    char const* b = q;
    while (b != p && is_blank(b[-1])) --b;
    if (b != p && b[-1] == ']') {
        r.close = b - 1;
        r.missing_quote = true;
    }
    return r;
}

// Symbolic annotation glyphs written as tokens of their own (lichess, chess.com, ChessBase
// exports) and their NAG values (§10 NAG table; ChessBase symbol names). -1: not a glyph.
inline int glyph_nag(std::string_view t) {
    struct Glyph {
        std::string_view text;
        int nag;
    };
    static constexpr Glyph glyphs[] = {
        {"!", 1},
        {"?", 2},
        {"!!", 3},
        {"??", 4},
        {"!?", 5},
        {"?!", 6},
        {"\xE2\x80\xBC", 3}, // ‼
        {"\xE2\x81\x87", 4}, // ⁇
        {"\xE2\x81\x89", 5}, // ⁉
        {"\xE2\x81\x88", 6}, // ⁈
        {"\xE2\x96\xA1", 7}, // □ only move
        {"=", 10},
        {"\xE2\x88\x9E", 13}, // ∞ unclear
        {"\xE2\xA9\xB2", 14}, // ⩲
        {"+=", 14},
        {"+/=", 14},
        {"\xE2\xA9\xB1", 15}, // ⩱
        {"=+", 15},
        {"=/+", 15},
        {"\xC2\xB1", 16}, // ±
        {"+/-", 16},
        {"\xE2\x88\x93", 17}, // ∓
        {"-/+", 17},
        {"+/\xE2\x88\x92", 16}, // +/− with U+2212 MINUS SIGN, and so on below
        {"\xE2\x88\x92/+", 17}, // −/+
        {"+-", 18},
        {"+\xE2\x88\x92", 18}, // +−
        {"+--", 18},
        {"-+", 19},
        {"\xE2\x88\x92+", 19}, // −+
        {"--+", 19},
        {"\xE2\xA8\x80", 22},   // ⨀ zugzwang
        {"\xE2\x8A\x99", 22},   // ⊙ zugzwang
        {"\xE2\x9F\xB3", 32},   // ⟳ development advantage
        {"\xE2\x86\x91", 36},   // ↑ initiative
        {"\xE2\x86\x92", 40},   // → attack
        {"=/\xE2\x88\x9E", 44}, // =/∞ compensation
        {"=\xE2\x88\x9E", 44},
        {"\xE2\x87\x86", 132}, // ⇆ counterplay
        {"\xE2\x8A\x95", 138}, // ⊕ time trouble
        {"\xE2\x88\x86", 140}, // ∆ with the idea
        {"\xCE\x94", 140},     // Δ with the idea
        {"\xE2\x88\x87", 141}, // ∇ aimed against
        {"\xE2\x8C\x93", 142}, // ⌓ better is
        {"\xE2\x89\xA5", 142}, // ≥ better is
        {"\xE2\x89\xA4", 143}, // ≤ worse is
    };
    for (auto const& g : glyphs)
        if (g.text == t) return g.nag;
    return -1;
}

// The bytes that end a tag name (§8.1: real names hold lower case, '?' and ':'): blanks and
// other control bytes, DEL, '"', '[' and ']'. Used by the grammar and the splitter.
constexpr std::array<bool, 256> make_tag_name_ends() {
    std::array<bool, 256> t{};
    for (int c = 0; c != 256; ++c)
        t[static_cast<std::size_t>(c)] =
            is_space(static_cast<char>(c)) || c == '"' || c == '[' || c == ']';
    return t;
}
inline constexpr std::array<bool, 256> tag_name_ends = make_tag_name_ends();
inline bool ends_tag_name(char c) { return tag_name_ends[static_cast<unsigned char>(c)]; }

// The end of the tag name starting at p. Names are short: 16 bytes are compared at once (the
// byte loop cost more instructions per tag pair; callgrind, see the commit).
inline char const* tag_name_end(char const* p, char const* last) {
#ifdef __SSE2__
    if (last - p >= 16) {
        __m128i const x = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
        auto const eq = [&](char c) { return _mm_cmpeq_epi8(x, _mm_set1_epi8(c)); };
        // Control bytes and space (unsigned x <= 0x20), DEL, '"', '[' and ']' (tag_name_ends).
        __m128i const low = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x20)), x);
        __m128i const ends = _mm_or_si128(_mm_or_si128(low, eq('\x7F')),
                                          _mm_or_si128(eq('"'), _mm_or_si128(eq('['), eq(']'))));
        if (auto const bits = static_cast<unsigned>(_mm_movemask_epi8(ends)); bits != 0)
            return p + std::countr_zero(bits);
        p += 16; // a longer name goes on byte by byte
    }
#endif
    while (p != last && !ends_tag_name(*p)) ++p;
    return p;
}

} // namespace pgn_iccf::scan

// Counting lines: count_lines and its parts (grammar/scan_lines.hpp).
#include "grammar/scan_lines.hpp"
