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
#include <utility>

namespace pgn_iccf::chess {

// The small state of a Position, one 8-byte word: do_move saves it and undo_move restores it
// with one load and one store each (not three of each, field by field, with the side and
// move number recomputed on undo).
struct PositionState {
    std::uint8_t castling = 0; // bit (color*2 + side)
    Square ep_square{};
    Color side = Color::white;
    bool chess960 = false;
    std::uint16_t halfmove_clock = 0;
    std::uint16_t fullmove = 1;
};
static_assert(sizeof(PositionState) == 8);

// What undo_move needs to restore; filled by do_move. Plain data, kept by the caller.
struct UndoInfo {
    PositionState state{}; // before the move
    Piece captured{};
    Bitboard checkers = 0;
    std::array<Bitboard, 2> blockers{}; // blockers_ of both colours before the move
    Bitboard stale = 0;                 // stale_ before the move
};

// What Position::set_fen found wrong with a FEN, as a code and its facts (src/report words
// it): ok() when it was read. Keep `count` last: tests loop over every value.
enum class FenCode : std::uint8_t {
    ok,
    too_few_fields,           // fewer than 4 fields
    too_many_fields,          // more than 6
    rank_short,               // rank: a rank with fewer than 8 squares
    too_many_ranks,           //
    rank_long,                // rank: a rank with more than 8 squares
    bad_board_character,      // field: the character
    not_8_ranks,              // the board does not end after 8 ranks of 8 squares
    white_kings,              // rank: the number of white kings (not 1)
    black_kings,              // rank: the number of black kings (not 1)
    pawn_on_back_rank,        //
    bad_side,                 // the side to move is not 'w' or 'b'
    castling_king_off_rank,   // field: the right; the king is not on its first rank
    castling_king_in_corner,  // field: the right
    castling_no_rook_on_side, // field: the right (K, Q)
    castling_no_rook_on_file, // field: the right (a file letter)
    castling_king_file,       // field: the right names the king's file
    bad_castling_character,   // field: the character
    duplicate_castling,       // field: the right
    opponent_in_check,        // the side not to move is in check
    bad_halfmove_clock,       // field: the field
    bad_fullmove_number,      // field: the field
    bad_en_passant,           // field: the field
    en_passant_wrong_rank,    // field: the field; rank: the rank it must be on (6 or 3)
    count                     // not a code: the number of codes
};

struct FenError {
    FenCode code = FenCode::ok;
    int rank = 0;           // the rank (1-8) or number the code names
    std::string_view field; // the part of the FEN the code names (a view into the FEN read)
    bool ok() const { return code == FenCode::ok; }
};

class Position {
public:
    static constexpr std::string_view start_fen =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    // The standard starting position (a copy of start_position()).
    Position();
    // The standard starting position, read from start_fen once.
    static Position const& start_position();
    // No pieces, white to move: for set_fen to fill (it sets every field).
    struct Uninitialized {};
    explicit Position(Uninitialized) {}

    // Parses a FEN (6 fields; the last two may be missing). Castling field: "-", KQkq (X-FEN:
    // K/Q mean the outermost rook on that side), or Shredder/X-FEN file letters (HAha, or a
    // mix such as "HBhb"/"Kq"). `chess960` forces Chess960 castling semantics; castling
    // rights that only make sense in Chess960 (king not on e, rook not on a/h, or file
    // letters) also set chess960(). Rejected: malformed fields, not exactly one king per side,
    // pawns on the first/eighth rank, castling rights without their rook (or king off its
    // first rank), the side not to move in check, an en passant square on the wrong rank. An
    // en passant square on the right rank is kept only if a legal capture there exists (see
    // ep_square()). Returns what is wrong, in one line (the position is then unspecified), or
    // an ok() value.
    [[nodiscard]] FenError set_fen(std::string_view fen, bool chess960 = false);

    // FEN of the position. Castling is written KQkq in standard chess, and as Shredder file
    // letters (e.g. HAha) in Chess960 positions when the rooks are not the outermost ones
    // (X-FEN otherwise). The en passant field is written only when the capture is legal.
    std::string fen() const;

