// Tests of the streaming GameReader (src/reader/window.hpp, src/pgn/game_reader.hpp) and of the
// whole reader (splitter + grammar) on the edge-case files and the corpus.
#define BOOST_TEST_MODULE reader
#include <boost/test/unit_test.hpp>

#include "grammar/parse.hpp"
#include "pgn/game_reader.hpp"
#include "report/codes.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

using namespace pgn_iccf;
namespace fs = std::filesystem;

namespace {

std::string slurp(fs::path const& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Split {
    std::vector<std::string> games;       // whole games
    std::vector<syntax::Location> starts; // of every game and text
    std::vector<std::string> texts;       // text between games (GamePart::text)
    std::string between;                  // all bytes that belong to no game and no text
    int text_pieces = 0;                  // texts that came in pieces (GamePart::text_first)
    bool reproduces = true;
};

// Splits `bytes` with the given chunk size and checks that games + skipped bytes reproduce
// the input exactly.
Split split(std::string_view bytes, std::size_t chunk = pgn::GameReader::default_chunk_size) {
    auto source = io::open_memory(bytes);
    pgn::GameReader reader(*source, chunk);
    Split s;
    syntax::RawGame g;
    std::uint64_t pos = 0;
    std::uint64_t n = 0;
    while (reader.next(g)) {
        auto const part = reader.part();
        bool const text = part == pgn::GamePart::text || part == pgn::GamePart::text_first ||
                          part == pgn::GamePart::text_more;
        if (part == pgn::GamePart::text_more && !s.texts.empty())
            s.texts.back() += g.bytes; // a piece of a long run of control bytes
        else if (text)
            s.texts.emplace_back(g.bytes);
        if (part == pgn::GamePart::text_first) ++s.text_pieces;
        if (g.number != (text ? 0 : ++n) || g.start.offset < pos ||
            bytes.substr(g.start.offset, g.bytes.size()) != g.bytes)
            s.reproduces = false;
        else
            s.between.append(bytes.substr(pos, g.start.offset - pos));
        pos = g.start.offset + g.bytes.size();
        if (!text) s.games.emplace_back(g.bytes);
        s.starts.push_back(g.start);
    }
    s.between.append(bytes.substr(std::min<std::size_t>(pos, bytes.size())));
    if (reader.bytes_read() != bytes.size()) s.reproduces = false;
    return s;
}

// Line and column of every offset, computed independently of the reader.
syntax::Location location_of(std::string_view bytes, std::uint64_t offset) {
    syntax::Location l;
    l.offset = offset;
    for (std::uint64_t i = 0; i != offset; ++i) {
        char const c = bytes[i];
        if (c == '\n' || (c == '\r' && (i + 1 == bytes.size() || bytes[i + 1] != '\n'))) {
            ++l.line;
            l.column = 1;
        } else {
            ++l.column;
        }
    }
    return l;
}

// Counts events over whole files.
class Counter : public parser::Visitor {
public:
    std::uint64_t games = 0, tags = 0, moves = 0, comments = 0, nags = 0, variations = 0,
                  results = 0, errors = 0, warnings = 0, syntax_errors = 0, texts = 0;
    std::vector<syntax::Diagnostic> diagnostics;

    bool begin_game(syntax::RawGame const&) override {
        ++games;
        return true;
    }
    void tag(parser::Token const&, parser::Token const&) override { ++tags; }
    void move(parser::Token const&, parser::Token const&) override { ++moves; }
    void comment(parser::Token const&, parser::CommentKind) override { ++comments; }
    void nag(parser::Token const&, std::uint8_t) override { ++nags; }
    bool begin_variation(parser::Token const&) override {
        ++variations;
        return true;
    }
    void result(parser::Token const&, syntax::Result) override { ++results; }
    void end_game(syntax::GameEnd const& e) override { syntax_errors += e.syntax_error; }
    void diagnostic(syntax::Diagnostic const& d) override {
        (d.severity == syntax::Severity::error ? errors : warnings) += 1;
        diagnostics.push_back(d);
    }
};

Counter read_file(fs::path const& p, std::size_t chunk = pgn::GameReader::default_chunk_size) {
    std::string error;
    auto source = io::open_file(p.string(), error);
    BOOST_TEST_REQUIRE(source != nullptr, error);
    Counter c;
    parser::ParseOptions options;
    pgn::GameReader reader(*source, chunk);
    syntax::RawGame g;
    while (reader.next(g))
        if (reader.part() == pgn::GamePart::text || reader.part() == pgn::GamePart::text_first)
            ++c.texts; // text between games: no game
        else if (reader.part() == pgn::GamePart::text_more)
            continue;
        else
            parser::parse_game(g, c, options);
    BOOST_TEST(reader.io_error().empty());
    return c;
}

// Independent game count: lines starting with "[Event " (or "[Result " for files whose
// games carry no Event tag).
std::uint64_t count_lines_starting(std::string_view bytes, std::string_view prefix) {
    std::uint64_t n = 0;
    for (std::size_t pos = 0; pos < bytes.size();) {
        if (bytes.substr(pos, prefix.size()) == prefix) ++n;
        auto const nl = bytes.find('\n', pos);
        if (nl == std::string_view::npos) break;
        pos = nl + 1;
    }
    return n;
}

// Splits `bytes` with a game size limit: every RawGame handed out (whole games and pieces of
// oversized games), and the games they make (pieces put together). `ok`: the pieces lie in
// order where their locations say, with only skippable bytes between games and none between
// the pieces of a game, whose parts go first, middle..., last, under one number.
struct Pieces {
    struct Piece {
        std::uint64_t offset, size, number;
        pgn::GamePart part;
        bool operator==(Piece const&) const = default;
    };
    std::vector<Piece> pieces;
    std::vector<std::string> games;
    std::size_t oversized = 0;
    std::size_t max_capacity = 0;
    bool ok = true;
};

bool skippable(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c == '%' || c == 0xEF) {
            auto const nl = s.find_first_of("\r\n", i);
            i = nl == std::string_view::npos ? s.size() : nl;
        } else if (c > 0x20 && c != 0x7F) {
            return false;
        }
    }
    return true;
}

Pieces split_pieces(std::string_view bytes, std::size_t chunk, std::size_t max_game_size) {
    auto source = io::open_memory(bytes);
    pgn::GameReader reader(*source, chunk, max_game_size);
    Pieces r;
    syntax::RawGame g;
    std::uint64_t pos = 0, number = 0;
    bool open = false;
    syntax::Location want; // location_of, one byte after the other
    auto walk = [&](std::uint64_t to) {
        for (; want.offset < to && want.offset < bytes.size(); ++want.offset) {
            char const c = bytes[want.offset];
            if (c == '\n' || (c == '\r' && (want.offset + 1 == bytes.size() ||
                                            bytes[want.offset + 1] != '\n'))) {
                ++want.line;
                want.column = 1;
            } else {
                ++want.column;
            }
        }
    };
    while (reader.next(g)) {
        auto const part = reader.part();
        r.pieces.push_back({g.start.offset, g.bytes.size(), g.number, part});
        r.max_capacity = std::max(r.max_capacity, reader.buffer_capacity());
        if (part == pgn::GamePart::text || part == pgn::GamePart::text_first ||
            part == pgn::GamePart::text_more) { // text between games: numbered 0
            walk(g.start.offset);
            if (open || g.number != 0 || g.start.offset < pos ||
                bytes.substr(g.start.offset, g.bytes.size()) != g.bytes ||
                g.start.line != want.line || g.start.column != want.column ||
                !skippable(bytes.substr(pos, g.start.offset - pos))) {
                r.ok = false;
                break;
            }
            pos = g.start.offset + g.bytes.size();
            continue;
        }
        bool const starts = part == pgn::GamePart::whole || part == pgn::GamePart::oversized_first;
        walk(g.start.offset);
        if (g.start.offset < pos || bytes.substr(g.start.offset, g.bytes.size()) != g.bytes ||
            g.start.line != want.line || g.start.column != want.column ||
            !(open ? g.start.offset == pos : skippable(bytes.substr(pos, g.start.offset - pos))) ||
            starts == open || g.number != (starts ? ++number : number) ||
            (part != pgn::GamePart::whole && g.bytes.size() > pgn::GameReader::max_piece_size)) {
            r.ok = false;
            break;
        }
        if (starts) {
            r.games.emplace_back(g.bytes);
            r.oversized += part == pgn::GamePart::oversized_first;
        } else {
            r.games.back().append(g.bytes);
        }
        open = part == pgn::GamePart::oversized_first || part == pgn::GamePart::oversized_middle;
        pos = g.start.offset + g.bytes.size();
    }
    if (open || !skippable(bytes.substr(std::min<std::uint64_t>(pos, bytes.size()))) ||
        reader.bytes_read() != bytes.size())
        r.ok = false;
    return r;
}

