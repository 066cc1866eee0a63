// Tables for src/notation: (FEN, language, input text, expected move or error kind) for
// reading, and (FEN, language, notation, move, expected text) for writing.
//
// Every expected value was written by hand from the PGN standard (§8.2.3 SAN), ICCF numeric
// notation and LANGUAGES.md, and checked on a board; none is copied from program output.
// Moves are written "<from><to>" plus "q"/"r"/"b"/"n" for a promotion, "ep" for en passant
// and "O" for castling (encoded as king takes own rook, e.g. "e1h1O").
#define BOOST_TEST_MODULE notation
#include <boost/test/unit_test.hpp>

#include "notation/notation.hpp"
#include "report/codes.hpp"
#include "support/properties.hpp"

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace n = pgn_iccf::notation;
namespace props = pgn_iccf::properties;
using pgn_iccf::chess::Move;
using pgn_iccf::chess::MoveKind;
using pgn_iccf::chess::PieceType;
using pgn_iccf::chess::Position;
using pgn_iccf::chess::Square;

namespace {

// --- positions (each checked on a board) -------------------------------------------------
constexpr std::string_view start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
// 1. e4 (Black to move)
constexpr std::string_view after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
// 1. e4 e5 (White to move: Bf1, Qd1 and Ke1 can move)
constexpr std::string_view e4e5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
// Knights b1 and f3 both reach d2: file disambiguation.
constexpr std::string_view knights_file = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
// Knights g1 and g5 both reach f3 (and h3): rank disambiguation.
constexpr std::string_view knights_rank = "4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1";
// Queens a1, c1, a3 all reach b2: a1 needs the square, c1 the file, a3 the rank.
constexpr std::string_view queens = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
// Nc3 is pinned by Bb4 against Ke1: only Ng1 reaches e2, no disambiguation.
constexpr std::string_view pinned = "4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1";
// Black has just played f7-f5 next to the e5 pawn: exf6 en passant.
constexpr std::string_view en_passant =
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
// 1. e4 d5: only the e4 pawn takes on d5.
constexpr std::string_view one_taker =
    "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
// Pawns c4 and e4 can both take the pawn on d5.
constexpr std::string_view two_takers = "4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1";
// Pawn b7 can push to b8 (check along the 8th rank) or take the rook on a8.
constexpr std::string_view promo_white = "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
// Pawn b2 can push to b1 or take the rook on a1 (both queen promotions check e1).
constexpr std::string_view promo_black = "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1";
constexpr std::string_view castle_white = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
constexpr std::string_view castle_black = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
constexpr std::string_view no_rights = "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1";
// Chess960: king f1, rooks a1 and g1 (O-O: Kg1 Rf1; O-O-O: Kc1 Rd1).
constexpr std::string_view c960_ga = "4k3/8/8/8/8/8/8/R4KR1 w GA - 0 1";
// Chess960: king f1, rooks a1 and h1; Kg1 is also an ordinary king move.
constexpr std::string_view c960_ha = "4k3/8/8/8/8/8/8/R4K1R w HA - 0 1";
// Ra8 mates (back rank).
constexpr std::string_view back_rank = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
// Ra8 checks; Ra5 is a quiet rook move.
constexpr std::string_view rook_check = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
// e7-e8 promotes and uncovers the rook a7 on the king h7 (discovered check).
constexpr std::string_view promo_discovered = "8/R3P2k/8/8/8/8/8/K7 w - - 0 1";
// O-O puts the rook on f1, checking Kf8.
constexpr std::string_view castle_check = "5k2/8/8/8/8/8/8/4K2R w K - 0 1";

Position make(std::string_view fen) {
    Position p;
    std::string error;
    BOOST_REQUIRE_MESSAGE((error = pgn_iccf::report::fen_message(p.set_fen(fen, false))).empty(),
                          "bad FEN " << fen << ": " << error);
    return p;
}

Square sq(std::string_view s) { return Square::at(s[0] - 'a', s[1] - '1'); }

// "e2e4", "e7e8q", "e5f6ep", "e1h1O" -> Move
Move spec(std::string_view s) {
    Square from = sq(s.substr(0, 2)), to = sq(s.substr(2, 2));
    std::string_view rest = s.substr(4);
    if (rest == "ep") return Move(from, to, MoveKind::en_passant);
    if (rest == "O") return Move(from, to, MoveKind::castling);
    if (rest.empty()) return Move(from, to);
    PieceType t = rest == "q"   ? PieceType::queen
                  : rest == "r" ? PieceType::rook
                  : rest == "b" ? PieceType::bishop
                                : PieceType::knight;
    return Move(from, to, MoveKind::promotion, t);
}

std::string show(Move m) {
    if (!m.ok()) return "(none)";
    std::string s;
    for (Square x : {m.from(), m.to()}) {
        s += char('a' + x.file());
        s += char('1' + x.rank());
    }
    switch (m.kind()) {
    case MoveKind::en_passant:
        s += "ep";
        break;
    case MoveKind::castling:
        s += "O";
        break;
    case MoveKind::promotion:
        s += "?nbrq"[std::size_t(m.promotion()) - 1];
        break;
    default:
        break;
    }
    return s;
}

n::ReadError error_named(std::string_view s) {
    using E = n::ReadError;
    if (s == "syntax") return E::invalid_syntax;
    if (s == "letter") return E::unknown_piece_letter;
    if (s == "no_piece") return E::no_piece;
    if (s == "illegal") return E::illegal;
    if (s == "ambiguous") return E::ambiguous;
    if (s == "promo_missing") return E::promotion_missing;
    if (s == "promo_not_allowed") return E::promotion_not_allowed;
    if (s == "bad_square") return E::bad_square;
    if (s == "wrong_color") return E::wrong_color;
    BOOST_FAIL("unknown error name " << s);
    return E::none;
}

n::Letters const* lang(std::string_view code) {
    n::Letters const* l = n::letters_for(code);
    BOOST_REQUIRE_MESSAGE(l != nullptr, "no language " << code);
    return l;
}

// expect: a move spec, or "!" + error name.
struct ReadRow {
    std::string_view fen;
    std::string_view lang;
    std::string_view input;
    std::string_view expect;
    bool short_promotion = false; // --iccf-short-promotion
};

// clang-format off
ReadRow const read_rows[] = {
    // --- SAN, English ---------------------------------------------------------------------
    {start, "en", "e4", "e2e4"},
    {start, "en", "e3", "e2e3"},
    {start, "en", "Nf3", "g1f3"},
    {start, "en", "Nc3", "b1c3"},
    {start, "en", "Ngf3", "g1f3"},          // over-disambiguated
    {start, "en", "N1f3", "g1f3"},          // over-disambiguated by rank
    {start, "en", "Nxf3", "g1f3"},          // extra x
    {start, "en", "Nf3+", "g1f3"},          // wrong check mark
    {start, "en", "e4#", "e2e4"},           // wrong mate mark
    {start, "en", "Nf3!?", "g1f3"},         // annotation left on the token
    {start, "en", "e4!", "e2e4"},
    {start, "en", "Nf3?!", "g1f3"},
    {start, "en", "e5", "!illegal"},        // pawns on the e-file, none reaches e5
    {start, "en", "Nf4", "!illegal"},
    {start, "en", "Qd3", "!illegal"},
    {start, "en", "Nd2", "!illegal"},       // own pawn on d2
    {start, "en", "Nbf3", "!illegal"},      // the b1 knight does not reach f3
    {start, "en", "Nhf3", "!no_piece"},     // no knight on the h-file
    {after_e4, "en", "e5", "e7e5"},
    {after_e4, "en", "Nf6", "g8f6"},
    {after_e4, "en", "Nf3", "!illegal"},
    {e4e5, "en", "Bc4", "f1c4"},
    {e4e5, "en", "Qh5", "d1h5"},
    {e4e5, "en", "Ke2", "e1e2"},
    {e4e5, "en", "Kxe2", "e1e2"},
    {knights_file, "en", "Nd2", "!ambiguous"},
    {knights_file, "en", "Nxd2", "!ambiguous"},
    {knights_file, "en", "Nbd2", "b1d2"},
    {knights_file, "en", "Nfd2", "f3d2"},
    {knights_file, "en", "N1d2", "b1d2"},
    {knights_file, "en", "N3d2", "f3d2"},
    {knights_file, "en", "Nbxd2", "b1d2"},
    {knights_file, "en", "Ncd2", "!no_piece"},
    {knights_rank, "en", "Nf3", "!ambiguous"},
    {knights_rank, "en", "Ngf3", "!ambiguous"},
    {knights_rank, "en", "N1f3", "g1f3"},
    {knights_rank, "en", "N5f3", "g5f3"},
    {knights_rank, "en", "Ne4", "g5e4"},
    {queens, "en", "Qb2", "!ambiguous"},
    {queens, "en", "Qab2", "!ambiguous"},
    {queens, "en", "Q1b2", "!ambiguous"},
    {queens, "en", "Qcb2", "c1b2"},
    {queens, "en", "Q3b2", "a3b2"},
    {queens, "en", "Qa1b2", "a1b2"},
    {queens, "en", "Qa1xb2", "a1b2"},
    {pinned, "en", "Ne2", "g1e2"},
    {pinned, "en", "Nge2", "g1e2"},
    {pinned, "en", "Nce2", "!illegal"},
    {pinned, "en", "Nd5", "!illegal"},
    // en passant
    {en_passant, "en", "exf6", "e5f6ep"},
    {en_passant, "en", "ef6", "e5f6ep"},       // missing x
    {en_passant, "en", "exf6e.p.", "e5f6ep"},
    {en_passant, "en", "exf6ep", "e5f6ep"},
    {en_passant, "en", "exf6+e.p.", "e5f6ep"},
    {en_passant, "en", "exd6", "!illegal"},    // d5 pawn did not just double-push
    {en_passant, "en", "e6", "e5e6"},
    {en_passant, "en", "dxf6", "!illegal"},    // d->f is no pawn capture
    // promotion
    {promo_white, "en", "b8=Q", "b7b8q"},
    {promo_white, "en", "b8Q", "b7b8q"},
    {promo_white, "en", "b8q", "b7b8q"},
    {promo_white, "en", "b8=q", "b7b8q"},
    {promo_white, "en", "b8(Q)", "b7b8q"},
    {promo_white, "en", "b8/Q", "b7b8q"},
    {promo_white, "en", "b8=R+", "b7b8r"},
    {promo_white, "en", "b8=B", "b7b8b"},
    {promo_white, "en", "b8=N", "b7b8n"},
    {promo_white, "en", "bxa8=N", "b7a8n"},
    {promo_white, "en", "bxa8n", "b7a8n"},
    {promo_white, "en", "ba8=Q", "b7a8q"},
    {promo_white, "en", "b8", "!promo_missing"},
    {promo_white, "en", "bxa8", "!promo_missing"},
    {promo_white, "en", "b8=K", "!illegal"},
    {promo_white, "en", "b8=P", "!illegal"},
    {promo_white, "en", "b8=X", "!letter"},
    {promo_white, "en", "b8=", "!syntax"},
    {promo_white, "en", "bxc8=Q", "!illegal"},  // nothing on c8
    {promo_black, "en", "b1=Q", "b2b1q"},
    {promo_black, "en", "bxa1=R", "b2a1r"},
    {promo_black, "en", "b1", "!promo_missing"},
    {start, "en", "e4=Q", "!promo_not_allowed"},
    {start, "en", "e4Q", "!promo_not_allowed"},
    {start, "en", "Nf3=Q", "!promo_not_allowed"},
    // castling
    {castle_white, "en", "O-O", "e1h1O"},
    {castle_white, "en", "O-O-O", "e1a1O"},
    {castle_white, "en", "0-0", "e1h1O"},
    {castle_white, "en", "0-0-0", "e1a1O"},
    {castle_white, "en", "o-o", "e1h1O"},
    {castle_white, "en", "o-o-o", "e1a1O"},
    {castle_white, "en", "O-O+", "e1h1O"},
    {castle_white, "en", "OO", "e1h1O"},
    {castle_white, "en", "O-O-O-O", "!syntax"},
    {castle_black, "en", "O-O", "e8h8O"},
    {castle_black, "en", "O-O-O", "e8a8O"},
    {no_rights, "en", "O-O", "!illegal"},
    {no_rights, "en", "O-O-O", "!illegal"},
    {start, "en", "O-O", "!illegal"},
    {c960_ga, "en", "O-O", "f1g1O"},
    {c960_ga, "en", "O-O-O", "f1a1O"},
    {c960_ha, "en", "O-O", "f1h1O"},
    {c960_ha, "en", "Kg1", "f1g1"},
    // lower-case piece letters: b is a pawn file first
    {start, "en", "b4", "b2b4"},
    {start, "en", "nf3", "g1f3"},
    {start, "en", "bc3", "!illegal"},       // pawn reading: b2 takes on c3 (empty)
    {e4e5, "en", "bxc3", "!illegal"},       // pawn capture, nothing on c3
    {e4e5, "en", "bc4", "!no_piece"},       // pawn reading: no pawn on b3
    {e4e5, "en", "bb5", "f1b5"},            // b-pawn cannot go b->b: bishop
    {e4e5, "en", "bd3", "f1d3"},            // b->d is no pawn capture: bishop
    {e4e5, "en", "qh5", "d1h5"},
    {e4e5, "en", "ke2", "e1e2"},
    {start, "en", "bc1e3", "!illegal"},     // bishop c1-e3, blocked by d2
    {e4e5, "en", "bf1c4", "f1c4"},          // lower-case bishop, long algebraic
    // unknown letters and syntax
    {start, "en", "Xf3", "!letter"},
    {start, "en", "Sf3", "!letter"},        // German knight, input language English
    {start, "en", "E4", "!letter"},
    {start, "en", "Кf3", "!letter"},        // Cyrillic
    {start, "en", "Z0", "!letter"},         // null moves are the caller's business
    {start, "en", "i4", "!syntax"},
    {start, "en", "e9", "!syntax"},
    {start, "en", "", "!syntax"},
    {start, "en", "+", "!syntax"},
    {start, "en", "--", "!syntax"},
    {start, "en", "1-0", "!syntax"},
    {start, "en", "N", "!syntax"},
    {start, "en", "Nf", "!syntax"},
    {start, "en", "xe4", "!syntax"},
    {start, "en", "Nabcf3", "!syntax"},
    // --- long algebraic ---------------------------------------------------------------------
    {start, "en", "e2e4", "e2e4"},
    {start, "en", "e2-e4", "e2e4"},
    {start, "en", "e2xe4", "e2e4"},
    {start, "en", "g1f3", "g1f3"},
    {start, "en", "Ng1-f3", "g1f3"},
    {start, "en", "Ng1xf3", "g1f3"},
    {start, "en", "Ng1f3", "g1f3"},
    {start, "en", "Pe2-e4", "e2e4"},
    // --- an explicit pawn letter (some sources write it) --------------------------------------
    {start, "en", "Pe4", "e2e4"},
    {one_taker, "en", "Pxd5", "e4d5"},
    {one_taker, "en", "Pd5", "e4d5"},   // onto a piece: a capture without its x
    {one_taker, "en", "Pexd5", "e4d5"},
    {one_taker, "de", "Bxd5", "e4d5"},  // B is the German pawn
    {two_takers, "en", "Pxd5", "!ambiguous"},
    {two_takers, "en", "Pcxd5", "c4d5"},
    {two_takers, "en", "Pxc5", "c4c5"}, // nothing to take: a push (the x is never checked)
    {en_passant, "en", "Pxf6", "e5f6ep"},
    {promo_white, "en", "Pxa8=Q", "b7a8q"},
    {promo_white, "en", "Pxa8", "!promo_missing"}, // not "no pawn can move there"
    {start, "en", "Nb1-f3", "!illegal"},
    {start, "en", "Ne2-e4", "!no_piece"},   // a pawn stands on e2
    {start, "en", "e3e4", "!no_piece"},
    {start, "en", "e7e5", "!wrong_color"},
    {start, "en", "e2e5", "!illegal"},
    {start, "en", "e2e4q", "!promo_not_allowed"},
    {en_passant, "en", "e5f6", "e5f6ep"},
    {en_passant, "en", "e5xf6", "e5f6ep"},
    {promo_white, "en", "b7b8q", "b7b8q"},
    {promo_white, "en", "b7b8=Q", "b7b8q"},
    {promo_white, "en", "b7-b8=Q", "b7b8q"},
    {promo_white, "en", "b7a8n", "b7a8n"},
    {promo_white, "en", "b7xa8=N", "b7a8n"},
    {promo_white, "en", "b7b8", "!promo_missing"},
    {castle_white, "en", "e1g1", "e1h1O"},  // the king's two-square move is castling
    {castle_white, "en", "e1c1", "e1a1O"},
    {castle_white, "en", "e1h1", "e1h1O"},  // king takes own rook
    {castle_white, "en", "Ke1-g1", "e1h1O"},
    {castle_black, "en", "e8g8", "e8h8O"},
    {no_rights, "en", "e1g1", "!illegal"},
    // --- ICCF numeric -----------------------------------------------------------------------
    {start, "en", "5254", "e2e4"},
    {start, "en", "7163", "g1f3"},
    {start, "en", "5254+", "e2e4"},
    {after_e4, "en", "5755", "e7e5"},
    {after_e4, "en", "7866", "g8f6"},
    {start, "en", "5244", "!illegal"},
    {start, "en", "5354", "!no_piece"},
    {start, "en", "5755", "!wrong_color"},
    {start, "en", "5294", "!bad_square"},
    {start, "en", "0254", "!bad_square"},
    {start, "en", "5250", "!bad_square"},
    {start, "en", "525", "!syntax"},
    {start, "en", "525412", "!syntax"},
    {start, "en", "52545", "!syntax"},       // fifth digit only 1-4
    {start, "en", "52541", "!promo_not_allowed"},
    {en_passant, "en", "5566", "e5f6ep"},
    {promo_white, "en", "27281", "b7b8q"},
    {promo_white, "en", "27282", "b7b8r"},
    {promo_white, "en", "27283", "b7b8b"},
    {promo_white, "en", "27284", "b7b8n"},
    {promo_white, "en", "27184", "b7a8n"},
    {promo_white, "en", "2728", "!promo_missing"},
    {promo_white, "en", "2721", "!promo_missing"},     // short form without the option
    {promo_white, "en", "2721", "b7b8q", true},        // from b7, file b, queen
    {promo_white, "en", "2714", "b7a8n", true},        // from b7, file a, knight
    {promo_white, "en", "2734", "!illegal", true},     // c8 is empty
    {promo_black, "en", "22211", "b2b1q"},
    {promo_black, "en", "22114", "b2a1n"},
    {promo_black, "en", "2221", "!promo_missing"},
    {promo_black, "en", "2221", "b2b1q", true},
    {promo_black, "en", "2214", "b2a1n", true},
    {castle_white, "en", "5171", "e1h1O"},
    {castle_white, "en", "5131", "e1a1O"},
    {castle_black, "en", "5878", "e8h8O"},
    {castle_black, "en", "5838", "e8a8O"},
    {no_rights, "en", "5171", "!illegal"},
    {c960_ga, "en", "6171", "f1g1O"},   // king square + rook square
    {c960_ga, "en", "6111", "f1a1O"},
    {c960_ga, "en", "6131", "f1a1O"},   // the king's destination, unambiguous
    {c960_ha, "en", "6181", "f1h1O"},
    {c960_ha, "en", "6171", "f1g1"},    // an ordinary king move comes first
    {back_rank, "en", "1118", "a1a8"},
    // --- localized SAN ----------------------------------------------------------------------
    {start, "de", "Sf3", "g1f3"},
    {start, "de", "Sgf3", "g1f3"},
    {start, "de", "e4", "e2e4"},
    {start, "de", "Be4", "e2e4"},           // B is the German pawn
    {start, "de", "Nf3", "!letter"},
    {start, "de", "sf3", "g1f3"},
    {e4e5, "de", "Lc4", "f1c4"},
    {e4e5, "de", "Dh5", "d1h5"},
    {e4e5, "de", "dh5", "d1h5"},            // d->h is no pawn capture: queen
    {e4e5, "de", "Ke2", "e1e2"},
    {start, "de", "Sg1-f3", "g1f3"},
    {promo_white, "de", "b8=D", "b7b8q"},
    {promo_white, "de", "b8D", "b7b8q"},
    {promo_white, "de", "b8d", "b7b8q"},
    {promo_white, "de", "bxa8=S", "b7a8n"},
    {promo_white, "de", "b7b8T", "b7b8r"},
    {promo_white, "de", "b8=Q", "!letter"},
    {rook_check, "de", "Ta5", "a1a5"},
    {start, "fr", "Cf3", "g1f3"},
    {e4e5, "fr", "Fc4", "f1c4"},
    {e4e5, "fr", "Re2", "e1e2"},            // R is the French king
    {rook_check, "fr", "Ta5", "a1a5"},
    {e4e5, "es", "Ac4", "f1c4"},
    {e4e5, "es", "Dh5", "d1h5"},
    {e4e5, "it", "Ac4", "f1c4"},
    {e4e5, "pt", "Bc4", "f1c4"},
    {e4e5, "pt", "Re2", "e1e2"},
    {start, "pt", "Cf3", "g1f3"},
    {e4e5, "ro", "Nc4", "f1c4"},            // N is the Romanian bishop
    {start, "ro", "Cf3", "g1f3"},
    {start, "fi", "Rf3", "g1f3"},           // R is the Finnish knight
    {e4e5, "fi", "Lc4", "f1c4"},
    {start, "is", "Rf3", "g1f3"},
    {e4e5, "is", "Bc4", "f1c4"},
    {rook_check, "is", "Ha5", "a1a5"},
    {start, "et", "Rf3", "g1f3"},
    {e4e5, "et", "Oc4", "f1c4"},
    {e4e5, "et", "Lh5", "d1h5"},
    {rook_check, "et", "Va5", "a1a5"},
    {start, "cs", "Jf3", "g1f3"},
    {e4e5, "cs", "Sc4", "f1c4"},
    {rook_check, "cs", "Va5", "a1a5"},
    {start, "sk", "Jf3", "g1f3"},
    {start, "da", "Sf3", "g1f3"},
    {start, "da", "Be4", "e2e4"},
    {start, "no", "Sf3", "g1f3"},
    {start, "sv", "Sf3", "g1f3"},
    {start, "hr", "Sf3", "g1f3"},
    {start, "af", "Rf3", "g1f3"},
    {e4e5, "af", "Lc4", "f1c4"},
    {start, "hu", "Hf3", "g1f3"},
    {start, "hu", "Ge4", "e2e4"},           // G is the Hungarian pawn
    {e4e5, "hu", "Fc4", "f1c4"},
    {e4e5, "hu", "Vh5", "d1h5"},
    {rook_check, "hu", "Ba5", "a1a5"},      // B is the Hungarian rook
    {start, "nl", "Pf3", "g1f3"},           // P is the Dutch knight
    {start, "nl", "Oe4", "e2e4"},           // O is the Dutch pawn
    {e4e5, "nl", "Lc4", "f1c4"},
    {start, "pl", "Sf3", "g1f3"},
    {e4e5, "pl", "Gc4", "f1c4"},
    {e4e5, "pl", "Hh5", "d1h5"},
    {rook_check, "pl", "Wa5", "a1a5"},
    {start, "ca", "Cf3", "g1f3"},
    {start, "ru", "Кf3", "g1f3"},           // Cyrillic К: the knight
    {e4e5, "ru", "Крe2", "e1e2"},           // Кр: the king, longest letter first
    {e4e5, "ru", "Фh5", "d1h5"},
    {e4e5, "ru", "Сc4", "f1c4"},
    {rook_check, "ru", "Лa5", "a1a5"},
    {start, "ru", "пe4", "e2e4"},
    {start, "ru", "Kf3", "!letter"},        // Latin K
    {castle_white, "ru", "Лхa8", "a1a8"},   // Cyrillic х as the capture sign
    {castle_white, "ru", "Лa1:a8", "a1a8"},
    {castle_white, "en", "Rxa8", "a1a8"},
    {castle_white, "en", "R:a8", "a1a8"},
    {castle_white, "en", "Ra1×a8", "a1a8"},
    {promo_white, "ru", "b8=Ф", "b7b8q"},
    {start, "bg", "Кf3", "g1f3"},
    {e4e5, "bg", "Цe2", "e1e2"},
    {e4e5, "bg", "Оc4", "f1c4"},
    {e4e5, "bg", "Дh5", "d1h5"},
    {start, "sq", "Kaf3", "g1f3"},
    {start, "sq", "Kf3", "!letter"},
    {e4e5, "sq", "Mshh5", "d1h5"},
    {e4e5, "sq", "Me2", "e1e2"},
    {e4e5, "sq", "Oc4", "f1c4"},
    {rook_check, "sq", "Kua5", "a1a5"},
    {start, "sq", "Ue4", "e2e4"},
    {promo_white, "sq", "b8=Msh", "b7b8q"},
    {start, "be", "Вf3", "g1f3"},
    {e4e5, "be", "Взh5", "d1h5"},
    {e4e5, "be", "Кe2", "e1e2"},
    {e4e5, "be", "Аc4", "f1c4"},
    {rook_check, "be", "Лдa5", "a1a5"},     // Лд: the rook, before Л the pawn
    {start, "be", "Лe4", "e2e4"},
    // --- figurines ----------------------------------------------------------------------------
    {start, "en", "♘f3", "g1f3"},
    {start, "en", "♞f3", "g1f3"},             // Black's symbol for a White move
    {start, "en", "♙e4", "e2e4"},
    {e4e5, "en", "♗c4", "f1c4"},
    {e4e5, "en", "♝c4", "f1c4"},
    {e4e5, "en", "♕h5", "d1h5"},
    {e4e5, "en", "♔e2", "e1e2"},
    {after_e4, "en", "♞f6", "g8f6"},
    {after_e4, "en", "♘f6", "g8f6"},
    {promo_white, "en", "b8=♕", "b7b8q"},
    {promo_white, "en", "bxa8♞", "b7a8n"},
    {start, "de", "♘f3", "g1f3"},
    {start, "figurine", "♘f3", "g1f3"},
    {start, "figurine", "Nf3", "g1f3"},       // figurine input also takes English letters
};
// clang-format on

struct WriteRow {
    std::string_view fen;
    std::string_view lang;
    char notation; // 's' SAN, 'l' long algebraic, 'n' numeric
    std::string_view move;
    std::string_view expect;
};

// clang-format off
WriteRow const write_rows[] = {
    {start, "en", 's', "e2e4", "e4"},
    {start, "en", 's', "g1f3", "Nf3"},
    {start, "en", 's', "b1c3", "Nc3"},
    {start, "en", 'n', "e2e4", "5254"},
    {start, "en", 'n', "g1f3", "7163"},
    {start, "en", 'l', "e2e4", "e2-e4"},
    {start, "en", 'l', "g1f3", "Ng1-f3"},
    {after_e4, "en", 's', "e7e5", "e5"},
    {after_e4, "en", 'n', "g8f6", "7866"},
    {e4e5, "en", 's', "f1c4", "Bc4"},
    {e4e5, "en", 's', "e1e2", "Ke2"},
    {knights_file, "en", 's', "b1d2", "Nbd2"},
    {knights_file, "en", 's', "f3d2", "Nfd2"},
    {knights_file, "en", 's', "f3e5", "Ne5"},
    {knights_rank, "en", 's', "g1f3", "N1f3"},
    {knights_rank, "en", 's', "g5f3", "N5f3"},
    {knights_rank, "en", 's', "g5e4", "Ne4"},
    {queens, "en", 's', "a1b2", "Qa1b2"},
    {queens, "en", 's', "c1b2", "Qcb2"},
    {queens, "en", 's', "a3b2", "Q3b2"},
    {queens, "en", 'l', "a1b2", "Qa1-b2"},
    {pinned, "en", 's', "g1e2", "Ne2"},
    {en_passant, "en", 's', "e5f6ep", "exf6"},
    {en_passant, "en", 'l', "e5f6ep", "e5xf6"},
    {en_passant, "en", 'n', "e5f6ep", "5566"},
    {en_passant, "en", 's', "e5e6", "e6"},
    {promo_white, "en", 's', "b7b8q", "b8=Q+"},
    {promo_white, "en", 's', "b7b8r", "b8=R+"},
    {promo_white, "en", 's', "b7b8b", "b8=B"},
    {promo_white, "en", 's', "b7b8n", "b8=N"},
    {promo_white, "en", 's', "b7a8n", "bxa8=N"},
    {promo_white, "en", 's', "b7a8q", "bxa8=Q+"},
    {promo_white, "en", 'n', "b7b8q", "27281"},
    {promo_white, "en", 'n', "b7b8r", "27282"},
    {promo_white, "en", 'n', "b7b8b", "27283"},
    {promo_white, "en", 'n', "b7a8n", "27184"},
    {promo_white, "en", 'l', "b7b8q", "b7-b8=Q+"},
    {promo_white, "en", 'l', "b7a8n", "b7xa8=N"},
    {promo_white, "de", 's', "b7b8q", "b8=D+"},
    {promo_white, "de", 's', "b7a8n", "bxa8=S"},
    {promo_white, "figurine", 's', "b7b8q", "b8=♕+"},
    {promo_discovered, "en", 's', "e7e8q", "e8=Q+"},
    {promo_discovered, "en", 's', "e7e8n", "e8=N+"},
    {promo_black, "en", 's', "b2b1q", "b1=Q+"},
    {promo_black, "en", 's', "b2a1n", "bxa1=N"},
    {promo_black, "en", 'n', "b2b1q", "22211"},
    {promo_black, "en", 'n', "b2a1n", "22114"},
    {promo_black, "figurine", 's', "b2b1q", "b1=♛+"},
    {promo_black, "ru", 's', "b2b1q", "b1=Ф+"},
    {castle_white, "en", 's', "e1h1O", "O-O"},
    {castle_white, "en", 's', "e1a1O", "O-O-O"},
    {castle_white, "en", 'n', "e1h1O", "5171"},
    {castle_white, "en", 'n', "e1a1O", "5131"},
    {castle_white, "en", 'l', "e1h1O", "O-O"},
    {castle_white, "de", 's', "e1a1O", "O-O-O"},
    {castle_white, "en", 's', "a1a8", "Rxa8+"},
    {castle_white, "en", 's', "h1h8", "Rxh8+"},
    {castle_white, "en", 'l', "h1h8", "Rh1xh8+"},
    {castle_black, "en", 'n', "e8h8O", "5878"},
    {castle_black, "en", 'n', "e8a8O", "5838"},
    {castle_black, "en", 's', "e8a8O", "O-O-O"},
    {castle_check, "en", 's', "e1h1O", "O-O+"},
    {castle_check, "en", 'n', "e1h1O", "5171"},
    {c960_ga, "en", 's', "f1g1O", "O-O"},
    {c960_ga, "en", 's', "f1a1O", "O-O-O"},
    {c960_ga, "en", 'n', "f1g1O", "6171"},
    {c960_ga, "en", 'n', "f1a1O", "6111"},
    {c960_ga, "en", 'l', "f1a1O", "O-O-O"},
    {c960_ha, "en", 's', "f1h1O", "O-O"},
    {c960_ha, "en", 'n', "f1h1O", "6181"},
    {c960_ha, "en", 's', "f1g1", "Kg1"},
    {c960_ha, "en", 'n', "f1g1", "6171"},
    {back_rank, "en", 's', "a1a8", "Ra8#"},
    {back_rank, "en", 'l', "a1a8", "Ra1-a8#"},
    {back_rank, "en", 'n', "a1a8", "1118"},
    {back_rank, "de", 's', "a1a8", "Ta8#"},
    {rook_check, "en", 's', "a1a8", "Ra8+"},
    {rook_check, "en", 's', "a1a5", "Ra5"},
    {rook_check, "hu", 's', "a1a8", "Ba8+"},
    {rook_check, "ru", 's', "a1a8", "Лa8+"},
    {rook_check, "be", 's', "a1a8", "Лдa8+"},
    {rook_check, "sq", 's', "a1a8", "Kua8+"},
    {rook_check, "figurine", 's', "a1a8", "♖a8+"},
    {rook_check, "fr", 'l', "a1a5", "Ta1-a5"},
    // localized letters; the pawn letter is never written
    {start, "de", 's', "g1f3", "Sf3"},
    {start, "de", 's', "e2e4", "e4"},
    {start, "de", 'l', "g1f3", "Sg1-f3"},
    {start, "de", 'l', "e2e4", "e2-e4"},
    {start, "fr", 's', "g1f3", "Cf3"},
    {start, "fi", 's', "g1f3", "Rf3"},
    {start, "hu", 's', "g1f3", "Hf3"},
    {start, "nl", 's', "g1f3", "Pf3"},
    {start, "nl", 's', "e2e4", "e4"},
    {start, "ru", 's', "g1f3", "Кf3"},
    {start, "bg", 's', "g1f3", "Кf3"},
    {start, "sq", 's', "g1f3", "Kaf3"},
    {start, "be", 's', "g1f3", "Вf3"},
    {start, "cs", 's', "g1f3", "Jf3"},
    {start, "figurine", 's', "g1f3", "♘f3"},
    {start, "figurine", 's', "e2e4", "e4"},
    {after_e4, "figurine", 's', "g8f6", "♞f6"},   // colour-correct figurines
    {after_e4, "figurine", 'l', "g8f6", "♞g8-f6"},
    {e4e5, "ru", 's', "e1e2", "Крe2"},
    {e4e5, "sq", 's', "e1e2", "Me2"},
    {e4e5, "be", 's', "e1e2", "Кe2"},
    {e4e5, "fr", 's', "e1e2", "Re2"},
    {e4e5, "ru", 's', "d1h5", "Фh5"},
    {e4e5, "sq", 's', "d1h5", "Mshh5"},
    {e4e5, "be", 's', "d1h5", "Взh5"},
    {e4e5, "hu", 's', "d1h5", "Vh5"},
    {e4e5, "pl", 's', "d1h5", "Hh5"},
    {e4e5, "ro", 's', "f1c4", "Nc4"},
    {e4e5, "es", 's', "f1c4", "Ac4"},
    {e4e5, "et", 's', "f1c4", "Oc4"},
    {knights_file, "de", 's', "b1d2", "Sbd2"},
    {knights_rank, "sq", 's', "g1f3", "Ka1f3"},
    {queens, "ru", 's', "a1b2", "Фa1b2"},
    {queens, "sq", 's', "c1b2", "Mshcb2"},
};
// clang-format on

} // namespace

