// Words and names of the fold keys: the kinds the summary counts warnings by.
#include "report/fold.hpp"

#include "report/codes.hpp"

namespace pgn_iccf::report {

namespace {

using pgn::ProblemKind;

struct KindWords {
    std::string_view name;
    std::string_view kind;
};

// Indexed by ProblemKind: one row each, in the enum's order. The warnings' wordings are the
// ones the summary has always printed; the errors' are never folded (there for completeness).
constexpr KindWords problem_words[] = {
    {"syntax", "PGN syntax"},
    {"too_many_tags", "too many tag pairs"},
    {"variant_not_chess", "variant that is not chess"},
    {"invalid_fen", "invalid FEN"},
    {"unplayable_move", "unplayable move in a variation, the variation cut"},
    {"short_promotion", "non-standard four-digit promotion"},
    {"variation_after_unplayable", "variation after an unplayable move kept as '(...)'"},
    {"nested_variation", "variation directly inside a variation"},
    {"variation_without_move", "variation before the move it replaces"},
    {"empty_variation", "variation without a move left out"},
    {"forfeit_result_tag", "forfeit result"},
    {"result_tag_not_result", "Result tag that is not a result"},
    {"result_differs", "result differs from the Result tag"},
    {"read_in_another_language", "game read in another language (--input-lang auto)"},
    {"languages_disagree", "game read differently in two languages"},
    {"periods_after_move", "numeric move followed by a period"},
    {"wrong_check_mark", "check or mate mark the position does not give"},
};
static_assert(std::size(problem_words) == problem_fold_keys, "one row per ProblemKind");

} // namespace

FoldKey fold_key(pgn::Problem const& p) {
    if (p.severity == syntax::Severity::error) return FoldKey::none;
    switch (p.kind) {
    case ProblemKind::syntax: {
        syntax::SyntaxCode const code = std::get<pgn::SyntaxFacts>(p.facts).code;
        return code == syntax::SyntaxCode::forfeit_result
                   ? fold_key(ProblemKind::forfeit_result_tag)
                   : fold_key(code);
    }
    case ProblemKind::unplayable_move:
        return std::get<pgn::MoveFacts>(p.facts).corrected ? typo_corrected : fold_key(p.kind);
    default:
        return fold_key(p.kind);
    }
}

std::string_view fold_wording(FoldKey key) {
    auto const i = std::size_t(key);
    if (key == FoldKey::none || i >= fold_key_count) return {};
    if (i <= syntax_fold_keys) return syntax_kind(syntax::SyntaxCode(i - 1));
    if (i <= syntax_fold_keys + problem_fold_keys)
        return problem_words[i - 1 - syntax_fold_keys].kind;
    return key == typo_corrected ? "typo corrected (--fix-typos)" : "text between games";
}

std::string_view fold_name(FoldKey key) {
    auto const i = std::size_t(key);
    if (key == FoldKey::none || i >= fold_key_count) return {};
    if (i <= syntax_fold_keys) return syntax_code_name(syntax::SyntaxCode(i - 1));
    if (i <= syntax_fold_keys + problem_fold_keys)
        return problem_words[i - 1 - syntax_fold_keys].name;
    return key == typo_corrected ? "typo_corrected" : "text_between_games";
}

std::string_view problem_kind_name(ProblemKind kind) {
    return std::size_t(kind) < problem_fold_keys ? problem_words[std::size_t(kind)].name
                                                 : std::string_view{};
}

} // namespace pgn_iccf::report
