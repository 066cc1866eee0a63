// The reading room's cutter: cuts an input into blocks that can be split into games each on
// its own, on any thread, so that the serial stage of a run only reads and cuts (issue J).
//
// A block is cut where a game starts whatever came before: at a cheap boundary (see
// find_cut), found by looking at a few bytes around the cut, never by splitting the games
// before it. A block's bytes are split by a GameReader of its own (split_block), started with
// a fresh state at the block's first byte: at a cut, the reader of the whole input is between
// games and a game starts there, so what the block's reader hands out is exactly what the
// reader of the whole input hands out for those bytes, with locations relative to the block
// (its lines counted from 1, its games from 1). The caller adds the lines and games of the
// blocks before (in input order, a serial step of a few additions per game).
//
// The reader of the whole input decides where a game ends from the bytes after it: at a cut,
// from the cut's line. So a block carries the first line of the next block after its own
// bytes (the lookahead); its reader stops at the game that starts at the cut.
//
// An input with no cut within `cap` bytes of the block's start (games without blank lines
// between them, games without an Event tag, one huge game) is read on from there by one
// GameReader in the serial stage, as before blocks existed (Cutter::rest()): the same games,
// in memory bounded by the reader's window.
#pragma once

#include "grammar/syntax.hpp"
#include "io/source.hpp"
#include "reader/window.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace pgn_iccf::reader {

// Where a block may be cut in [from, end) of `bytes` (the bytes of the input from the block's
// start): the first offset c >= max(from, 2) such that a game starts at c whatever the bytes
// before it are, and its line ends within the bytes (the lookahead); 0 if there is none.
// `line_end` is set to the offset after that line's end. A cut is a line starting with
// `[Event "` after one blank line (of at most 64 bytes with the line ends around it), after a
// line whose last token is a result (`1-0`, `0-1`,
// `1/2-1/2`, `*`) and which is neither a '%' line nor holds a ';': the game before it has
// movetext and a result, so the splitter's rules (splitter.hpp) end it there whatever its
// state (in a tag section, in movetext at any variation depth, inside a brace comment: a line
// beginning like a tag pair starts the next game), and a game starts at the '['.
// The cut's line is at most max_line bytes long: a reader with a window of max_game_size
// bytes decides on a line of up to a quarter of it by the rules, even in an oversized game
// (whose window may lag half a window and a few KiB behind), so Cutter passes
// max_game_size / 4 - 64. at_line_start: bytes[0] is the first byte of a line (else a line reaching
// back to it is not known whole, and ends no cut).
std::size_t find_cut(std::string_view bytes, std::size_t from, std::size_t& line_end,
                     std::size_t max_line, bool at_line_start = true);

// A block of an input: bytes[0, size) are its own; bytes[size, length) are the lookahead (the
// first line of the next block; none when the block ends the input). A block of a positional
// input (a regular file) is cut without its bytes: `source` is set and bytes holds nothing of
// it until read_block reads them, on the worker's thread (bytes keeps those of an earlier
// block meanwhile, as a buffer: read over, they cost no zero-filling of a fresh string).
struct Block {
    std::string bytes;
    std::size_t size = 0;
    std::size_t length = 0;
    std::uint64_t offset = 0; // of bytes[0] in the input
    bool last = false;        // the input ends with it (no lookahead)
    std::shared_ptr<io::PositionalReader const> source;
    bool to_end = false; // source set: the last block, to the input's end (size and length 0
                         // until read_block reads it)
};

// Reads the bytes of a block cut without them (source set); false with `error` if they cannot
// be read whole (a read error, or the input is shorter than when it was cut).
bool read_block(Block& b, std::string& error);

// What split_block found: the block's lines (line ends in its own bytes) and games (the
// number of the last game it holds; 0 if none).
struct BlockCount {
    std::uint64_t lines = 0;
    std::uint64_t games = 0;
};

// Splits `block` into games appended to `batch` (views into block.bytes: batch.bytes is not
// used), located as if the block's first byte were at line 1, column 1, and numbered from 1.
// Throws std::logic_error if the cut was not a game start (find_cut's promise broken: a bug).
BlockCount split_block(Block const& block, Classifier classifier, std::size_t max_game_size,
                       GameBatch& batch);

class Cutter {
public:
    // target: the block size aimed at (a block ends at the first cut at or after it); cap: a
    // block with no cut within cap bytes ends the cutting (rest()).
    Cutter(ByteSource& source, std::size_t target, std::size_t cap, std::size_t max_game_size);

    enum class Next : std::uint8_t { block, end, rest };
    // The next block (block), the end of the input (end; error() says if a read failed: the
    // block before was the last), or no cut within cap bytes (rest).
    Next next(Block& b);

    // After Next::rest: the rest of the input, from the start of the block that found no cut
    // (at offset rest_offset()): the bytes held, then the source's (or a positional input's
    // from there). Valid while the cutter is.
    ByteSource& rest() { return *rest_; }
    std::uint64_t rest_offset() const { return offset_; }

    std::string const& error() const { return error_; }
    // Bytes of the input cut or read (progress; at the end, the input's size).
    std::uint64_t bytes_read() const { return positional_ ? offset_ : read_; }
    // Bytes taken from the underlying file or stream (ByteSource::consumed), for progress.
    std::uint64_t consumed() const { return positional_ ? offset_ : source_.consumed(); }

private:
    // Bytes read into a string that is never shrunk: its size is the room, `size` the bytes
    // held. Reading more zero-fills only room the string never had (a std::string grown by
    // resize() zero-fills every time; the rooms here circulate with the blocks' strings).
    struct Held {
        std::string room;
        std::size_t size = 0;
        std::string_view view() const { return {room.data(), size}; }
        // Room for n more bytes after those held.
        char* grow(std::size_t n) {
            if (room.size() < size + n) room.resize(size + n);
            return room.data() + size;
        }
    };

    bool read_more(std::size_t want); // false at the end of the input or on an error
    Next next_positional(Block& b);
    // Reads [at, at + n) of a positional input into probe_ (appended); false at its end.
    bool probe(std::uint64_t at, std::size_t n);

    ByteSource& source_;
    std::shared_ptr<io::PositionalReader const> positional_;
    Held probe_; // positional: bytes from probe_at_ on, looked at for a cut
    std::uint64_t probe_at_ = 0;
    std::size_t target_, cap_, max_line_;
    Held held_;                // bytes read from offset_ on, not yet in a block
    std::size_t searched_ = 0; // no cut in held_ before this (a cut's lookahead aside)
    std::uint64_t offset_ = 0;
    std::uint64_t read_ = 0;
    bool end_ = false;
    std::string error_;
    std::unique_ptr<ByteSource> rest_;
};

} // namespace pgn_iccf::reader