BOOST_AUTO_TEST_CASE(read_table) {
    int rows = 0;
    for (ReadRow const& row : read_rows) {
        BOOST_TEST_CONTEXT("FEN " << row.fen << ", lang " << row.lang << ", input '" << row.input
                                  << "'" << (row.short_promotion ? " (short promotion)" : "")) {
            Position pos = make(row.fen);
            n::ReadOptions opt;
            opt.letters = lang(row.lang);
            opt.iccf_short_promotion = row.short_promotion;
            n::ReadResult r = n::read_move(pos, row.input, opt);
            if (row.expect.starts_with("!")) {
                n::ReadError want = error_named(row.expect.substr(1));
                BOOST_TEST(int(r.error) == int(want));
            } else {
                BOOST_TEST(int(r.error) == int(n::ReadError::none));
                BOOST_TEST(show(r.move) == show(spec(row.expect)));
                BOOST_TEST(pos.is_legal(r.move));
                BOOST_TEST(r.short_promotion == row.short_promotion);
            }
        }
        ++rows;
    }
    BOOST_TEST_MESSAGE(rows << " read rows");
}

BOOST_AUTO_TEST_CASE(write_table) {
    int rows = 0;
    for (WriteRow const& row : write_rows) {
        BOOST_TEST_CONTEXT("FEN " << row.fen << ", lang " << row.lang << ", notation "
                                  << row.notation << ", move " << row.move) {
            Position pos = make(row.fen);
            Move m = spec(row.move);
            BOOST_REQUIRE(pos.is_legal(m));
            n::WriteOptions opt;
            opt.letters = lang(row.lang);
            std::string before = pos.fen();
            std::string text;
            if (row.notation == 's')
                text = std::string(n::write_san(pos, m, opt).view());
            else if (row.notation == 'l')
                text = std::string(n::write_lan(pos, m, opt).view());
            else
                text = std::string(n::write_numeric(pos, m).view());
            BOOST_TEST(text == row.expect);
            BOOST_TEST(pos.fen() == before); // left unchanged
        }
        ++rows;
    }
    BOOST_TEST_MESSAGE(rows << " write rows");
}

