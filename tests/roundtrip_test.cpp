// Exhaustive round trips: for every position of data/perft.epd and data/perft960.epd, and for
// every position one ply deeper, and for every legal move there:
//   write -> read gives the same move, in SAN (every language of LANGUAGES.md and figurines
//   of both colours), long algebraic (every language) and ICCF numeric;
//   SAN is canonical: no two legal moves share a text, no shorter disambiguation reads as
//   the same move (file before rank before square), and the check/mate mark agrees with a
//   make/unmake of the move.
// Failures are counted and the first few reported; a summary line gives the totals.
#define BOOST_TEST_MODULE roundtrip
#include <boost/test/unit_test.hpp>

#include "notation/notation.hpp"
#include "report/codes.hpp"
#include "report/wording.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace n = pgn_iccf::notation;
using pgn_iccf::chess::Move;
using pgn_iccf::chess::MoveKind;
using pgn_iccf::chess::MoveList;
using pgn_iccf::chess::PieceType;
using pgn_iccf::chess::Position;
using pgn_iccf::chess::Square;
using pgn_iccf::chess::UndoInfo;

namespace {

struct EpdPosition {
    std::string fen;
    bool chess960 = false;
};

std::vector<EpdPosition> load(std::string const& name, bool chess960) {
    std::vector<EpdPosition> out;
    for (std::string dir :
         {std::string(PGN_ICCF_DATA_DIR), std::string(PGN_ICCF_SOURCE_DIR) + "/../shared/data"}) {
        std::ifstream in(dir + "/" + name);
        if (!in) continue;
        std::string line;
        while (std::getline(in, line)) {
            std::string fen = line.substr(0, line.find(';'));
            while (!fen.empty() && (fen.back() == ' ' || fen.back() == '\r')) fen.pop_back();
            if (!fen.empty()) out.push_back({fen, chess960});
        }
        break;
    }
    return out;
}

// Concatenation through a stream (GCC 12 warns falsely on `"literal" + std::string`).
template <class... A>
std::string cat(A const&... a) {
    std::ostringstream o;
    (o << ... << a);
    return o.str();
}

std::string show(Move m) {
    auto sq = [](Square x) { return cat(char('a' + x.file()), char('1' + x.rank())); };
    return cat(sq(m.from()), sq(m.to()), '/', int(m.kind()));
}

// White figurines U+2654..2659 <-> black U+265A..265F (third UTF-8 byte 94..99 <-> 9A..9F).
std::string swap_figurine_colour(std::string_view s) {
    std::string out(s);
    for (std::size_t i = 0; i + 2 < out.size(); ++i) {
        if (static_cast<unsigned char>(out[i]) != 0xE2 ||
            static_cast<unsigned char>(out[i + 1]) != 0x99)
            continue;
        auto b = static_cast<unsigned char>(out[i + 2]);
        if (b >= 0x94 && b <= 0x99)
            out[i + 2] = char(b + 6);
        else if (b >= 0x9A && b <= 0x9F)
            out[i + 2] = char(b - 6);
    }
    return out;
}

struct Checker {
    long positions = 0;
    long moves = 0;
    long round_trips = 0;
    long failures = 0;

    void fail(Position const& pos, std::string const& what) {
        if (++failures <= 25) BOOST_ERROR(pos.fen() << ": " << what);
    }

    void read_back(Position const& pos, std::string_view text, n::Letters const* l, Move want,
                   char const* kind) {
        ++round_trips;
        n::ReadOptions opt;
        opt.letters = l;
        n::ReadResult r = n::read_move(pos, text, opt);
        if (r.error != n::ReadError::none || !(r.move == want))
            fail(pos, std::string(kind) + " '" + std::string(text) + "' (" + std::string(l->code) +
                          ") read as " +
                          (r.error == n::ReadError::none
                               ? show(r.move)
                               : std::string(pgn_iccf::report::read_error_words(r.error))) +
                          ", wanted " + show(want));
    }

