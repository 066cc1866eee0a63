// The game splitter: cuts a byte stream into games without parsing them, in bounded memory.
//
// Which bytes belong to which game (so that the RawGames plus the skipped bytes between them
// reproduce the file exactly):
// - Between games the reader skips whitespace, '%' escape lines (column 1) and UTF-8 byte
//   order marks. These bytes belong to no game.
// - A game starts at the first other byte: a '[' (tag section) or movetext.
// - A game with a result (§8.2.6, outside any variation and any comment) ends after the
//   result, the blanks after it and the line end of that line. If something else follows
//   the result on the same line, the game ends after the result and its blanks, and the next
//   game starts there.
// - A game without a result ends before the next game, trimmed back to the end of its last
//   non-blank line (line end included). The next game starts
//     * at a line starting (after blanks) with '[' while in movetext;
//     * in a tag section, at a tag pair that follows a blank line and is named Event or
//       repeats a name of the current section (a tags-only game followed by another game);
//     * at a line starting with move number `1.` after a blank line, once the game has some
//       movetext (games without tags; an introductory comment is not movetext);
//     * at a line inside a brace comment that starts like a tag pair (`[Name "`): a '{' left
//       open must not swallow the next games, so the game ends there and the parser reports
//       the unterminated comment; the damage stays in one game;
//     * at the end of the input.
// The splitter and the grammar share their lexical rules (grammar/scan.hpp), so a '[' or a
// result inside a comment, a ';' comment or a variation never ends a game.
#include "pgn/game_reader.hpp"

#include "grammar/scan.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#ifdef __AVX2__
#include <immintrin.h>
#endif

