// The lexical primitives of the PGN grammar, part 1: token delivery, whitespace, tag pairs and
// comments (part 2, the movetext tokens: lex_movetext.hpp; the rules: pgn_def.hpp).
//
// Tokens are custom primitive parsers (classes derived from x3::parser) that scan bytes by hand,
// because the hot path must run at hundreds of MB/s: comment bodies are found with a vector
// scan, move tokens with a byte-class table. The primitives deliver visitor events themselves
// through the State in the context, so no attribute is ever built and no token is copied. The
// byte-level rules they share with the splitter (src/reader) are in scan.hpp.
//
// The lexical rules are documented once, for users of the API, at the top of parse.hpp.
#pragma once

#include "grammar/pgn.hpp"
#include "io/ascii.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>

namespace pgn_iccf::parser::detail {

inline State& state(auto const& context) { return x3::get<state_tag>(context); }

// Whether p starts a line (a '%' escape counts only in column 1, §6).
inline bool at_line_start(State const& st, char const* p) {
    if (p == st.begin) return st.game.start.column == 1;
    return scan::is_line_end(p[-1]);
}

// Skips whitespace and '%' escape lines, counting the line ends it passes.
inline char const* skip_space(State& st, char const* p, char const* last) {
    // Fast path: the one blank between two tokens ('%' is an escape only in column 1).
    if (last - p >= 2 && *p == ' ' && !scan::is_space(p[1])) {
        st.consume(p, p + 1);
        return p + 1;
    }
    char const* const from = p;
    for (;;) {
        while (p != last && scan::is_space(*p)) {
            if (scan::is_line_end(*p)) st.line_end_at(p);
            ++p;
        }
        if (p != last && *p == '%' && at_line_start(st, p)) {
            p = scan::find_line_end(p, last);
            continue;
        }
        break;
    }
    st.consume(from, p); // what is left after the last line end is blanks and '%' text
    return p;
}

// The shape of an ICCF numeric move (four digits 1-8, optional fifth digit 1-4). Its one
// definition is notation::is_numeric_move (src/notation/notation.hpp); this copy exists only
// because the grammar knows no chess and includes nothing of the notation layer (its header
// brings in the chess position and attack tables). Keep the two in step.
inline bool numeric_shape(char const* p, char const* e) {
    auto const n = e - p;
    if (n != 4 && n != 5) return false;
    for (int i = 0; i != 4; ++i)
        if (p[i] < '1' || p[i] > '8') return false;
    return n == 4 || (p[4] >= '1' && p[4] <= '4');
}

inline bool is_suffix_char(char c) { return c == '!' || c == '?'; }
inline bool is_check_mark(char c) { return c == '+' || c == '#'; }

// A '!' or '?' in [p, e).
inline bool has_suffix_char(char const* p, char const* e) {
    for (; p != e; ++p)
        if (is_suffix_char(*p)) return true;
    return false;
}

inline bool is_known_suffix(std::string_view s) {
    return s == "!" || s == "?" || s == "!!" || s == "??" || s == "!?" || s == "?!";
}

constexpr std::array<bool, 256> make_ascii_alnum() {
    std::array<bool, 256> t{};
    for (int c = 0; c != 256; ++c)
        t[static_cast<std::size_t>(c)] = io::ascii::is_alnum(static_cast<char>(c));
    return t;
}
inline constexpr std::array<bool, 256> ascii_alnum = make_ascii_alnum();

inline bool has_ascii_alnum(char const* p, char const* e) {
    for (; p != e; ++p)
        if (ascii_alnum[static_cast<unsigned char>(*p)]) return true;
    return false;
}

inline std::string_view view(char const* b, char const* e) {
    return {b, static_cast<std::size_t>(e - b)};
}

// The rare paths with messages stay out of line: the hot token path then needs few registers.
[[gnu::cold, gnu::noinline]] inline void warn_unknown_suffix(State& st, char const* b,
                                                             char const* e) {
    st.warn(b, view(b, e), syntax::SyntaxCode::unknown_suffix);
}

// The start of the annotation glyphs glued to the end of the token [p, e) (`Nf3‼`, `e4±`:
// some viewers export them so): the Unicode glyphs of the NAG table (scan::glyph_nag), one
// character at a time from the end; e if there is none. Any other non-ASCII byte there is
// left to the move (a figurine or a Cyrillic promotion piece: `e8=♕`, `e8=Ф`).
[[gnu::cold, gnu::noinline]] inline char const* glued_glyphs(char const* p, char const* e) {
    char const* q = e;
    while (q != p && static_cast<unsigned char>(q[-1]) >= 0x80) {
        char const* c = q - 1;
        while (c != p && (static_cast<unsigned char>(*c) & 0xC0) == 0x80) --c;
        if (c == p || scan::glyph_nag(view(c, q)) < 0) break; // a move remains before it
        q = c;
    }
    return q;
}

// The glyphs [q, e) that glued_glyphs split off a move: delivered as their NAGs, in order.
[[gnu::cold, gnu::noinline]] inline void deliver_glued_glyphs(State& st, char const* q,
                                                              char const* e) {
    while (q != e) {
        char const* c = q + 1;
        while (c != e && (static_cast<unsigned char>(*c) & 0xC0) == 0x80) ++c;
        st.visitor.nag(st.token(q, c), static_cast<std::uint8_t>(scan::glyph_nag(view(q, c))));
        q = c;
    }
}

bool deliver_move_with_glyphs(State& st, char const* p, char const* e);

// A move (or null move) token: splits off `e.p.`, the suffix annotation and glued glyphs
// (out of line: the common move ends in an ASCII byte, and this path stays as small as it
// was; callgrind, see the commit).
inline void deliver_move(State& st, char const* p, char const* e) {
    if (static_cast<unsigned char>(e[-1]) >= 0x80 && deliver_move_with_glyphs(st, p, e)) return;
    char const* me = e;
    char const* se = e;
    while (me != p && is_suffix_char(me[-1])) --me;
    char const* ss = me;
    // A suffix with check marks inside or after it (`e4!+`, `Qxf7?!#`, `Qxf7!#?`): the suffix
    // token holds them all from its first '!' or '?' (the replay takes the marks off it), so
    // that no glyph is lost with a mark. Marks before the first glyph stay with the move.
    if (me != p && is_check_mark(me[-1])) {
        char const* gs = me;
        while (gs != p && (is_suffix_char(gs[-1]) || is_check_mark(gs[-1]))) --gs;
        while (gs != me && is_check_mark(*gs)) ++gs;
        if (gs != me && gs != p) ss = me = gs;
    }
    if (me == p) ss = me = e; // all '!'/'?': handled by the caller as a glyph
    // "exd6e.p." and "exd6e.p.!"
    if (me - p > 4 && std::memcmp(me - 4, "e.p.", 4) == 0) me -= 4;
    st.content = true;
    if (!st.active()) return;
    if (ss != se) {
        // The suffix as the table knows it: without its marks (only one that runs to the
        // token's end can hold any).
        char glyph[8];
        std::size_t n = 0;
        for (char const* c = ss; c != se && n < sizeof glyph; ++c)
            if (!is_check_mark(*c)) glyph[n++] = *c;
        if (!is_known_suffix(std::string_view(glyph, n)) || se - ss > 8)
            warn_unknown_suffix(st, ss, se);
    }
    syntax::Location const at = st.loc(p); // before the suffix: locations are computed in order
    auto const shift = static_cast<std::uint32_t>(ss - p); // no line end inside a token
    st.visitor.move(
        State::make_token(view(p, me), at),
        State::make_token(view(ss, se), {at.offset + shift, at.line, at.column + shift}));
}

// A move token ending in a non-ASCII byte: if glyphs of the NAG table end it, the move before
// them, then their NAGs; false (nothing delivered) if none does.
[[gnu::cold, gnu::noinline]] inline bool deliver_move_with_glyphs(State& st, char const* p,
                                                                  char const* e) {
    char const* const ge = glued_glyphs(p, e);
    if (ge == e) return false;
    deliver_move(st, p, ge); // ge[-1] may be non-ASCII too, but no glyph ends [p, ge)
    if (st.active()) deliver_glued_glyphs(st, ge, e);
    return true;
}

// A token without ASCII letters or digits: periods, a null move `--`, or a glyph.
[[gnu::noinline]] inline void deliver_symbol(State& st, char const* p, char const* e) {
    auto const text = view(p, e);
    if (text.find_first_not_of('.') == std::string_view::npos) return; // "..." of "12. ..."
    // Null moves as real files write them, with a check mark (`--+`: the replay warns about
    // the mark, which a null move never earns; it was read as `-` and the glyph `-+`) or a
    // suffix (`--!`, as the writer writes `Z0!`) too.
    std::string_view bare = text;
    while (bare.size() > 2 && (is_check_mark(bare.back()) || is_suffix_char(bare.back())))
        bare.remove_suffix(1);
    if (syntax::is_null_move_spelling(bare)) {
        deliver_move(st, p, e);
        return;
    }
    if (!st.active()) return;
    int const nag = scan::glyph_nag(text);
    if (nag >= 0) {
        st.visitor.nag(st.token(p, e), static_cast<std::uint8_t>(nag));
    } else {
        st.warn(p, text, syntax::SyntaxCode::unknown_glyph);
        st.visitor.comment(st.token(p, e), CommentKind::brace);
    }
}

// Whether the bare integer [p, e) is a move (else it is a move number without periods, or
// Visitor::integer decides). Notes the game as numeric when it is.
inline bool integer_is_move(State& st, char const* p, char const* e) {
    auto const n = e - p;
    // UCI's null move is no numeric move (0 names no file), but a move all the same.
    bool const numeric = numeric_shape(p, e) || (st.iccf && (n == 4 || n == 5));
    st.numeric |= numeric;
    return numeric || view(p, e) == syntax::uci_null_move;
}

// An integer [p, e) in a move slot that is no move: its digits [p, d), then periods. Passed to
// Visitor::integer where it may be a mistyped move (see there); otherwise a move number.
[[gnu::cold, gnu::noinline]] inline void deliver_integer(State& st, char const* p, char const* d,
                                                         char const* e) {
    if (!st.active()) return;
    auto const n = d - p;
    bool const numeric_game = st.numeric || st.iccf;
    // Two digits 1-8 in a numeric game, or followed by digits in any game: half of a move
    // typed with a space inside (`1. 52 54 57 55`); likewise three digits (`1. 716 2836`).
    // The visitor, told whether the game is numeric, reads those of a game that is not as a
    // move only before its first move (a move number stays one: `12 Kd1`, `13 5254`).
    bool const square = n == 2 && p[0] >= '1' && p[0] <= '8' && p[1] >= '1' && p[1] <= '8';
    auto const digits_follow = [&] {
        char const* q = e;
        while (q != st.end && (*q == ' ' || *q == '\t')) ++q;
        return q != st.end && *q >= '1' && *q <= '9';
    };
    bool const pass = d != e ? numeric_shape(p, d)
                             : n >= 4 || ((n == 3 || square) && (numeric_game || digits_follow()));
    if (pass) {
        st.content = true; // a move, maybe mistyped: the game is no "text without a game"
        st.visitor.integer(st.token(p, e), view(p, d), numeric_game);
    }
}

// A token [p, e) starting with the digits [p, d) and not a move number with periods.
inline void deliver_digit_token(State& st, char const* p, char const* d, char const* e) {
    if (d == e) {
        if (integer_is_move(st, p, e))
            deliver_move(st, p, e);
        else if (e - p >= 2)
            deliver_integer(st, p, e, e);
        return;
    }
    deliver_move(st, p, e); // 0-0, 0-0-0, 5254!, or something for the notation layer
}

inline char const* digits_end(char const* p, char const* e) {
    while (p != e && scan::is_digit(*p)) ++p;
    return p;
}

void deliver_token(State& st, char const* p, char const* e);

// `38. ...Kf3`, `1 .d4`: the periods of a move number glued to the move, not to the number.
[[gnu::cold, gnu::noinline]] inline void deliver_glued_periods(State& st, char const* p,
                                                               char const* q, char const* e) {
    if (st.active()) st.warn(p, view(p, e), syntax::SyntaxCode::glued_periods_move);
    deliver_token(st, q, e);
}

// One movetext token [p, e) that is not a result and not a move number.
inline void deliver_token(State& st, char const* p, char const* e) {
    if (scan::is_digit(*p)) {
        deliver_digit_token(st, p, digits_end(p, e), e);
        return;
    }
    if (*p == '.') {
        char const* q = p;
        while (q != e && *q == '.') ++q;
        if (q != e && has_ascii_alnum(q, e)) {
            deliver_glued_periods(st, p, q, e);
            return;
        }
    }
    if (!has_ascii_alnum(p, e)) {
        deliver_symbol(st, p, e);
        return;
    }
    if (*p == 'e' && view(p, e) == "e.p.") return;
    deliver_move(st, p, e);
}

// --- primitives -------------------------------------------------------------------------

template <typename Derived>
struct primitive : x3::parser<Derived> {
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;
};

// Whitespace and '%' escape lines (§6): always succeeds.
struct space_parser : primitive<space_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        first = skip_space(state(ctx), first, last);
        return true;
    }
};

