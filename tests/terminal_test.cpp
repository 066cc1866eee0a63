// Issue 9, "The terminal is never an attack surface": terminal_safe on its own (a table), and
// the pgn-iccf executable on hostile input, checked byte by byte on standard error.
#define BOOST_TEST_MODULE terminal
#include <boost/test/unit_test.hpp>

#include "support/shell.hpp"

#include "report/terminal.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;
using pgn_iccf::report::append_terminal_safe;
using pgn_iccf::report::append_terminal_safe_message;
using pgn_iccf::report::no_cut;
using pgn_iccf::report::terminal_safe;

namespace {

std::string const bin = std::string(PGN_ICCF_BIN_DIR) + "/pgn-iccf";

std::string operator""_b(char const* s, std::size_t n) { return {s, n}; } // keeps NUL bytes

struct Case {
    char const* name;
    std::string in;
    std::size_t max;
    std::string out;
};

std::string const a60(60, 'a');

// clang-format off
std::vector<Case> const cases = {
    {"ASCII unchanged", "Smith, John (USA) 1-0 O-O e8=Q+ ?!", 60, "Smith, John (USA) 1-0 O-O e8=Q+ ?!"},
    {"empty", "", 60, ""},
    {"ESC sequence", "A\x1b]0;pwned\x07" "B", 60, "A\\x1b]0;pwned\\x07B"},
    {"CSI clear screen", "\x1b[2J\x1b[H", 60, "\\x1b[2J\\x1b[H"},
    {"BEL", "\a", 60, "\\x07"},
    {"CR LF TAB", "a\rb\nc\td", 60, "a\\rb\\nc\\td"},
    {"NUL and other C0", "\0\x01\x1f"_b, 60, "\\x00\\x01\\x1f"},
    {"DEL", "x\x7fy", 60, "x\\x7fy"},
    {"UTF-8 C1 control U+009B", "a\xc2\x9b" "b", 60, "a\\u009bb"},
    {"UTF-8 C1 U+0080 and U+009F", "\xc2\x80\xc2\x9f", 60, "\\u0080\\u009f"},
    {"lone 0x9B", "a\x9b" "b", 60, "a\\x9bb"},
    {"bidi override and line separator", "ab\xe2\x80\xae" "cd\xe2\x80\xa8", 60,
     "ab\\u202ecd\\u2028"},
    {"Cyrillic as is", "\xd0\x9a\xd0\xb0\xd1\x80\xd0\xbf\xd0\xbe\xd0\xb2", 60,
     "\xd0\x9a\xd0\xb0\xd1\x80\xd0\xbf\xd0\xbe\xd0\xb2"},
    {"figurines as is", "\xe2\x99\x98" "f3 \xe2\x99\x9e" "c6", 60, "\xe2\x99\x98" "f3 \xe2\x99\x9e" "c6"},
    {"accented UTF-8 as is", "M\xc3\xbcller, Andr\xc3\xa9", 60, "M\xc3\xbcller, Andr\xc3\xa9"},
    {"4-byte UTF-8 as is", "\xf0\x9f\x98\x80", 60, "\xf0\x9f\x98\x80"},
    {"Latin-1 name decoded", "M\xfcller", 60, "M\xc3\xbcller"},
    {"Latin-1 name with control", "Fran\xe7ois\x1b", 60, "Fran\xc3\xa7ois\\x1b"},
    {"Latin-1 mixed with UTF-8 is Latin-1", "\xc3\xa9\xe9", 60, "\xc3\x83\xc2\xa9\xc3\xa9"},
    {"not Latin-1 when a byte is 0x80-0x9F", "\xe9\x9b", 60, "\\xe9\\x9b"},
    {"overlong NUL", "a\xc0\x80" "b", 60, "a\\xc0\\x80b"},
    {"overlong slash", "\xe0\x80\xaf", 60, "\\xe0\\x80\\xaf"},
    {"surrogate", "\xed\xa0\x80", 60, "\\xed\\xa0\\x80"},
    {"past U+10FFFF", "\xf4\x90\x80\x80", 60, "\\xf4\\x90\\x80\\x80"},
    {"0xFF byte with C1", "\xff\x80", 60, "\\xff\\x80"},
    {"truncated at the end", "N\xe2\x99", 60, "N\\xe2\\x99"},
    {"backslash kept single", "Tournament \\", 60, "Tournament \\"},
    {"PGN escapes kept", "a \\\"b\\\" c", 60, "a \\\"b\\\" c"},
    {"backslash before x doubled", "\\x1b", 60, "\\\\x1b"},
    {"backslash before an escape doubled", "\\\x1b", 60, "\\\\\\x1b"},
    {"two backslashes", "\\\\", 60, "\\\\\\"},
    {"backslash n r t u", "\\n\\r\\t\\u", 60, "\\\\n\\\\r\\\\t\\\\u"},
    {"exactly 60 bytes: no cut", a60, 60, a60},
    {"61 bytes: cut", a60 + "b", 60, a60 + "..."},
    {"cut never inside a 2-byte char", std::string(59, 'a') + "\xd0\xb0" "b", 60,
     std::string(59, 'a') + "..."},
    {"a 2-byte char ending at the cut is kept", std::string(58, 'a') + "\xd0\xb0" "b", 60,
     std::string(58, 'a') + "\xd0\xb0..."},
    {"cut never inside a 3-byte char", std::string(58, 'a') + "\xe2\x99\x98" "b", 60,
     std::string(58, 'a') + "..."},
    {"cut counts input bytes", std::string(70, '\x1b'), 4, "\\x1b\\x1b\\x1b\\x1b..."},
    {"backslash before the cut", "ab\\xyz", 3, "ab\\..."},
    {"no cut", std::string(100, 'z') + "\n", no_cut, std::string(100, 'z') + "\\n"},
};
// clang-format on

// Strict UTF-8 check (the test's own, independent of terminal.cpp): every sequence valid,
// shortest form, no surrogates, nothing past U+10FFFF, and no C1 control code point.
bool valid_utf8_without_c1(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
        if (n == 0 || c > 0xF4 || i + n > s.size()) return false;
        std::uint32_t cp = c & (0x7FU >> n);
        for (std::size_t k = 1; k < n; ++k) {
            auto const d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0U) != 0x80U) return false;
            cp = (cp << 6) | (d & 0x3FU);
        }
        std::uint32_t const min = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        if (cp <= 0x9F) return false; // C1
        i += n;
    }
    return true;
}

} // namespace

