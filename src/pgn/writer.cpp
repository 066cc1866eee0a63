// The MovetextWriter (writer.hpp): tokens, move numbers, variations and comments laid out in
// lines of at most the width, with the byte scans and short copies it uses.
#include "pgn/writer.hpp"

#include "io/memory.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace pgn_iccf::pgn {

namespace {

// True if flags(word) has a high bit set for a word of `text`'s bytes (flags() sets the high
// bit of the bytes it matches, and may set other bits): eight bytes at a time (the texts are
// short, and a library call per text cost more than the scan). Under 8 bytes the word is
// padded with bytes of `pad`, which flags() must not match.
template <class Flags>
bool any_byte(std::string_view text, std::uint64_t pad, Flags flags) {
    constexpr std::uint64_t highs = 0x8080808080808080ULL;
    char const* const p = text.data();
    std::size_t const n = text.size();
    std::uint64_t v;
    if (n >= 8) {
        std::size_t i = 0;
        for (; i + 16 < n; i += 8) {
            std::memcpy(&v, p + i, 8);
            if ((flags(v) & highs) != 0) return true;
        }
        // The last 8 to 16 bytes: two words, overlapping, and one test (a 16-byte [%clk]
        // comment takes no loop; fewer instructions a lichess game, callgrind: see the commit).
        std::uint64_t last;
        std::memcpy(&v, p + i, 8);
        std::memcpy(&last, p + n - 8, 8);
        return ((flags(v) | flags(last)) & highs) != 0;
    }
    // Under 8 bytes: two overlapping loads make one word, instead of a compare per byte (with
    // write_plain_tag inline, fewer instructions a game; callgrind, see the commit).
    if (n >= 4) {
        std::uint32_t lo, hi;
        std::memcpy(&lo, p, 4);
        std::memcpy(&hi, p + n - 4, 4);
        v = lo | std::uint64_t(hi) << 32;
    } else if (n >= 2) {
        std::uint16_t lo, hi;
        std::memcpy(&lo, p, 2);
        std::memcpy(&hi, p + n - 2, 2);
        v = lo | std::uint64_t(hi) << 16 | (pad & ~0xFFFFFFFFULL);
    } else if (n == 1) {
        v = static_cast<unsigned char>(p[0]) | (pad & ~0xFFULL);
    } else {
        return false;
    }
    return (flags(v) & highs) != 0;
}

constexpr std::uint64_t ones = 0x0101010101010101ULL;

// True if `text` holds byte a or byte b.
bool contains_either(std::string_view text, char a, char b) {
    std::uint64_t const pa = ones * static_cast<unsigned char>(a);
    std::uint64_t const pb = ones * static_cast<unsigned char>(b);
    // The high bit of a zero byte is set (and maybe those of bytes above it: the test is
    // exact for the word, not per byte); zero bytes of padding match neither a nor b.
    auto zeros = [](std::uint64_t v) { return (v - ones) & ~v; };
    return any_byte(text, 0, [&](std::uint64_t v) { return zeros(v ^ pa) | zeros(v ^ pb); });
}

// True if `text` holds a byte below 14: a tab, a line break or another control character.
// (A byte under 14 borrows in v - 14 per byte; no byte at or above 0x80 is counted.)
bool has_control(std::string_view text) {
    return any_byte(text, ones * ' ', [](std::uint64_t v) { return (v - ones * 14) & ~v; });
}

// copy_short for up to 32 bytes, without a call: over 16, two overlapping 16-byte copies.
void copy_upto_32(char* d, char const* s, std::size_t n) {
    if (n <= 16) {
        copy_short(d, s, n);
        return;
    }
    std::uint64_t w[4];
    std::memcpy(&w[0], s, 16);
    std::memcpy(&w[2], s + n - 16, 16);
    std::memcpy(d, &w[0], 16);
    std::memcpy(d + n - 16, &w[2], 16);
}

} // namespace

