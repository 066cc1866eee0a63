// Unit tests of the PGN grammar (grammar/parse.hpp): one game in, the visitor's event stream
// out, written as a compact string by a recording visitor:
//   T[name=value]  tag pair            M[move]  M[move,suffix]  move token (+ suffix)
//   C{text}        brace comment       L{text}  ';' comment
//   N[text=value]  NAG or glyph        ( )      variation begin / end
//   R[result]      result              W[line:col message] / E[line:col message] diagnostics
//   END / END!     end of game (! = syntax error)
#define BOOST_TEST_MODULE grammar
#include <boost/test/unit_test.hpp>

#include "grammar/parse.hpp"
#include "grammar/scan.hpp"
#include "report/codes.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

using namespace pgn_iccf;
using parser::CommentKind;
using parser::Token;

namespace {

class Recorder : public parser::Visitor {
public:
    std::string out;
    std::vector<syntax::Diagnostic> diagnostics;
    std::vector<Token> tokens;           // every token, in order
    std::vector<syntax::Result> results; // the values of the result events
    bool skip_variations = false;
    bool skip_game = false;

    bool begin_game(syntax::RawGame const&) override { return !skip_game; }
    void tag(Token const& name, Token const& value) override {
        add("T[" + std::string(name.text) + "=" + std::string(value.text) + "]");
        tokens.push_back(name);
        tokens.push_back(value);
    }
    void move(Token const& m, Token const& suffix) override {
        std::string s = "M[";
        s.append(m.text);
        if (!suffix.text.empty()) s.append(",").append(suffix.text);
        add(s.append("]"));
        tokens.push_back(m);
    }
    void comment(Token const& text, CommentKind kind) override {
        add((kind == CommentKind::brace ? "C{" : "L{") + std::string(text.text) + "}");
        tokens.push_back(text);
    }
    void nag(Token const& text, std::uint8_t value) override {
        add("N[" + std::string(text.text) + "=" + std::to_string(value) + "]");
        tokens.push_back(text);
    }
    bool begin_variation(Token const& open) override {
        add("(");
        tokens.push_back(open);
        return !skip_variations;
    }
    void end_variation(Token const& close) override {
        add(")");
        tokens.push_back(close);
    }
    void result(Token const& r, syntax::Result value) override {
        add("R[" + std::string(r.text) + "]");
        tokens.push_back(r);
        results.push_back(value);
    }
    void end_game(syntax::GameEnd const& e) override { add(e.syntax_error ? "END!" : "END"); }
    void diagnostic(syntax::Diagnostic const& d) override {
        diagnostics.push_back(d);
        add(std::string(d.severity == syntax::Severity::error ? "E[" : "W[") +
            std::to_string(d.where.line) + ":" + std::to_string(d.where.column) + " " +
            report::syntax_message(d.code, d.token, d.where, d.limit) + "]");
    }

private:
    void add(std::string const& s) {
        if (!out.empty()) out += ' ';
        out += s;
    }
};

std::string events(std::string_view pgn, Recorder&& r = Recorder{}) {
    syntax::RawGame game;
    game.bytes = pgn;
    game.number = 1;
    parser::ParseOptions options;
    parser::parse_game(game, r, options);
    return r.out;
}

struct Case {
    char const* name;
    char const* pgn;
    char const* expected;
};

// Every construct of the issue, with the exact event stream expected.
Case const cases[] = {
    // --- tag pairs (§8.1) ---
    {"tags", "[Event \"x\"]\n[Site \"y z\"]\n\n1. e4 *\n", "T[Event=x] T[Site=y z] M[e4] R[*] END"},
    {"escaped quote and backslash kept raw", "[Event \"a \\\"b\\\" \\\\ c\"]\n*",
     "T[Event=a \\\"b\\\" \\\\ c] R[*] END"},
    {"blank line inside tag section", "[Event \"A\"]\n\n[Date \"?\"]\n\n1. e4 1-0",
     "T[Event=A] T[Date=?] M[e4] R[1-0] END"},
    {"lower-case and odd names", "[fEn \"8/8\"]\n[BlackType: \"program\"]\n[Great? \"True\"] *",
     "T[fEn=8/8] T[BlackType:=program] T[Great?=True] R[*] END"},
    {"spaces around brackets", "  [  Event   \"x\"  ]  \n*", "T[Event=x] R[*] END"},
    {"unescaped trailing backslash", "[Event \"Tournament \\\"]\n*",
     "W[1:9 tag value ends in an unescaped '\\'; taken as part of the value] "
     "T[Event=Tournament \\] R[*] END"},
    {"unescaped inner quotes", "[White \"Smith, John \"The King\"\"]\n*",
     "W[1:9 unescaped '\"' inside a tag value; taken as part of the value] "
     "T[White=Smith, John \"The King\"] R[*] END"},
    {"brackets inside values", "[A \"b\\\"\"] [C \"A]]\"] [D \"A]][\"] [G \"\\\"]\"] *",
     "T[A=b\\\"] T[C=A]]] T[D=A]][] T[G=\\\"]] R[*] END"},
    {"tags and moves on one line", "[Variant \"Antichess\"] 1.e3 e6 *",
     "T[Variant=Antichess] M[e3] M[e6] R[*] END"},
    {"result right after ]", "[Event \"x\"]*", "T[Event=x] R[*] END"},
    {"latin-1 bytes untouched", "[White \"Fran\xe7ois\"] {Andr\xe9} *",
     "T[White=Fran\xe7ois] C{Andr\xe9} R[*] END"},
    {"missing tag value", "[Event]\n*", "E[1:7 expected a tag value in double quotes] END!"},
    {"missing tag name", "[ \"x\"]\n*", "E[1:3 expected a tag name] END!"},
    {"missing close bracket", "[Event \"x\" \n*",
     "E[1:8 unterminated tag value: no closing '\"' followed by ']' on the line] END!"},
    {"unterminated tag value", "[Event \"x\n*",
     "E[1:8 unterminated tag value: no closing '\"' followed by ']' on the line] END!"},

    // --- move numbers ---
    {"move numbers", "1. e4 e5 2.Nf3 2...Nc6 3. ... Bb5 12 a6 *",
     "M[e4] M[e5] M[Nf3] M[Nc6] M[Bb5] M[a6] R[*] END"},
    {"odd move numbers", "1... e4 1... e5 2.. d4 2 . d5 f4 3. f5 *",
     "M[e4] M[e5] M[d4] M[d5] M[f4] M[f5] R[*] END"},
    {"number glued to a numeric move", "1.5254 5755 2.7163 *", "M[5254] M[5755] M[7163] R[*] END"},

    // --- move tokens ---
    {"SAN with suffixes", "1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4+ Kxf7# *",
     "M[e4,!] M[e5,?] M[Nf3,!!] M[Nc6,??] M[Bb5,!?] M[a6,?!] M[Ba4+] M[Kxf7#] R[*] END"},
    {"check mark then suffix", "1. Qxf7+! Ke7 *", "M[Qxf7+,!] M[Ke7] R[*] END"},
    {"castling", "1. O-O O-O-O 2. 0-0 0-0-0+ 3. o-o *",
     "M[O-O] M[O-O-O] M[0-0] M[0-0-0+] M[o-o] R[*] END"},
    {"long algebraic", "1. e2e4 e7-e5 2. Ng1-f3 Nb8xc6 3. e7e8q b7-b8N *",
     "M[e2e4] M[e7-e5] M[Ng1-f3] M[Nb8xc6] M[e7e8q] M[b7-b8N] R[*] END"},
    {"promotion", "58. Re8 b1Q 59. a8=Q+ *", "M[Re8] M[b1Q] M[a8=Q+] R[*] END"},
    {"numeric moves", "1. 5254 5755 2. 67682 21314 *",
     "M[5254] M[5755] M[67682] M[21314] R[*] END"},
    {"numeric-shaped vs move number", "1 5254 9 2 5755 12345 *", "M[5254] M[5755] R[*] END"},
    {"5-digit with bad promotion digit is a move number", "1. 67685 *", "R[*] END"},
    {"ICCF tag makes 4-5 digit integers moves", "[Notation \"ICCF\"]\n1. 5254 9999 67685 12 *",
     "T[Notation=ICCF] M[5254] M[9999] M[67685] R[*] END"},
    {"null moves", "1. -- Z0 2. e4 -- *", "M[--] M[Z0] M[e4] M[--] R[*] END"},
    {"null moves as real files write them", "1. e4 --- 2. d4 0000 3. 0000 *",
     "M[e4] M[---] M[d4] M[0000] M[0000] R[*] END"},
    {"move number periods glued to the move", "1 .e4 e5 2. Nf3 ...Nc6 3... *",
     "W[1:3 move number periods written before the move 'e4'; read as the move] M[e4] M[e5] "
     "M[Nf3] W[1:17 move number periods written before the move 'Nc6'; read as the move] "
     "M[Nc6] R[*] END"},
    {"en passant", "1. exd6 e.p. exf3e.p.+ *", "M[exd6] M[exf3e.p.+] R[*] END"},
    {"en passant attached", "1. exd6e.p. exf3e.p.! *", "M[exd6] M[exf3,!] R[*] END"},
    {"figurines",
     "1. e4 e5 2. \xE2\x99\x98"
     "f3 \xE2\x99\x9E"
     "c6 3. a8=\xE2\x99\x95# *",
     "M[e4] M[e5] M[\xE2\x99\x98"
     "f3] M[\xE2\x99\x9E"
     "c6] M[a8=\xE2\x99\x95#] R[*] END"},
    {"cyrillic and multi-letter pieces",
     "1. \xD0\x9A"
     "f3 \xD0\x9B\xD0\xB4"
     "d4 2. Mshf3 *",
     "M[\xD0\x9A"
     "f3] M[\xD0\x9B\xD0\xB4"
     "d4] M[Mshf3] R[*] END"},

    // --- NAGs and glyphs ---
    {"NAGs", "1. e4 $1 $0 $255 e5 $12$23$47 *",
     "M[e4] N[$1=1] N[$0=0] N[$255=255] M[e5] N[$12=12] N[$23=23] N[$47=47] R[*] END"},
    {"NAG out of range", "1. e4 $256 *",
     "M[e4] W[1:7 NAG $256 is out of range 0-255; ignored] R[*] END"},
    {"dollar without digits", "1. e4 $ *", "M[e4] E[1:7 expected a number after '$'] END!"},
    {"glyphs",
     "1. e4 \xC2\xB1 e5 \xE2\x88\x93 2. d4 \xE2\xA9\xB2 d5 \xE2\xA9\xB1 3. c4 = c6 \xE2\x88\x9E "
     "4. Nc3 +- Nf6 -+ 5. a3 +/= a6 =/+ 6. b3 \xE2\x96\xA1 b6 N *",
     "M[e4] N[\xC2\xB1=16] M[e5] N[\xE2\x88\x93=17] M[d4] N[\xE2\xA9\xB2=14] M[d5] "
     "N[\xE2\xA9\xB1=15] M[c4] N[==10] M[c6] N[\xE2\x88\x9E=13] M[Nc3] N[+-=18] M[Nf6] "
     "N[-+=19] M[a3] N[+/==14] M[a6] N[=/+=15] M[b3] N[\xE2\x96\xA1=7] M[b6] M[N] R[*] END"},
    {"separate suffix glyph", "1. e4 !? e5 ?? *",
     "M[e4] N[!?=5] M[e5] N[?"
     "?=4] R[*] END"},
    {"unknown glyph", "1. e4 \xE2\x87\x84 *",
     "M[e4] W[1:7 unknown annotation symbol '\xE2\x87\x84'; kept as a comment] "
     "C{\xE2\x87\x84} R[*] END"},
    {"unknown suffix", "1. e4!!! *", "W[1:6 unknown move annotation '!!!'] M[e4,!!!] R[*] END"},
    // Unicode glyphs glued to the move, as some viewers export them (‼ ⁇ ⁉ ⁈ ± □), and on their
    // own with U+2212 MINUS SIGN (+− −+ +/− −/+).
    {"glyphs glued to moves",
     "1. e4 e5 2. Nf3\xE2\x80\xBC Nc6\xE2\x81\x87 3. Bb5\xE2\x81\x89 a6\xE2\x81\x88 "
     "4. Ba4\xC2\xB1 Nf6!\xE2\x96\xA1 5. O-O\xE2\x80\xBC\xC2\xB1 +\xE2\x88\x92 "
     "Be7 \xE2\x88\x92+ 6. Re1 +/\xE2\x88\x92 b5 \xE2\x88\x92/+ *",
     "M[e4] M[e5] M[Nf3] N[\xE2\x80\xBC=3] M[Nc6] N[\xE2\x81\x87=4] M[Bb5] "
     "N[\xE2\x81\x89=5] M[a6] N[\xE2\x81\x88=6] M[Ba4] N[\xC2\xB1=16] M[Nf6,!] "
     "N[\xE2\x96\xA1=7] M[O-O] N[\xE2\x80\xBC=3] N[\xC2\xB1=16] N[+\xE2\x88\x92=18] M[Be7] "
     "N[\xE2\x88\x92+=19] M[Re1] N[+/\xE2\x88\x92=16] M[b5] N[\xE2\x88\x92/+=17] R[*] END"},
    // Other non-ASCII bytes after a move stay with it (a figurine or a Cyrillic promotion
    // piece is read there; an unknown glyph is named by the replay's error).
    {"non-glyph bytes after a move", "1. e4 \xE2\x98\x85 2. e8=\xE2\x99\x95 Nf3\xE2\x98\x85 *",
     "M[e4] W[1:7 unknown annotation symbol '\xE2\x98\x85'; kept as a comment] "
     "C{\xE2\x98\x85} M[e8=\xE2\x99\x95] M[Nf3\xE2\x98\x85] R[*] END"},

    // --- comments ---
    {"brace comment spanning lines", "1. e4 {a\nb\r\nc} e5 *", "M[e4] C{a\nb\r\nc} M[e5] R[*] END"},
    {"brace comment with [ and result", "1. e4 {[%clk 0:01:00] 1-0 ; (} *",
     "M[e4] C{[%clk 0:01:00] 1-0 ; (} R[*] END"},
    {"semicolon comment", "1. e4 ; rest { of line\ne5 *",
     "M[e4] L{ rest { of line} M[e5] R[*] END"},
    {"semicolon comment CRLF", "1. e4 ;x\r\ne5 *", "M[e4] L{x} M[e5] R[*] END"},
    {"percent escape line", "1. e4\n% skipped { (\ne5 *", "M[e4] M[e5] R[*] END"},
    {"percent not in column 1 is a token", "1. e4 %x *", "M[e4] M[%x] R[*] END"},
    {"comment before first move", "{start} 1. e4 *", "C{start} M[e4] R[*] END"},
    {"unterminated comment", "1. e4 {never\nclosed",
     "M[e4] E[1:7 unterminated comment: '{' at line 1 column 7 is never closed] END!"},
    {"stray close brace", "1. e4 } e5 (1... c5 }) *",
     "M[e4] W[1:7 '}' without a matching '{'; ignored] M[e5] ( M[c5] "
     "W[1:21 '}' without a matching '{'; ignored] ) R[*] END"},
    {"stray close bracket", "1. e4 ] e5 *",
     "M[e4] W[1:7 ']' without a matching '['; ignored] M[e5] R[*] END"},

    // --- variations (§8.2.5) ---
    {"nested variations", "1. e4 (1. d4 d5 (1... Nf6 2. c4)) (1. c4) e5 *",
     "M[e4] ( M[d4] M[d5] ( M[Nf6] M[c4] ) ) ( M[c4] ) M[e5] R[*] END"},
    {"comments in variations", "1. e4 ({a} 1. d4 {b}) {c} *",
     "M[e4] ( C{a} M[d4] C{b} ) C{c} R[*] END"},
    {"null moves in adjacent variations", "1. e4 (1... Qxb5 --)(1... Qe3 --) *",
     "M[e4] ( M[Qxb5] M[--] ) ( M[Qe3] M[--] ) R[*] END"},
    {"unclosed variation", "1. e4 (1. d4 *",
     "M[e4] ( M[d4] W[1:14 result inside a variation; ignored (the game's result ends the "
     "movetext)] E[1:15 expected ')' closing the variation, but the game ends here] END!"},
    {"tag value without quotes", "[FEN 8/8/8/8/8/8/8/K6k w - - 0 1 ]\n1. Kb1 *",
     "W[1:6 tag value without quotes; read up to the ']'] "
     "T[FEN=8/8/8/8/8/8/8/K6k w - - 0 1] M[Kb1] R[*] END"},
    {"tag values without quotes on one line", "[White Smith] [Black Jones]\n1. e4 *",
     "W[1:8 tag value without quotes; read up to the ']'] T[White=Smith] "
     "W[1:22 tag value without quotes; read up to the ']'] T[Black=Jones] M[e4] R[*] END"},
    {"unmatched close paren", "1. e4 ) *",
     "M[e4] W[1:7 ')' without a matching '('; ignored] R[*] END"},
    {"results inside variations", "1. e4 (1. d4 1/2-1/2) (* 1. c4) 1-0",
     "M[e4] ( M[d4] W[1:14 result inside a variation; ignored (the game's result ends the "
     "movetext)] ) ( W[1:24 result inside a variation; ignored (the game's result ends the "
     "movetext)] M[c4] ) R[1-0] END"},

    // --- results (§8.2.6) ---
    {"results 1-0", "1. e4 1-0", "M[e4] R[1-0] END"},
    {"results 0-1", "1. e4 0-1\n", "M[e4] R[0-1] END"},
    {"results draw", "1. e4 1/2-1/2\r\n", "M[e4] R[1/2-1/2] END"},
    {"results half glyph", "1. e4 \xC2\xBD-\xC2\xBD", "M[e4] R[\xC2\xBD-\xC2\xBD] END"},
    {"result glued to a move number", "40.1-0", "R[1-0] END"},
    {"no result", "[Event \"x\"]\n1. e4 e5\n",
     "T[Event=x] M[e4] M[e5] W[2:9 game has no result; it ends at the next tag section or the "
     "end of the input] END"},
    {"game without tags", "1. e4 e5 *", "M[e4] M[e5] R[*] END"},
    {"only a result", "[Event \"x\"]\n 0-1", "T[Event=x] R[0-1] END"},
    {"comment then result", "{White's connection stalls} 0-1",
     "C{White's connection stalls} R[0-1] END"},
    {"word after the result", "1. e4 * e5",
     "M[e4] R[*] W[1:9 text after the result; read as a comment] C{e5} END"},
    {"words after the result, to the line end", "1. e4 1-0 ff  \n",
     "M[e4] R[1-0] W[1:11 text after the result; read as a comment] C{ff} END"},
    {"text after the result up to a comment", "1. e4 1-0 White wins {on time} ; forfeit\n",
     "M[e4] R[1-0] W[1:11 text after the result; read as a comment] C{White wins} "
     "C{on time} L{ forfeit} END"},
    {"comment lines after the result", "1. e4 1-0\n\n; { Game Nr. 1 : X draws }\n{two}\n",
     "M[e4] R[1-0] L{ { Game Nr. 1 : X draws }} C{two} END"},
    {"paren after the result", "1. e4 1-0 )\n",
     "M[e4] R[1-0] W[1:11 ')' after the result; ignored] END"},
    {"tag pair after the result", "1. e4 1-0 [Event \"b\"]",
     "M[e4] R[1-0] E[1:11 expected the end of the game after the result] END!"},
    {"forfeit results", "[Event \"x\"]\n\n1. e4 (+)-(-)\n",
     "T[Event=x] M[e4] W[3:7 forfeit result '(+)-(-)'; read as 1-0] R[(+)-(-)] END"},
    {"forfeit result for Black", "1. e4 (-)-(+)",
     "M[e4] W[1:7 forfeit result '(-)-(+)'; read as 0-1] R[(-)-(+)] END"},
    {"forfeit inside a variation", "1. e4 (1. d4 (-)-(+)) 1-0",
     "M[e4] ( M[d4] W[1:14 result inside a variation; ignored (the game's result ends the "
     "movetext)] ) R[1-0] END"},
    {"a variation holding a plus sign is no forfeit", "1. e4 (+) *",
     "M[e4] ( W[1:8 unknown annotation symbol '+'; kept as a comment] C{+} ) R[*] END"},
    {"periods glued to the result", "1. e4 e5 2. Nf3 Nc6 ...1-0",
     "M[e4] M[e5] M[Nf3] M[Nc6] W[1:21 move number periods written before the result '1-0'; "
     "read as the result] R[1-0] END"},
    {"move number and periods glued to the result", "1. e4 e5 2...1-0", "M[e4] M[e5] R[1-0] END"},
    {"comment before the tag section", "{intro}\n; more\n\n[Event \"x\"]\n\n1. e4 *",
     "C{intro} L{ more} T[Event=x] M[e4] R[*] END"},
    {"bracket in movetext", "[Event \"?\"]<br />[Site \"?\"] *",
     "T[Event=?] M[<br] W[1:16 unknown annotation symbol '/>'; kept as a comment] C{/>} "
     "E[1:18 '[' inside the movetext (a tag pair must start a line before "
     "the moves)] END!"},

    {"old draw result 1/2", "1. e4 1/2\n",
     "M[e4] W[1:7 non-standard result '1/2'; read as 1/2-1/2] R[1/2] END"},
    {"tag value without closing quote", "[PlyCount \"57\x94]\n*",
     "W[1:12 tag value has no closing '\"'; it ends at the ']' ending the line] "
     "T[PlyCount=57\x94] R[*] END"},
    {"quoted result in movetext is not a result", "e4 \"1-0\" *",
     "M[e4] E[1:4 expected a move, comment, variation or result] END!"},
    {"control bytes are whitespace",
     "1.\x1a"
     "e4\x7f"
     "e5 *\x1a",
     "M[e4] M[e5] R[*] END"},
    {"not a game", "{just a comment}\n",
     "C{just a comment} E[1:1 no tag pair, move or result here: "
     "this is not a game] END!"},

    // --- line ends ---
    {"CRLF", "[Event \"x\"]\r\n\r\n1. e4 {a}\r\ne5 *\r\n", "T[Event=x] M[e4] C{a} M[e5] R[*] END"},
    {"lone CR", "[Event \"x\"]\r\r1. e4 ;c\re5 *\r", "T[Event=x] M[e4] L{c} M[e5] R[*] END"},
};

} // namespace

