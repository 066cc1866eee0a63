// Words for the grammar's codes: the sentences the grammar used to write itself, unchanged, so
// that every diagnostic line reads as before.
#include "report/codes.hpp"

namespace pgn_iccf::report {

namespace {

using syntax::SyntaxCode;

struct SyntaxWords {
    std::string_view name;    // syntax_code_name
    std::string_view message; // the fixed message, or its part before the quoted text
    std::string_view kind;    // syntax_kind
};

// Indexed by SyntaxCode: one row each, in the enum's order.
constexpr SyntaxWords syntax_words[] = {
    {"expected_tag_name", "expected a tag name", "expected a tag name"},
    {"expected_tag_value", "expected a tag value in double quotes",
     "expected a tag value in double quotes"},
    {"expected_tag_close", "expected ']' closing the tag pair",
     "expected ']' closing the tag pair"},
    {"expected_movetext", "expected movetext", "expected movetext"},
    {"expected_variation_close", "expected ')' closing the variation",
     "expected ')' closing the variation"},
    {"expected_element", "expected a move, comment, variation or result",
     "expected a move, comment, variation or result"},
    {"expected_end_after_result", "expected the end of the game after the result",
     "expected the end of the game after the result"},
    {"unmatched_variation_close", "')' without a matching '('", "')' without a matching '('"},
    {"tag_in_movetext", "'[' inside the movetext (a tag pair must start a line before the moves)",
     "'[' inside the movetext"},
    {"unterminated_tag_value",
     "unterminated tag value: no closing '\"' followed by ']' on the line",
     "unterminated tag value"},
    {"unterminated_comment", "unterminated comment: '{' at line ", "unterminated comment"},
    {"expected_nag_number", "expected a number after '$'", "expected a number after '$'"},
    {"depth_exceeded", "variation nesting deeper than ", "variation nesting too deep"},
    {"not_a_game", "no tag pair, move or result here: this is not a game", "not a game"},
    {"unknown_suffix", "unknown move annotation '", "unknown move annotation"},
    {"unknown_glyph", "unknown annotation symbol '", "unknown annotation symbol kept as a comment"},
    {"glued_periods_move", "move number periods written before the move '",
     "move number periods glued to the move"},
    {"glued_periods_result", "move number periods written before the result '",
     "move number periods glued to the result"},
    {"unquoted_tag_value", "tag value without quotes; read up to the ']'",
     "tag value without quotes"},
    {"unescaped_quote", "unescaped '\"' inside a tag value; taken as part of the value",
     "unescaped quote inside a tag value"},
    {"missing_closing_quote", "tag value has no closing '\"'; it ends at the ']' ending the line",
     "tag value without a closing quote"},
    {"trailing_backslash", "tag value ends in an unescaped '\\'; taken as part of the value",
     "tag value ending in a backslash"},
    {"nag_out_of_range", "NAG ", "NAG out of range"},
    {"stray_variation_close", "')' without a matching '('; ignored", "')' without a matching '('"},
    {"stray_comment_close", "'}' without a matching '{'; ignored", "'}' without a matching '{'"},
    {"stray_tag_close", "']' without a matching '['; ignored", "']' without a matching '['"},
    {"result_in_variation",
     "result inside a variation; ignored (the game's result ends the movetext)",
     "result inside a variation"},
    {"short_draw", "non-standard result '1/2'; read as 1/2-1/2", "non-standard result '1/2'"},
    {"forfeit_result", "forfeit result '", "forfeit result"},
    {"text_after_result", "text after the result; read as a comment", "text after the result"},
    {"variation_close_after_result", "')' after the result; ignored", "')' after the result"},
    {"no_result", "game has no result; it ends at the next tag section or the end of the input",
     "game has no result"},
};
static_assert(std::size(syntax_words) == std::size_t(SyntaxCode::count),
              "one row of syntax_words per SyntaxCode");

SyntaxWords const& words(SyntaxCode code) { return syntax_words[std::size_t(code)]; }

// The token without the move number periods glued before it (`...Kf3` -> `Kf3`).
std::string_view after_periods(std::string_view token) {
    std::size_t i = 0;
    while (i != token.size() && token[i] == '.') ++i;
    return token.substr(i);
}

} // namespace

std::string syntax_message(SyntaxCode code, std::string_view token, syntax::Location where,
                           std::uint32_t limit) {
    std::string m(words(code).message);
    switch (code) {
    case SyntaxCode::expected_tag_name:
    case SyntaxCode::expected_tag_value:
    case SyntaxCode::expected_tag_close:
    case SyntaxCode::expected_movetext:
    case SyntaxCode::expected_variation_close:
    case SyntaxCode::expected_element:
        // Nothing to quote: the expected element is missing at the end of the game.
        if (token.empty()) m += ", but the game ends here";
        break;
    case SyntaxCode::unterminated_comment:
        m += std::to_string(where.line) + " column " + std::to_string(where.column) +
             " is never closed";
        break;
    case SyntaxCode::depth_exceeded:
        m += std::to_string(limit);
        break;
    case SyntaxCode::unknown_suffix:
        m.append(token).push_back('\'');
        break;
    case SyntaxCode::unknown_glyph:
        m.append(token).append("'; kept as a comment");
        break;
    case SyntaxCode::glued_periods_move:
        m.append(after_periods(token)).append("'; read as the move");
        break;
    case SyntaxCode::glued_periods_result:
        m.append(after_periods(token)).append("'; read as the result");
        break;
    case SyntaxCode::nag_out_of_range:
        m.append(token).append(" is out of range 0-255; ignored");
        break;
    case SyntaxCode::forfeit_result:
        m.append(token).append("'; read as ");
        if (auto const r = syntax::read_result(token)) m.append(syntax::result_text(r->outcome));
        break;
    default:
        break;
    }
    return m;
}

std::string_view syntax_kind(SyntaxCode code) { return words(code).kind; }

std::string_view syntax_code_name(SyntaxCode code) { return words(code).name; }

namespace {

using chess::FenCode;

struct FenWords {
    std::string_view name;   // fen_code_name
    std::string_view before; // the message, or its part before the number or quoted field
    std::string_view after;  // its part after them
};

// Indexed by FenCode: one row each, in the enum's order.
constexpr FenWords fen_words[] = {
    {"ok", "", ""},
    {"too_few_fields", "FEN needs at least 4 fields (board, side, castling, en passant)", ""},
    {"too_many_fields", "FEN has more than 6 fields", ""},
    {"rank_short", "FEN rank ", " does not have 8 squares"},
    {"too_many_ranks", "FEN board has more than 8 ranks", ""},
    {"rank_long", "FEN rank ", " has more than 8 squares"},
    {"bad_board_character", "invalid character '", "' in FEN board"},
    {"not_8_ranks", "FEN board does not have 8 ranks of 8 squares", ""},
    {"white_kings", "FEN board has ", " white kings"},
    {"black_kings", "FEN board has ", " black kings"},
    {"pawn_on_back_rank", "FEN board has a pawn on the first or eighth rank", ""},
    {"bad_side", "FEN side to move must be 'w' or 'b'", ""},
    {"castling_king_off_rank", "castling right '", "' but the king is not on its first rank"},
    {"castling_king_in_corner", "castling right '", "' with the king in a corner"},
    {"castling_no_rook_on_side", "castling right '", "' without a rook on that side"},
    {"castling_no_rook_on_file", "castling right '", "' without a rook on that file"},
    {"castling_king_file", "castling right '", "' names the king's file"},
    {"bad_castling_character", "invalid character '", "' in FEN castling field"},
    {"duplicate_castling", "duplicate castling right '", "'"},
    {"opponent_in_check", "the side not to move is in check", ""},
    {"bad_halfmove_clock", "invalid FEN halfmove clock '", "'"},
    {"bad_fullmove_number", "invalid FEN fullmove number '", "'"},
    {"bad_en_passant", "invalid FEN en passant square '", "'"},
    {"en_passant_wrong_rank", "FEN en passant square '", "' is not on the "},
};
static_assert(std::size(fen_words) == std::size_t(FenCode::count),
              "one row of fen_words per FenCode");

} // namespace

std::string fen_message(chess::FenError const& e) {
    FenWords const& w = fen_words[std::size_t(e.code)];
    std::string m(w.before);
    switch (e.code) {
    case FenCode::rank_short:
    case FenCode::rank_long:
    case FenCode::white_kings:
    case FenCode::black_kings:
        m += std::to_string(e.rank);
        break;
    case FenCode::bad_board_character:
    case FenCode::castling_king_off_rank:
    case FenCode::castling_king_in_corner:
    case FenCode::castling_no_rook_on_side:
    case FenCode::castling_no_rook_on_file:
    case FenCode::castling_king_file:
    case FenCode::bad_castling_character:
    case FenCode::duplicate_castling:
    case FenCode::bad_halfmove_clock:
    case FenCode::bad_fullmove_number:
    case FenCode::bad_en_passant:
    case FenCode::en_passant_wrong_rank:
        m += e.field;
        break;
    default:
        break;
    }
    m += w.after;
    if (e.code == FenCode::en_passant_wrong_rank) m += e.rank == 6 ? "sixth rank" : "third rank";
    return m;
}

std::string_view fen_code_name(chess::FenCode code) { return fen_words[std::size_t(code)].name; }

} // namespace pgn_iccf::report
