// Attack tables: leaper attacks, sliding attacks (magic bitboards or PEXT), and the
// between/line tables used for pins and checks. All tables are built at compile time or
// during static initialisation of this library; no init call is needed by users.
#pragma once

#include "chess/types.hpp"

namespace pgn_iccf::chess {

Bitboard pawn_attacks(Color c, Square s);
Bitboard knight_attacks(Square s);
Bitboard king_attacks(Square s);
Bitboard bishop_attacks(Square s, Bitboard occupied);
Bitboard rook_attacks(Square s, Bitboard occupied);
Bitboard queen_attacks(Square s, Bitboard occupied);
// Attacks of a non-pawn piece type from s.
Bitboard attacks(PieceType t, Square s, Bitboard occupied);
// Squares strictly between a and b if they share a line (rank, file, diagonal), else 0.
Bitboard between(Square a, Square b);
// The whole line through a and b (both included) if they share one, else 0.
Bitboard line(Square a, Square b);

} // namespace pgn_iccf::chess