BOOST_AUTO_TEST_CASE(constructs) {
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(c.name) { BOOST_TEST(events(c.pgn) == std::string(c.expected)); }
    }
}

// Token locations: byte offset, 1-based line and column, for every line-end style.
BOOST_AUTO_TEST_CASE(token_locations) {
    struct Expect {
        std::string_view text;
        std::uint64_t offset;
        std::uint32_t line, column;
    };
    for (std::string_view nl : {"\n", "\r\n", "\r"}) {
        std::string pgn;
        for (std::string_view part : std::initializer_list<std::string_view>{
                 "[Event \"x\"]", nl, nl, "1. e4 {c", nl, "d} e5", nl, "  *", nl})
            pgn.append(part);
        auto const n = nl.size();
        Expect const expected[] = {
            {"Event", 1, 1, 2},
            {"x", 8, 1, 9},
            {"e4", 11 + 2 * n + 3, 3, 4},
            {"c", 11 + 2 * n + 7, 3, 8},
            {"e5", 11 + 2 * n + 11 + n, 4, 4},
            {"*", 11 + 2 * n + 11 + n + 2 + n + 2, 5, 3},
        };
        Recorder r;
        syntax::RawGame game;
        game.bytes = pgn;
        game.start = {1000, 7, 1};
        parser::parse_game(game, r);
        BOOST_TEST_CONTEXT("line end " << n << " bytes") {
            BOOST_TEST_REQUIRE(r.tokens.size() == std::size(expected));
            for (std::size_t i = 0; i != r.tokens.size(); ++i) {
                BOOST_TEST_CONTEXT("token " << i) {
                    auto const& t = r.tokens[i];
                    BOOST_TEST(t.where.offset == 1000 + expected[i].offset);
                    BOOST_TEST(t.where.line == 6 + expected[i].line);
                    BOOST_TEST(t.where.column == expected[i].column);
                    if (i != 3) BOOST_TEST(t.text == expected[i].text);
                }
            }
        }
    }
}

