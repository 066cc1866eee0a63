// The main job: replay + export writer (src/pgn), checked on hand-written games whose
// expected output was written by hand from the PGN standard and the ICCF rules (every
// numeric code below was worked out square by square: a1 = 11, e4 = 54, h8 = 88).
#define BOOST_TEST_MODULE convert
#include <boost/test/unit_test.hpp>

#include "pgn/converter.hpp"
#include "pgn/game_reader.hpp"
#include "pgn/writer.hpp"
#include "report/wording.hpp"
#include "support/properties.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace pgn_iccf;

namespace {

struct Converted {
    std::string out;
    std::string messages;
    std::vector<report::MessageLine> lines;
    std::vector<pgn::GameStatus> status;
    int errors = 0, warnings = 0;
    std::uint64_t corrected = 0;
    int texts = 0; // text between games handed out by the reader
};

Converted convert(std::string const& input, pgn::ConvertOptions opt = {}) {
    Converted c;
    auto src = io::open_memory(input);
    pgn::GameReader reader(*src);
    pgn::Converter conv(opt);
    syntax::RawGame game;
    while (reader.next(game)) {
        if (pgn::is_text(reader.part())) { // text between games: no game
            ++c.texts;
            continue;
        }
        auto r = conv.convert(game, c.out);
        report::word_all(r, "test.pgn", c.messages, c.lines);
        c.status.push_back(r.status);
        c.errors += r.errors;
        c.warnings += r.warnings;
        c.corrected += r.corrected;
    }
    return c;
}

pgn::ConvertOptions to(notation::Notation n) {
    pgn::ConvertOptions o;
    o.to = n;
    return o;
}

std::string const roster_unknown = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                                   "[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n";

} // namespace

BOOST_AUTO_TEST_CASE(writer_wraps_at_width_and_keeps_comment_bytes) {
    pgn::MovetextWriter w;
    w.begin(20);
    for (auto t : {"1.", "5254", "5755", "2.", "7163", "2836"}) w.token(t);
    w.comment("a  b\tc\nd");
    w.token("*");
    w.end();
    // "1. 5254 5755 2. 7163" is 20 characters; the comment's double space and tab are kept,
    // its line break is a break opportunity written as a space where it fits.
    BOOST_TEST(w.text() == "1. 5254 5755 2. 7163\n2836 {a  b\tc d} *\n");
    w.begin(0);
    for (auto t : {"1.", "e4", "e5"}) w.token(t);
    w.open_variation();
    w.token("1...");
    w.token("c5");
    w.close_variation();
    w.token("*");
    w.end();
    BOOST_TEST(w.text() == "1. e4 e5 (1... c5) *\n");
    // no comment line begins with '[' or '%' (a reader would see a tag pair or an escape)
    w.begin(12);
    w.comment("aaaa bbbb [cc] dd\n%ee ff");
    w.end();
    BOOST_TEST(w.text() == "{aaaa\nbbbb [cc]\ndd %ee ff}\n");
    // an empty variation stays balanced
    w.begin(0);
    w.token("e4");
    w.open_variation();
    w.close_variation();
    w.token("*");
    w.end();
    BOOST_TEST(w.text() == "e4 () *\n");
    // a move number stays on the line of its move
    w.begin(12);
    w.numbered("1.", "5254");
    w.token("5755");
    w.numbered("2.", "7163");
    w.end();
    BOOST_TEST(w.text() == "1. 5254 5755\n2. 7163\n");
}

// Comments without tabs or line breaks are laid out on spans of their text (comment_by_spans):
// the same layout as word by word.
BOOST_AUTO_TEST_CASE(writer_wraps_plain_comments_at_single_spaces) {
    pgn::MovetextWriter w;
    w.begin(20);
    for (auto t : {"1.", "5254"}) w.token(t);
    w.comment(" [%clk 0:01:00] ");
    w.token("5755");
    w.comment(" [%clk 0:01:00] ");
    w.end();
    // the space before "0:01:00]" is a break opportunity; the white space next to the braces
    // is not
    BOOST_TEST(w.text() == "1. 5254 { [%clk\n0:01:00] } 5755\n{ [%clk 0:01:00] }\n");
    // One token, then `text` as a comment, at `width`.
    auto after_token = [](int width, char const* token, std::string_view text) {
        pgn::MovetextWriter t;
        t.begin(width);
        t.token(token);
        t.comment(text);
        t.end();
        return std::string(t.text());
    };
    // no line begins with '[' (the space before "[%clk" is kept at any width)
    BOOST_TEST(after_token(16, "5254", " [%eval 0.24] [%clk 0:03:00] ") ==
               "5254 { [%eval\n0.24] [%clk\n0:03:00] }\n");
    // a first word that does not fit moves the comment to the next line
    BOOST_TEST(after_token(12, "5254", "aaaaaaa bb") == "5254\n{aaaaaaa bb}\n");
    // at the start of a line, after a pending "("
    w.begin(10);
    w.open_variation();
    w.comment("aa bb cc dd");
    w.close_variation();
    w.end();
    BOOST_TEST(w.text() == "({aa bb cc\ndd})\n");
    // double spaces are no break opportunity
    BOOST_TEST(after_token(8, "e4", "  aa  bb cc ") == "e4\n{  aa  bb\ncc }\n");
    // a word longer than the width stands alone on its line
    BOOST_TEST(after_token(5, "e4", "aaaaaaaaaaaa b") == "e4\n{aaaaaaaaaaaa\nb}\n");
}

BOOST_AUTO_TEST_CASE(tags_are_escaped) {
    std::string out;
    pgn::write_tag(out, "Event", "a \"b\" \\ c");
    BOOST_TEST(out == "[Event \"a \\\"b\\\" \\\\ c\"]\n");
}

BOOST_AUTO_TEST_CASE(san_to_numeric_basic) {
    auto c = convert("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n");
    BOOST_TEST(c.messages == "");
    BOOST_TEST(c.out == roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n\n"
                                         "1. 5254 5755 2. 7163 2836 3. 6125 1716 *\n\n");
}

