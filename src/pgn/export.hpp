// The export writer: the consumer of the replay (replayer.hpp) that writes the game again in
// export format with every move in the target notation, keeping tags, comments, NAGs,
// suffix annotations and variations, and the rest of a line that could not be played.
//
// One ExportWriter is reused for many games (its buffers keep their capacity, so steady-state
// conversion does not allocate per move). Not thread-safe; one per worker thread.
#pragma once

#include "pgn/replayer.hpp"
#include "pgn/writer.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::pgn {

struct ExportOptions {
    notation::Notation to = notation::Notation::numeric;
    notation::WriteOptions write{}; // write.letters: not null
    bool annotate = false;          // add the move as it was written, in a comment, after it
    bool comments = true;           // keep comments
    bool nags = true;               // keep NAGs (and symbolic glyphs, written as NAGs)
    int width = default_width;      // maximum movetext line length; 0 = one line
};

// Not final: --input-lang auto (converter.cpp) adds the unplayable() hook.
class ExportWriter : public ReplayConsumer {
public:
    explicit ExportWriter(ExportOptions const& options) : opt_(options) {}

    // Appends the game to `out`: the tags of the replay, then the movetext written during it
    // and `termination`. `chess960`: the game is Chess960 (a Variant tag is added beside its
    // FEN when the input had none).
    void write(std::string& out, TagTable const& tags, std::string_view termination, bool chess960);
    // Gives back buffers larger than `keep` bytes (see release_if_above).
    void release_buffers(std::size_t keep);

    // ReplayConsumer
    void begin_game(syntax::RawGame const& game) override;
    void move(chess::Position& pos, chess::Move m, int number, syntax::Token move,
              syntax::Token suffix, bool corrected) override;
    void play(chess::Position& pos, chess::Move m, chess::UndoInfo& undo, int number,
              syntax::Token const& move, syntax::Token const& suffix, bool corrected) override;
    void comment(std::string_view text, syntax::CommentKind kind) override;
    void nag(std::uint8_t value) override;
    void begin_variation() override;
    void end_variation(bool empty, std::uint64_t end) override;
    void line_broken(syntax::Token move, syntax::Token suffix, LineState state) override;
    void unplayed(std::string_view text, std::string_view suffix) override;
    void unplayed_variation() override;
    void end_movetext() override;

private:
    // A comment or NAG at the start of a variation, held until the variation's first move:
    // a variation that ends without a move is left out (no PGN reader accepts "()") and what
    // it held goes after the move before it.
    struct Pending {
        std::size_t at = 0, size = 0; // the text: held_[at, at + size)
        syntax::CommentKind kind = syntax::CommentKind::brace;
        int nag = -1; // >= 0: a NAG of that value (no text)
    };
    bool open_deferred(); // the variation's first move: writes what was held (true: a comment)
    void put_comment(std::string_view text, syntax::CommentKind kind);
    void put_nag(std::uint8_t value);
    // The move's text written, with its number where one is due, and its suffix.
    void write_move(std::string_view text, bool white, int number, syntax::Token const& move,
                    syntax::Token const& suffix, bool corrected);
    // Writes what was kept of a broken line; a cut variation's rest is the input up to `end`.
    void flush_broken(std::uint64_t end = no_offset);
    void flush_annotation();

    ExportOptions opt_;
    syntax::RawGame const* game_ = nullptr;
    MovetextWriter writer_;
    bool deferring_ = false;       // in a variation that has no move yet (see Pending)
    std::vector<Pending> pending_; // held by the innermost variation while deferring_
    std::string held_;             // their texts (a copy: the rest of a broken line is too)
    // need_number_ of each enclosing line before its variation's '('.
    std::vector<bool> need_number_stack_;
    bool need_number_ = true;
    // What is kept of a broken line (the replay tells its state: line_broken), until written:
    // a variation cut at offset cut_from_, its rest [cut_from_, its ')') (no_offset: none);
    // the rest of a line broken otherwise, as unplayed() delivered it.
    std::uint64_t cut_from_ = no_offset;
    std::string broken_text_;
    std::string_view pending_annotation_; // --annotate text waiting for the move's NAGs
    bool pending_typed_ = false;          // ... written as {typed TEXT} (--fix-typos)
    std::string typed_;
    std::string scratch_;
};

} // namespace pgn_iccf::pgn
