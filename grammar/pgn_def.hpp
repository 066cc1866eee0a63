// The PGN game grammar (import format, §8): its rules, built from the lexical primitives of
// lex.hpp and lex_movetext.hpp.
//
// Structure is X3 (rules, sequences, alternatives, expectation points); tokens are custom
// primitive parsers that scan bytes by hand (see lex.hpp).
//
// The lexical rules are documented once, for users of the API, at the top of parse.hpp.
#pragma once

#include "grammar/lex_movetext.hpp"
#include "grammar/pgn.hpp"

namespace pgn_iccf::parser {

// --- rules ------------------------------------------------------------------------------
// A rule that is the target of an expectation point (`>`) names, in its ID class, the code
// its failure reports (the calc9 manner); expectation_code (pgn.cpp) maps the failed rule's
// name back to it. Rule names are identifiers: src/report words the codes.

template <syntax::SyntaxCode Code>
struct expects {
    static constexpr syntax::SyntaxCode code = Code;
};

struct tag_pair_class;
struct tag_name_class : expects<syntax::SyntaxCode::expected_tag_name> {};
struct tag_value_class : expects<syntax::SyntaxCode::expected_tag_value> {};
struct tag_close_class : expects<syntax::SyntaxCode::expected_tag_close> {};
struct tag_section_class;
struct movetext_class : expects<syntax::SyntaxCode::expected_movetext> {};
struct variation_class;
struct variation_close_class : expects<syntax::SyntaxCode::expected_variation_close> {};
struct game_end_class : expects<syntax::SyntaxCode::expected_element> {};

x3::rule<tag_pair_class> const tag_pair = "tag_pair";
x3::rule<tag_name_class> const tag_name = "tag_name";
x3::rule<tag_value_class> const tag_value = "tag_value";
x3::rule<tag_close_class> const tag_close = "tag_close";
x3::rule<tag_section_class> const tag_section = "tag_section";
x3::rule<movetext_class> const movetext = "movetext";
x3::rule<variation_class> const variation = "variation";
x3::rule<variation_close_class> const variation_close = "variation_close";
x3::rule<game_end_class> const game_end = "game_end";
game_type const game = "game";

inline detail::space_parser const sp{};
inline detail::blanks_parser const blanks{};

// §8.1 tag pair: `[` name value `]`, blanks allowed around every part.
auto const tag_pair_def =
    detail::char_parser('[') > blanks > tag_name > blanks > tag_value > blanks > tag_close;
auto const tag_name_def = detail::tag_name_parser{};
auto const tag_value_def = detail::tag_value_parser{};
auto const tag_close_def = detail::char_parser(']');
// §8.1 tag section; blank lines and '%' lines between tag pairs are tolerated.
auto const tag_section_def = detail::plain_tag_pairs_parser{} >>
                             *(sp >> tag_pair >> detail::plain_tag_pairs_parser{});
// §8.2 movetext: runs of elements between variations; a result or anything unexpected ends it.
auto const movetext_def = detail::movetext_run_parser{} >>
                          *(variation >> detail::movetext_run_parser{});
// §8.2.5 RAV: nested movetext in parentheses.
auto const variation_def = detail::variation_open_parser{} > movetext > sp > variation_close;
auto const variation_close_def = detail::variation_close_parser{};
auto const game_end_def = detail::end_parser{};
// §8.2 a game: tags, movetext, an optional result (its absence is a warning).
// Comments before the tag section belong to the game (lead_comments_parser); what follows the
// result on its line and the comment lines after it too (after_result_parser).
auto const game_def =
    (detail::lead_comments_parser{} >> tag_section >> detail::movetext_begin_parser{} >> movetext >>
     sp >> -(detail::result_parser{} >> detail::after_result_parser{})) > game_end;

BOOST_SPIRIT_DEFINE(tag_pair, tag_name, tag_value, tag_close, tag_section, movetext, variation,
                    variation_close, game_end, game)

} // namespace pgn_iccf::parser
