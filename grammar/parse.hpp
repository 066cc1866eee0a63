// The X3-free facade of the PGN grammar: the rest of the code calls these functions and
// never includes Spirit.
//
// The reader is python-chess shaped: a Visitor receives one event per syntactic element,
// each hook has a no-op default, and skipping is a return value.
//
// What the grammar reads (import format of the PGN standard, and what real files do):
// - Tag pairs (§8.1): `[Name "value"]`, blanks allowed around every part, several per line,
//   blank lines and '%' lines inside the section. Names are any run of bytes other than
//   blanks, quotes and brackets (lower case, `?`, `:` accepted). Values are passed raw (escapes
//   `\"` `\\` kept; see unescape_tag_value) and their bytes untouched (Latin-1 or UTF-8).
//   A quote closes a value only when blanks and ']' follow it. Recovered with a warning: an
//   unescaped inner quote, a value ending in a lone backslash (`"Tournament \"]`), a value
//   without closing quote that ends at a ']' ending the line.
// - Movetext tokens (§8.2): a token is a maximal run of bytes other than whitespace (ASCII
//   control bytes included) and `{ } ( ) [ ] ; $ "`; bytes >= 0x80 belong to tokens, so
//   UTF-8 figurines and Cyrillic or other localized piece letters (`Лд`, `Msh`) are moves.
//   Results are recognised first (`1-0 0-1 1/2-1/2 *`, `½-½`, and the old `1/2` with a
//   warning; the forfeits `(+)-(-)` and `(-)-(+)` of correspondence archives, read as 1-0 and
//   0-1 with a warning, where a '(' would open a variation); `0-0` is castling, `0-1` a
//   result. Move-number periods glued to a result (`38. ...1-0`) are read as the result, with
//   a warning.
// - Move numbers: digits followed by periods (`12.`, `12...`, `2..`), a token of periods only
//   (the `...` of `12. ...`), and a bare integer that is not a numeric move. What follows the
//   periods inside the same token is a token of its own: `12.Nf3`, `1...e5`, `1.5254`.
// - Bare integers: a 5254-shaped integer (four digits 1-8, optional fifth digit 1-4) is an
//   ICCF numeric move; any other bare integer is a move number. After a tag
//   [Notation "ICCF"] (any letter case) every bare 4- or 5-digit integer is a move (`9999`
//   then reaches the notation layer, which rejects it).
// - Moves are passed as text: SAN with `+`/`#`, castling `O-O` `0-0` `o-o`, long algebraic,
//   numeric, null moves `--` and `Z0`. A trailing `!`/`?` run is split off as the suffix
//   (`!! ?? !? ?! ! ?`; another run is passed too, with a warning). `e.p.` after a move is
//   dropped: attached (`exd6e.p.`) it is cut from the move, as a token of its own it is
//   skipped.
// - NAGs `$0`..`$255`; a larger number is a warning and skipped. A token without any ASCII
//   letter or digit is a symbolic glyph (scan::glyph_nag): `!` 1, `?` 2, `!!` 3, `??` 4,
//   `!?` 5, `?!` 6, `‼` 3, `⁇` 4, `⁉` 5, `⁈` 6, `□` 7, `=` 10, `∞` 13, `⩲` `+=` `+/=` 14, `⩱` `=+`
//   `=/+` 15, `±` `+/-` 16, `∓` `-/+` 17, `+-` `+--` 18, `-+` `--+` 19 (also with the minus sign
//   U+2212: `+−` 18, `−+` 19, `+/−` 16, `−/+` 17), `⨀` `⊙` 22, `⟳` 32, `↑` 36, `→` 40,
//   `=/∞` `=∞` 44, `⇆` 132, `⊕` 138, `∆` `Δ` 140, `∇` 141, `⌓` `≥` 142, `≤` 143; delivered by
//   nag(text, value). An unknown glyph is delivered as a brace comment with a warning. The
//   `=` of a promotion is part of its move token, never a glyph. The non-ASCII glyphs of
//   this table glued to the end of a move (`Nf3‼`, `e4±`, as some viewers export them) are
//   split off, one character at a time from the end, and delivered as NAGs after the move;
//   other non-ASCII bytes there stay with the move (`e8=♕`, `e8=Ф`).
// - Comments `{...}` (may span lines; braces do not nest) and `;` to the end of the line;
//   '%' escape lines in column 1 are skipped; variations nest up to max_variation_depth.
// - Comments before the tag section (a comment at the top of a file) belong to the game: they
//   are delivered first, before its tags. A game without tags reads them as movetext.
// - After the result, what the splitter gives the game (the rest of the result's line and the
//   comment lines after it, src/reader/splitter.hpp): comments, delivered after result(); a
//   ')' (ignored, with a warning); other text (`1-0 ff`), delivered as a comment with a
//   warning (a brace comment; a rest-of-line one if it holds a '}'). A '[' there (bytes that
//   hold the next game too) is an error.
// - Line ends LF, CRLF and lone CR; locations count each once.
//
// Diagnostics (never exceptions), each a SyntaxCode (syntax.hpp; src/report words them):
// errors end the game (end_game with syntax_error), e.g. expected_tag_value,
// expected_variation_close, unterminated_comment, depth_exceeded (nesting deeper than
// max_variation_depth), not_a_game. Warnings do not: no_result (the game ends at the next tag
// section or the end of the input), the tag recoveries above,
// unknown glyphs, NAGs out of range, a ')' outside every variation and a '}' or ']' that closes
// nothing in the movetext (ignored), a result inside a variation (skipped: `(3. Nf3 1/2-1/2)`,
// `(*)`), move-number periods glued to the move (`...Nc6`, `1 .e4`: read as the move) or to the
// result (`...1-0`), a tag value without quotes (`[FEN 8/8/... w - - 0 1]`: read up to the
// last ']' of the line), a forfeit result, a ')' or text after the result.
#pragma once

