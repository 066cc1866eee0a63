// Streaming input: the GameReader that cuts a byte stream (src/io) into complete games in
// bounded memory and in time linear in the input, whatever its shape.
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
// Which bytes belong to which game (the RawGames plus the bytes between them reproduce the
// input exactly, so a rejects file can copy a game byte for byte):
// - Between games the reader skips blank lines (spaces, tabs, form feeds, line ends), '%'
//   escape lines and UTF-8 byte order marks; these bytes belong to no game. Lines holding
//   other ASCII control bytes (NUL, ^Z, DEL, ...) and nothing else are text between games
//   (below), one run of them up to the end of the last such line; control bytes before a
//   game on its first line are text too. Long runs come in pieces (GamePart::text_first,
//   text_more), so a line of a billion NUL bytes still goes through a small buffer.
// - A game starts at the next other byte: its first '[' or its first movetext byte. Comments
//   there followed by a tag section (a comment at the top of a file) lead that game.
// - A game with a result (outside comments and variations; the forfeits `(+)-(-)` `(-)-(+)`
//   count, where a '(' would open a variation) owns the rest of the result's line: blanks,
//   comments, a ')' and text (`1-0 ff`, `1-0 ff *`), up to and including its line end. Only
//   a '[', a `1.` or text that starts like a game (a move number or a move legal in the
//   starting position) and that a result follows on that line (`e4 * d4 1-0`: games on one
//   line) starts the next game there, after the result and its blanks. Then come the comment lines
//   after it (a line starting, after blanks, with '{' or ';'; blank and '%' lines between them):
//   they belong to the game too, up to the line end of the last one (engine logs write `; { Game
//   Nr. 1 : X draws ... }` after every game). Other text after such a comment on its line
//   starts the next piece there; a comment there never closed (or closed only after a line
//   that begins like a tag pair) does not join: the game ends before it.
// - Text between games: bytes that the rules cut like a game but that have no tag section,
//   no result, and whose first token (after comments) is neither a move number, nor a numeric
//   move, nor a move legal in the starting position (mail headers, "some garbage", a stray
//   0xFF byte, a lone comment). The reader hands them out as GamePart::text with number 0,
//   with the leading blanks of their first line: no game (games are numbered without them);
//   the caller warns naming the lines and copies them to the rejects file, so that nothing
//   is lost.
// - A game without a result ends before the next game, trimmed back to the end of its last
//   non-blank line (line end included). The next game starts at a line beginning (after
//   blanks) with '[' in movetext; in a tag section, at a tag pair after a blank line that is
//   named Event or repeats (in any letter case) a name of the section; at a line starting
//   with `1.` after a blank line once the game has movetext (games without tags; an
//   introductory comment is not movetext); at a line inside a brace comment that begins like
//   a tag pair `[Name "` (so that a '{' left open cannot swallow the following games; the
//   parser then reports the unterminated comment); or at the end of the input.
// - A '[', a result or a ';' inside a comment, a result inside a variation, never end a game.
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
// max_game_size bytes, so the next game starts where the rules start it. A piece goes out only
// once the scan no longer needs its bytes, with four bounds that only hostile input reaches,
// where the window decides instead of the rules: the bytes just before the scan position that
// the rules may look back on (blanks before a line that may end the game, the digits and dots
// before a result) are held up to 4 KiB, and bytes beyond are handed out (a longer run of
// blank lines stays in the game; a longer run of digits and dots counts as the game's start);
// a tag line longer than the window is taken as one tag pair up to its line end; a comment
// line whose `[Name` is longer than the window is not tag-like; after a result, text on its
// line whose line end is not within the window starts the next piece there (text between
// games, or an oversized game), and blank lines or a comment after a result that fill the
// window stay in the game. (The bytes the rules decide on after a result count towards the
// limit while undecided, as the blank lines before a game's end do.) In every game, the
// names of a tag section are remembered up to 4096 distinct ones and 256 KiB in all (real
// sections have a few dozen); a repeated name beyond those does not start a new game.
//
// Memory: the buffer never holds more than max_game_size bytes (buffer_capacity()); with the
// tag names of one section, a reader stays within max_game_size plus about 1 MiB, whatever
// the input, and goes back to its first buffer once a game of several MiB is out. A RawGame
// is a view into the buffer; a batch holds copies.
//
// The RawGame's start location (offset, line, column) makes it self-contained: parse_game
// may run on another thread (the bytes must then be copied: they are valid until next()).
#pragma once

#include "grammar/parse.hpp"
#include "grammar/syntax.hpp"
#include "io/source.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace pgn_iccf::pgn {

// Byte sources live in src/io; the reader takes any of them.
using io::ByteSource;
using io::open_file;
using io::open_memory;
using io::open_stdin;

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

namespace detail {
class Splitter;

// The distinct tag names of a tag section (any letter case): open addressing over 64-bit
// hashes, the lower-case names back to back in one arena (detail::Splitter).
struct TagNames {
    struct Slot {
        std::uint64_t hash = 0; // 0: empty
        std::uint32_t at = 0;   // the name is arena[at, at + size)
        std::uint32_t size = 0;
    };
    std::vector<Slot> slots; // a power of two, at most half full
    std::string arena;
    std::size_t count = 0;
};
} // namespace detail