// A game that does not start in column 1 (after a result on the same line) keeps columns
// relative to the file.
BOOST_AUTO_TEST_CASE(game_starting_mid_line) {
    Recorder r;
    syntax::RawGame game;
    game.bytes = "e4 *";
    game.start = {50, 3, 10};
    parser::parse_game(game, r);
    BOOST_TEST_REQUIRE(r.tokens.size() == 2u);
    BOOST_TEST(r.tokens[0].where.column == 10u);
    BOOST_TEST(r.tokens[1].where.column == 13u);
    BOOST_TEST(r.tokens[1].where.line == 3u);
}

BOOST_AUTO_TEST_CASE(diagnostic_fields) {
    Recorder r;
    syntax::RawGame game;
    game.bytes = "[Event \"x\"]\n1. e4 $\n";
    game.start = {100, 10, 1};
    game.number = 17;
    parser::ParseOptions options;
    parser::parse_game(game, r, options);
    BOOST_TEST_REQUIRE(r.diagnostics.size() == 1u);
    auto const& d = r.diagnostics[0];
    BOOST_TEST((d.code == syntax::SyntaxCode::expected_nag_number));
    BOOST_TEST(d.where.line == 11u);
    BOOST_TEST(d.where.column == 7u);
    BOOST_TEST(d.where.offset == 100u + 18u);
    BOOST_TEST(d.token == "$");
    BOOST_TEST((d.severity == syntax::Severity::error));
}