void copy_long(char* d, char const* s, std::size_t n) { std::memcpy(d, s, n); }

void MovetextWriter::begin(int width) {
    len_ = 0;
    width_ = width <= 0 ? std::string::npos : std::size_t(width);
    column_ = 0;
    glue_next_ = true;
    open_ = 0;
}

void MovetextWriter::word(std::string_view text, bool glue_left) {
    if (glue_left) {
        // ")" sticks to what precedes it even past the width: a line may not start with
        // it in our layout, and one character over is never reached because
        // close_variation reserves it (see below).
        put(text);
        column_ += text.size();
        return;
    }
    separator_then(text.size());
    put(text);
    column_ += text.size();
}

char* MovetextWriter::word_room_slow(std::size_t len) {
    separator_then(len);
    char* d = room(len);
    len_ += len;
    column_ += len;
    return d;
}

void MovetextWriter::numbered_long(int number, bool white, std::string_view move) {
    std::array<char, 32> buf; // (32: copy_short's long path is never taken, but is compiled)
    auto [p, ec] = std::to_chars(buf.data(), buf.data() + 12, number);
    (void)ec;
    *p++ = '.';
    if (!white) {
        *p++ = '.';
        *p++ = '.';
    }
    numbered(std::string_view(buf.data(), std::size_t(p - buf.data())), move);
}

void MovetextWriter::open_variation() { ++open_; }

void MovetextWriter::close_variation() {
    if (open_ > 0) {
        // An empty variation "()": its "(" is still pending; write both as one word.
        word(")", false);
        return;
    }
    if (column_ + 1 > width_) {
        put('\n');
        column_ = 0;
    }
    word(")", true);
    glue_next_ = false;
}

void MovetextWriter::comment(std::string_view text) {
    if (has_control(text)) {
        comment_by_words(text);
        return;
    }
    // The usual comment: after a word on the same line, no "(" pending, and it fits after a
    // space (what comment_by_spans would write). Room checked here and no call (copy_upto_32),
    // so that comment() saves no registers (callgrind, lichess games: see the commit).
    std::size_t const n = text.size();
    std::size_t const col = column_ + n + 3;
    std::size_t const at = len_;
    if (((open_ | std::size_t(glue_next_)) == 0) & (col <= width_) & (n <= 32) &
        (at + n + 3 <= buffer_.capacity())) {
        char* d = data_ + at;
        len_ = at + n + 3; // (before the stores: a char store may alias any member)
        column_ = col;
        d[0] = ' ';
        d[1] = '{';
        copy_upto_32(d + 2, text.data(), n);
        d[n + 2] = '}';
        return;
    }
    comment_by_spans(text);
}

