// Diagnostics of the replay as values: what is wrong, where, in which game, at which move,
// with the token, the candidates and the suggestions, but no wording. The batch layer words
// them (src/report/wording.hpp), so that the library never names a command-line flag; the
// grammar's own diagnostics (syntax::Diagnostic) come through as ProblemKind::syntax with
// the grammar's code.
#pragma once

#include "chess/position.hpp"
#include "chess/types.hpp"
#include "grammar/syntax.hpp"
#include "notation/notation.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::pgn {

enum class ProblemKind : std::uint8_t {
    syntax,                     // the grammar's diagnostic: syntax_code; count: its limit
    too_many_tags,              // count: the bound
    variant_not_chess,          // text: the Variant tag's kind (variant_kind)
    invalid_fen,                // text: the FEN; fen: what is wrong with it, detail: its field
    unplayable_move,            // a move that cannot be played: see the move fields
    short_promotion,            // a four-digit promotion read: read_as
    variation_after_unplayable, // kept as "(...)" in the broken line's comment
    nested_variation,           // "( (": read as another variation of the same move
    variation_without_move,     // a '(' before any move of its line: the game is rejected
    empty_variation,            // a variation without a move, left out
    forfeit_result_tag,         // text: the tag, detail: what it is read as; written_as
    result_tag_not_result,      // text: the tag; written_as
    result_differs,             // token: the movetext result; text: the tag; written_as
    read_in_another_language,   // token: English's first failure; languages
    languages_disagree,         // token: the first move read differently; read_as, languages,
                                // other_read_as, other_languages
    count                       // not a kind: the number of kinds (tests loop over every value)
};

// A move named in a diagnostic, in the two notations messages use.
struct NamedMove {
    notation::MoveText numeric, san;
};

// `m`, legal in `pos`, named in both (write_san plays and takes back: `pos` is left as it was).
inline NamedMove named(chess::Position& pos, chess::Move m) {
    return {notation::write_numeric(pos, m), notation::write_san(pos, m)};
}

struct Problem {
    ProblemKind kind = ProblemKind::syntax;
    syntax::Severity severity = syntax::Severity::error;
    syntax::Location where;
    // The raw values of the game's White and Black tags read before the problem was found
    // (views into the game's bytes): a problem in the tag section names the players so far.
    std::string_view white, black;
    // The move the problem is at ("move 12..."): 0 when the problem is not at a move.
    int move_number = 0;
    chess::Color side = chess::Color::white;
    std::string token; // the input text quoted (may be empty)
    std::string text, detail;
    syntax::SyntaxCode syntax_code = syntax::SyntaxCode::expected_element; // syntax
    // invalid_fen: the FenError, its field copied to detail (fen.field is not kept).
    chess::FenError fen{};
    std::size_t count = 0; // too_many_tags; syntax: Diagnostic::limit; with read_furthest,
                           // the moves played
    // --input-lang auto, no language read every move: on the first error of the reading that
    // played the most moves (not English's), the codes of the languages that read as far
    // ("ca, es, it").
    std::string read_furthest;
    std::string written_as; // the result written (result problems)
    NamedMove read_as{}, other_read_as{};
    std::string languages, other_languages; // language codes, ", "-separated

    // unplayable_move: what reading the token found (notation::ReadResult), and what
    // happens next.
    notation::ReadError error = notation::ReadError::none;
    bool null_in_check = false;   // a null move while in check (error is then none)
    bool numeric = false;         // the token is all digits
    bool in_check = false;        // the side to move is in check
    bool short_promotion = false; // legal as the non-standard four-digit promotion form
    chess::PieceType piece = chess::PieceType::none;         // the piece the token names
    chess::PieceType piece_on_from = chess::PieceType::none; // what stands on `from`
    chess::Square from{}, to{};
    std::string_view language; // the code of the letters the token was read with
    std::string glyph;         // non-ASCII bytes after a move that reads: no glyph of the NAG table
    std::vector<NamedMove> candidates;  // ambiguous: every move the token could be
    std::vector<NamedMove> suggestions; // numeric: the legal moves one edit away
    bool corrected = false;             // replaced by the only suggestion (a warning)
    bool assumed = false;               // the rest is checked as if read_as had been written
    bool cut = false;                   // in a variation: cut here (a warning)
    bool rest_kept = false;             // ... and its rest kept in a comment
};

} // namespace pgn_iccf::pgn