BOOST_AUTO_TEST_CASE(variation_depth_is_capped) {
    auto nested = [](int depth) {
        std::string s = "1. e4 ";
        for (int i = 0; i != depth; ++i) s += "( e4 ";
        for (int i = 0; i != depth; ++i) s += ") ";
        return s + "*";
    };
    Recorder ok;
    syntax::RawGame game;
    auto const deep_ok = nested(512);
    game.bytes = deep_ok;
    parser::parse_game(game, ok);
    BOOST_TEST(ok.diagnostics.empty());
    BOOST_TEST(ok.out.ends_with("R[*] END"));

    for (int depth : {513, 100000}) {
        Recorder r;
        auto const deep = nested(depth);
        game.bytes = deep;
        parser::parse_game(game, r);
        BOOST_TEST_REQUIRE(r.diagnostics.size() == 1u);
        BOOST_TEST((r.diagnostics[0].code == syntax::SyntaxCode::depth_exceeded));
        BOOST_TEST(r.diagnostics[0].limit == 512u);
        BOOST_TEST(r.diagnostics[0].where.column == 6u + 5u * 512u + 1u);
        BOOST_TEST(r.out.ends_with("END!"));
    }
}

BOOST_AUTO_TEST_CASE(skipping) {
    Recorder r;
    r.skip_variations = true;
    BOOST_TEST(events("1. e4 (1. d4 (1. c4) {x}) e5 *", std::move(r)) ==
               "M[e4] ( ) M[e5] R[*] END");
    Recorder s;
    s.skip_game = true;
    BOOST_TEST(events("1. e4 *", std::move(s)) == "END");
}