    // The shorter disambiguations of an English piece move must not name the move alone.
    void check_minimal(Position const& pos, Move m, std::string_view san) {
        PieceType t = pos.piece_on(m.from()).type();
        if (t == PieceType::pawn || t == PieceType::king || m.kind() == MoveKind::castling) return;
        std::string core(san);
        while (!core.empty() && (core.back() == '+' || core.back() == '#')) core.pop_back();
        std::string target = core.substr(core.size() - 2);
        bool capture = core.size() >= 3 && core[core.size() - 3] == 'x';
        std::string dis = core.substr(1, core.size() - 3 - (capture ? 1 : 0));
        std::string file(1, char('a' + m.from().file())), rank(1, char('1' + m.from().rank()));
        std::vector<std::string> shorter;
        if (dis.size() >= 1) shorter.push_back("");
        if (dis.size() == 2) shorter.insert(shorter.end(), {file, rank});
        if (dis == rank) shorter.push_back(file); // rank only when the file does not do
        if (!dis.empty() && dis != file && dis != rank && dis != file + rank)
            fail(pos, cat("disambiguation '", dis, "' in ", san));
        for (std::string const& d : shorter) {
            std::string text = cat(core.substr(0, 1), d, capture ? "x" : "", target);
            n::ReadResult r = n::read_move(pos, text);
            if (r.error != n::ReadError::ambiguous)
                fail(pos, cat("'", san, "' not minimal: '", text, "' reads as ",
                              pgn_iccf::report::read_error_words(r.error)));
        }
    }

    // What real files do to English SAN and LAN must read as the same move.
    void check_variants(Position const& pos, Move m, std::string const& san,
                        std::string const& lan) {
        auto without = [](std::string t, char c) {
            t.erase(std::remove(t.begin(), t.end(), c), t.end());
            return t;
        };
        std::string bare = without(without(san, '+'), '#');
        read_back(pos, bare, &n::english(), m, "SAN without check mark");
        read_back(pos, bare + "!?", &n::english(), m, "SAN with annotation");
        read_back(pos, without(san, 'x'), &n::english(), m, "SAN without x");
        read_back(pos, without(lan, '-'), &n::english(), m, "LAN without -");
        if (m.kind() == MoveKind::castling) {
            std::string zeros = bare;
            std::replace(zeros.begin(), zeros.end(), 'O', '0');
            read_back(pos, zeros, &n::english(), m, "castling with zeros");
            return;
        }
        PieceType t = pos.piece_on(m.from()).type();
        if (t != PieceType::pawn && bare.find('x') == std::string::npos) {
            std::string with_x =
                cat(bare.substr(0, bare.size() - 2), 'x', bare.substr(bare.size() - 2));
            read_back(pos, with_x, &n::english(), m, "SAN with extra x");
        }
        if (m.kind() == MoveKind::promotion) {
            std::string no_eq = without(bare, '=');
            read_back(pos, no_eq, &n::english(), m, "promotion without =");
            no_eq.back() = char(no_eq.back() - 'A' + 'a');
            read_back(pos, no_eq, &n::english(), m, "promotion lower-case");
            std::string uci = without(without(lan, '-'), 'x');
            uci = without(without(uci, '+'), '#');
            uci = without(uci, '=');
            uci.back() = char(uci.back() - 'A' + 'a');
            read_back(pos, uci, &n::english(), m, "coordinates e7e8q");
        }
        if (t != PieceType::pawn) {
            // Lower-case piece letter: the same move, except that a `b` token that has the
            // shape of a pawn move is read as one (it may then be another legal move).
            std::string lower = bare;
            lower[0] = char(lower[0] - 'A' + 'a');
            ++round_trips;
            n::ReadResult r = n::read_move(pos, lower);
            bool same = r.error == n::ReadError::none && r.move == m;
            bool pawn_reading =
                t == PieceType::bishop && (r.error != n::ReadError::none ||
                                           pos.piece_on(r.move.from()).type() == PieceType::pawn);
            if (!same && !pawn_reading)
                fail(pos, cat("lower-case '", lower, "' read as ",
                              r.error == n::ReadError::none
                                  ? show(r.move)
                                  : std::string(pgn_iccf::report::read_error_words(r.error))));
        }
    }

