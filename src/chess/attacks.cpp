// Compile-time construction of the attack tables declared in attacks.hpp.
//
// The builders walk rays square by square: slow, but they run inside the compiler (about three
// seconds for the 107,648 sliding entries; src/chess/CMakeLists.txt raises the compiler's
// constexpr operation limit for this file), and the results are `constinit` data in the
// library, so no code runs at start-up.
#include "chess/attacks.hpp"

namespace pgn_iccf::chess::detail {

namespace {

struct Step {
    int file;
    int rank;
};

constexpr std::array<Step, 4> rook_steps{{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
constexpr std::array<Step, 4> bishop_steps{{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}};
constexpr std::array<Step, 8> knight_steps{
    {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}};
constexpr std::array<Step, 8> king_steps{
    {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}};

constexpr bool on_board(int file, int rank) {
    return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

constexpr Bitboard bit(int file, int rank) { return Bitboard{1} << (rank * 8 + file); }

template <std::size_t N>
constexpr Bitboard leaper(int sq, std::array<Step, N> const& steps) {
    Bitboard r = 0;
    for (Step s : steps) {
        int f = sq % 8 + s.file;
        int k = sq / 8 + s.rank;
        if (on_board(f, k)) r |= bit(f, k);
    }
    return r;
}

constexpr Bitboard slide(int sq, Bitboard occupied, std::array<Step, 4> const& steps) {
    Bitboard r = 0;
    for (Step s : steps) {
        int f = sq % 8 + s.file;
        int k = sq / 8 + s.rank;
        while (on_board(f, k)) {
            r |= bit(f, k);
            if (occupied & bit(f, k)) break;
            f += s.file;
            k += s.rank;
        }
    }
    return r;
}

// The squares whose occupancy matters for a slider on sq: its empty-board rays without the
// last square of each ray (a piece on the edge blocks nothing further).
constexpr Bitboard relevant_mask(int sq, std::array<Step, 4> const& steps) {
    Bitboard r = 0;
    for (Step s : steps) {
        int f = sq % 8 + s.file;
        int k = sq / 8 + s.rank;
        while (on_board(f + s.file, k + s.rank)) {
            r |= bit(f, k);
            f += s.file;
            k += s.rank;
        }
    }
    return r;
}

constexpr LeaperTables build_leapers() {
    LeaperTables t{};
    for (int sq = 0; sq < 64; ++sq) {
        auto i = std::size_t(sq);
        t.pawn[0][i] = leaper(sq, std::array<Step, 2>{{{-1, 1}, {1, 1}}});
        t.pawn[1][i] = leaper(sq, std::array<Step, 2>{{{-1, -1}, {1, -1}}});
        t.knight[i] = leaper(sq, knight_steps);
        t.king[i] = leaper(sq, king_steps);
    }
    for (int a = 0; a < 64; ++a) {
        for (Step s : king_steps) {
            // The full line through a in direction s (both ways), then every square b on the ray.
            Bitboard full = bit(a % 8, a / 8);
            for (int dir = -1; dir <= 1; dir += 2) {
                int f = a % 8 + dir * s.file;
                int k = a / 8 + dir * s.rank;
                while (on_board(f, k)) {
                    full |= bit(f, k);
                    f += dir * s.file;
                    k += dir * s.rank;
                }
            }
            Bitboard passed = 0;
            int f = a % 8 + s.file;
            int k = a / 8 + s.rank;
            while (on_board(f, k)) {
                auto b = std::size_t(k * 8 + f);
                t.between[std::size_t(a)][b] = passed;
                t.line[std::size_t(a)][b] = full;
                passed |= bit(f, k);
                f += s.file;
                k += s.rank;
            }
        }
    }
    return t;
}

constexpr SliderTables build_sliders() {
    SliderTables t{};
    std::uint32_t offset = 0;
    for (int pass = 0; pass < 2; ++pass) {
        auto const& steps = pass == 0 ? rook_steps : bishop_steps;
        auto& entries = pass == 0 ? t.rook : t.bishop;
        for (int sq = 0; sq < 64; ++sq) {
            Bitboard mask = relevant_mask(sq, steps);
            entries[std::size_t(sq)] = SliderEntry{mask, offset};
            // The carry-rippler enumerates the subsets of mask in the order of their PEXT index.
            Bitboard subset = 0;
            do {
                t.attacks[offset++] = slide(sq, subset, steps);
                subset = (subset - mask) & mask;
            } while (subset);
        }
    }
    return t;
}

constexpr std::size_t table_entries(std::array<Step, 4> const& steps) {
    std::size_t n = 0;
    for (int sq = 0; sq < 64; ++sq) n += std::size_t{1} << popcount(relevant_mask(sq, steps));
    return n;
}
static_assert(table_entries(rook_steps) == rook_table_size);
static_assert(table_entries(bishop_steps) == bishop_table_size);

} // namespace

constinit const LeaperTables leapers = build_leapers();
constinit const SliderTables sliders = build_sliders();

} // namespace pgn_iccf::chess::detail
