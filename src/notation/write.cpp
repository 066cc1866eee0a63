// Writing a legal move as SAN (any language, figurines), ICCF numeric or long algebraic.
// The writing rules are written once, above write_san in notation.hpp.
//
// Cost: no board copy and no move generation. Disambiguation looks only at the other pieces
// of the same type attacking the target (usually none); the check mark comes from
// Position::gives_check, and only a checking move pays a make/unmake to look for mate.
#include "notation/notation.hpp"

#include <algorithm>
#include <cstring>

namespace pgn_iccf::notation {

using chess::Bitboard;
using chess::Color;
using chess::MoveKind;

namespace {

constexpr std::array<std::string_view, 7> black_figurines = {"",       "\u265F", "\u265E", "\u265D",
                                                             "\u265C", "\u265B", "\u265A"};

// Appends to a MoveText, dropping what does not fit.
class Writer {
public:
    explicit Writer(MoveText& t) : t_(t) {}
    void put(char c) {
        if (t_.size < t_.data.size()) t_.data[t_.size++] = c;
    }
    void put(std::string_view s) {
        std::size_t const n = std::min(s.size(), t_.data.size() - t_.size);
        std::memcpy(t_.data.data() + t_.size, s.data(), n);
        t_.size = std::uint8_t(t_.size + n);
    }
    void square(Square s) {
        if (t_.size + 2U <= t_.data.size()) {
            std::memcpy(t_.data.data() + t_.size, s.name().data(), 2);
            t_.size = std::uint8_t(t_.size + 2);
        } else {
            put(s.name());
        }
    }

private:
    MoveText& t_;
};

// The check or mate mark, through either writer.
template <typename W>
void put_mark(W& w, Mark mark) {
    if (mark == Mark::mate)
        w.put('#');
    else if (mark == Mark::check)
        w.put('+');
}

Letters const& letters_of(WriteOptions const& opt) {
    return opt.letters ? *opt.letters : english();
}

std::string_view letter(Letters const& l, PieceType t, Color c) {
    if (l.figurine && c == Color::black) return black_figurines[std::size_t(t)];
    return l.letter[std::size_t(t)];
}

// The moves SAN and LAN write alike, the null move and castling (O-O / O-O-O and the check
// mark), into `out`; false, writing nothing, for any other move. The callers keep `out` as
// their one named result on every path, so it is built in place (no copy through the stack).
inline bool null_or_castling(MoveText& out, Move m, Mark mark) {
    if (m.is_null()) {
        out = write_null();
        return true;
    }
    if (m.kind() != MoveKind::castling) return false;
    Writer w(out);
    w.put(chess::castle_side(m.from(), m.to()) == chess::CastleSide::king ? "O-O" : "O-O-O");
    put_mark(w, mark);
    return true;
}

bool is_capture(Position const& pos, Move m) {
    return m.kind() == MoveKind::en_passant ||
           (m.kind() != MoveKind::castling && !pos.piece_on(m.to()).empty());
}

// The mark of legal move m, by gives_check and (only when it checks) make/unmake.
Mark mark_of(Position& pos, Move m) {
    if (m.is_null() || !pos.gives_check(m)) return Mark::none;
    chess::UndoInfo undo;
    pos.do_move(m, undo);
    bool const mate = !pos.has_legal_move();
    pos.undo_move(m, undo);
    return mate ? Mark::mate : Mark::check;
}

// What a SAN piece move (not a king's) names of its from-square so that no other piece of
// its kind that can legally go to `to` reads the same (§8.2.3.4): nothing, the file letter,
// the rank digit, or the whole square.
enum class Disambiguation : std::uint8_t { none, file, rank, square };
inline Disambiguation disambiguation(Position const& pos, PieceType t, Square from, Square to) {
    Color const us = pos.side_to_move();
    Bitboard others = chess::reaching(t, to, pos.pieces(us, t) & ~from.bb(), pos.pieces());
    bool needed = false, same_file = false, same_rank = false;
    while (others) {
        Square s = chess::pop_lsb(others);
        if (!pos.is_legal_pseudo(Move(s, to))) continue;
        needed = true;
        same_file |= s.file() == from.file();
        same_rank |= s.rank() == from.rank();
    }
    if (!needed) return Disambiguation::none;
    if (!same_file) return Disambiguation::file;
    return same_rank ? Disambiguation::square : Disambiguation::rank;
}

// A Writer without the bound checks, for text known to fit: with piece letters of at most 8
// bytes a SAN move takes at most 23 of MoveText's 32 (fewer instructions a game than the
// checked Writer, SAN -> SAN; callgrind, see the commit).
class RawWriter {
public:
    static constexpr std::size_t max_letter = 8;
    explicit RawWriter(MoveText& t) : t_(t), p_(t.data.data() + t.size) {}
    RawWriter(RawWriter const&) = delete;
    RawWriter& operator=(RawWriter const&) = delete;
    ~RawWriter() { t_.size = std::uint8_t(p_ - t_.data.data()); }
    void put(char c) { *p_++ = c; }
    void put(std::string_view s) {
        if (s.size() == 1)
            *p_ = s[0];
        else
            std::memcpy(p_, s.data(), s.size());
        p_ += s.size();
    }
    void square(Square s) {
        std::memcpy(p_, s.name().data(), 2);
        p_ += 2;
    }

private:
    MoveText& t_;
    char* p_;
};

// SAN of a move that is neither null nor castling, through either writer.
template <typename W>
[[gnu::always_inline]] inline void san_body(W& w, Position const& pos, Move m, Mark mark,
                                            Letters const& l) {
    Color const us = pos.side_to_move();
    Square const from = m.from();
    Square const to = m.to();
    PieceType const t = pos.piece_on(from).type();
    bool const capture = is_capture(pos, m);
    if (t == PieceType::pawn) {
        if (capture) {
            w.put(from.name()[0]); // the file letter
            w.put('x');
        }
        w.square(to);
        if (m.kind() == MoveKind::promotion) {
            w.put('=');
            w.put(letter(l, m.promotion(), us));
        }
    } else {
        w.put(letter(l, t, us));
        switch (t == PieceType::king ? Disambiguation::none : disambiguation(pos, t, from, to)) {
        case Disambiguation::none:
            break;
        case Disambiguation::file:
            w.put(from.name()[0]);
            break;
        case Disambiguation::rank:
            w.put(from.name()[1]);
            break;
        case Disambiguation::square:
            w.square(from);
            break;
        }
        if (capture) w.put('x');
        w.square(to);
    }
    put_mark(w, mark);
}

// Through the checked Writer, which drops what does not fit (letters of more than 8 bytes;
// no language has them).
[[gnu::noinline]] void san_checked(MoveText& out, Position const& pos, Move m, Mark mark,
                                   Letters const& l) {
    Writer w(out);
    san_body(w, pos, m, mark, l);
}

// The body of both write_san overloads (inlined into each, so the text is built in place).
[[gnu::always_inline]] inline MoveText san_text(Position const& pos, Move m, Mark mark,
                                                WriteOptions const& opt) {
    MoveText out;
    if (null_or_castling(out, m, mark)) return out;
    Letters const& l = letters_of(opt);
    Color const us = pos.side_to_move();
    PieceType const t = pos.piece_on(m.from()).type();
    // The one letter the move writes, if any: a pawn's promotion piece or the piece itself.
    std::size_t const letter_size = t != PieceType::pawn ? letter(l, t, us).size()
                                    : m.kind() == MoveKind::promotion
                                        ? letter(l, m.promotion(), us).size()
                                        : 0;
    bool const fits = letter_size <= RawWriter::max_letter;
    if (fits) {
        RawWriter w(out);
        san_body(w, pos, m, mark, l);
    } else {
        san_checked(out, pos, m, mark, l);
    }
    return out;
}

} // namespace

MoveText write_san(Position const& pos, Move m, Mark mark, WriteOptions const& opt) {
    return san_text(pos, m, mark, opt);
}

MoveText write_san(Position& pos, Move m, WriteOptions const& opt) {
    return san_text(pos, m, mark_of(pos, m), opt);
}

MoveText write_numeric(Position const& pos, Move m) {
    MoveText t; // the one named result on every path (built in place)
    if (m.is_null()) {
        t = write_null();
        return t;
    }
    NumericText const n = numeric_text(pos, m);
    std::memcpy(t.data.data(), &n.bytes, sizeof n.bytes);
    t.size = std::uint8_t(n.size);
    return t;
}

MoveText write_lan(Position const& pos, Move m, Mark mark, WriteOptions const& opt) {
    MoveText out;
    if (null_or_castling(out, m, mark)) return out;
    Writer w(out);
    Letters const& l = letters_of(opt);
    Color const us = pos.side_to_move();
    PieceType const t = pos.piece_on(m.from()).type();
    if (t != PieceType::pawn) w.put(letter(l, t, us));
    w.square(m.from());
    w.put(is_capture(pos, m) ? 'x' : '-');
    w.square(m.to());
    if (m.kind() == MoveKind::promotion) {
        w.put('=');
        w.put(letter(l, m.promotion(), us));
    }
    put_mark(w, mark);
    return out;
}

MoveText write_lan(Position& pos, Move m, WriteOptions const& opt) {
    return write_lan(static_cast<Position const&>(pos), m, mark_of(pos, m), opt);
}

MoveText write_uci(Position const& pos, Move m) {
    MoveText out;
    if (m.is_null()) {
        for (char c : syntax::uci_null_move) out.data[out.size++] = c;
        return out;
    }
    Writer w(out);
    w.square(m.from());
    w.square(written_to(pos, m));
    if (m.kind() == MoveKind::promotion) w.put(" pnbrqk"[std::size_t(m.promotion())]);
    return out;
}

} // namespace pgn_iccf::notation
