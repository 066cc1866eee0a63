// The per-game parse state that the grammar's primitives reach through the X3 context
// (config.hpp), and the syntax error they throw. No Spirit here.
#pragma once

#include "grammar/parse.hpp"
#include "grammar/scan.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace pgn_iccf::parser {

// A syntax error found inside a primitive parser, with its own code (unterminated comment,
// nesting too deep, ...). Thrown inside the grammar, caught in parse_game: never escapes.
struct SyntaxError {
    char const* where;
    std::string_view token;
    syntax::SyntaxCode code;
    std::uint32_t limit = 0; // depth_exceeded: the bound
};

// Everything one parse_game call needs: reentrant (one State per call, no globals).
class State {
public:
    State(Visitor& v, ParseOptions const& o, RawGame const& g)
        : visitor(v), options(o), game(g), begin(g.bytes.data()), end(begin + g.bytes.size()),
          pos_(begin), line_(g.start.line),
          line_start_(-static_cast<std::int64_t>(g.start.column) + 1) {}

    Visitor& visitor;
    ParseOptions const& options;
    RawGame const& game;
    char const* const begin;
    char const* const end;

    int depth = 0;        // current variation depth
    int muted_depth = 0;  // > 0: the visitor skipped the variation opened at this depth
    bool iccf = false;    // [Notation "ICCF"] seen: any bare 4-5 digit integer is a move
    bool numeric = false; // a bare integer was read as a move (Visitor::integer)
    bool has_result = false;
    bool content = false; // a tag pair, move or result was seen
    bool error = false;
    std::string_view tag_name; // of the tag pair being parsed

    bool active() const { return muted_depth == 0; }

    // Location of p (inside the game). Line ends are counted once, in order: pos_ is the
    // point up to which every line end has been counted; the whitespace skipper counts the
    // line ends it passes (line_end_at) and token parsers move pos_ over their tokens
    // (consume), so that delivering a token normally scans nothing at all.
    syntax::Location loc(char const* p) {
        if (p != pos_) move_to(p); // a token normally starts where the skipper stopped
        return at(p - begin);
    }
    // The line-end byte at q has been passed by the whitespace skipper.
    void line_end_at(char const* q) {
        if (q < pos_) return;      // counted already (the skipper runs again after backtracking)
        if (q != pos_) move_to(q); // count anything skipped between
        if (!(*q == '\n' && q != begin && q[-1] == '\r')) ++line_; // an LF after a CR: counted
        line_start_ = q + 1 - begin;
        pos_ = q + 1;
    }
    // [b, e) holds no line end (a token, blanks): pos_ may move over it without counting.
    void consume(char const* b, char const* e) {
        if (e <= pos_) return;
        if (b > pos_) move_to(b);
        pos_ = e;
    }
    // The movetext fast path (lex_movetext.hpp) reads every byte in order: whether the line ends
    // are counted up to p exactly (then it may go on from p with the two calls below).
    bool counted_to(char const* p) const { return p == pos_; }
    // [pos_, p) holds no line end (tokens and blanks read by the fast path): one store where
    // consume would test.
    void passed(char const* p) { pos_ = p; }
    // Location of p when [pos_, p) holds no line end: loc without its test and store.
    syntax::Location loc_on_line(char const* p) const { return at(p - begin); }
    // The LF at q ends the line; [pos_, q) holds no line end and q[-1] is no CR.
    void passed_lf(char const* q) {
        ++line_;
        line_start_ = q + 1 - begin;
        pos_ = q + 1;
    }
    Token token(char const* b, char const* e) {
        return make_token(std::string_view(b, static_cast<std::size_t>(e - b)), loc(b));
    }

    static Token make_token(std::string_view text, syntax::Location at) { return {text, at}; }

    void report(syntax::Severity severity, char const* where, std::string_view text,
                syntax::SyntaxCode code, std::uint32_t limit = 0) {
        Diagnostic d;
        d.code = code;
        d.severity = severity;
        d.where = loc(where);
        d.token = std::string(text);
        d.limit = limit;
        if (severity == syntax::Severity::error) error = true;
        visitor.diagnostic(d);
    }
    void warn(char const* where, std::string_view text, syntax::SyntaxCode code) {
        report(syntax::Severity::warning, where, text, code);
    }

private:
    syntax::Location at(std::int64_t off) const {
        return {game.start.offset + static_cast<std::uint64_t>(off), line_,
                static_cast<std::uint32_t>(off - line_start_ + 1)};
    }
    // Counts the line ends between pos_ and p (from the game start if p is before the
    // current line) and moves pos_ to p, or leaves it if p is behind it on the current line.
    [[gnu::noinline]] void move_to(char const* p) {
        auto const off = p - begin;
        if (p < pos_) {
            if (off >= line_start_) return; // on the current line: nothing to count
            rewind();                       // before the current line: count again (errors)
        } else if (!scan::may_hold_line_end(pos_, p, end)) {
            pos_ = p; // blanks, a comment body on one line: nothing to count
            return;
        }
        char const* ls = nullptr;
        auto const n = scan::count_lines(pos_, p, pos_ != begin && pos_[-1] == '\r', ls);
        line_ += static_cast<std::uint32_t>(n);
        // The LF of a CRLF whose CR was already passed counts no line but moves the line
        // start past itself.
        if (ls != nullptr) line_start_ = ls - begin;
        pos_ = p;
    }
    void rewind() {
        pos_ = begin;
        line_ = game.start.line;
        line_start_ = -static_cast<std::int64_t>(game.start.column) + 1;
    }

    char const* pos_;
    std::uint32_t line_;
    std::int64_t line_start_; // offset of the current line's first byte (negative on line 1
                              // when the game does not start in column 1)
};

// The offending text at p: the token there (or the single delimiter byte), at most 40 bytes.
inline std::string_view offending_text(char const* p, char const* end) {
    if (p == end) return {};
    char const* e = scan::is_token_byte(*p) ? scan::token_end(p, end) : p + 1;
    if (e - p > 40) e = p + 40;
    return {p, static_cast<std::size_t>(e - p)};
}

// What is wrong where the game should end but does not (the game_end rule, or a parse that
// stops before it), for the usual cases.
inline syntax::SyntaxCode unexpected_before_end(State const& st, char const* where) {
    auto const text = offending_text(where, st.end);
    if (st.has_result) return syntax::SyntaxCode::expected_end_after_result;
    if (text == ")") return syntax::SyntaxCode::unmatched_variation_close;
    if (text == "[") return syntax::SyntaxCode::tag_in_movetext;
    return syntax::SyntaxCode::expected_element;
}

} // namespace pgn_iccf::parser