BOOST_AUTO_TEST_CASE(numeric_to_san_drops_notation_tag) {
    auto c = convert("[Event \"Corr\"]\n[Notation \"ICCF\"]\n[Result \"*\"]\n\n"
                     "1. 5254 5755 2. 7163 2836 3. 6125 1716 4. 5171 *\n",
                     to(notation::Notation::san));
    BOOST_TEST(c.messages == "");
    BOOST_TEST(c.out == "[Event \"Corr\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                        "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n"
                        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O *\n\n");
}

BOOST_AUTO_TEST_CASE(castling_promotion_en_passant_from_fen) {
    // White: Ke1 Ra1 Rh1 Pb7 Pe5; Black: Ke8 Ra8 Rh8 Pd5 (d7-d5 just played).
    std::string const tags =
        "[SetUp \"1\"]\n[FEN \"r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1\"]\n";
    auto num = convert(tags + "\n1. exd6 O-O 2. bxa8=Q Rxa8 3. O-O-O *\n");
    BOOST_TEST(num.messages == "");
    std::string const head = roster_unknown + "[Result \"*\"]\n";
    BOOST_TEST(num.out == head + "[Notation \"ICCF\"]\n" + tags +
                              "\n1. 5546 5878 2. 27181 6818 3. 5131 *\n\n");
    auto san =
        convert(tags + "\n1. 5546 5878 2. 27181 6818 3. 5131 *\n", to(notation::Notation::san));
    BOOST_TEST(san.messages == "");
    BOOST_TEST(san.out == head + tags + "\n1. exd6 O-O 2. bxa8=Q Rxa8 3. O-O-O *\n\n");
    auto lan =
        convert(tags + "\n1. 5546 5878 2. 27181 6818 3. 5131 *\n", to(notation::Notation::lan));
    BOOST_TEST(lan.out == head + tags + "\n1. e5xd6 O-O 2. b7xa8=Q Rf8xa8 3. O-O-O *\n\n");
}

BOOST_AUTO_TEST_CASE(black_to_move_start) {
    auto c = convert("[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\"]\n\n"
                     "1... e5 2. Nf3 *\n");
    BOOST_TEST(c.messages == "");
    BOOST_TEST(c.out == roster_unknown +
                            "[Result \"*\"]\n[Notation \"ICCF\"]\n[SetUp \"1\"]\n[FEN "
                            "\"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\"]\n\n"
                            "1... 5755 2. 7163 *\n\n");
}

BOOST_AUTO_TEST_CASE(comments_nags_and_nested_variations) {
    auto c = convert("1. e4 {best} e5 $1 (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3!? *\n");
    BOOST_TEST(c.messages == "");
    BOOST_TEST(c.out == roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n\n" +
                            "1. 5254 {best} 1... 5755 $1 (1... 3735 2. 7163 (2. 3233) 2... 4746) "
                            "2. 7163!? *\n\n");
    pgn::ConvertOptions o;
    o.comments = false;
    o.nags = false;
    o.variations = false;
    auto bare = convert("1. e4 {best} e5 $1 (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3!? *\n", o);
    BOOST_TEST(bare.out == roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n\n" +
                               "1. 5254 5755 2. 7163!? *\n\n");
}

BOOST_AUTO_TEST_CASE(checks_mates_and_disambiguation_in_san_output) {
    auto mate = convert("1. 6263 5755 2. 7274 4884 0-1\n", to(notation::Notation::san));
    BOOST_TEST(mate.out == roster_unknown + "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n");
    auto nbd2 = convert("1. 4244 4745 2. 7163 7866 3. 2142 *\n", to(notation::Notation::san));
    BOOST_TEST(nbd2.out == roster_unknown + "[Result \"*\"]\n\n1. d4 d5 2. Nf3 Nf6 3. Nbd2 *\n\n");
}

// A check or mate mark the position does not give is a warning (it was dropped without a
// word): the output writes the marks the position gives. Positions checked by hand: 1. e4
// gives no check; after 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6, Qxf7 mates (the queen covered by the
// bishop, e7 and f7 taken, d8 and f8 blocked); 3. Bxf7 checks, and Kxf7 answers it.
BOOST_AUTO_TEST_CASE(a_check_mark_the_position_does_not_give_is_a_warning) {
    // A glyph before the mark stays (it was lost with the mark: `e4!+` came out as `e4`).
    auto glyph =
        convert("1. e4!+ e5?! 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7!# *\n", to(notation::Notation::san));
    BOOST_TEST(glyph.out.ends_with("1. e4! e5?! 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#! *\n\n"));
    BOOST_TEST(glyph.messages == "test.pgn:1:4: warning: game 1, move 1.: 'e4!+': '+' on a move "
                                 "that gives no check: left out\n");
    // Glyphs on both sides of a mark (`Qxf7!#?`): both kept, the mark with the move, also in
    // --annotate's comment (the move as written, with its mark: `{Qxf7#}`).
    pgn::ConvertOptions annotate = to(notation::Notation::san);
    annotate.annotate = true;
    auto both = convert("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7!#? *\n", annotate);
    BOOST_TEST(both.out.find("4. Qxf7#!? {Qxf7#} *") != std::string::npos, both.out);
    BOOST_TEST(both.messages.empty(), both.messages);
    // A null move with a glyph is written `--?` and read back as one (it was a glyph, and the
    // game lost on the second run).
    auto glyphed = convert("1. e4 0000? 2. d4 *\n", to(notation::Notation::numeric));
    BOOST_TEST(glyphed.out.ends_with("1. 5254 --? 2. 4244 *\n\n"));
    auto back = convert("1. 5254 --? 2. 4244 *\n", to(notation::Notation::san));
    BOOST_TEST(back.out.ends_with("1. e4 --? 2. d4 *\n\n"));
    BOOST_TEST(back.messages.empty(), back.messages);
    // A null move never gives check: `--+` is the null move with a wrong mark (it was read as
    // '-' and the glyph '-+', and the error fell on the next move).
    auto null = convert("1. e4 --+ 2. d4 Z0# *\n", to(notation::Notation::san));
    BOOST_TEST(null.out.ends_with("1. e4 -- 2. d4 -- *\n\n"));
    BOOST_TEST(null.messages == "test.pgn:1:7: warning: game 1, move 1...: '--+': '+' on a move "
                                "that gives no check: left out\n"
                                "test.pgn:1:17: warning: game 1, move 2...: 'Z0#': '#' on a move "
                                "that gives no check: left out\n");
    auto none =
        convert("1. e4+ e5 2. Qh5# Nc6 3. Bc4 Nf6 4. Qxf7+ *\n", to(notation::Notation::san));
    BOOST_TEST(none.messages ==
               "test.pgn:1:4: warning: game 1, move 1.: 'e4+': '+' on a move that gives no "
               "check: left out\n"
               "test.pgn:1:14: warning: game 1, move 2.: 'Qh5#': '#' on a move that gives no "
               "check: left out\n");
    // '+' on a mate is no warning: the output writes '#'.
    BOOST_TEST(none.out == roster_unknown + "[Result \"*\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. "
                                            "Qxf7# *\n\n");
    BOOST_TEST((none.status == std::vector<pgn::GameStatus>{pgn::GameStatus::converted}));
    auto check = convert("1. e4 e5 2. Bc4 Nc6 3. Bxf7# Kxf7 *\n", to(notation::Notation::numeric));
    BOOST_TEST(check.messages ==
               "test.pgn:1:24: warning: game 1, move 3.: 'Bxf7#': '#' on a move that gives check "
               "but not mate: read as '+'\n");
    BOOST_TEST(check.out.ends_with("1. 5254 5755 2. 6134 2836 3. 3467 5867 *\n\n"));
    // Black's move, in a variation: the move number and side are the move's.
    auto black = convert("1. e4 e5 (1... d5+ 2. exd5) 2. Nf3 *\n", to(notation::Notation::numeric));
    BOOST_TEST(black.messages == "test.pgn:1:16: warning: game 1, move 1...: 'd5+': '+' on a move "
                                 "that gives no check: left out\n");
    // A numeric move with a mark (not the standard's, read all the same): 4244 is d2-d4.
    auto numeric = convert("1. 5254 5755 2. 6134 2836 3. 4244+ *\n", to(notation::Notation::san));
    BOOST_TEST(numeric.messages == "test.pgn:1:30: warning: game 1, move 3.: '4244+': '+' on a "
                                   "move that gives no check: left out\n");
}

BOOST_AUTO_TEST_CASE(annotate_keeps_the_source_move) {
    pgn::ConvertOptions o;
    o.annotate = true;
    auto c = convert("1. e4 e5 *\n", o);
    BOOST_TEST(c.out == roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n\n" +
                            "1. 5254 {e4} 1... 5755 {e5} *\n\n");
}

BOOST_AUTO_TEST_CASE(illegal_move_rejects_the_game) {
    auto c = convert("[White \"Smith\"]\n[Black \"Jones\"]\n\n1. e4 e5 2. Nf6 Nc6 *\n\n1. d4 *\n");
    BOOST_TEST_REQUIRE(c.status.size() == 2U);
    BOOST_TEST(int(c.status[0]) == int(pgn::GameStatus::rejected));
    BOOST_TEST(int(c.status[1]) == int(pgn::GameStatus::converted));
    BOOST_TEST(c.messages == "test.pgn:4:13: error: game 1 (Smith - Jones), move 2.: 'Nf6': no "
                             "knight can legally move to f6\n");
    BOOST_TEST(c.out == roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n\n" +
                            "1. 4244 *\n\n"); // the second game only
}

BOOST_AUTO_TEST_CASE(keep_broken_writes_the_rest_as_comment) {
    pgn::ConvertOptions o;
    o.keep_broken = true;
    auto c = convert("1. e4 e5 2. Nf6 Nc6 {x} 3. d4 *\n", o);
    BOOST_TEST_REQUIRE(c.status.size() == 1U);
    BOOST_TEST(int(c.status[0]) == int(pgn::GameStatus::kept_broken));
    BOOST_TEST(c.out == roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n\n" +
                            "1. 5254 5755 {Nf6 Nc6} {x} {d4} *\n\n");
}

BOOST_AUTO_TEST_CASE(numeric_typos_get_suggestions) {
    // a swapped pair of digits
    auto swapped = convert("1. 5245 *\n", to(notation::Notation::san));
    BOOST_TEST(swapped.messages ==
               "test.pgn:1:4: error: game 1, move 1.: '5245': the pawn on 52 cannot move to 45; "
               "did you mean 5254 (e4)? (checking the rest of the game as if 5254 had been "
               "written)\n");
    // a wrong digit: 5255 is one digit from 5253 (e3) and 5254 (e4)
    auto wrong = convert("1. 5255 *\n", to(notation::Notation::san));
    BOOST_TEST(wrong.messages ==
               "test.pgn:1:4: error: game 1, move 1.: '5255': the pawn on 52 cannot move to 55; "
               "did you mean 5253 (e3) or 5254 (e4)?\n");
    // a missing promotion digit (no check from e8: the black king is on a3)
    auto promo = convert("[FEN \"8/4P3/8/8/8/k7/8/K7 w - - 0 1\"]\n\n1. 5758 *\n",
                         to(notation::Notation::san));
    BOOST_TEST(promo.messages ==
               "test.pgn:3:4: error: game 1, move 1.: '5758': a pawn reaching the last rank needs "
               "a fifth digit (1 queen, 2 rook, 3 bishop, 4 knight); did you mean 57581 (e8=Q), "
               "57582 (e8=R), 57583 (e8=B) or 57584 (e8=N)? (checking the rest of the game as if "
               "57581 had been written)\n");
}

BOOST_AUTO_TEST_CASE(every_typo_of_a_score_is_reported) {
    // Three typos in one game score: each gets its own diagnostic, because checking goes on
    // with the unique suggestion (the game is still rejected).
    // Black Ka3 to move, White Ka1 and Pe7. 1341 is 1314 (Ka4) with two digits swapped,
    // 1211 is 1121 (Kb1) swapped, 5758 lacks its promotion digit (after 2... Kb5, e8=Q and
    // e8=B give check on the e8-b5 diagonal).
    auto c = convert("[FEN \"8/4P3/8/8/8/k7/8/K7 b - - 0 1\"]\n\n"
                     "1... 1341 2. 1211 1425 3. 5758 *\n",
                     to(notation::Notation::san));
    BOOST_TEST_REQUIRE(c.status.size() == 1U);
    BOOST_TEST(int(c.status[0]) == int(pgn::GameStatus::rejected));
    BOOST_TEST(c.messages ==
               "test.pgn:3:6: error: game 1, move 1...: '1341': the king on 13 cannot move to 41; "
               "did you mean 1314 (Ka4)? (checking the rest of the game as if 1314 had been "
               "written)\n"
               "test.pgn:3:14: error: game 1, move 2.: '1211': no piece on 12; did you mean 1121 "
               "(Kb1)? (checking the rest of the game as if 1121 had been written)\n"
               "test.pgn:3:27: error: game 1, move 3.: '5758': a pawn reaching the last rank "
               "needs a fifth digit (1 queen, 2 rook, 3 bishop, 4 knight); did you mean 57581 "
               "(e8=Q+), 57582 (e8=R), 57583 (e8=B+) or 57584 (e8=N)? (checking the rest of the "
               "game as if 57581 had been written)\n");
}

BOOST_AUTO_TEST_CASE(result_mismatch_is_a_warning) {
    // The export format wants the Result tag equal to the termination marker (§8.2.6): the
    // marker, the movetext's own end, wins, as pgn-extract --fixresulttags does.
    auto c = convert("[Result \"1-0\"]\n\n1. e4 0-1\n");
    BOOST_TEST(c.messages == "test.pgn:3:7: warning: game 1: '0-1': result differs from the "
                             "Result tag \"1-0\"; the Result tag is written as \"0-1\"\n");
    BOOST_TEST(c.out ==
               roster_unknown + "[Result \"0-1\"]\n[Notation \"ICCF\"]\n\n1. 5254 0-1\n\n");
    BOOST_TEST(int(c.status.at(0)) == int(pgn::GameStatus::converted));
}

BOOST_AUTO_TEST_CASE(variants_that_are_not_chess_are_rejected) {
    auto c = convert("[Variant \"Crazyhouse\"]\n\n1. e4 e5 *\n");
    BOOST_TEST(int(c.status.at(0)) == int(pgn::GameStatus::rejected));
    BOOST_TEST(c.messages ==
               "test.pgn:1:11: error: game 1: variant 'Crazyhouse' is not chess; the game is not "
               "converted\n");
    BOOST_TEST(c.out.empty());
    BOOST_TEST(pgn::variant_kind("Chess960") == "chess960");
    BOOST_TEST(pgn::variant_kind("chess 960") == "chess960");
    BOOST_TEST(pgn::variant_kind("fischerandom") == "chess960");
    BOOST_TEST(pgn::variant_kind("Standard") == "");
    BOOST_TEST(pgn::variant_kind("From Position") == "");
}

BOOST_AUTO_TEST_CASE(chess960_castling_is_king_to_own_rook) {
    // Start position 518 is the standard one; as a Chess960 game, O-O is king e1 -> rook h1.
    auto c = convert("[Variant \"Chess960\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O *\n");
    BOOST_TEST(c.messages == "");
    BOOST_TEST(c.out == roster_unknown +
                            "[Result \"*\"]\n[Notation \"ICCF\"]\n[Variant \"Chess960\"]\n\n"
                            "1. 5254 5755 2. 7163 7866 3. 6134 6835 4. 5181 5888 *\n\n");
    // King b1, rook a1 (FEN from a Chess960 start): O-O-O is 2111, read back as O-O-O.
    std::string const fen = "[Variant \"Chess960\"]\n[FEN \"rk6/8/8/8/8/8/8/RK6 w Aa - 0 1\"]\n\n";
    auto q = convert(fen + "1. O-O-O *\n");
    std::string const tags = "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rk6/8/8/8/8/8/8/RK6 w "
                             "Aa - 0 1\"]\n\n";
    BOOST_TEST(q.out ==
               roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n" + tags + "1. 2111 *\n\n");
    auto back = convert(fen + "1. 2111 *\n", to(notation::Notation::san));
    BOOST_TEST(back.out == roster_unknown + "[Result \"*\"]\n" + tags + "1. O-O-O *\n\n");
}

BOOST_AUTO_TEST_CASE(chess960_is_recognised_from_castling_rights) {
    // No Variant tag: the Shredder castling field "Aa" (rooks on the a-file, kings on b)
    // only makes sense in Chess960.
    auto c = convert("[FEN \"rk6/8/8/8/8/8/8/RK6 w Aa - 0 1\"]\n\n1. O-O-O O-O-O *\n");
    BOOST_TEST(c.messages == "");
    BOOST_TEST(c.out ==
               roster_unknown +
                   "[Result \"*\"]\n[Notation \"ICCF\"]\n[Variant \"Chess960\"]\n[SetUp "
                   "\"1\"]\n[FEN \"rk6/8/8/8/8/8/8/RK6 w Aa - 0 1\"]\n\n1. 2111 2818 *\n\n");
}

BOOST_AUTO_TEST_CASE(null_moves_are_written_as_dashes) {
    auto c = convert("1. e4 Z0 2. d4 -- *\n", to(notation::Notation::san));
    BOOST_TEST(c.out == roster_unknown + "[Result \"*\"]\n\n1. e4 -- 2. d4 -- *\n\n");
}

BOOST_AUTO_TEST_CASE(our_output_always_reads_back) {
    // Token soup (deterministic): whatever the input, every game we write must read back
    // without a single error, as the same number of games, in both notations and with
    // --keep-broken, and rewriting our output must give it again byte for byte; with the
    // other properties of the conversion fuzz target (tests/support/properties.hpp): counts
    // add up, --check agrees, every move written is legal, SAN via numeric equals SAN.
    char const* const pieces[] = {"[Event \"x\"]",
                                  "\n",
                                  "{",
                                  "}",
                                  "(",
                                  ")",
                                  "1.",
                                  "e4",
                                  "e5",
                                  "Nf3",
                                  "5254",
                                  "$1",
                                  ";",
                                  "%",
                                  "\"",
                                  "[",
                                  "]",
                                  "1-0",
                                  "*",
                                  "O-O",
                                  "0-0",
                                  "Z0",
                                  "--",
                                  "!?",
                                  "\xC2\xB1",
                                  "12...",
                                  "e8=Q",
                                  "\r\n",
                                  "Nc6",
                                  "d4",
                                  "exd5",
                                  "{[%clk 0:01:00]}",
                                  "Bb5",
                                  "a6",
                                  "2836",
                                  "7163",
                                  "(1... c5)"};
    std::uint32_t seed = 12345;
    auto next = [&seed] {
        seed = seed * 1103515245U + 12345U;
        return (seed >> 16) & 0x7fffU;
    };
    std::string soup;
    for (int i = 0; i < 60000; ++i) {
        soup += pieces[next() % (sizeof pieces / sizeof pieces[0])];
        soup += (next() % 3 == 0) ? "\n" : " ";
    }
    for (auto n : {notation::Notation::numeric, notation::Notation::san}) {
        for (bool keep : {false, true}) {
            BOOST_TEST_CONTEXT("notation " << int(n) << " keep_broken " << keep) {
                pgn::ConvertOptions o = to(n);
                o.keep_broken = keep;
                o.width = 40;
                properties::ConversionStats stats;
                BOOST_TEST(properties::check_conversion(soup, o, &stats) == "");
                BOOST_TEST(stats.converted + stats.kept_broken > 100U);
                BOOST_TEST(stats.rejected > 100U);
                BOOST_TEST((stats.kept_broken > 0U) == keep);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(a_fen_game_gets_setup_and_a_chess960_one_its_variant) {
    // PGN §9.7.1: SetUp "1" goes with FEN; a game that is Chess960 by its castling rights gets
    // Variant "Chess960" so that other readers know what 2111 means. Both go right before the
    // FEN tag; tags that are there already are kept as they are.
    std::string const fen960 = "[FEN \"rk6/8/8/8/8/8/8/RK6 w Aa - 0 1\"]\n";
    auto c = convert("[Event \"a\"]\n" + fen960 + "[Annotator \"x\"]\n\n1. O-O-O *\n");
    BOOST_TEST(c.messages == "");
    BOOST_TEST(c.out == "[Event \"a\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                        "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[Notation \"ICCF\"]\n"
                        "[Variant \"Chess960\"]\n[SetUp \"1\"]\n" +
                            fen960 + "[Annotator \"x\"]\n\n1. 2111 *\n\n");
    // A standard position from FEN: SetUp only. Present tags (any spelling) are not doubled,
    // and are written in the standard spelling (readers look for "FEN", "SetUp", "Variant");
    // a SetUp "0" beside the FEN that is used is written "1".
    std::string const fen = "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n";
    auto s = convert(fen + "\n1. O-O *\n", to(notation::Notation::san));
    BOOST_TEST(s.out ==
               roster_unknown + "[Result \"*\"]\n[SetUp \"1\"]\n" + fen + "\n1. O-O *\n\n");
    auto kept = convert("[Setup \"1\"]\n" + fen + "\n1. O-O *\n", to(notation::Notation::san));
    BOOST_TEST(kept.out ==
               roster_unknown + "[Result \"*\"]\n[SetUp \"1\"]\n" + fen + "\n1. O-O *\n\n");
    auto lower = convert("[setup \"0\"]\n[fen \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n[variant "
                         "\"Standard\"]\n\n1. O-O *\n",
                         to(notation::Notation::san));
    BOOST_TEST(lower.messages == "");
    BOOST_TEST(lower.out == roster_unknown + "[Result \"*\"]\n[SetUp \"1\"]\n" + fen +
                                "[Variant \"Standard\"]\n\n1. O-O *\n\n");
    auto variant = convert("[Variant \"chess 960\"]\n" + fen960 + "\n1. O-O-O *\n");
    BOOST_TEST(variant.out == roster_unknown +
                                  "[Result \"*\"]\n[Notation \"ICCF\"]\n[Variant \"chess 960\"]\n"
                                  "[SetUp \"1\"]\n" +
                                  fen960 + "\n1. 2111 *\n\n");
    // An empty FEN tag means the standard position: nothing is added.
    auto empty = convert("[FEN \"\"]\n\n1. e4 *\n", to(notation::Notation::san));
    BOOST_TEST(empty.out == roster_unknown + "[Result \"*\"]\n[FEN \"\"]\n\n1. e4 *\n\n");
}

BOOST_AUTO_TEST_CASE(a_variation_without_a_move_is_left_out) {
    // "()" is read by no PGN reader (pgn-extract: "Missing move list in variation"): it is
    // dropped with a warning; a comment or NAG in it goes after the move before it, which
    // then gets its "N..." number as after any comment; nothing else changes.
    std::string const in = "1. e4 ( ) e5 2. Nf3 ( {only a comment} $1 ) Nc6 "
                           "(2... d6 ( ) 3. d4) 3. Bb5 ( {c} ) *\n";
    auto c = convert(in, to(notation::Notation::san));
    BOOST_TEST(c.out == roster_unknown + "[Result \"*\"]\n\n"
                                         "1. e4 e5 2. Nf3 {only a comment} $1 2... Nc6 (2... d6 3. "
                                         "d4) 3. Bb5 {c} *\n\n");
    std::string const w = "variation without a move left out (no reader accepts '()'); a comment "
                          "or NAG in it is kept after the move before it\n";
    BOOST_TEST(c.messages == "test.pgn:1:7: warning: game 1: '(': " + w +
                                 "test.pgn:1:21: warning: game 1: '(': " + w +
                                 "test.pgn:1:58: warning: game 1: '(': " + w +
                                 "test.pgn:1:76: warning: game 1: '(': " + w);
    BOOST_TEST((c.status == std::vector<pgn::GameStatus>{pgn::GameStatus::converted}));
    // Without comments only the NAG stays, and no "2..." number follows a NAG (found by
    // fuzz_convert: our output, read again, lost that number).
    pgn::ConvertOptions bare = to(notation::Notation::san);
    bare.comments = false;
    BOOST_TEST(convert(in, bare).out == roster_unknown + "[Result \"*\"]\n\n"
                                                         "1. e4 e5 2. Nf3 $1 Nc6 (2... d6 3. d4) "
                                                         "3. Bb5 *\n\n");
    // --check reports the same.
    pgn::ConvertOptions check = to(notation::Notation::san);
    check.check_only = true;
    BOOST_TEST(convert(in, check).messages == c.messages);
    // A variation whose only move cannot be played: it has no move either, so the
    // unplayable text goes after the move before it (the game is converted; with --strict
    // and --keep-broken it is kept broken, the same way).
    auto b = convert("1. e4 (1. Ke3) e5 *\n");
    std::string const cut = roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n\n"
                                             "1. 5254 {Ke3} 1... 5755 *\n\n";
    BOOST_TEST(b.out == cut);
    BOOST_TEST((b.status == std::vector<pgn::GameStatus>{pgn::GameStatus::converted}));
    pgn::ConvertOptions keep = to(notation::Notation::numeric);
    keep.keep_broken = true;
    keep.strict = true;
    auto k = convert("1. e4 (1. Ke3) e5 *\n", keep);
    BOOST_TEST(k.out == cut);
    BOOST_TEST((k.status == std::vector<pgn::GameStatus>{pgn::GameStatus::kept_broken}));
}

BOOST_AUTO_TEST_CASE(the_result_tag_and_the_marker_are_standard_and_agree) {
    // The export format allows 1-0, 0-1, 1/2-1/2 and * only, the same in the Result tag and
    // at the end of the movetext (§8.2.6). A non-standard draw `1/2` (read with a warning)
    // is written 1/2-1/2; a Result tag that is not a result is written as the marker.
    auto draw = convert("1. d4 d5 1/2\n", to(notation::Notation::san));
    BOOST_TEST(draw.out == roster_unknown + "[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n\n");
    BOOST_TEST(draw.messages ==
               "test.pgn:1:10: warning: game 1: '1/2': non-standard result '1/2'; read as "
               "1/2-1/2\n");
    auto tag = convert("[Result \"?\"]\n\n1. d4 d5 0-1\n", to(notation::Notation::san));
    BOOST_TEST(tag.out == roster_unknown + "[Result \"0-1\"]\n\n1. d4 d5 0-1\n\n");
    BOOST_TEST(tag.messages == "test.pgn:1:10: warning: game 1: Result tag \"?\" is not a result "
                               "(1-0, 0-1, 1/2-1/2, *); written as \"0-1\"\n");
    auto none = convert("[Result \"1/2\"]\n\n1. d4 d5\n", to(notation::Notation::san));
    BOOST_TEST(none.out == roster_unknown + "[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n\n");
}

BOOST_AUTO_TEST_CASE(an_unplayable_move_in_a_variation_cuts_the_variation) {
    // The main line is sound: the variation is written up to the bad move, the rest of it
    // kept verbatim in a comment (up to its ')', variations inside it too), with a warning;
    // the game is converted. --strict rejects the game, as a bad main-line move does.
    std::string const in = "1. e4 e5 (1... c5 2. Ke3 Nc6 $2 (2... d6) 3. d4) 2. Nf3 Nc6 *\n";
    auto c = convert(in, to(notation::Notation::san));
    BOOST_TEST(c.out == roster_unknown +
                            "[Result \"*\"]\n\n"
                            "1. e4 e5 (1... c5 {Ke3 Nc6 $2 (2... d6) 3. d4}) 2. Nf3 Nc6 *\n\n");
    BOOST_TEST(c.messages ==
               "test.pgn:1:22: warning: game 1, move 2.: 'Ke3': no king can legally move to e3; "
               "the variation is cut here and its rest kept in a comment\n");
    BOOST_TEST((c.status == std::vector<pgn::GameStatus>{pgn::GameStatus::converted}));
    pgn::ConvertOptions strict = to(notation::Notation::san);
    strict.strict = true;
    auto s = convert(in, strict);
    BOOST_TEST(s.out.empty());
    BOOST_TEST(s.messages ==
               "test.pgn:1:22: error: game 1, move 2.: 'Ke3': no king can legally move to e3\n");
    BOOST_TEST((s.status == std::vector<pgn::GameStatus>{pgn::GameStatus::rejected}));
    // A typo in a numeric variation: the suggestion is offered, nothing is assumed; the
    // variation has no playable move, so it is left out and its text follows e5.
    auto n = convert("1. 5254 5755 (1... 3753 2. 4244) 2. 7163 *\n", to(notation::Notation::san));
    BOOST_TEST(n.out == roster_unknown + "[Result \"*\"]\n\n1. e4 e5 {3753 2. 4244} 2. Nf3 *\n\n");
    // 3753 (c7-e3) is no move; 3735 (c7-c5) is one transposition away. In input order: the
    // '(' (found at its ')') before the move inside it.
    BOOST_TEST(n.messages ==
               "test.pgn:1:14: warning: game 1: '(': variation without a move left out (no reader "
               "accepts '()'); a comment or NAG in it is kept after the move before it\n"
               "test.pgn:1:20: warning: game 1, move 1...: '3753': the pawn on 37 cannot move to "
               "53; did you mean 3735 (c5)?; the variation is cut here and its rest kept in a "
               "comment\n");
    BOOST_TEST((n.status == std::vector<pgn::GameStatus>{pgn::GameStatus::converted}));
    // A rest holding a comment: a brace comment cannot hold its '}', so the rest is written
    // as brace comments, the text around the inner comment as comments of their own (a ';'
    // comment could hold it, but pgn-extract 19 reads no ';' comment).
    auto b = convert("1. e4 e5 (1... Ke7 {a}\n2. Nf3) 2. Nf3 *\n", to(notation::Notation::san));
    BOOST_TEST(b.out ==
               roster_unknown + "[Result \"*\"]\n\n1. e4 e5 {Ke7} {a} {2. Nf3} 2. Nf3 *\n\n");
    BOOST_TEST(convert(b.out, to(notation::Notation::san)).out == b.out);
    // The same for a ';' comment; a '{' that nothing closes is text like any other (this once
    // looped for ever), a '}' outside every brace pair keeps the ';' comment.
    auto l = convert("1. e4 ; a {b} {c\n e5 *\n", to(notation::Notation::san));
    BOOST_TEST(l.out == roster_unknown + "[Result \"*\"]\n\n1. e4 {a} {b} {{c} 1... e5 *\n\n");
    BOOST_TEST(convert(l.out, to(notation::Notation::san)).out == l.out);
    auto k = convert("1. e4 ; a } b\n e5 *\n", to(notation::Notation::san));
    BOOST_TEST(k.out == roster_unknown + "[Result \"*\"]\n\n1. e4 ; a } b\n1... e5 *\n\n");
    // Without comments the rest is left out like any comment (the warning says so).
    pgn::ConvertOptions bare = to(notation::Notation::san);
    bare.comments = false;
    auto nc = convert(in, bare);
    BOOST_TEST(nc.out == roster_unknown + "[Result \"*\"]\n\n1. e4 e5 (1... c5) 2. Nf3 Nc6 *\n\n");
    BOOST_TEST(nc.messages ==
               "test.pgn:1:22: warning: game 1, move 2.: 'Ke3': no king can legally move to e3; "
               "the variation is cut here and its rest left out (comments are left out)\n");
    BOOST_TEST(convert(nc.out, bare).out == nc.out);
}

BOOST_AUTO_TEST_CASE(a_variation_directly_inside_a_variation_is_one_of_the_same_move) {
    // "( (1. d4 d5) 1. c4 )": the inner variation stands before any move of the outer one, so
    // it has no move of its own to replace: it is read as another variation of the same move
    // (a warning), written beside it; what the outer variation held before it goes after the
    // move before, its rest is a variation of the same move again, left out without a second
    // warning when nothing follows. 1. e4 = 5254, 1. d4 = 4244, 1... d5 = 4745, 1. c4 = 3234,
    // 1... e5 = 5755, 2. Nf3 = 7163, 2. Nc3 = 2133, 2... Nc6 = 2836, 3. Bb5 = 6125,
    // 3. Bc4 = 6134.
    std::string const in = "1. e4 ((1. d4 d5) 1. c4) e5 2. Nf3 (2. Nc3 ( ( {c} ) ) 2... Nc6) "
                           "Nc6 3. Bb5 ( {x} ( 3. Bc4 ) {y} ) *\n";
    auto n = convert(in);
    BOOST_TEST(n.out == roster_unknown +
                            "[Result \"*\"]\n[Notation \"ICCF\"]\n\n"
                            "1. 5254 (1. 4244 4745) (1. 3234) 1... 5755 2. 7163 (2. 2133 "
                            "{c} 2... 2836)\n"
                            "2... 2836 3. 6125 {x} (3. 6134) {y} *\n\n");
    std::string const w = "variation directly inside a variation, before its first move; read "
                          "as another variation of the same move\n";
    BOOST_TEST(n.messages ==
               "test.pgn:1:8: warning: game 1: '(': " + w +
                   "test.pgn:1:46: warning: game 1: '(': " + w +
                   "test.pgn:1:46: warning: game 1: '(': variation without a move left out (no "
                   "reader accepts '()'); a comment or NAG in it is kept after the move before "
                   "it\n" +
                   "test.pgn:1:83: warning: game 1: '(': " + w);
    BOOST_TEST((n.status == std::vector<pgn::GameStatus>{pgn::GameStatus::converted}));
    // Deeper: "( ( ( 1. d4 ) ) 1. c4 )" gives two variations of 1. e4.
    auto d = convert("1. e4 ( ( ( 1. d4 ) ) 1. c4 ) *\n", to(notation::Notation::san));
    BOOST_TEST(d.out == roster_unknown + "[Result \"*\"]\n\n1. e4 (1. d4) (1. c4) *\n\n");
    // Read again, our output has no such construct left.
    auto again = convert(n.out);
    BOOST_TEST(again.messages == "");
    BOOST_TEST(again.out == n.out);
}

BOOST_AUTO_TEST_CASE(unicode_glyphs_after_moves_are_nags) {
    // Issue L T2: glyphs glued to moves or on their own, as some viewers export them, are the
    // NAGs they stand for; another non-ASCII symbol glued to a move is named in the error.
    auto c = convert("1. e4\xE2\x80\xBC e5\xE2\x81\x87 2. Nf3\xE2\x81\x89 Nc6\xE2\x81\x88 3. Bb5 "
                     "+\xE2\x88\x92 a6 \xE2\x88\x92+ 4. Ba4\xC2\xB1 *\n",
                     to(notation::Notation::numeric));
    BOOST_TEST(c.messages == "");
    BOOST_TEST(c.out == roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n\n" +
                            "1. 5254 $3 5755 $4 2. 7163 $5 2836 $6 3. 6125 $18 1716 $19 4. 2514 "
                            "$16 *\n\n");
    auto u = convert("1. e4 e5 2. Nf3\xE2\x98\x85 *\n", to(notation::Notation::numeric));
    BOOST_TEST(u.out.empty());
    BOOST_TEST(u.messages == "test.pgn:1:13: error: game 1, move 2.: 'Nf3\xE2\x98\x85': unknown "
                             "annotation glyph '\xE2\x98\x85' after the move (not one of the "
                             "NAG table)\n");
}

namespace {

pgn::ConvertOptions auto_lang(notation::Notation n) {
    pgn::ConvertOptions o = to(n);
    o.auto_input_lang = true;
    return o;
}

pgn::ConvertOptions fix_typos(notation::Notation n) {
    pgn::ConvertOptions o = to(n);
    o.fix_typos = true;
    return o;
}

} // namespace

BOOST_AUTO_TEST_CASE(input_lang_auto_tries_english_first) {
    // Where R is the knight (af, et, fi, is) every move plays too: Ng1-h3, Nb1-c3. English
    // plays every move (Rh1-h3, Rh3-c3), so English it is, with no note and no other reading.
    std::string const in = "1. h4 e5 2. Rh3 d5 3. Rc3 *\n";
    auto c = convert(in, auto_lang(notation::Notation::san));
    BOOST_TEST(c.out == roster_unknown + "[Result \"*\"]\n\n1. h4 e5 2. Rh3 d5 3. Rc3 *\n\n");
    BOOST_TEST(c.messages == "");
    BOOST_TEST((c.status == std::vector<pgn::GameStatus>{pgn::GameStatus::converted}));
    // Numeric: h2 = 82, h4 = 84, h1 = 81, h3 = 83, c3 = 33; e7-e5 5755, d7-d5 4745.
    std::string const numeric = roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n\n";
    BOOST_TEST(convert(in, auto_lang(notation::Notation::numeric)).out ==
               numeric + "1. 8284 5755 2. 8183 4745 3. 8333 *\n\n");
    // Finnish, when named: g1 = 71, b1 = 21.
    pgn::ConvertOptions fi = to(notation::Notation::numeric);
    fi.read.letters = notation::letters_for("fi");
    BOOST_TEST(convert(in, fi).out == numeric + "1. 8284 5755 2. 7183 4745 3. 2133 *\n\n");
}

BOOST_AUTO_TEST_CASE(input_lang_auto_reads_a_game_only_german_letters_play) {
    // S knight, L bishop, T rook, D queen: every move, the variation's too, plays with the
    // letters of da, de, hr, no and sv (the same letters but for the pawn's, never written
    // here), with no other language. One warning names them, at the first move English
    // could not play; the English attempt leaves no output and no diagnostic behind.
    std::string const de = "[White \"Weiss\"]\n\n1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 (3... Sf6 4. O-O) "
                           "4. La4 Sf6 5. O-O Le7 6. Te1 b5 7. Lb3 d6 8. c3 O-O 9. h3 Dd7 *\n\n";
    std::string const en = "1. d4 d5 *\n";
    auto c = convert(de + en, auto_lang(notation::Notation::san));
    std::string const head = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                             "[Round \"?\"]\n[White \"Weiss\"]\n[Black \"?\"]\n[Result \"*\"]\n\n";
    BOOST_TEST(c.out == head +
                            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 (3... Nf6 4. O-O) 4. Ba4 Nf6 5. O-O "
                            "Be7 6. Re1 b5\n7. Bb3 d6 8. c3 O-O 9. h3 Qd7 *\n\n" +
                            roster_unknown + "[Result \"*\"]\n\n1. d4 d5 *\n\n");
    BOOST_TEST(c.messages ==
               "test.pgn:3:13: warning: game 1 (Weiss - ?), move 2.: 'Sf3': not a move in "
               "English; the game is read with the piece letters of da, de, hr, no, sv "
               "(--input-lang auto)\n");
    BOOST_TEST(c.errors == 0);
    BOOST_TEST(c.warnings == 1);
    BOOST_TEST((c.status == std::vector<pgn::GameStatus>{pgn::GameStatus::converted,
                                                         pgn::GameStatus::converted}));
    // Without auto: English only, the game rejected at Sf3.
    auto e = convert(de, to(notation::Notation::san));
    BOOST_TEST(e.out.empty());
    BOOST_TEST(e.messages == "test.pgn:3:13: error: game 1 (Weiss - ?), move 2.: 'Sf3': unknown "
                             "piece letter for input language 'en' (see --input-lang)\n");
    // --check reports the same.
    pgn::ConvertOptions check = auto_lang(notation::Notation::numeric);
    check.check_only = true;
    auto k = convert(de + en, check);
    BOOST_TEST(k.out.empty());
    BOOST_TEST(k.messages == c.messages);
}

BOOST_AUTO_TEST_CASE(input_lang_auto_reports_the_reading_that_went_furthest) {
    // Issue L T3: a Spanish score (C knight, A bishop) that turns into prose at move 8. No
    // language plays every move; English fails at 1... Cf6, the letters of ca, es and it (the
    // same letters) play 14 moves: their diagnostics are reported, naming them.
    std::string const es = "[White \"Perez\"]\n\n1. d4 Cf6 2. Af4 g6 3. e3 Ag7 4. Cf3 O-O 5. Ae2 "
                           "d6 6. O-O Cbd7 7. h3 e5 8. las blancas abandonan *\n";
    auto c = convert(es, auto_lang(notation::Notation::numeric));
    BOOST_TEST(c.out.empty());
    BOOST_TEST(c.messages ==
               "test.pgn:3:76: error: game 1 (Perez - ?), move 8.: 'las': no language plays every "
               "move; read furthest with the piece letters of ca, es, it (14 moves played, "
               "--input-lang auto): not a move in SAN, long algebraic or numeric notation\n");
    BOOST_TEST(c.errors == 1);
    BOOST_TEST((c.status == std::vector<pgn::GameStatus>{pgn::GameStatus::rejected}));
    // A tie with English (every reading fails at 3. Ke3, or before): English's diagnostics,
    // as before.
    auto k = convert("1. e4 e5 2. Nf3 Nc6 3. Ke3 *\n", auto_lang(notation::Notation::numeric));
    BOOST_TEST(k.messages ==
               "test.pgn:1:24: error: game 1, move 3.: 'Ke3': no king can legally move to e3\n");
}

BOOST_AUTO_TEST_CASE(input_lang_auto_rejects_a_game_two_languages_read_differently) {
    // "Re2": the knight g1-e2 where R is the knight (af, et, fi, is), the king e1-e2 where
    // it is the king (ca, es, fr, it, pt, ro). Not guessed: rejected, naming both.
    auto c = convert("1. e4 e5 2. Re2 *\n", auto_lang(notation::Notation::numeric));
    BOOST_TEST(c.out.empty());
    BOOST_TEST(c.messages ==
               "test.pgn:1:13: error: game 1, move 2.: 'Re2': read as Ne2 with the piece "
               "letters of af, et, fi, is and as Ke2 with those of ca, es, fr, it, pt, ro; the "
               "game is not converted (name its language with --input-lang)\n");
    BOOST_TEST(c.errors == 1);
    BOOST_TEST(c.warnings == 0);
    BOOST_TEST((c.status == std::vector<pgn::GameStatus>{pgn::GameStatus::rejected}));
    // Named, each reading converts: g1 = 71, e2 = 52, e1 = 51.
    pgn::ConvertOptions fi = to(notation::Notation::numeric);
    fi.read.letters = notation::letters_for("fi");
    std::string const head = roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n\n";
    auto const f = convert("1. e4 e5 2. Re2 *\n", fi);
    BOOST_TEST(f.out == head + "1. 5254 5755 2. 7152 *\n\n");
    BOOST_TEST(f.messages == "");
    pgn::ConvertOptions fr = to(notation::Notation::numeric);
    fr.read.letters = notation::letters_for("fr");
    auto const r = convert("1. e4 e5 2. Re2 *\n", fr);
    BOOST_TEST(r.out == head + "1. 5254 5755 2. 5152 *\n\n");
    BOOST_TEST(r.messages == "");
}

BOOST_AUTO_TEST_CASE(input_lang_auto_without_a_language_gives_the_english_diagnostics) {
    // No language plays "Ke3": the English reading stands, its diagnostics as without auto.
    std::string const bad = "1. e4 e5 2. Ke3 *\n";
    auto c = convert(bad, auto_lang(notation::Notation::san));
    BOOST_TEST(c.out.empty());
    BOOST_TEST(c.messages ==
               "test.pgn:1:13: error: game 1, move 2.: 'Ke3': no king can legally move to e3\n");
    BOOST_TEST(c.messages == convert(bad, to(notation::Notation::san)).messages);
    BOOST_TEST(c.errors == 1);
    BOOST_TEST((c.status == std::vector<pgn::GameStatus>{pgn::GameStatus::rejected}));
    // In a variation: the English reading (the variation cut, the game converted) stands.
    std::string const var = "1. e4 e5 (1... c5 2. Ke3) 2. Nf3 *\n";
    auto v = convert(var, auto_lang(notation::Notation::san));
    auto plain = convert(var, to(notation::Notation::san));
    BOOST_TEST(v.out == roster_unknown + "[Result \"*\"]\n\n1. e4 e5 (1... c5 {Ke3}) 2. Nf3 *\n\n");
    BOOST_TEST(v.out == plain.out);
    BOOST_TEST(v.messages == plain.messages);
    BOOST_TEST(v.warnings == 1);
    // A numeric typo is no matter of letters: no other language is tried, and the numeric
    // suggestion is the English reading's.
    auto n = convert("1. 5254 5756 *\n", auto_lang(notation::Notation::san));
    BOOST_TEST(n.messages == convert("1. 5254 5756 *\n", to(notation::Notation::san)).messages);
}

BOOST_AUTO_TEST_CASE(fix_typos_writes_the_only_legal_move_one_edit_away) {
    // 7136 (g1-c6, no knight move): only 7163 (Nf3) is one edit away (the last two digits
    // swapped); 7865 (g8-f5) in the variation: only 7866 (Nf6), the last digit changed.
    std::string const in = "[Notation \"ICCF\"]\n\n1. 5254 5755 2. 7136 $1 2836 3. 6125 1716 "
                           "(3... 7865 4. 5171) 4. 2514 7866 5. 5171 6857 *\n";
    auto c = convert(in, fix_typos(notation::Notation::san));
    BOOST_TEST(c.out == roster_unknown + "[Result \"*\"]\n\n"
                                         "1. e4 e5 2. Nf3 $1 {typed 7136} 2... Nc6 3. Bb5 a6 (3... "
                                         "Nf6 {typed 7865}\n4. O-O) 4. Ba4 Nf6 5. O-O Be7 *\n\n");
    BOOST_TEST(c.messages ==
               "test.pgn:3:17: warning: game 1, move 2.: '7136': the knight on 71 cannot move to "
               "36; corrected to 7163 (Nf3), the only legal move one edit away (--fix-typos)\n"
               "test.pgn:3:49: warning: game 1, move 3...: '7865': the knight on 78 cannot move "
               "to 65; corrected to 7866 (Nf6), the only legal move one edit away "
               "(--fix-typos)\n");
    BOOST_TEST(c.corrected == 2U);
    BOOST_TEST(c.errors == 0);
    BOOST_TEST(c.warnings == 2);
    BOOST_TEST((c.status == std::vector<pgn::GameStatus>{pgn::GameStatus::converted}));
    auto n = convert(in, fix_typos(notation::Notation::numeric));
    BOOST_TEST(n.out == roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n\n"
                                         "1. 5254 5755 2. 7163 $1 {typed 7136} 2... 2836 3. 6125 "
                                         "1716 (3... 7866 {typed\n7865} 4. 5171) 4. 2514 7866 5. "
                                         "5171 6857 *\n\n");
    // With --annotate the corrected move's comment is the same {typed ...}.
    pgn::ConvertOptions ann = fix_typos(notation::Notation::san);
    ann.annotate = true;
    ann.width = 0;
    BOOST_TEST(convert("1. 5254 5755 2. 7136 *\n", ann).out ==
               roster_unknown + "[Result \"*\"]\n\n1. e4 {5254} 1... e5 {5755} 2. Nf3 {typed "
                                "7136} *\n\n");
    // Without --fix-typos: an error, the game rejected.
    auto plain = convert(in, to(notation::Notation::san));
    BOOST_TEST(plain.out.empty());
    BOOST_TEST(plain.corrected == 0U);
    BOOST_TEST((plain.status == std::vector<pgn::GameStatus>{pgn::GameStatus::rejected}));
}

// A numeric move written with a separator or a mark is suggested by its digits: the move
// itself when legal (52-54 is e2-e4), else the moves one edit away from the digits (4245 is
// d2-d5: d2-d3 and d2-d4 are one digit away); --fix-typos takes the only one.
BOOST_AUTO_TEST_CASE(a_numeric_move_with_a_separator_gets_its_digits_suggested) {
    auto hyphen = convert("1. 52-54 5755 *\n", to(notation::Notation::san));
    BOOST_TEST(hyphen.messages ==
               "test.pgn:1:4: error: game 1, move 1.: '52-54': a numeric move is written as its "
               "digits alone, without a separator; did you mean 5254 (e4)? (checking the rest of "
               "the game as if 5254 had been written)\n");
    // With marks a numeric move is still numeric: its squares named by their digits.
    auto marked = convert("1. 4245+ *\n", to(notation::Notation::san));
    BOOST_TEST(marked.messages == "test.pgn:1:4: error: game 1, move 1.: '4245+': the pawn on 42 "
                                  "cannot move to 45; did you mean 4243 (d3) or 4244 (d4)?\n");
    // Digits that name no legal move: their reading's error, and the moves one edit away.
    // After 1. e4 e5 the king cannot castle (f1 and g1 are taken); e2-e5 is no pawn move.
    auto no_move = convert("1. 5254 5755 2. 51-71 *\n[Event \"b\"]\n\n1. 52-55 *\n",
                           to(notation::Notation::san));
    BOOST_TEST(no_move.messages ==
               "test.pgn:1:17: error: game 1, move 2.: '51-71': read as 5171 (a numeric move has "
               "no separator): the king on 51 cannot move to 71\n"
               "test.pgn:4:4: error: game 2, move 1.: '52-55': read as 5255 (a numeric move has no "
               "separator): the pawn on 52 cannot move to 55; did you mean 5253 (e3) or 5254 "
               "(e4)?\n");
    // Other separators and places: '5-254', '57--55', and a digit dropped ('71-6': 7163).
    auto shapes = convert("1. 5-254 57--55 2. 71-6 *\n", fix_typos(notation::Notation::san));
    BOOST_TEST(
        shapes.out.find("1. e4 {typed 5-254} 1... e5 {typed 57--55} 2. Nf3 {typed 71-6} *") !=
        std::string::npos);
    BOOST_TEST(shapes.messages.find("5254 (e4), the move its digits name (--fix-typos)") !=
               std::string::npos);
    auto fixed = convert("1. 52-54 5755 2. 71x63 *\n", fix_typos(notation::Notation::san));
    BOOST_TEST(fixed.out.find("1. e4 {typed 52-54} 1... e5 2. Nf3 {typed 71x63} *") !=
               std::string::npos);
    BOOST_TEST(fixed.corrected == 2U);
    // Castling with zeros and a result are not numeric moves: no digits to suggest from.
    auto castle = convert("1. 0-0 *\n", to(notation::Notation::san));
    BOOST_TEST(castle.messages.find("did you mean") == std::string::npos, castle.messages);
}

// A mistyped numeric move is no move number (found by a review as a user: each of these was
// left out without a word, so the game was written a move short, or the error fell on the
// next move). Positions checked by hand: after 1. e4 e5 White's knight g1 (71) reaches f3
// (63); b8 (28) is Black's knight.
BOOST_AUTO_TEST_CASE(an_integer_that_is_no_move_number_is_read_as_a_move) {
    // Two digits 1-8 before the first move of a game that has no numeric move yet: the first
    // half of a move typed with a space inside (they were move numbers: an empty game, or
    // `1. 52 54 57 55 2. 7163` written as `1. Nf3`). A move number there is one still.
    auto halves = convert("1. 52 54 57 55 2. 7163 *\n", to(notation::Notation::san));
    BOOST_TEST(halves.messages ==
               "test.pgn:1:4: error: game 1, move 1.: '52': not a numeric move (four digits 1-8, "
               "and a fifth, 1-4, for a promotion) nor the number of this move\n");
    BOOST_TEST((halves.status == std::vector<pgn::GameStatus>{pgn::GameStatus::rejected}));
    auto numbers = convert("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 12\"]\n\n"
                           "12 e4 e5 13 Nf3 *\n",
                           to(notation::Notation::san));
    BOOST_TEST(numbers.messages.empty(), numbers.messages);
    // A bare number before the first move that is not the FEN's move number, followed by the
    // move, is a move number still (FEN counters are often 1 in real files).
    auto counter = convert("[FEN \"8/8/8/8/8/5k2/8/4K3 w - - 0 1\"]\n\n12 Kd1 *\n",
                           to(notation::Notation::san));
    BOOST_TEST(counter.messages.empty(), counter.messages);
    BOOST_TEST(counter.out.ends_with("1. Kd1 *\n\n"));
    // Three digits before the first move with a move after them: a digit dropped (716: 7163).
    auto three = convert("1. 716 2836 2. 5254 *\n", to(notation::Notation::san));
    BOOST_TEST(three.messages.starts_with("test.pgn:1:4: error: game 1, move 1.: '716': not a "
                                          "numeric move"));
    BOOST_TEST(three.messages.find("did you mean 7163 (Nf3)?") != std::string::npos);
    // Without a result the halves are a game all the same (it was also "not a game").
    auto open = convert("1. 52 54 57 55\n", to(notation::Notation::san));
    BOOST_TEST(open.messages ==
               "test.pgn:1:4: error: game 1, move 1.: '52': not a numeric move (four digits 1-8, "
               "and a fifth, 1-4, for a promotion) nor the number of this move\n"
               "test.pgn:1:15: warning: game 1: game has no result; it ends at the next tag "
               "section or the end of the input\n");
    // The last move before the result, with a 0 for a 4: an error on it, the game rejected.
    auto last = convert("1. 5254 5755 2. 7163 2807 1-0\n", to(notation::Notation::san));
    BOOST_TEST(last.messages ==
               "test.pgn:1:22: error: game 1, move 2...: '2807': digits 0 and 9 name no square "
               "(files and ranks are 1-8)\n");
    BOOST_TEST((last.status == std::vector<pgn::GameStatus>{pgn::GameStatus::rejected}));
    // A digit dropped, inside the game: the error is on '763' (not on 2836), and 7163 is the
    // only legal move with one digit more.
    auto dropped = convert("1. 5254 5755 2. 763 2836 3. 6125 *\n", to(notation::Notation::san));
    BOOST_TEST(dropped.messages ==
               "test.pgn:1:17: error: game 1, move 2.: '763': not a numeric move (four digits "
               "1-8, and a fifth, 1-4, for a promotion) nor the number of this move; did you mean "
               "7163 (Nf3)? (checking the rest of the game as if 7163 had been written)\n");
    auto fixed =
        convert("1. 5254 5755 2. 763 2836 3. 6125 *\n", fix_typos(notation::Notation::san));
    BOOST_TEST(fixed.out.find("2. Nf3 {typed 763} 2... Nc6 3. Bb5 *") != std::string::npos);
    BOOST_TEST(fixed.corrected == 1U);
    // A fifth digit that is no piece, and six digits in a SAN game.
    auto fifth = convert("1. 5254 5755 2. 71635 *\n", to(notation::Notation::san));
    BOOST_TEST(fifth.messages ==
               "test.pgn:1:17: error: game 1, move 2.: '71635': not a numeric move (four digits "
               "1-8, and a fifth, 1-4, for a promotion) nor the number of this move; did you mean "
               "7163 (Nf3)? (checking the rest of the game as if 7163 had been written)\n");
    auto six = convert("1. e4 e5 2. Nf3 716300 *\n");
    BOOST_TEST(six.messages.find("'716300': not a numeric move") != std::string::npos);
    // A period after a numeric move: read as the move, with a warning.
    auto period = convert("1. 5254 5755 2. 7163. 2836 *\n", to(notation::Notation::san));
    BOOST_TEST(period.messages ==
               "test.pgn:1:17: warning: game 1, move 2.: '7163.': a period after a numeric move "
               "(not the number of this move); read as 7163 (Nf3)\n");
    BOOST_TEST(period.out.find("1. e4 e5 2. Nf3 Nc6 *") != std::string::npos);
    // The number of the move that follows stays a move number, with periods or without, at
    // any length; so do one-digit integers, and two- and three-digit ones in a SAN game.
    std::string const fen = "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 123\"]\n\n";
    for (std::string const movetext :
         {"123 5152 5857 124 5251 *\n", "123 5152 5857 1240 5251 *\n", "1. e4 e5 33 Nf3 Nc6 *\n",
          "1. e4 e5 333 Nf3 Nc6 *\n", "1. 5254 5755 2 7163 2836 *\n"}) {
        BOOST_TEST_CONTEXT(movetext) {
            bool const late = movetext.front() == '1' && movetext[1] == '2';
            auto c = convert(late ? fen + movetext : movetext, to(notation::Notation::san));
            bool const bad = movetext.find("1240") != std::string::npos;
            BOOST_TEST(c.messages.empty() == !bad);
            if (bad)
                BOOST_TEST(c.messages.find("'1240': digits 0 and 9 name no square") !=
                           std::string::npos);
        }
    }
    // A move typed with a space inside: its first half is the error, not the move after it.
    auto split = convert("1. 5254 5755 2. 71 63 2836 *\n", to(notation::Notation::san));
    BOOST_TEST(split.messages ==
               "test.pgn:1:17: error: game 1, move 2.: '71': not a numeric move (four digits 1-8, "
               "and a fifth, 1-4, for a promotion) nor the number of this move\n");
    // Two digits that are the move's number, or hold a 0 or 9, stay move numbers.
    BOOST_TEST(convert("1. 5254 5755 2 7163 2836 *\n").messages.empty());
    BOOST_TEST(convert("1. 5254 5755 20 7163 2836 *\n").messages.empty());
    // The two squares swapped, where no move is one digit away: the swap is suggested.
    auto swapped = convert("1. 5254 5755 2. 6371 *\n", to(notation::Notation::san));
    BOOST_TEST(swapped.messages ==
               "test.pgn:1:17: error: game 1, move 2.: '6371': no piece on 63; did you mean 7163 "
               "(Nf3)? (checking the rest of the game as if 7163 had been written)\n");
}

BOOST_AUTO_TEST_CASE(fix_typos_leaves_several_candidates_an_error) {
    // 6135 (f1-c5): 6125 (Bb5) and 6134 (Bc4) are both one edit away.
    std::string const in = "1. 5254 5755 2. 7163 2836 3. 6135 7866 *\n";
    auto c = convert(in, fix_typos(notation::Notation::san));
    BOOST_TEST(c.out.empty());
    BOOST_TEST(c.messages == "test.pgn:1:30: error: game 1, move 3.: '6135': the bishop on 61 "
                             "cannot move to 35; did you mean 6125 (Bb5) or 6134 (Bc4)?\n");
    BOOST_TEST(c.corrected == 0U);
    BOOST_TEST((c.status == std::vector<pgn::GameStatus>{pgn::GameStatus::rejected}));
    // A missing promotion digit has four candidates: an error too.
    auto p = convert("[FEN \"8/4P3/8/8/8/k7/8/K7 w - - 0 1\"]\n\n1. 5758 *\n",
                     fix_typos(notation::Notation::san));
    BOOST_TEST(p.out.empty());
    BOOST_TEST(p.messages == "test.pgn:3:4: error: game 1, move 1.: '5758': a pawn reaching the "
                             "last rank needs a fifth digit (1 queen, 2 rook, 3 bishop, 4 knight); "
                             "did you mean 57581 (e8=Q), 57582 (e8=R), 57583 (e8=B) or 57584 "
                             "(e8=N)? (checking the rest of the game as if 57581 had been "
                             "written)\n");
    // A game rejected for another move: its correction is reported but not counted (nothing
    // of the game is written).
    auto r = convert("1. 5254 5755 2. 7136 2836 3. 6135 *\n", fix_typos(notation::Notation::san));
    BOOST_TEST(r.out.empty());
    BOOST_TEST(r.warnings == 1);
    BOOST_TEST(r.errors == 1);
    BOOST_TEST(r.corrected == 0U);
    // --keep-broken: the correction is written and counted, the rest from 6135 kept.
    pgn::ConvertOptions keep = fix_typos(notation::Notation::san);
    keep.keep_broken = true;
    auto k = convert("1. 5254 5755 2. 7136 2836 3. 6135 *\n", keep);
    BOOST_TEST(k.out == roster_unknown + "[Result \"*\"]\n\n1. e4 e5 2. Nf3 {typed 7136} 2... Nc6 "
                                         "{6135} *\n\n");
    BOOST_TEST(k.corrected == 1U);
    BOOST_TEST((k.status == std::vector<pgn::GameStatus>{pgn::GameStatus::kept_broken}));
}

// Issue 12: what follows a result, comments and text between games, forfeits.
BOOST_AUTO_TEST_CASE(comments_and_text_around_games_are_kept_with_their_game) {
    std::string const input = "{ Intro }\n\n[Event \"a\"]\n\n1. e4 e5 1-0 ff\n\n"
                              "; { Game Nr. 1 : X draws }\n{two}\n"
                              "some garbage\n\n"
                              "[Event \"b\"]\n\n1. d4 d5 2. c4 ...0-1 )\n";
    auto const tags = [](std::string_view event, std::string_view result) {
        return "[Event \"" + std::string(event) +
               "\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
               "[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"" +
               std::string(result) + "\"]\n\n";
    };
    auto c = convert(input, to(notation::Notation::san));
    BOOST_TEST(c.texts == 1);
    BOOST_TEST(c.status.size() == 2u);
    // The comment before the tag section leads the first game's movetext; the word after
    // the result and the comment lines after it come before its termination marker (a `;`
    // comment holding a brace comment is written as that brace comment).
    BOOST_TEST(c.out == tags("a", "1-0") +
                            "{ Intro } 1. e4 e5 {ff} { Game Nr. 1 : X draws } {two} 1-0\n\n" +
                            tags("b", "0-1") + "1. d4 d5 2. c4 0-1\n\n");
    BOOST_TEST(c.messages ==
               "test.pgn:5:14: warning: game 1: 'ff': text after the result; read as a comment\n"
               "test.pgn:13:16: warning: game 2: '...0-1': move number periods written before the "
               "result '0-1'; read as the result\n"
               "test.pgn:13:23: warning: game 2: ')': ')' after the result; ignored\n");
    // --no-comments leaves all of them out.
    pgn::ConvertOptions bare = to(notation::Notation::san);
    bare.comments = false;
    auto b = convert(input, bare);
    BOOST_TEST(b.out ==
               tags("a", "1-0") + "1. e4 e5 1-0\n\n" + tags("b", "0-1") + "1. d4 d5 2. c4 0-1\n\n");
}

BOOST_AUTO_TEST_CASE(forfeits_are_read_as_wins) {
    // In the movetext (numeric output: e4 = 5254, e5 = 5755, d4 = 4244), and in the Result
    // tag alone.
    auto c = convert("[Event \"a\"]\n\n1. e4 e5 (+)-(-)\n\n[Event \"b\"]\n[Result \"(-)-(+)\"]\n\n"
                     "1. d4\n");
    BOOST_TEST(c.out == "[Event \"a\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                        "[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[Notation \"ICCF\"]\n\n"
                        "1. 5254 5755 1-0\n\n"
                        "[Event \"b\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                        "[White \"?\"]\n[Black \"?\"]\n[Result \"0-1\"]\n[Notation \"ICCF\"]\n\n"
                        "1. 4244 0-1\n\n");
    BOOST_TEST(
        c.messages ==
        "test.pgn:3:10: warning: game 1: '(+)-(-)': forfeit result '(+)-(-)'; read as 1-0\n"
        "test.pgn:6:10: warning: game 2: forfeit Result tag \"(-)-(+)\" read as 0-1; written "
        "as \"0-1\"\n"
        "test.pgn:8:6: warning: game 2: game has no result; it ends at the next tag section "
        "or the end of the input\n");
}

BOOST_AUTO_TEST_CASE(every_diagnostic_kind_has_its_whole_message) {
    // One game per kind of diagnostic of the replay, the whole message line checked by hand
    // against the position (columns counted from the input; squares a1 = 11 ... h8 = 88).
    struct Case {
        char const* kind;
        char const* input;
        char const* message;
    };
    Case const cases[] = {
        {"wrong colour", "1. 5254 4244 *\n",
         "test.pgn:1:9: error: game 1, move 1...: '4244': the piece on 42 is White's; Black is "
         "to move\n"},
        {"no piece", "1. 5354 *\n",
         "test.pgn:1:4: error: game 1, move 1.: '5354': no piece on 53; did you mean 5254 (e4)? "
         "(checking the rest of the game as if 5254 had been written)\n"},
        {"cannot move there", "1. 2133 2836 2. 6165 *\n",
         "test.pgn:1:17: error: game 1, move 2.: '6165': the bishop on 61 cannot move to 65\n"},
        {"no piece of the kind can move there", "1. e4 e5 2. Ke3 *\n",
         "test.pgn:1:13: error: game 1, move 2.: 'Ke3': no king can legally move to e3\n"},
        {"ambiguous, with the candidates", "1. a4 a5 2. h4 h5 3. Ra3 Ra6 4. Rh3 *\n",
         "test.pgn:1:33: error: game 1, move 4.: 'Rh3': ambiguous: could be Rhh3 or Rah3\n"},
        {"unknown letter", "1. Xf3 *\n",
         "test.pgn:1:4: error: game 1, move 1.: 'Xf3': unknown piece letter for input language "
         "'en' (see --input-lang)\n"},
        {"promotion digit missing", "[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. 2728 *\n",
         "test.pgn:3:4: error: game 1, move 1.: '2728': a pawn reaching the last rank needs a "
         "fifth digit (1 queen, 2 rook, 3 bishop, 4 knight); did you mean 27281 (b8=Q+), 27282 "
         "(b8=R+), 27283 (b8=B) or 27284 (b8=N)? (checking the rest of the game as if 27281 had "
         "been written)\n"},
        {"promotion digit extra", "1. 52541 *\n",
         "test.pgn:1:4: error: game 1, move 1.: '52541': a fifth digit (promotion) on a move "
         "that is no promotion; did you mean 5254 (e4)? (checking the rest of the game as if "
         "5254 had been written)\n"},
        {"null move in check", "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ -- *\n",
         "test.pgn:1:30: error: game 1, move 3...: '--': a null move is not possible while in "
         "check\n"},
        {"invalid FEN", "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n",
         "test.pgn:1:7: error: game 1: '8/8/8/8/8/8/8/8 w - - 0 1': invalid FEN: FEN board has 0 "
         "white kings\n"},
        {"variation without a move before it", "( 1. e4 ) 1. d4 *\n",
         "test.pgn:1:1: error: game 1: '(': a variation must follow the move it replaces\n"},
        {"unterminated comment", "1. e4 {never\n",
         "test.pgn:1:7: error: game 1: '{': unterminated comment: '{' at line 1 column 7 is never "
         "closed\n"},
        {"unterminated variation", "1. e4 (1. d4 *\n",
         "test.pgn:1:14: warning: game 1: '*': result inside a variation; ignored (the game's "
         "result ends the movetext)\n"
         "test.pgn:2:1: error: game 1: expected ')' closing the variation, but the game ends "
         "here\n"},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(c.kind) {
            auto r = convert(c.input);
            BOOST_TEST(r.messages == c.message);
            BOOST_TEST((r.status == std::vector<pgn::GameStatus>{pgn::GameStatus::rejected}));
            BOOST_TEST(r.out.empty());
        }
    }
}

BOOST_AUTO_TEST_CASE(text_and_a_result_after_the_result_stay_with_the_game) {
    // `1-0 ff *`: the text after the result does not start like a game (no move number, no
    // move), so the '*' after it is part of it, not the result of a phantom game; `1. e4 *
    // d4 1-0` is still two games on one line.
    auto c = convert("[Event \"a\"]\n\n1. e4 e5 1-0 ff *\n");
    BOOST_TEST((c.status == std::vector<pgn::GameStatus>{pgn::GameStatus::converted}));
    BOOST_TEST(c.out == "[Event \"a\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                        "[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[Notation \"ICCF\"]\n\n"
                        "1. 5254 5755 {ff *} 1-0\n\n");
    BOOST_TEST(
        c.messages ==
        "test.pgn:3:14: warning: game 1: 'ff *': text after the result; read as a comment\n");
    auto two = convert("1. e4 * d4 1-0\n", to(notation::Notation::san));
    BOOST_TEST(two.status.size() == 2U);
    BOOST_TEST(two.out == roster_unknown + "[Result \"*\"]\n\n1. e4 *\n\n" + roster_unknown +
                              "[Result \"1-0\"]\n\n1. d4 1-0\n\n");
}

// The library finds problems as values; only src/report words them (report/wording.hpp).
BOOST_AUTO_TEST_CASE(problems_are_values_worded_at_the_batch_edge) {
    std::string const in = "[White \"A\"]\n\n1. a4 a5 2. h4 h5 3. Ra3 Ra6 4. Rh3 *\n";
    auto src = io::open_memory(in);
    pgn::GameReader reader(*src);
    syntax::RawGame game;
    BOOST_TEST_REQUIRE(reader.next(game));
    pgn::Converter conv(pgn::ConvertOptions{});
    std::string out;
    pgn::GameReport const r = conv.convert(game, out);
    BOOST_TEST(out.empty());
    BOOST_TEST_REQUIRE(r.problems.size() == 1U);
    pgn::Problem const& p = r.problems[0];
    BOOST_TEST((p.kind == pgn::ProblemKind::unplayable_move));
    BOOST_TEST((p.severity == syntax::Severity::error));
    BOOST_TEST_REQUIRE(std::holds_alternative<pgn::MoveFacts>(p.facts));
    pgn::MoveFacts const& move = std::get<pgn::MoveFacts>(p.facts);
    BOOST_TEST((move.error == notation::ReadError::ambiguous));
    BOOST_TEST(p.where.line == 3U);
    BOOST_TEST(p.where.column == 33U);
    BOOST_TEST(p.move_number == 4);
    BOOST_TEST((p.side == chess::Color::white));
    BOOST_TEST(p.token == "Rh3");
    BOOST_TEST(p.white == "A");
    BOOST_TEST(p.black == "");
    BOOST_TEST_REQUIRE(move.candidates.size() == 2U);
    BOOST_TEST(move.candidates[0].san.view() == "Rhh3");
    BOOST_TEST(move.candidates[0].numeric.view() == "8183");
    BOOST_TEST(move.candidates[1].san.view() == "Rah3");
    BOOST_TEST(move.candidates[1].numeric.view() == "1383");
    BOOST_TEST(move.suggestions.empty());
    BOOST_TEST(!move.cut);
    std::string line;
    report::word(p, r, "x.pgn", line);
    BOOST_TEST(
        line ==
        "x.pgn:3:33: error: game 1 (A - ?), move 4.: 'Rh3': ambiguous: could be Rhh3 or Rah3\n");
    BOOST_TEST(report::kind_of(p) == ""); // an error has no warning kind
}

// A repeated SetUp tag is kept as read: its escapes decoded once and written once (the fuzz
// round trip found it written raw, so `\"` grew a backslash each time it was converted).
BOOST_AUTO_TEST_CASE(a_repeated_setup_tag_is_escaped_once) {
    std::string const in = "[SetUp \"0\"]\n[SetUp \"a \\\"b\\\" \\\\\"]\n\n1. e4 *\n";
    auto c = convert(in, to(notation::Notation::numeric));
    std::string const out = roster_unknown + "[Result \"*\"]\n[Notation \"ICCF\"]\n[SetUp \"0\"]\n"
                                             "[SetUp \"a \\\"b\\\" \\\\\"]\n\n1. 5254 *\n\n";
    BOOST_TEST(c.out == out);
    BOOST_TEST(c.messages == "");
    BOOST_TEST(convert(out, to(notation::Notation::numeric)).out == out);
}

namespace {

// A consumer that writes down what the replay tells it (replayer.hpp).
struct Recording final : pgn::ReplayConsumer {
    std::string log;
    void move(chess::Position&, chess::Move, int, syntax::Token move, syntax::Token,
              bool) override {
        log += std::string(move.text) + ' ';
    }
    void begin_variation() override { log += "( "; }
    void end_variation(bool, std::uint64_t) override { log += ") "; }
    void line_broken(syntax::Token move, syntax::Token, pgn::LineState state) override {
        log += "[" + std::string(move.text) +
               (state == pgn::LineState::cut      ? " cut] "
                : state == pgn::LineState::broken ? " broken] "
                                                  : " playing] ");
    }
    void unplayed(std::string_view text, std::string_view) override {
        log += "<" + std::string(text) + "> ";
    }
    void unplayable(chess::Position const& pos, pgn::Problem const& p) override {
        log += "{" + p.token + " " + std::to_string(p.move_number) +
               (pos.side_to_move() == chess::Color::white ? "w" : "b") + "} ";
    }
};

std::string replayed(std::string const& in, pgn::ReplayOptions opt) {
    auto src = io::open_memory(in);
    pgn::GameReader reader(*src);
    syntax::RawGame game;
    BOOST_TEST_REQUIRE(reader.next(game));
    opt.read.letters = &notation::english();
    Recording r;
    std::vector<pgn::Problem> problems;
    pgn::Replayer replayer;
    replayer.replay(game, opt, r, problems);
    return r.log;
}

} // namespace

// The replay tells its consumer the state of a line it cannot play further (the export
// writer keeps no copy of it), and every move that cannot be played, with its position, even
// in a rejected or silent replay (--input-lang auto keeps the first: converter.cpp).
BOOST_AUTO_TEST_CASE(the_consumer_hears_the_line_state_and_every_unplayable_move) {
    std::string const in = "1. e4 e5 (1... Qxe4 c5) 2. Nf3 Zz9 3. Nc3 *\n";
    pgn::ReplayOptions keep;
    keep.keep_broken = true;
    BOOST_TEST(replayed(in, keep) ==
               "e4 e5 ( {Qxe4 1b} [Qxe4 cut] ) Nf3 {Zz9 2b} [Zz9 broken] <Nc3> ");
    pgn::ReplayOptions strict;
    strict.strict = true;
    BOOST_TEST(replayed(in, strict) == "e4 e5 ( {Qxe4 1b} ");
    pgn::ReplayOptions silent;
    silent.silent = true;
    // Silent (--check): no move is delivered; the variations and the line states are.
    BOOST_TEST(replayed(in, silent) == "( {Qxe4 1b} [Qxe4 cut] ) {Zz9 2b} ");
}