namespace pgn_iccf::pgn {

namespace {

using namespace pgn_iccf::scan;

// Byte classes of the splitter's movetext loop.
enum SplitClass : std::uint8_t {
    plain = 0,
    newline,
    brace,
    semicolon,
    paren_open,
    paren_close,
    result_start,
};

constexpr std::array<std::uint8_t, 256> make_split_classes() {
    std::array<std::uint8_t, 256> t{};
    t['\n'] = newline;
    t['\r'] = newline;
    t['{'] = brace;
    t[';'] = semicolon;
    t['('] = paren_open;
    t[')'] = paren_close;
    t['*'] = result_start;
    t['1'] = result_start;
    t['0'] = result_start;
    t[0xC2] = result_start;
    return t;
}
constexpr std::array<std::uint8_t, 256> split_classes = make_split_classes();

char const* skip_blanks(char const* p, char const* end) {
    while (p != end && is_blank(*p)) ++p;
    return p;
}

// The tag name after '[' (blanks skipped).
std::string_view tag_name_at(char const* p, char const* end) {
    p = skip_blanks(p + 1, end);
    char const* b = p;
    while (p != end && !is_space(*p) && *p != '"' && *p != '[' && *p != ']') ++p;
    return {b, static_cast<std::size_t>(p - b)};
}

// Skips one tag pair starting at '[' on a line ending at le; returns the byte after its ']'
// or le if the pair is malformed (the parser reports it).
char const* skip_tag_pair(char const* p, char const* le) {
    auto const name = tag_name_at(p, le);
    char const* q = skip_blanks(name.data() + name.size(), le);
    if (q == le || *q != '"') return le;
    auto const v = scan_tag_value(q + 1, le);
    if (v.close == nullptr) return le;
    q = skip_blanks(v.missing_quote ? v.close : v.close + 1, le);
    return (q != le && *q == ']') ? q + 1 : le;
}

// Whether the tag pair at q (after a blank line inside a tag section) starts a new game: it is
// an Event tag, or its name already occurs in the section [begin, q).
bool starts_new_game(char const* begin, char const* q, char const* end) {
    auto const name = tag_name_at(q, end);
    if (iequals(name, "Event")) return true;
    if (name.empty()) return false;
    for (char const* p = begin; p < q; ++p) {
        p = static_cast<char const*>(std::memchr(p, '[', static_cast<std::size_t>(q - p)));
        if (p == nullptr) break;
        if (iequals(tag_name_at(p, q), name)) return true;
    }
    return false;
}

// Whether a line starting at s (inside a comment) looks like a tag pair: `[Name "`.
bool looks_like_tag_line(char const* q, char const* end) {
    if (q == end || *q != '[') return false;
    char const* p = q + 1;
    char const* b = p;
    while (p != end && ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
                        (*p >= '0' && *p <= '9') || *p == '_'))
        ++p;
    if (p == b) return false;
    p = skip_blanks(p, end);
    return p != end && *p == '"';
}

// The start of the first line in (from, to) that starts (after blanks) like a tag pair, or
// nullptr. Used to bound an unterminated comment. [to, readable_end) must be readable.
char const* tag_line_inside(char const* from, char const* to, char const* readable_end) {
    // Such a line follows a line end: most comments have none (clock and eval comments).
    char const* const le = find_line_end(from, to, readable_end);
    if (le == to) return nullptr;
    for (char const* p = le + 1; p < to; ++p) {
        p = find_byte(p, to, '[');
        if (p == to) return nullptr;
        char const* s = p;
        while (s != from && is_blank(s[-1])) --s;
        if (s != from && is_line_end(s[-1]) && looks_like_tag_line(p, to)) return s;
    }
    return nullptr;
}

// Whether [begin, end) holds anything but tag pairs, comments, '%' lines and whitespace: a
// blank line and `1.` start a new game only after some movetext (not after an introductory
// comment). Only called on that rare pattern.
bool has_movetext(char const* begin, char const* end) {
    for (char const* p = begin; p < end;) {
        char const c = *p;
        bool const line_start = p == begin || is_line_end(p[-1]);
        if (is_space(c)) {
            ++p;
        } else if (c == '[') {
            char const* s = p;
            while (s != begin && is_blank(s[-1])) --s;
            if (s != begin && !is_line_end(s[-1])) return true;
            p = skip_tag_pair(p, find_line_end(p, end));
        } else if (c == '{') {
            auto const* close =
                static_cast<char const*>(std::memchr(p, '}', static_cast<std::size_t>(end - p)));
            p = close != nullptr ? close + 1 : end;
        } else if (c == ';' || (c == '%' && line_start)) {
            p = find_line_end(p, end);
        } else {
            return true;
        }
    }
    return false;
}

// Skips movetext bytes that cannot matter to the splitter, 32 at a time: everything but line
// ends, '{', ';', '(', ')', and result starts ('1', '0', '*', 0xC2) after a byte that may
// precede a result (a superset of what the exact check below accepts). p - 1 must be valid.
// The scalar loop of the caller handles the rest.
inline char const* skip_plain(char const* p, char const* limit) {
#ifdef __AVX2__
    // Both classifications use two nibble lookups (a byte is in a class when
    // lo[low nibble] & hi[high nibble] has one of the class's bits):
    // - the byte itself: 1 LF CR, 2 ( ), 8 ;, 32 { (special); 4 *, 16 0 1, 64 0xC2 (result start);
    // - the byte before: bytes that may precede a result: control bytes and space (1, 2),
    //   $ ( ) . (2), ; [ { (4, 8, 16), ] } (8, 16), DEL (16); not '"'.
    __m256i const x_lo =
        _mm256_setr_epi8(16, 16, 64, 0, 0, 0, 0, 0, 2, 2, 1 | 4, 8 | 32, 0, 1, 0, 0, 16, 16, 64, 0,
                         0, 0, 0, 0, 2, 2, 1 | 4, 8 | 32, 0, 1, 0, 0);
    __m256i const x_hi =
        _mm256_setr_epi8(1, 0, 2 | 4, 8 | 16, 0, 0, 0, 32, 0, 0, 0, 0, 64, 0, 0, 0, 1, 0, 2 | 4,
                         8 | 16, 0, 0, 0, 32, 0, 0, 0, 0, 64, 0, 0, 0);
    __m256i const prev_lo =
        _mm256_setr_epi8(1 | 2, 1, 1, 1, 1 | 2, 1, 1, 1, 1 | 2, 1 | 2, 1, 1 | 4 | 8 | 16, 1,
                         1 | 8 | 16, 1 | 2, 1 | 16, 1 | 2, 1, 1, 1, 1 | 2, 1, 1, 1, 1 | 2, 1 | 2, 1,
                         1 | 4 | 8 | 16, 1, 1 | 8 | 16, 1 | 2, 1 | 16);
    __m256i const prev_hi = _mm256_setr_epi8(1, 1, 2, 4, 0, 8, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                             2, 4, 0, 8, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0);
    __m256i const nibble = _mm256_set1_epi8(0x0F);
    __m256i const zero = _mm256_setzero_si256();
    auto const classes = [&](__m256i v, __m256i lo, __m256i hi) {
        return _mm256_and_si256(
            _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble)),
            _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)));
    };
    auto const none = [&](__m256i v) {
        return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, zero)));
    };
    while (limit - p >= 32) {
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p));
        __m256i const prev = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p - 1));
        __m256i const cx = classes(x, x_lo, x_hi);
        std::uint32_t const special = ~none(_mm256_and_si256(cx, _mm256_set1_epi8(1 | 2 | 8 | 32)));
        std::uint32_t const result = ~none(_mm256_and_si256(cx, _mm256_set1_epi8(4 | 16 | 64)));
        std::uint32_t const before = ~none(classes(prev, prev_lo, prev_hi));
        std::uint32_t const mask = special | (result & before);
        if (mask != 0) return p + std::countr_zero(mask);
        p += 32;
    }
