// The chess vocabulary: colours, pieces, squares, moves and bitboards.
//
// Everything here is a small value type with constexpr helpers and no I/O, so that every layer
// above (notation, pgn, batch) can pass them around by value at no cost.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

namespace pgn_iccf::chess {

using Bitboard = std::uint64_t;

enum class Color : std::uint8_t { white = 0, black = 1 };

constexpr Color operator~(Color c) { return Color(std::uint8_t(c) ^ 1U); }
constexpr int index(Color c) { return int(c); }

// Ranks and directions seen from colour c's side of the board: rank 0 is its home rank (where
// its king starts), 7 the last rank (where its pawns promote), and a pawn push adds
// pawn_push(c) to the square index. The one place that turns "white or black" into a rank.
constexpr int relative_rank(Color c, int rank) { return rank ^ (7 * index(c)); }
constexpr int home_rank(Color c) { return relative_rank(c, 0); }
constexpr int last_rank(Color c) { return relative_rank(c, 7); }
constexpr int pawn_push(Color c) { return 8 - 16 * index(c); }

// Order matters: pawn..king index the per-type bitboards.
enum class PieceType : std::uint8_t { none = 0, pawn, knight, bishop, rook, queen, king };

constexpr int index(PieceType t) { return int(t); }

// The promotion digit of ICCF numeric notation, the fifth digit of a move (67682): digit d
// (1-4) names iccf_promotion_pieces[d - 1], so 1 queen, 2 rook, 3 bishop, 4 knight.
// promotion_digit gives 0 for any other type, promotion_from_digit PieceType::none for a
// digit outside 1-4.
inline constexpr std::array<PieceType, 4> iccf_promotion_pieces{
    PieceType::queen, PieceType::rook, PieceType::bishop, PieceType::knight};
constexpr int promotion_digit(PieceType t) {
    for (int i = 0; i < 4; ++i)
        if (iccf_promotion_pieces[std::size_t(i)] == t) return i + 1;
    return 0;
}
constexpr PieceType promotion_from_digit(int digit) {
    return digit >= 1 && digit <= 4 ? iccf_promotion_pieces[std::size_t(digit - 1)]
                                    : PieceType::none;
}

// A coloured piece: colour in bit 3, type in bits 0-2; Piece{} is "no piece".
class Piece {
public:
    constexpr Piece() = default;
    constexpr Piece(Color c, PieceType t)
        : v_(std::uint8_t((std::uint8_t(c) << 3) | std::uint8_t(t))) {}
    constexpr Color color() const { return Color(v_ >> 3); }
    constexpr PieceType type() const { return PieceType(v_ & 7U); }
    constexpr bool empty() const { return (v_ & 7U) == 0; }
    constexpr std::uint8_t raw() const { return v_; }
    constexpr bool operator==(Piece const&) const = default;

private:
    std::uint8_t v_ = 0;
};

namespace detail {
// Two characters per square, a1 first: algebraic names (FirstFile 'a') or ICCF numeric ('1').
template <char FirstFile>
constexpr std::array<char, 128> square_names() {
    std::array<char, 128> a{};
    for (int i = 0; i < 64; ++i) {
        a[std::size_t(2 * i)] = char(FirstFile + i % 8);
        a[std::size_t(2 * i + 1)] = char('1' + i / 8);
    }
    return a;
}
inline constexpr std::array<char, 128> algebraic_square_names = square_names<'a'>();
inline constexpr std::array<char, 128> numeric_square_names = square_names<'1'>();
} // namespace detail

// A board square, a1 = 0, b1 = 1, ..., h8 = 63; Square{} (value 64) is "no square".
// name() and numeric_name() are its two-character names, algebraic ("e4": SAN, LAN, UCI, FEN)
// and ICCF numeric ("54": file digit, then rank digit), for ok() squares only; one table
// each, so a writer copies two bytes.
class Square {
public:
    constexpr Square() = default;
    constexpr explicit Square(int index) : v_(std::uint8_t(index)) {}
    static constexpr Square at(int file, int rank) { return Square(rank * 8 + file); }
    static constexpr Square none() { return Square(); }

