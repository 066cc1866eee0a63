// The wording of the replay's problems (wording.hpp): each Problem's message from its facts,
// its code name, and the diagnostic lines of a game in compiler style.
#include "report/wording.hpp"

#include "report/codes.hpp"
#include "report/line.hpp"
#include "report/terminal.hpp"

#include <string>
#include <variant>

namespace pgn_iccf::report {

namespace {

using notation::ReadError;
using pgn::Problem;
using pgn::ProblemKind;

// An invalid FEN is quoted whole up to this many bytes (a real one is at most about 90).
constexpr std::size_t fen_bytes = 100;

// "1-0, 0-1, 1/2-1/2, *": the results an export may write, in the table's spellings.
std::string standard_results() {
    using syntax::Outcome;
    std::string s;
    for (Outcome o : {Outcome::white_wins, Outcome::black_wins, Outcome::draw, Outcome::unknown}) {
        if (!s.empty()) s += ", ";
        s += syntax::result_text(o);
    }
    return s;
}

// A square as the token that named it wrote it: "54" in numeric tokens, "e4" otherwise.
void append_square(std::string& s, chess::Square sq, bool numeric) {
    s += numeric ? sq.numeric_name() : sq.name();
}

// "5254 (e4), 6254 (f4) or 5264 (e6)"
void append_moves_both(std::string& s, std::vector<pgn::NamedMove> const& moves) {
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (i) s.append(i + 1 == moves.size() ? " or " : ", ");
        s.append(moves[i].numeric.view());
        s.append(" (");
        s.append(moves[i].san.view());
        s.push_back(')');
    }
}

// What reading the move found (see Problem's move fields).
void word_read_error(std::string& msg, pgn::MoveFacts const& p, chess::Color side, Voice voice) {
    bool const white = side == chess::Color::white;
    bool const numeric = p.numeric;
    if (!p.digits.empty()) { // a numeric move written with separators, its digits no move
        msg.append("read as ");
        msg.append(p.digits);
        msg.append(" (a numeric move has no separator): ");
    }
    switch (p.error) {
    case ReadError::invalid_syntax:
        if (p.separated)
            msg.append("a numeric move is written as its digits alone, without a separator");
        else
            msg.append(numeric ? "not a numeric move (four digits 1-8, and a fifth, 1-4, for a "
                                 "promotion) nor the number of this move"
                               : "not a move in SAN, long algebraic or numeric notation");
        break;
    case ReadError::unknown_piece_letter:
        msg.append("unknown piece letter for input language '");
        msg.append(p.language);
        msg.append("' (see ");
        msg.append(setting_name(Setting::input_lang, voice));
        msg.push_back(')');
        break;
    case ReadError::no_piece:
        msg.append("no ");
        if (p.from.ok()) {
            msg.append(numeric ? "piece" : piece_name(p.piece));
            msg.append(" on ");
            append_square(msg, p.from, numeric);
        } else {
            msg.append(piece_name(p.piece));
            msg.append(" can move to ");
            if (p.to.ok()) append_square(msg, p.to, false);
        }
        break;
    case ReadError::wrong_color:
        msg.append("the piece on ");
        append_square(msg, p.from, numeric);
        msg.append(white ? " is Black's; White is to move" : " is White's; Black is to move");
        break;
    case ReadError::illegal:
        if (numeric && p.from.ok() && p.to.ok() && p.piece_on_from != chess::PieceType::none) {
            msg.append("the ");
            msg.append(piece_name(p.piece_on_from));
            msg.append(" on ");
            append_square(msg, p.from, true);
            msg.append(" cannot move to ");
            append_square(msg, p.to, true);
        } else if (!numeric && p.piece != chess::PieceType::none && p.to.ok()) {
            msg.append("no ");
            msg.append(piece_name(p.piece));
            msg.append(" can legally move to ");
            append_square(msg, p.to, false);
        } else {
            msg.append("not a legal move here");
        }
        if (p.in_check) msg.append(white ? " (White is in check)" : " (Black is in check)");
        break;
    case ReadError::ambiguous:
        msg.append("ambiguous: could be ");
        for (std::size_t i = 0; i < p.candidates.size(); ++i) {
            if (i) msg.append(i + 1 == p.candidates.size() ? " or " : ", ");
            msg.append(p.candidates[i].san.view());
        }
        break;
    case ReadError::promotion_missing:
        msg.append(numeric ? "a pawn reaching the last rank needs a fifth digit (1 queen, 2 "
                             "rook, 3 bishop, 4 knight)"
                           : "a pawn reaching the last rank needs a promotion piece (=Q, =R, "
                             "=B, =N)");
        if (p.short_promotion) {
            msg.append("; it is legal as the non-standard four-digit promotion form, which ");
            msg.append(setting_name(Setting::iccf_short_promotion, voice));
            msg.append(" accepts");
        }
        break;
    case ReadError::promotion_not_allowed:
        msg.append(numeric ? "a fifth digit (promotion) on a move that is no promotion"
                           : "a promotion piece on a move that is no promotion");
        break;
    case ReadError::bad_square:
        msg.append(numeric ? "digits 0 and 9 name no square (files and ranks are 1-8)"
                           : "not a square of the board");
        break;
    default:
        msg.append(read_error_words(p.error));
        break;
    }
}

// What happens after an unplayable move: corrected, suggestions, assumed, variation cut.
void word_outcome(std::string& msg, pgn::MoveFacts const& p, Voice voice) {
    if (p.corrected) {
        pgn::NamedMove const& m = p.suggestions.front();
        msg.append("; corrected to ");
        msg.append(m.numeric.view());
        msg.append(" (");
        msg.append(m.san.view());
        msg.append(p.exact ? "), the move its digits name ("
                           : "), the only legal move one edit away (");
        msg.append(setting_name(Setting::fix_typos, voice));
        msg.push_back(')');
        return;
    }
    if (!p.suggestions.empty()) {
        msg.append("; did you mean ");
        append_moves_both(msg, p.suggestions);
        msg.push_back('?');
    }
    if (p.assumed) {
        msg.append(" (checking the rest of the game as if ");
        msg.append(p.suggestions.front().numeric.view());
        msg.append(" had been written)");
    }
    if (p.cut)
        msg.append(p.rest_kept ? "; the variation is cut here and its rest kept in a comment"
                               : "; the variation is cut here and its rest left out (comments "
                                 "are left out)");
}

// What reading the move found, then what happens next (see Problem's move fields).
void word_unplayable(std::string& msg, pgn::MoveFacts const& p, chess::Color side, Voice voice) {
    if (p.null_in_check) {
        msg.append("a null move is not possible while in check");
    } else if (!p.glyph.empty()) {
        msg.append("unknown annotation glyph '");
        append_terminal_safe(msg, p.glyph);
        msg.append("' after the move (not one of the NAG table)");
    } else {
        word_read_error(msg, p, side, voice);
    }
    word_outcome(msg, p, voice);
}

// The message of `p`, after the quoted token: a visit of its facts.
struct MessageOf {
    Problem const& p;
    Voice voice;