BOOST_AUTO_TEST_CASE(unescape) {
    std::string out = "junk";
    parser::unescape_tag_value("a \\\"b\\\" \\\\ c \\n", out);
    BOOST_TEST(out == "a \"b\" \\ c \\n");
    parser::unescape_tag_value("Tournament \\", out);
    BOOST_TEST(out == "Tournament \\");
}

// scan::count_lines against a byte-by-byte reference, on both of its paths (short ranges and
// the vectorised long one), for every mix of LF, CR and CRLF and ranges split anywhere.
BOOST_AUTO_TEST_CASE(count_lines_matches_reference) {
    std::uint32_t seed = 12345;
    auto next = [&seed] {
        seed = seed * 1664525u + 1013904223u;
        return seed >> 16;
    };
    for (int round = 0; round != 300; ++round) {
        std::string s(next() % 2000, 'x');
        for (auto& c : s) {
            auto const r = next() % 16;
            c = r == 0 ? '\n' : r == 1 ? '\r' : r == 2 ? ' ' : 'a';
        }
        // Reference: lines = LF + CR - CRLF pairs; last line start after the last line end.
        auto const b = s.data();
        auto const e = b + s.size();
        auto const cut = s.empty() ? 0 : next() % s.size();
        std::uint64_t total = 0;
        char const* ls = nullptr;
        total += pgn_iccf::scan::count_lines(b, b + cut, false, ls);
        total += pgn_iccf::scan::count_lines(b + cut, e, cut != 0 && b[cut - 1] == '\r', ls);
        std::uint64_t want = 0;
        char const* want_ls = nullptr;
        for (std::size_t i = 0; i != s.size(); ++i) {
            if (s[i] == '\r' || s[i] == '\n') want_ls = b + i + 1;
            if (s[i] == '\r' || (s[i] == '\n' && (i == 0 || s[i - 1] != '\r'))) ++want;
        }
        BOOST_TEST_CONTEXT("round " << round << " size " << s.size() << " cut " << cut) {
            BOOST_TEST(total == want);
            BOOST_TEST((ls == want_ls));
        }
    }
}

