// The X3-free facade of the PGN grammar: the rest of the code calls these functions and
// never includes Spirit.
//
// The reader is python-chess shaped: a Visitor receives one event per syntactic element,
// each hook has a no-op default, and skipping is a return value.
#pragma once

#include "grammar/ast.hpp"

#include <cstdint>
#include <string_view>

namespace pgn_iccf::parser {

using ast::CommentKind;
using ast::Diagnostic;
using ast::GameEnd;
using ast::Location;
using ast::RawGame;
using ast::Token;

class Visitor {
public:
    virtual ~Visitor() = default;

    // A game starts. Return false to skip it (no further events but end_game).
    virtual bool begin_game(RawGame const&) { return true; }
    // A tag pair (§8.1). `value` is the raw text between the quotes, escapes kept as written
    // (see unescape_tag_value); bytes are untouched (Latin-1 or UTF-8 alike).
    virtual void tag(Token /*name*/, Token /*value*/) {}
    // The tag section is over; movetext events follow.
    virtual void begin_movetext() {}
    // A move token (§8.2.3): `move` is the move text including any check/mate mark
    // (`Nxf3+`, `5254`, `e2-e4`, `O-O`, `--`, `Z0`); `suffix` is a following `!`/`?`
    // annotation (`!?`, `??`, ...) or empty.
    virtual void move(Token /*move*/, Token /*suffix*/) {}
    // A comment: brace comment text without the braces, or a `;` comment without the `;`
    // and without the line end.
    virtual void comment(Token /*text*/, CommentKind) {}
    // A NAG `$n` (§8.2.4) or a symbolic glyph (±, ∓, ⩲, ⩱, =, ∞, ...), with its NAG value.
    virtual void nag(Token /*text*/, std::uint8_t /*value*/) {}
    // A recursive annotation variation (§8.2.5) starts at `open` (the '('). Return false to
    // skip its contents (no events until the matching end_variation).
    virtual bool begin_variation(Token /*open*/) { return true; }
    virtual void end_variation(Token /*close*/) {}
    // The game termination marker (§8.2.6): 1-0, 0-1, 1/2-1/2, * (½-½ and the old `1/2` are
    // passed as written; `1/2` comes with a warning).
    virtual void result(Token) {}
    virtual void end_game(GameEnd const&) {}
    // A problem in the input. Errors end the game (end_game follows with syntax_error set);
    // warnings do not.
    virtual void diagnostic(Diagnostic const&) {}
};

struct ParseOptions {
    std::string_view file_name;    // for diagnostics
    int max_variation_depth = 512; // deeper nesting is a diagnostic, never a stack overflow
};

// Parses one game (as delivered by the splitter / PgnReader) and reports its events.
void parse_game(RawGame const& game, Visitor& visitor, ParseOptions const& options = {});

// Decodes the escapes \" and \\ of a raw tag value (§8.1.1) into `out` (cleared first).
void unescape_tag_value(std::string_view raw, std::string& out);

} // namespace pgn_iccf::parser
