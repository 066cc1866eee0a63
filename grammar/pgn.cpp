// The one instantiation of the grammar (see config.hpp for the types).
#include "grammar/pgn_def.hpp"

namespace pgn_iccf::parser {

BOOST_SPIRIT_INSTANTIATE(game_type, iterator_type, context_type)

game_type const& game_grammar() { return game; }

} // namespace pgn_iccf::parser
