// Details of notation.hpp that its users need not read: constants and layout choices made for
// the speed of read_move (measured with callgrind, instructions per game; see the commits).
#pragma once

#include "chess/types.hpp"

#include <array>
#include <cstddef>

namespace pgn_iccf::notation::detail {

// Eight Move{}: ReadResult's candidates start as a copy of it, which GCC builds with two
// vector moves (8 moves of 4 bytes) instead of a store loop. constexpr, so that read.cpp's
// constinit fresh ReadResult is a constant initializer for Clang too.
inline constexpr std::array<chess::Move, 8> no_candidates{};

// ReadResult's layout: the small fields come first and the candidates last, at offset 16 of
// a 48-byte value, so that read_move initialises it with three 16-byte stores (read.cpp
// asserts both figures).
inline constexpr std::size_t read_result_size = 48;
inline constexpr std::size_t read_result_candidates_offset = 16;

} // namespace pgn_iccf::notation::detail
