// The kind of a diagnostic by which a run folds repeated warnings and counts them in its
// summary: an enum value, never a string. One key per SyntaxCode and per ProblemKind, and two
// more (a typo corrected by --fix-typos, text between games); errors have none (never folded).
// The keys are numbered in blocks, so that a new code or kind gets its key without an edit here.
#pragma once

#include "grammar/syntax.hpp"
#include "pgn/problem.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pgn_iccf::report {

enum class FoldKey : std::uint8_t { none = 0 };

inline constexpr std::size_t syntax_fold_keys = std::size_t(syntax::SyntaxCode::count);
inline constexpr std::size_t problem_fold_keys = std::size_t(pgn::ProblemKind::count);

constexpr FoldKey fold_key(syntax::SyntaxCode c) { return FoldKey(1 + std::size_t(c)); }
constexpr FoldKey fold_key(pgn::ProblemKind k) {
    return FoldKey(1 + syntax_fold_keys + std::size_t(k));
}
inline constexpr FoldKey typo_corrected = FoldKey(1 + syntax_fold_keys + problem_fold_keys);
inline constexpr FoldKey text_between_games = FoldKey(2 + syntax_fold_keys + problem_fold_keys);
// The number of keys, none included (every key is below it).
inline constexpr std::size_t fold_key_count = 3 + syntax_fold_keys + problem_fold_keys;
static_assert(fold_key_count <= 256, "FoldKey is one byte");

// The key of `p`: none for an error. A forfeit result in the movetext and one in the Result
// tag are one kind ("forfeit result"), as they always were.
FoldKey fold_key(pgn::Problem const& p);

// The short fixed wording of the kind ("game has no result"), as the fold line and the summary
// write it; "" for none.
std::string_view fold_wording(FoldKey key);

// A stable snake_case name of the kind (the code it stands for: "no_result", "result_differs",
// "typo_corrected", "text_between_games"); "" for none.
std::string_view fold_name(FoldKey key);

// The snake_case name of a ProblemKind ("unplayable_move").
std::string_view problem_kind_name(pgn::ProblemKind kind);

} // namespace pgn_iccf::report
