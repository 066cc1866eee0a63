// Counting lines (LF, CRLF and lone CR, the rules of syntax::Location) over a range of bytes:
// the parser's locations and the reader's game starts. Part of grammar/scan.hpp, which
// includes it at its end (include either).
#pragma once

#include "grammar/scan.hpp"

#include <bit>
#include <cstdint>

namespace pgn_iccf::scan {

#ifdef __AVX512BW__
// With AVX-512BW, 64 bytes a step into mask registers (half the steps of the AVX2 loop of
// count_line_end_bytes): adds the line-end bytes and the CRLF pairs of [p, ...) to `ends` and
// `pairs` and moves p on, until at most 64 bytes are left before e.
[[gnu::always_inline]] inline void
count_line_end_bytes_64(char const*& p, char const* e, std::uint64_t& ends, std::uint64_t& pairs) {
    auto const eq64 = [](__m512i v, char c) {
        return static_cast<std::uint64_t>(_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(c)));
    };
    while (e - p > 64) {
        __m512i const x = _mm512_loadu_si512(p);
        __m512i const y = _mm512_loadu_si512(p + 1);
        std::uint64_t const cr = eq64(x, '\r');
        ends += static_cast<std::uint64_t>(std::popcount(cr | eq64(x, '\n')));
        pairs += static_cast<std::uint64_t>(std::popcount(cr & eq64(y, '\n')));
        p += 64;
    }
}
#endif

// The line-end bytes (LF and CR) in [b, e), and the CRLF pairs among them that lie wholly
// in [b, e). Part of count_lines_long, inlined into it.
struct LineEndBytes {
    std::uint64_t ends = 0;
    std::uint64_t pairs = 0;
};
[[gnu::always_inline]] inline LineEndBytes count_line_end_bytes(char const* b, char const* e) {
    std::uint64_t ends = 0;
    std::uint64_t pairs = 0;
    char const* p = b;
#ifdef __AVX512BW__
    count_line_end_bytes_64(p, e, ends, pairs);
#endif
#ifdef __AVX2__
    // Bit masks and population counts: no per-range reduction, so short ranges (a comment over
    // a few lines) cost a few instructions per 32 bytes. The last partial block is the 32
    // bytes ending at e, with the bits of bytes already counted masked off.
    auto const eq = [](__m256i v, char c) {
        return static_cast<std::uint32_t>(
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(c))));
    };
    while (e - p > 32) {
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p));
        __m256i const y = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p + 1));
        std::uint32_t const cr = eq(x, '\r');
        ends += static_cast<std::uint64_t>(std::popcount(cr | eq(x, '\n')));
        pairs += static_cast<std::uint64_t>(std::popcount(cr & eq(y, '\n')));
        p += 32;
    }
    if (e - b >= 32) {
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(e - 32));
        std::uint32_t const fresh = ~std::uint32_t{0} << (p - (e - 32)); // bytes from p on
        std::uint32_t const cr = eq(x, '\r') & fresh;
        std::uint32_t const lf = eq(x, '\n') & fresh;
        ends += static_cast<std::uint64_t>(std::popcount(cr | lf));
        pairs += static_cast<std::uint64_t>(std::popcount(cr & (lf >> 1)));
        p = e;
    }
#elif defined(__SSE2__)
    // Portable x86-64 builds: 16 bytes at a time in SSE2, byte-wide counters flushed with a sum
    // of absolute differences every 255 blocks. (The vector-extension loop below compiles to
    // byte-by-byte code without AVX, many instructions per byte in the splitter's hand_out;
    // this loop takes a fraction of one.)
    while (e - p > 16) {
        __m128i acc_ends = _mm_setzero_si128();
        __m128i acc_pairs = _mm_setzero_si128();
        for (int k = 0; k != 255 && e - p > 16; ++k, p += 16) {
            __m128i const x = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
            __m128i const y = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p + 1));
            __m128i const cr = _mm_cmpeq_epi8(x, _mm_set1_epi8('\r'));
            acc_ends =
                _mm_sub_epi8(acc_ends, _mm_or_si128(cr, _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))));
            acc_pairs =
                _mm_sub_epi8(acc_pairs, _mm_and_si128(cr, _mm_cmpeq_epi8(y, _mm_set1_epi8('\n'))));
        }
        __m128i const zero = _mm_setzero_si128();
        __m128i const se = _mm_sad_epu8(acc_ends, zero);
        __m128i const sp = _mm_sad_epu8(acc_pairs, zero);
        ends += static_cast<std::uint64_t>(_mm_cvtsi128_si64(se)) +
                static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(se, se)));
        pairs += static_cast<std::uint64_t>(_mm_cvtsi128_si64(sp)) +
                 static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sp, sp)));
    }