void MovetextWriter::comment_by_words(std::string_view text) {
    // Fast path: a comment without line breaks that fits on the current line is written as
    // it is (exactly what the word-by-word path below would write).
    if (column_ + 1 + open_ + text.size() + 2 <= width_ && !contains_either(text, '\n', '\r')) {
        separator_then(text.size() + 2);
        put('{');
        put(text);
        put('}');
        column_ += text.size() + 2;
        return;
    }
    // Split into words at break opportunities: inside the text (white space at its very
    // start or end stays glued to the braces), a single space, or a white-space run that
    // holds a line break. Other bytes, including other white-space runs, belong to words.
    // Before a word starting with '[' or '%' the opportunity is always written as one
    // space, never a line break: a comment line must not begin like a tag pair or an escape
    // line, or readers (ours included) would take it for the start of the next game.
    auto is_ws = [](char c) {
        constexpr std::uint64_t ws =
            (1ULL << ' ') | (1ULL << '\t') | (1ULL << '\n') | (1ULL << '\r');
        return static_cast<unsigned char>(c) <= ' ' && ((ws >> static_cast<unsigned char>(c)) & 1U);
    };
    std::size_t const n = text.size();
    std::size_t lo = 0;
    while (lo < n && is_ws(text[lo])) ++lo;
    std::size_t hi = n;
    while (hi > lo && is_ws(text[hi - 1])) --hi;
    // Words joined by a forced space form one unit, placed as a whole. A unit is written
    // straight from its span of `text` (text[unit_from, end)); only when a joining run held a
    // line break (written as one space) is it assembled in unit_ (`buffered`). Copying every
    // unit through unit_, and four compares per byte, cost instructions on lichess games
    // with [%clk] comments (callgrind, see the commit).
    bool first = true;
    bool buffered = false;
    std::size_t unit_from = 0;
    std::size_t word_start = 0;
    auto flush = [&](std::size_t end, bool last) {
        std::string_view unit = text.substr(unit_from, end - unit_from);
        if (buffered) {
            unit_.append(text.substr(word_start, end - word_start));
            unit = unit_;
        }
        std::size_t len = unit.size() + (first ? 1 : 0) + (last ? 1 : 0);
        separator_then(len);
        if (first) put('{');
        put(unit);
        if (last) put('}');
        column_ += len;
        first = false;
        if (buffered) {
            unit_.clear();
            buffered = false;
        }
    };
    std::size_t i = lo;
    while (i < hi) {
        if (!is_ws(text[i])) {
            ++i;
            continue;
        }
        std::size_t j = i;
        bool has_break = false;
        while (j < hi && is_ws(text[j])) {
            has_break |= text[j] == '\n' || text[j] == '\r';
            ++j;
        }
        if (has_break || (j - i == 1 && text[i] == ' ')) {
            if (text[j] == '[' || text[j] == '%') {
                // Joined by one space: a single space stays in the span; a run holding a
                // line break becomes one space, so the unit moves to unit_.
                if (has_break) {
                    if (!buffered) {
                        unit_.assign(text.substr(unit_from, i - unit_from));
                        buffered = true;
                    } else {
                        unit_.append(text.substr(word_start, i - word_start));
                    }
                    unit_.push_back(' ');
                } else if (buffered) {
                    unit_.append(text.substr(word_start, j - word_start));
                }
            } else {
                flush(i, false);
                unit_from = j;
            }
            word_start = j;
        }
        i = j;
    }
    flush(n, true);
}

// The layout of comment_by_words for a text whose only white space is ' ' (no byte below 14):
// its break opportunities are the single spaces inside it not followed by '[' or '%'. Units
// placed side by side on a line are a span of the text, so the text is copied once and the
// spaces where a line ends become line breaks; each line takes the longest run of units that
// fits, found by scanning back from the width to a break. Fewer instructions on lichess games
// than comment_by_words for every comment (callgrind, see the commit).
void MovetextWriter::comment_by_spans(std::string_view text) {
    char const* const t = text.data();
    std::size_t const n = text.size();
    std::size_t const width = width_;
    constexpr std::size_t none = std::size_t(-1);
    // A break opportunity at t[p], 1 <= p <= n - 2: a single space inside the text (white
    // space at its start or end stays glued to the braces), not before '[' or '%'.
    auto is_break = [t](std::size_t p) {
        char const next = t[p + 1];
        return t[p] == ' ' && t[p - 1] != ' ' && next != ' ' && next != '[' && next != '%';
    };
    std::size_t const last = n >= 3 ? n - 2 : 0; // the last place a break can be
    // The end of the longest run of units from t[s] that fits on a line where t[s] (or, for
    // s = 0, the '{') is at column c: n if all the rest fits ('}' included), else the last
    // break that fits, else none.
    auto last_fit = [&](std::size_t s, std::size_t c) {
        std::size_t const head = s == 0 ? 1 : 0; // the '{'
        if (c + head + (n - s) + 1 <= width) return n;
        if (c + head >= width) return none;
        for (std::size_t p = std::min(s + (width - c - head), last); p > s; --p)
            if (is_break(p)) return p;
        return none;
    };
    // The end of the first unit from t[s] (placed even if it does not fit on its line).
    auto first_break = [&](std::size_t s) {
        for (std::size_t p = s + 1; p <= last; ++p)
            if (is_break(p)) return p;
        return n;
    };
    // The separator (as in separator_then, for the first unit), any pending "(", then the
    // text in braces; every member is read before the first byte is stored.
    std::size_t const open = open_;
    char* d = room(1 + open + n + 2);
    std::size_t c = column_ + open; // the bytes before the '{' on its line
    std::size_t e = none;           // the end of the units on the current line, once known
    std::size_t k = 0;
    if (glue_next_) {
        glue_next_ = false;
    } else if ((e = last_fit(0, c + 1)) != none) {
        d[k++] = ' ';
        ++c;
    } else {
        d[k++] = '\n';
        c = open;
    }
    for (std::size_t i = 0; i < open; ++i) d[k++] = '(';
    d[k] = '{';
    char* const body = d + k + 1;
    copy_short(body, t, n);
    body[n] = '}';
    std::size_t s = 0; // where the current line's units start
    for (;;) {
        if (e == none) {
            e = last_fit(s, c);
            if (e == none) e = first_break(s);
        }
        if (e == n) break;
        body[e] = '\n';
        s = e + 1;
        c = 0;
        e = none;
    }
    open_ = 0;
    len_ += k + n + 2;
    column_ = c + (s == 0 ? 1 : 0) + (n - s) + 1;
}

