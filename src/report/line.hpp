// The one line shape of a diagnostic, as text or as JSON:
//   FILE:LINE:COL: SEVERITY: game N (White - Black), move M.: 'token': message
//   {"file":"FILE","line":LINE,"column":COL,"severity":"error","code":"...","game":N,
//    "players":{"white":"...","black":"..."},"move":"12...","token":"...","text":"...",
//    "suggestions":[{"numeric":"5254","san":"e4"}]}
// The text line quotes input through terminal.hpp (file escaped and never cut; players and token
// escaped and cut at quoted_bytes). The JSON object holds the input's bytes whole, JSON-escaped
// by append_json_string; its "text" is the message part of the text line, word for word.
#pragma once

#include "chess/types.hpp"
#include "grammar/syntax.hpp"
#include "pgn/problem.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::report {

// How diagnostics are written (--diagnostics).
enum class Format : std::uint8_t { text, json };

// One diagnostic in parts.
struct Line {
    std::string_view file; // the input's name as the user gave it
    syntax::Severity severity = syntax::Severity::error;
    syntax::Location where;
    std::uint64_t game = 0;        // 1-based; 0: not in a game ("text between games")
    std::string_view white, black; // raw tag values (PGN escapes undone here); "" when absent
    int move_number = 0;           // 0: not at a move
    chess::Color side = chess::Color::white;
    std::string_view token;                                   // the input quoted ("" for none)
    std::string_view code;                                    // stable snake_case name
    std::string_view text;                                    // the message, terminal-safe
    std::vector<pgn::NamedMove> const* suggestions = nullptr; // "did you mean" moves
};

// Appends the line (ending in '\n') in the format. Returns where, in `out`, the text format's
// "game N (White - Black), move M.: 'token': text" starts (after "FILE:LINE:COL: SEVERITY: "),
// or the JSON object's start.
std::size_t append_line(std::string& out, Line const& line, Format format);

// Appends `bytes` as a JSON string, quotes included. Valid UTF-8 is kept as is (U+2028 and
// U+2029 as \u2028, \u2029); '"' and '\' are escaped; control characters as \n, \r, \t or
// \u00XX (DEL too); every byte that is not part of valid UTF-8 is read as Latin-1 and written
// \u00XX (0xfc -> \u00fc, "ü"), so the output is always valid JSON and valid UTF-8.
void append_json_string(std::string& out, std::string_view bytes);

} // namespace pgn_iccf::report