#include "grammar/syntax.hpp"

#include <cstdint>
#include <string_view>

namespace pgn_iccf::parser {

using syntax::CommentKind;
using syntax::Diagnostic;
using syntax::GameEnd;
using syntax::Location;
using syntax::RawGame;
using syntax::Token;

class Visitor {
public:
    virtual ~Visitor() = default;

    // A game starts. Return false to skip it (no further events but end_game).
    virtual bool begin_game(RawGame const&) { return true; }
    // A tag pair (§8.1). `value` is the raw text between the quotes, escapes kept as written
    // (see unescape_tag_value); bytes are untouched (Latin-1 or UTF-8 alike).
    virtual void tag(Token const& /*name*/, Token const& /*value*/) {}
    // The same for a value known to hold neither '\\' nor '"' (nothing to unescape, nothing
    // to escape when written again); by default tag(). A writer that overrides it skips its
    // own scan of the value. The tokens come as their parts, in registers: a Token built in
    // memory and copied on at once stalled on store forwarding (perf, --check: see the commit).
    virtual void plain_tag(std::string_view name, Location name_at, std::string_view value,
                           Location value_at) {
        tag(Token{name, name_at}, Token{value, value_at});
    }
    // The tag section is over; movetext events follow.
    virtual void begin_movetext() {}
    // A move token (§8.2.3): `move` is the move text including any check/mate mark
    // (`Nxf3+`, `5254`, `e2-e4`, `O-O`, `--`, `Z0`) and without a trailing `e.p.`; `suffix` is
    // a following `!`/`?` annotation (`!?`, `??`, ...), with the check marks after it when it
    // comes before them (`e4!+`: move `e4`, suffix `!+`), or empty (its location is then the
    // byte after the move).
    virtual void move(Token const& /*move*/, Token const& /*suffix*/) {}
    // An integer in a move slot that may be a mistyped numeric move rather than a move number
    // (which a visitor that does not know the move number reads it as, by default, by ignoring
    // it): a bare integer that is no move, of three or more digits in a game with a numeric move
    // before it or with [Notation "ICCF"] (`763`, `2807`, `57585`), or of two digits 1-8 there
    // or before the first move of any game (`52 54`, a move typed with a space inside), of four
    // or more in any game; or the digits
    // of a numeric move followed by periods (`5254.`). `digits`: the token without its periods;
    // `numeric_game`: the game has a numeric move before it or the tag (else two or three
    // digits come only when digits follow them: a move typed with a space inside only before
    // the game's first move, a move number after it).
    virtual void integer(Token const& /*token*/, std::string_view /*digits*/,
                         bool /*numeric_game*/) {}
    // A comment: brace comment text without the braces, or a `;` comment without the `;`
    // and without the line end. Comments before the tag section come before the tags;
    // comments after the result (and text after it, see above) come after result(): a writer
    // puts them before the termination marker.
    virtual void comment(Token const& /*text*/, CommentKind) {}
    // A NAG `$n` (§8.2.4) or a symbolic glyph (±, ∓, ⩲, ⩱, =, ∞, ...), with its NAG value.
    virtual void nag(Token const& /*text*/, std::uint8_t /*value*/) {}
    // A recursive annotation variation (§8.2.5) starts at `open` (the '('). Return false to
    // skip its contents (no events until the matching end_variation).
    virtual bool begin_variation(Token const& /*open*/) { return true; }
    virtual void end_variation(Token const& /*close*/) {}
    // The game termination marker (§8.2.6): 1-0, 0-1, 1/2-1/2, * (½-½, the old `1/2` and the
    // forfeits `(+)-(-)` `(-)-(+)` are passed as written; `1/2` and forfeits with a warning),
    // with the outcome and spelling read (syntax::result_spellings).
    virtual void result(Token const&, syntax::Result) {}
    virtual void end_game(GameEnd const&) {}
    // A problem in the input. Errors end the game (end_game follows with syntax_error set);
    // warnings do not.
    virtual void diagnostic(Diagnostic const&) {}
};

struct ParseOptions {
    int max_variation_depth = 512; // deeper nesting is a diagnostic, never a stack overflow
    // Comments of the movetext are delivered (false: read and skipped, for a visitor that
    // needs none; --check). Comments made of text after the result or of an unknown glyph,
    // which come with a warning, are delivered all the same.
    bool comments = true;
};

// Parses one game (as the splitter delivers it, src/reader/splitter.hpp) and reports its events.
void parse_game(RawGame const& game, Visitor& visitor, ParseOptions const& options = {});

// Decodes the escapes \" and \\ of a raw tag value (§8.1.1) into `out` (cleared first).
void unescape_tag_value(std::string_view raw, std::string& out);

} // namespace pgn_iccf::parser