// Spaces and tabs inside a tag pair: always succeeds.
struct blanks_parser : primitive<blanks_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        char const* const b = first;
        while (first != last && scan::is_blank(*first)) ++first;
        state(ctx).consume(b, first);
        return true;
    }
};

// A single character (not a line end).
struct char_parser : primitive<char_parser> {
    constexpr explicit char_parser(char ch) : c(ch) {}
    char c;
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        if (first == last || *first != c) return false;
        state(ctx).consume(first, first + 1);
        ++first;
        return true;
    }
};

// The tag name scanners are shared with the splitter (scan.hpp).
using scan::ends_tag_name;
using scan::tag_name_end;

// §8.1 tag name. Real files use lower case, '?' and ':' in names: any run of bytes that are
// not blanks, quotes or brackets is accepted.
struct tag_name_parser : primitive<tag_name_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        State& st = state(ctx);
        char const* p = first;
        while (p != last && scan::is_blank(*p)) ++p;
        char const* b = p;
        while (p != last && !ends_tag_name(*p)) ++p;
        if (p == b) return false;
        st.tag_name = view(b, p);
        st.consume(first, p);
        first = p;
        return true;
    }
};

// §8.1.1 tag value: delivers the tag pair (the closing ']' is checked next).
// A value without quotes (`[FEN rnbqkb1r/... b KQkq - 3 3]`): read up to the first ']' of the
// line (`[White Smith] [Black Jones]` is two tag pairs), with a warning; without a ']' on the
// line it is no tag value.
[[gnu::cold, gnu::noinline]] inline bool unquoted_tag_value(State& st, char const*& first,
                                                            char const* last) {
    char const* p = first;
    char const* const le = scan::find_line_end(p, last);
    char const* const close = std::find(p, le, ']');
    if (close == le) return false;
    char const* ve = close;
    while (ve != p && scan::is_blank(ve[-1])) --ve;
    if (ve == p || std::find(p, ve, '"') != ve) return false;
    st.warn(p, view(p, ve), syntax::SyntaxCode::unquoted_tag_value);
    st.content = true;
    syntax::Location const name_at = st.loc(st.tag_name.data());
    syntax::Location const value_at = st.loc(p);
    st.visitor.tag(State::make_token(st.tag_name, name_at),
                   State::make_token(view(p, ve), value_at));
    first = ve;
    st.consume(p, first);
    return true;
}

