// Unit tests of the chess engine (src/chess): FEN input/output, legality in tricky positions,
// make/unmake, gives_check, null moves, mate and stalemate, and the consistency of the several
// legality entry points (generate_legal, legal_moves_to, is_legal, castling_move, counts).
#define BOOST_TEST_MODULE chess
#include <boost/test/unit_test.hpp>

#include "chess/position.hpp"
#include "notation/notation.hpp"
#include "report/codes.hpp"

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace pgn_iccf::chess;

Position from_fen(std::string const& fen, bool chess960 = false) {
    Position p;
    std::string error;
    BOOST_TEST_REQUIRE((error = pgn_iccf::report::fen_message(p.set_fen(fen, chess960))).empty(),
                       "set_fen failed: " << error);
    return p;
}

std::string square_name(Square s) { return {char('a' + s.file()), char('1' + s.rank())}; }

// UCI text of a move; castling as king to destination (standard) or king to rook (Chess960).
std::string uci(Position const& p, Move m) {
    return std::string(pgn_iccf::notation::write_uci(p, m).view());
}

std::vector<Move> legal(Position const& p) {
    MoveList list;
    p.generate_legal(list);
    return {list.begin(), list.end()};
}

// The legal move with this UCI text, or Move{} if there is none.
Move find_move(Position const& p, std::string const& text) {
    for (Move m : legal(p))
        if (uci(p, m) == text) return m;
    return Move{};
}

std::vector<std::string> uci_list(Position const& p) {
    std::vector<std::string> v;
    for (Move m : legal(p)) v.push_back(uci(p, m));
    std::sort(v.begin(), v.end());
    return v;
}

struct EpdPosition {
    std::string fen;
    bool chess960;
};

std::vector<EpdPosition> epd_positions() {
    std::vector<EpdPosition> v;
    for (auto [name, c960] : {std::pair{"perft.epd", false}, std::pair{"perft960.epd", true}}) {
        std::ifstream in(std::string(PGN_ICCF_DATA_DIR) + "/" + name);
        BOOST_TEST_REQUIRE(in.good(), "cannot open " << name);
        std::string line;
        while (std::getline(in, line)) {
            auto semi = line.find(';');
            if (line.empty() || semi == std::string::npos) continue;
            v.push_back({line.substr(0, semi), c960});
        }
    }
    BOOST_TEST_REQUIRE(v.size() == 184U);
    return v;
}

// Derived state (checkers, blockers) and the FEN must agree with a fresh parse of fen().
void check_consistent(Position const& p) {
    Position q;
    std::string error;
    BOOST_TEST_REQUIRE(
        (error = pgn_iccf::report::fen_message(q.set_fen(p.fen(), p.chess960()))).empty(),
        error << " in " << p.fen());
    BOOST_TEST((q == p));
    BOOST_TEST(q.fen() == p.fen());
    BOOST_TEST(q.checkers() == p.checkers());
    BOOST_TEST(q.blockers_for_king(Color::white) == p.blockers_for_king(Color::white));
    BOOST_TEST(q.blockers_for_king(Color::black) == p.blockers_for_king(Color::black));
    BOOST_TEST(p.checkers() ==
               (p.attackers_to(p.king_square(p.side_to_move())) & p.pieces(~p.side_to_move())));
    BOOST_TEST((p.attackers_to(p.king_square(~p.side_to_move())) & p.pieces(p.side_to_move())) ==
               0U);
}

} // namespace

// --- FEN ------------------------------------------------------------------------------------

struct FenCase {
    char const* input;
    char const* output; // nullptr: same as input
    bool chess960;      // expected chess960() after parsing
};