    bool chess960() const { return st_.chess960; }
    void set_chess960(bool v) { st_.chess960 = v; }

    // --- state --------------------------------------------------------------------------
    Color side_to_move() const { return st_.side; }
    Piece piece_on(Square s) const { return board_[std::size_t(s.index())]; }
    Bitboard pieces() const { return by_color_[0] | by_color_[1]; }
    Bitboard pieces(Color c) const { return by_color_[std::size_t(c)]; }
    Bitboard pieces(PieceType t) const { return by_type_[std::size_t(t)]; }
    Bitboard pieces(Color c, PieceType t) const {
        return by_color_[std::size_t(c)] & by_type_[std::size_t(t)];
    }
    Square king_square(Color c) const;
    // The en passant target square, set only when an en passant capture is actually legal in
    // this position (a FEN's ep field is dropped otherwise, and fen() writes "-"); this keeps
    // operator== and the FEN output independent of irrelevant double pushes.
    Square ep_square() const { return st_.ep_square; }
    int halfmove_clock() const { return st_.halfmove_clock; }
    int fullmove_number() const { return st_.fullmove; }
    bool can_castle(Color c, CastleSide side) const;
    // The square of the rook that castles on `side` (valid only if can_castle).
    Square castling_rook(Color c, CastleSide side) const;
    // King's and rook's destination squares for a castling move of colour c on `side`.
    static constexpr Square castle_king_to(Color c, CastleSide side) {
        return Square::at(side == CastleSide::king ? 6 : 2, home_rank(c));
    }
    static constexpr Square castle_rook_to(Color c, CastleSide side) {
        return Square::at(side == CastleSide::king ? 5 : 3, home_rank(c));
    }

    // --- attacks and checks --------------------------------------------------------------
    Bitboard checkers() const { return checkers_; }
    bool in_check() const { return checkers_ != 0; }
    // Pieces of colour `by` that attack `s` given occupancy `occupied` (which may differ from
    // pieces(): a king lifted off its square, a capture replayed). The one definition of "a
    // square attacked by a colour"; check detection, king moves, castling paths and en passant
    // all ask it.
    Bitboard attackers_to(Square s, Bitboard occupied, Color by) const;
    // Pieces of both colours that attack `s` given occupancy `occupied`.
    Bitboard attackers_to(Square s, Bitboard occupied) const {
        return attackers_to(s, occupied, Color::white) | attackers_to(s, occupied, Color::black);
    }
    Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
    // attackers_to(s, occupied, by) != 0, without the sliding-attack table: the sliders of
    // `by` on the empty-board rays from s, each with a between test (the table's 800 KB
    // missed the cache on most king moves read).
    bool attacked(Square s, Bitboard occupied, Color by) const;
    // Pieces (of either colour) that are the only blocker between a slider of the other
    // colour and the king of colour c.
    Bitboard blockers_for_king(Color c) const {
        return c == st_.side || !(stale_ & queen_rays(king_square(c))) ? blockers_[std::size_t(c)]
                                                                       : fresh_blockers(c);
    }

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
    // Inline for the common case (a normal move or promotion, not by the king, not in check).
    bool is_legal_pseudo(Move m) const;
    // True if the side to move has at least one legal move (stops at the first one found).
    bool has_legal_move() const;
    // True if legal move m gives check (incremental: no make/unmake). Inline for normal moves
    // and promotions.
    bool gives_check(Move m) const;
    // The castling move of the side to move on `side` if it is legal, else Move{}.
    Move castling_move(CastleSide side) const;

    // The board rules of a pawn move of the side to move, pins and checks aside (is_legal_pseudo
    // adds those); promotion and en passant are the caller's. pawn_reaches: the pawn on `from`
    // reaches `to` by a capture onto a piece of the other colour, a push onto an empty square,
    // or a double push from its second rank across two empty squares. pawn_push_origin: the
    // square of the pawn that pushes to the empty square `to` (one step, or two steps across an
    // empty square from its second rank), Square::none() if none can.
    bool pawn_reaches(Square from, Square to) const;
    Square pawn_push_origin(Square to) const;

