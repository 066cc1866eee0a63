// The reading room's window: the GameReader that cuts a byte stream (src/io) into complete
// games in bounded memory and in time linear in the input, whatever its shape.
//
// The reader reads into a buffer (at most 256 KiB per read, so that the bytes are still in
// cache when they are split and parsed; the buffer starts at 512 KiB and doubles for a game
// that does not fit, up to max_game_size), hands out every complete game found in the buffer
// as a view (RawGame), or whole games in owned batches (next_batch), and carries the
// incomplete tail over to the next read. The splitter's state survives a read: a game that
// spans reads is scanned on from where the previous scan stopped, never again from its first
// byte, and bytes between games are consumed as they come (a line of a billion NUL bytes goes
// through the first buffer), so the time is linear in the input whatever its shape: long
// lines, huge comments, tag sections of any length. Offsets are 64-bit.
//
// Which bytes belong to which game: the rules are documented once, in splitter.hpp (the
// splitter applies them; the window holds the bytes and hands the games out).
//
// Oversized games. A game whose end is not known within its first max_game_size bytes
// (default 8 MiB; blank lines that the rules would trim off its end count while they are
// undecided, and so do the few bytes after it that decide its end) is never held whole: next()
// hands it out in pieces, cut every max_piece_size bytes (1 MiB; half the limit if that is
// smaller) from its first byte, so that the cuts depend only on the bytes. Each piece is a
// RawGame (bytes: the piece; start: the piece's location; number: the game's number, the same
// for every piece) with part() oversized_first, then oversized_middle..., then oversized_last
// (at least two pieces); their concatenation is exactly the game's bytes; normal games
// follow. The pieces are not parsed: the caller counts and reports the game once, as one
// error at the location of its first piece, and writes every piece to the rejects file.
//
// The splitter scans an oversized game on with the same rules, holding a window of
// max_game_size bytes (see splitter.hpp for the bounds that only hostile input reaches).
//
// Memory: the buffer never holds more than max_game_size bytes (buffer_capacity()); with the
// tag names of one section, a reader stays within max_game_size plus about 1 MiB, whatever
// the input, and goes back to its first buffer once a game of several MiB is out. A RawGame
// is a view into the buffer; a batch holds copies.
//
// The RawGame's start location (offset, line, column) makes it self-contained: parse_game
// may run on another thread (the bytes must then be copied: they are valid until next()).
#pragma once

#include "grammar/syntax.hpp"
#include "io/source.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::reader {

namespace detail {
struct SplitState;
} // namespace detail

// Byte sources live in src/io; the reader takes any of them.
using io::ByteSource;

// What a RawGame handed out by the reader is: a whole game, or a piece of a game larger than
// max_game_size (whose bytes are not parsed: the game is reported as one error and its
// pieces go, in order, to the rejects file).
enum class GamePart : std::uint8_t {
    whole,
    text, // bytes between games that hold no game (number 0): warn, copy to the rejects file
    // A run of control bytes between games longer than a piece (64 KiB; a quarter of
    // max_game_size if that is smaller) comes in pieces cut at fixed offsets from its start:
    text_first,       // its first piece: warn; its bytes go to the rejects file as they are
    text_more,        // the next pieces (number 0): their bytes too, no warning
    oversized_first,  // the first piece: count and report the game here
    oversized_middle, // zero or more
    oversized_last,   // the last piece; normal games follow
};

// Whether a part is text between games (whole or a piece): no game.
constexpr bool is_text(GamePart p) {
    return p == GamePart::text || p == GamePart::text_first || p == GamePart::text_more;
}

// Whole games (and pieces of oversized games) with the bytes they own (unlike RawGame views,
// which die at the next read), so that a batch can cross threads. games[i].bytes point into
// `bytes`; parts[i] says what games[i] is (parallel vectors, in input order).
struct GameBatch {
    std::string bytes;
    std::vector<syntax::RawGame> games;
    std::vector<GamePart> parts;
    void clear() {
        bytes.clear();
        games.clear();
        parts.clear();
    }
};

