// PGN export-format writing (Edwards 1994, §8): tag pairs and wrapped movetext.
//
// The MovetextWriter writes tokens into its own buffer (text()), separated by single spaces and
// wrapped so that no line is longer than `width` characters (a single token longer than the
// width stands alone on its line). Width 0 puts the whole movetext on one line.
//
// Comments are kept byte for byte except for their line layout: a single space or a run of
// white space that holds a line break is a break opportunity, written as one space or one
// line break as the width demands. Every other byte (double spaces, tabs, Latin-1 or UTF-8
// text) is written as read. Because a break opportunity stays one, rewriting our own output
// gives the same layout again (SAN -> numeric -> SAN equals SAN -> SAN).
#pragma once

#include "pgn/buffers.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pgn_iccf::pgn {

// The movetext line length when none is chosen (--width): the export format's limit of 79
// characters a line. The one home of this default: the options, the CLI's help and the
// browser build read it.
inline constexpr int default_width = 79;

// The widths a movetext may be wrapped at: 0 (one line a game) or at least min_width. The one
// home of the rule: the CLI and the browser build check it (report::width_refusal words a
// refusal).
inline constexpr int min_width = 10;
inline constexpr bool width_allowed(int width) { return width == 0 || width >= min_width; }

class MovetextWriter {
public:
    // Starts a new movetext in the writer's own buffer (text() once end() is called). The
    // writer sizes the buffer ahead and copies into it without per-byte checks.
    void begin(int width);
    // The movetext written since begin(), valid until the next begin().
    std::string_view text() const { return {data_, len_}; }
    // Moves text() to the end of `out`: text() is empty afterwards, and a large one gives its
    // memory pages back on the way (see TextBuffer::discard).
    void move_text_to(std::string& out);
    // Gives back buffers larger than `keep` bytes (see release_if_above).
    void release_buffers(std::size_t keep) {
        release_if_above(unit_, keep);
        if (buffer_.capacity() > keep) {
            buffer_.release();
            data_ = nullptr;
            len_ = 0;
        }
    }
    // A token (move, move number, NAG, result), preceded by a space or a line break.
    void token(std::string_view text) {
        copy_short(word_room(text.size()), text.data(), text.size());
    }
    // A move number and its move, kept together on one line: "12. 5254", "12... 5755".
    // (Inline: called once per move.)
    void numbered(std::string_view number, std::string_view move) {
        char* d = word_room(number.size() + 1 + move.size());
        copy_short(d, number.data(), number.size());
        d[number.size()] = ' ';
        copy_short(d + number.size() + 1, move.data(), move.size());
    }
    // The same, the number given as an int (White: "12. ", Black: "12... "), its digits and
    // dots written straight into the movetext: fewer instructions than to_chars into a zeroed
    // buffer and the overload above (callgrind, see the commit).
    void numbered(int number, bool white, std::string_view move) {
        if (number < 1 || number > 999) {
            numbered_long(number, white, move);
            return;
        }
        auto const n = unsigned(number);
        std::size_t const digits = 1 + std::size_t(n >= 10) + std::size_t(n >= 100);
        std::size_t const head = digits + (white ? 2 : 4); // "." or "...", then " "
        char* d = word_room(head + move.size());
        if (n >= 100) d[0] = char('0' + n / 100);
        if (n >= 10)
            std::memcpy(d + digits - 2, &two_digits[2 * (n % 100)], 2);
        else
            d[0] = char('0' + n);
        if (white)
            std::memcpy(d + digits, ". ", 2);
        else
            std::memcpy(d + digits, "... ", 4);
        copy_short(d + head, move.data(), move.size());
    }
    // "(" : written right before the next word, on its line.
    void open_variation();
    // ")" : attached to the previous token.
    void close_variation();
    // A brace comment holding `text` (which must not contain '}').
    void comment(std::string_view text);
    // A rest-of-line comment `;text` (for comment text holding '}'); ends the line.
    void line_comment(std::string_view text);
    // Ends the movetext with a line break; text() is then the whole movetext.
    void end();
    // A "(" not yet written (nothing followed it) is taken back: the variation is left out.
    void cancel_open() {
        if (open_ > 0) --open_;
    }

private:
    // "00" "01" ... "99"
    static constexpr char two_digits[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    void numbered_long(int number, bool white, std::string_view move);
    void word(std::string_view text, bool glue_left);
    // comment(): the general layout, word by word, and the layout of a text without tabs,
    // line breaks or other bytes below 14, on spans. Out of line, so that comment() keeps no
    // registers for them (with its fast path for a comment that fits; callgrind, lichess
    // games: see the commit).
    [[gnu::noinline]] void comment_by_words(std::string_view text);
    [[gnu::noinline]] void comment_by_spans(std::string_view text);
    // Writes the separator before a word of `len` bytes (nothing at the start of a line,
    // else a space, or a line break if the word would not fit), then any pending "(".
    // Every member is read before the first byte is stored and written after the last: a char
    // store may alias any of them, so put(' ') then ++column_ reloaded them after each byte.
    void separator_then(std::size_t len) {
        std::size_t const open = open_;
        char* d = room(1 + open);
        std::size_t col = column_;
        std::size_t n = 0;
        if (glue_next_) {
            glue_next_ = false;
        } else if (col + 1 + len + open <= width_) {
            d[n++] = ' ';
            ++col;
        } else {
            d[n++] = '\n';
            col = 0;
        }
        for (std::size_t k = 0; k < open; ++k)
            d[n++] = '('; // a pending "(" goes right before the word
        open_ = 0;
        len_ += n;
        column_ = col + open;
    }
    // The separator before a word of `len` bytes, then room for the word, counted in len_ and
    // column_ ahead so that no member is touched once its bytes are stored. With the above,
    // fewer instructions per move (callgrind, master games: see the commit).
    char* word_room(std::size_t len) {
        // The usual word: after a word on the same line, no "(" pending, one capacity check
        // (the general path out of line; callgrind, see the commit).
        std::size_t const col = column_ + 1 + len;
        std::size_t const at = len_;
        if (((open_ | std::size_t(glue_next_)) == 0) & (col <= width_) &
            (at + 1 + len <= buffer_.capacity())) {
            char* d = data_ + at;
            *d = ' ';
            len_ = at + 1 + len;
            column_ = col;
            return d + 1;
        }
        return word_room_slow(len);
    }
    char* word_room_slow(std::size_t len);
    // Room for n more bytes; returns where they go.
    char* room(std::size_t n) {
        if (len_ + n > buffer_.capacity()) grow(n);
        return data_ + len_;
    }
    void grow(std::size_t n);
    void put(char c) {
        *room(1) = c;
        ++len_;
    }
    void put(std::string_view s) {
        copy_short(room(s.size()), s.data(), s.size());
        len_ += s.size();
    }

    TextBuffer buffer_;
    char* data_ = nullptr; // buffer_.data()
    std::size_t len_ = 0;  // bytes of the movetext written so far
    std::size_t width_ = default_width;
    std::size_t column_ = 0;
    bool glue_next_ = true; // no separator before the next word (start of a line)
    std::size_t open_ = 0;  // "(" written right before the next word
    std::string unit_;      // comment words joined by forced spaces (capacity reused)
};

// Appends `[Name "value"]\n` with `value` escaped (§8.1.1: `\` and `"` get a backslash).
void write_tag(std::string& out, std::string_view name, std::string_view value);
// The same at `d`, which has room for tag_room(name, value) bytes; returns the end.
char* write_tag(char* d, std::string_view name, std::string_view value);
constexpr std::size_t tag_room(std::string_view name, std::string_view value) {
    return name.size() + 2 * value.size() + 6;
}
// True if `value` holds a byte that write_tag escapes.
bool needs_escape(std::string_view value);
// write_tag for a value that needs no escape (inline: about 17 tags a game).
inline char* write_plain_tag(char* d, std::string_view name, std::string_view value) {
    *d++ = '[';
    copy_short(d, name.data(), name.size());
    d += name.size();
    std::memcpy(d, " \"", 2);
    d += 2;
    copy_short(d, value.data(), value.size());
    d += value.size();
    std::memcpy(d, "\"]\n", 3);
    return d + 3;
}

} // namespace pgn_iccf::pgn
