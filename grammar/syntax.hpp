// Plain token views and diagnostics produced by the PGN reader (the syntax of a game, not a
// tree). No Spirit here: every layer may include it.
//
// Tokens are views into the reader's buffer: valid during the visitor call that receives
// them (and, for a RawGame, until the reader is asked for the next game).
#pragma once

#include <cstdint>
#include <optional>
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

// What a diagnostic of the grammar is about: a code, never words. src/report words each one
// (report::syntax_message) and folds repeated warnings by it. Errors end the game; warnings
// say what was read instead. Keep `count` last: tests loop over every value.
enum class SyntaxCode : std::uint8_t {
    // Errors at an expectation point: the rule's ID class names its code (pgn_def.hpp).
    expected_tag_name,
    expected_tag_value,
    expected_tag_close,
    expected_movetext,
    expected_variation_close,
    expected_element, // a move, comment, variation or result (also where the game stops early)
    // Errors where the game should end but does not (unexpected_before_end).
    expected_end_after_result,
    unmatched_variation_close, // ')' without '(' where the game must end
    tag_in_movetext,           // '[' inside the movetext
    // Errors found by the primitives.
    unterminated_tag_value,
    unterminated_comment,
    expected_nag_number,
    depth_exceeded, // Diagnostic::limit: the bound
    not_a_game,
    // Warnings.
    unknown_suffix,        // an unknown move annotation ("!!!")
    unknown_glyph,         // kept as a comment
    glued_periods_move,    // `38. ...Kf3`
    glued_periods_result,  // `38. ...1-0`
    unquoted_tag_value,    // read up to the ']'
    unescaped_quote,       // inside a tag value
    missing_closing_quote, // the tag value ends at the ']' ending the line
    trailing_backslash,    // the tag value ends in an unescaped '\'
    nag_out_of_range,
    stray_variation_close, // ')' without '(': ignored
    stray_comment_close,   // '}' without '{': ignored
    stray_tag_close,       // ']' without '[': ignored
    result_in_variation,
    short_draw, // "1/2"
    forfeit_result,
    text_after_result,
    variation_close_after_result,
    no_result,
    count // not a code: the number of codes
};

// One problem found in the input. The reader never throws and never prints: diagnostics
// are values handed to the visitor. No file, no game, no words: the caller knows the file
// and the game, and src/report words the code.
struct Diagnostic {
    SyntaxCode code = SyntaxCode::expected_element;
    Severity severity = Severity::error;
    Location where;
    std::string token;       // the offending text (may be empty: at the end of the game)
    std::uint32_t limit = 0; // depth_exceeded: the nesting bound
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

// --- PGN facts with one home (REVIEW 3.2) -------------------------------------------------

// The results of a game (§8.2.6) and the non-standard spellings real files use for them: one
// table for the grammar's warnings, the replay's Result tag checks, the termination marker
// written and the cutter's result lines. scan::match_result finds them in the bytes by this
// table; scan::result_length, its fast form, finds the same (grammar_test).
// A spelling comes before the shorter ones it starts with ("1/2-1/2" before "1/2").
enum class Outcome : std::uint8_t { white_wins, black_wins, draw, unknown };
enum class Spelling : std::uint8_t {
    standard,   // 1-0, 0-1, 1/2-1/2, *
    short_draw, // 1/2 (old files)
    half_signs, // ½-½
    forfeit,    // (+)-(-), (-)-(+): ICCF and correspondence archives
};
struct Result {
    Outcome outcome = Outcome::unknown;
    Spelling spelling = Spelling::standard;
};
struct ResultSpelling {
    std::string_view text;
    Result result;
};
inline constexpr ResultSpelling result_spellings[] = {
    {"1-0", {Outcome::white_wins, Spelling::standard}},
    {"0-1", {Outcome::black_wins, Spelling::standard}},
    {"1/2-1/2", {Outcome::draw, Spelling::standard}},
    {"*", {Outcome::unknown, Spelling::standard}},
    {"1/2", {Outcome::draw, Spelling::short_draw}},
    {"\xC2\xBD-\xC2\xBD", {Outcome::draw, Spelling::half_signs}},
    {"(+)-(-)", {Outcome::white_wins, Spelling::forfeit}},
    {"(-)-(+)", {Outcome::black_wins, Spelling::forfeit}},
};

// The result `text` spells, if it is one (whole).
constexpr std::optional<Result> read_result(std::string_view text) {
    for (ResultSpelling const& s : result_spellings)
        if (s.text == text) return s.result;
    return std::nullopt;
}

// The standard spelling of an outcome: "1-0", "0-1", "1/2-1/2" or "*".
constexpr std::string_view result_text(Outcome o) {
    switch (o) {
    case Outcome::white_wins:
        return "1-0";
    case Outcome::black_wins:
        return "0-1";
    case Outcome::draw:
        return "1/2-1/2";
    default:
        return "*";
    }
}

// The spellings of a null move that are read (the grammar delivers the ones without letters
// or digits as move tokens; the replay plays every one); the first is the one written
// (notation::null_move_text).
// UCI's null move, the one spelling made of digits (the grammar reads it as a move, never as a
// move number).
inline constexpr std::string_view uci_null_move = "0000";
inline constexpr std::string_view null_move_spellings[] = {"--", "---", "Z0", uci_null_move};

constexpr bool is_null_move_spelling(std::string_view text) {
    for (std::string_view s : null_move_spellings)
        if (s == text) return true;
    return false;
}

// What ended a game, for end_game.
struct GameEnd {
    bool syntax_error = false; // a diagnostic of severity error was issued for this game
    bool has_result = false;   // a result token closed the movetext
};

} // namespace pgn_iccf::syntax
