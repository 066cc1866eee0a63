// Compile-time construction of the attack tables declared in attacks.hpp.
//
// The builders walk rays square by square: slow, but they run inside the compiler (seconds
// for the 107,648 sliding entries; src/chess/CMakeLists.txt raises the compiler's
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

// Fancy-magic multipliers (used when PEXT is not), one per square, found offline by the usual
// random sparse search; tests/chess_test.cpp checks every table entry against a ray walk.
constexpr std::array<Bitboard, 64> rook_magics{{
    0x1080004008801020ULL, 0x0840092002C03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000A001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021D00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000A0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000A00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040A00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xC100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000A0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040A00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04C1002414824001ULL, 0x020020000B001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084C0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
}};
constexpr std::array<Bitboard, 64> bishop_magics{{
    0xA010041108003100ULL, 0x006082020A002900ULL, 0x6810010619200000ULL, 0x08281A0520000408ULL,
    0x0001104001000400ULL, 0x0018901008048400ULL, 0x00040A0210245280ULL, 0x000200210808A402ULL,
    0x9140048410821200ULL, 0x0800091010820041ULL, 0x20504804832202C0ULL, 0x0100091401081000ULL,
    0x8021011140000012ULL, 0x0810020804450400ULL, 0x208B0542109008A2ULL, 0x0080084A08040204ULL,
    0x0040E2A80811244CULL, 0x2505022008008108ULL, 0x0430220100420040ULL, 0x010A040420220040ULL,
    0x1105000290400000ULL, 0x0093001200822120ULL, 0x4000A62048043004ULL, 0x280120048A015004ULL,
    0x006090002A020814ULL, 0x44042000240800D0ULL, 0x01102800040A4400ULL, 0x1004080080220040ULL,
    0x0001001011004024ULL, 0x0010044000805040ULL, 0x0914041200820100ULL, 0x0004821012821480ULL,
    0x0024040500C05021ULL, 0x0088611002080200ULL, 0x0116080A00040020ULL, 0x4000020080080080ULL,
    0x2450450140840040ULL, 0x0000880201484100ULL, 0x0222020404020092ULL, 0x8081110600002E00ULL,
    0x2842101105000801ULL, 0x1100809008001025ULL, 0x00020202221C0400ULL, 0x0422014022009020ULL,
    0x0210046102100C00ULL, 0xC004008082029102ULL, 0x00AA461801101200ULL, 0x0404080080201108ULL,
    0x020542108C205002ULL, 0x0410544804100100ULL, 0x0040910841100000ULL, 0x0400200042021100ULL,
    0x00004204850400C0ULL, 0x0200100410A42102ULL, 0x1040020801210102ULL, 0x0805040410420000ULL,
    0x2884804130100200ULL, 0x800C262201242000ULL, 0x1058000194108800ULL, 0x0014221054420204ULL,
    0x0104000012A02200ULL, 0x0200881003300100ULL, 0x0140400202840100ULL, 0x0402020801010201ULL,
}};

constexpr LeaperTables build_leapers() {
    LeaperTables t{};
    for (int sq = 0; sq < 64; ++sq) {
        auto i = std::size_t(sq);
        t.pawn[0][i] = leaper(sq, std::array<Step, 2>{{{-1, 1}, {1, 1}}});
        t.pawn[1][i] = leaper(sq, std::array<Step, 2>{{{-1, -1}, {1, -1}}});
        t.knight[i] = leaper(sq, knight_steps);
        t.king[i] = leaper(sq, king_steps);
        t.rook_rays[i] = slide(sq, 0, rook_steps);
        t.bishop_rays[i] = slide(sq, 0, bishop_steps);
        t.pseudo[std::size_t(PieceType::knight)][i] = t.knight[i];
        t.pseudo[std::size_t(PieceType::bishop)][i] = t.bishop_rays[i];
        t.pseudo[std::size_t(PieceType::rook)][i] = t.rook_rays[i];
        t.pseudo[std::size_t(PieceType::queen)][i] = t.rook_rays[i] | t.bishop_rays[i];
        t.pseudo[std::size_t(PieceType::king)][i] = t.king[i];
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
        auto const& magics = pass == 0 ? rook_magics : bishop_magics;
        auto& entries = pass == 0 ? t.rook : t.bishop;
        for (int sq = 0; sq < 64; ++sq) {
            Bitboard mask = relevant_mask(sq, steps);
            auto bits = std::uint32_t(popcount(mask));
            SliderEntry e{mask, magics[std::size_t(sq)], offset, 64 - bits};
            entries[std::size_t(sq)] = e;
            // Every subset of the mask (carry-rippler enumeration) at its index. Two subsets
            // with different attacks on one index (a bad magic) stop the compilation.
            std::array<bool, 4096> written{};
            Bitboard subset = 0;
            do {
                auto i = std::size_t(slider_index(e, subset));
                Bitboard a = slide(sq, subset, steps);
                if (written[i] && t.attacks[offset + i] != a) throw "slider table index collision";
                written[i] = true;
                t.attacks[offset + i] = a;
                subset = (subset - mask) & mask;
            } while (subset);
            offset += std::uint32_t{1} << bits;
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