fs::path const data_dir = PGN_ICCF_DATA_DIR;
fs::path const shared_corpus = fs::path(PGN_ICCF_SOURCE_DIR) / ".." / "shared" / "data" / "corpus";

} // namespace

// --- splitting ---------------------------------------------------------------------------

struct SplitCase {
    char const* name;
    std::string_view input;
    std::vector<std::string_view> games;
};

BOOST_AUTO_TEST_CASE(game_boundaries) {
    SplitCase const cases[] = {
        {"two games",
         "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 1-0\n",
         {"[Event \"a\"]\n\n1. e4 *\n", "[Event \"b\"]\n\n1. d4 1-0\n"}},
        {"no final newline", "[Event \"a\"]\n1. e4 *", {"[Event \"a\"]\n1. e4 *"}},
        {"CRLF",
         "[Event \"a\"]\r\n\r\n1. e4 *\r\n\r\n[Event \"b\"]\r\n*\r\n",
         {"[Event \"a\"]\r\n\r\n1. e4 *\r\n", "[Event \"b\"]\r\n*\r\n"}},
        {"lone CR",
         "[Event \"a\"]\r\r1. e4 *\r\r[Event \"b\"]\r*\r",
         {"[Event \"a\"]\r\r1. e4 *\r", "[Event \"b\"]\r*\r"}},
        {"BOM and leading blank lines",
         "\xEF\xBB\xBF\n\n[Event \"a\"]\n*\n",
         {"[Event \"a\"]\n*\n"}},
        {"percent lines between games",
         "% header\n[Event \"a\"]\n*\n% x\n\n[Event \"b\"]\n*\n",
         {"[Event \"a\"]\n*\n", "[Event \"b\"]\n*\n"}},
        {"result inside a comment or variation",
         "1. e4 {1-0 [Event \"x\"]} (1. d4 *) e5 0-1\n",
         {"1. e4 {1-0 [Event \"x\"]} (1. d4 *) e5 0-1\n"}},
        {"tag-like text in a comment",
         "1. e4 {see\n[Event \"x\"]}\n*\n",
         {"1. e4 {see\n", "[Event \"x\"]}\n*\n"}},
        {"results on one line",
         "e4 e5 *\nd4 d5 *\nc4 1/2-1/2\n",
         {"e4 e5 *\n", "d4 d5 *\n", "c4 1/2-1/2\n"}},
        {"two games on one line", "e4 * d4 1-0\n", {"e4 * ", "d4 1-0\n"}},
        {"no result, next tag section",
         "[Event \"a\"]\n1. e4\n\n\n[Event \"b\"]\n*\n",
         {"[Event \"a\"]\n1. e4\n", "[Event \"b\"]\n*\n"}},
        {"no result, indented tag",
         "[V \"a\"] 1. e4\n\n    [V \"b\"]\n1. d4\n",
         {"[V \"a\"] 1. e4\n", "[V \"b\"]\n1. d4\n"}},
        {"no result, untagged game after a blank line",
         "1. e4 e5\n\n1. d4 d5\n",
         {"1. e4 e5\n", "1. d4 d5\n"}},
        {"introductory comment, blank line, 1.",
         "[Event \"a\"]\n\n{Intro}\n\n1. e4 *\n",
         {"[Event \"a\"]\n\n{Intro}\n\n1. e4 *\n"}},
        {"untagged games after a comment line",
         "{x}\n\n1. e4\n\n1. d4 *\n",
         {"{x}\n\n1. e4\n", "1. d4 *\n"}},
        {"blank line inside the tag section",
         "[Event \"a\"]\n\n[Date \"?\"]\n\n1. e4 *\n",
         {"[Event \"a\"]\n\n[Date \"?\"]\n\n1. e4 *\n"}},
        {"tags-only game then a game",
         "[Event \"a\"]\n[Result \"?\"]\n \n\n[Event \"b\"]\n*\n",
         {"[Event \"a\"]\n[Result \"?\"]\n", "[Event \"b\"]\n*\n"}},
        {"tags-only game, repeated name",
         "[Site \"a\"]\n\n[Site \"b\"]\n*\n",
         {"[Site \"a\"]\n", "[Site \"b\"]\n*\n"}},
        {"semicolon comment hides a result", "1. e4 ; 1-0\n*\n", {"1. e4 ; 1-0\n*\n"}},
        {"unterminated comment at the end",
         "[Event \"a\"]\n1. e4 {oops\n",
         {"[Event \"a\"]\n1. e4 {oops\n"}},
        {"result glued to a move number", "1. e4 2.1-0\n", {"1. e4 2.1-0\n"}},
        {"result after tags on the same line",
         "[Event \"a\"]*\n[Event \"b\"]*\n",
         {"[Event \"a\"]*\n", "[Event \"b\"]*\n"}},
        {"only whitespace", " \n\n\t\n", {}},
        {"empty", "", {}},
        // Issue 12: what follows a result, and text between games.
        {"word after the result",
         "[Event \"a\"]\n1. e4 1-0 ff\n[Event \"b\"]\n*\n",
         {"[Event \"a\"]\n1. e4 1-0 ff\n", "[Event \"b\"]\n*\n"}},
        {"paren after the result", "1. e4 1-0 )\n\n1. d4 *\n", {"1. e4 1-0 )\n", "1. d4 *\n"}},
        {"comment lines after the result (engine log)",
         "[Event \"a\"]\n1. e4 1/2-1/2\n\n; { Game Nr. 1 : X draws }\n{more}\n\n[Event \"b\"]\n*\n",
         {"[Event \"a\"]\n1. e4 1/2-1/2\n\n; { Game Nr. 1 : X draws }\n{more}\n",
          "[Event \"b\"]\n*\n"}},
        {"comment after the result on its line",
         "1. e4 1-0 {White wins} ; yes\n*\n",
         {"1. e4 1-0 {White wins} ; yes\n", "*\n"}},
        {"text after a comment line ends the game there",
         "1. e4 1-0\n{c} 1. d4 *\n",
         {"1. e4 1-0\n{c} ", "1. d4 *\n"}},
        {"a comment never closed after the result does not join",
         "1. e4 1-0\n{oops\n",
         {"1. e4 1-0\n"}},
        {"a comment closed after a tag-like line does not join",
         "1. e4 1-0 {see\n[Event \"x\"]}\n*\n",
         {"1. e4 1-0 ", "[Event \"x\"]}\n*\n"}},
        {"a game starts after the result on its line",
         "1. e4 1-0 1. d4 *\n",
         {"1. e4 1-0 ", "1. d4 *\n"}},
        {"forfeit result",
         "1. e4 (+)-(-)\n\n[Event \"b\"]\n1. d4 (-)-(+) ff\n",
         {"1. e4 (+)-(-)\n", "[Event \"b\"]\n1. d4 (-)-(+) ff\n"}},
        {"forfeit inside a variation is no result",
         "1. e4 (1. d4 (-)-(+)) 1-0\n",
         {"1. e4 (1. d4 (-)-(+)) 1-0\n"}},
        {"periods glued to the result", "1. e4 e5 ...1-0\n*\n", {"1. e4 e5 ...1-0\n", "*\n"}},
        {"comment at the top of the file leads the first game",
         "{intro}\n; more\n\n[Event \"a\"]\n*\n[Event \"b\"]\n*\n",
         {"{intro}\n; more\n\n[Event \"a\"]\n*\n", "[Event \"b\"]\n*\n"}},
        {"text between games is no game",
         "From: x@y\nSubject: z\n\n[Event \"a\"]\n*\nsome garbage\n\n[Event \"b\"]\n*\n\xff",
         {"[Event \"a\"]\n*\n", "[Event \"b\"]\n*\n"}},
        {"a game without tags or result starting with a move", "e2e4 e7e5\n", {"e2e4 e7e5\n"}},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(c.name) {
            for (std::size_t chunk : {64, 4096}) {
                auto const s = split(c.input, chunk);
                BOOST_TEST(s.reproduces);
                BOOST_TEST_REQUIRE(s.games.size() == c.games.size());
                for (std::size_t i = 0; i != s.games.size(); ++i)
                    BOOST_TEST(s.games[i] == c.games[i]);
            }
        }
    }
}

