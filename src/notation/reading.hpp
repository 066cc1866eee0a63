// What read.cpp, letters.cpp and iccf.cpp share. Not for users of notation.hpp. The pieces of
// a move token that the common shapes (an English piece letter, a target square with an ASCII
// from-part and capture sign) need are inline here; the others are out of line in
// letters.cpp.
#pragma once

#include "notation/notation.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pgn_iccf::notation::detail {

// The token without its trailing check marks, annotation glyphs and e.p. (read.cpp).
std::string_view strip_move_suffixes(std::string_view token);

// A token of digits only that has not the numeric shape (is_numeric_move false): the error
// that tells what is wrong with it, with notation numeric (iccf.cpp).
void numeric_error(std::string_view s, ReadResult& r);

inline constexpr bool is_file(char c) { return c >= 'a' && c <= 'h'; }
inline constexpr bool is_rank(char c) { return c >= '1' && c <= '8'; }
inline constexpr bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
inline constexpr bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
inline constexpr bool is_letter_start(char c) {
    return is_upper(c) || is_lower(c) || (static_cast<unsigned char>(c) >= 0x80);
}

struct LetterMatch {
    PieceType type = PieceType::none;
    std::size_t size = 0;
};

// A figurine (either colour) at the start of s (letters.cpp).
LetterMatch match_figurine(std::string_view s);
// The longest letter of l at the start of s (letters.cpp).
LetterMatch match_table(Letters const& l, std::string_view s);
// The lower-case form of a one-letter Latin piece letter (not the pawn letter) (letters.cpp).
PieceType match_lower(Letters const& l, char c);
// A promotion piece written after the target square: `Q`, `q`, `=Q`, `=q`, `(Q)`, `/Q`, a
// localized letter or a figurine (letters.cpp).
PieceType match_promotion(Letters const& l, std::string_view p);

// The English letters by byte (none elsewhere).
inline constexpr std::array<PieceType, 256> english_letters = [] {
    std::array<PieceType, 256> t{};
    t['P'] = PieceType::pawn;
    t['N'] = PieceType::knight;
    t['B'] = PieceType::bishop;
    t['R'] = PieceType::rook;
    t['Q'] = PieceType::queen;
    t['K'] = PieceType::king;
    return t;
}();

// A piece letter (any piece, the pawn letter included) at the start of s, longest first.
// Figurines of both colours are accepted in every language; the "figurine" language also
// accepts the English letters.
inline LetterMatch match_letter(Letters const& l, std::string_view s) {
    if (&l == &english()) {
        // The default language: one ASCII letter per piece, read from a table (a switch
        // compiled to an indirect jump that mispredicted on most piece moves).
        PieceType const t = english_letters[static_cast<unsigned char>(s[0])];
        if (t != PieceType::none) return {t, 1};
        return match_figurine(s);
    }
    LetterMatch m = match_table(l, s);
    if (m.size) return m;
    m = match_figurine(s);
    if (m.size) return m;
    if (l.figurine) return match_table(english(), s);
    return {};
}

} // namespace pgn_iccf::notation::detail