// UCI: from-square, target square as the numeric notation places it, lower-case promotion
// piece; castling as king to destination, or king to rook in Chess960; the null move 0000.
BOOST_AUTO_TEST_CASE(write_uci_text) {
    Position pos = make(castle_check);
    BOOST_TEST(n::write_uci(pos, spec("e1h1O")).view() == "e1g1");
    BOOST_TEST(n::write_numeric(pos, spec("e1h1O")).view() == "5171");
    BOOST_TEST(n::write_uci(pos, spec("h1h8")).view() == "h1h8");
    BOOST_TEST(n::write_uci(pos, Move::null_move()).view() == "0000");
    Position c960;
    BOOST_REQUIRE(c960.set_fen("5k2/8/8/8/8/8/8/4K2R w K - 0 1", true).ok());
    BOOST_TEST(n::write_uci(c960, spec("e1h1O")).view() == "e1h1");
    Position promo = make("8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
    BOOST_TEST(n::write_uci(promo, spec("e7e8n")).view() == "e7e8n");
    BOOST_TEST(n::write_uci(promo, spec("e7e8q")).view() == "e7e8q");
}

// The overload taking the mark from the caller writes it.
BOOST_AUTO_TEST_CASE(write_with_known_check) {
    Position pos = make(back_rank);
    Move m = spec("a1a8");
    BOOST_TEST(n::write_san(pos, m, n::Mark::mate).view() == "Ra8#");
    BOOST_TEST(n::write_san(pos, m, n::Mark::check).view() == "Ra8+");
    BOOST_TEST(n::write_san(pos, m, n::Mark::none).view() == "Ra8");
    BOOST_TEST(n::write_lan(pos, m, n::Mark::mate).view() == "Ra1-a8#");
    BOOST_TEST(n::write_numeric(pos, Move::null_move()).view() == "--");
    BOOST_TEST(n::write_san(pos, Move::null_move()).view() == "--");
}

BOOST_AUTO_TEST_CASE(read_facts_for_messages) {
    {
        Position pos = make(knights_file);
        n::ReadResult r = n::read_move(pos, "Nd2");
        BOOST_REQUIRE((r.error == n::ReadError::ambiguous));
        BOOST_TEST((r.piece == PieceType::knight));
        BOOST_TEST((r.to == sq("d2")));
        BOOST_REQUIRE(r.candidate_count == 2);
        std::set<std::string> c{show(r.candidates[0]), show(r.candidates[1])};
        BOOST_TEST((c == std::set<std::string>{"b1d2", "f3d2"}));
    }
    {
        Position pos = make(start);
        n::ReadResult r = n::read_move(pos, "Nf4");
        BOOST_TEST((r.error == n::ReadError::illegal));
        BOOST_TEST((r.piece == PieceType::knight));
        BOOST_TEST((r.to == sq("f4")));
        BOOST_TEST((r.notation == n::Notation::san));
    }
    {
        Position pos = make(start);
        n::ReadResult r = n::read_move(pos, "5755");
        BOOST_TEST((r.error == n::ReadError::wrong_color));
        BOOST_TEST((r.notation == n::Notation::numeric));
        BOOST_TEST((r.from == sq("e7")));
        BOOST_TEST((r.to == sq("e5")));
        BOOST_TEST((r.piece == PieceType::pawn));
    }
    {
        Position pos = make(start);
        n::ReadResult r = n::read_move(pos, "5294");
        BOOST_TEST((r.error == n::ReadError::bad_square));
        BOOST_TEST(r.bad_offset == 2);
    }
    {
        Position pos = make(start);
        n::ReadResult r = n::read_move(pos, "Xf3");
        BOOST_TEST((r.error == n::ReadError::unknown_piece_letter));
        BOOST_TEST(r.bad_offset == 0);
    }
    {
        Position pos = make(promo_white);
        n::ReadResult r = n::read_move(pos, "2721");
        BOOST_TEST((r.error == n::ReadError::promotion_missing));
        BOOST_TEST(r.short_promotion); // the hint: it is the short form
        r = n::read_move(pos, "2728");
        BOOST_TEST((r.error == n::ReadError::promotion_missing));
        BOOST_TEST(!r.short_promotion);
        BOOST_TEST((r.from == sq("b7")));
        BOOST_TEST((r.to == sq("b8")));
    }
    {
        Position pos = make(start);
        BOOST_TEST((n::read_move(pos, "e2-e4").notation == n::Notation::lan));
        BOOST_TEST((n::read_move(pos, "Ng1f3").notation == n::Notation::lan));
        BOOST_TEST((n::read_move(pos, "e4").notation == n::Notation::san));
    }
}

BOOST_AUTO_TEST_CASE(languages) {
    BOOST_TEST(n::all_languages().size() == 26U); // 25 of LANGUAGES.md + figurine
    BOOST_TEST(n::all_languages()[0].code == "en");
    BOOST_TEST(&n::english() == n::letters_for("en"));
    BOOST_TEST(n::letters_for("xx") == nullptr);
    BOOST_TEST(n::letters_for("figurine")->figurine);
    std::set<std::string_view> codes;
    for (n::Letters const& l : n::all_languages()) {
        BOOST_TEST_CONTEXT(l.code) {
            BOOST_TEST(codes.insert(l.code).second);
            // Within a language the six letters differ.
            std::set<std::string_view> letters(l.letter.begin() + 1, l.letter.end());
            BOOST_TEST(letters.size() == 6U);
        }
    }
}

struct SuggestRow {
    std::string_view fen;
    std::string_view input;
    std::vector<std::string_view> expect; // numeric texts, in order of the edit's offset
};

BOOST_AUTO_TEST_CASE(numeric_typo_suggestions) {
    // Worked out by hand: every legal move one digit-edit or one adjacent transposition away.
    std::vector<SuggestRow> const rows = {
        {start, "5245", {"5254"}}, // transposition of the last two digits
        {start, "7136", {"7163"}}, // transposition
        {start, "2532", {}},       // nothing near
        {promo_white, "2728", {"27281", "27282", "27283", "27284"}}, // missing fifth digit
        {start, "52541", {"5254"}},                                  // extra digit
        {start, "525", {"5253", "5254"}},                            // missing digit
    };
    for (SuggestRow const& row : rows) {
        BOOST_TEST_CONTEXT(row.fen << " " << row.input) {
            Position pos = make(row.fen);
            std::array<Move, 16> out;
            int k = n::suggest_numeric(pos, row.input, out);
            std::multiset<std::string> got, want(row.expect.begin(), row.expect.end());
            for (int i = 0; i < k; ++i)
                got.insert(std::string(n::write_numeric(pos, out[std::size_t(i)]).view()));
            BOOST_TEST(got == want, boost::test_tools::per_element());
        }
    }
    // Ordered by the offset of the edit: 5264 -> 6264 (f4, offset 0), 5254 (e4, offset 2).
    Position pos = make(start);
    std::array<Move, 4> out;
    BOOST_TEST(n::suggest_numeric(pos, "5245", std::span(out).first(0)) == 0);
    BOOST_REQUIRE(n::suggest_numeric(pos, "5264", out) == 2);
    BOOST_TEST(n::write_numeric(pos, out[0]).view() == "6264");
    BOOST_TEST(n::write_numeric(pos, out[1]).view() == "5254");
    BOOST_TEST(n::suggest_numeric(pos, "5264", std::span(out).first(1)) == 1);
    BOOST_TEST(n::write_numeric(pos, out[0]).view() == "6264");
    // Same offset: by numeric text.
    BOOST_REQUIRE(n::suggest_numeric(pos, "5255", out) == 2);
    BOOST_TEST(n::write_numeric(pos, out[0]).view() == "5253");
    BOOST_TEST(n::write_numeric(pos, out[1]).view() == "5254");
}

// Hostile input: random tokens built from the characters of every notation (and broken
// UTF-8) never crash the reader, and whatever reads without error is a legal move that
// writes and reads back as itself in every notation and language; ambiguity candidates and
// numeric suggestions are legal (the checks of the move fuzz target, tests/support).
BOOST_AUTO_TEST_CASE(junk_never_yields_an_illegal_move) {
    std::vector<std::string_view> const atoms = {
        "a", "b", "c",   "d",  "e", "f", "g", "h", "1",    "2",    "3",    "4", "5",    "6",  "7",
        "8", "0", "9",   "x",  "-", "=", "+", "#", "!",    "?",    "O",    "o", "K",    "Q",  "R",
        "B", "N", "P",   "q",  "r", "n", "k", "(", ")",    ":",    "/",    ".", "e.p.", "Кр", "К",
        "Ф", "п", "Msh", "Ka", "♔", "♛", "♞", "×", "\xE2", "\x99", "\xff", " ", "Z"};
    std::mt19937 rng(20240601);
    long reads = 0, legal = 0;
    for (std::string_view fen : {start, promo_white, promo_black, en_passant, c960_ga}) {
        Position pos = make(fen);
        for (int i = 0; i < 20000; ++i) {
            std::string t;
            for (int k = 1 + int(rng() % 6); k > 0; --k) t += atoms[rng() % atoms.size()];
            for (std::string_view code : {"en", "de", "ru", "sq", "figurine"}) {
                n::ReadOptions opt;
                opt.letters = n::letters_for(code);
                opt.iccf_short_promotion = (rng() & 1) != 0;
                bool accepted = false;
                BOOST_TEST(props::check_move_token(pos, t, opt, &accepted) == "");
                ++reads;
                legal += accepted ? 1 : 0;
            }
        }
    }
    BOOST_TEST_MESSAGE(reads << " junk tokens read, " << legal << " of them legal moves");
    BOOST_TEST(legal > 0);
}