#endif
    (void)limit;
    return p;
}

// Whether the only ']' in [p, t) is t[-1] (t - p >= 1). [p, limit) is readable: a tag line of
// up to 64 bytes is checked with two loads and a mask instead of a byte loop.
inline bool only_bracket_is_last(char const* p, char const* t, char const* limit) {
#ifdef __AVX2__
    auto const n = t - p;
    if (n <= 64 && limit - p >= 64) {
        __m256i const br = _mm256_set1_epi8(']');
        auto const lo = static_cast<std::uint32_t>(_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<__m256i const*>(p)), br)));
        auto const hi = static_cast<std::uint32_t>(_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<__m256i const*>(p + 32)), br)));
        std::uint64_t const mask = (std::uint64_t{hi} << 32) | lo;
        std::uint64_t const in_line = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
        return (mask & in_line) == std::uint64_t{1} << (n - 1);
    }
#else
    (void)limit;
#endif
    return find_byte(p, t, ']') == t - 1;
}

// The next line with content, from the line start p: blank lines and '%' escape lines are
// skipped. `first` is its first non-blank byte (limit if there is none before limit), `start`
// the start of its line, `after_blank` whether a blank line was skipped to reach it.
struct ContentLine {
    char const* start;
    char const* first;
    bool after_blank;
};

inline ContentLine next_content_line(char const* p, char const* limit) {
    bool blank_line = false;
    for (;;) {
        char const* const s = p;
        char const* const q = skip_blanks(p, limit);
        if (q == limit) return {s, limit, blank_line};
        if (is_line_end(*q)) {
            blank_line = true;
            p = skip_line_end(q, limit);
            continue;
        }
        if (*q == '%' && q == s) {
            p = skip_line_end(find_line_end(q, limit), limit);
            continue;
        }
        return {s, q, blank_line};
    }
}

