// Plain token views and diagnostics produced by the PGN reader (the syntax of a game, not a
// tree). No Spirit here: every layer may include it.
//
// Tokens are views into the reader's buffer: valid during the visitor call that receives
// them (and, for a RawGame, until the reader is asked for the next game).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pgn_iccf::syntax {

// A place in an input file: byte offset from the start of the file (64-bit, files over
// 4 GiB work), 1-based line and 1-based column (in bytes).
struct Location {
    std::uint64_t offset = 0;
    std::uint32_t line = 1;
    std::uint32_t column = 1;
};

struct Token {
    std::string_view text;
    Location where;
};

enum class Severity : std::uint8_t { warning, error };

// One problem found in the input. The reader never throws and never prints: diagnostics
// are values handed to the visitor.
struct Diagnostic {
    Severity severity = Severity::error;
    std::string file; // input name as given by the user ("-" or "<stdin>" for stdin)
    Location where;
    std::uint64_t game = 0; // 1-based game number within the file (0: outside any game)
    std::string token;      // the offending text (may be empty)
    std::string message;    // what was expected, in words
    // A warning's kind: a short fixed wording shared by every warning of its kind ("game has
    // no result"), by which a run folds repeated warnings (src/batch). A string literal;
    // empty for errors.
    std::string_view kind;
};

// One game's exact source bytes as the splitter found them (from the first byte of its tag
// section or movetext up to and including its line end after the result, or up to the
// next game), for rejects files that reproduce the input byte for byte. The exact rules of
// which bytes belong to which game are in src/reader/splitter.hpp. Self-contained: `start`
// places it in its file, so it can be parsed anywhere once its bytes are copied.
struct RawGame {
    std::string_view bytes;
    Location start;           // where bytes begin in the file
    std::uint64_t number = 0; // 1-based within the file
};

enum class CommentKind : std::uint8_t { brace, rest_of_line };

// What ended a game, for end_game.
struct GameEnd {
    bool syntax_error = false; // a diagnostic of severity error was issued for this game
    bool has_result = false;   // a result token closed the movetext
};

} // namespace pgn_iccf::syntax