// The line of the last byte of `g` that is not whitespace (its start line if there is none):
// with g.start.line, the line range of text between games for a message.
std::uint64_t last_line(syntax::RawGame const& g);

// Tells a game from text between games among the bytes that the splitter cut (see
// splitter.hpp). The reading room knows no chess: its caller passes the classifier
// (pgn::GameReader passes one that reads moves, src/pgn/game_reader.cpp).
struct Classifier {
    // Whether bytes [p, end) without a tag section and without a result are a game.
    bool (*starts_like_game)(char const* p, char const* end);
    // For bytes that are not a game: the start of a later line from which a game score
    // begins (a title line above the moves), or nullptr.
    char const* (*score_line)(char const* p, char const* end);
};

class GameReader {
public:
    // 8 MiB: far above real games (a heavily annotated one is a few hundred KiB), and low
    // enough that converting one such game stays within the 64 MiB memory bound (up to six
    // times its size: the reader's window, the batch's copy, and its output, up to four times
    // its size with --annotate -t lan, held once: see MovetextWriter::move_text_to).
    static constexpr std::size_t default_max_game_size = std::size_t{8} << 20;
    static constexpr std::size_t max_piece_size = std::size_t{1} << 20;
    // The defaults of every reader: its read size (chunk_size), and the bounds of a batch
    // (next_batch) that the pipeline and the browser build use.
    static constexpr std::size_t default_chunk_size = std::size_t{4} << 20;
    static constexpr std::size_t default_batch_bytes = std::size_t{1} << 20;
    static constexpr std::size_t default_batch_games = 1024;

    // chunk_size bounds each read (at most 256 KiB anyway); max_game_size is clamped to at
    // least 256 bytes (small values are for tests). `start`: where the source's first byte
    // is in the input (the rest of an input after the cutter: cutter.hpp).
    GameReader(ByteSource& source, Classifier classifier,
               std::size_t chunk_size = default_chunk_size,
               std::size_t max_game_size = default_max_game_size, syntax::Location start = {});
    // A reader of bytes that are all in memory (a block of an input: src/batch's cutter), as
    // if they were a whole input whose first byte is at `start` (offset, line and column):
    // the games handed out are views into `bytes`, valid as long as they are, and nothing is
    // copied. The bytes end the input (the splitter decides at their end as at the end of a
    // file); what is handed out is what a reader of a ByteSource holding the same bytes hands
    // out, with locations from `start`.
    GameReader(std::string_view bytes, syntax::Location start, Classifier classifier,
               std::size_t max_game_size = default_max_game_size);
    ~GameReader();
    GameReader(GameReader const&) = delete;
    GameReader& operator=(GameReader const&) = delete;

    // The next complete game, or the next piece of an oversized game (see part()); false at
    // end of input (or on an I/O error: see io_error()). The bytes stay valid until the next
    // call.
    bool next(syntax::RawGame& game);

    // What the last RawGame returned by next() is.
    GamePart part() const { return part_; }

    // Appends whole games (and oversized pieces, with their parts) to `batch` until it holds
    // at least `target_bytes` of game bytes or `max_games` games (or the input ends); false if
    // nothing was added. The cut depends only on the games and the two bounds, never on how
    // the source delivered its bytes. (The game bound keeps a batch of tiny games small: a
    // 2-byte game `*` is written with its Seven Tag Roster, about 120 bytes.)
    bool next_batch(GameBatch& batch, std::size_t target_bytes,
                    std::size_t max_games = ~std::size_t{0});

    std::string const& io_error() const { return io_error_; }
    std::uint64_t bytes_read() const { return total_read_; }
    std::size_t max_game_size() const { return max_game_size_; }
    std::size_t buffer_capacity() const { return capacity_; } // never above max_game_size()

private:
    enum class Phase : std::uint8_t { between, in_game, oversized };
    enum class Fill : std::uint8_t { read, end, full };
    // What a step of next() between games did: handed out text (out), found the end of the
    // input (end), read more (again), or started a game (game).
    enum class Turn : std::uint8_t { out, end, again, game };
    struct Free {
        void operator()(char* p) const { std::free(p); }
    };

