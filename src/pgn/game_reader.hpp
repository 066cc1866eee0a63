// Streaming input: the GameReader that cuts a byte stream (src/io) into complete games in
// bounded memory.
//
// The reader reads into a buffer (at most 256 KiB per read, so that the bytes are still in
// cache when they are split and parsed; the buffer starts at 512 KiB and doubles for a game
// that does not fit), hands out every complete game found in the buffer as a view (RawGame),
// or whole games in owned batches (next_batch), and carries the incomplete tail over to the
// next read. Memory
// does not grow with the input size (only with the largest single game); offsets are 64-bit.
//
// Which bytes belong to which game (the RawGames plus the bytes between them reproduce the
// input exactly, so a rejects file can copy a game byte for byte):
// - Between games the reader skips whitespace (ASCII control bytes included), '%' escape
//   lines and UTF-8 byte order marks; these bytes belong to no game.
// - A game starts at the next other byte: its first '[' or its first movetext byte.
// - A game with a result (outside comments and variations) ends after the result, the blanks
//   after it and the line end of that line; if something else follows on that line, the game
//   ends after the result and its blanks and the next game starts there.
// - A game without a result ends before the next game, trimmed back to the end of its last
//   non-blank line (line end included). The next game starts at a line beginning (after
//   blanks) with '[' in movetext; in a tag section, at a tag pair after a blank line that is
//   named Event or repeats a name of the section; at a line starting with `1.` after a blank
//   line once the game has movetext (games without tags; an introductory comment is not
//   movetext); at a line inside a brace comment that begins like a tag pair `[Name "` (so that
//   a '{' left open cannot swallow the following games; the parser then reports the
//   unterminated comment); or at the end of the input.
// - A '[', a result or a ';' inside a comment, a result inside a variation, never end a game.
//
// The RawGame's start location (offset, line, column) makes it self-contained: parse_game
// may run on another thread (the bytes must then be copied: they are valid until next()).
#pragma once

#include "grammar/ast.hpp"
#include "grammar/parse.hpp"
#include "io/source.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace pgn_iccf::pgn {

// Byte sources live in src/io; the reader takes any of them.
using io::ByteSource;
using io::open_file;
using io::open_memory;
using io::open_stdin;

// Whole games with the bytes they own (unlike RawGame views, which die at the next read), so
// that a batch can cross threads. games[i].bytes point into `bytes`.
struct GameBatch {
    std::string bytes;
    std::vector<ast::RawGame> games;
    void clear() {
        bytes.clear();
        games.clear();
    }
};

class GameReader {
public:
    explicit GameReader(ByteSource& source, std::size_t chunk_size = std::size_t{4} << 20);

    // The next complete game; false at end of input (or on an I/O error: see io_error()).
    // The game's bytes stay valid until the next call.
    bool next(ast::RawGame& game);

    // Appends whole games to `batch` until it holds at least `target_bytes` of game bytes (or
    // the input ends); false if no game was added. The cut depends only on the games and
    // target_bytes, never on how the source delivered its bytes.
    bool next_batch(GameBatch& batch, std::size_t target_bytes);

    std::string const& io_error() const { return io_error_; }
    std::uint64_t bytes_read() const { return total_read_; }

private:
    bool fill();                                    // reads one more chunk; false at end
    void advance(char const* from, char const* to); // moves cursor_ over [from, to)

    ByteSource& source_;
    std::size_t chunk_size_;
    std::vector<char> buffer_;
    std::size_t begin_ = 0; // first unconsumed byte in buffer_
    std::size_t end_ = 0;   // end of valid bytes in buffer_
    bool eof_ = false;
    std::uint64_t total_read_ = 0;
    ast::Location cursor_{}; // location of buffer_[begin_] in the file
    std::uint64_t games_ = 0;
    std::string io_error_;
    bool prev_cr_ = false;    // the byte before buffer_[begin_] was a CR
    std::size_t limit_ = 0;   // end of the complete lines in buffer_ (valid unless stale)
    bool limit_stale_ = true; // buffer_ changed since limit_ was found
};

} // namespace pgn_iccf::pgn
