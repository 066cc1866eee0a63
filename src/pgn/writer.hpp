// PGN export-format writing (Edwards 1994, §8): tag pairs and wrapped movetext.
//
// The MovetextWriter appends tokens to a caller-owned string, separated by single spaces and
// wrapped so that no line is longer than `width` characters (a single token longer than the
// width stands alone on its line). Width 0 puts the whole movetext on one line.
//
// Comments are kept byte for byte except for their line layout: a single space or a run of
// white space that holds a line break is a break opportunity, written as one space or one
// line break as the width demands. Every other byte (double spaces, tabs, Latin-1 or UTF-8
// text) is written as read. Because a break opportunity stays one, rewriting our own output
// gives the same layout again (SAN -> numeric -> SAN equals SAN -> SAN).
#pragma once

#include <string>
#include <string_view>

namespace pgn_iccf::pgn {

class MovetextWriter {
public:
    // Starts a new movetext appended to `out`. Until end(), `out` holds spare bytes past
    // the text (the writer sizes it ahead and copies into it without per-byte checks).
    void begin(std::string& out, int width);
    // A token (move, move number, NAG, result), preceded by a space or a line break.
    void token(std::string_view text) {
        separator_then(text.size());
        put(text);
        column_ += text.size();
    }
    // A move number and its move, kept together on one line: "12. 5254", "12... 5755".
    // (Inline: called once per move.)
    void numbered(std::string_view number, std::string_view move) {
        std::size_t const len = number.size() + 1 + move.size();
        separator_then(len);
        char* d = room(len);
        for (char c : number) *d++ = c;
        *d++ = ' ';
        for (char c : move) *d++ = c;
        len_ += len;
        column_ += len;
    }
    // "(" : written right before the next word, on its line.
    void open_variation();
    // ")" : attached to the previous token.
    void close_variation();
    // A brace comment holding `text` (which must not contain '}').
    void comment(std::string_view text);
    // A rest-of-line comment `;text` (for comment text holding '}'); ends the line.
    void line_comment(std::string_view text);
    // Ends the movetext with a line break; `out` then holds exactly the text.
    void end();

private:
    void word(std::string_view text, bool glue_left);
    // Writes the separator before a word of `len` bytes (nothing at the start of a line,
    // else a space, or a line break if the word would not fit), then any pending "(".
    void separator_then(std::size_t len) {
        len += open_;
        if (glue_next_) {
            glue_next_ = false;
        } else if (column_ + 1 + len <= width_) {
            put(' ');
            ++column_;
        } else {
            put('\n');
            column_ = 0;
        }
        for (; open_ > 0; --open_) { // a pending "(" goes right before the word
            put('(');
            ++column_;
        }
    }
    // Room for n more bytes; returns where they go.
    char* room(std::size_t n) {
        if (len_ + n > out_->size()) grow(n);
        return out_->data() + len_;
    }
    void grow(std::size_t n);
    void put(char c) {
        *room(1) = c;
        ++len_;
    }
    void put(std::string_view s) {
        char* d = room(s.size());
        for (std::size_t i = 0; i < s.size(); ++i) d[i] = s[i];
        len_ += s.size();
    }

    std::string* out_ = nullptr;
    std::size_t len_ = 0; // bytes of `out_` written so far
    std::size_t width_ = 79;
    std::size_t column_ = 0;
    bool glue_next_ = true; // no separator before the next word (start of a line)
    std::size_t open_ = 0;  // "(" written right before the next word
    std::string unit_;      // comment words joined by forced spaces (capacity reused)
};

// Appends `[Name "value"]\n` with `value` escaped (§8.1.1: `\` and `"` get a backslash).
void write_tag(std::string& out, std::string_view name, std::string_view value);

} // namespace pgn_iccf::pgn