void MovetextWriter::line_comment(std::string_view text) {
    separator_then(1 + text.size());
    put(';');
    put(text);
    put('\n');
    column_ = 0;
    glue_next_ = true;
}

void TextBuffer::discard(std::size_t from, std::size_t to) {
    if (data_ != nullptr && from < to && to <= capacity_)
        io::release_pages(data_ + from, to - from);
}

// The movetext of an 8 MB game can be three times that (--annotate -t lan); appended at
// once it was held twice, here and in `out` (one-move variations by the hundred thousand,
// issue L, N10). A large one goes over in pieces of 1 MiB, each given back here once
// copied, into room reserved ahead (reserved, not touched: only the pages written count).
void MovetextWriter::move_text_to(std::string& out) {
    constexpr std::size_t piece = std::size_t{1} << 20;
    // Room for the movetext, growing `out` geometrically: an exact reserve per game would copy
    // the whole batch for every game where reserve allocates exactly what it is asked for
    // (libc++, the WebAssembly build: quadratic in the batch).
    if (std::size_t const need = out.size() + len_ + 1; need > out.capacity())
        out.reserve(std::max(need, 2 * out.capacity()));
    bool const large = len_ > 2 * piece;
    for (std::size_t at = 0; at < len_; at += piece) {
        std::size_t const n = std::min(piece, len_ - at);
        out.append(data_ + at, n);
        if (large) buffer_.discard(at, at + n);
    }
    len_ = 0;
}

void MovetextWriter::grow(std::size_t n) {
    buffer_.reserve(std::max(buffer_.capacity() * 2, len_ + n + 256));
    data_ = buffer_.data();
}

void MovetextWriter::end() {
    put('\n');
    column_ = 0;
    glue_next_ = true;
}

void write_tag(std::string& out, std::string_view name, std::string_view value) {
    std::size_t const at = out.size();
    out.resize(at + tag_room(name, value));
    out.resize(std::size_t(write_tag(out.data() + at, name, value) - out.data()));
}

bool needs_escape(std::string_view value) { return contains_either(value, '\\', '"'); }

char* write_tag(char* d, std::string_view name, std::string_view value) {
    if (!needs_escape(value)) return write_plain_tag(d, name, value);
    *d++ = '[';
    copy_short(d, name.data(), name.size());
    d += name.size();
    std::memcpy(d, " \"", 2);
    d += 2;
    for (char c : value) {
        if (c == '\\' || c == '"') *d++ = '\\';
        *d++ = c;
    }
    std::memcpy(d, "\"]\n", 3);
    return d + 3;
}

} // namespace pgn_iccf::pgn
