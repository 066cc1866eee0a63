// Attack tables: leaper attacks, sliding attacks (PEXT or magic-bitboard indexed tables), and
// the between/line tables used for pins and checks.
//
// Every table is computed at compile time (constexpr builders in attacks.cpp, `constinit`
// data), so there is no init call and no static-initialisation-order hazard: the tables are
// valid before any dynamic initialiser of any translation unit runs.
//
// Sliding attacks use one table entry per (square, subset of the relevant occupancy mask). With
// BMI2 (-march=native on a machine that has it) the index is PEXT(occupied, mask), one
// instruction. Without BMI2, and on AMD Zen 1/2 where PEXT is microcoded and slow, the index is
// the classic fancy-magic product ((occupied & mask) * magic) >> (64 - bits), with fixed magic
// numbers found offline; both schemes fill the same 107,648-entry layout. The lookups are
// inline because they sit on the hot path of move generation.
#pragma once

#include "chess/types.hpp"

#include <array>
#include <cstdint>
#include <type_traits>

// PGN_ICCF_USE_PEXT: 1 if the sliding-attack index is a PEXT instruction, 0 for magics.
// Define PGN_ICCF_NO_PEXT to force magics.
#if defined(__BMI2__) && !defined(PGN_ICCF_NO_PEXT) && !defined(__znver1__) && !defined(__znver2__)
#define PGN_ICCF_USE_PEXT 1
#include <immintrin.h>
#else
#define PGN_ICCF_USE_PEXT 0
#endif

namespace pgn_iccf::chess {

namespace detail {

struct LeaperTables {
    std::array<std::array<Bitboard, 64>, 2> pawn; // [color][square]
    std::array<Bitboard, 64> knight;
    std::array<Bitboard, 64> king;
    std::array<Bitboard, 64> rook_rays;               // rook attacks on an empty board
    std::array<Bitboard, 64> bishop_rays;             // bishop attacks on an empty board
    std::array<std::array<Bitboard, 64>, 64> between; // strictly between, 0 if not aligned
    std::array<std::array<Bitboard, 64>, 64> line;    // whole line through both, 0 if not aligned
    std::array<std::array<Bitboard, 64>, 8> pseudo;   // [PieceType][square]: empty-board attacks
};

// One sliding-piece square: the relevant occupancy mask (edges excluded), its magic multiplier
// and shift (used without PEXT), and where its block of 2^popcount(mask) attack sets starts in
// SliderTables::attacks.
struct SliderEntry {
    Bitboard mask = 0;
    Bitboard magic = 0;
    std::uint32_t offset = 0;
    std::uint32_t shift = 0;
};

inline constexpr std::size_t rook_table_size = 102400;
inline constexpr std::size_t bishop_table_size = 5248;

struct SliderTables {
    std::array<SliderEntry, 64> rook;
    std::array<SliderEntry, 64> bishop;
    std::array<Bitboard, rook_table_size + bishop_table_size> attacks;
};

extern const LeaperTables leapers;
extern const SliderTables sliders;

// Index of the attack set for `occupied` within the square's block.
constexpr std::uint64_t slider_index(SliderEntry const& e, Bitboard occupied) {
#if PGN_ICCF_USE_PEXT
    if (!std::is_constant_evaluated()) return _pext_u64(occupied, e.mask);
    // Portable PEXT for the compile-time table builder.
    std::uint64_t r = 0;
    Bitboard mask = e.mask;
    for (std::uint64_t bit = 1; mask; bit += bit) {
        if (occupied & mask & (0 - mask)) r |= bit;
        mask &= mask - 1;
    }
    return r;
#else
    return ((occupied & e.mask) * e.magic) >> e.shift;
#endif
}

inline Bitboard slider_lookup(SliderEntry const& e, Bitboard occupied) {
    return sliders.attacks[e.offset + slider_index(e, occupied)];
}

} // namespace detail

inline Bitboard pawn_attacks(Color c, Square s) {
    return detail::leapers.pawn[std::size_t(c)][std::size_t(s.index())];
}
inline Bitboard knight_attacks(Square s) { return detail::leapers.knight[std::size_t(s.index())]; }
inline Bitboard king_attacks(Square s) { return detail::leapers.king[std::size_t(s.index())]; }
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
    return detail::slider_lookup(detail::sliders.bishop[std::size_t(s.index())], occupied);
}
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
    return detail::slider_lookup(detail::sliders.rook[std::size_t(s.index())], occupied);
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
    return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}

// Attacks of a non-pawn piece type from s (0 for pawn and none).
inline Bitboard attacks(PieceType t, Square s, Bitboard occupied) {
    switch (t) {
    case PieceType::knight:
        return knight_attacks(s);
    case PieceType::bishop:
        return bishop_attacks(s, occupied);
    case PieceType::rook:
        return rook_attacks(s, occupied);
    case PieceType::queen:
        return queen_attacks(s, occupied);
    case PieceType::king:
        return king_attacks(s);
    default:
        return 0;
    }
}

// Empty-board attacks of a rook / bishop / queen on s (no table index to compute).
inline Bitboard rook_rays(Square s) { return detail::leapers.rook_rays[std::size_t(s.index())]; }
inline Bitboard bishop_rays(Square s) {
    return detail::leapers.bishop_rays[std::size_t(s.index())];
}
inline Bitboard queen_rays(Square s) { return rook_rays(s) | bishop_rays(s); }

// Attacks of a non-pawn piece type from s on an empty board (0 for pawn and none). A piece of
// type t on s attacks b given `occupied` exactly when pseudo_attacks(t, s) holds b and
// between(s, b) & occupied is empty: one test without a sliding-attack lookup.
inline Bitboard pseudo_attacks(PieceType t, Square s) {
    return detail::leapers.pseudo[std::size_t(t)][std::size_t(s.index())];
}

// Squares strictly between a and b if they share a line (rank, file, diagonal), else 0.
inline Bitboard between(Square a, Square b) {
    return detail::leapers.between[std::size_t(a.index())][std::size_t(b.index())];
}
// The whole line through a and b (both included) if they share one, else 0.
inline Bitboard line(Square a, Square b) {
    return detail::leapers.line[std::size_t(a.index())][std::size_t(b.index())];
}
// True if a, b and c lie on one line.
inline bool aligned(Square a, Square b, Square c) { return (line(a, b) & c.bb()) != 0; }

inline constexpr Bitboard more_than_one(Bitboard b) { return b & (b - 1); }

// The squares of `from` from which a piece of type t (knight to king) attacks `to`, given
// `occupied`: the empty-board filter, then a between test per slider left (usually one or
// two). Reading the 800 KB sliding-attack table instead missed the cache on every SAN piece
// move (perf, SAN -> numeric mixed: much of read_move's time went to that one load).
// (A knight's or king's squares are never two apart on a line, so between() is empty for
// them: no branch on the type.)
inline Bitboard reaching(PieceType t, Square to, Bitboard from, Bitboard occupied) {
    Bitboard const near = from & pseudo_attacks(t, to);
    Bitboard result = near;
    for (Bitboard b = near; b; b &= b - 1) {
        Square const s = lsb(b);
        if (between(s, to) & occupied) result ^= s.bb();
    }
    return result;
}

} // namespace pgn_iccf::chess
