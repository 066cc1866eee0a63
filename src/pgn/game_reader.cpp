// The classifier that the reading room (src/reader) is given: which bytes without a tag section
// and without a result are a game, read with the moves of the starting position (notation).
#include "pgn/game_reader.hpp"

#include "grammar/scan.hpp"
#include "notation/notation.hpp"

#include <algorithm>
#include <string_view>

namespace pgn_iccf::pgn {

namespace {

using namespace pgn_iccf::scan;

// Whether bytes without a tag section and without a result are a game: their first token
// (after whitespace, comments and '%' lines) is a move number or a numeric move (`1. e4 e5`,
// a game cut short), or a move legal in the starting position (a game without tags starts
// there): `e2e4 d7d5 ...` of an engine log. Anything else (mail headers, "some garbage", a
// stray byte, a lone comment) is text between games.
bool starts_like_game(char const* p, char const* end) {
    char const* const begin = p;
    for (;;) {
        while (p != end && is_space(*p)) ++p;
        if (p == end) return false;
        if (*p == '{') {
            p = find_byte(p + 1, end, '}');
            if (p == end) return false;
            ++p;
        } else if (*p == ';' || (*p == '%' && (p == begin || is_line_end(p[-1])))) {
            p = find_line_end(p, end);
        } else {
            if (is_digit(*p)) return true;
            char const* e = token_end(p, end);
            while (e != p && (e[-1] == '!' || e[-1] == '?')) --e;
            if (e == p) return false;
            auto const token = std::string_view(p, static_cast<std::size_t>(e - p));
            return notation::read_move(chess::Position::start_position(), token).error ==
                   notation::ReadError::none;
        }
    }
}

// Whether the token at p is a move legal in the starting position (suffixes `!`/`?` aside)
// or a numeric move (four digits 1-8).
bool first_move_at(char const* p, char const* end) {
    char const* e = token_end(p, end);
    while (e != p && (e[-1] == '!' || e[-1] == '?')) --e;
    if (e == p) return false;
    auto const token = std::string_view(p, static_cast<std::size_t>(e - p));
    if (token.size() == 4 &&
        std::all_of(token.begin(), token.end(), [](char c) { return c >= '1' && c <= '8'; }))
        return true;
    return notation::read_move(chess::Position::start_position(), token).error ==
           notation::ReadError::none;
}

// Text that does not start like a game may hold a game score from a later line on: a title
// line written just above the moves (`Reti - Tartakower` then `1. e4 c6 ...`, common in
// hand-made files). The start of the first line after the first one that begins (after
// blanks) with move number 1 to 9999 with its periods and a first move (`1. e4`, `1.e4`,
// `1. 5254`), or nullptr.
char const* score_line(char const* p, char const* end) {
    for (;;) {
        p = find_line_end(p, end);
        if (p == end) return nullptr;
        ++p;
        char const* q = skip_blanks(p, end);
        char const* d = q;
        while (d != end && is_digit(*d) && d - q < 5) ++d;
        if (d == q || d == end || *d != '.') continue;
        while (d != end && (*d == '.' || is_blank(*d))) ++d;
        if (d != end && first_move_at(d, end)) return p;
    }
}

} // namespace

reader::Classifier game_classifier() { return {starts_like_game, score_line}; }

} // namespace pgn_iccf::pgn