    std::string operator()(std::monostate) const {
        switch (p.kind) {
        case ProblemKind::variation_after_unplayable:
            return "variation after an unplayable move kept only as '(...)' in the comment";
        case ProblemKind::nested_variation:
            return "variation directly inside a variation, before its first move; read as "
                   "another variation of the same move";
        case ProblemKind::variation_without_move:
            return "a variation must follow the move it replaces";
        case ProblemKind::empty_variation:
            return "variation without a move left out (no reader accepts '()'); a comment or NAG "
                   "in it is kept after the move before it";
        default:
            return {};
        }
    }
    std::string operator()(pgn::SyntaxFacts const& f) const {
        // The wording may quote the token ("unknown annotation symbol '<token>'").
        std::string m;
        append_terminal_safe_message(
            m, syntax_message(f.code, p.token, p.where, std::uint32_t(f.limit)), p.token);
        return m;
    }
    std::string operator()(pgn::LimitFacts const& f) const { // too_many_tags
        return "more than " + std::to_string(f.limit) + " tag pairs; the game is not converted";
    }
    std::string operator()(pgn::TagFacts const& f) const {
        switch (p.kind) {
        case ProblemKind::variant_not_chess:
            return "variant '" + terminal_safe(f.value) +
                   "' is not chess; the game is not converted";
        case ProblemKind::forfeit_result_tag: // the tag is one of two forfeit spellings
            return "forfeit Result tag \"" + f.value + "\" read as " + f.read_as +
                   "; written as \"" + f.written_as + "\"";
        case ProblemKind::result_tag_not_result:
            return "Result tag \"" + terminal_safe(f.value) + "\" is not a result (" +
                   standard_results() + "); written as \"" + f.written_as + "\"";
        default: // result_differs
            return "result differs from the Result tag \"" + terminal_safe(f.value) +
                   "\"; the Result tag is written as \"" + f.written_as + "\"";
        }
    }
    std::string operator()(pgn::FenFacts const& f) const {
        // Quoted here rather than as the token, to cut it at fen_bytes, not quoted_bytes;
        // the error may quote a field of it.
        std::string m = "'" + terminal_safe(f.fen, fen_bytes) + "': invalid FEN: ";
        append_terminal_safe(m, fen_message({f.error.code, f.error.rank, f.field}), message_bytes);
        return m;
    }
    std::string operator()(pgn::MoveFacts const& f) const {
        std::string m;
        word_unplayable(m, f, p.side, voice);
        return m;
    }
    std::string operator()(pgn::PromotionFacts const& f) const {
        std::string m = p.kind == ProblemKind::periods_after_move
                            ? "a period after a numeric move (not the number of this move); "
                              "read as "
                            : "non-standard four-digit promotion read as "; // short_promotion
        m.append(f.read_as.numeric.view());
        m.append(" (");
        m.append(f.read_as.san.view());
        m.push_back(')');
        return m;
    }
    std::string operator()(pgn::CheckMarkFacts const& f) const {
        if (f.check) return "'#' on a move that gives check but not mate: read as '+'";
        return f.mark == '#' ? "'#' on a move that gives no check: left out"
                             : "'+' on a move that gives no check: left out";
    }
    std::string operator()(pgn::LanguageFacts const& f) const {
        if (p.kind == ProblemKind::read_in_another_language)
            return "not a move in English; the game is read with the piece letters of " +
                   f.languages + " (" + setting_value(Setting::input_lang, "auto", voice) + ")";
        // languages_disagree
        std::string m = "read as ";
        m.append(f.read_as.san.view());
        m.append(" with the piece letters of " + f.languages + " and as ");
        m.append(f.other_read_as.san.view());
        m.append(" with those of " + f.other_languages +
                 "; the game is not converted (name its language with ");
        m.append(setting_name(Setting::input_lang, voice));
        m.push_back(')');
        return m;
    }
};

} // namespace