// Finds the end of the game starting at `begin` (a non-blank byte) in [begin, limit), where
// limit is a line boundary. `final` means no more input follows limit. Returns nullptr if the
// game may continue past limit.
char const* find_game_end(char const* const begin, char const* const limit, bool const final) {
    // The game ends before the line starting at s: trim back to its last non-blank line.
    auto boundary = [begin, limit](char const* s) {
        char const* q = s;
        while (q != begin && is_space(q[-1])) --q;
        q = skip_blanks(q, limit);
        return skip_line_end(q, limit);
    };
    auto at_limit = [&]() -> char const* { return final ? boundary(limit) : nullptr; };

    char const* p = begin;
    int depth = 0;
    bool in_tags = *p == '[';
    for (;;) {
        if (in_tags) {
            // p is at a '[' in the tag section.
            char const* le = find_line_end(p, limit);
            char const* t = le;
            while (t != p && is_blank(t[-1])) --t;
            // Fast path: a line `[... "]` whose only ']' is the last byte holds one tag pair.
            char const* q =
                (t - p >= 3 && t[-1] == ']' && t[-2] == '"' && only_bracket_is_last(p, t, limit))
                    ? le
                    : skip_blanks(skip_tag_pair(p, le), le);
            if (q != le) {
                p = q;
                in_tags = *q == '[';
                if (in_tags) continue;
            } else {
                ContentLine const line = next_content_line(skip_line_end(le, limit), limit);
                if (line.first == limit) return at_limit();
                if (*line.first == '[' && line.after_blank &&
                    starts_new_game(begin, line.first, limit))
                    return boundary(line.start);
                p = line.first;
                in_tags = *p == '[';
                if (in_tags) continue;
            }
        }
        // Movetext.
        while (p != limit) {
            if (p != begin && (p = skip_plain(p, limit)) == limit) break;
            while (split_classes[static_cast<unsigned char>(*p)] == plain)
                if (++p == limit) return at_limit();
            switch (split_classes[static_cast<unsigned char>(*p)]) {
            case plain:
                break;
            case newline: {
                ContentLine const line = next_content_line(skip_line_end(p, limit), limit);
                char const* const q = line.first;
                if (q == limit) return at_limit();
                if (*q == '[') return boundary(line.start);
                if (line.after_blank && q + 1 != limit && q[0] == '1' && q[1] == '.' &&
                    has_movetext(begin, line.start))
                    return boundary(line.start);
                p = q;
                break;
            }
            case brace: {
#ifdef __AVX2__
                // Fast path: a one-line comment closed within the next 32 bytes (clock and
                // eval comments) holds no tag-like line.
                if (limit - p > 32) {
                    __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p + 1));
                    auto const eq = [&](char c) {
                        return _mm256_cmpeq_epi8(x, _mm256_set1_epi8(c));
                    };
                    auto const closes = static_cast<std::uint32_t>(_mm256_movemask_epi8(eq('}')));
                    auto const line_ends = static_cast<std::uint32_t>(
                        _mm256_movemask_epi8(_mm256_or_si256(eq('\n'), eq('\r'))));
                    if (closes != 0 && (line_ends & ((closes & -closes) - 1)) == 0) {
                        p += 2 + std::countr_zero(closes);
                        break;
                    }
                }
#endif
                char const* const close = find_byte(p + 1, limit, '}');
                if (char const* s = tag_line_inside(p + 1, close, limit)) return boundary(s);
                if (close == limit) return at_limit();
                p = close + 1;
                break;
            }
            case semicolon:
                p = find_line_end(p, limit);
                break;
            case paren_open:
                ++depth;
                ++p;
                break;
            case paren_close:
                if (depth > 0) --depth;
                ++p;
                break;
            case result_start: {
                std::size_t n = 0;
                if (depth == 0 &&
                    (p == begin || (!is_token_byte(p[-1]) && p[-1] != '"') || p[-1] == '.'))
                    n = match_result(p, limit);
                if (n != 0 && p != begin && p[-1] == '.') {
                    // Only a move number may precede a result in its token (`40.1-0`).
                    char const* t = p;
                    while (t != begin && (t[-1] == '.' || is_digit(t[-1]))) --t;
                    if (t != begin && is_token_byte(t[-1])) n = 0;
                }
                if (n == 0) {
                    ++p;
                    break;
                }
                char const* q = skip_blanks(p + n, limit);
                if (q == limit || is_line_end(*q)) return skip_line_end(q, limit);
                return q;
            }
            }
        }
        return at_limit();
    }
}

} // namespace

GameReader::GameReader(ByteSource& source, std::size_t chunk_size)
    // The buffer starts small and doubles for a game that does not fit: a directory of many
    // small files opens a reader per file, and zeroing megabytes for each would cost more than
    // reading them.
    : source_(source), chunk_size_(std::max<std::size_t>(chunk_size, 64)),
      buffer_(std::min(chunk_size_, std::size_t{512} << 10)) {}