BOOST_AUTO_TEST_CASE(terminal_safe_table) {
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(c.name) {
            BOOST_TEST(terminal_safe(c.in, c.max) == c.out);
            std::string appended = "x:";
            append_terminal_safe(appended, c.in, c.max);
            BOOST_TEST(appended == "x:" + c.out);
            // Whatever the input, the output is printable: valid UTF-8, no C0, no DEL, no C1.
            auto const o = terminal_safe(c.in, c.max);
            BOOST_TEST(o.find_first_of("\x7f"_b + std::string("\0", 1) +
                                       "\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f"
                                       "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c"
                                       "\x1d\x1e\x1f") == std::string::npos);
            BOOST_TEST(valid_utf8_without_c1(o));
        }
    }
}

BOOST_AUTO_TEST_CASE(every_short_input_gives_printable_text) {
    // All two-byte inputs and all three-byte inputs led by a 3- or 4-byte sequence lead,
    // with the default cut and cuts inside them.
    long failures = 0;
    std::string first;
    auto check = [&](std::string const& in) {
        for (std::size_t max : {std::size_t{60}, std::size_t{1}, std::size_t{2}}) {
            auto const o = terminal_safe(in, max);
            bool ok = valid_utf8_without_c1(o);
            for (char ch : o) ok = ok && static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7F;
            if (!ok && failures++ == 0)
                first = terminal_safe(in, no_cut) + " max " + std::to_string(max);
        }
    };
    for (unsigned a = 0; a < 256; ++a)
        for (unsigned b = 0; b < 256; ++b) check({static_cast<char>(a), static_cast<char>(b)});
    for (unsigned a = 0xE0; a < 0x100; ++a)
        for (unsigned b = 0; b < 256; ++b)
            for (unsigned c = 0; c < 256; ++c)
                check({static_cast<char>(a), static_cast<char>(b), static_cast<char>(c)});
    BOOST_TEST(failures == 0, failures << " failures, the first: " << first);
}