struct tag_value_parser : primitive<tag_value_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        State& st = state(ctx);
        char const* p = first;
        if (p == last) return false;
        if (*p != '"') {
            char const* f = p;
            if (*p == ']' || scan::is_line_end(*p) || !unquoted_tag_value(st, f, last))
                return false;
            first = f;
            return true;
        }
        auto const scan = scan::scan_tag_value(p + 1, last);
        if (scan.close == nullptr) {
            char const* e = scan::find_line_end(p, last);
            throw SyntaxError{p, view(p, e), syntax::SyntaxCode::unterminated_tag_value};
        }
        // Warnings about the value point where the value (the quoted token) starts.
        auto const value = view(p + 1, scan.close);
        if (scan.unescaped_quote) st.warn(p + 1, value, syntax::SyntaxCode::unescaped_quote);
        if (scan.missing_quote) st.warn(p + 1, value, syntax::SyntaxCode::missing_closing_quote);
        if (scan.trailing_backslash) st.warn(p + 1, value, syntax::SyntaxCode::trailing_backslash);
        st.content = true;
        if (io::ascii::iequals(st.tag_name, "Notation") && io::ascii::iequals(value, "ICCF"))
            st.iccf = true;
        syntax::Location const name_at = st.loc(st.tag_name.data()); // in order: name, value
        st.consume(p, p + 1);                                        // the opening quote
        syntax::Location const value_at = st.loc(p + 1);
        st.visitor.tag(State::make_token(st.tag_name, name_at),
                       State::make_token(view(p + 1, scan.close), value_at));
        first = scan.missing_quote ? scan.close : scan.close + 1;
        st.consume(p, first);
        return true;
    }
};

