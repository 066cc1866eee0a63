// The one instantiation of the grammar (see config.hpp for the types).
#include "grammar/error_handler.hpp"
#include "grammar/pgn_def.hpp"

namespace pgn_iccf::parser {

BOOST_SPIRIT_INSTANTIATE(game_type, iterator_type, context_type)

game_type const& game_grammar() { return game; }

syntax::SyntaxCode expectation_code(std::string const& which) {
    struct Entry {
        char const* name;
        syntax::SyntaxCode code;
    };
    static Entry const entries[] = {
        {tag_name.name, tag_name_class::code},
        {tag_value.name, tag_value_class::code},
        {tag_close.name, tag_close_class::code},
        {movetext.name, movetext_class::code},
        {variation_close.name, variation_close_class::code},
        {game_end.name, game_end_class::code},
    };
    for (Entry const& e : entries)
        if (which == e.name) return e.code;
    return syntax::SyntaxCode::expected_element; // not an expectation target: not reached
}

} // namespace pgn_iccf::parser
