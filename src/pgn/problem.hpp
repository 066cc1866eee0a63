// Diagnostics of the replay as values: what is wrong, where, in which game, at which move,
// with the token and the facts of its kind (a variant), but no wording. The batch layer words
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
#include <variant>
#include <vector>

namespace pgn_iccf::pgn {

enum class ProblemKind : std::uint8_t {
    syntax,                     // the grammar's diagnostic: SyntaxFacts
    too_many_tags,              // LimitFacts: the bound
    variant_not_chess,          // TagFacts: value, the Variant tag's kind (variant_kind)
    invalid_fen,                // FenFacts
    unplayable_move,            // a move that cannot be played: MoveFacts
    short_promotion,            // a four-digit promotion read: PromotionFacts
    variation_after_unplayable, // kept as "(...)" in the broken line's comment
    nested_variation,           // "( (": read as another variation of the same move
    variation_without_move,     // a '(' before any move of its line: the game is rejected
    empty_variation,            // a variation without a move, left out
    forfeit_result_tag,         // TagFacts: value, read_as, written_as
    result_tag_not_result,      // TagFacts: value, written_as
    result_differs,             // token: the movetext result; TagFacts: value, written_as
    read_in_another_language,   // token: English's first failure; LanguageFacts: languages
    languages_disagree,         // token: the first move read differently; LanguageFacts
    periods_after_move,         // `5254.` read as the move: PromotionFacts (the move)
    wrong_check_mark,           // `Bc4+` giving no check, `Qh5#` no mate: CheckMarkFacts
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

// The facts of each kind (ProblemKind's comments say which kind carries which).
struct SyntaxFacts {
    syntax::SyntaxCode code = syntax::SyntaxCode::expected_element;
    std::size_t limit = 0; // Diagnostic::limit
};
struct LimitFacts {
    std::size_t limit = 0;
};
struct TagFacts {
    std::string value;      // the tag's value (variant_not_chess: its kind)
    std::string read_as;    // forfeit_result_tag: the result it is read as
    std::string written_as; // result problems: the result written
};
struct FenFacts {
    std::string fen;
    chess::FenError error{}; // its field is copied to `field` (error.field is not kept)
    std::string field;
};
// unplayable_move: what reading the token found (notation::ReadResult), and what happens next.
struct MoveFacts {
    notation::ReadError error = notation::ReadError::none;
    bool null_in_check = false; // a null move while in check (error is then none)
    bool numeric = false;       // the token is all digits (but for check marks, `!`, `?`)
    bool separated = false;     // a numeric move written with separators (`52-54`)
    bool exact = false;         // ... whose digits name a legal move: the one suggestion
    std::string digits;    // ... whose digits name none: them (the fields above are their reading)
    bool in_check = false; // the side to move is in check
    bool short_promotion = false; // legal as the non-standard four-digit promotion form
    chess::PieceType piece = chess::PieceType::none;         // the piece the token names
    chess::PieceType piece_on_from = chess::PieceType::none; // what stands on `from`
    chess::Square from{}, to{};
    std::string_view language; // the code of the letters the token was read with
    std::string glyph;         // non-ASCII bytes after a move that reads: no glyph of the NAG table
    std::vector<NamedMove> candidates;  // ambiguous: every move the token could be
    std::vector<NamedMove> suggestions; // numeric: the legal moves one edit away
    bool corrected = false;             // replaced by the only suggestion (a warning)
    bool assumed = false;               // the rest is checked as if the suggestion had been written
    bool cut = false;                   // in a variation: cut here (a warning)
    bool rest_kept = false;             // ... and its rest kept in a comment
};
struct PromotionFacts { // short_promotion, periods_after_move: the move read
    NamedMove read_as;
};
// wrong_check_mark: the mark written ('+' or '#') and whether the move gives check (a '#' on a
// check that is not mate).
struct CheckMarkFacts {
    char mark = '+';
    bool check = false;
};
// --input-lang auto: the languages (codes, ", "-separated) whose letters read the game and,
// for languages_disagree, the first move both groups read differently, as each reads it.
struct LanguageFacts {
    std::string languages, other_languages;
    NamedMove read_as{}, other_read_as{};
};
using ProblemFacts = std::variant<std::monostate, SyntaxFacts, LimitFacts, TagFacts, FenFacts,
                                  MoveFacts, PromotionFacts, LanguageFacts, CheckMarkFacts>;

// The facts a problem of `kind` carries, default-valued.
inline ProblemFacts facts_of(ProblemKind kind) {
    switch (kind) {
    case ProblemKind::syntax:
        return SyntaxFacts{};
    case ProblemKind::too_many_tags:
        return LimitFacts{};
    case ProblemKind::variant_not_chess:
    case ProblemKind::forfeit_result_tag:
    case ProblemKind::result_tag_not_result:
    case ProblemKind::result_differs:
        return TagFacts{};
    case ProblemKind::invalid_fen:
        return FenFacts{};
    case ProblemKind::unplayable_move:
        return MoveFacts{};
    case ProblemKind::short_promotion:
    case ProblemKind::periods_after_move:
        return PromotionFacts{};
    case ProblemKind::read_in_another_language:
    case ProblemKind::languages_disagree:
        return LanguageFacts{};
    case ProblemKind::wrong_check_mark:
        return CheckMarkFacts{};
    default:
        return std::monostate{};
    }
}

// A problem: its kind, where, in which game and at which move, the token, and the kind's facts.
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
    ProblemFacts facts;
    // --input-lang auto, no language read every move: on the first error of the reading that
    // played the most moves (not English's), of whatever kind, the codes of the languages that
    // read as far ("ca, es, it") and the moves they played.
    std::string read_furthest;
    std::size_t furthest_moves = 0;
};

} // namespace pgn_iccf::pgn