// §8.1 the common shape of a tag pair, `[Name "value"]` on one line with nothing to recover:
// delivered in one pass. Anything else (escapes are fine, recoveries and errors are not) fails
// here without a side effect and is parsed by the tag_pair rule, with its diagnostics.
// Out of line: inlined into the X3 tag section it ran short of registers and spilled the
// state around every delivery (callgrind, tags of master games: see the commit).
[[gnu::noinline]] inline bool parse_plain_tag_pair(State& st, char const*& first,
                                                   char const* last) {
    char const* const p = first;
    if (p == last || *p != '[') return false;
    char const* n = p + 1;
    while (n != last && scan::is_blank(*n)) ++n;
    char const* const ne = tag_name_end(n, last);
    if (ne == n) return false;
    char const* q = ne;
    while (q != last && scan::is_blank(*q)) ++q;
    if (q == last || *q != '"') return false;
    auto const value = scan::scan_tag_value(q + 1, last);
    if (value.close == nullptr || value.unescaped_quote || value.missing_quote ||
        value.trailing_backslash)
        return false;
    char const* const r = value.bracket; // blanks and the ']' after the closing quote
    st.tag_name = view(n, ne);
    st.content = true;
    if (io::ascii::iequals(st.tag_name, "Notation") &&
        io::ascii::iequals(view(q + 1, value.close), "ICCF"))
        st.iccf = true;
    // No line end from p to r: the value is on the name's line, and the location cursor moves
    // over the pair without counting (one location, at the '[', shifted to the name and the
    // value; with the bracket above, fewer instructions a game: callgrind, see the commit).
    syntax::Location const at = st.loc(p);
    auto const shifted = [&](char const* x) {
        auto const d = static_cast<std::uint32_t>(x - p);
        return syntax::Location{at.offset + d, at.line, at.column + d};
    };
    syntax::Location const name_at = shifted(n);
    syntax::Location const value_at = shifted(q + 1);
    st.consume(p, r + 1);
    if (value.plain)
        st.visitor.plain_tag(st.tag_name, name_at, view(q + 1, value.close), value_at);
    else
        st.visitor.tag(State::make_token(st.tag_name, name_at),
                       State::make_token(view(q + 1, value.close), value_at));
    first = r + 1;
    return true;
}