    void check_position(Position& pos) {
        ++positions;
        MoveList list;
        pos.generate_legal(list);
        moves += list.size;
        std::vector<char> mark(std::size_t(list.size), 0);
        for (int i = 0; i < list.size; ++i) {
            Move m = list[i];
            UndoInfo u;
            pos.do_move(m, u);
            bool check = pos.in_check();
            bool mate = check && !pos.has_legal_move();
            pos.undo_move(m, u);
            mark[std::size_t(i)] = mate ? '#' : check ? '+' : 0;
        }
        std::vector<std::string> texts;
        for (n::Letters const& l : n::all_languages()) {
            n::WriteOptions wopt;
            wopt.letters = &l;
            texts.clear();
            for (int i = 0; i < list.size; ++i) {
                Move m = list[i];
                std::string san(n::write_san(pos, m, wopt).view());
                char want = mark[std::size_t(i)];
                char got = san.empty() ? 0 : san.back();
                if ((want == 0 && (got == '+' || got == '#')) || (want != 0 && got != want))
                    fail(pos, cat("check mark of '", san, "'"));
                n::Mark const known = want == '#'   ? n::Mark::mate
                                      : want == '+' ? n::Mark::check
                                                    : n::Mark::none;
                if (n::write_san(static_cast<Position const&>(pos), m, known, wopt).view() != san)
                    fail(pos, cat("write_san overloads differ on ", san));
                read_back(pos, san, &l, m, "SAN");
                if (l.figurine) read_back(pos, swap_figurine_colour(san), &l, m, "SAN");
                std::string lan(n::write_lan(pos, m, wopt).view());
                read_back(pos, lan, &l, m, "LAN");
                if (&l == &n::english()) {
                    check_minimal(pos, m, san);
                    check_variants(pos, m, san, lan);
                }
                texts.push_back(std::move(san));
            }
            std::sort(texts.begin(), texts.end());
            auto dup = std::adjacent_find(texts.begin(), texts.end());
            if (dup != texts.end()) fail(pos, cat("two moves written '", *dup, "'"));
        }
        texts.clear();
        for (Move m : list) {
            std::string num(n::write_numeric(pos, m).view());
            read_back(pos, num, &n::english(), m, "numeric");
            texts.push_back(num);
            if (m.kind() == MoveKind::castling && pos.chess960()) {
                // Also the king's destination, where no ordinary king move goes there.
                bool king_side = m.to().file() > m.from().file();
                Square dest = Position::castle_king_to(
                    pos.side_to_move(), king_side ? pgn_iccf::chess::CastleSide::king
                                                  : pgn_iccf::chess::CastleSide::queen);
                if (dest == m.to() || dest == m.from()) continue;
                std::string alt =
                    num.substr(0, 2) + char('1' + dest.file()) + char('1' + dest.rank());
                Move plain(m.from(), dest);
                read_back(pos, alt, &n::english(), pos.is_legal(plain) ? plain : m, "numeric");
            }
        }
        std::sort(texts.begin(), texts.end());
        if (std::adjacent_find(texts.begin(), texts.end()) != texts.end())
            fail(pos, "two moves share a numeric text");
    }
};

} // namespace

