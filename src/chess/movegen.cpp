// Legal move generation, legality tests and perft.
//
// The generator produces only legal moves (no pseudo-legal list filtered afterwards): king
// moves are tested square by square against the enemy attacks with the king lifted off the
// board; in double check only the king moves; in single check the other pieces must capture
// the checker or block; pinned pieces move only along their pin line (and not at all when in
// check); en passant is tested by replaying the capture on the occupancy (horizontal pins,
// discovered checks); castling tests its empty-path and unattacked-path bitboards.
//
// One template serves three consumers through a "sink": building a MoveList, counting moves
// (perft's bulk counting: popcounts, no list), and "is there any move" (stops at the first).
#include "chess/position.hpp"

namespace pgn_iccf::chess {

namespace {

constexpr Bitboard file_a = 0x0101010101010101ULL;
constexpr Bitboard file_h = file_a << 7;
constexpr Bitboard rank_1 = 0xFFULL;

constexpr Bitboard rank_bb(int r) { return rank_1 << (8 * r); }

template <int D>
constexpr Bitboard shift(Bitboard b) {
    if constexpr (D > 0)
        return b << D;
    else
        return b >> -D;
}

constexpr Square offset(Square s, int delta) { return Square(s.index() + delta); }

constexpr std::array<PieceType, 4> promotion_types{PieceType::queen, PieceType::rook,
                                                   PieceType::bishop, PieceType::knight};

struct ListSink {
    MoveList& list;
    static constexpr bool done() { return false; }
    void piece(Square from, Bitboard tos) {
        while (tos) list.push(Move(from, pop_lsb(tos)));
    }
    void pawns(Bitboard tos, int delta) {
        while (tos) {
            Square to = pop_lsb(tos);
            list.push(Move(offset(to, -delta), to));
        }
    }
    void promotion(Square from, Square to) {
        for (PieceType t : promotion_types) list.push(Move(from, to, MoveKind::promotion, t));
    }
    void promotions(Bitboard tos, int delta) {
        while (tos) {
            Square to = pop_lsb(tos);
            promotion(offset(to, -delta), to);
        }
    }
    void add(Move m) { list.push(m); }
};

struct CountSink {
    int n = 0;
    static constexpr bool done() { return false; }
    void piece(Square, Bitboard tos) { n += popcount(tos); }
    void pawns(Bitboard tos, int) { n += popcount(tos); }
    void promotion(Square, Square) { n += 4; }
    void promotions(Bitboard tos, int) { n += 4 * popcount(tos); }
    void add(Move) { ++n; }
};

struct AnySink {
    static constexpr bool any = true; // one legal move is enough: generate may stop at it
    bool found = false;
    bool done() const { return found; }
    void piece(Square, Bitboard tos) { found |= tos != 0; }
    void pawns(Bitboard tos, int) { found |= tos != 0; }
    void promotion(Square, Square) { found = true; }
    void promotions(Bitboard tos, int) { found |= tos != 0; }
    void add(Move) { found = true; }
};

} // namespace

// Pawn moves of generate: pushes, captures and promotions of the unpinned pawns, the pinned
// ones along their pin line, en passant. `target`: the squares a move may reach (all but our
// own pieces; in check, the checker and the squares between it and the king).
template <Color Us, class Sink>
void Position::generate_pawns(Sink& sink, Square ksq, Bitboard target, Bitboard pinned) const {
    constexpr Color them = ~Us;
    constexpr int up = pawn_push(Us);
    constexpr Bitboard rank_3 = rank_bb(relative_rank(Us, 2));
    constexpr Bitboard rank_8 = rank_bb(last_rank(Us));

    Bitboard enemy = pieces(them);
    Bitboard occupied = pieces();
    Bitboard pawns = pieces(Us, PieceType::pawn);
    Bitboard free = pawns & ~pinned;
    Bitboard empty = ~occupied;
    Bitboard push1 = shift<up>(free) & empty;
    Bitboard push2 = shift<up>(push1 & rank_3) & empty & target;
    push1 &= target;
    sink.pawns(push1 & ~rank_8, up);
    sink.promotions(push1 & rank_8, up);
    sink.pawns(push2, 2 * up);
    Bitboard west = shift<up - 1>(free & ~file_a) & enemy & target;
    Bitboard east = shift<up + 1>(free & ~file_h) & enemy & target;
    sink.pawns(west & ~rank_8, up - 1);
    sink.promotions(west & rank_8, up - 1);
    sink.pawns(east & ~rank_8, up + 1);
    sink.promotions(east & rank_8, up + 1);
    if (sink.done()) return;

    // Pinned pawns move only along the pin line, and never when in check.
    if (!checkers_) {
        for (Bitboard b = pawns & pinned; b;) {
            Square from = pop_lsb(b);
            Bitboard pin_line = line(ksq, from);
            Square to = offset(from, up);
            if (empty & pin_line & to.bb()) {
                if (rank_8 & to.bb())
                    sink.promotion(from, to);
                else {
                    sink.add(Move(from, to));
                    Square to2 = offset(to, up);
                    if ((rank_3 & to.bb()) && (empty & to2.bb())) sink.add(Move(from, to2));
                }
            }
            for (Bitboard caps = pawn_attacks(Us, from) & enemy & pin_line; caps;) {
                Square cap = pop_lsb(caps);
                if (rank_8 & cap.bb())
                    sink.promotion(from, cap);
                else
                    sink.add(Move(from, cap));
            }
        }
    }

    if (st_.ep_square.ok()) {
        for (Bitboard b = pawn_attacks(them, st_.ep_square) & pawns; b;) {
            Square from = pop_lsb(b);
            if (ep_capture_legal(from)) sink.add(Move(from, st_.ep_square, MoveKind::en_passant));
        }
    }
}

template <Color Us, class Sink>
void Position::generate(Sink& sink) const {
    constexpr Color them = ~Us;

    Square ksq = king_square(Us);
    Bitboard own = pieces(Us);
    Bitboard occupied = pieces();

    // King moves: every target square tested with the king lifted off the board, so that
    // retreating along a checking slider's line is seen as attacked.
    {
        Bitboard tos = king_attacks(ksq) & ~own;
        Bitboard safe = 0;
        Bitboard without_king = occupied ^ ksq.bb();
        while (tos) {
            Square to = pop_lsb(tos);
            if (!attacked(to, without_king, them)) {
                safe |= to.bb();
                if constexpr (requires { Sink::any; }) break;
            }
        }
        sink.piece(ksq, safe);
        if (sink.done()) return;
    }
    if (more_than_one(checkers_)) return;

    Bitboard target = checkers_ ? between(ksq, lsb(checkers_)) | checkers_ : ~own;
    Bitboard pinned = blockers_[std::size_t(Us)] & own;

    generate_pawns<Us>(sink, ksq, target, pinned);
    if (sink.done()) return;

    // Knights (a pinned knight never moves).
    for (Bitboard b = pieces(Us, PieceType::knight) & ~pinned; b;) {
        Square from = pop_lsb(b);
        sink.piece(from, knight_attacks(from) & target);
    }
    if (sink.done()) return;

    // Sliders; a queen is handled as a bishop and as a rook (disjoint targets).
    Bitboard diagonal = pieces(Us, PieceType::bishop) | pieces(Us, PieceType::queen);
    Bitboard orthogonal = pieces(Us, PieceType::rook) | pieces(Us, PieceType::queen);
    for (Bitboard b = diagonal & ~pinned; b;) {
        Square from = pop_lsb(b);
        sink.piece(from, bishop_attacks(from, occupied) & target);
    }
    for (Bitboard b = orthogonal & ~pinned; b;) {
        Square from = pop_lsb(b);
        sink.piece(from, rook_attacks(from, occupied) & target);
    }
    if (sink.done()) return;
    if (!checkers_) {
        for (Bitboard b = diagonal & pinned; b;) {
            Square from = pop_lsb(b);
            sink.piece(from, bishop_attacks(from, occupied) & target & line(ksq, from));
        }
        for (Bitboard b = orthogonal & pinned; b;) {
            Square from = pop_lsb(b);
            sink.piece(from, rook_attacks(from, occupied) & target & line(ksq, from));
        }
        if (sink.done()) return;

        for (CastleSide side : {CastleSide::king, CastleSide::queen})
            if (can_castle(Us, side) && castling_path_clear(Us, side))
                sink.add(Move(ksq, castling_rook(Us, side), MoveKind::castling));
    }
}

// Legality of the en passant capture from `from` to st_.ep_square: replay it on the occupancy
// and look for any enemy attack on our king (this covers the horizontal pin with both pawns
// on the king's rank, diagonal pins, and evasions of a check by the double-pushed pawn).
bool Position::ep_capture_legal(Square from) const {
    Color us = st_.side;
    Square to = st_.ep_square;
    Square captured(to.index() ^ 8);
    Bitboard occupied = (pieces() ^ from.bb() ^ captured.bb()) | to.bb();
    return !(attackers_to(king_square(us), occupied, ~us) & ~captured.bb());
}

// Called with st_.side already the side that may capture and the check info up to date.
void Position::set_ep_if_capturable(Square ep) {
    st_.ep_square = ep;
    for (Bitboard b = pawn_attacks(~st_.side, ep) & pieces(st_.side, PieceType::pawn); b;)
        if (ep_capture_legal(pop_lsb(b))) return;
    st_.ep_square = Square::none();
}

// For a castling right that exists, with the king not in check: the squares between king,
// rook and their destinations are empty (king and rook aside), and no square the king
// crosses or lands on is attacked once king and rook have left their squares.
bool Position::castling_path_clear(Color c, CastleSide side) const {
    auto bit = std::size_t(index(c) * 2 + int(side));
    if (pieces() & castling_path_[bit]) return false;
    Bitboard occupied = pieces() ^ king_square(c).bb() ^ castling_rook(c, side).bb();
    for (Bitboard b = castling_king_path_[bit]; b;)
        if (attacked(pop_lsb(b), occupied, ~c)) return false;
    return true;
}

void Position::generate_legal(MoveList& list) const {
    list.size = 0;
    ListSink sink{list};
    if (st_.side == Color::white)
        generate<Color::white>(sink);
    else
        generate<Color::black>(sink);
}

int Position::count_legal_moves() const {
    CountSink sink;
    if (st_.side == Color::white)
        generate<Color::white>(sink);
    else
        generate<Color::black>(sink);
    return sink.n;
}

bool Position::has_legal_move() const {
    AnySink sink;
    if (st_.side == Color::white)
        generate<Color::white>(sink);
    else
        generate<Color::black>(sink);
    return sink.found;
}

Move Position::castling_move(CastleSide side) const {
    if (!can_castle(st_.side, side) || checkers_ || !castling_path_clear(st_.side, side))
        return Move{};
    return Move(king_square(st_.side), castling_rook(st_.side, side), MoveKind::castling);
}

// The cases Position::is_legal_pseudo does not handle inline.
bool Position::is_legal_pseudo_other(Move m) const {
    Color us = st_.side;
    Square from = m.from();
    Square to = m.to();
    Square ksq = king_square(us);
    switch (m.kind()) {
    case MoveKind::en_passant:
        return ep_capture_legal(from);
    case MoveKind::castling: {
        if (checkers_) return false;
        CastleSide side = castle_side(from, to);
        return can_castle(us, side) && castling_rook(us, side) == to &&
               castling_path_clear(us, side);
    }
    default:
        break;
    }
    if (from == ksq) return !attacked(to, pieces() ^ from.bb(), ~us);
    if (checkers_) {
        if (more_than_one(checkers_)) return false;
        if (!((between(ksq, lsb(checkers_)) | checkers_) & to.bb())) return false;
    }
    return !(blockers_[std::size_t(us)] & from.bb()) || aligned(ksq, from, to);
}

bool Position::is_legal(Move m) const {
    if (!m.ok() || m.is_null() || !m.to().ok()) return false;
    Color us = st_.side;
    Square from = m.from();
    Square to = m.to();
    Piece pc = piece_on(from);
    if (pc.empty() || pc.color() != us) return false;
    MoveKind kind = m.kind();
    PieceType promo = m.promotion();
    if (kind != MoveKind::promotion && promo != PieceType::none) return false;

    if (kind == MoveKind::castling) {
        if (pc.type() != PieceType::king) return false;
        for (CastleSide side : {CastleSide::king, CastleSide::queen})
            if (can_castle(us, side) && castling_rook(us, side) == to)
                return castling_move(side) == m;
        return false;
    }
    if (kind != MoveKind::normal && kind != MoveKind::promotion && kind != MoveKind::en_passant)
        return false;

    Piece target = piece_on(to);
    if (!target.empty() && target.color() == us) return false;

    if (pc.type() == PieceType::pawn) {
        if (kind == MoveKind::en_passant) {
            if (to != st_.ep_square || !(pawn_attacks(us, from) & to.bb())) return false;
        } else {
            if ((to.rank() == last_rank(us)) != (kind == MoveKind::promotion)) return false;
            if (kind == MoveKind::promotion &&
                (promo == PieceType::none || promo == PieceType::pawn || promo == PieceType::king ||
                 index(promo) > index(PieceType::king)))
                return false;
            if (!pawn_reaches(from, to)) return false;
        }
    } else {
        if (kind != MoveKind::normal) return false;
        if (!(attacks(pc.type(), from, pieces()) & to.bb())) return false;
    }
    return is_legal_pseudo(m);
}

void Position::legal_moves_to(PieceType t, Square to, MoveList& list) const {
    list.size = 0;
    if (!to.ok()) return;
    Color us = st_.side;
    Piece target = piece_on(to);
    if (!target.empty() && target.color() == us) return;
    auto add = [&](Move m) {
        if (is_legal_pseudo(m)) list.push(m);
    };

    if (t == PieceType::pawn) {
        bool const promotes = to.rank() == last_rank(us);
        Bitboard pawns = pieces(us, PieceType::pawn);
        Bitboard froms = 0;
        if (!target.empty()) {
            froms = pawn_attacks(~us, to) & pawns;
        } else if (Square const origin = pawn_push_origin(to); origin.ok()) {
            froms = origin.bb();
        }
        while (froms) {
            Square from = pop_lsb(froms);
            if (promotes) {
                if (!is_legal_pseudo(Move(from, to))) continue;
                for (PieceType p : promotion_types)
                    list.push(Move(from, to, MoveKind::promotion, p));
            } else {
                add(Move(from, to));
            }
        }
        if (to == st_.ep_square && st_.ep_square.ok())
            for (Bitboard b = pawn_attacks(~us, to) & pawns; b;)
                add(Move(pop_lsb(b), to, MoveKind::en_passant));
        return;
    }
    if (t == PieceType::none || index(t) > index(PieceType::king)) return;
    for (Bitboard b = attacks(t, to, pieces()) & pieces(us, t); b;) add(Move(pop_lsb(b), to));
}

std::uint64_t Position::perft(int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return std::uint64_t(count_legal_moves());
    MoveList list;
    generate_legal(list);
    std::uint64_t nodes = 0;
    UndoInfo undo;
    for (Move m : list) {
        do_move(m, undo);
        nodes += depth == 2 ? std::uint64_t(count_legal_moves()) : perft(depth - 1);
        undo_move(m, undo);
    }
    return nodes;
}

} // namespace pgn_iccf::chess
