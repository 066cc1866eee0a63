// The lexical primitives of the PGN grammar, part 2: the movetext tokens (NAGs, move numbers,
// moves, variations, the fast path of common tokens, the result and what follows it, the end
// of the game). Part 1 and the common notes: lex.hpp.
#pragma once

#include "grammar/lex.hpp"

#include <array>
#include <cstring>

namespace pgn_iccf::parser::detail {

// §8.2.4 NAG `$n`, n in 0..255: delivered, and `first` moved past it; false (nothing
// consumed) if none starts there.
inline bool parse_nag(State& st, char const*& first, char const* last) {
    char const* p = first;
    if (p == last || *p != '$') return false;
    {
        char const* e = p + 1;
        unsigned value = 0;
        while (e != last && scan::is_digit(*e) && e - p <= 4)
            value = value * 10 + unsigned(*e++ - '0');
        if (e == p + 1) throw SyntaxError{p, "$", syntax::SyntaxCode::expected_nag_number};
        if (e != last && scan::is_digit(*e)) {
            while (e != last && scan::is_digit(*e)) ++e;
            value = 256;
        }
        if (value > 255) {
            st.warn(p, view(p, e), syntax::SyntaxCode::nag_out_of_range);
        } else if (st.active()) {
            st.visitor.nag(st.token(p, e), static_cast<std::uint8_t>(value));
        }
        st.consume(p, e);
        first = e;
        return true;
    }
}

// `38. ...1-0`: the periods of a move number glued to the result. A warning; p moves past
// the periods (the result rule reads the rest).
[[gnu::cold, gnu::noinline]] inline bool glued_to_result(State& st, char const*& p, char const* e,
                                                         char const* last) {
    char const* d = p;
    while (d != e && *d == '.') ++d;
    if (d == e || scan::result_length(d, last) == 0) return false;
    if (st.active()) st.warn(p, view(p, e), syntax::SyntaxCode::glued_periods_result);
    st.consume(p, d);
    p = d;
    return true;
}

// Move numbers, moves, null moves and glyphs (§8.2.2, §8.2.3): everything that is a token
// run and not a result: delivered, and `first` moved past it; false (nothing consumed) if no
// token or a result starts there.
inline bool parse_move_token(State& st, char const*& first, char const* last) {
    char const* p = first;
    if (p == last || !scan::is_token_byte(*p) || scan::result_length(p, last) != 0) return false;
    {
        char const* e = scan::token_end(p, last);
        if (scan::is_digit(*p)) {
            char const* d = digits_end(p, e);
            if (d != e && *d == '.') {
                char const* const digits = d;
                while (d != e && *d == '.') ++d;
                // A move glued to its number (`12.Nf3`, `1.5254`); a result glued to a
                // number (`40.1-0`) is left for the result rule.
                if (d != e && scan::result_length(d, last) == 0) deliver_token(st, d, e);
                // `5254.`: a numeric move with periods, or a move number (Visitor::integer).
                if (d == e && e - p >= 5) deliver_integer(st, p, digits, e);
                first = (d != e && scan::result_length(d, last) != 0) ? d : e;
                st.consume(p, first);
                return true;
            }
            deliver_digit_token(st, p, d, e);
        } else if (*p == '.' && glued_to_result(st, p, e, last)) {
            first = p; // the periods are consumed; the result is left for the result rule
            return true;
        } else {
            deliver_token(st, p, e);
        }
        st.consume(p, e);
        first = e;
        return true;
    }
}

// §8.2.5 RAV delimiters; the depth cap keeps hostile input from overflowing the stack.
struct variation_open_parser : primitive<variation_open_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        char const* p = first;
        if (p == last || *p != '(' || scan::result_length(p, last) != 0) return false; // (+)-(-)
        State& st = state(ctx);
        if (++st.depth > st.options.max_variation_depth)
            throw SyntaxError{p, "(", syntax::SyntaxCode::depth_exceeded,
                              static_cast<std::uint32_t>(st.options.max_variation_depth)};
        if (st.active() && !st.visitor.begin_variation(st.token(p, p + 1)))
            st.muted_depth = st.depth;
        st.consume(p, p + 1);
        first = p + 1;
        return true;
    }
};

struct variation_close_parser : primitive<variation_close_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        State& st = state(ctx);
        char const* p = first;
        if (p == last || *p != ')') return false;
        if (st.muted_depth == st.depth) st.muted_depth = 0;
        if (st.active()) st.visitor.end_variation(st.token(p, p + 1));
        --st.depth;
        st.consume(p, p + 1);
        first = p + 1;
        return true;
    }
};

// Outside every variation, a ')' that closes nothing (real files have one after a closed
// variation): a warning, and the movetext goes on.
inline bool parse_stray_close(State& st, char const*& first, char const* last) {
    char const* p = first;
    if (p == last || *p != ')' || st.depth != 0) return false;
    if (st.active()) st.warn(p, ")", syntax::SyntaxCode::stray_variation_close);
    st.consume(p, p + 1);
    first = p + 1;
    return true;
}