// Very long tag values (FENs, annotators) and comments are views like any other token.
BOOST_AUTO_TEST_CASE(long_values) {
    std::string const value(100000, 'x');
    std::string const pgn = "[Annotator \"" + value + "\"]\n{" + value + "} e4 *";
    syntax::RawGame game;
    game.bytes = pgn;
    Recorder s;
    parser::parse_game(game, s);
    BOOST_TEST_REQUIRE(s.tokens.size() == 5u);
    BOOST_TEST(s.tokens[1].text == value);
    BOOST_TEST(s.tokens[2].text == value);
    BOOST_TEST(s.tokens[3].text == "e4");
    BOOST_TEST(s.tokens[3].where.column == 100004u);
    BOOST_TEST(s.diagnostics.empty());
}

// scan::token_end (vector classification with AVX2) against the byte class table, for every
// byte value at every position of a 32-byte block and in the scalar tail.
BOOST_AUTO_TEST_CASE(token_end_matches_byte_classes) {
    for (int c = 0; c != 256; ++c) {
        for (std::size_t at : {std::size_t{0}, std::size_t{5}, std::size_t{31}, std::size_t{40}}) {
            std::string s(48, 'a');
            s[at] = static_cast<char>(c);
            bool const token = pgn_iccf::scan::is_token_byte(static_cast<char>(c));
            char const* e = pgn_iccf::scan::token_end(s.data(), s.data() + s.size());
            BOOST_TEST_CONTEXT("byte " << c << " at " << at) {
                BOOST_TEST(static_cast<std::size_t>(e - s.data()) == (token ? s.size() : at));
            }
        }
    }
}