    // Makes legal move m (or a null move, allowed when not in check; unchecked). `undo`
    // receives what undo_move needs, and undo_move(m, undo) restores the exact previous state.
    // No allocation, no copy of the board.
    void do_move(Move m, UndoInfo& undo);
    void undo_move(Move m, UndoInfo const& undo);

    bool is_checkmate() const { return in_check() && !has_legal_move(); }
    bool is_stalemate() const { return !in_check() && !has_legal_move(); }

    // perft node count (bulk counting at the last ply).
    std::uint64_t perft(int depth);
    // Number of legal moves (counted without building a list).
    int count_legal_moves() const;

    bool operator==(Position const& o) const;

private:
    // The parts of set_fen: each reads one FEN field and returns what is wrong, or ok.
    FenError read_board(std::string_view field);
    FenError read_castling(std::string_view field, bool& needs960);
    FenError read_en_passant(std::string_view field);
    void put_piece(Piece p, Square s);
    void remove_piece(Square s);
    void move_piece(Square from, Square to);
    void do_move_other(Move m, UndoInfo& undo);
    // The start of every move: the state saved into `undo`, no en-passant square, the move
    // counter and the side to move advanced. Returns the side that moves.
    Color begin_move(UndoInfo& undo);
    void update_check_info();
    void update_check_info(Bitboard changed, bool king_moved, Bitboard arrived);
    Bitboard slider_blockers(Color c) const;
    Bitboard slider_blockers(Color c, Bitboard& checking) const;
    Bitboard fresh_blockers(Color c) const;
    bool castling_path_clear(Color c, CastleSide side) const;
    bool is_legal_pseudo_other(Move m) const;
    bool gives_check_other(Move m) const;
    bool ep_capture_legal(Square from) const;
    void set_ep_if_capturable(Square ep);
    void set_castling_right(Color c, CastleSide side, Square rook);
    template <Color Us, class Sink>
    void generate(Sink& sink) const;
    template <Color Us, class Sink>
    void generate_pawns(Sink& sink, Square ksq, Bitboard target, Bitboard pinned) const;

