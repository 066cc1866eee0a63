// The game splitter of the reading room: cuts a byte stream into games without parsing them.
// Internal to src/reader (window.cpp runs it); the public interface is window.hpp.
//
// Which bytes belong to which game (the RawGames plus the bytes between them reproduce the
// input exactly, so a rejects file can copy a game byte for byte):
// - Between games the reader skips blank lines (spaces, tabs, form feeds, line ends), '%'
//   escape lines (a '%' in column 1, here and in a game) and UTF-8 byte order marks; these
//   bytes belong to no game. Lines holding other ASCII control bytes (NUL, ^Z, DEL, ...) and
//   nothing else are text between games (below), one run of them up to the end of the last
//   such line; control bytes before a game on its first line are text too. Long runs come
//   in pieces (GamePart::text_first, text_more), so a line of a billion NUL bytes still goes
//   through a small buffer.
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
// games, or an oversized game), and blank lines or a comment after the result that fill the
// window while undecided do not join: the game ends where they start (after its result's
// line or the last comment line that joined, or at a comment opened on the result's line),
// and the rest is read on from there, by the rules, in a window of its own (so a line inside
// such a comment that begins like a tag pair starts a game, as a block cut there expects:
// cutter.hpp). (The bytes the rules decide on after a result count towards the limit while
// undecided, as the blank lines before a game's end do: such a game is an oversized game.)
// In every game, the names of a tag section are remembered up to 4096 distinct ones and
// 256 KiB in all (real sections have a few dozen); a repeated name beyond those does not
// start a new game.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::reader::detail {

// The game's end is not within the bytes read (Splitter::run).
constexpr std::uint64_t no_end = ~std::uint64_t{0};

// The distinct tag names of a tag section (any letter case): open addressing over 64-bit
// hashes, the lower-case names back to back in one arena (Splitter).
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

// Inserts `name` (if there is room: see splitter.hpp); whether it was there already.
bool insert_name(TagNames& t, std::string_view name);

// The splitter's resumable state for the current game (Splitter):
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
        ended,        // the game ends at trail_end (force(): after the result, undecided)
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
    bool in_tags = false;         // content_line: in the tag section
    bool after_blank = false;     // content_line: a blank line was skipped
    bool in_percent = false;      // content_line: inside a '%' line
    bool check_new_game = false;  // tag_line: a blank line precedes it
    bool probe_found = false;     // the game has movetext (has-movetext probe)
    bool had_tags = false;        // the game has a tag section
    bool begin_line_start = true; // the game's first byte starts a line (a '%' there is an
                                  // escape line: not after control bytes or a comment line)
    bool result = false;          // the game's result was found (after_result, after_game)
    bool result_line = false;     // after_result: still on the line of the result
    TagNames names;
};

// One run of the splitter over the bytes [lo, end) of the buffer (lo: the first byte not yet
// handed out; the game's first byte unless the game is oversized): resumes the current game's
// scan at st.pos and runs to the game's end or to `end`, leaving in st what the next run
// needs. `final`: no byte follows `end`. Every look-back stops at lo.
class Splitter {
public:
    using State = SplitState;
    using Mode = State::Mode;
    using Line = State::Line;
    using Probe = State::Probe;

    // like_game: the classifier's test for text after a result (Classifier::starts_like_game).
    Splitter(State& st, char const* buf, std::uint64_t base, std::size_t lo, std::size_t end,
             bool final, bool (*like_game)(char const*, char const*))
        : st_(st), buf_(buf), base_(base), lo_(buf + lo), end_(buf + end), final_(final),
          like_game_(like_game) {}

    // The game's end (a stream offset), or no_end if it goes on past `end`.
    std::uint64_t run();

    // Oversized games. anchor(): the first byte the scan may still need (a piece may end one
    // byte before it, at most). force(): gives up what pins the anchor far back (a tag line
    // or a tag-like comment line longer than the window, a long run of blanks before a line's
    // content); the next run() moves the anchor to the end of the window. catch_up(to): brings
    // the tag names and the has-movetext probe up to `to` before the bytes before it go.
    std::uint64_t anchor() const;
    void force();
    void catch_up(std::uint64_t to);
    // Oversized games: the blanks before a game's end are held up to n bytes while pieces go
    // out (GameReader::safe_end), so the end trims back over at most n of them, however far
    // the pieces had gone when the end was found (it depends on how the reads fell).
    void hold(std::size_t n) { hold_ = n; }

    char const* at(std::uint64_t o) const { return buf_ + (o - base_); }
    std::uint64_t off(char const* p) const { return base_ + static_cast<std::uint64_t>(p - buf_); }

private:
    enum class Step : std::uint8_t { go, wait, done };

    Step tag_line(char const*& p);
    Step tag_skip(char const*& p);
    Step content_line(char const*& p);
    Step movetext(char const*& pr);
    Step comment(char const*& p);
    Step line_comment(char const*& p);
    Step after_result(char const*& p);

    Step after_game(char const*& p);
    // A result ends the movetext at p: what follows on its line joins the game.
    Step result_at(char const*) {
        st_.mode = Mode::after_result;
        st_.result = st_.result_line = true;
        st_.searched = 0; // after_result's search for another result on the line
        return Step::go;
    }

    Step finish(std::uint64_t e) {
        result_ = e;
        return Step::done;
    }
    // At the end of the bytes: the game ends there if nothing follows, else wait for more.
    Step at_limit(char const*& p) {
        p = end_;
        return final_ ? finish(boundary(end_)) : Step::wait;
    }
    // A CR ending the bytes read may be the first half of a CRLF.
    bool pending_cr(char const* q) const { return !final_ && *q == '\r' && q + 1 == end_; }
    // From a line start, between or after games: skips blank lines (`blank` set when one is
    // skipped) and '%' lines, in steps that resume (st_.in_percent, st_.line_start). content:
    // p at the first other byte of a line; unread: the bytes read end first; cr: they end in
    // a CR that may get its LF (p at it).
    // A comment at p after the result or after the game's last line: the scan goes on in it
    // (the rest of a brace comment's last line is the game's too).
    bool start_comment(char const*& p) {
        if (*p == '{') {
            st_.mode = Mode::comment;
            st_.line = Line::rest;
            ++p;
            return true;
        }
        if (*p == ';') {
            st_.mode = Mode::line_comment;
            return true;
        }
        return false;
    }
    enum class LineSkip : std::uint8_t { content, unread, cr };
    LineSkip skip_empty_lines(char const*& p, bool& blank);
    void enter_content_line(char const* p, bool in_tags) {
        st_.mode = Mode::content_line;
        st_.in_tags = in_tags;
        st_.after_blank = false;
        st_.in_percent = false;
        st_.line_start = off(p);
    }
    std::uint64_t boundary(char const* s) const;
    bool starts_new_game(char const* q, char const* le);
    void index_names(char const* to);
    bool has_movetext(char const* to);
    bool percent_line_start(char const* p) const;

    State& st_;
    char const* const buf_;
    std::uint64_t const base_; // stream offset of buf_[0]
    char const* const lo_;
    char const* const end_;
    bool const final_;
    bool (*const like_game_)(char const*, char const*);
    std::uint64_t result_ = no_end;
    std::size_t hold_ = 0; // 0: no bound (the game is not oversized)
};

} // namespace pgn_iccf::reader::detail