BOOST_AUTO_TEST_CASE(a_16_mib_token_makes_a_short_line) {
    std::string big(16U << 20, 'x');
    BOOST_TEST(terminal_safe(big) == std::string(60, 'x') + "...");
    std::string hostile;
    for (int i = 0; i < (1 << 20); ++i) hostile += "\x1b[2J\x9b\xc2\x9b\xd0\xb0";
    auto const o = terminal_safe(hostile);
    BOOST_TEST(o.size() <= 4U * 60 + 3);
    BOOST_TEST(o.starts_with("\\x1b[2J\\x9b\\u009b\xd0\xb0"));
    BOOST_TEST(o.ends_with("..."));
}

BOOST_AUTO_TEST_CASE(messages_cut_the_quoted_token_and_escape_the_rest) {
    std::string const token = "$" + std::string(1000, '9');
    std::string m;
    append_terminal_safe_message(m, "NAG " + token + " is out of range 0-255; ignored", token);
    BOOST_TEST(m == "NAG $" + std::string(59, '9') + "... is out of range 0-255; ignored");
    m.clear();
    append_terminal_safe_message(m, "unknown annotation symbol '\x1b[1m'; kept as a comment",
                                 "\x1b[1m");
    BOOST_TEST(m == "unknown annotation symbol '\\x1b[1m'; kept as a comment");
    m.clear(); // ordinary wording is unchanged, backslash included
    append_terminal_safe_message(
        m, "tag value ends in an unescaped '\\'; taken as part of the value", "Tournament \\");
    BOOST_TEST(m == "tag value ends in an unescaped '\\'; taken as part of the value");
    m.clear(); // without the token in it: escaped and cut at 200
    append_terminal_safe_message(m, std::string(300, 'w') + "\x07", "zz");
    BOOST_TEST(m == std::string(200, 'w') + "...");
}

// --- end to end: the executable on hostile input --------------------------------------------