// `head + rest + tail` split in chunks of 64 bytes and 4 KiB: `games` (the first after
// `head`), then `tail` as a game of its own.
void check_games_after(std::string const& head, std::string_view rest,
                       std::vector<std::string_view> const& games, std::string_view tail) {
    std::string const input = head + std::string(rest) + std::string(tail);
    for (std::size_t chunk : {64, 4096}) {
        auto const s = split(input, chunk);
        BOOST_TEST(s.reproduces);
        BOOST_TEST_REQUIRE(s.games.size() == games.size() + 1);
        BOOST_TEST(s.games[0] == head + std::string(games[0]));
        for (std::size_t i = 1; i != games.size(); ++i) BOOST_TEST(s.games[i] == games[i]);
        BOOST_TEST(s.games.back() == tail);
    }
}

// The splitter skips movetext in windows of 32 bytes (split_scan.hpp's skip_plain, in builds
// with AVX2): a comment crossing a window's end, braces that do not alternate, a line end
// inside a comment, a LF before a tag or a blank line, and results glued to digits must cut
// the same wherever they fall in a window. Each case is shifted by 0 to 70 blanks after its
// first move, and by as many plain moves, and a game follows it.
BOOST_AUTO_TEST_CASE(movetext_cuts_at_every_window_position) {
    struct Case {
        char const* name;
        std::string_view rest; // after "1. e4 " and the shift
        std::vector<std::string_view>
            games; // the first game's text after the shift, then the others
    };
    Case const cases[] = {
        {"clock comments, result",
         "{ [%clk 0:01:00] } e5 { [%clk 0:00:59] } 2. Nf3 1-0\n*\n",
         {"{ [%clk 0:01:00] } e5 { [%clk 0:00:59] } 2. Nf3 1-0\n", "*\n"}},
        {"result inside a long comment",
         "{ a comment of more than thirty-two bytes 1-0 and on } e5 0-1\n*\n",
         {"{ a comment of more than thirty-two bytes 1-0 and on } e5 0-1\n", "*\n"}},
        {"result inside a comment over several windows",
         "{ a comment of more than sixty-four bytes, over two windows or three: 1-0, and on } e5 "
         "0-1\n*\n",
         {"{ a comment of more than sixty-four bytes, over two windows or three: 1-0, and on } e5 "
          "0-1\n",
          "*\n"}},
        {"a brace inside a comment",
         "{ a { b } e5 { c } 1/2-1/2\n*\n",
         {"{ a { b } e5 { c } 1/2-1/2\n", "*\n"}},
        {"a stray closing brace", "} e5 } { c } 0-1\n*\n", {"} e5 } { c } 0-1\n", "*\n"}},
        {"a tag-like line in a comment",
         "{ see\n[Event \"x\"] } e5 *\n",
         {"{ see\n", "[Event \"x\"] } e5 *\n"}},
        {"an indented tag-like line in a comment",
         "{ see\n \t[Event \"x\"] } e5 *\n",
         {"{ see\n", "[Event \"x\"] } e5 *\n"}},
        {"a line in a comment that starts with '[' but no tag pair",
         "{ see\n[%clk 0:01:00] } e5 *\n*\n",
         {"{ see\n[%clk 0:01:00] } e5 *\n", "*\n"}},
        {"comment lines after CR",
         "{ see\r\nmore\r[Event \"x\"] } e5 *\n",
         {"{ see\r\nmore\r", "[Event \"x\"] } e5 *\n"}},
        {"a line end in a comment, no tag",
         "{ see\nmore } e5 *\n*\n",
         {"{ see\nmore } e5 *\n", "*\n"}},
        {"no result, the next tag section",
         "e5 2. Nf3\n[Event \"b\"]\n*\n",
         {"e5 2. Nf3\n", "[Event \"b\"]\n*\n"}},
        {"no result, a blank line and 1.", "e5 2. Nf3\n\n1. d4 *\n", {"e5 2. Nf3\n", "1. d4 *\n"}},
        {"lines going on",
         "e5\n2. Nf3\nNc6\n3. Bb5 10. a3 1-0\n*\n",
         {"e5\n2. Nf3\nNc6\n3. Bb5 10. a3 1-0\n", "*\n"}},
        {"digits that start no result",
         "e5 10. Nf3 h1 19. a1=Q 0-1\n*\n",
         {"e5 10. Nf3 h1 19. a1=Q 0-1\n", "*\n"}},
        {"result after a comment", "e5 {x}1-0\n*\n", {"e5 {x}1-0\n", "*\n"}},
        {"a line comment", "e5 ; 1-0 {\n2. Nf3 *\n", {"e5 ; 1-0 {\n2. Nf3 *\n"}},
        {"a variation", "(1. d4 1-0) e5 *\n", {"(1. d4 1-0) e5 *\n"}},
        {"CRLF", "e5\r\n2. Nf3\r\n*\r\n*\r\n", {"e5\r\n2. Nf3\r\n*\r\n", "*\r\n"}},
        {"a comment never closed", "{ open e5 *\n", {"{ open e5 *\n"}},
    };
    // A game after each case, so that the case is not in the input's last 32 bytes (which
    // the scalar loop reads alone).
    std::string_view const tail =
        "[Event \"z\"]\n\n1. d4 d5 2. c4 c6 3. Nf3 Nf6 4. Nc3 e6 5. Bg5 Be7 *\n";
    for (auto const& c : cases) {
        for (std::size_t shift = 0; shift <= 70; ++shift) {
            for (bool moves : {false, true}) {
                BOOST_TEST_CONTEXT(c.name << ", shift " << shift
                                          << (moves ? " moves" : " blanks")) {
                    std::string pad;
                    for (std::size_t i = 0; i < shift; ++i) pad += moves ? "Nf3 Nf6 " : " ";
                    check_games_after("[Event \"a\"]\n\n1. e4 " + pad, c.rest, c.games, tail);
                }
            }
        }
    }
}