// A '}' that closes no comment (a comment is read whole, up to its '}') or a ']' that closes
// no tag pair, in movetext: a warning, and the movetext goes on, as for a stray ')'.
[[gnu::cold, gnu::noinline]] inline bool stray_closer(State& st, char const*& first) {
    char const* const p = first;
    if (st.active()) {
        if (*p == '}')
            st.warn(p, "}", syntax::SyntaxCode::stray_comment_close);
        else
            st.warn(p, "]", syntax::SyntaxCode::stray_tag_close);
    }
    st.consume(p, p + 1);
    first = p + 1;
    return true;
}

inline bool parse_stray_closer(State& st, char const*& first, char const* last) {
    return first != last && (*first == '}' || *first == ']') && stray_closer(st, first);
}

// Inside a variation, a result or '*' (pgn4web writes `(3. Nf3 1/2-1/2)` and `(*)`): a
// warning, and the marker is skipped; it is not the game's result.
inline bool parse_variation_result(State& st, char const*& first, char const* last) {
    char const* p = first;
    if (p == last || st.depth == 0) return false;
    auto const n = scan::result_length(p, last);
    if (n == 0) return false;
    if (st.active()) st.warn(p, view(p, p + n), syntax::SyntaxCode::result_in_variation);
    st.consume(p, p + n);
    first = p + n;
    return true;
}

// deliver_move for the fast path below: a move token [p, e) without suffix or `e.p.`, with no
// line end between the counted point and p. (Fewer instructions a game than deliver_move,
// most on numeric input: callgrind, see the commit.)
inline void deliver_plain_move(State& st, char const* p, char const* e) {
    st.content = true;
    if (!st.active()) return;
    syntax::Location const at = st.loc_on_line(p);
    auto const n = static_cast<std::uint32_t>(e - p);
    st.visitor.move(State::make_token(view(p, e), at),
                    State::make_token(view(e, e), {at.offset + n, at.line, at.column + n}));
}

// The last bytes of a move token that the fast path delivers as it is: not a suffix ('!',
// '?'), not the end of `e.p.`, not a byte of a glued glyph (non-ASCII: deliver_move decides).
constexpr std::array<bool, 256> make_plain_move_ends() {
    std::array<bool, 256> t{};
    for (int c = 0; c != 0x80; ++c) t[static_cast<std::size_t>(c)] = true;
    t['!'] = t['?'] = t['.'] = false;
    return t;
}
inline constexpr std::array<bool, 256> plain_move_end = make_plain_move_ends();

inline bool is_ascii_letter(char c) { return static_cast<unsigned char>((c | 0x20) - 'a') < 26; }

// One common token of the fast path below at p (16 bytes readable after it): delivered; the
// byte after it, or nullptr if it is none of those tokens.
inline char const* fast_token(State& st, char const* p) {
    char const* const e = scan::first_where<16>(p, [](char c) { return !scan::is_token_byte(c); });
    if (e == nullptr || e == p) return nullptr; // a long token, a delimiter
    if (is_ascii_letter(*p)) {
        // No suffix, `e.p.`, glyph at the end, and none before a check mark (`e4!+`).
        if (plain_move_end[static_cast<unsigned char>(e[-1])] &&
            (!is_check_mark(e[-1]) || !has_suffix_char(p, e))) {
            deliver_plain_move(st, p, e);
        } else {
            if (*p == 'e' && e - p == 4 && std::memcmp(p, "e.p.", 4) == 0) return nullptr;
            st.passed(p);
            deliver_move(st, p, e);
        }
    } else if (scan::is_digit(*p)) {
        char const* q = p + 1;
        while (scan::is_digit(*q)) ++q; // stops at e at the latest
        if (q == e) { // a bare integer (no result), as deliver_digit_token reads it
            if (integer_is_move(st, p, e)) {
                deliver_plain_move(st, p, e);
            } else if (e - p >= 2) {
                st.passed(p);
                deliver_integer(st, p, e, e);
            }
        } else {
            if (*q != '.') return nullptr; // a result, 0-0, ...
            char const* const digits = q;
            while (*q == '.') ++q;
            if (q != e) return nullptr; // `12.Nf3`, ...
            if (e - p >= 5) {           // `5254.`: as parse_move_token reads it
                st.passed(p);
                deliver_integer(st, p, digits, e);
            }
        }
    } else {
        return nullptr;
    }
    return e;
}

