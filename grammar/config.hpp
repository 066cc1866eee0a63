// The types the grammar is instantiated for, defined once (pgn.cpp INSTANTIATEs with them and
// parse.cpp calls with them: they must be identical or the link fails). The per-game parse
// state they carry is in state.hpp.
#pragma once

#include "grammar/state.hpp"

#include <boost/spirit/home/x3.hpp>

namespace pgn_iccf::parser {

struct state_tag;

using iterator_type = char const*;
using context_type = boost::spirit::x3::context<state_tag, State, boost::spirit::x3::unused_type>;

} // namespace pgn_iccf::parser