    constexpr int index() const { return v_; }
    constexpr int file() const { return v_ & 7; }  // 0 = a-file
    constexpr int rank() const { return v_ >> 3; } // 0 = first rank
    constexpr bool ok() const { return v_ < 64; }
    constexpr Bitboard bb() const { return Bitboard{1} << v_; }
    constexpr std::string_view name() const {
        return {detail::algebraic_square_names.data() + 2 * v_, 2};
    }
    constexpr std::string_view numeric_name() const {
        return {detail::numeric_square_names.data() + 2 * v_, 2};
    }
    constexpr bool operator==(Square const&) const = default;
    constexpr auto operator<=>(Square const&) const = default;

private:
    std::uint8_t v_ = 64;
};

// Move kinds. Castling is encoded as "king takes own rook" (from = king square, to = the
// castling rook's square) so that standard chess and Chess960 share one representation; the
// king's and rook's destinations follow from the side (g/c file, f/d file).
enum class MoveKind : std::uint8_t {
    normal = 0,
    promotion = 1,
    en_passant = 2,
    castling = 3,
    null = 4
};

// A move: from, to, and an info byte (bits 0-2 MoveKind, bits 3-5 the promotion PieceType),
// packed into one 32-bit word (byte 0 from, byte 1 to, byte 2 info, byte 3 zero). One word
// rather than three separate bytes: a move is written and read as a whole, so passing it
// through memory (a result struct, a spilled register) never stalls on store forwarding,
// which three byte-sized stores read back as one wider load do, once per move.
// Move{} is "no move" (ok() is false); Move::null_move() is the `--` move.
class Move {
public:
    constexpr Move() = default;
    constexpr Move(Square from, Square to, MoveKind kind = MoveKind::normal,
                   PieceType promotion = PieceType::none)
        : v_(std::uint32_t(from.index()) | (std::uint32_t(to.index()) << 8) |
             (std::uint32_t(std::uint8_t(kind) | (std::uint8_t(promotion) << 3)) << 16)) {}
    static constexpr Move null_move() { return Move(Square(0), Square(0), MoveKind::null); }

    constexpr Square from() const { return Square(int(v_ & 0xffU)); }
    constexpr Square to() const { return Square(int((v_ >> 8) & 0xffU)); }
    constexpr MoveKind kind() const { return MoveKind((v_ >> 16) & 7U); }
    constexpr PieceType promotion() const { return PieceType((v_ >> 19) & 7U); }
    constexpr bool is_null() const { return kind() == MoveKind::null; }
    constexpr bool ok() const { return from().ok() && (from() != to() || is_null()); }
    constexpr bool operator==(Move const&) const = default;

private:
    std::uint32_t v_ = 64U | (64U << 8); // from and to: no square
};

static_assert(sizeof(Move) == 4);

// A fixed-capacity list of moves; 256 exceeds the maximum number of legal moves (218).
struct MoveList {
    std::array<Move, 256> moves;
    int size = 0;

    constexpr void push(Move m) { moves[std::size_t(size++)] = m; }
    constexpr Move const* begin() const { return moves.data(); }
    constexpr Move const* end() const { return moves.data() + size; }
    constexpr Move operator[](int i) const { return moves[std::size_t(i)]; }
    constexpr bool contains(Move m) const {
        for (int i = 0; i < size; ++i)
            if (moves[std::size_t(i)] == m) return true;
        return false;
    }
};

// Castling sides.
enum class CastleSide : std::uint8_t { king = 0, queen = 1 }; // O-O, O-O-O

// The side of a castling by the king on `king` with the rook on `rook` (the same rank): king
// side when the rook stands on a higher file. Standard chess and Chess960 alike.
constexpr CastleSide castle_side(Square king, Square rook) {
    return rook.index() > king.index() ? CastleSide::king : CastleSide::queen;
}

constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
constexpr Square pop_lsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}

} // namespace pgn_iccf::chess