    Fill fill();                                    // reads one more chunk
    void advance(char const* from, char const* to); // moves cursor_ over [from, to)
    void start_game(std::size_t at);
    std::uint64_t scan(bool final, bool force = false); // the game's end, or no end yet
    std::size_t scan_floor() const;
    void drop_lead();
    void enter_between();
    std::uint64_t safe_end(bool force); // oversized: what may be handed out
    // The most blanks (and digits and dots) held back before the scan position, for the
    // look-backs of the rules (window.cpp: max_held_tail; a quarter of a small window).
    std::size_t held_tail() const;
    // Whether the byte at p (in the buffer, at or after begin_) starts a line.
    bool line_starts_at(char const* p) const;
    void hand_out(syntax::RawGame& game, std::size_t n, std::uint64_t number);
    // The steps of next(), one per phase (true: `game` was handed out).
    char const* skip_between(bool& more, bool& run_ended);
    Turn between(syntax::RawGame& game);
    bool in_game(syntax::RawGame& game);
    bool oversized_piece(syntax::RawGame& game);

    ByteSource* source_ = nullptr; // null: the bytes are all in memory (span_size_ of them)
    Classifier classifier_;
    std::size_t chunk_size_;
    std::size_t max_game_size_;
    std::unique_ptr<char, Free> buffer_; // malloc'ed: untouched pages cost nothing
    std::size_t capacity_ = 0;           // the part of buffer_ in use: doubles up to the limit
    std::size_t small_capacity_ = 0;     // the first buffer's size, returned to after a big game
    bool reserved_ = false;              // buffer_ holds max_game_size_ bytes
    char const* data_ = nullptr;         // the bytes: buffer_, or the caller's in memory
    std::size_t span_size_ = 0;          // in memory: how many
    std::uint64_t base_ = 0;             // stream offset of buffer_[0]
    std::size_t begin_ = 0;              // first unconsumed byte in buffer_
    std::size_t end_ = 0;                // end of valid bytes in buffer_
    bool eof_ = false;
    std::uint64_t total_read_ = 0;
    syntax::Location cursor_{}; // location of buffer_[begin_] in the file
    std::uint64_t games_ = 0;
    std::string io_error_;
    bool prev_cr_ = false; // the byte before buffer_[begin_] was a CR
    Phase phase_ = Phase::between;
    bool in_percent_ = false; // between games, inside a '%' line
    // Between games (stream offsets): where the scan resumes; the start of the current line
    // (its leading blanks go with text between games, not with a game); a run of lines
    // holding control bytes (text between games: junk_from_ is its first line's start, or
    // no_junk) and the end of its last complete line; whether the current line holds one;
    // whether a piece of the run is out (GamePart::text_first).
    static constexpr std::uint64_t no_junk = ~std::uint64_t{0};
    std::uint64_t between_pos_ = 0;
    std::uint64_t line_from_ = 0;
    std::uint64_t junk_from_ = no_junk;
    std::uint64_t junk_to_ = 0;
    bool line_junk_ = false;
    bool junk_pieces_ = false;
    std::size_t junk_piece_size() const {
        return std::min<std::size_t>(std::size_t{64} << 10, max_game_size_ / 4);
    }
    std::unique_ptr<detail::SplitState> split_; // the splitter's state (splitter.hpp)
    GamePart part_ = GamePart::whole;
    // Oversized game: where it starts, whether its end is known (over_end_), what may be
    // handed out so far (over_safe_).
    bool over_first_ = false;
    bool over_done_ = false;
    std::uint64_t over_begin_ = 0;
    std::uint64_t over_end_ = 0;
    std::uint64_t over_safe_ = 0;
};

} // namespace pgn_iccf::reader