    std::array<Bitboard, 8> by_type_{}; // indexed by PieceType
    std::array<Bitboard, 2> by_color_{};
    std::array<Piece, 64> board_{};
    // blockers_for_king of both colours; that of the side not to move is kept only as it was
    // before the squares of stale_ changed (all of them after its king moved).
    std::array<Bitboard, 2> blockers_{};
    Bitboard checkers_ = 0;
    Bitboard stale_ = 0;
    // castling_rook_[color][side]: the rook square while the right exists.
    std::array<std::array<Square, 2>, 2> castling_rook_{};
    // Per right (color*2 + side): squares that must be empty (the king's and the rook's paths
    // and destinations, minus the king and rook themselves), and the squares the king crosses
    // or lands on, which must not be attacked.
    std::array<Bitboard, 4> castling_path_{};
    std::array<Bitboard, 4> castling_king_path_{};
    // Rights kept when a piece leaves or lands on a square (king and castling rook squares).
    std::array<std::uint8_t, 64> castling_keep_{};
    PositionState st_;
};

inline void Position::put_piece(Piece p, Square s) {
    Bitboard b = s.bb();
    board_[std::size_t(s.index())] = p;
    by_type_[std::size_t(p.type())] |= b;
    by_color_[std::size_t(p.color())] |= b;
}

inline void Position::remove_piece(Square s) {
    Bitboard b = s.bb();
    Piece p = board_[std::size_t(s.index())];
    board_[std::size_t(s.index())] = Piece{};
    by_type_[std::size_t(p.type())] ^= b;
    by_color_[std::size_t(p.color())] ^= b;
}

inline void Position::move_piece(Square from, Square to) {
    Bitboard b = from.bb() | to.bb();
    Piece p = board_[std::size_t(from.index())];
    board_[std::size_t(from.index())] = Piece{};
    board_[std::size_t(to.index())] = p;
    by_type_[std::size_t(p.type())] ^= b;
    by_color_[std::size_t(p.color())] ^= b;
}

inline Square Position::king_square(Color c) const { return lsb(pieces(c, PieceType::king)); }

inline bool Position::can_castle(Color c, CastleSide side) const {
    return (st_.castling >> (index(c) * 2 + int(side))) & 1U;
}

inline Square Position::castling_rook(Color c, CastleSide side) const {
    return castling_rook_[std::size_t(c)][std::size_t(side)];
}

inline bool Position::is_legal_pseudo(Move m) const {
    Square const from = m.from();
    Square const ksq = king_square(st_.side);
    if (std::uint8_t(m.kind()) <= std::uint8_t(MoveKind::promotion) && !checkers_ && from != ksq)
        return !(blockers_[std::size_t(st_.side)] & from.bb()) || aligned(ksq, from, m.to());
    return is_legal_pseudo_other(m);
}

inline bool Position::gives_check(Move m) const {
    if (std::uint8_t(m.kind()) > std::uint8_t(MoveKind::promotion)) return gives_check_other(m);
    Color const us = st_.side;
    Square const ksq = king_square(~us);
    Square const from = m.from();
    Square const to = m.to();
    bool const discovered = (blockers_for_king(~us) & from.bb()) && !aligned(from, to, ksq);
    // No piece checks directly from a square off the king's queen rays and knight squares.
    if (!((queen_rays(ksq) | knight_attacks(ksq)) & to.bb())) return discovered;
    PieceType const pt = m.kind() == MoveKind::promotion ? m.promotion() : piece_on(from).type();
    Bitboard const direct =
        pt == PieceType::pawn ? pawn_attacks(us, to) : attacks(pt, to, pieces() ^ from.bb());
    return (pt != PieceType::king && (direct & ksq.bb())) || discovered;
}

inline Bitboard Position::attackers_to(Square s, Bitboard occupied, Color by) const {
    return ((pawn_attacks(~by, s) & pieces(PieceType::pawn)) |
            (knight_attacks(s) & pieces(PieceType::knight)) |
            (king_attacks(s) & pieces(PieceType::king)) |
            (bishop_attacks(s, occupied) & (pieces(PieceType::bishop) | pieces(PieceType::queen))) |
            (rook_attacks(s, occupied) & (pieces(PieceType::rook) | pieces(PieceType::queen)))) &
           pieces(by);
}

inline bool Position::attacked(Square s, Bitboard occupied, Color by) const {
    Bitboard const them = pieces(by);
    if (((pawn_attacks(~by, s) & pieces(PieceType::pawn)) |
         (knight_attacks(s) & pieces(PieceType::knight)) |
         (king_attacks(s) & pieces(PieceType::king))) &
        them)
        return true;
    Bitboard const queens = pieces(PieceType::queen);
    Bitboard snipers = ((rook_rays(s) & (pieces(PieceType::rook) | queens)) |
                        (bishop_rays(s) & (pieces(PieceType::bishop) | queens))) &
                       them & occupied;
    for (; snipers; snipers &= snipers - 1)
        if (!(between(s, lsb(snipers)) & occupied)) return true;
    return false;
}

inline bool Position::pawn_reaches(Square from, Square to) const {
    Color const us = st_.side;
    if (pawn_attacks(us, from) & to.bb()) return (pieces(~us) & to.bb()) != 0;
    int const up = pawn_push(us);
    if (to.index() == from.index() + up) return !(pieces() & to.bb());
    return to.index() == from.index() + 2 * up && from.rank() == relative_rank(us, 1) &&
           !(pieces() & (to.bb() | Square(from.index() + up).bb()));
}

inline Square Position::pawn_push_origin(Square to) const {
    Color const us = st_.side;
    int const rank = relative_rank(us, to.rank());
    if (rank < 2 || !piece_on(to).empty()) return Square::none();
    Square const one(to.index() - pawn_push(us));
    Piece const pawn(us, PieceType::pawn);
    if (piece_on(one) == pawn) return one;
    Square const two(one.index() - pawn_push(us));
    if (rank == 3 && piece_on(one).empty() && piece_on(two) == pawn) return two;
    return Square::none();
}

} // namespace pgn_iccf::chess