class GameReader {
public:
    // 8 MiB: far above real games (a heavily annotated one is a few hundred KiB), and low
    // enough that converting one such game stays within the 64 MiB memory bound (up to six
    // times its size: the reader's window, the batch's copy, and its output, up to four times
    // its size with --annotate -t lan, held once: see MovetextWriter::move_text_to).
    static constexpr std::size_t default_max_game_size = std::size_t{8} << 20;
    static constexpr std::size_t max_piece_size = std::size_t{1} << 20;

    // chunk_size bounds each read (at most 256 KiB anyway); max_game_size is clamped to at
    // least 256 bytes (small values are for tests).
    explicit GameReader(ByteSource& source, std::size_t chunk_size = std::size_t{4} << 20,
                        std::size_t max_game_size = default_max_game_size);

    // The next complete game, or the next piece of an oversized game (see part()); false at
    // end of input (or on an I/O error: see io_error()). The bytes stay valid until the next
    // call.
    bool next(syntax::RawGame& game);

    // What the last RawGame returned by next() is.
    GamePart part() const { return part_; }
    bool oversized() const { return part_ != GamePart::whole && !text(); }
    bool text() const { // text between games (whole or a piece), no game
        return part_ == GamePart::text || part_ == GamePart::text_first ||
               part_ == GamePart::text_more;
    }
    bool oversized_last() const { return part_ == GamePart::oversized_last; }

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
    friend class detail::Splitter;

    // The splitter's resumable state for the current game (detail::Splitter, in the .cpp):
    // where its scan stopped and what it needs to go on from there. Positions are stream
    // offsets, so they survive the buffer moving.
    struct SplitState {
        enum class Mode : std::uint8_t {
            tag_line,     // at a '[' of the tag section: needs its whole line
            tag_skip,     // a tag line longer than the window (oversized game): to its end
            content_line, // after a line end: skipping blank and '%' lines
            movetext,
            comment,      // inside a brace comment
            line_comment, // inside a ';' comment
            after_result, // after a result (or a comment after it), on the same line
            after_game,   // at a line start after the result's line: comment lines join
        };
        // Inside a comment, the progress of the current line towards looking like `[Name "`.
        enum class Line : std::uint8_t { rest, start, name_first, name_rest, after_name };
        enum class Probe : std::uint8_t { scan, brace, line }; // the has-movetext probe

        std::uint64_t begin = 0;      // the game's first byte
        std::uint64_t pos = 0;        // where the scan resumes
        std::uint64_t line_start = 0; // content_line: current line; tag_line: line of the '['
        std::uint64_t candidate = 0;  // comment: the line that may be tag-like
        std::uint64_t searched = 0;   // tag_line: no line end in [pos, searched)
        std::uint64_t probe_pos = 0;  // the has-movetext probe has read [begin, probe_pos)
        std::uint64_t names_upto = 0; // the names of the '[' in [begin, names_upto) are known
        std::uint64_t trail_end = 0;  // after the result: the game's end if nothing else joins
        int depth = 0;                // variation depth
        Mode mode = Mode::movetext;
        Line line = Line::rest;
        Probe probe = Probe::scan;
        bool in_tags = false;        // content_line: in the tag section
        bool after_blank = false;    // content_line: a blank line was skipped
        bool in_percent = false;     // content_line: inside a '%' line
        bool check_new_game = false; // tag_line: a blank line precedes it
        bool probe_found = false;    // the game has movetext (has-movetext probe)
        bool had_tags = false;       // the game has a tag section
        bool result = false;         // the game's result was found (after_result, after_game)
        bool result_line = false;    // after_result: still on the line of the result
        detail::TagNames names;
    };

    enum class Phase : std::uint8_t { between, in_game, oversized };
    enum class Fill : std::uint8_t { read, end, full };
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
    void hand_out(syntax::RawGame& game, std::size_t n, std::uint64_t number);

    ByteSource& source_;
    std::size_t chunk_size_;
    std::size_t max_game_size_;
    std::unique_ptr<char, Free> buffer_; // malloc'ed: untouched pages cost nothing
    std::size_t capacity_ = 0;           // the part of buffer_ in use: doubles up to the limit
    std::size_t small_capacity_ = 0;     // the first buffer's size, returned to after a big game
    bool reserved_ = false;              // buffer_ holds max_game_size_ bytes
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
    SplitState split_;
    GamePart part_ = GamePart::whole;
    // Oversized game: where it starts, whether its end is known (over_end_), what may be
    // handed out so far (over_safe_).
    bool over_first_ = false;
    bool over_done_ = false;
    std::uint64_t over_begin_ = 0;
    std::uint64_t over_end_ = 0;
    std::uint64_t over_safe_ = 0;
};

} // namespace pgn_iccf::pgn