// scan::may_hold_line_end never misses a line end (it may answer true for a span without one),
// for spans of every length up to 70 bytes with a CR or LF at every position, and readable ends
// right at the span or well beyond it.
BOOST_AUTO_TEST_CASE(may_hold_line_end_never_misses) {
    std::string s(160, 'x');
    char const* const b = s.data();
    for (char le : {'\n', '\r'}) {
        for (std::size_t n = 0; n <= 70; ++n) {
            for (std::size_t at = 0; at <= n + 1; ++at) {
                std::fill(s.begin(), s.end(), 'x');
                if (at < s.size()) s[at] = le;
                bool const holds = at < n;
                for (char const* readable : {b + n, b + s.size()}) {
                    BOOST_TEST_CONTEXT("length " << n << " line end at " << at) {
                        bool const may = pgn_iccf::scan::may_hold_line_end(b, b + n, readable);
                        BOOST_TEST((may || !holds));
#ifdef __AVX2__
                        // Exact where it is vectorised: up to 64 bytes with enough readable.
                        if (readable == b + s.size() && n <= 64 && !holds) BOOST_TEST(!may);
#endif
                    }
                }
            }
        }
    }
}

// scan::count_lines with rare line ends (none, or one far from the end of the range): the long
// path looks back for the last line end 32 bytes at a time, or not at all.
BOOST_AUTO_TEST_CASE(count_lines_sparse_line_ends) {
    std::uint32_t seed = 777;
    auto next = [&seed] {
        seed = seed * 1664525u + 1013904223u;
        return seed >> 16;
    };
    for (int round = 0; round != 400; ++round) {
        std::string s(next() % 600, 'x');
        auto const density = 50 + next() % 2000;
        for (auto& c : s) {
            auto const r = next() % density;
            c = r == 0 ? '\n' : r == 1 ? '\r' : 'a';
        }
        auto const b = s.data();
        char const* ls = nullptr;
        auto const total = pgn_iccf::scan::count_lines(b, b + s.size(), false, ls);
        std::uint64_t want = 0;
        char const* want_ls = nullptr;
        for (std::size_t i = 0; i != s.size(); ++i) {
            if (s[i] == '\r' || s[i] == '\n') want_ls = b + i + 1;
            if (s[i] == '\r' || (s[i] == '\n' && (i == 0 || s[i - 1] != '\r'))) ++want;
        }
        BOOST_TEST_CONTEXT("round " << round << " size " << s.size()) {
            BOOST_TEST(total == want);
            BOOST_TEST((ls == want_ls));
        }
    }
}

