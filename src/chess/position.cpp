// Position state changes: piece placement, make/unmake, check bookkeeping and gives_check.
// FEN input/output lives in fen.cpp, move generation and legality in movegen.cpp.
#include "chess/position.hpp"

namespace pgn_iccf::chess {

namespace {
// The start position, read from its FEN once: a Position is default-constructed for every
// variation (Replayer's frames), and parsing the FEN each time was a fifth of the work on
// annotated games.
Position read_start() {
    Position p(Position::Uninitialized{});
    (void)p.set_fen(Position::start_fen);
    return p;
}
} // namespace

Position::Position() : Position(start_position()) {}

Position const& Position::start_position() {
    static Position const start = read_start();
    return start;
}

// Pieces of either colour that alone stand between the king of colour c and an enemy slider;
// the enemy sliders with nothing in between (they give check) are added to `checking`. Only
// the empty-board rays and the between table are read, no sliding-attack table.
inline Bitboard Position::slider_blockers(Color c, Bitboard& checking) const {
    Square ksq = king_square(c);
    Bitboard snipers =
        ((rook_rays(ksq) & (pieces(PieceType::rook) | pieces(PieceType::queen))) |
         (bishop_rays(ksq) & (pieces(PieceType::bishop) | pieces(PieceType::queen)))) &
        pieces(~c);
    Bitboard occupied = pieces();
    Bitboard result = 0;
    while (snipers) {
        Square s = pop_lsb(snipers);
        Bitboard b = between(ksq, s) & occupied;
        if (!b)
            checking |= s.bb();
        else if (!more_than_one(b))
            result |= b;
    }
    return result;
}

inline Bitboard Position::slider_blockers(Color c) const {
    Bitboard checking = 0;
    return slider_blockers(c, checking);
}

Bitboard Position::fresh_blockers(Color c) const { return slider_blockers(c); }

void Position::update_check_info() {
    checkers_ = attackers_to(king_square(st_.side), pieces(), ~st_.side);
    blockers_[0] = slider_blockers(Color::white);
    blockers_[1] = slider_blockers(Color::black);
    stale_ = 0;
}

// The same after a move by ~st_.side that changed the occupancy or the piece of the squares in
// `changed` (and moved that side's king if `king_moved`). The blockers of a king depend only on
// what stands on the empty-board queen rays from it: when no changed square lies on them (and
// the king did not move), they are the same as before and are not recomputed. Those of the
// mover are not computed at all: it is not to move, and only blockers_for_king and
// gives_check ask them (the replay never does); stale_ keeps the squares its move changed, and
// they are looked at when that side is to move again. The king of the
// side to move was not in check before the move, so it is in check now only if a changed
// square lies on its queen rays (a discovered line or a piece's new square: then the sliders
// that check come out of the same walk over the snipers as the blockers) or a knight came to
// one of its knight squares. Only the mover can give check. No sliding-attack table is read
// (its 800 KB often miss the cache on a busy machine).
// A pawn or knight that checks now is the one that arrived on `arrived` (the target square;
// none for castling): any other would have attacked the king before the move, when its side
// was not to move. Kings never check.
[[gnu::always_inline]] inline void Position::update_check_info(Bitboard changed, bool king_moved,
                                                               Bitboard arrived) {
    Square const ksq = king_square(st_.side);
    Bitboard const rays = queen_rays(ksq);
    if ((changed | stale_) & rays) {
        Bitboard checking = 0; // the mover's sliders that check
        blockers_[std::size_t(st_.side)] = slider_blockers(st_.side, checking);
        checkers_ = checking | (arrived & ((pawn_attacks(st_.side, ksq) & pieces(PieceType::pawn)) |
                                           (knight_attacks(ksq) & pieces(PieceType::knight))));
    } else {
        // Off the rays only a knight can have come to check.
        checkers_ = knight_attacks(ksq) & arrived & pieces(PieceType::knight);
    }
    stale_ = king_moved ? ~Bitboard{0} : changed;
}

inline Color Position::begin_move(UndoInfo& undo) {
    Color const us = st_.side;
    undo.state = st_;
    undo.checkers = checkers_;
    undo.blockers = blockers_;
    undo.stale = stale_;
    st_.ep_square = Square::none();
    if (us == Color::black) ++st_.fullmove;
    st_.side = ~us;
    return us;
}

// Normal moves and promotions (most moves): no branch on the move kind, and the other kinds'
// registers are not saved on this path. The members do_move needs are read before its first
// store: a byte store (UndoInfo, the board) may alias any member, and each later read of one
// was a reload.
void Position::do_move(Move m, UndoInfo& undo) {
    if (std::uint8_t(m.kind()) > std::uint8_t(MoveKind::promotion)) {
        do_move_other(m, undo);
        return;
    }
    std::uint16_t const halfmove = st_.halfmove_clock;
    Color const us = begin_move(undo);
    Color const them = ~us;

    Square const from = m.from();
    Square const to = m.to();
    Square new_ep{};
    Bitboard const changed = from.bb() | to.bb();
    Piece const captured = board_[std::size_t(to.index())];
    Piece const piece = board_[std::size_t(from.index())];
    PieceType const pt = piece.type();
    std::uint8_t const keep = std::uint8_t(castling_keep_[std::size_t(from.index())] &
                                           castling_keep_[std::size_t(to.index())]);
    undo.captured = captured;
    if (!captured.empty()) {
        by_type_[std::size_t(captured.type())] ^= to.bb();
        by_color_[std::size_t(them)] ^= to.bb();
    }
    board_[std::size_t(from.index())] = Piece{};
    board_[std::size_t(to.index())] = piece;
    by_type_[std::size_t(pt)] ^= changed;
    by_color_[std::size_t(us)] ^= changed;
    st_.halfmove_clock =
        pt == PieceType::pawn || !captured.empty() ? 0 : std::uint16_t(halfmove + 1);
    if (pt == PieceType::pawn) {
        if (m.kind() == MoveKind::promotion) {
            by_type_[std::size_t(PieceType::pawn)] ^= to.bb();
            by_type_[std::size_t(m.promotion())] |= to.bb();
            board_[std::size_t(to.index())] = Piece(us, m.promotion());
        } else if ((from.index() ^ to.index()) == 16) {
            new_ep = Square((from.index() + to.index()) / 2);
        }
    }
    st_.castling &= keep;
    update_check_info(changed, pt == PieceType::king, to.bb());
    if (new_ep.ok()) set_ep_if_capturable(new_ep);
}

// The null move, castling and en passant.
void Position::do_move_other(Move m, UndoInfo& undo) {
    std::uint16_t const halfmove = st_.halfmove_clock;
    Color const us = begin_move(undo);
    Color const them = ~us;

    if (m.is_null()) {
        // The side that now moves was not in check (the side not to move never is), and the
        // blockers do not depend on whose turn it is: those of the side now to move are brought
        // up to date, those of the other side already are.
        undo.captured = Piece{};
        st_.halfmove_clock = std::uint16_t(halfmove + 1);
        checkers_ = 0;
        if (stale_ & queen_rays(king_square(them)))
            blockers_[std::size_t(them)] = slider_blockers(them);
        stale_ = 0;
        return;
    }

    Square const from = m.from();
    Square const to = m.to();
    Bitboard changed = from.bb() | to.bb();
    Bitboard arrived = to.bb();
    bool king_moved = false;

    switch (m.kind()) {
    case MoveKind::castling: {
        undo.captured = Piece{};
        st_.halfmove_clock = std::uint16_t(halfmove + 1);
        CastleSide cs = castle_side(from, to);
        remove_piece(from);
        remove_piece(to);
        put_piece(Piece(us, PieceType::king), castle_king_to(us, cs));
        put_piece(Piece(us, PieceType::rook), castle_rook_to(us, cs));
        st_.castling &= std::uint8_t(~(3U << (index(us) * 2)));
        changed |= castle_king_to(us, cs).bb() | castle_rook_to(us, cs).bb();
        arrived = 0;
        king_moved = true;
        break;
    }
    case MoveKind::en_passant: {
        Square cap(to.index() ^ 8);
        undo.captured = Piece(them, PieceType::pawn);
        remove_piece(cap);
        move_piece(from, to);
        st_.halfmove_clock = 0;
        changed |= cap.bb();
        break;
    }
    default:
        break;
    }

    update_check_info(changed, king_moved, arrived);
}

void Position::undo_move(Move m, UndoInfo const& undo) {
    st_ = undo.state;
    Color const us = st_.side;
    checkers_ = undo.checkers;
    blockers_ = undo.blockers;
    stale_ = undo.stale;
    if (m.is_null()) return;

    Square from = m.from();
    Square to = m.to();
    switch (m.kind()) {
    case MoveKind::castling: {
        CastleSide cs = castle_side(from, to);
        remove_piece(castle_king_to(us, cs));
        remove_piece(castle_rook_to(us, cs));
        put_piece(Piece(us, PieceType::king), from);
        put_piece(Piece(us, PieceType::rook), to);
        break;
    }
    case MoveKind::en_passant:
        move_piece(to, from);
        put_piece(undo.captured, Square(to.index() ^ 8));
        break;
    default:
        if (m.kind() == MoveKind::promotion) {
            remove_piece(to);
            put_piece(Piece(us, PieceType::pawn), to);
        }
        move_piece(to, from);
        if (!undo.captured.empty()) put_piece(undo.captured, to);
        break;
    }
}

// Castling (a check by the rook on its new square, or discovered by the king's and rook's
// departure), en passant (a direct pawn check, or a line opened by either pawn leaving) and
// the null move (never a check). Normal moves and promotions never come here: gives_check
// (position.hpp) handles them inline.
bool Position::gives_check_other(Move m) const {
    if (m.is_null()) return false;
    Color us = st_.side;
    Square ksq = king_square(~us);
    Square from = m.from();
    Square to = m.to();
    Bitboard our_diag = pieces(us, PieceType::bishop) | pieces(us, PieceType::queen);
    Bitboard our_orth = pieces(us, PieceType::rook) | pieces(us, PieceType::queen);

    if (m.kind() == MoveKind::castling) {
        CastleSide cs = castle_side(from, to);
        Square rto = castle_rook_to(us, cs);
        Bitboard occupied =
            (pieces() ^ from.bb() ^ to.bb()) | castle_king_to(us, cs).bb() | rto.bb();
        our_orth = (our_orth ^ to.bb()) | rto.bb();
        return (rook_attacks(ksq, occupied) & our_orth) ||
               (bishop_attacks(ksq, occupied) & our_diag);
    }
    // En passant.
    if (pawn_attacks(us, to) & ksq.bb()) return true;
    Bitboard occupied = (pieces() ^ from.bb() ^ Square(to.index() ^ 8).bb()) | to.bb();
    return (rook_attacks(ksq, occupied) & our_orth) || (bishop_attacks(ksq, occupied) & our_diag);
}

bool Position::operator==(Position const& o) const {
    if (board_ != o.board_ || st_.side != o.st_.side || st_.castling != o.st_.castling ||
        st_.ep_square != o.st_.ep_square || st_.halfmove_clock != o.st_.halfmove_clock ||
        st_.fullmove != o.st_.fullmove || st_.chess960 != o.st_.chess960)
        return false;
    for (int c = 0; c < 2; ++c)
        for (int s = 0; s < 2; ++s)
            if (can_castle(Color(c), CastleSide(s)) &&
                castling_rook(Color(c), CastleSide(s)) != o.castling_rook(Color(c), CastleSide(s)))
                return false;
    return true;
}

} // namespace pgn_iccf::chess