#else
    // 32 bytes at a time with GCC/Clang vector extensions; byte-wide counters are flushed
    // every 255 blocks.
    using v32 = unsigned char __attribute__((vector_size(32)));
    while (e - p > 32) {
        v32 acc_ends{};
        v32 acc_pairs{};
        for (int k = 0; k != 255 && e - p > 32; ++k, p += 32) {
            // Unaligned loads, written out: a helper returning a vector would change the ABI on
            // targets without AVX (-Wpsabi).
            v32 x;
            v32 y;
            std::memcpy(&x, p, sizeof x);
            std::memcpy(&y, p + 1, sizeof y);
            auto const cr = (x == '\r');
            acc_ends -= reinterpret_cast<v32>((x == '\n') | cr);
            acc_pairs -= reinterpret_cast<v32>(cr & (y == '\n'));
        }
        for (int k = 0; k != 32; ++k) {
            ends += acc_ends[k];
            pairs += acc_pairs[k];
        }
    }
#endif
    if (p != e) {
        for (; p + 1 < e; ++p) {
            ends += static_cast<std::uint64_t>(is_line_end(*p));
            pairs += static_cast<std::uint64_t>(*p == '\r' && p[1] == '\n');
        }
        ends += static_cast<std::uint64_t>(is_line_end(e[-1]));
    }
    return {ends, pairs};
}

// The byte after the last line-end byte in [b, e), which holds one. Part of count_lines_long,
// inlined into it.
[[gnu::always_inline]] inline char const* after_last_line_end(char const* b, char const* e) {
    char const* q = e;
#ifdef __AVX2__
    while (q - b >= 32) {
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(q - 32));
        auto const mask = line_end_mask(x);
        if (mask != 0) return q - std::countl_zero(mask);
        q -= 32;
    }
#elif defined(__SSE2__)
    while (q - b >= 16) {
        auto const mask = line_end_mask16(q - 16) << 16;
        if (mask != 0) return q - std::countl_zero(mask);
        q -= 16;
    }
#endif
    while (q != b && !is_line_end(q[-1])) --q;
    return q;
}

// Counts line ends in [b, e): LF, CRLF (once) and lone CR. `prev_cr` says whether the byte
// before b was a CR (then an LF at b completes that line end and is not counted again).
// `last_line_start` (nullptr on entry) receives the byte after the last line-end byte found.
// The long-range path, out of line so that the per-token path stays small.
[[gnu::noinline]] inline std::uint64_t count_lines_long(char const* b, char const* e, bool prev_cr,
                                                        char const*& last_line_start) {
    // Every LF and every CR counts, except the LF of a CRLF pair (also of a pair whose CR
    // ended the previous range).
    LineEndBytes n = count_line_end_bytes(b, e);
    if (prev_cr && *b == '\n') ++n.pairs;
    if (n.ends == 0) return 0; // no line-end byte: nothing to look back for (a long comment line)
    last_line_start = after_last_line_end(b, e);
    return n.ends - n.pairs;
}

// False if [b, e) certainly holds no line end; true if it may. [b, readable_end) must be
// readable: with AVX2 a span of up to 64 bytes (a comment body, the blanks between tokens) is
// checked with one or two loads and a mask instead of a byte loop.
inline bool may_hold_line_end(char const* b, char const* e, char const* readable_end) {
#ifdef __AVX2__
    auto const n = e - b;
    auto line_ends = [](char const* p) {
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p));
        return line_end_mask(x);
    };
    if (n <= 32 && readable_end - b >= 32) {
        std::uint32_t const in_span = n == 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << n) - 1;
        return (line_ends(b) & in_span) != 0;
    }
    if (n <= 64 && readable_end - b >= 64) {
        std::uint64_t const mask = (std::uint64_t{line_ends(b + 32)} << 32) | line_ends(b);
        std::uint64_t const in_span = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
        return (mask & in_span) != 0;
    }
#elif defined(__SSE2__)
    // Portable x86-64 builds: a span of up to 32 bytes with two loads.
    auto const n = e - b;
    if (n <= 32 && readable_end - b >= 32) {
        std::uint32_t const in_span = n == 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << n) - 1;
        return ((line_end_mask16(b) | (line_end_mask16(b + 16) << 16)) & in_span) != 0;
    }
#else
    (void)b;
    (void)e;
    (void)readable_end;
#endif
    return true;
}

inline std::uint64_t count_lines(char const* b, char const* e, bool prev_cr,
                                 char const*& last_line_start) {
    if (e - b >= 64) return count_lines_long(b, e, prev_cr, last_line_start);
    std::uint64_t n = 0; // between two tokens: a plain loop beats library calls
    for (char const* p = b; p != e; ++p) {
        if (*p == '\n') {
            if (p == b ? !prev_cr : p[-1] != '\r') ++n;
            last_line_start = p + 1;
        } else if (*p == '\r') {
            ++n;
            last_line_start = p + 1;
        }
    }
    return n;
}

} // namespace pgn_iccf::scan