BOOST_AUTO_TEST_CASE(every_move_of_perft_positions_and_one_ply_deeper) {
    auto t0 = std::chrono::steady_clock::now();
    std::vector<EpdPosition> epd = load("perft.epd", false);
    std::vector<EpdPosition> epd960 = load("perft960.epd", true);
    BOOST_REQUIRE_GE(epd.size(), 100U);
    BOOST_REQUIRE_GE(epd960.size(), 10U);
    epd.insert(epd.end(), epd960.begin(), epd960.end());
    Checker c;
    for (EpdPosition const& e : epd) {
        BOOST_TEST_CONTEXT(e.fen) {
            Position pos;
            std::string error;
            BOOST_REQUIRE_MESSAGE(
                (error = pgn_iccf::report::fen_message(pos.set_fen(e.fen, e.chess960))).empty(),
                error);
            c.check_position(pos);
            MoveList list;
            pos.generate_legal(list);
            for (Move m : list) {
                UndoInfo u;
                pos.do_move(m, u);
                c.check_position(pos);
                pos.undo_move(m, u);
            }
        }
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    BOOST_TEST_MESSAGE(epd.size() << " EPD positions, " << c.positions << " positions checked, "
                                  << c.moves << " legal moves, " << c.round_trips
                                  << " write->read round trips, " << c.failures << " failures, "
                                  << secs << " s");
    BOOST_TEST(c.failures == 0);
}

// Every numeric token (all from/to pairs, with and without a promotion digit) on every EPD
// position and a sample one ply deeper: read_move accepts exactly the numeric texts of the
// legal moves, plus the other spelling of a castling move (king square + own rook square, or
// in Chess960 the king's destination), and what it accepts is a legal move.
// This pins down the from-square-driven legality test of the numeric reader against move
// generation, for illegal tokens as well as legal ones.
BOOST_AUTO_TEST_CASE(every_numeric_token_against_generation) {
    std::vector<EpdPosition> epd = load("perft.epd", false);
    std::vector<EpdPosition> epd960 = load("perft960.epd", true);
    BOOST_REQUIRE_GE(epd.size(), 100U); // the files loaded: no vacuous pass
    BOOST_REQUIRE_GE(epd960.size(), 10U);
    epd.insert(epd.end(), epd960.begin(), epd960.end());
    long reads = 0, accepted = 0, failures = 0;
    auto check = [&](Position const& pos) {
        MoveList list;
        pos.generate_legal(list);
        std::vector<std::string> texts;
        for (Move m : list) texts.emplace_back(n::write_numeric(pos, m).view());
        std::sort(texts.begin(), texts.end());
        std::string tok;
        for (int from = 0; from < 64; ++from) {
            for (int to = 0; to < 64; ++to) {
                for (char promo : {'\0', '1', '2', '3', '4'}) {
                    tok = {char('1' + from % 8), char('1' + from / 8), char('1' + to % 8),
                           char('1' + to / 8)};
                    if (promo) tok.push_back(promo);
                    n::ReadResult r = n::read_move(pos, tok);
                    ++reads;
                    bool listed = std::binary_search(texts.begin(), texts.end(), tok);
                    bool ok = r.error == n::ReadError::none;
                    accepted += ok;
                    bool legal = ok && list.contains(r.move);
                    bool same_text = ok && n::write_numeric(pos, r.move).view() == tok;
                    bool castling_alt = ok && r.move.kind() == MoveKind::castling;
                    if ((listed && !(legal && same_text)) ||
                        (ok && !listed && !(legal && castling_alt))) {
                        if (++failures <= 10)
                            BOOST_ERROR(
                                pos.fen()
                                << ": '" << tok << "' read "
                                << (ok ? "as a move" : pgn_iccf::report::read_error_words(r.error))
                                << (listed ? " (a legal move's text)" : ""));
                    }
                }
            }
        }
    };
    for (EpdPosition const& e : epd) {
        Position pos;
        std::string error;
        BOOST_REQUIRE_MESSAGE(
            (error = pgn_iccf::report::fen_message(pos.set_fen(e.fen, e.chess960))).empty(), error);
        check(pos);
        MoveList list;
        pos.generate_legal(list);
        for (int i = 0; i < list.size; i += 7) { // a sample of the positions one ply deeper
            UndoInfo u;
            pos.do_move(list[i], u);
            check(pos);
            pos.undo_move(list[i], u);
        }
    }
    BOOST_TEST_MESSAGE(reads << " numeric tokens read, " << accepted << " accepted");
    BOOST_TEST(failures == 0);
}