// The plain tag pairs that follow each other, each after its whitespace (`[A "x"]\n[B "y"]`),
// in one loop: `first` ends after the last of them (the whitespace after it is left). Always
// succeeds; the tag section rule takes any other pair. (Fewer instructions than an X3
// repetition of `sp >> (plain | tag_pair)` per pair: callgrind, see the commit.)
struct plain_tag_pairs_parser : primitive<plain_tag_pairs_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        State& st = state(ctx);
        char const* p = first;
        for (;;) {
            char const* q = p;
            if (last - q >= 2 && *q == '\n' && q[1] == '[') { // the usual line end between pairs
                st.line_end_at(q);
                ++q;
            } else {
                q = skip_space(st, q, last);
            }
            if (!parse_plain_tag_pair(st, q, last)) break;
            p = q;
        }
        first = p;
        return true;
    }
};

// The end of the tag section: delivers begin_movetext. Always succeeds.
struct movetext_begin_parser : primitive<movetext_begin_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It&, It const&, Ctx const& ctx, RCtx&, Attr&) const {
        state(ctx).visitor.begin_movetext();
        return true;
    }
};

// §8.2.5 comments: `{...}` (no nesting) and `;` to the end of the line. Delivers the comment
// at `first` and moves past it; false (nothing consumed) if no comment starts there.
inline bool parse_comment(State& st, char const*& first, char const* last) {
    char const* p = first;
    if (p == last) return false;
    if (*p == '{') {
        st.consume(p, p + 1);
        char const* const close = scan::find_byte(p + 1, last, '}');
        if (close == last) {
            throw SyntaxError{p, "{", syntax::SyntaxCode::unterminated_comment};
        }
        if (st.active() && st.options.comments)
            st.visitor.comment(st.token(p + 1, close), CommentKind::brace);
        // A comment on one line (nearly all): the counted point moves past it now, so that
        // the next token needs no move_to and the movetext fast path takes it (callgrind,
        // lichess games SAN -> numeric: see the commit).
        if (!scan::may_hold_line_end(p + 1, close, last)) st.consume(p + 1, close + 1);
        first = close + 1;
        return true;
    }
    if (*p == ';') {
        st.consume(p, p + 1);
        char const* e = scan::find_line_end(p + 1, last);
        if (st.active() && st.options.comments)
            st.visitor.comment(st.token(p + 1, e), CommentKind::rest_of_line);
        st.consume(p, e);
        first = e;
        return true;
    }
    return false;
}