void GameReader::advance(char const* from, char const* to) {
    if (from == to) return;
    char const* line_start = nullptr;
    auto const n = count_lines(from, to, prev_cr_, line_start);
    if (n != 0) {
        cursor_.line += static_cast<std::uint32_t>(n);
        cursor_.column = static_cast<std::uint32_t>(to - line_start) + 1;
    } else {
        cursor_.column += static_cast<std::uint32_t>(to - from);
    }
    cursor_.offset += static_cast<std::uint64_t>(to - from);
    prev_cr_ = to[-1] == '\r';
}

bool GameReader::fill() {
    if (eof_) return false;
    limit_stale_ = true;
    if (begin_ != 0) {
        std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
    }
    if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2); // one game larger than a chunk
    // At most 256 KiB per read, whatever the chunk size: the splitter and the parser then
    // find the bytes still in the core's cache after the copy from the kernel.
    constexpr std::size_t max_read = std::size_t{256} << 10;
    auto const want = std::min({chunk_size_, max_read, buffer_.size() - end_});
    auto const n = source_.read(buffer_.data() + end_, want);
    if (n < 0) {
        io_error_ = source_.error();
        if (io_error_.empty()) io_error_ = "read error";
        eof_ = true;
        return false;
    }
    if (n == 0) {
        eof_ = true;
        return true;
    }
    end_ += static_cast<std::size_t>(n);
    total_read_ += static_cast<std::uint64_t>(n);
    return true;
}

bool GameReader::next(ast::RawGame& game) {
    for (;;) {
        char const* const buf = buffer_.data();
        char const* const end = buf + end_;
        // Only complete lines are split (a CR at the very end may still get its LF). The limit
        // only moves when the buffer does: found once per chunk, not once per game (lines of
        // lichess movetext are kilobytes long).
        if (limit_stale_) {
            char const* limit = end;
            if (!eof_) {
                limit = buf + begin_;
                for (char const* q = end; q != buf + begin_; --q) {
                    if (q[-1] == '\n' || (q[-1] == '\r' && q != end)) {
                        limit = q;
                        break;
                    }
                }
            }
            limit_ = static_cast<std::size_t>(limit - buf);
            limit_stale_ = false;
        }
        char const* const limit = buf + limit_;
        // Skip the bytes that belong to no game.
        char const* p = buf + begin_;
        for (;;) {
            while (p != limit && is_space(*p)) ++p;
            bool const line_start = p == buf + begin_ ? cursor_.column == 1 : is_line_end(p[-1]);
            if (p != limit && *p == '%' && line_start) {
                p = find_line_end(p, limit);
                continue;
            }
            if (limit - p >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
                p += 3;
                continue;
            }
            break;
        }
        advance(buf + begin_, p);
        begin_ = static_cast<std::size_t>(p - buf);
        if (p == limit) {
            if (eof_) return false;
            fill();
            continue;
        }
        char const* const e = find_game_end(p, limit, eof_);
        if (e == nullptr) {
            fill();
            continue;
        }
        game.bytes = std::string_view(p, static_cast<std::size_t>(e - p));
        game.start = cursor_;
        game.number = ++games_;
        advance(p, e);
        begin_ = static_cast<std::size_t>(e - buf);
        return true;
    }
}

bool GameReader::next_batch(GameBatch& batch, std::size_t target_bytes) {
    std::size_t const before = batch.games.size();
    std::size_t const base = batch.bytes.size();
    ast::RawGame game;
    while (batch.bytes.size() - base < target_bytes && next(game)) {
        batch.bytes.append(game.bytes);
        batch.games.push_back(game);
    }
    // The games lie back to back in batch.bytes; views are made once the bytes stop moving.
    std::size_t offset = 0;
    for (auto& g : batch.games) {
        g.bytes = std::string_view(batch.bytes).substr(offset, g.bytes.size());
        offset += g.bytes.size();
    }
    return batch.games.size() > before;
}

} // namespace pgn_iccf::pgn