BOOST_AUTO_TEST_CASE(fen_round_trip) {
    FenCase const cases[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", nullptr, false},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", nullptr, false},
        {"4k3/8/8/8/8/8/8/4K2R w K - 17 63", nullptr, false},
        {"r3k3/8/8/8/8/8/8/4K3 b q - 0 1", nullptr, false},
        // en passant kept when a capture is legal (both sides to move) ...
        {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", nullptr, false},
        {"rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3", nullptr, false},
        // ... dropped when no pawn can capture, or the capture is illegal (horizontal pin)
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
         "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", false},
        {"8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "8/8/8/KPp4r/8/8/8/7k w - - 0 2", false},
        // missing move counters
        {"8/8/8/8/8/8/8/K6k w - -", "8/8/8/8/8/8/8/K6k w - - 0 1", false},
        // Chess960, Shredder input with outermost rooks -> X-FEN output
        {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
         "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9", true},
        {"1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
         "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w KQkq - 0 9", true},
        // X-FEN KQkq with the king off the e-file is Chess960
        {"nr1kqrbn/pbpppppp/1p6/8/8/BP6/P1PPPPPP/NR1KQRBN b KQkq - 0 1", nullptr, true},
        // file letters name a standard-looking position: Chess960 all the same
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1",
         "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", true},
        // an inner rook needs its file letter (Shredder), mixed with X-FEN letters
        {"rr6/2kpp3/1ppn2p1/p2b1q1p/P4P1P/1PNN2P1/2PP4/1K2R2R b E - 1 20", nullptr, true},
        {"r3k2r/8/8/8/8/8/8/R2RK2R w HDkq - 0 1", "r3k2r/8/8/8/8/8/8/R2RK2R w KDkq - 0 1", true},
        {"2r1kr2/8/8/8/8/8/8/R1R1K1R1 w GCfc - 0 1", "2r1kr2/8/8/8/8/8/8/R1R1K1R1 w KCkq - 0 1",
         true},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(c.input) {
            Position p = from_fen(c.input);
            BOOST_TEST(p.fen() == (c.output ? c.output : c.input));
            BOOST_TEST(p.chess960() == c.chess960);
            check_consistent(p);
        }
    }
}

BOOST_AUTO_TEST_CASE(fen_chess960_flag_and_accessors) {
    Position p = from_fen(std::string(Position::start_fen), true);
    BOOST_TEST(p.chess960());
    BOOST_TEST(p.fen() == Position::start_fen);
    BOOST_TEST((p.castling_rook(Color::white, CastleSide::king) == Square::at(7, 0)));
    BOOST_TEST((p.castling_rook(Color::black, CastleSide::queen) == Square::at(0, 7)));
    BOOST_TEST((Position() == from_fen(std::string(Position::start_fen))));
    BOOST_TEST(!(Position() == p)); // the Chess960 flag is part of the state

    Position q = from_fen("rr6/2kpp3/1ppn2p1/p2b1q1p/P4P1P/1PNN2P1/2PP4/1K2R2R b E - 1 20");
    BOOST_TEST(q.can_castle(Color::white, CastleSide::king));
    BOOST_TEST(!q.can_castle(Color::white, CastleSide::queen));
    BOOST_TEST(!q.can_castle(Color::black, CastleSide::king));
    BOOST_TEST((q.castling_rook(Color::white, CastleSide::king) == Square::at(4, 0)));
    BOOST_TEST((q.king_square(Color::white) == Square::at(1, 0)));
    BOOST_TEST(q.halfmove_clock() == 1);
    BOOST_TEST(q.fullmove_number() == 20);
    BOOST_TEST((q.side_to_move() == Color::black));
}

struct BadFen {
    char const* fen;
    char const* error; // a part of the expected message
};

