// Declaration of the PGN game grammar (the one rule other translation units call).
#pragma once

#include "grammar/config.hpp"

#include <boost/spirit/home/x3.hpp>

namespace pgn_iccf::parser {

namespace x3 = boost::spirit::x3;

struct game_class;
using game_type = x3::rule<game_class>;
BOOST_SPIRIT_DECLARE(game_type)

// The grammar's entry point: one game, from its first tag (or movetext) byte to its end.
game_type const& game_grammar();

} // namespace pgn_iccf::parser