BOOST_AUTO_TEST_CASE(hostile_input_reaches_standard_error_escaped_and_short) {
    // Over 3 % control bytes in its head makes the input "binary": pad the first game.
    std::string const pad = "{" + std::string(2000, 'p') + "}\n";
    std::string pgn;
    // An xterm title sequence in White, a Latin-1 Black, a UTF-8 C1 CSI in a move token.
    pgn += "[Event \"one\"]\n[White \"A\x1b]0;pwned\x07"
           "B\"]\n[Black \"M\xfcller\"]\n\n" +
           pad +
           "1. e4 e5 2. Nf3\xc2\x9b"
           "2J Nc6 *\n\n";
    // A Cyrillic White (as is), a lone 8-bit CSI in a move token.
    pgn += "[Event \"two\"]\n[White \"\xd0\x9a\xd0\xb0\xd1\x80\xd0\xbf\xd0\xbe\xd0\xb2\"]\n\n"
           "1. e4 e5 2. Nf3\x9b Nc6 *\n\n";
    // ESC and BEL in the Result tag (not a result: written as the game's own, 0-1).
    pgn += "[Event \"three\"]\n[Result \"1-0\x1b[2J\x07\"]\n\n1. e4 e5 0-1\n\n";
    // A 1 MiB White name and a 1 MiB move token.
    pgn += "[Event \"four\"]\n[White \"" + std::string(1 << 20, 'W') + "\"]\n\n1. e4 " +
           std::string(1 << 20, 'a') + " *\n\n";
    // A 1 MiB NAG and a 1 MiB unknown glyph (the grammar's messages quote them).
    pgn += "[Event \"five\"]\n\n1. e4 $" + std::string(1 << 20, '9') + " e5 " +
           std::string(1 << 20, '~') + " *\n\n";
    // Control bytes in the Variant and FEN values, an unterminated tag value.
    pgn += "[Event \"six\"]\n[Variant \"crazy\x1b[31mhouse\"]\n\n1. e4 *\n\n";
    pgn += "[Event \"seven\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 x\x1b[2J\"]\n\n1. Kb1 *\n\n";
    pgn += "[Event \"eight\"]\n[Site \"abc\x1b[2J\x07\r\n\n1. e4 *\n\n";
    // The file name holds an ESC sequence and BEL too.
    pgn_iccf::test::TempFolder const dir("terminal");
    fs::path const file = dir / "hostile\x1b]0;x\x07name.pgn";
    std::ofstream(file, std::ios::binary) << pgn;

    auto const r = pgn_iccf::test::sh("'" + bin + "' -q " + pgn_iccf::test::shell_quote(file) +
                                      " 2>&1 >/dev/null");
    BOOST_TEST(r.status == 1); // errors: games rejected
    std::string const& err = r.out;
    // No control byte but the line ends, no DEL, no C1 and no invalid UTF-8.
    for (std::size_t i = 0; i < err.size(); ++i) {
        auto const c = static_cast<unsigned char>(err[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7F) {
            BOOST_ERROR("control byte " << int(c) << " at offset " << i);
            break;
        }
    }
    BOOST_TEST(valid_utf8_without_c1(err));

    // Standard error, whole. Lines as the input above lays them out (each game: its tags, a
    // blank line, its moves, a blank line; game 1 has the padding comment before its moves).
    // A tag's problem is at its name; a FEN's and an unterminated value's at the value. Names
    // and tokens are escaped and cut at 60 bytes plus "...", the Latin-1 Black comes as UTF-8,
    // the Cyrillic White as it is; the file name is escaped too.
    std::string const lines[] = {
        "6:13: error: game 1 (A\\x1b]0;pwned\\x07B - M\xc3\xbcller), move 2.: 'Nf3\\u009b2J': "
        "not a move in SAN, long algebraic or numeric notation",
        "11:13: error: game 2 (\xd0\x9a\xd0\xb0\xd1\x80\xd0\xbf\xd0\xbe\xd0\xb2 - ?), move 2.: "
        "'Nf3\\x9b': unknown annotation glyph '\\x9b' after the move (not one of the NAG table)",
        "14:10: warning: game 3: Result tag \"1-0\\x1b[2J\\x07\" is not a result (1-0, 0-1, "
        "1/2-1/2, *); written as \"0-1\"",
        "21:7: error: game 4 (" + std::string(60, 'W') + "... - ?), move 1...: '" +
            std::string(60, 'a') + "...': not a move in SAN, long algebraic or numeric notation",
        "25:7: warning: game 5: '$" + std::string(59, '9') + "...': NAG $" + std::string(59, '9') +
            "... is out of range 0-255; ignored",
        // 1 048 588: 6 bytes "1. e4 ", the NAG's 1 + 2^20, " e5 ", then the symbol.
        "25:1048588: warning: game 5: '" + std::string(60, '~') +
            "...': unknown annotation symbol '" + std::string(60, '~') + "...'; kept as a comment",
        "28:11: error: game 6: variant 'crazy\\x1b[31mhouse' is not chess; the game is not "
        "converted",
        "33:7: error: game 7: '8/8/8/8/8/8/8/K6k w - - 0 x\\x1b[2J': invalid FEN: invalid FEN "
        "fullmove number 'x\\x1b[2J'",
        "38:7: error: game 8: '\"abc\\x1b[2J\\x07': unterminated tag value: no closing '\"' "
        "followed by ']' on the line",
    };
    std::string expected;
    for (auto const& line : lines)
        expected += dir.str() + "/hostile\\x1b]0;x\\x07name.pgn:" + line + "\n";
    BOOST_TEST(err == expected);
}
