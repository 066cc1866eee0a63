// A chess position with fully legal move generation, make/unmake, and FEN input/output.
//
// Invariants: the per-type and per-colour bitboards and the mailbox always agree; the side
// not to move is never in check; castling rights name the rook's file (so Chess960 and
// standard chess share one code path). A Position is a plain value (no heap), cheap to copy
// when a variation needs a copy, but the replay path uses do_move/undo_move in place.
#pragma once

#include "chess/attacks.hpp"
#include "chess/types.hpp"

#include <string>
#include <string_view>

namespace pgn_iccf::chess {

// What undo_move needs to restore; filled by do_move. Plain data, kept by the caller.
struct UndoInfo {
    Piece captured{};
    Square ep_square{};
    std::uint8_t castling = 0; // castling rights bits before the move
    std::uint16_t halfmove_clock = 0;
    Bitboard checkers = 0;
};

class Position {
public:
    // The standard starting position.
    Position();

    // Parses a FEN (6 fields; the last two may be missing). Castling field: "-", KQkq (X-FEN:
    // K/Q mean the outermost rook on that side), or Shredder/X-FEN file letters (HAha, or a
    // mix such as "HBhb"/"Kq"). `chess960` forces Chess960 castling semantics; castling
    // rights that only make sense in Chess960 (king not on e, rook not on a/h, or file
    // letters) also set chess960(). Returns false and fills `error` (if given) on bad input;
    // the position is then unspecified.
    bool set_fen(std::string_view fen, bool chess960 = false, std::string* error = nullptr);

    // FEN of the position. Castling is written KQkq in standard chess, and as Shredder file
    // letters (e.g. HAha) in Chess960 positions when the rooks are not the outermost ones
    // (X-FEN otherwise).
    std::string fen() const;

    bool chess960() const { return chess960_; }
    void set_chess960(bool v) { chess960_ = v; }

    // --- state --------------------------------------------------------------------------
    Color side_to_move() const { return side_; }
    Piece piece_on(Square s) const { return board_[std::size_t(s.index())]; }
    Bitboard pieces() const { return by_color_[0] | by_color_[1]; }
    Bitboard pieces(Color c) const { return by_color_[std::size_t(c)]; }
    Bitboard pieces(PieceType t) const { return by_type_[std::size_t(t)]; }
    Bitboard pieces(Color c, PieceType t) const { return by_color_[std::size_t(c)] & by_type_[std::size_t(t)]; }
    Square king_square(Color c) const;
    Square ep_square() const { return ep_square_; } // only set when an en passant capture is legal-ish (pawn can capture)
    int halfmove_clock() const { return halfmove_clock_; }
    int fullmove_number() const { return fullmove_; }
    bool can_castle(Color c, CastleSide side) const;
    // The square of the rook that castles on `side` (valid only if can_castle).
    Square castling_rook(Color c, CastleSide side) const;
    // King's and rook's destination squares for a castling move of colour c on `side`.
    static constexpr Square castle_king_to(Color c, CastleSide side) {
        return Square::at(side == CastleSide::king ? 6 : 2, c == Color::white ? 0 : 7);
    }
    static constexpr Square castle_rook_to(Color c, CastleSide side) {
        return Square::at(side == CastleSide::king ? 5 : 3, c == Color::white ? 0 : 7);
    }

    // --- attacks and checks --------------------------------------------------------------
    Bitboard checkers() const { return checkers_; }
    bool in_check() const { return checkers_ != 0; }
    // Pieces of both colours that attack `s` given occupancy `occupied`.
    Bitboard attackers_to(Square s, Bitboard occupied) const;
    Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
    // Pieces (of either colour) that are the only blocker between a slider of the other
    // colour and the king of colour c.
    Bitboard blockers_for_king(Color c) const { return blockers_[std::size_t(c)]; }

    // --- moves ---------------------------------------------------------------------------
    // All legal moves of the side to move.
    void generate_legal(MoveList& list) const;
    // Legal moves of the side to move by pieces of type `t` that land on `to` (castling is
    // never included; for pawns, promotions to all four pieces). Cheap: no full generation.
    void legal_moves_to(PieceType t, Square to, MoveList& list) const;
    // True if `m` is a legal move in this position (any move value; malformed ones -> false).
    bool is_legal(Move m) const;
    // Fast legality test for a move known to be pseudo-legal (piece of the side to move, to
    // a square it attacks or a pawn push).
    bool is_legal_pseudo(Move m) const;
    // True if the side to move has at least one legal move (stops at the first one found).
    bool has_legal_move() const;
    // True if legal move m gives check (incremental: no make/unmake).
    bool gives_check(Move m) const;
    // The castling move of the side to move on `side` if it is legal, else Move{}.
    Move castling_move(CastleSide side) const;

    // Makes legal move m (or a null move, allowed when not in check). `undo` receives what
    // undo_move needs. No allocation, no copy of the board.
    void do_move(Move m, UndoInfo& undo);
    void undo_move(Move m, UndoInfo const& undo);

    bool is_checkmate() const { return in_check() && !has_legal_move(); }
    bool is_stalemate() const { return !in_check() && !has_legal_move(); }

    // perft node count (bulk counting at the last ply).
    std::uint64_t perft(int depth);

    bool operator==(Position const& o) const;

private:
    void put_piece(Piece p, Square s);
    void remove_piece(Square s);
    void move_piece(Square from, Square to);
    void update_check_info();

    std::array<Bitboard, 8> by_type_{};
    std::array<Bitboard, 2> by_color_{};
    std::array<Piece, 64> board_{};
    std::array<Bitboard, 2> blockers_{};
    Bitboard checkers_ = 0;
    // castling_rook_[color][side]: the rook square while the right exists.
    std::array<std::array<Square, 2>, 2> castling_rook_{};
    std::uint8_t castling_ = 0; // bit (color*2 + side)
    Square ep_square_{};
    Color side_ = Color::white;
    bool chess960_ = false;
    std::uint16_t halfmove_clock_ = 0;
    std::uint16_t fullmove_ = 1;
};

} // namespace pgn_iccf::chess