// Comments before the tag section (a comment at the top of a file, before its first game):
// they belong to that game and are delivered first, before its tags (a writer puts them
// before the first move). Only comments followed by a '[' are taken here; a game without tags
// reads its first comments as movetext, as before.
inline char const* skip_comments_ahead(State const& st, char const* p, char const* last) {
    for (;;) {
        while (p != last && scan::is_space(*p)) ++p;
        if (p == last) return p;
        if (*p == '%' && at_line_start(st, p)) {
            p = scan::find_line_end(p, last);
        } else if (*p == '{') {
            char const* const close = scan::find_byte(p + 1, last, '}');
            if (close == last) return p; // unterminated: the movetext rules report it
            p = close + 1;
        } else if (*p == ';') {
            p = scan::find_line_end(p + 1, last);
        } else {
            return p;
        }
    }
}

struct lead_comments_parser : primitive<lead_comments_parser> {
    template <typename It, typename Ctx, typename RCtx, typename Attr>
    bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, Attr&) const {
        State& st = state(ctx);
        char const* p = first;
        if (p == last || (*p != '{' && *p != ';' && !scan::is_space(*p) && *p != '%')) return true;
        char const* const tags = skip_comments_ahead(st, p, last);
        if (tags == last || *tags != '[' || tags == skip_space_ahead(st, p, tags)) return true;
        for (;;) {
            p = skip_space(st, p, last);
            if (!parse_comment(st, p, last)) break;
        }
        first = p;
        return true;
    }

private:
    // The first byte after [p, to) that is not whitespace or a '%' line (no comment at all:
    // then there is nothing to take).
    static char const* skip_space_ahead(State const& st, char const* p, char const* to) {
        for (;;) {
            while (p != to && scan::is_space(*p)) ++p;
            if (p != to && *p == '%' && at_line_start(st, p)) {
                p = scan::find_line_end(p, to);
                continue;
            }
            return p;
        }
    }
};

} // namespace pgn_iccf::parser::detail