// The common tokens of a movetext line in one tight loop: move numbers with periods (`12.`,
// `12...`), tokens starting with a letter (moves) and brace comments on one line, each
// followed by one blank or by an LF. It
// stops at anything else, at the start of the token or of the whitespace, with the line ends
// counted up to there: the element rules then read it exactly as before (and say what they say
// about it). It reads nothing within 32 bytes of the end of the game, so a token of up to 15 bytes
// and the two bytes after it need no end test. (Fewer instructions a game than the element
// rules alone: callgrind, see the commit.)
inline char const* movetext_fast_path(State& st, char const* p, char const* last) {
    if (!st.counted_to(p)) return p; // after backtracking: the element rules count
    while (last - p >= 32) {
        if (char const* const e = fast_token(st, p)) {
            p = e;
        } else if (*p == '{') {
            // A brace comment on one line, as parse_comment reads it (lichess games: one per
            // move; callgrind, SAN -> numeric: see the commit). The two bytes after it must be
            // readable.
            char const* const close = scan::find_byte(p + 1, last, '}');
            if (last - close < 3 || scan::may_hold_line_end(p + 1, close, last)) break;
            if (st.active() && st.options.comments)
                st.visitor.comment(State::make_token(view(p + 1, close), st.loc_on_line(p + 1)),
                                   CommentKind::brace);
            p = close + 1;
        } else {
            break;
        }
        if (*p == ' ') {
            if (scan::is_space(p[1])) break;
            ++p;
        } else if (*p == '\n') {
            if (scan::is_space(p[1]) || p[1] == '%') break;
            st.passed_lf(p);
            ++p;
        } else {
            break;
        }
    }
    st.passed(p);
    return p;
}

// The movetext elements other than variations (§8.2.2-8.2.4: move numbers, moves, glyphs,
// comments, NAGs, a stray ')', a result inside a variation), in one hand-written loop: the
// movetext rule alternates it with variations. (It replaces an X3 repetition of a sequence
// of six alternatives per element, which took more instructions a game.) It stops at the
// first byte that starts none of these (a variation, the ')' closing one, the game's result,
// anything unexpected), after the whitespace before it; always succeeds. The common tokens go
// through movetext_fast_path first.
struct movetext_run_parser : primitive<movetext_run_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        State& st = state(ctx);
        char const* p = first;
        for (;;) {
            p = skip_space(st, p, last);
            p = movetext_fast_path(st, p, last);
            if (p != last && scan::is_space(*p)) continue; // it stopped at whitespace
            if (!parse_move_token(st, p, last) && !parse_comment(st, p, last) &&
                !parse_nag(st, p, last) && !parse_stray_close(st, p, last) &&
                !parse_variation_result(st, p, last) && !parse_stray_closer(st, p, last))
                break;
        }
        first = p;
        return true;
    }
};

// §8.2.6 game termination marker.
struct result_parser : primitive<result_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        char const* p = first;
        if (p == last) return false;
        auto const match = scan::match_result(p, last);
        auto const n = match.length;
        if (n == 0) return false;
        State& st = state(ctx);
        st.has_result = true;
        st.content = true;
        if (match.result.spelling == syntax::Spelling::short_draw)
            st.warn(p, view(p, p + n), syntax::SyntaxCode::short_draw);
        if (match.result.spelling == syntax::Spelling::forfeit)
            st.warn(p, view(p, p + n), syntax::SyntaxCode::forfeit_result);
        st.visitor.result(st.token(p, p + n), match.result);
        st.consume(p, p + n);
        first = p + n;
        return true;
    }
};

// After the result, up to the end of the game as the splitter cut it (the result's line and
// the comment lines after it, see src/reader/splitter.hpp): comments are delivered (after the
// result; a writer puts them before the termination marker); a ')' is ignored with a warning;
// other text (`1-0 ff`) is delivered as a comment with a warning, up to the line end or the
// next comment (a brace comment; a rest-of-line one if it holds a '}'). A '[' (the next game, when
// the bytes hold several) ends the loop: the game_end rule reports it. Always succeeds.
[[gnu::cold, gnu::noinline]] inline void text_after_result(State& st, char const*& p,
                                                           char const* last) {
    char const* e = p;
    while (e != last && !scan::is_line_end(*e) && *e != '{' && *e != ';') ++e;
    while (scan::is_blank(e[-1])) --e; // p itself is no blank
    st.warn(p, view(p, e), syntax::SyntaxCode::text_after_result);
    // As a brace comment, unless it holds a '}' (which no brace comment can hold).
    bool const brace = std::find(p, e, '}') == e;
    st.visitor.comment(st.token(p, e), brace ? CommentKind::brace : CommentKind::rest_of_line);
    st.consume(p, e);
    p = e;
}

struct after_result_parser : primitive<after_result_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        State& st = state(ctx);
        char const* p = first;
        for (;;) {
            p = skip_space(st, p, last);
            if (p == last || *p == '[') break;
            if (parse_comment(st, p, last)) continue;
            if (*p == ')') {
                st.warn(p, ")", syntax::SyntaxCode::variation_close_after_result);
                st.consume(p, p + 1);
                ++p;
                continue;
            }
            text_after_result(st, p, last);
        }
        first = p;
        return true;
    }
};

// The end of the game's bytes; anything else there is an error worded by what it is (so that
// no handler has to recognise this rule by its name).
struct end_parser : primitive<end_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        if (first == last) return true;
        State const& st = state(ctx);
        throw SyntaxError{first, offending_text(first, st.end), unexpected_before_end(st, first)};
    }
};

} // namespace pgn_iccf::parser::detail