BOOST_AUTO_TEST_CASE(fen_rejected) {
    BadFen const cases[] = {
        {"", "at least 4 fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "at least 4 fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "more than 6 fields"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "8 ranks of 8 squares"},
        {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 does not have 8"},
        {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "invalid character '9'"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "more than 8 squares"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks of 8 squares"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", "more than 8 ranks"},
        {"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "invalid character 'x'"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "0 white kings"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNk w - - 0 1", "2 black kings"},
        {"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "first or eighth rank"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkX - 0 1", "invalid character 'X'"},
        {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", "without a rook on that side"},
        {"4k3/8/8/8/8/8/8/4K2R w G - 0 1", "without a rook on that file"},
        {"4k3/8/8/8/8/8/4K3/7R w K - 0 1", "king is not on its first rank"},
        {"4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "duplicate castling right"},
        {"4k3/8/8/8/8/8/8/4K2R w KH - 0 1", "duplicate castling right"},
        {"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "side not to move is in check"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant square"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "not on the sixth rank"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e6 0 1", "not on the third rank"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", "fullmove number"},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT("'" << c.fen << "'") {
            Position p;
            std::string error;
            BOOST_TEST(!(error = pgn_iccf::report::fen_message(p.set_fen(c.fen, false))).empty());
            BOOST_TEST(error.find(c.error) != std::string::npos, "error was '" << error << "'");
            BOOST_TEST(!Position().set_fen(c.fen).ok()); // the value alone says so
        }
    }
}

// --- legality in tricky positions -------------------------------------------------------------

struct MoveCase {
    char const* fen;
    std::vector<std::string> moves; // the complete sorted list of legal moves (UCI)
};

BOOST_AUTO_TEST_CASE(legal_move_lists) {
    MoveCase const cases[] = {
        // double check (rook e8, knight d3): only the king moves; Qxd3 would leave the rook check
        {"4r1k1/8/8/8/8/3n4/8/3QK3 w - - 0 1", {"e1d2", "e1f1"}},
        // horizontal pin of the en passant pair: bxc6 e.p. would expose the king to the rook
        {"8/8/8/KPp4r/8/8/8/7k w - c6 0 2", {"a5a4", "a5a6", "a5b6", "b5b6"}},
        // without the rook the capture is legal
        {"8/8/8/KPp5/8/8/8/7k w - c6 0 2", {"a5a4", "a5a6", "a5b6", "b5b6", "b5c6"}},
        // en passant captures the checking pawn
        {"8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
         {"c5b4", "c5b5", "c5b6", "c5c4", "c5c6", "c5d4", "c5d5", "c5d6", "e4d3"}},
        // castling through check (f1 attacked) is illegal; b1 attacked does not matter
        {"1r2k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1",
         {"a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", "a1b1",
          "a1c1", "a1d1", "e1c1", "e1d1", "e1d2", "e1f2", "h1f1", "h1g1",
          "h1h2", "h1h3", "h1h4", "h1h5", "h1h6", "h1h7", "h1h8"}},
        // castling out of check is illegal
        {"4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", {"e1d1", "e1d2", "e1f1", "e1f2"}},
        // promotions to all four pieces, with and without capture
        {"1n1k4/P7/8/8/8/8/8/4K3 w - - 0 1",
         {"a7a8b", "a7a8n", "a7a8q", "a7a8r", "a7b8b", "a7b8n", "a7b8q", "a7b8r", "e1d1", "e1d2",
          "e1e2", "e1f1", "e1f2"}},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(c.fen) {
            Position p = from_fen(c.fen);
            auto got = uci_list(p);
            BOOST_TEST(got == c.moves, boost::test_tools::per_element());
            BOOST_TEST(p.count_legal_moves() == int(c.moves.size()));
        }
    }
}

struct CastleCase {
    char const* fen;
    CastleSide side;
    char const* after; // FEN after castling, nullptr if castling is illegal
};

BOOST_AUTO_TEST_CASE(castling_cases) {
    CastleCase const cases[] = {
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", CastleSide::king,
         "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"},
        {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", CastleSide::queen,
         "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2"},
        {"4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1", CastleSide::king, nullptr}, // into check
        {"4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", CastleSide::king, nullptr},  // blocked
        {"4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", CastleSide::queen, nullptr}, // b1 blocked
        // Chess960: the king lands on its own rook's square, and the other way round
        {"r3k2r/8/8/8/8/8/8/1R2K1R1 w GBkq - 0 1", CastleSide::king,
         "r3k2r/8/8/8/8/8/8/1R3RK1 b kq - 1 1"},
        {"r3k2r/8/8/8/8/8/8/1R2K1R1 w GBkq - 0 1", CastleSide::queen,
         "r3k2r/8/8/8/8/8/8/2KR2R1 b kq - 1 1"},
        // the king's destination is attacked by the rook on g8
        {"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", CastleSide::king, nullptr},
        {"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", CastleSide::queen,
         "1r2k1r1/8/8/8/8/8/8/2KR2R1 b kq - 1 1"},
        // the rook stays on its square (d1 is its destination)
        {"r3k2r/8/8/8/8/8/8/R2RK2R w HDkq - 0 1", CastleSide::queen,
         "r3k2r/8/8/8/8/8/8/R1KR3R b kq - 1 1"},
        // king and rook swap squares
        {"8/8/8/8/8/8/8/2RK3k w C - 0 1", CastleSide::queen, "8/8/8/8/8/8/8/2KR3k b - - 1 1"},
        // the king does not move, only the rook
        {"8/8/8/8/8/8/8/R1K4k w A - 0 1", CastleSide::queen, "8/8/8/8/8/8/8/2KR3k b - - 1 1"},
        {"k7/8/8/8/8/8/8/6KR w H - 0 1", CastleSide::king, "k7/8/8/8/8/8/8/5RK1 b - - 1 1"},
        // the castling rook shields the king's destination from the queen on a1
        {"4k3/8/8/8/8/8/8/qR1K4 w B - 0 1", CastleSide::queen, nullptr},
        {"4k3/8/8/8/8/8/8/qRK5 w B - 0 1", CastleSide::queen, nullptr},
        {"4k3/8/8/8/8/8/8/nR1K4 w B - 0 1", CastleSide::queen, "4k3/8/8/8/8/8/8/n1KR4 b - - 1 1"},
        // the rook's path is blocked by a piece the king does not cross
        {"k7/8/8/8/8/8/8/1K3N1R w H - 0 1", CastleSide::king, nullptr},
        // the king crosses an attacked square on its long way
        {"k4r2/8/8/8/8/8/8/1K5R w H - 0 1", CastleSide::king, nullptr},
        {"k3r3/8/8/8/8/8/8/1K5R w H - 0 1", CastleSide::king, nullptr},
        {"k2r4/8/8/8/8/8/8/1K5R w H - 0 1", CastleSide::king, nullptr},
        {"k6r/8/8/8/8/8/8/1K5R w H - 0 1", CastleSide::king, "k6r/8/8/8/8/8/8/5RK1 b - - 1 1"},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(c.fen << (c.side == CastleSide::king ? " O-O" : " O-O-O")) {
            Position p = from_fen(c.fen);
            Position before = p;
            Move m = p.castling_move(c.side);
            auto list = legal(p);
            bool listed = std::any_of(list.begin(), list.end(), [&](Move x) {
                return x.kind() == MoveKind::castling &&
                       (x.to().index() > x.from().index()) == (c.side == CastleSide::king);
            });
            BOOST_TEST(listed == (c.after != nullptr));
            if (!c.after) {
                BOOST_TEST(!m.ok());
                continue;
            }
            BOOST_TEST_REQUIRE(m.ok());
            BOOST_TEST((m.kind() == MoveKind::castling));
            BOOST_TEST((m.from() == p.king_square(p.side_to_move())));
            BOOST_TEST((m.to() == p.castling_rook(p.side_to_move(), c.side)));
            BOOST_TEST(p.is_legal(m));
            bool check = p.gives_check(m);
            UndoInfo undo;
            p.do_move(m, undo);
            BOOST_TEST(p.fen() == c.after);
            BOOST_TEST(check == p.in_check());
            check_consistent(p);
            p.undo_move(m, undo);
            BOOST_TEST(p.fen() == before.fen());
            BOOST_TEST((p == before));
        }
    }
}

struct CheckCase {
    char const* fen;
    char const* move;
    bool check;
};

BOOST_AUTO_TEST_CASE(gives_check_cases) {
    CheckCase const cases[] = {
        {"5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true},     // castling rook checks
        {"8/8/8/8/8/8/8/2RK3k w C - 0 1", "d1c1", true},      // 960 swap, rook checks
        {"8/8/8/R2Pp2k/8/8/8/4K3 w - e6 0 1", "d5e6", true},  // e.p. discovers the rook
        {"8/8/8/R2Pp2k/8/8/8/4K3 w - e6 0 1", "d5d6", false}, // the pawn still blocks
        {"8/8/8/8/8/2k5/1N6/B3K3 w - - 0 1", "b2d1", true},   // discovered by the knight
        {"8/8/8/8/8/2k5/1N6/B3K3 w - - 0 1", "e1f1", false},  // king move, nothing
        {"8/8/8/8/8/2k5/8/4K1N1 w - - 0 1", "g1e2", true},    // knight checks itself
        {"8/8/8/8/8/2k5/8/4K1N1 w - - 0 1", "g1f3", false},   //
        {"2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", true},   // promotion checks
        {"2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8r", true},   //
        {"2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8b", false},  //
        {"2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", false},  //
        {"7r/6P1/8/8/8/8/8/k3K3 w - - 0 1", "g7h8q", true},   // through the vacated g7
        {"7r/6P1/8/8/8/8/8/k3K3 w - - 0 1", "g7h8r", false},  //
        {"8/8/8/8/8/1k6/8/R3K3 w Q - 0 1", "e1c1", false},    // rook d1 misses b3
        {"8/8/8/8/8/8/8/R3K2k w Q - 0 1", "e1c1", true},      // d1 rook along the rank
        {"4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1", "d2d7", true},    //
        {"4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1", "d2a5", false},   //
        {"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "f1b5", false},
        {"rnbqkbnr/ppp2ppp/3p4/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "f1b5", true},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(c.fen << " " << c.move) {
            Position p = from_fen(c.fen);
            Move m = find_move(p, c.move);
            BOOST_TEST_REQUIRE(m.ok(), "no legal move " << c.move);
            BOOST_TEST(p.gives_check(m) == c.check);
            UndoInfo undo;
            p.do_move(m, undo);
            BOOST_TEST(p.in_check() == c.check);
        }
    }
}

struct EndCase {
    char const* fen;
    bool checkmate;
    bool stalemate;
};

BOOST_AUTO_TEST_CASE(checkmate_and_stalemate) {
    EndCase const cases[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, false},
        {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", true, false},
        {"6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", true, false},  // smothered
        {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false, true},    //
        {"k7/8/1Q6/8/8/8/8/7K b - - 0 1", false, true},     //
        {"4k3/8/8/8/8/8/8/4K2r w - - 0 1", false, false},   // check, not mate
        {"7k/8/8/8/8/8/5q2/7K w - - 0 1", false, true},     //
        {"8/8/8/8/8/5k2/5p2/5K2 w - - 0 1", false, true},   // blocked by the pawn
        {"k7/P7/K7/8/8/8/8/1R6 b - - 0 1", false, true},    //
        {"1k6/1P6/1K6/8/8/8/8/R7 b - - 0 1", false, true},  //
        {"7k/8/8/8/8/8/2q5/K7 w - - 0 1", false, true},     //
        {"7k/8/8/8/8/8/1qp5/K7 w - - 0 1", false, false},   // Kxb2 is possible
        {"8/8/8/8/8/2k5/1qp5/K7 w - - 0 1", true, false},   // the queen is defended
        {"3k4/8/8/8/8/8/8/R3K2R b KQ - 0 1", false, false}, //
        {"R2k4/8/3K4/8/8/8/8/8 b - - 0 1", true, false},    //
        {"3k4/3P4/3K4/8/8/8/8/8 b - - 0 1", false, true},   //
        {"8/8/8/8/8/8/p7/k1K5 b - - 0 1", false, true},     // the pawn is blocked
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(c.fen) {
            Position p = from_fen(c.fen);
            BOOST_TEST(p.is_checkmate() == c.checkmate);
            BOOST_TEST(p.is_stalemate() == c.stalemate);
            BOOST_TEST(p.has_legal_move() == !(c.checkmate || c.stalemate));
            BOOST_TEST(p.has_legal_move() == (p.count_legal_moves() > 0));
        }
    }
}

BOOST_AUTO_TEST_CASE(null_move) {
    char const* fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    Position p = from_fen(fen);
    Position before = p;
    BOOST_TEST((p.ep_square() == Square::at(5, 5)));
    UndoInfo undo;
    p.do_move(Move::null_move(), undo);
    BOOST_TEST(p.fen() == "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3");
    BOOST_TEST(!p.in_check());
    check_consistent(p);
    UndoInfo undo2;
    p.do_move(Move::null_move(), undo2);
    BOOST_TEST(p.fen() == "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 2 4");
    p.undo_move(Move::null_move(), undo2);
    p.undo_move(Move::null_move(), undo);
    BOOST_TEST(p.fen() == fen);
    BOOST_TEST((p == before));

    // After a null move the pinned and checking relations still hold for the other side.
    Position q = from_fen("4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1"); // Ne2 pinned
    q.do_move(Move::null_move(), undo);
    check_consistent(q);
    q.undo_move(Move::null_move(), undo);
    BOOST_TEST(uci_list(q) == (std::vector<std::string>{"e1d1", "e1d2", "e1f1", "e1f2"}),
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(ep_square_only_when_capturable) {
    Position p;
    UndoInfo u1;
    UndoInfo u2;
    Move e4 = find_move(p, "e2e4");
    p.do_move(e4, u1);
    BOOST_TEST(!p.ep_square().ok()); // no black pawn can take on e3
    BOOST_TEST(p.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");

    Position q = from_fen("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3");
    Move c4 = find_move(q, "c2c4");
    q.do_move(c4, u2);
    BOOST_TEST((q.ep_square() == Square::at(2, 2)));
    BOOST_TEST(q.fen() == "rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 3");
    Move ep = find_move(q, "d4c3");
    BOOST_TEST((ep.kind() == MoveKind::en_passant));
}

// --- whole-suite consistency ------------------------------------------------------------------

// For every perft position, every legal move and every reply: make/unmake restores the exact
// state, gives_check agrees with do_move + in_check, the position after the move agrees with
// a fresh parse of its FEN, and counts/has_legal_move/castling_move agree with the list.
BOOST_AUTO_TEST_CASE(make_unmake_and_gives_check_on_perft_positions) {
    int moves_checked = 0;
    auto check_node = [&](Position& p, auto&& recurse, int depth) -> void {
        auto list = legal(p);
        BOOST_TEST(p.count_legal_moves() == int(list.size()));
        BOOST_TEST(p.has_legal_move() == !list.empty());
        for (CastleSide side : {CastleSide::king, CastleSide::queen}) {
            Move expected{};
            for (Move m : list)
                if (m.kind() == MoveKind::castling &&
                    (m.to().index() > m.from().index()) == (side == CastleSide::king))
                    expected = m;
            BOOST_TEST((p.castling_move(side) == expected));
        }
        Position const before = p;
        std::string const fen = p.fen();
        for (Move m : list) {
            BOOST_TEST_CONTEXT("move " << uci(p, m)) {
                BOOST_TEST(p.is_legal(m));
                BOOST_TEST(p.is_legal_pseudo(m));
                bool check = p.gives_check(m);
                UndoInfo undo;
                p.do_move(m, undo);
                ++moves_checked;
                BOOST_TEST(check == p.in_check());
                check_consistent(p);
                if (depth > 1) recurse(p, recurse, depth - 1);
                p.undo_move(m, undo);
                BOOST_TEST((p == before));
                BOOST_TEST(p.checkers() == before.checkers());
                BOOST_TEST(p.blockers_for_king(Color::white) ==
                           before.blockers_for_king(Color::white));
                BOOST_TEST(p.blockers_for_king(Color::black) ==
                           before.blockers_for_king(Color::black));
            }
        }
        BOOST_TEST(p.fen() == fen);
    };
    for (auto const& e : epd_positions()) {
        BOOST_TEST_CONTEXT(e.fen) {
            Position p = from_fen(e.fen, e.chess960);
            check_consistent(p);
            check_node(p, check_node, 2);
        }
    }
    BOOST_TEST_MESSAGE("make/unmake and gives_check: " << moves_checked << " moves");
    BOOST_TEST(moves_checked > 50000);
}

// legal_moves_to(type, to) returns exactly the generated moves of that piece type to that
// square (castling excluded).
BOOST_AUTO_TEST_CASE(legal_moves_to_matches_generation) {
    for (auto const& e : epd_positions()) {
        BOOST_TEST_CONTEXT(e.fen) {
            Position p = from_fen(e.fen, e.chess960);
            auto list = legal(p);
            for (int t = index(PieceType::pawn); t <= index(PieceType::king); ++t) {
                for (int s = 0; s < 64; ++s) {
                    std::vector<Move> expected;
                    for (Move m : list)
                        if (m.kind() != MoveKind::castling && m.to() == Square(s) &&
                            p.piece_on(m.from()).type() == PieceType(t))
                            expected.push_back(m);
                    MoveList got;
                    p.legal_moves_to(PieceType(t), Square(s), got);
                    std::vector<Move> g(got.begin(), got.end());
                    auto key = [](Move m) {
                        return m.from().index() * 4096 + m.to().index() * 64 + int(m.kind()) * 8 +
                               int(m.promotion());
                    };
                    auto less = [&](Move a, Move b) { return key(a) < key(b); };
                    std::sort(expected.begin(), expected.end(), less);
                    std::sort(g.begin(), g.end(), less);
                    BOOST_TEST_CONTEXT("type " << t << " to " << square_name(Square(s))) {
                        BOOST_TEST((g == expected));
                    }
                }
            }
        }
    }
}

// is_legal over every possible Move value (all from/to pairs, all 8 kind codes and all 8
// promotion codes) equals membership in the generated list.
BOOST_AUTO_TEST_CASE(is_legal_exhaustive) {
    char const* const fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        "1n1k4/P7/8/8/8/8/8/4K3 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "4r1k1/8/8/8/8/3n4/8/3QK3 w - - 0 1",
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        "8/8/8/8/8/8/8/2RK3k w C - 0 1",
        "4k3/8/8/8/8/8/8/qR1K4 w B - 0 1",
        "2r1kr2/8/8/8/8/8/8/R1R1K1R1 w GCfc - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    };
    for (char const* fen : fens) {
        BOOST_TEST_CONTEXT(fen) {
            Position p = from_fen(fen);
            MoveList list;
            p.generate_legal(list);
            int legal_count = 0;
            int mismatches = 0;
            for (int from = 0; from < 64; ++from)
                for (int to = 0; to < 64; ++to)
                    for (int kind = 0; kind < 8; ++kind)
                        for (int promo = 0; promo < 8; ++promo) {
                            Move m{Square{from}, Square{to}, MoveKind(kind), PieceType(promo)};
                            bool expected = list.contains(m);
                            if (p.is_legal(m) != expected) {
                                ++mismatches;
                                BOOST_TEST(p.is_legal(m) == expected,
                                           "move " << from << "-" << to << " kind " << kind
                                                   << " promotion " << promo);
                            }
                            legal_count += p.is_legal(m);
                        }
            BOOST_TEST(mismatches == 0);
            BOOST_TEST(legal_count == list.size);
            BOOST_TEST(!p.is_legal(Move{}));
            BOOST_TEST(!p.is_legal(Move::null_move()));
        }
    }
}

// Attack-table spot checks against hand-computed sets.
BOOST_AUTO_TEST_CASE(attack_tables) {
    auto sq = [](char const* n) { return Square::at(n[0] - 'a', n[1] - '1'); };
    auto set = [&](std::initializer_list<char const*> names) {
        Bitboard b = 0;
        for (auto n : names) b |= sq(n).bb();
        return b;
    };
    BOOST_TEST(knight_attacks(sq("a1")) == set({"b3", "c2"}));
    BOOST_TEST(king_attacks(sq("h8")) == set({"g8", "g7", "h7"}));
    BOOST_TEST(pawn_attacks(Color::white, sq("a2")) == set({"b3"}));
    BOOST_TEST(pawn_attacks(Color::black, sq("e5")) == set({"d4", "f4"}));
    BOOST_TEST(rook_attacks(sq("d4"), set({"d6", "b4", "d1", "g4", "h8"})) ==
               set({"d5", "d6", "c4", "b4", "d3", "d2", "d1", "e4", "f4", "g4"}));
    BOOST_TEST(bishop_attacks(sq("c1"), set({"e3", "b2"})) == set({"b2", "d2", "e3"}));
    BOOST_TEST(queen_attacks(sq("a1"), ~Bitboard{0}) == set({"a2", "b1", "b2"}));
    BOOST_TEST(rook_attacks(sq("h8"), 0) ==
               ((0xFFULL << 56 | 0x8080808080808080ULL) ^ sq("h8").bb()));
    BOOST_TEST(between(sq("a1"), sq("d4")) == set({"b2", "c3"}));
    BOOST_TEST(between(sq("a1"), sq("b3")) == 0U);
    BOOST_TEST(between(sq("e1"), sq("e2")) == 0U);
    BOOST_TEST(line(sq("b2"), sq("c3")) == 0x8040201008040201ULL);
    BOOST_TEST(line(sq("a1"), sq("b3")) == 0U);
    BOOST_TEST(attacks(PieceType::knight, sq("g1"), 0) == set({"e2", "f3", "h3"}));
}

// reaching() (the empty-board filter and a between test per slider) gives the sliding-attack
// table's answer for every piece, target square and set of candidate squares on random boards.
BOOST_AUTO_TEST_CASE(reaching_matches_the_attack_tables) {
    std::uint64_t x = 0x9E3779B97F4A7C15ULL;
    auto next = [&x] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    for (int round = 0; round < 2000; ++round) {
        Bitboard const occupied = next() & next();
        for (PieceType t : {PieceType::knight, PieceType::bishop, PieceType::rook, PieceType::queen,
                            PieceType::king})
            for (int to = 0; to < 64; ++to) {
                Bitboard const from = next() | occupied;
                BOOST_TEST_REQUIRE(reaching(t, Square(to), from, occupied) ==
                                   (from & attacks(t, Square(to), occupied)));
            }
    }
}

// Every sliding-attack table entry (all subsets of every square's relevant mask, reached
// through the real lookup, PEXT or magic) against a plain ray walk, with noise outside the mask.
BOOST_AUTO_TEST_CASE(slider_tables_match_ray_walk) {
    auto walk = [](int sq, Bitboard occupied, bool rook) {
        Bitboard r = 0;
        int const dirs[2][4][2] = {{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}},
                                   {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
        for (auto const& d : dirs[rook]) {
            int f = sq % 8 + d[0];
            int k = sq / 8 + d[1];
            while (f >= 0 && f < 8 && k >= 0 && k < 8) {
                r |= Square::at(f, k).bb();
                if (occupied & Square::at(f, k).bb()) break;
                f += d[0];
                k += d[1];
            }
        }
        return r;
    };
    std::uint64_t noise = 0x9E3779B97F4A7C15ULL;
    int checked = 0;
    int wrong = 0;
    for (int sq = 0; sq < 64; ++sq) {
        for (bool rook : {false, true}) {
            Bitboard mask = walk(sq, 0, rook);
            // Edge squares of each ray do not matter; enumerate the subsets of the rest.
            Bitboard inner = 0;
            for (Bitboard b = mask; b;) {
                Square s = pop_lsb(b);
                if (walk(sq, s.bb(), rook) != walk(sq, 0, rook)) inner |= s.bb();
            }
            Bitboard subset = 0;
            do {
                noise ^= noise << 13;
                noise ^= noise >> 7;
                noise ^= noise << 17;
                Bitboard occupied = subset | (noise & ~inner & ~Square(sq).bb());
                Bitboard got = rook ? rook_attacks(Square(sq), occupied)
                                    : bishop_attacks(Square(sq), occupied);
                if (got != walk(sq, occupied, rook)) ++wrong;
                ++checked;
                subset = (subset - inner) & inner;
            } while (subset);
        }
    }
    BOOST_TEST(checked == 107648);
    BOOST_TEST(wrong == 0);
}
