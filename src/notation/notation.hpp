// Reading a move token against a position, and writing a legal move as text, in SAN (any
// language of LANGUAGES.md, or figurines), ICCF numeric, and long algebraic notation.
//
// Reading returns the legal move or an error kind with the facts needed for a helpful
// message; it never throws and never allocates. Writing appends into a small fixed buffer.
#pragma once

#include "chess/position.hpp"
#include "chess/types.hpp"
#include "grammar/syntax.hpp"
#include "notation/detail.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

namespace pgn_iccf::notation {

using chess::Move;
using chess::PieceType;
using chess::Position;
using chess::Square;

// Piece letters of one language (UTF-8), indexed by PieceType (none unused).
struct Letters {
    std::string_view code;                  // "en", "fr", ..., "figurine"
    std::string_view name;                  // "English"
    std::array<std::string_view, 7> letter; // [pawn..king]; [0] unused
    bool figurine = false;                  // the figurine set: colour-correct symbols on output
};

// The letters for a language code of LANGUAGES.md or "figurine"; nullptr if unknown.
Letters const* letters_for(std::string_view code);
namespace detail {
extern std::array<Letters, 26> const language_table; // languages.cpp; English first
}
// Inline: read_move asks it once per piece move (a call and return would cost more than the
// lookup; see detail.hpp).
inline Letters const& english() { return detail::language_table[0]; }
// Every supported language (en first), for --help and tests.
std::span<Letters const> all_languages();
// The codes of all_languages(), in table order, separated by single spaces ("en de ...").
std::string language_codes();

enum class Notation : std::uint8_t { san, numeric, lan };

enum class ReadError : std::uint8_t {
    none = 0,
    invalid_syntax,        // not a move of any notation
    unknown_piece_letter,  // a letter that is no piece of the input language
    no_piece,              // no piece of that kind (or none at all, numeric) on the from-square
    illegal,               // well-formed but not legal here
    ambiguous,             // more than one legal move fits
    promotion_missing,     // a pawn reaches the last rank without a promotion piece/digit
    promotion_not_allowed, // a promotion piece/digit on a move that is no promotion
    bad_square,            // numeric digit 0 or 9, or an off-board square
    wrong_color,           // the piece on the from-square belongs to the side not to move
};

struct ReadOptions {
    Letters const* letters = nullptr;  // nullptr = English
    bool iccf_short_promotion = false; // accept the four-digit promotion form (6762)
};

// The result of reading one token (its field order is chosen for speed: detail.hpp).
struct alignas(16) ReadResult {
    Move move{}; // valid when error == none
    ReadError error = ReadError::none;
    Notation notation = Notation::san; // the notation the token was read as
    // The non-standard four-digit promotion form was used; also set with promotion_missing
    // when the token is a legal move in that form (hint: --iccf-short-promotion).
    bool short_promotion = false;
    PieceType piece = PieceType::none; // the piece named or found (for messages)
    Square from{};                     // the from-square named (numeric/LAN) if any
    Square to{};                       // the target square named, if any
    std::uint8_t candidate_count = 0;  // legal moves that fit (ambiguous) - up to 8 kept
    std::uint16_t bad_offset = 0;      // byte offset in the token where reading failed
    std::array<Move, 8> candidates = detail::no_candidates;
};

// Reads `token` (no surrounding blanks; `+`/`#`/`!?` suffixes may follow the move) as SAN,
// long algebraic or numeric, by its shape, and checks it against `pos`. Null moves (`--`,
// `Z0`) are the caller's business. The reading rules (read.cpp follows them, and they are
// written only here), the shape classes tried in this order:
// - Trailing `+ # ! ?` and `e.p.` are dropped first; check marks and the capture sign (`x`,
//   `:`, `×`, Cyrillic `х`) are optional and never checked, so wrong or missing ones are
//   accepted.
// 1. Castling: O-O, O-O-O, 0-0, 0-0-0, o-o, o-o-o (dashes optional), also in Chess960.
// 2. Numeric, any token of digits only: four digits 1-8 (0 and 9: bad_square), a fifth 1-4
//    for the promotion piece (chess::promotion_digit). Castling is the king's move (5171), or
//    king square + own rook square; the king's destination also reads as castling in Chess960
//    unless an ordinary king move goes there (that move wins). With iccf_short_promotion, four
//    digits "from-square, target file, piece digit" (6762) are read when the regular reading
//    is no legal move.
// 3. A lower-case file letter a-h starts a pawn move (`e4`, `exd5`, `ed5`, `e8=Q`, `e8q`) or a
//    coordinate move (`e2e4`, `e2-e4`, `e7e8q`); only when the token has neither shape is the
//    letter read as a lower-case piece letter (English `bd3`, `bxe5`, `bc1e3` are bishop
//    moves; `bc3`, `bxc3` stay pawn captures, since a pawn capture goes to an adjacent file).
// 4. A piece letter of `opt.letters`, longest first (Кр before К), or a figurine of either
//    colour (in every language; "figurine" input also accepts English letters), or the
//    language's pawn letter (`Pe4`, German `Be4`, Russian `пe4`; a capture without its file,
//    `Pxd5`, is read where exactly one pawn can make it), then SAN (`Nf3`, `Ngf3`, `N1f3`,
//    `Nxf3`) or a from-square and to-square (`Ng1-f3`). Other lower-case forms of one-letter
//    Latin piece letters (`nf3`, `qh5`, German `sf3`) are pieces.
//    Any other leading letter is unknown_piece_letter, never a pawn move.
// - Promotion: `=Q`, `Q`, `q`, `(Q)`, `/Q`, localized letters and figurines.
ReadResult read_move(Position const& pos, std::string_view token, ReadOptions const& opt = {});

// The shape of an ICCF numeric move token, stated once for the notation layer: four digits
// 1-8 (from file, from rank, to file, to rank) and, for a promotion, a fifth digit 1-4
// (chess::promotion_from_digit). The four square digits are tested at once: each byte minus
// '1' must be below 8. (The PGN grammar, which knows no chess, keeps its own copy in
// grammar/pgn_def.hpp, numeric_shape, pointing here.)
constexpr bool is_numeric_digit(char c) { return c >= '1' && c <= '8'; }
inline bool is_numeric_move(std::string_view s) {
    if (s.size() != 4 && s.size() != 5) return false;
    std::uint32_t v;
    std::memcpy(&v, s.data(), 4);
    return ((v - 0x31313131U) & 0xF8F8F8F8U) == 0 &&
           (s.size() == 4 || chess::promotion_from_digit(s[4] - '0') != PieceType::none);
}

// Up to `max` legal moves one edit away from a numeric token that could not be read: one
// digit substituted, two adjacent digits transposed (5245 -> 5254), one digit inserted (the
// missing fifth digit of a promotion: all four pieces) or deleted; when there is none, the
// move with the token's two squares swapped (6371 -> 7163), if legal. Each legal move at most
// once, ordered by the offset of the edit in the token, then by numeric text. Returns the
// number written to `out` (at most out.size()).
int suggest_numeric(Position const& pos, std::string_view token, std::span<Move> out);

// Writing: SAN is canonical (PGN §8.2.3): the piece letter (never for pawns), the minimal
// disambiguation among the *legal* moves of the same piece type to the same square (file if
// that tells them apart, else rank, else both), `x` on every capture (en passant included),
// the target, `=` and the promotion piece, then `+` or `#`; O-O/O-O-O in every language and
// in Chess960. Figurines are colour-correct: ♔♕♖♗♘ for White's moves, ♚♛♜♝♞ for Black's.

// A written move: up to 31 bytes of UTF-8.
struct MoveText {
    std::array<char, 32> data{};
    std::uint8_t size = 0;
    std::string_view view() const { return {data.data(), size}; }
};

// The null move, written the same in every notation: the first of the spellings read.
inline constexpr std::string_view null_move_text = syntax::null_move_spellings[0];
constexpr MoveText write_null() {
    MoveText t;
    for (char c : null_move_text) t.data[t.size++] = c;
    return t;
}

// The check mark a move is written with: none, `+` or `#`.
enum class Mark : std::uint8_t { none, check, mate };

struct WriteOptions {
    Letters const* letters = nullptr; // nullptr = English
};

// Writes legal move `m` of `pos` (the position before the move). `pos` is used for
// disambiguation and for the check/mate mark; it is left unchanged on return (a make/unmake
// may happen inside to detect mate).
MoveText write_san(Position& pos, Move m, WriteOptions const& opt = {});
// Same, when the caller already knows the mark (replay does the move anyway): no make/unmake
// inside.
MoveText write_san(Position const& pos, Move m, Mark mark, WriteOptions const& opt = {});
// ICCF numeric: "5254", "67682"; castling as the king's move (5171), or in Chess960 positions
// king square + own rook square (5161 for king e1, rook f1). Null move: null_move_text.
MoveText write_numeric(Position const& pos, Move m);

// The target square a coordinate notation (numeric, UCI) writes for legal move `m` of `pos`:
// m.to(), except for castling outside Chess960, which goes to the king's destination (g1/c1;
// a Chess960 position writes king square + own rook square, as Move stores it).
inline Square written_to(Position const& pos, Move m) {
    if (m.kind() != chess::MoveKind::castling || pos.chess960()) return m.to();
    return Position::castle_king_to(pos.side_to_move(), chess::castle_side(m.from(), m.to()));
}

// The numeric text of a move other than the null move, as write_numeric writes it: its bytes
// in one word (first byte lowest) and their number (4, or 5 for a promotion). Inline, with no
// 32-byte MoveText to clear: the export writer copies it straight into the movetext.
// (A char array instead of the word cost SAN -> numeric more instructions a game.)
static_assert(std::endian::native == std::endian::little, "NumericText's bytes are little-endian");
struct NumericText {
    std::uint64_t bytes = 0;
    std::size_t size = 0;
};
inline NumericText numeric_text(Position const& pos, Move m) {
    Square const to = written_to(pos, m);
    std::uint16_t from_name, to_name;
    std::memcpy(&from_name, m.from().numeric_name().data(), 2);
    std::memcpy(&to_name, to.numeric_name().data(), 2);
    NumericText t{from_name | std::uint64_t{to_name} << 16, 4};
    if (m.kind() == chess::MoveKind::promotion) {
        t.bytes |= std::uint64_t('0' + chess::promotion_digit(m.promotion())) << 32;
        t.size = 5;
    }
    return t;
}
// Long algebraic: "e2-e4", "Ng1-f3", "e5xd6", "e7-e8=Q", "O-O"; check marks included.
MoveText write_lan(Position& pos, Move m, WriteOptions const& opt = {});
MoveText write_lan(Position const& pos, Move m, Mark mark, WriteOptions const& opt = {});

// UCI (the engines' coordinates): "e2e4", "e7e8q"; castling as written_to places it
// ("e1g1", or "e1h1" in Chess960 positions). Null move: "0000".
MoveText write_uci(Position const& pos, Move m);

} // namespace pgn_iccf::notation
