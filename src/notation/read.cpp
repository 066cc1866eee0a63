// Reading one move token against a position: SAN (any language, figurines), long algebraic,
// ICCF numeric; the shape of the token decides which. The reading rules and the order of the
// shape classes are written once, above read_move in notation.hpp; read_move below follows
// that order.
//
// The fast path (SAN piece move, pawn move, numeric) makes no full move generation: the
// candidates come from attack tables and one legality test each. Letters other than the
// English ones (localized, figurines, lower case, promotion pieces) are read in letters.cpp.
#include "notation/notation.hpp"
#include "notation/reading.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdlib>

namespace pgn_iccf::notation {

using chess::Bitboard;
using chess::Color;
using chess::MoveKind;
using chess::Piece;
using namespace detail;

static_assert(sizeof(ReadResult) == detail::read_result_size &&
              offsetof(ReadResult, candidates) == detail::read_result_candidates_offset);

namespace {

constexpr Bitboard file_bb(int f) { return Bitboard{0x0101010101010101ULL} << f; }
constexpr Bitboard rank_bb(int r) { return Bitboard{0xFFULL} << (8 * r); }

// Drops trailing check marks, annotation glyphs and an `e.p.` / `ep` suffix, in any order.
std::string_view strip_suffixes_loop(std::string_view t) {
    for (;;) {
        if (t.empty()) return t;
        char c = t.back();
        if (c == '+' || c == '#' || c == '!' || c == '?') {
            t.remove_suffix(1);
        } else if (c == '.' && t.size() > 4 && t.ends_with("e.p.")) {
            t.remove_suffix(4);
        } else if (c == 'p' && t.size() > 3 && t[t.size() - 2] == 'e' && is_rank(t[t.size() - 3])) {
            t.remove_suffix(2);
        } else {
            return t;
        }
    }
}

// Most tokens end with a rank digit (nothing to drop): tested inline.
inline std::string_view strip_suffixes(std::string_view t) {
    if (!t.empty() && is_rank(t.back())) return t;
    return strip_suffixes_loop(t);
}

enum class TailStatus : std::uint8_t { ok, syntax, unknown_promotion };

// What follows the piece letter: [from-file][from-rank][x:-]to-square[promotion].
struct Tail {
    int from_file = -1;
    int from_rank = -1;
    Square to{};
    PieceType promotion = PieceType::none;
    std::size_t bad = 0; // offset of an unknown promotion letter
};

// What follows the piece letter, in any shape: parsed right to left, the last rank digit ends
// the target square, everything after it is the promotion piece.
TailStatus parse_tail_general(std::string_view s, Letters const& l, Tail& t) {
    std::size_t i = s.size();
    while (i > 0 && !is_rank(s[i - 1])) --i;
    if (i < 2 || !is_file(s[i - 2])) return TailStatus::syntax;
    if (i < s.size()) {
        std::string_view p = s.substr(i);
        std::size_t off = i;
        if (p[0] == '=' || p[0] == '/') {
            p.remove_prefix(1);
            ++off;
        }
        if (p.size() >= 2 && p.front() == '(' && p.back() == ')') {
            p = p.substr(1, p.size() - 2);
            ++off;
        }
        if (p.empty()) return TailStatus::syntax;
        t.promotion = match_promotion(l, p);
        if (t.promotion == PieceType::none) {
            t.bad = off;
            return is_letter_start(p[0]) ? TailStatus::unknown_promotion : TailStatus::syntax;
        }
    }
    t.to = Square::at(s[i - 2] - 'a', s[i - 1] - '1');
    std::size_t j = i - 2; // length of the from-part and separator
    if (j > 0 && (s[j - 1] == 'x' || s[j - 1] == ':' || s[j - 1] == '-'))
        --j;
    else if (j > 1 && (s.substr(j - 2, 2) == "\u0445" || s.substr(j - 2, 2) == "\u00D7"))
        j -= 2; // Cyrillic х, or ×, as the capture sign
    if (j == 0) return TailStatus::ok;
    if (j == 1) {
        if (is_file(s[0]))
            t.from_file = s[0] - 'a';
        else if (is_rank(s[0]))
            t.from_rank = s[0] - '1';
        else
            return TailStatus::syntax;
        return TailStatus::ok;
    }
    if (j == 2 && is_file(s[0]) && is_rank(s[1])) {
        t.from_file = s[0] - 'a';
        t.from_rank = s[1] - '1';
        return TailStatus::ok;
    }
    return TailStatus::syntax;
}

// parse_tail: the common shapes (the token ends with the target square, from-part and
// capture sign in ASCII) inline, the rest (promotions, other capture signs, errors) in
// parse_tail_general, which gives the same result for the common shapes.
inline TailStatus parse_tail(std::string_view s, Letters const& l, Tail& t) {
    std::size_t const n = s.size();
    if (n >= 2 && is_rank(s[n - 1]) && is_file(s[n - 2])) {
        std::size_t j = n - 2;
        if (j > 0 && (s[j - 1] == 'x' || s[j - 1] == ':' || s[j - 1] == '-')) --j;
        Square const to = Square::at(s[n - 2] - 'a', s[n - 1] - '1');
        if (j == 0) {
            t.to = to;
            return TailStatus::ok;
        }
        if (j == 1 && is_file(s[0])) {
            t.to = to;
            t.from_file = s[0] - 'a';
            return TailStatus::ok;
        }
        if (j == 1 && is_rank(s[0])) {
            t.to = to;
            t.from_rank = s[0] - '1';
            return TailStatus::ok;
        }
        if (j == 2 && is_file(s[0]) && is_rank(s[1])) {
            t.to = to;
            t.from_file = s[0] - 'a';
            t.from_rank = s[1] - '1';
            return TailStatus::ok;
        }
    }
    return parse_tail_general(s, l, t);
}

// 2 for O-O, 3 for O-O-O, else 0. Symbols O, 0 or o; dashes between them optional.
int castling_shape(std::string_view s) {
    auto symbol = [](char c) { return c == 'O' || c == '0' || c == 'o'; };
    std::size_t i = 0;
    int n = 0;
    while (i < s.size()) {
        if (!symbol(s[i])) return 0;
        ++n;
        ++i;
        if (i < s.size() && s[i] == '-') {
            ++i;
            if (i == s.size()) return 0;
        }
    }
    return n == 2 || n == 3 ? n : 0;
}

// The promotion rule for a pawn move from `from` to `to` on the last rank, for both readers of
// pawn moves: without a promotion piece the move is promotion_missing when the queen
// promotion is legal (`legal`, the reader's legality test), else illegal; a pawn or a king as
// the promotion piece is illegal. False with r.error set, or true with the move in `m`.
template <typename Legal>
[[gnu::always_inline]] inline bool last_rank_move(Square from, Square to, PieceType promo,
                                                  Legal const& legal, ReadResult& r, Move& m) {
    if (promo == PieceType::none) {
        Move const q(from, to, MoveKind::promotion, PieceType::queen);
        r.error = legal(q) ? ReadError::promotion_missing : ReadError::illegal;
        return false;
    }
    if (promo == PieceType::pawn || promo == PieceType::king) {
        r.error = ReadError::illegal;
        return false;
    }
    m = Move(from, to, MoveKind::promotion, promo);
    return true;
}

// Position::is_legal(m) for a move built by resolve_coordinates: a piece of type t of the side
// to move stands on m.from(), and the kind fits it (a pawn: normal, a valid promotion exactly
// on the last rank, or en passant to the en passant square; other pieces: normal). Those facts
// need no checking again: what is left is whether the piece reaches the target (attack set or
// pawn push) without taking its own piece, then the pin/check test of is_legal_pseudo.
bool legal_from_piece(Position const& pos, Move m, PieceType t) {
    Color const us = pos.side_to_move();
    Square const from = m.from();
    Square const to = m.to();
    if (pos.pieces(us) & to.bb()) return false;
    if (t == PieceType::pawn) {
        if (m.kind() == MoveKind::en_passant) {
            if (!(chess::pawn_attacks(us, from) & to.bb())) return false;
        } else if (!pos.pawn_reaches(from, to)) {
            return false;
        }
    } else if (!(chess::pseudo_attacks(t, from) & to.bb()) ||
               (chess::between(from, to) & pos.pieces())) {
        // The empty-board attack set and the between table: no sliding-attack lookup.
        return false;
    }
    return pos.is_legal_pseudo(m);
}

// The move of the piece on `from` to `to` (long algebraic, numeric, fully disambiguated
// SAN). `named` is the piece letter given (none: any piece). A king to its own castling
// rook's square, or (when the king has no normal move there) to its castling destination,
// is castling. True when the move is legal (r.error none): the caller needs no reload of it.
bool resolve_coordinates(Position const& pos, Square from, Square to, PieceType promo,
                         PieceType named, ReadResult& r) {
    Color const us = pos.side_to_move();
    r.from = from;
    r.to = to;
    r.piece = named;
    Piece const pc = pos.piece_on(from);
    if (pc.empty()) {
        r.error = ReadError::no_piece;
        return false;
    }
    if (pc.color() != us) {
        r.piece = pc.type();
        r.error = ReadError::wrong_color;
        return false;
    }
    if (named != PieceType::none && pc.type() != named) {
        r.error = ReadError::no_piece;
        return false;
    }
    PieceType const t = pc.type();
    r.piece = t;
    Move m{};
    if (t == PieceType::pawn) {
        if (to.rank() == chess::last_rank(us)) {
            auto const legal = [&pos](Move q) { return pos.is_legal(q); };
            if (!last_rank_move(from, to, promo, legal, r, m)) return false;
        } else {
            bool ep = to == pos.ep_square() && to.file() != from.file();
            m = Move(from, to, ep ? MoveKind::en_passant : MoveKind::normal);
        }
    }
    bool legal = false;
    if (t == PieceType::king) {
        // A castling move from castling_move() is legal; so is `plain` when tested so.
        Move const plain(from, to);
        if (pos.piece_on(to) == Piece(us, PieceType::rook)) {
            for (auto side : {chess::CastleSide::king, chess::CastleSide::queen}) {
                Move c = pos.castling_move(side);
                if (c.ok() && c.from() == from && c.to() == to) m = c;
            }
        } else if (legal_from_piece(pos, plain, t)) {
            m = plain;
        } else {
            for (auto side : {chess::CastleSide::king, chess::CastleSide::queen}) {
                if (to != Position::castle_king_to(us, side)) continue;
                Move c = pos.castling_move(side);
                if (c.ok() && c.from() == from) m = c;
            }
        }
        legal = m.ok();
        if (!m.ok()) m = plain;
    } else {
        if (t != PieceType::pawn) m = Move(from, to);
        legal = legal_from_piece(pos, m, t);
    }
    if (promo != PieceType::none && m.kind() != MoveKind::promotion) {
        r.error = legal ? ReadError::promotion_not_allowed : ReadError::illegal;
        return false;
    }
    if (!legal) {
        r.error = ReadError::illegal;
        return false;
    }
    r.move = m;
    return true;
}

// Long algebraic (`e2e4`, `Ng1-f3`, `e7e8q`): when the tail names the whole from-square, the
// move of the piece there (`named`: the letter given, none for a pawn or a bare square), read
// by resolve_coordinates; false, doing nothing, for any other tail.
[[gnu::always_inline]] inline bool read_long_algebraic(Position const& pos, Tail const& tail,
                                                       PieceType named, ReadResult& r) {
    if (tail.from_file < 0 || tail.from_rank < 0) return false;
    r.notation = Notation::lan;
    resolve_coordinates(pos, Square::at(tail.from_file, tail.from_rank), tail.to, tail.promotion,
                        named, r);
    return true;
}

// SAN pawn move: a push (from_file < 0) or a capture from the adjacent file `from_file`.
void resolve_pawn(Position const& pos, int from_file, Square to, PieceType promo, ReadResult& r) {
    Color const us = pos.side_to_move();
    Piece const pawn(us, PieceType::pawn);
    r.piece = PieceType::pawn;
    r.to = to;
    // A pawn stands at least on its second rank, so it reaches the third at the earliest.
    if (chess::relative_rank(us, to.rank()) < 2) {
        r.error = ReadError::illegal;
        return;
    }
    Square from;
    MoveKind kind = MoveKind::normal;
    if (from_file < 0) {
        if (!pos.piece_on(to).empty()) {
            r.error = ReadError::illegal;
            return;
        }
        from = pos.pawn_push_origin(to);
        if (!from.ok()) {
            r.error = pos.pieces(us, PieceType::pawn) & file_bb(to.file()) ? ReadError::illegal
                                                                           : ReadError::no_piece;
            return;
        }
    } else {
        Square const behind(to.index() - chess::pawn_push(us));
        from = Square::at(from_file, behind.rank());
        r.from = from;
        if (pos.piece_on(from) != pawn) {
            r.error = ReadError::no_piece;
            return;
        }
        if (to == pos.ep_square()) {
            kind = MoveKind::en_passant;
        } else {
            Piece const target = pos.piece_on(to);
            if (target.empty() || target.color() == us) {
                r.error = ReadError::illegal;
                return;
            }
        }
    }
    r.from = from;
    Move m;
    if (to.rank() == chess::last_rank(us)) {
        auto const legal = [&pos](Move q) { return pos.is_legal_pseudo(q); };
        if (!last_rank_move(from, to, promo, legal, r, m)) return;
    } else {
        m = Move(from, to, kind);
        if (promo != PieceType::none) {
            r.error =
                pos.is_legal_pseudo(m) ? ReadError::promotion_not_allowed : ReadError::illegal;
            return;
        }
    }
    if (!pos.is_legal_pseudo(m)) {
        r.error = ReadError::illegal;
        return;
    }
    r.move = m;
}

// SAN piece move with optional disambiguation (from_file / from_rank, not both).
void resolve_piece(Position const& pos, PieceType t, Tail const& tail, ReadResult& r) {
    Color const us = pos.side_to_move();
    Square const to = tail.to;
    r.piece = t;
    r.to = to;
    Bitboard cand = pos.pieces(us, t);
    if (tail.from_file >= 0) cand &= file_bb(tail.from_file);
    if (tail.from_rank >= 0) cand &= rank_bb(tail.from_rank);
    if (!cand) {
        r.error = ReadError::no_piece;
        return;
    }
    if (pos.pieces(us) & to.bb()) {
        r.error = ReadError::illegal;
        return;
    }
    cand = chess::reaching(t, to, cand, pos.pieces());
    // Not in check and not the king: a candidate is legal unless pinned off the line through
    // its king and `to` (is_legal_pseudo on the whole set at once, no loop for one candidate).
    if (!pos.checkers() && t != PieceType::king) {
        // The king's line through `to` only when a candidate is pinned (rarely).
        Bitboard const pinned = cand & pos.blockers_for_king(us);
        Bitboard const legal =
            pinned ? (cand & ~pinned) | (pinned & chess::line(pos.king_square(us), to)) : cand;
        if (!legal) {
            r.error = ReadError::illegal;
            return;
        }
        if (!chess::more_than_one(legal)) {
            if (tail.promotion != PieceType::none) {
                r.error = ReadError::promotion_not_allowed;
                return;
            }
            r.move = Move(chess::lsb(legal), to);
            return;
        }
    }
    // The first legal candidate stays in a register; the list is written only when a second
    // one turns up (ambiguous), which keeps the common case free of store/reload.
    Move first{};
    int n = 0;
    while (cand) {
        Move m(chess::pop_lsb(cand), to);
        if (!pos.is_legal_pseudo(m)) continue;
        if (n == 0) {
            first = m;
        } else {
            if (n == 1) r.candidates[0] = first;
            if (n < int(r.candidates.size())) r.candidates[std::size_t(n)] = m;
        }
        ++n;
    }
    if (n == 0) {
        r.error = ReadError::illegal;
        return;
    }
    if (n > 1) {
        r.candidate_count = std::uint8_t(std::min<int>(n, int(r.candidates.size())));
        r.error = ReadError::ambiguous;
        return;
    }
    if (tail.promotion != PieceType::none) {
        r.error = ReadError::promotion_not_allowed;
        return;
    }
    r.move = first;
}

// A token of the numeric shape (is_numeric_move(s)): four digits 1-8, a valid fifth if any.
// No second digit scan, and resolve_coordinates' result in a register. It stays in this file,
// inlined into read_move with resolve_coordinates: out of line (in iccf.cpp), numeric -> SAN
// took more instructions a game (see the commit that split this file).
void read_numeric_move(Position const& pos, std::string_view s, ReadOptions const& opt,
                       ReadResult& r) {
    r.notation = Notation::numeric;
    Square const from = Square::at(s[0] - '1', s[1] - '1');
    Square const to = Square::at(s[2] - '1', s[3] - '1');
    PieceType const promo =
        s.size() == 5 ? chess::promotion_from_digit(s[4] - '0') : PieceType::none;
    if (resolve_coordinates(pos, from, to, promo, PieceType::none, r) || s.size() != 4) return;

    // The non-standard short form: from-square, target file, promotion digit (6762).
    Color const us = pos.side_to_move();
    PieceType const short_promo = chess::promotion_from_digit(s[3] - '0');
    if (pos.piece_on(from) != Piece(us, PieceType::pawn) ||
        from.rank() != chess::relative_rank(us, 6) || short_promo == PieceType::none)
        return;
    Move const m(from, Square::at(s[2] - '1', chess::last_rank(us)), MoveKind::promotion,
                 short_promo);
    if (!pos.is_legal(m)) return;
    r = ReadResult{};
    r.notation = Notation::numeric;
    r.piece = PieceType::pawn;
    r.from = m.from();
    r.to = m.to();
    r.short_promotion = true;
    if (opt.iccf_short_promotion)
        r.move = m;
    else
        r.error = ReadError::promotion_missing;
}

// A token with a leading piece letter (or pawn letter) of `size` bytes.
void read_with_letter(Position const& pos, std::string_view s, std::size_t size, PieceType t,
                      Letters const& l, ReadResult& r) {
    Tail tail;
    TailStatus st = parse_tail(s.substr(size), l, tail);
    if (st != TailStatus::ok) {
        r.piece = t;
        r.error =
            st == TailStatus::syntax ? ReadError::invalid_syntax : ReadError::unknown_piece_letter;
        r.bad_offset = std::uint16_t(st == TailStatus::syntax ? 0 : tail.bad + size);
        return;
    }
    if (read_long_algebraic(pos, tail, t, r)) return;
    if (t != PieceType::pawn) {
        resolve_piece(pos, t, tail, r);
        return;
    }
    if (tail.from_rank >= 0) {
        r.error = ReadError::invalid_syntax;
        return;
    }
    if (tail.from_file >= 0 && std::abs(tail.from_file - tail.to.file()) != 1) {
        r.piece = PieceType::pawn;
        r.to = tail.to;
        r.error = ReadError::illegal;
        return;
    }
    if (tail.from_file < 0 && (!pos.piece_on(tail.to).empty() || tail.to == pos.ep_square())) {
        // `Pxd5` (or `Pd5` onto a piece): a pawn capture without its file, as some sources
        // write it. Read where exactly one pawn can make it; two are ambiguous.
        ReadResult found, no_promotion;
        int n = 0, missing = 0;
        for (int const f : {tail.to.file() - 1, tail.to.file() + 1}) {
            if (f < 0 || f > 7) continue;
            ReadResult c;
            resolve_pawn(pos, f, tail.to, tail.promotion, c);
            if (c.error == ReadError::promotion_missing && missing++ == 0) no_promotion = c;
            if (c.error != ReadError::none) continue;
            if (n == 0) found = c;
            r.candidates[std::size_t(n++)] = c.move;
        }
        if (n == 1) {
            found.notation = r.notation;
            r = found;
            return;
        }
        if (n == 2) {
            r.piece = PieceType::pawn;
            r.to = tail.to;
            r.error = ReadError::ambiguous;
            r.candidate_count = 2;
            return;
        }
        if (missing == 1) {
            // `Pxb8`: the one pawn that can take there needs its promotion piece.
            no_promotion.notation = r.notation;
            r = no_promotion;
            return;
        }
        r.candidates = detail::no_candidates;
    }
    resolve_pawn(pos, tail.from_file, tail.to, tail.promotion, r);
}

// A token starting with a file letter: pawn move or coordinates, else a lower-case piece.
void read_from_file(Position const& pos, std::string_view s, Letters const& l, ReadResult& r) {
    Tail tail;
    TailStatus st = parse_tail(s, l, tail);
    if (st == TailStatus::unknown_promotion) {
        r.error = ReadError::unknown_piece_letter;
        r.bad_offset = std::uint16_t(tail.bad);
        return;
    }
    if (st == TailStatus::ok) {
        if (read_long_algebraic(pos, tail, PieceType::none, r)) return;
        if (tail.from_file < 0 ||
            (tail.from_rank < 0 && std::abs(tail.from_file - tail.to.file()) == 1)) {
            resolve_pawn(pos, tail.from_file, tail.to, tail.promotion, r);
            return;
        }
    }
    PieceType const lower = match_lower(l, s[0]);
    if (lower != PieceType::none) {
        read_with_letter(pos, s, 1, lower, l, r);
        return;
    }
    if (st == TailStatus::ok) {
        r.piece = PieceType::pawn; // e.g. `ae4`: no pawn captures that way
        r.to = tail.to;
        r.error = ReadError::illegal;
    } else {
        r.error = ReadError::invalid_syntax;
    }
}

// A fresh ReadResult, copied with three 16-byte loads and stores (fewer instructions than
// field by field).
constinit ReadResult const fresh_result{};

} // namespace

[[gnu::flatten]] ReadResult read_move(Position const& pos, std::string_view token,
                                      ReadOptions const& opt) {
    Letters const& l = opt.letters ? *opt.letters : english();
    ReadResult const* fresh = &fresh_result;
    asm("" : "+r"(fresh)); // GCC would otherwise store the known field values one by one
    ReadResult r = *fresh;
    std::string_view const s = strip_suffixes(token);
    if (s.empty()) {
        r.error = ReadError::invalid_syntax;
        return r;
    }
    char const c0 = s[0];
    if (c0 == 'O' || c0 == 'o' || c0 == '0') {
        if (int n = castling_shape(s)) {
            r.piece = PieceType::king;
            Move m = pos.castling_move(n == 2 ? chess::CastleSide::king : chess::CastleSide::queen);
            if (m.ok())
                r.move = m;
            else
                r.error = ReadError::illegal;
            return r;
        }
        // O-O-O-O and the like: a broken castling, not a piece letter O.
        if (std::all_of(s.begin(), s.end(),
                        [](char c) { return c == 'O' || c == 'o' || c == '0' || c == '-'; }) &&
            s.find('-') != std::string_view::npos) {
            r.error = ReadError::invalid_syntax;
            return r;
        }
    }
    if (c0 >= '0' && c0 <= '9') {
        // The usual numeric token: a shortcut past the all-digits test.
        if (is_numeric_move(s)) {
            read_numeric_move(pos, s, opt, r);
            return r;
        }
        if (std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
            detail::numeric_error(s, r); // iccf.cpp
        else
            r.error = ReadError::invalid_syntax;
        return r;
    }
    if (is_file(c0)) {
        read_from_file(pos, s, l, r);
        return r;
    }
    LetterMatch const m = match_letter(l, s);
    if (m.size) {
        read_with_letter(pos, s, m.size, m.type, l, r);
        return r;
    }
    if (is_lower(c0)) {
        if (PieceType t = match_lower(l, c0); t != PieceType::none) {
            read_with_letter(pos, s, 1, t, l, r);
            return r;
        }
        r.error = ReadError::invalid_syntax;
        return r;
    }
    r.error = is_letter_start(c0) ? ReadError::unknown_piece_letter : ReadError::invalid_syntax;
    return r;
}

std::string_view detail::strip_move_suffixes(std::string_view token) {
    return strip_suffixes(token);
}

} // namespace pgn_iccf::notation
