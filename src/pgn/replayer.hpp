// The replay of one game: reads it with the grammar, sets up the position from its FEN and
// Variant tags, plays every move of the main line and of nested variations on a legal-move
// Position, and hands a consumer semantic events (a move played in its position, comments,
// NAGs, variations, a line that cannot be played further, a move that cannot be played).
// What is wrong is a Problem value (problem.hpp), worded elsewhere.
//
// Consumers: the export writer (export.hpp) lays the game out again; --check uses the base
// class, which builds nothing; --input-lang auto records the moves of a reading and the
// first move each reading could not play (converter.cpp). After the game is rejected the
// consumer hears nothing more of it (its text would not be written) but unplayable().
//
// One Replayer is reused for many games (its buffers keep their capacity). It is not
// thread-safe; one per worker thread.
#pragma once

#include "chess/position.hpp"
#include "grammar/parse.hpp"
#include "notation/notation.hpp"
#include "pgn/problem.hpp"
#include "pgn/tags.hpp"

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::pgn {

// The state of the line being replayed (the main line or the innermost variation).
enum class LineState : std::uint8_t {
    playing, // its moves are played
    broken,  // a move could not be played: the rest comes as unplayed() (--keep-broken)
    cut,     // a variation cut at a bad move: its rest is kept as the input wrote it
};

// What a consumer of the replay hears, in input order. Every hook has a no-op default.
class ReplayConsumer {
public:
    virtual ~ReplayConsumer() = default;
    // A reading of `game` starts (the game may be read more than once: --input-lang auto).
    virtual void begin_game(syntax::RawGame const& /*game*/) {}
    // A move played: `pos` is the position before it (a consumer may play and take back
    // moves on it, as write_san does, and must leave it as it was); `number` its move number
    // as displayed; `move` and `suffix` the tokens as written; `corrected`: `m` is the
    // --fix-typos correction of `move`.
    virtual void move(chess::Position& /*pos*/, chess::Move /*m*/, int /*number*/,
                      syntax::Token /*move*/, syntax::Token /*suffix*/, bool /*corrected*/) {}
    // Plays move `m` on `pos`, the consumer hearing of it: by default move(), then the move.
    // A consumer that writes check marks overrides it to take them from the position after
    // the move instead of a make/unmake of its own. The contract of an override (the
    // Replayer asserts the side to move changed): it calls pos.do_move(m, undo) exactly once
    // and leaves `pos` as that left it; it hears of the move as move() would.
    // (One virtual call a move, not move() and an after_move(): the Replayer keeping
    // do_move would cost a second call a move.)
    virtual void play(chess::Position& pos, chess::Move m, chess::UndoInfo& undo, int number,
                      syntax::Token const& move, syntax::Token const& suffix, bool corrected) {
        this->move(pos, m, number, move, suffix, corrected);
        pos.do_move(m, undo);
    }
    virtual void comment(std::string_view /*text*/, syntax::CommentKind) {}
    virtual void nag(std::uint8_t /*value*/) {}
    // A variation of the last move starts / ends. `empty`: it has no move (left out);
    // `end`: the offset of its ')' (no_offset: the end of the game).
    virtual void begin_variation() {}
    virtual void end_variation(bool /*empty*/, std::uint64_t /*end*/) {}
    // The line cannot be played past `move` (--keep-broken, or a variation cut); `state` is
    // its state from now until its end (its variation's end_variation, or end_movetext).
    // LineState::cut: a variation cut there, its rest to be kept as the input wrote it, up to
    // end_variation's `end`, and no event of that rest comes; LineState::broken: the tokens
    // that follow come as unplayed() and unplayed_variation(), comments as comment().
    virtual void line_broken(syntax::Token /*move*/, syntax::Token /*suffix*/,
                             LineState /*state*/) {}
    virtual void unplayed(std::string_view /*text*/, std::string_view /*suffix*/) {}
    virtual void unplayed_variation() {}
    // The movetext is over (before the variations left open are ended).
    virtual void end_movetext() {}
    // A move that could not be played and was not corrected (--fix-typos): `pos` is the
    // position before it, `problem` its unplayable_move report (token, place, move number,
    // the reading's error). Heard even once the game is rejected, and with
    // ReplayOptions::silent (--input-lang auto keeps the first one: converter.cpp).
    virtual void unplayable(chess::Position const& /*pos*/, Problem const& /*problem*/) {}

    static constexpr std::uint64_t no_offset = ~std::uint64_t{0};
};

struct ReplayOptions {
    notation::ReadOptions read{}; // read.letters: the letters of this reading (not null)
    bool comments = true;         // comments are kept: the rest of a cut variation is too
    bool variations = true;       // replay variations (otherwise skipped)
    bool keep_broken = false;     // a bad main-line move breaks the line instead of the game
    bool strict = false;          // a bad move in a variation rejects the game
    bool fix_typos = false;       // the only numeric move one edit away replaces a bad one
    // The consumer is the base class, which does nothing (--check): moves are played, and no
    // move, comment or NAG is delivered (two virtual calls a move fewer: callgrind, see the
    // commit).
    bool silent = false;
};

class Replayer final : private parser::Visitor {
public:
    // Replays `game` (its bytes and the consumer outlive the call), appending its problems
    // to `problems`.
    void replay(syntax::RawGame const& game, ReplayOptions const& options, ReplayConsumer& consumer,
                std::vector<Problem>& problems);

    // What the last replay found.
    bool rejected() const { return game_state_ >= GameState::rejected; }
    int errors() const { return errors_; }
    int warnings() const { return warnings_; }
    std::uint64_t moves() const { return moves_; }
    std::uint64_t corrected() const { return corrected_; }
    TagTable const& tags() const { return tags_; }
    bool chess960() const { return chess960_; }
    // The game termination marker to write: the movetext's result, else a valid Result tag,
    // else "*". A Result tag that is not a result is written as this marker too.
    std::string_view termination() const;

private:
    // parser::Visitor
    void tag(syntax::Token const& name, syntax::Token const& value) override;
    void plain_tag(std::string_view name, syntax::Location name_at, std::string_view value,
                   syntax::Location value_at) override;
    // Whether the table has room for one more tag (too_many_tags and the game rejected if not).
    bool room_for_tag(syntax::Location at);
    void begin_movetext() override;
    void move(syntax::Token const& move, syntax::Token const& suffix) override;
    void integer(syntax::Token const& token, std::string_view digits, bool numeric_game) override;
    void comment(syntax::Token const& text, syntax::CommentKind kind) override;
    void nag(syntax::Token const& text, std::uint8_t value) override;
    bool begin_variation(syntax::Token const& open) override;
    void end_variation(syntax::Token const& close) override;
    void result(syntax::Token const& token, syntax::Result value) override;
    void end_game(syntax::GameEnd const& end) override;
    void diagnostic(syntax::Diagnostic const& d) override;

    // The enclosing line of a variation. A variation is only entered from a line that has a
    // last move and is not broken, so those need no saving.
    struct Frame {
        chess::Position saved; // the position after the last move of the enclosing line
        chess::Move last{};
        chess::UndoInfo last_undo{};
        syntax::Location open_at{}; // the '('
        bool played = false;        // the variation has a move
        // "( (": variations of the same move still to open when this one closes (the rest
        // of the enclosing variations), and whether this one is such a rest (left out
        // without a warning when nothing follows).
        int reopen = 0;
        bool quiet = false;
    };
    void open_variation(syntax::Location at); // a '(' after the move it replaces
    // The innermost variation ends (left out, with a warning unless quiet, if it has no move).
    // `end`: the offset of its ')' (no_offset: the end of the game).
    void close_variation(bool quiet, std::uint64_t end);
    void setup();
    // A new problem of `kind` at `where` (counted; errors and warnings alike).
    Problem& add(ProblemKind kind, syntax::Severity severity, syntax::Location where,
                 std::string_view token = {});
    Problem& add_at_move(ProblemKind kind, syntax::Severity severity, syntax::Token move);
    // The move with the marks its suffix holds (`e4!+`: "e4+" and "!"), or nullptr if it holds
    // none.
    struct Normalized {
        std::string with_marks, glyphs;
        syntax::Token move, glyph;
        char mark = 0;
    };
    [[gnu::cold, gnu::noinline]] Normalized const* marks_in_suffix(syntax::Token const& move,
                                                                   syntax::Token const& suffix);
    // After `move` `suffix` (marked `mark`, '+' or '#') was played and the position says
    // otherwise (no check; for '#', no mate): the warning.
    [[gnu::cold, gnu::noinline]] void wrong_mark(syntax::Token const& move,
                                                 syntax::Token const& suffix, char mark);
    void reject() { game_state_ = GameState::dead; }
    // No move, comment or NAG is delivered: the game is rejected (or dead), or opt_.silent.
    bool muted() const { return game_state_ >= mute_from_; }
    int display_number() const { return pos_.fullmove_number() + display_offset_; }
    // Reports a move that cannot be played; returns the move to go on checking with
    // (strict mode, unique typo suggestion) or Move{}. `corrected`: the move returned is
    // the --fix-typos correction, to be written (a warning was reported, not an error).
    chess::Move fail_move(syntax::Token move, notation::ReadResult const& r, bool null_in_check,
                          bool& corrected);
    // A bad move here cuts the variation instead of breaking the game (not --strict).
    bool cuts_variation() const { return !frames_.empty() && !opt_.strict; }
    void start_broken(syntax::Token move, syntax::Token suffix);

    ReplayOptions opt_;
    ReplayConsumer* out_ = nullptr;
    std::vector<Problem>* problems_ = nullptr;
    syntax::RawGame const* game_ = nullptr;
    TagTable tags_;
    int errors_ = 0, warnings_ = 0;
    std::uint64_t moves_ = 0, corrected_ = 0;
    // The game, in this order (rejected() and muted() compare): its tags are being read; its
    // position is set up; rejected (a bad move under --strict or without --keep-broken:
    // nothing will be written, the moves are still checked with the move assumed); dead
    // (rejected by a setup error, a syntax error, too many tags or a move with no move to
    // assume: nothing more to replay).
    enum class GameState : std::uint8_t { fresh, set_up, rejected, dead };
    GameState game_state_ = GameState::fresh;
    // The first state muted(): rejected, or fresh with opt_.silent (one compare a move, not
    // two: callgrind, see the commit).
    GameState mute_from_ = GameState::rejected;
    LineState line_ = LineState::playing; // the current line (see LineState)
    int level_skip_ = 0; // depth inside skipped variations (--no-variations, broken lines)
    std::vector<Frame> frames_;
    // Moves and glyphs of this game rewritten with their marks moved (`e4!+`: "e4+" and "!"),
    // for the consumer; kept until the next game (the writer keeps views of the moves).
    std::deque<Normalized> normalized_;
    bool chess960_ = false; // the game is Chess960 (Variant tag or castling rights)
    chess::Position pos_;
    chess::Move last_{}; // the last move of the current line (Move{}: none yet)
    chess::UndoInfo last_undo_{};
    int display_offset_ = 0;        // added to fullmove numbers (FENs with fullmove 0)
    syntax::Token result_{};        // the movetext's result as written (empty text: none)
    syntax::Result result_value_{}; // and as read
};

// Normalises a Variant tag value: "" for standard chess, "chess960" for Chess960 under any
// of its names, otherwise the value as written (a variant that is not chess).
std::string variant_kind(std::string_view value);

} // namespace pgn_iccf::pgn