// The tag lines of a section, each line of the cases at every offset from the game's first
// byte (the first line grows by one byte at a time): the splitter takes runs of plain tag
// lines 64 bytes at a time (skip_tag_lines) and must end games where its line loop does.
BOOST_AUTO_TEST_CASE(tag_lines_at_every_window_position) {
    struct Case {
        char const* name;
        std::string_view rest;               // after the first tag line
        std::vector<std::string_view> games; // the first game's text after it, then the others
    };
    Case const cases[] = {
        {"short tag lines",
         "[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n[D \"4\"]\n[E \"5\"]\n\n1. e4 *\n",
         {"[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n[D \"4\"]\n[E \"5\"]\n\n1. e4 *\n"}},
        {"a ']' inside a value",
         "[A \"x]y\"]\n[B \"2\"]\n[C \"3\"]\n\n1. e4 *\n",
         {"[A \"x]y\"]\n[B \"2\"]\n[C \"3\"]\n\n1. e4 *\n"}},
        {"two tag pairs on a line",
         "[A \"1\"] [B \"2\"]\n[C \"3\"]\n\n1. e4 *\n",
         {"[A \"1\"] [B \"2\"]\n[C \"3\"]\n\n1. e4 *\n"}},
        {"movetext after a tag pair, then a tag line",
         "[A \"1\"]\n[B \"2\"] 1. e4\n[C \"3\"]\n\n1. d4 *\n",
         {"[A \"1\"]\n[B \"2\"] 1. e4\n", "[C \"3\"]\n\n1. d4 *\n"}},
        {"movetext ending in a quote and ']', then a tag line",
         "[A \"1\"]\n[B \"2\"] 1. e4 {\"]\n[C \"3\"]\n\n1. d4 *\n",
         {"[A \"1\"]\n[B \"2\"] 1. e4 {\"]\n", "[C \"3\"]\n\n1. d4 *\n"}},
        {"a blank line, then Event",
         "[A \"1\"]\n[B \"2\"]\n\n[Event \"b\"]\n\n1. e4 *\n",
         {"[A \"1\"]\n[B \"2\"]\n", "[Event \"b\"]\n\n1. e4 *\n"}},
        {"a blank line, then a name repeated in another case",
         "[A \"1\"]\n[B \"2\"]\n\n[a \"3\"]\n\n1. e4 *\n",
         {"[A \"1\"]\n[B \"2\"]\n", "[a \"3\"]\n\n1. e4 *\n"}},
        {"a line of blanks, then a new name",
         "[A \"1\"]\n \t\n[C \"3\"]\n\n1. e4 *\n",
         {"[A \"1\"]\n \t\n[C \"3\"]\n\n1. e4 *\n"}},
        {"CRLF and blanks after tag pairs",
         "[A \"1\"]\r\n[B \"2\"] \n[C \"3\"]\t\n\r\n1. e4 *\n",
         {"[A \"1\"]\r\n[B \"2\"] \n[C \"3\"]\t\n\r\n1. e4 *\n"}},
        {"a tag line longer than 64 bytes",
         "[A \"a value of more than sixty-four bytes, which no window holds whole\"]\n"
         "[B \"2\"]\n\n1. e4 *\n",
         {"[A \"a value of more than sixty-four bytes, which no window holds whole\"]\n"
          "[B \"2\"]\n\n1. e4 *\n"}},
        {"tags only, then a game",
         "[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n\n[Event \"b\"]\n*\n",
         {"[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n", "[Event \"b\"]\n*\n"}},
    };
    std::string_view const tail = "[Event \"z\"]\n\n1. d4 d5 2. c4 c6 3. Nf3 Nf6 4. Nc3 e6 *\n";
    for (auto const& c : cases) {
        for (std::size_t shift = 0; shift <= 70; ++shift) {
            BOOST_TEST_CONTEXT(c.name << ", shift " << shift) {
                check_games_after("[Event \"" + std::string(shift, 'x') + "\"]\n", c.rest, c.games,
                                  tail);
            }
        }
    }
}

// `input` split in chunks of 64 bytes and 4 KiB: exactly `games` and `texts` (text between
// games), and `between` the bytes that belong to neither.
void check_pieces(std::string_view input, std::vector<std::string> const& games,
                  std::vector<std::string> const& texts, std::string_view between) {
    for (std::size_t chunk : {64, 4096}) {
        BOOST_TEST_CONTEXT("chunk " << chunk) {
            auto const s = split(input, chunk);
            BOOST_TEST(s.reproduces);
            BOOST_TEST(s.games == games, boost::test_tools::per_element());
            BOOST_TEST(s.texts == texts, boost::test_tools::per_element());
            BOOST_TEST(s.between == between);
        }
    }
}

// Text between games comes out as GamePart::text (number 0), whole and in order.
BOOST_AUTO_TEST_CASE(text_between_games) {
    std::string_view const input = "From: x@y\nSubject: z\n\n[Event \"a\"]\n*\n"
                                   "some garbage\n\n[Event \"b\"]\n1. e4 1-0 ff\n"
                                   "{lone comment, never closed\n\n\xff";
    check_pieces(
        input, {"[Event \"a\"]\n*\n", "[Event \"b\"]\n1. e4 1-0 ff\n"},
        {"From: x@y\nSubject: z\n", "some garbage\n", "{lone comment, never closed\n\n\xff"},
        "\n\n"); // the blank lines before the tag sections
    syntax::RawGame g;
    g.bytes = "some\ngarbage\n\n";
    g.start.line = 7;
    BOOST_TEST(pgn::last_line(g) == 8u);
    g.bytes = "\xff";
    BOOST_TEST(pgn::last_line(g) == 7u);
}

// A '%' is an escape line only in column 1 (as the grammar reads it): a piece that starts
// with '%' after control bytes, or after a comment line's comment, is no '%' line, so its
// variation is movetext and the tag section on a later line starts the next game. (The
// splitter took a piece's first byte for a line start: the tag section joined the piece, and
// a block cut before it, where a result ends the line before, broke the cutter's promise.)
BOOST_AUTO_TEST_CASE(percent_after_control_bytes_is_no_escape_line) {
    check_pieces("\x01%x ( d6 1/2-1/2\n\n[Event \"b\"]\n*\n"
                 "[Event \"c\"]\n1. e4 e5 *\n{c} %y ( d6 1-0\n\n[Event \"d\"]\n*\n",
                 {"[Event \"b\"]\n*\n", "[Event \"c\"]\n1. e4 e5 *\n{c} ", "[Event \"d\"]\n*\n"},
                 {"\x01", "%x ( d6 1/2-1/2\n", "%y ( d6 1-0\n"}, "\n\n");
    // At a line start it is a '%' line: the tag section after it leads the same game.
    auto const s = split("%x ( d6 1/2-1/2\n\n[Event \"b\"]\n*\n");
    BOOST_TEST(s.texts.empty());
    BOOST_TEST_REQUIRE(s.games.size() == 1u);
    BOOST_TEST(s.games[0] == "[Event \"b\"]\n*\n");
}