// scan::find_line_end with a readable end beyond the span (one masked load) agrees with the
// byte loop for every span length and line-end position.
BOOST_AUTO_TEST_CASE(find_line_end_with_readable_end) {
    std::string s(100, 'x');
    char const* const b = s.data();
    for (char le : {'\n', '\r'}) {
        for (std::size_t n = 0; n <= 40; ++n) {
            for (std::size_t at = 0; at <= 41; ++at) {
                std::fill(s.begin(), s.end(), 'x');
                s[at] = le;
                char const* want = b + std::min(at, n);
                BOOST_TEST_CONTEXT("length " << n << " line end at " << at) {
                    BOOST_TEST((pgn_iccf::scan::find_line_end(b, b + n, b + s.size()) == want));
                    BOOST_TEST((pgn_iccf::scan::find_line_end(b, b + n, b + n) == want));
                }
            }
        }
    }
}

// One home for the spellings of results (syntax::result_spellings): the scanner finds each
// whole and nothing longer or shorter, with its outcome and spelling, and read_result reads
// each back.
BOOST_AUTO_TEST_CASE(result_spellings_are_what_match_result_finds) {
    auto length = [](std::string const& t) {
        return scan::match_result(t.data(), t.data() + t.size()).length;
    };
    for (auto const& s : syntax::result_spellings) {
        BOOST_TEST_CONTEXT(s.text) {
            std::string const alone(s.text), spaced = alone + " ", glued = alone + "x";
            BOOST_TEST(length(alone) == alone.size());
            BOOST_TEST(length(spaced) == alone.size());
            BOOST_TEST(length(glued) == 0u);
            auto const m = scan::match_result(spaced.data(), spaced.data() + spaced.size());
            BOOST_TEST(
                (m.result.outcome == s.result.outcome && m.result.spelling == s.result.spelling));
            auto const r = syntax::read_result(s.text);
            BOOST_TEST_REQUIRE(r.has_value());
            BOOST_TEST((r->outcome == s.result.outcome && r->spelling == s.result.spelling));
            BOOST_TEST(syntax::read_result(syntax::result_text(r->outcome)).has_value());
        }
    }
    for (std::string_view not_one : {"1-1", "1/2-", "(+)-(+)", "0", "1-0x", ""})
        BOOST_TEST(!syntax::read_result(not_one).has_value(), not_one);
    BOOST_TEST(syntax::is_null_move_spelling("--"));
    BOOST_TEST(syntax::is_null_move_spelling("Z0"));
    BOOST_TEST(!syntax::is_null_move_spelling("-"));
}

// The visitor gets the result as read with its token: the outcome and the spelling, for the
// standard results and the others (short draw, half signs, forfeits), also in variations.
BOOST_AUTO_TEST_CASE(the_visitor_gets_the_result_as_a_value) {
    using syntax::Outcome;
    using syntax::Spelling;
    struct Want {
        char const* pgn;
        Outcome outcome;
        Spelling spelling;
    };
    for (Want const w : {Want{"1. e4 1-0", Outcome::white_wins, Spelling::standard},
                         Want{"1. e4 0-1", Outcome::black_wins, Spelling::standard},
                         Want{"1. e4 1/2-1/2", Outcome::draw, Spelling::standard},
                         Want{"1. e4 *", Outcome::unknown, Spelling::standard},
                         Want{"1. e4 1/2", Outcome::draw, Spelling::short_draw},
                         Want{"1. e4 \xC2\xBD-\xC2\xBD", Outcome::draw, Spelling::half_signs},
                         Want{"1. e4 (+)-(-)", Outcome::white_wins, Spelling::forfeit},
                         Want{"1. e4 (-)-(+)", Outcome::black_wins, Spelling::forfeit}}) {
        BOOST_TEST_CONTEXT(w.pgn) {
            Recorder r;
            events(w.pgn, std::move(r));
            BOOST_TEST_REQUIRE(r.results.size() == 1u);
            BOOST_TEST((r.results[0].outcome == w.outcome && r.results[0].spelling == w.spelling));
        }
    }
}

// scan::result_length (the fast form) against scan::match_result (the table): every nonempty
// start of every spelling, alone and followed by each byte value.
BOOST_AUTO_TEST_CASE(result_length_agrees_with_match_result) {
    for (auto const& s : syntax::result_spellings)
        for (std::size_t k = 1; k <= s.text.size(); ++k)
            for (int c = -1; c != 256; ++c) {
                std::string t(s.text.substr(0, k));
                if (c >= 0) t += static_cast<char>(c);
                BOOST_TEST_CONTEXT(s.text << ": " << k << " bytes, then byte " << c) {
                    char const* const e = t.data() + t.size();
                    BOOST_TEST(scan::result_length(t.data(), e) ==
                               scan::match_result(t.data(), e).length);
                }
            }
}
