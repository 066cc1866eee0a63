// Piece letters in a move token, past the English letters that read_move matches inline:
// localized letters, figurines, the lower-case form of a letter and promotion suffixes.
// Reading rules: above read_move in notation.hpp.
#include "io/ascii.hpp"
#include "notation/notation.hpp"
#include "notation/reading.hpp"

#include <cstddef>
#include <string_view>

namespace pgn_iccf::notation {

using namespace detail;

// ♔♕♖♗♘♙ ♚♛♜♝♞♟ are U+2654..U+265F: E2 99 94..9F in UTF-8.
LetterMatch detail::match_figurine(std::string_view s) {
    constexpr PieceType order[6] = {PieceType::king,   PieceType::queen,  PieceType::rook,
                                    PieceType::bishop, PieceType::knight, PieceType::pawn};
    if (s.size() >= 3 && static_cast<unsigned char>(s[0]) == 0xE2 &&
        static_cast<unsigned char>(s[1]) == 0x99) {
        unsigned b = static_cast<unsigned char>(s[2]);
        if (b >= 0x94 && b <= 0x9F) return {order[(b - 0x94) % 6], 3};
    }
    return {};
}

LetterMatch detail::match_table(Letters const& l, std::string_view s) {
    LetterMatch best;
    for (int t = 1; t <= 6; ++t) {
        std::string_view x = l.letter[std::size_t(t)];
        // The first byte decides almost always; compare the rest only then.
        if (!x.empty() && x[0] == s[0] && x.size() > best.size && s.starts_with(x))
            best = {PieceType(t), x.size()};
    }
    return best;
}

PieceType detail::match_lower(Letters const& l, char c) {
    Letters const& src = l.figurine ? english() : l;
    for (int t = index(PieceType::knight); t <= index(PieceType::king); ++t) {
        std::string_view x = src.letter[std::size_t(t)];
        if (x.size() == 1 && is_upper(x[0]) && io::ascii::lower(x[0]) == c) return PieceType(t);
    }
    return PieceType::none;
}

// A promotion piece written after the target square: `Q`, `q`, `=Q`, `=q`, `(Q)`, `/Q`, a
// localized letter or a figurine.
PieceType detail::match_promotion(Letters const& l, std::string_view p) {
    LetterMatch m = match_letter(l, p);
    if (m.size == p.size()) return m.type;
    if (p.size() == 1 && is_lower(p[0])) return match_lower(l, p[0]);
    return PieceType::none;
}

} // namespace pgn_iccf::notation
