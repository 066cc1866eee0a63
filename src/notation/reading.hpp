// What read.cpp and iccf.cpp share, out of line (neither is on the path of a legal move).
// Not for users of notation.hpp.
#pragma once

#include "notation/notation.hpp"

#include <string_view>

namespace pgn_iccf::notation::detail {

// The token without its trailing check marks, annotation glyphs and e.p. (read.cpp).
std::string_view strip_move_suffixes(std::string_view token);

// A token of digits only that has not the numeric shape (is_numeric_move false): the error
// that tells what is wrong with it, with notation numeric (iccf.cpp).
void numeric_error(std::string_view s, ReadResult& r);

} // namespace pgn_iccf::notation::detail