std::string_view read_error_words(notation::ReadError e) {
    switch (e) {
    case notation::ReadError::none:
        return "ok";
    case notation::ReadError::invalid_syntax:
        return "not a move";
    case notation::ReadError::unknown_piece_letter:
        return "unknown piece letter";
    case notation::ReadError::no_piece:
        return "no such piece";
    case notation::ReadError::illegal:
        return "illegal move";
    case notation::ReadError::ambiguous:
        return "ambiguous move";
    case notation::ReadError::promotion_missing:
        return "promotion piece missing";
    case notation::ReadError::promotion_not_allowed:
        return "promotion on a move that is no promotion";
    case notation::ReadError::bad_square:
        return "no such square";
    case notation::ReadError::wrong_color:
        return "piece of the side not to move";
    }
    return "?";
}

std::string_view piece_name(chess::PieceType t) {
    switch (t) {
    case chess::PieceType::pawn:
        return "pawn";
    case chess::PieceType::knight:
        return "knight";
    case chess::PieceType::bishop:
        return "bishop";
    case chess::PieceType::rook:
        return "rook";
    case chess::PieceType::queen:
        return "queen";
    case chess::PieceType::king:
        return "king";
    case chess::PieceType::none:
        break;
    }
    return "piece";
}

std::string_view kind_of(Problem const& p) { return fold_wording(fold_key(p)); }

std::string message(Problem const& p, Voice voice) {
    std::string m;
    if (!p.read_furthest.empty()) {
        m.append("no language plays every move; read furthest with the piece letters of ");
        m.append(p.read_furthest);
        m.append(" (" + std::to_string(p.furthest_moves) +
                 (p.furthest_moves == 1 ? " move" : " moves") + " played, " +
                 setting_value(Setting::input_lang, "auto", voice) + "): ");
    }
    m.append(std::visit(MessageOf{p, voice}, p.facts));
    return m;
}

std::string_view code_name(Problem const& p) {
    auto const* syntax = std::get_if<pgn::SyntaxFacts>(&p.facts);
    return syntax != nullptr ? syntax_code_name(syntax->code) : problem_kind_name(p.kind);
}

std::size_t word(Problem const& p, pgn::GameReport const& game, std::string_view file,
                 std::string& out, Format format, Voice voice) {
    std::string const text = message(p, voice);
    Line line;
    line.file = file;
    line.severity = p.severity;
    line.where = p.where;
    line.game = game.game;
    line.white = p.white;
    line.black = p.black;
    line.move_number = p.move_number;
    line.side = p.side;
    line.token = p.token;
    line.code = code_name(p);
    line.text = text;
    if (auto const* move = std::get_if<pgn::MoveFacts>(&p.facts))
        line.suggestions = &move->suggestions;
    return append_line(out, line, format);
}

void word_all(pgn::GameReport const& r, std::string_view file, std::string& out,
              std::vector<MessageLine>& lines, Format format) {
    for (Problem const& p : r.problems) {
        std::size_t const text = word(p, r, file, out, format);
        lines.push_back({fold_key(p), out.size(), p.severity, p.where, text});
    }
}

} // namespace pgn_iccf::report