// Lines of control bytes between games (a DOS ^Z, NUL bytes) are text between games too:
// warned about and copied to the rejects file, not skipped as blanks; text keeps the blanks
// before it on its line. Only blank lines, '%' lines and BOMs belong to nothing (N06).
BOOST_AUTO_TEST_CASE(control_bytes_between_games_are_text) {
    using namespace std::string_literals;
    std::string const input = "[Event \"a\"]\n*\n"
                              "\n\x1a\x1a\r\n \x01\n\n"
                              "  some garbage\n\n"
                              "[Event \"b\"]\n*\n"
                              "\x7f[Event \"c\"]\n*\n"
                              "%escape\x01\n\t\x00\n"s;
    for (std::size_t chunk : {64, 4096}) {
        BOOST_TEST_CONTEXT("chunk " << chunk) {
            auto const s = split(input, chunk);
            BOOST_TEST(s.reproduces);
            std::vector<std::string> const games = {"[Event \"a\"]\n*\n", "[Event \"b\"]\n*\n",
                                                    "[Event \"c\"]\n*\n"};
            std::vector<std::string> const texts = {"\x1a\x1a\r\n \x01\n", "  some garbage\n",
                                                    "\x7f", "\t\x00\n"s};
            BOOST_TEST(s.games == games, boost::test_tools::per_element());
            BOOST_TEST(s.texts == texts, boost::test_tools::per_element());
            BOOST_TEST(s.between == "\n\n\n%escape\x01\n");
        }
    }
    // A long run comes in pieces (64 KiB, at fixed offsets from its start): the same bytes.
    std::string const nul = "[Event \"a\"]\n*\n"s + std::string(200'000, '\0') + "\n\n1. e4 *\n";
    for (std::size_t chunk : {64, 1000, 65536}) {
        BOOST_TEST_CONTEXT("chunk " << chunk) {
            auto const s = split(nul, chunk);
            BOOST_TEST(s.reproduces);
            BOOST_TEST_REQUIRE(s.texts.size() == 1u);
            BOOST_TEST(s.texts[0] == std::string(200'000, '\0') + "\n");
            BOOST_TEST(s.text_pieces == 1);
            BOOST_TEST(s.games.size() == 2u);
        }
    }
}

// A game score under a title line with no blank line between (hand-made files): the title is
// text between games, the score a game (T1).
BOOST_AUTO_TEST_CASE(title_line_above_a_game_score) {
    std::string_view const input = "Reti - Tartakower\n1. e4 c6 2. d4 d5 1-0\n\n"
                                   "A title\nVienna 1910\n  1.e4 c6 *\n\n"
                                   "Prose, 1. e4 in the text\n2. and a line with a number\n";
    for (std::size_t chunk : {64, 4096}) {
        BOOST_TEST_CONTEXT("chunk " << chunk) {
            auto const s = split(input, chunk);
            BOOST_TEST(s.reproduces);
            std::vector<std::string> const games = {"1. e4 c6 2. d4 d5 1-0\n", "1.e4 c6 *\n"};
            std::vector<std::string> const texts = {
                "Reti - Tartakower\n", "A title\nVienna 1910\n",
                "Prose, 1. e4 in the text\n2. and a line with a number\n"};
            BOOST_TEST(s.games == games, boost::test_tools::per_element());
            BOOST_TEST(s.texts == texts, boost::test_tools::per_element());
        }
    }
}

// The reading room (src/reader) knows no chess: what is a game among bytes without tags and
// result is its caller's classifier, which it consults for every such piece and for text after
// a result (`e4 * d4 1-0`: two games on one line only if `d4` starts like a game).
BOOST_AUTO_TEST_CASE(reading_room_takes_its_classifier) {
    std::string_view const input = "e4 e5\n[Event \"a\"]\n*\nsome garbage\n[Event \"b\"]\n*\n"
                                   "e4 * d4 1-0\n";
    struct Piece {
        std::string bytes;
        std::uint64_t number; // 0: text between games
        bool operator==(Piece const&) const = default;
    };
    auto const read = [&](reader::Classifier c) {
        auto source = io::open_memory(input);
        reader::GameReader r(*source, c, 64);
        std::vector<Piece> out;
        syntax::RawGame g;
        while (r.next(g)) {
            BOOST_TEST((r.part() == (g.number == 0 ? pgn::GamePart::text : pgn::GamePart::whole)));
            out.push_back({std::string(g.bytes), g.number});
        }
        return out;
    };
    auto const no_score = [](char const*, char const*) -> char const* { return nullptr; };
    std::vector<Piece> const all = {{"e4 e5\n", 1},        {"[Event \"a\"]\n*\n", 2},
                                    {"some garbage\n", 3}, {"[Event \"b\"]\n*\n", 4},
                                    {"e4 * ", 5},          {"d4 1-0\n", 6}};
    BOOST_TEST((read({[](char const*, char const*) { return true; }, no_score}) == all));
    std::vector<Piece> const none = {{"e4 e5\n", 0},
                                     {"[Event \"a\"]\n*\n", 1},
                                     {"some garbage\n", 0},
                                     {"[Event \"b\"]\n*\n", 2},
                                     {"e4 * d4 1-0\n", 3}};
    BOOST_TEST((read({[](char const*, char const*) { return false; }, no_score}) == none));
    std::vector<Piece> const moves = {{"e4 e5\n", 1},        {"[Event \"a\"]\n*\n", 2},
                                      {"some garbage\n", 0}, {"[Event \"b\"]\n*\n", 3},
                                      {"e4 * ", 4},          {"d4 1-0\n", 5}};
    BOOST_TEST((read(pgn::game_classifier()) == moves));
}

// Every file: the same games whatever the chunk size, bytes between games are blanks, '%'
// lines or BOMs only, and each game's start location is right.
BOOST_AUTO_TEST_CASE(chunk_size_invariance) {
    std::vector<fs::path> files;
    for (auto const* dir : {"edge", "corpus"})
        for (auto const& e : fs::directory_iterator(data_dir / dir))
            if (e.path().extension() == ".pgn") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    BOOST_TEST_REQUIRE(files.size() >= 40u);
    for (auto const& f : files) {
        BOOST_TEST_CONTEXT(f.filename()) {
            auto const bytes = slurp(f);
            auto const ref = split(bytes);
            BOOST_TEST(ref.reproduces);
            bool clean = true;
            std::string_view between = ref.between;
            for (std::size_t i = 0; i < between.size(); ++i) {
                char const c = between[i];
                if (c == '%' || c == '\xEF') { // a whole line / a BOM
                    auto const nl = between.find_first_of("\r\n", i);
                    i = nl == std::string_view::npos ? between.size() : nl;
                } else if (c != ' ' && !(c >= 0 && c < 0x20) && c != 0x7F) {
                    clean = false;
                }
            }
            BOOST_TEST(clean);
            for (std::size_t i = 0; i != ref.starts.size(); ++i) {
                auto const want = location_of(bytes, ref.starts[i].offset);
                BOOST_TEST(ref.starts[i].line == want.line);
                BOOST_TEST(ref.starts[i].column == want.column);
            }
            for (std::size_t chunk : {64, 1000, 65536}) {
                auto const s = split(bytes, chunk);
                BOOST_TEST(s.reproduces);
                BOOST_TEST(s.games == ref.games);
                BOOST_TEST_REQUIRE(s.starts.size() == ref.starts.size());
                for (std::size_t i = 0; i != s.starts.size(); ++i) {
                    BOOST_TEST(s.starts[i].offset == ref.starts[i].offset);
                    BOOST_TEST(s.starts[i].line == ref.starts[i].line);
                    BOOST_TEST(s.starts[i].column == ref.starts[i].column);
                }
            }
        }
    }
}

// Offsets are 64-bit: a synthetic stream of more than 4 GiB (lines of blanks, then one game)
// is generated on the fly, never stored.
BOOST_AUTO_TEST_CASE(offsets_beyond_4_gib) {
    class Blanks : public io::ByteSource {
    public:
        std::uint64_t left = (std::uint64_t{1} << 32) + 1000; // blank bytes before the game
        std::uint64_t pos = 0;
        std::string_view tail = "[Event \"far\"]\n1. e4 *\n";
        std::ptrdiff_t read(char* dst, std::size_t n) override {
            if (left != 0) {
                auto const k = static_cast<std::size_t>(std::min<std::uint64_t>(left, n));
                std::fill_n(dst, k, ' ');
                for (auto i = (1023 - pos % 1024); i < k; i += 1024) dst[i] = '\n';
                left -= k;
                pos += k;
                return static_cast<std::ptrdiff_t>(k);
            }
            auto const k = std::min(n, tail.size());
            std::copy_n(tail.data(), k, dst);
            tail.remove_prefix(k);
            return static_cast<std::ptrdiff_t>(k);
        }
        std::uint64_t consumed() const override { return pos; }
    } source;
    pgn::GameReader reader(source, std::size_t{1} << 20);
    syntax::RawGame g;
    BOOST_TEST_REQUIRE(reader.next(g));
    std::uint64_t const blanks = (std::uint64_t{1} << 32) + 1000;
    BOOST_TEST(g.start.offset == blanks);
    BOOST_TEST(g.start.line == blanks / 1024 + 1);
    BOOST_TEST(g.start.column == blanks % 1024 + 1);
    Counter c;
    parser::parse_game(g, c);
    BOOST_TEST(c.moves == 1u);
    BOOST_TEST(c.errors == 0u);
    BOOST_TEST(!reader.next(g));
}

// Tag names are a set per section, in any letter case: a name repeated after a blank line far
// down the section starts a new game (80,000 tag pairs: linear, not a look-back per tag).
// Remembered are the first 4096 distinct names (documented in src/reader/splitter.hpp).
BOOST_AUTO_TEST_CASE(tag_names_of_a_section) {
    std::string s = "[Event \"a\"]\n";
    for (int i = 0; i != 80'000; ++i) s += "\n[Name" + std::to_string(i) + " \"x\"]\n";
    std::string const first = s;
    s += "\n[name4000 \"again\"]\n*\n"; // remembered, another letter case: a new game
    auto const sp = split(s);
    BOOST_TEST(sp.reproduces);
    BOOST_TEST_REQUIRE(sp.games.size() == 2u);
    BOOST_TEST(sp.games[0] == first);
    BOOST_TEST(sp.games[1] == "[name4000 \"again\"]\n*\n");
    // Beyond the first 4096 names: not remembered, the game goes on.
    auto const beyond = first + "\n[Name5000 \"again\"]\n*\n";
    BOOST_TEST(split(beyond).games.size() == 1u);
}

// Games larger than tiny limits: every edge and corpus file, split with limits of 256 bytes to
// 5000 and reads of 64 bytes to 64 KiB, gives the same games as without a limit (the oversized
// ones in pieces that put together are exactly the game), with pieces cut at the same places
// whatever the read size, and a buffer never above the limit.
BOOST_AUTO_TEST_CASE(oversized_games_in_pieces) {
    std::vector<fs::path> files;
    for (auto const* dir : {"edge", "corpus"})
        for (auto const& e : fs::directory_iterator(data_dir / dir))
            if (e.path().extension() == ".pgn") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::size_t oversized = 0;
    for (auto const& f : files) {
        auto const bytes = slurp(f);
        auto const ref = split(bytes);
        for (std::size_t limit : {256, 1000, 5000}) {
            BOOST_TEST_CONTEXT(f.filename() << ", max_game_size " << limit) {
                auto const base = split_pieces(bytes, 65536, limit);
                BOOST_TEST(base.ok);
                BOOST_TEST(base.games == ref.games);
                BOOST_TEST(base.max_capacity <= limit);
                oversized += base.oversized;
                for (std::size_t chunk : {64, 1000}) {
                    auto const other = split_pieces(bytes, chunk, limit);
                    BOOST_TEST(other.ok);
                    BOOST_TEST((other.pieces == base.pieces));
                }
            }
        }
    }
    BOOST_TEST_MESSAGE(oversized << " oversized games");
    BOOST_TEST(oversized > 1000u);
}

// After a result, a comment that joins the game only if it closes before a line that begins
// like a tag pair, still undecided when the window (max_game_size) is full: it does not join.
// The game ends where the comment starts, and the comment is read on in a window of its own,
// so the tag line inside it starts a game at its line's start wherever the window ended (a
// block cut there expects it: reader/cutter.hpp). It used to join up to the window's end,
// which could fall inside that tag line.
BOOST_AUTO_TEST_CASE(an_undecided_comment_after_a_result_that_fills_the_window) {
    std::string const head = "[Event \"a\"]\n1. e4 * ";
    std::string const b = "[Event \"b\"]\n*\n";
    for (std::size_t at = 980; at <= 1010; ++at) { // the offset of game b's '['
        std::string const comment =
            "{" + std::string(at - head.size() - 12, 'x') + "\nmore 1-0\n\n";
        std::string const input = head + comment + b;
        BOOST_TEST_REQUIRE(input.find("[Event \"b\"]") == at);
        for (std::size_t chunk : {64, 1000}) {
            BOOST_TEST_CONTEXT("game b at " << at << ", chunk " << chunk) {
                auto const p = split_pieces(input, chunk, 1000);
                BOOST_TEST(p.ok);
                BOOST_TEST_REQUIRE(!p.pieces.empty());
                auto const& last = p.pieces.back();
                BOOST_TEST(last.offset == at);
                BOOST_TEST(last.size == b.size());
                BOOST_TEST((last.part == pgn::GamePart::whole));
                // Game a (in pieces: its undecided bytes counted) ends where the comment starts.
                std::uint64_t a_end = 0;
                for (auto const& piece : p.pieces)
                    if (piece.number == 1) a_end = piece.offset + piece.size;
                BOOST_TEST(a_end == head.size());
            }
        }
    }
}

// --- edge files --------------------------------------------------------------------------

struct EdgeExpect {
    char const* file;
    std::uint64_t games, tags, moves, comments, nags, variations, results, errors, warnings;
};

// Expected counts for every edge file (data/edge, see data/SOURCES.md): games, tags,
// moves, comments, NAGs, variations, results, errors, warnings. Moves count move tokens
// (including null moves and tokens the notation layer will reject). Diagnostics expected:
// backslash-in-tag (trailing '\\' recovered), unescaped-quotes-in-tag (4 inner quotes
// recovered), html-br-line-breaks (tags run together with "<br />": an unknown symbol '/>'
// and the error "'[' inside the movetext"), and "game has no result" for the files without one.
EdgeExpect const edge_expectations[] = {
    // Composed for this project: one file per construct of the real-world reading rules.
    {"chess960-by-castling-rights.pgn", 1, 8, 4, 0, 0, 0, 1, 0, 0},
    {"empty-variation.pgn", 1, 7, 6, 1, 1, 3, 1, 0, 0},
    {"move-number-periods-glued.pgn", 2, 14, 23, 0, 0, 0, 2, 0, 4},
    {"null-move-in-check.pgn", 1, 7, 6, 0, 0, 0, 1, 0, 0},
    {"null-moves-all-forms.pgn", 1, 7, 10, 0, 0, 0, 1, 0, 0},
    {"pawn-letter.pgn", 1, 7, 8, 0, 0, 0, 1, 0, 0},
    {"result-inside-variation.pgn", 1, 7, 9, 0, 0, 2, 1, 0, 2},
    {"tag-values-without-quotes.pgn", 1, 8, 4, 0, 0, 0, 1, 0, 8},
    {"unknown-token-before-move.pgn", 1, 7, 4, 1, 0, 0, 1, 0, 1},
    {"unmatched-close-paren.pgn", 1, 7, 6, 0, 0, 1, 1, 0, 1},
    {"unplayable-move-in-variation.pgn", 1, 7, 15, 1, 0, 2, 1, 0, 0},
    {"backslash-in-tag.pgn", 1, 10, 95, 0, 0, 0, 1, 0, 1},
    {"black-to-move-castling-zeros.pgn", 1, 2, 3, 0, 0, 0, 0, 0, 1},
    {"castling-with-zeros.pgn", 1, 14, 6, 0, 0, 0, 0, 0, 1},
    {"castling-zeros-short.pgn", 1, 0, 10, 0, 0, 0, 1, 0, 0},
    {"comment-before-first-move.pgn", 1, 23, 139, 150, 0, 0, 1, 0, 0},
    {"coordinate-moves-en-passant.pgn", 1, 0, 76, 0, 0, 0, 1, 0, 0},
    {"coordinate-moves.pgn", 1, 0, 49, 0, 0, 0, 0, 0, 1},
    {"coordinate-underpromotions.pgn", 1, 0, 135, 0, 0, 0, 1, 0, 0},
    {"empty-body-result-question-mark.pgn", 2, 22, 252, 252, 0, 0, 1, 0, 1},
    {"en-passant-white.pgn", 1, 15, 49, 0, 0, 0, 1, 0, 0},
    {"escaped-quote-in-tag.pgn", 1, 1, 0, 0, 0, 0, 1, 0, 0},
    {"fen-black-to-move-ellipsis.pgn", 1, 9, 4, 0, 0, 0, 1, 0, 0},
    {"fen-tag-lowercase-name.pgn", 1, 3, 1, 0, 0, 0, 1, 0, 0},
    {"fen-without-setup.pgn", 1, 3, 1, 0, 0, 0, 1, 0, 0},
    {"figurine-notation.pgn", 1, 0, 41, 0, 0, 0, 1, 0, 0},
    {"html-br-line-breaks.pgn", 1, 1, 1, 1, 0, 0, 0, 1, 1},
    {"iccf-ccsnt-comments.pgn", 1, 8, 132, 132, 0, 0, 1, 0, 0},
    {"iecg-correspondence-variations.pgn", 1, 13, 212, 0, 21, 26, 1, 0, 0},
    {"input-lang-auto-ambiguous.pgn", 1, 7, 3, 0, 0, 0, 1, 0, 0},
    {"input-lang-auto-english-first.pgn", 1, 7, 5, 0, 0, 0, 1, 0, 0},
    {"input-lang-auto-german.pgn", 1, 7, 20, 1, 0, 1, 1, 0, 0},
    {"input-lang-auto-no-language.pgn", 1, 7, 5, 0, 0, 0, 1, 0, 0},
    {"illegal-second-move.pgn", 1, 0, 2, 0, 0, 0, 1, 0, 0},
    {"invalid-fen.pgn", 1, 3, 1, 0, 0, 0, 1, 0, 0},
    {"lichess-clock-comments.pgn", 1, 17, 65, 65, 0, 0, 1, 0, 0},
    {"lichess-eval-comments.pgn", 1, 17, 53, 53, 0, 0, 1, 0, 0},
    {"long-algebraic-hyphens.pgn", 1, 0, 135, 0, 0, 0, 1, 0, 0},
    {"long-algebraic-piece-letters.pgn", 1, 0, 117, 0, 0, 0, 1, 0, 0},
    {"many-warnings.pgn", 8, 25, 16, 0, 0, 0, 1, 0, 8},
    {"nags-run-together.pgn", 1, 0, 2, 0, 6, 0, 1, 0, 0},
    {"no-move-numbers.pgn", 1, 0, 16, 0, 0, 0, 1, 0, 0},
    {"no-moves-comment-then-result.pgn", 2, 8, 0, 2, 0, 0, 2, 0, 0},
    {"no-moves-only-comment.pgn", 1, 15, 0, 1, 0, 0, 1, 0, 0},
    {"no-moves-only-result.pgn", 1, 7, 0, 0, 0, 0, 1, 0, 0},
    {"no-moves-tags-only.pgn", 1, 14, 0, 0, 0, 0, 0, 0, 1},
    {"no-moves-two-games.pgn", 2, 22, 0, 0, 0, 0, 2, 0, 0},
    {"non-ascii-utf8-tags.pgn", 1, 7, 20, 0, 0, 0, 1, 0, 0},
    {"null-moves-Z0-short.pgn", 1, 0, 6, 0, 0, 0, 1, 0, 0},
    {"null-moves-dashes-short.pgn", 1, 0, 6, 0, 0, 0, 1, 0, 0},
    {"odd-move-numbers.pgn", 1, 0, 6, 0, 0, 0, 1, 0, 0},
    {"overdisambiguated-Nge7.pgn", 1, 0, 64, 0, 0, 0, 0, 0, 1},
    {"overdisambiguated-and-missing-numbers.pgn", 1, 0, 59, 0, 0, 0, 1, 0, 0},
    {"square-bracket-in-tag.pgn", 1, 15, 130, 130, 0, 0, 1, 0, 0},
    {"tags-only-broadcast.pgn", 2, 38, 0, 0, 0, 0, 0, 0, 2},
    {"typed-numeric-typo-two-candidates.pgn", 1, 8, 6, 0, 0, 0, 1, 0, 0},
    {"typed-numeric-typos.pgn", 1, 8, 12, 0, 1, 1, 1, 0, 0},
    {"unescaped-quotes-in-tag.pgn", 1, 7, 20, 0, 0, 0, 1, 0, 4},
    {"variation-inside-variation.pgn", 1, 7, 14, 1, 0, 6, 1, 0, 0},
    {"variations-nested.pgn", 1, 0, 9, 0, 0, 2, 1, 0, 0},
    {"variations-siblings.pgn", 1, 0, 9, 0, 0, 2, 1, 0, 0},
    // Composed for issue 12 (text between games, what follows a result): the text between
    // games is no game and not parsed (its warning comes from the pipeline); text after a
    // result is a comment with a warning; forfeits and periods glued to a result warn.
    {"text-between-games-engine-log.pgn", 2, 14, 10, 2, 0, 0, 2, 0, 0},
    {"comment-at-top-of-file.pgn", 2, 14, 6, 2, 0, 0, 2, 0, 0},
    {"garbage-between-games.pgn", 2, 14, 8, 0, 0, 0, 2, 0, 0},
    {"word-after-result.pgn", 2, 14, 11, 2, 0, 0, 2, 0, 2},
    {"forfeit-results.pgn", 2, 14, 4, 0, 0, 0, 2, 0, 2},
    {"paren-after-result.pgn", 2, 14, 12, 0, 0, 1, 2, 0, 1},
    {"periods-glued-to-result.pgn", 2, 14, 15, 0, 0, 0, 2, 0, 1},
    // Composed for issue L: a title line right above a tagless score (the title is text
    // between games, not parsed); Unicode glyphs glued to moves, read as NAGs.
    {"title-line-above-score.pgn", 1, 0, 21, 0, 0, 0, 1, 0, 0},
    {"glyphs-glued-to-moves.pgn", 1, 7, 14, 0, 3, 0, 1, 0, 0},
};

BOOST_AUTO_TEST_CASE(edge_files) {
    std::map<std::string, EdgeExpect> expected;
    for (auto const& e : edge_expectations) expected[e.file] = e;
    std::size_t files = 0;
    for (auto const& entry : fs::directory_iterator(data_dir / "edge")) {
        if (entry.path().extension() != ".pgn") continue;
        ++files;
        auto const name = entry.path().filename().string();
        BOOST_TEST_CONTEXT(name) {
            auto const c = read_file(entry.path());
            auto const it = expected.find(name);
            BOOST_TEST_REQUIRE((it != expected.end()), "no expectation for " << name);
            auto const& e = it->second;
            BOOST_TEST(c.games == e.games);
            BOOST_TEST(c.tags == e.tags);
            BOOST_TEST(c.moves == e.moves);
            BOOST_TEST(c.comments == e.comments);
            BOOST_TEST(c.nags == e.nags);
            BOOST_TEST(c.variations == e.variations);
            BOOST_TEST(c.results == e.results);
            BOOST_TEST(c.errors == e.errors);
            BOOST_TEST(c.warnings == e.warnings);
            for (auto const& d : c.diagnostics)
                BOOST_TEST_MESSAGE(entry.path().filename().string()
                                   << ":" << d.where.line << ":" << d.where.column << ": "
                                   << report::syntax_code_name(d.code) << " '" << d.token << "'");
        }
    }
    BOOST_TEST(files == std::size(edge_expectations));
}

// The diagnostics of the edge files, word for word, with their places.
BOOST_AUTO_TEST_CASE(edge_diagnostics) {
    struct Expect {
        char const* file;
        std::vector<std::string> diagnostics; // "line:column: severity: message"
    };
    std::string const no_result =
        "warning: game has no result; it ends at the next tag section or the end of the input";
    Expect const expected[] = {
        {"backslash-in-tag.pgn",
         {"1:9: warning: tag value ends in an unescaped '\\'; taken as part of the value"}},
        {"html-br-line-breaks.pgn",
         {"1:16: warning: unknown annotation symbol '/>'; kept as a comment",
          "1:18: error: '[' inside the movetext (a tag pair must start a line before the "
          "moves)"}},
        {"unescaped-quotes-in-tag.pgn",
         {"1:9: warning: unescaped '\"' inside a tag value; taken as part of the value",
          "2:8: warning: unescaped '\"' inside a tag value; taken as part of the value",
          "5:9: warning: unescaped '\"' inside a tag value; taken as part of the value",
          "6:9: warning: unescaped '\"' inside a tag value; taken as part of the value"}},
        {"tags-only-broadcast.pgn", {"19:51: " + no_result, "39:47: " + no_result}},
        {"empty-body-result-question-mark.pgn", {"7:13: " + no_result}},
        {"overdisambiguated-Nge7.pgn", {"5:43: " + no_result}},
    };
    for (auto const& e : expected) {
        BOOST_TEST_CONTEXT(e.file) {
            auto const c = read_file(data_dir / "edge" / e.file);
            std::vector<std::string> got;
            for (auto const& d : c.diagnostics) {
                got.push_back(std::to_string(d.where.line) + ":" + std::to_string(d.where.column) +
                              ": " + (d.severity == syntax::Severity::error ? "error" : "warning") +
                              ": " + report::syntax_message(d.code, d.token, d.where, d.limit));
            }
            BOOST_TEST(got == e.diagnostics, boost::test_tools::per_element());
        }
    }
}

// --- corpus ------------------------------------------------------------------------------

// Every corpus file (data/corpus and, when present, the shared corpus): the game count equals
// an independent count (lines starting with "[Event ", or "[Result " for files whose games
// carry no Event tag), and no game has a syntax error.
BOOST_AUTO_TEST_CASE(corpus_game_counts) {
    // Text between games, each explained (no game: the counts agree with grep exactly).
    std::map<std::string, std::uint64_t> const texts = {
        // A stray 0xFF byte after the last game: text between games, not a game.
        {"d00_chess_informant.pgn", 1},
    };
    std::vector<fs::path> dirs = {data_dir / "corpus"};
    if (fs::is_directory(shared_corpus)) dirs.push_back(shared_corpus);
    std::uint64_t total = 0;
    for (auto const& dir : dirs) {
        std::vector<fs::path> files;
        for (auto const& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".pgn") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (auto const& f : files) {
            auto const name = f.filename().string();
            BOOST_TEST_CONTEXT(f) {
                auto const bytes = slurp(f);
                auto expected = count_lines_starting(bytes, "[Event ");
                if (expected == 0) expected = count_lines_starting(bytes, "[Result ");
                auto const it = texts.find(name);
                auto const c = read_file(f);
                BOOST_TEST(c.games == expected);
                BOOST_TEST(c.texts == (it == texts.end() ? 0 : it->second));
                BOOST_TEST(c.errors == 0u);
                BOOST_TEST(c.syntax_errors == 0u);
                for (std::size_t chunk : {std::size_t{4096}, std::size_t{100000}})
                    BOOST_TEST(read_file(f, chunk).moves == c.moves);
                total += c.games;
                BOOST_TEST_MESSAGE(name << ": " << c.games << " games (independent count "
                                        << expected << "), " << c.moves << " moves, " << c.warnings
                                        << " warnings");
            }
        }
    }
    BOOST_TEST_MESSAGE("corpus total: " << total << " games");
}

#ifndef PGN_ICCF_MUTATION_ROUNDS
#define PGN_ICCF_MUTATION_ROUNDS 3000 // build with a larger value for a soak run
#endif

// Hostile input: randomly mutated edge files (bytes replaced by PGN delimiters, line ends,
// quotes, deleted or duplicated ranges) go through the reader with random chunk sizes. Nothing
// may crash or hang, the games must reproduce the input, and every game ends with end_game.
BOOST_AUTO_TEST_CASE(mutated_inputs) {
    std::vector<std::string> seeds;
    for (auto const& e : fs::directory_iterator(data_dir / "edge"))
        if (e.path().extension() == ".pgn") seeds.push_back(slurp(e.path()));
    std::sort(seeds.begin(), seeds.end());
    std::uint64_t state = 0x9E3779B97F4A7C15u;
    auto next = [&state](std::uint64_t n) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return n == 0 ? 0 : state % n;
    };
    std::string_view const alphabet = "{}()[];$\"%*\\\n\r \t10-/.!?=+#e4O\xC2\xBD\xEF\xBB\xBF";
    class Checker : public Counter {
    public:
        std::uint64_t begun = 0, ended = 0;
        bool begin_game(syntax::RawGame const& g) override {
            ++begun;
            return Counter::begin_game(g);
        }
        void end_game(syntax::GameEnd const& e) override {
            ++ended;
            Counter::end_game(e);
        }
    };
    for (int round = 0; round != PGN_ICCF_MUTATION_ROUNDS; ++round) {
        std::string s = seeds[next(seeds.size())];
        for (auto k = next(12) + 1; k != 0 && !s.empty(); --k) {
            auto const at = next(s.size());
            switch (next(4)) {
            case 0:
                s[at] = alphabet[next(alphabet.size())];
                break;
            case 1:
                s.erase(at, next(20));
                break;
            case 2:
                s.insert(at, s.substr(next(s.size()), next(40)));
                break;
            default:
                s.insert(at, 1, alphabet[next(alphabet.size())]);
                break;
            }
        }
        BOOST_TEST_CONTEXT("round " << round) {
            auto const chunk = 64 + next(300);
            auto const sp = split(s, chunk);
            BOOST_TEST(sp.reproduces);
            auto source = io::open_memory(s);
            pgn::GameReader reader(*source, chunk);
            Checker c;
            syntax::RawGame g;
            std::uint64_t games = 0;
            while (reader.next(g)) {
                parser::parse_game(g, c); // text between games too: the grammar reads any bytes
                ++games;
            }
            BOOST_TEST(games == sp.games.size() + sp.texts.size());
            BOOST_TEST(c.begun == games);
            BOOST_TEST(c.ended == games);
        }
    }
}

// The same mutated inputs with small game size limits: the pieces and games still reproduce
// the input, and next_batch carries the same pieces with their parts.
BOOST_AUTO_TEST_CASE(mutated_inputs_with_small_limits) {
    std::vector<std::string> seeds;
    for (auto const& e : fs::directory_iterator(data_dir / "edge"))
        if (e.path().extension() == ".pgn") seeds.push_back(slurp(e.path()));
    std::sort(seeds.begin(), seeds.end());
    std::uint64_t state = 0x2545F4914F6CDD1Du;
    auto next = [&state](std::uint64_t n) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return n == 0 ? 0 : state % n;
    };
    std::string_view const alphabet = "{}()[];$\"%*\\\n\r \t10-/.!?=+#e4O\xC2\xBD\xEF\xBB\xBF\0";
    for (int round = 0; round != PGN_ICCF_MUTATION_ROUNDS; ++round) {
        std::string s = seeds[next(seeds.size())];
        for (auto k = next(12) + 1; k != 0 && !s.empty(); --k) {
            auto const at = next(s.size());
            switch (next(5)) {
            case 0:
                s[at] = alphabet[next(alphabet.size())];
                break;
            case 1:
                s.erase(at, next(20));
                break;
            case 2:
                s.insert(at, s.substr(next(s.size()), next(40)));
                break;
            case 3: // a long run of one byte: blanks, digits, brackets...
                s.insert(at, 100 + next(2000), alphabet[next(alphabet.size())]);
                break;
            default:
                s.insert(at, 1, alphabet[next(alphabet.size())]);
                break;
            }
        }
        BOOST_TEST_CONTEXT("round " << round) {
            auto const chunk = 64 + next(300);
            auto const limit = 256 + next(2000);
            auto const sp = split_pieces(s, chunk, limit);
            BOOST_TEST(sp.ok);
            BOOST_TEST(sp.max_capacity <= limit);
            auto source = io::open_memory(s);
            pgn::GameReader reader(*source, chunk, limit);
            pgn::GameBatch batch;
            std::vector<Pieces::Piece> batched;
            while (reader.next_batch(batch, 1 + next(3000))) {
                BOOST_TEST_REQUIRE(batch.parts.size() == batch.games.size());
                for (std::size_t i = 0; i != batch.games.size(); ++i)
                    batched.push_back({batch.games[i].start.offset, batch.games[i].bytes.size(),
                                       batch.games[i].number, batch.parts[i]});
                batch.clear();
            }
            BOOST_TEST((batched == sp.pieces));
        }
    }
}

// parse_game is reentrant: games copied out of the reader (a RawGame is self-contained) and
// parsed on several threads at once give the same events as on one thread.
BOOST_AUTO_TEST_CASE(parse_game_is_reentrant) {
    auto const bytes =
        slurp(data_dir / "corpus" / "lichess_db_standard_rated_2021-10_first999.pgn");
    struct Copy {
        std::string bytes;
        syntax::Location start;
        std::uint64_t number;
    };
    std::vector<Copy> games;
    auto source = io::open_memory(bytes);
    pgn::GameReader reader(*source);
    syntax::RawGame g;
    while (reader.next(g)) games.push_back({std::string(g.bytes), g.start, g.number});
    auto parse_all = [&games] {
        Counter c;
        for (auto const& copy : games) {
            syntax::RawGame raw;
            raw.bytes = copy.bytes;
            raw.start = copy.start;
            raw.number = copy.number;
            parser::parse_game(raw, c);
        }
        return c;
    };
    auto const ref = parse_all();
    std::vector<Counter> results(4);
    std::vector<std::thread> threads;
    for (auto& r : results) threads.emplace_back([&r, &parse_all] { r = parse_all(); });
    for (auto& t : threads) t.join();
    for (auto const& r : results) {
        BOOST_TEST(r.games == ref.games);
        BOOST_TEST(r.moves == ref.moves);
        BOOST_TEST(r.comments == ref.comments);
        BOOST_TEST(r.warnings == ref.warnings);
    }
    BOOST_TEST(ref.games == 999u);
    BOOST_TEST(ref.moves == 66292u);
}
