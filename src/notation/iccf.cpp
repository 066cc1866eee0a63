// ICCF numeric notation: what is wrong with a token of digits that has not the numeric shape,
// and the suggestions for a numeric token that could not be read. The reading rules are
// written above read_move in notation.hpp. Reading a numeric move itself stays in read.cpp:
// read_move inlines it and the resolution it shares with long algebraic (out of line, as
// one call per move, numeric -> SAN took measurably more instructions a game).
#include "notation/notation.hpp"
#include "notation/reading.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace pgn_iccf::notation {

void detail::numeric_error(std::string_view s, ReadResult& r) {
    r.notation = Notation::numeric;
    if (s.size() != 4 && s.size() != 5) {
        r.error = ReadError::invalid_syntax;
        return;
    }
    for (std::size_t i = 0; i < 4; ++i) {
        if (!is_numeric_digit(s[i])) {
            r.error = ReadError::bad_square;
            r.bad_offset = std::uint16_t(i);
            return;
        }
    }
    if (s.size() == 5 && chess::promotion_from_digit(s[4] - '0') == PieceType::none) {
        r.error = ReadError::invalid_syntax;
        r.bad_offset = 4;
    }
}

namespace {

// The offset of the single edit (substitution, adjacent transposition, insertion, deletion)
// turning `a` into `b`, or -1 when there is none (or a == b).
int edit_offset(std::string_view a, std::string_view b) {
    std::size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    if (a.size() == b.size()) {
        if (i == a.size()) return -1;
        if (a.substr(i + 1) == b.substr(i + 1)) return int(i);
        if (i + 1 < a.size() && a[i] == b[i + 1] && a[i + 1] == b[i] &&
            a.substr(i + 2) == b.substr(i + 2))
            return int(i);
        return -1;
    }
    if (a.size() == b.size() + 1) return a.substr(i + 1) == b.substr(i) ? int(i) : -1;
    if (b.size() == a.size() + 1) return b.substr(i + 1) == a.substr(i) ? int(i) : -1;
    return -1;
}

} // namespace

int suggest_numeric(Position const& pos, std::string_view token, std::span<Move> out) {
    token = detail::strip_move_suffixes(token);
    chess::MoveList list;
    pos.generate_legal(list);
    struct Hit {
        int at;
        MoveText text;
        Move move;
    };
    std::array<Hit, 256> hits;
    int n = 0;
    for (Move m : list) {
        MoveText text = write_numeric(pos, m);
        int at = edit_offset(token, text.view());
        if (at >= 0) hits[std::size_t(n++)] = {at, text, m};
    }
    // None: the move with its two squares swapped (to-square typed first: 6371 for 7163), if
    // legal; the promotion digit, if any, stays last.
    if (n == 0 && (token.size() == 4 || token.size() == 5)) {
        std::string swapped(token.substr(2, 2));
        swapped.append(token.substr(0, 2));
        swapped.append(token.substr(4));
        for (Move m : list)
            if (MoveText text = write_numeric(pos, m); text.view() == swapped)
                hits[std::size_t(n++)] = {0, text, m};
    }
    // By the offset of the edit, then by the numeric text (independent of generation order).
    std::sort(hits.begin(), hits.begin() + n, [](Hit const& a, Hit const& b) {
        return a.at != b.at ? a.at < b.at : a.text.view() < b.text.view();
    });
    int k = std::min(n, int(out.size()));
    for (int i = 0; i < k; ++i) out[std::size_t(i)] = hits[std::size_t(i)].move;
    return k;
}

} // namespace pgn_iccf::notation
