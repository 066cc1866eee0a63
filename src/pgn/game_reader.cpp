// The game splitter: cuts a byte stream into games without parsing them, in bounded memory and
// in time linear in the input.
//
// Which bytes belong to which game is documented once, in the header. The splitter and the
// grammar share their lexical rules (grammar/scan.hpp), so a '[' or a result inside a
// comment, a ';' comment or a variation never ends a game.
//
// Linear time: the splitter (detail::Splitter) is a resumable scanner. It scans a game up to
// the end of the bytes read so far and, when the game goes on, stops in a state
// (GameReader::SplitState: a mode, a position and what the mode needs) from which the next
// read resumes; it only steps back a few bytes (a result token, a CR that may get its LF) or,
// in the tag section, to the '[' of a line whose end has not been read (the search for that
// end resumes where it stopped). What used to look back over the game is kept up to date
// instead: the names of the tag section are a set, indexed lazily, each '[' once (the old
// look-back made 80,000 blank-separated tag pairs quadratic); whether the game has movetext
// yet is a probe that resumes where it stopped.
//
// Oversized games (longer than max_game_size before their end is known) are handed out in
// pieces from a window of max_game_size bytes while the same scanner goes on; see the header
// for what the window changes.
#include "pgn/game_reader.hpp"

#include "grammar/scan.hpp"
#include "io/memory.hpp"
#include "notation/notation.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <utility>

#ifdef __AVX2__
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pgn_iccf::pgn {

namespace {

using namespace pgn_iccf::scan;

constexpr std::uint64_t no_end = ~std::uint64_t{0};
// A section remembers at most this many distinct tag names, of this many bytes in all.
constexpr std::size_t max_tag_names = 4096;
constexpr std::size_t max_tag_name_bytes = std::size_t{256} << 10;
// An oversized game's pieces stop short of the blanks, digits and dots just before the scan
// position (look-backs of the trimming and result rules), up to this many bytes.
constexpr std::size_t max_held_tail = 4096;

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

// The first byte at or after p that is not plain, or end. With 16 bytes readable they are
// tested in one unrolled run without the end test (the byte loop with it took about 5
// instructions per byte; callgrind, master games: see the commit).
char const* next_split_byte(char const* p, char const* end) {
    while (end - p >= 16)
        if (char const* const e = first_where<16>(
                p, [](char c) { return split_classes[static_cast<unsigned char>(c)] != plain; }))
            return e;
        else
            p += 16;
    while (p != end && split_classes[static_cast<unsigned char>(*p)] == plain) ++p;
    return p;
}

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
#elif defined(__SSE2__)
    // Portable builds: a line of up to 32 bytes with two loads (find_byte's tail byte loop
    // cost about 32 instructions per tag line; callgrind, master games).
    auto const n = t - p;
    if (n <= 32 && limit - p >= 32) {
        auto const brackets = [](char const* b) {
            __m128i const x = _mm_loadu_si128(reinterpret_cast<__m128i const*>(b));
            return static_cast<std::uint32_t>(
                _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(']'))));
        };
        std::uint32_t const mask = brackets(p) | (brackets(p + 16) << 16);
        std::uint32_t const in_line = n == 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << n) - 1;
        return (mask & in_line) == std::uint32_t{1} << (n - 1);
    }
#else
    (void)limit;
#endif
    return find_byte(p, t, ']') == t - 1;
}

constexpr char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

// FNV-1a of the name in lower case; never 0 (an empty slot).
std::uint64_t name_hash(std::string_view name) {
    std::uint64_t h = 0xCBF29CE484222325u;
    for (char c : name) h = (h ^ static_cast<unsigned char>(lower(c))) * 0x100000001B3u;
    return h | 1;
}

using detail::TagNames;

// The slot holding `name`, or the empty slot where it would go.
TagNames::Slot& find_name(TagNames& t, std::string_view name, std::uint64_t h) {
    std::size_t const mask = t.slots.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        auto& slot = t.slots[i];
        if (slot.hash == 0) return slot;
        if (slot.hash == h && iequals(std::string_view(t.arena).substr(slot.at, slot.size), name))
            return slot;
    }
}

// Inserts `name` (if there is room); whether it was there already.
bool insert_name(TagNames& t, std::string_view name) {
    if (t.count != 0 &&
        (t.count == max_tag_names || t.arena.size() + name.size() > max_tag_name_bytes))
        return find_name(t, name, name_hash(name)).hash != 0;
    if ((t.count + 1) * 2 > t.slots.size()) {
        std::vector<TagNames::Slot> old(std::max<std::size_t>(t.slots.size() * 2, 64));
        old.swap(t.slots);
        for (auto const& slot : old)
            if (slot.hash != 0) {
                auto const stored = std::string_view(t.arena).substr(slot.at, slot.size);
                find_name(t, stored, slot.hash) = slot;
            }
    }
    auto const h = name_hash(name);
    auto& slot = find_name(t, name, h);
    if (slot.hash != 0) return true;
    slot = {h, static_cast<std::uint32_t>(t.arena.size()), static_cast<std::uint32_t>(name.size())};
    for (char c : name) t.arena += lower(c);
    ++t.count;
    return false;
}

// Whether the line [p, le) (p at its '[', t the end of its content) holds exactly one tag pair
// (then skip_tag_pair would end it at le): a line `[... "]` whose only ']' is the last byte.
// [p, limit) is readable.
bool one_tag_pair(char const* p, char const* t, char const* limit) {
    return t - p >= 3 && t[-1] == ']' && t[-2] == '"' && only_bracket_is_last(p, t, limit);
}

constexpr bool is_name_byte(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// Whether bytes without a tag section and without a result are a game: their first token
// (after whitespace, comments and '%' lines) is a move number or a numeric move (`1. e4 e5`,
// a game cut short), or a move legal in the starting position (a game without tags starts
// there): `e2e4 d7d5 ...` of an engine log. Anything else (mail headers, "some garbage", a
// stray byte, a lone comment) is text between games.
bool starts_like_game(char const* p, char const* end) {
    char const* const begin = p;
    for (;;) {
        while (p != end && is_space(*p)) ++p;
        if (p == end) return false;
        if (*p == '{') {
            p = find_byte(p + 1, end, '}');
            if (p == end) return false;
            ++p;
        } else if (*p == ';' || (*p == '%' && (p == begin || is_line_end(p[-1])))) {
            p = find_line_end(p, end);
        } else {
            if (is_digit(*p)) return true;
            char const* e = token_end(p, end);
            while (e != p && (e[-1] == '!' || e[-1] == '?')) --e;
            if (e == p) return false;
            auto const token = std::string_view(p, static_cast<std::size_t>(e - p));
            return notation::read_move(chess::Position::start_position(), token).error ==
                   notation::ReadError::none;
        }
    }
}

// Whether the token at p is a move legal in the starting position (suffixes `!`/`?` aside)
// or a numeric move (four digits 1-8).
bool first_move_at(char const* p, char const* end) {
    char const* e = token_end(p, end);
    while (e != p && (e[-1] == '!' || e[-1] == '?')) --e;
    if (e == p) return false;
    auto const token = std::string_view(p, static_cast<std::size_t>(e - p));
    if (token.size() == 4 &&
        std::all_of(token.begin(), token.end(), [](char c) { return c >= '1' && c <= '8'; }))
        return true;
    return notation::read_move(chess::Position::start_position(), token).error ==
           notation::ReadError::none;
}

// Text that does not start like a game may hold a game score from a later line on: a title
// line written just above the moves (`Reti - Tartakower` then `1. e4 c6 ...`, common in
// hand-made files). The start of the first line after the first one that begins (after
// blanks) with move number 1 to 9999 with its periods and a first move (`1. e4`, `1.e4`,
// `1. 5254`), or nullptr.
char const* score_line(char const* p, char const* end) {
    for (;;) {
        p = find_line_end(p, end);
        if (p == end) return nullptr;
        ++p;
        char const* q = skip_blanks(p, end);
        char const* d = q;
        while (d != end && is_digit(*d) && d - q < 5) ++d;
        if (d == q || d == end || *d != '.') continue;
        while (d != end && (*d == '.' || is_blank(*d))) ++d;
        if (d != end && first_move_at(d, end)) return p;
    }
}

// A byte the look-backs of an oversized game's scan may need (see max_held_tail).
constexpr bool is_held_byte(char c) { return is_space(c) || is_digit(c) || c == '.'; }

} // namespace

std::uint64_t last_line(syntax::RawGame const& g) {
    std::string_view b = g.bytes;
    while (!b.empty() && is_space(b.back())) b.remove_suffix(1);
    std::uint64_t line = g.start.line;
    for (std::size_t i = 0; i < b.size(); ++i)
        if (b[i] == '\n' || (b[i] == '\r' && (i + 1 == b.size() || b[i + 1] != '\n'))) ++line;
    return line;
}

namespace detail {

// One run of the splitter over the bytes [lo, end) of the buffer (lo: the first byte not yet
// handed out; the game's first byte unless the game is oversized): resumes the current game's
// scan at st.pos and runs to the game's end or to `end`, leaving in st what the next run
// needs. `final`: no byte follows `end`. Every look-back stops at lo.
class Splitter {
public:
    using State = GameReader::SplitState;
    using Mode = State::Mode;
    using Line = State::Line;
    using Probe = State::Probe;

    Splitter(State& st, char const* buf, std::uint64_t base, std::size_t lo, std::size_t end,
             bool final)
        : st_(st), buf_(buf), base_(base), lo_(buf + lo), end_(buf + end), final_(final) {}

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
    LineSkip skip_empty_lines(char const*& p, bool& blank) {
        for (;;) {
            if (st_.in_percent) {
                char const* const le = find_line_end(p, end_);
                if (le == end_) return LineSkip::unread;
                if (pending_cr(le)) {
                    p = le;
                    return LineSkip::cr;
                }
                p = skip_line_end(le, end_);
                st_.in_percent = false;
                st_.line_start = off(p);
                continue;
            }
            char const* const q = skip_blanks(p, end_);
            if (q == end_) return LineSkip::unread;
            if (is_line_end(*q)) {
                if (pending_cr(q)) {
                    p = q;
                    return LineSkip::cr;
                }
                blank = true;
                p = skip_line_end(q, end_);
                st_.line_start = off(p);
                continue;
            }
            p = q;
            if (*q == '%' && q == at(st_.line_start)) {
                st_.in_percent = true;
                continue;
            }
            return LineSkip::content;
        }
    }
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

    State& st_;
    char const* const buf_;
    std::uint64_t const base_; // stream offset of buf_[0]
    char const* const lo_;
    char const* const end_;
    bool const final_;
    std::uint64_t result_ = no_end;
};

std::uint64_t Splitter::run() {
    char const* p = at(st_.pos);
    for (;;) {
        Step s = Step::go;
        switch (st_.mode) {
        case Mode::tag_line:
            s = tag_line(p);
            break;
        case Mode::tag_skip:
            s = tag_skip(p);
            break;
        case Mode::content_line:
            s = content_line(p);
            break;
        case Mode::movetext:
            s = movetext(p);
            break;
        case Mode::comment:
            s = comment(p);
            break;
        case Mode::line_comment:
            s = line_comment(p);
            break;
        case Mode::after_result:
            s = after_result(p);
            break;
        case Mode::after_game:
            s = after_game(p);
            break;
        }
        if (s == Step::go) continue;
        st_.pos = off(p);
        return s == Step::done ? result_ : no_end;
    }
}

// The game ends before the line starting at s: trimmed back to its last non-blank line. The
// trim never reaches lo (the game's first byte is not blank; an oversized game's bytes before
// lo are out already, and its last piece must not be empty).
std::uint64_t Splitter::boundary(char const* s) const {
    char const* const floor = std::min(lo_ + 1, s);
    char const* q = s;
    while (q > floor && is_space(q[-1])) --q;
    q = skip_blanks(q, end_);
    return off(skip_line_end(q, end_));
}

// p at a '[' of the tag section: the line must be whole (its end is searched for once, from
// where the last search stopped). Loops over the tag lines that follow each other directly.
Splitter::Step Splitter::tag_line(char const*& p) {
    char const* const searched = at(std::max(off(p), st_.searched));
    for (;;) {
        char const* const le = find_line_end(std::max(p, searched), end_);
        if (!final_ && (le == end_ || pending_cr(le))) {
            st_.searched = off(le);
            return Step::wait;
        }
        char const* t = le;
        while (t != p && is_blank(t[-1])) --t;
        if (st_.check_new_game) {
            st_.check_new_game = false;
            if (starts_new_game(p, le)) return finish(boundary(at(st_.line_start)));
        }
        char const* q = one_tag_pair(p, t, end_) ? le : skip_blanks(skip_tag_pair(p, le), le);
        while (q != le && *q == '[') { // more tag pairs on this line
            char const* const r = skip_blanks(skip_tag_pair(q, le), le);
            if (r == le) break;
            q = r;
        }
        if (q != le && *q != '[') { // movetext after the tag pairs
            p = q;
            st_.mode = Mode::movetext;
            return Step::go;
        }
        p = skip_line_end(le, end_);
        if (p != end_ && *p == '[') continue; // the next tag line (the usual case)
        enter_content_line(p, true);
        return Step::go;
    }
}

// A tag line longer than an oversized game's window: taken whole, up to its line end.
Splitter::Step Splitter::tag_skip(char const*& p) {
    char const* const le = find_line_end(p, end_);
    if (le == end_) return at_limit(p);
    if (pending_cr(le)) {
        p = le;
        return Step::wait;
    }
    p = skip_line_end(le, end_);
    enter_content_line(p, true);
    return Step::go;
}

// After a line end: blank lines and '%' lines are skipped up to the next line with content,
// which decides whether the game ends before that line.
Splitter::Step Splitter::content_line(char const*& p) {
    switch (skip_empty_lines(p, st_.after_blank)) {
    case LineSkip::unread:
        return at_limit(p);
    case LineSkip::cr:
        return Step::wait;
    case LineSkip::content:
        break;
    }
    if (st_.in_tags) {
        if (*p == '[') {
            st_.mode = Mode::tag_line;
            st_.check_new_game = st_.after_blank;
        } else {
            st_.mode = Mode::movetext;
        }
        return Step::go;
    }
    if (*p == '[') {
        // Comments only so far (a comment at the top of the file): they lead this tag section.
        if (!st_.had_tags && !has_movetext(at(st_.line_start))) {
            st_.had_tags = true;
            st_.mode = Mode::tag_line;
            st_.check_new_game = false;
            return Step::go;
        }
        return finish(boundary(at(st_.line_start)));
    }
    if (st_.after_blank && *p == '1') {
        if (p + 1 == end_ && !final_) return Step::wait;
        if (p + 1 != end_ && p[1] == '.' && has_movetext(at(st_.line_start)))
            return finish(boundary(at(st_.line_start)));
    }
    st_.mode = Mode::movetext;
    return Step::go;
}

// Whether the result start at p (a '1', '0', '*' or 0xC2) may begin a result token: at the
// start of the bytes, after a byte that is no token byte (not a '"'), or after a move
// number's period.
inline bool may_precede_result(char const* p, char const* lo) {
    return p == lo || (!is_token_byte(p[-1]) && p[-1] != '"') || p[-1] == '.';
}

// The byte after a comment starting at the '{' at p that closes within 32 bytes on its line
// (clock and eval comments: no tag-like line inside), or nullptr.
inline char const* short_comment_end(char const* p, char const* end) {
#ifdef __AVX2__
    if (end - p > 32) {
        __m256i const x = _mm256_loadu_si256(reinterpret_cast<__m256i const*>(p + 1));
        auto const closes = static_cast<std::uint32_t>(
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('}'))));
        auto const line_ends = scan::line_end_mask(x);
        if (closes != 0 && (line_ends & ((closes & -closes) - 1)) == 0)
            return p + 2 + std::countr_zero(closes);
    }
#elif defined(__SSE2__)
    // In portable builds in two halves (the two scalar scans of the caller cost about 210
    // instructions per lichess clock comment, this about 25).
    if (end - p > 32) {
        auto const brace_mask = [](char const* b) {
            __m128i const x = _mm_loadu_si128(reinterpret_cast<__m128i const*>(b));
            return static_cast<std::uint32_t>(
                _mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('}'))));
        };
        std::uint32_t const closes = brace_mask(p + 1) | (brace_mask(p + 17) << 16);
        std::uint32_t const line_ends =
            scan::line_end_mask16(p + 1) | (scan::line_end_mask16(p + 17) << 16);
        if (closes != 0 && (line_ends & ((closes & -closes) - 1)) == 0)
            return p + 2 + std::countr_zero(closes);
    }
#endif
    (void)end;
    return nullptr;
}

Splitter::Step Splitter::movetext(char const*& pr) {
    char const* p = pr;
    char const* const end = end_;
    char const* const lo = lo_;
    int depth = st_.depth;
    auto leave = [&](char const* at_p, Step s) {
        pr = at_p;
        st_.depth = depth;
        return s;
    };
    while (p != end) {
        if (p != lo && (p = skip_plain(p, end)) == end) break;
        p = next_split_byte(p, end);
        if (p == end) break;
        auto const cls = split_classes[static_cast<unsigned char>(*p)];
        // The commonest stops are taken before the switch (callgrind per game: master -71,
        // lichess -211, annotated -122; no change in time measured): a digit inside a token
        // ("Rd1") ...
        if (cls == result_start && (depth != 0 || !may_precede_result(p, lo))) {
            ++p;
            continue;
        }
        // ... and a comment closed on its line within 32 bytes (clock and eval comments).
        if (cls == brace) {
            if (char const* const q = short_comment_end(p, end)) {
                p = q;
                continue;
            }
        }
        switch (cls) {
        case plain:
            break;
        case newline: {
            if (pending_cr(p)) return leave(p, Step::wait);
            char const* const q = skip_line_end(p, end);
            // The usual case, a line going on with movetext, stays in this loop.
            if (q != end && !is_space(*q) && *q != '[' && *q != '%') {
                p = q;
                break;
            }
            enter_content_line(q, false);
            return leave(q, Step::go);
        }
        case brace: {
            // A comment closed on its line holds no tag-like line either.
            if (char const* const close = find_byte(p + 1, end, '}');
                close != end && find_line_end(p + 1, close, end) == close) {
                p = close + 1;
                break;
            }
            st_.mode = Mode::comment;
            st_.line = Line::rest;
            return leave(p + 1, Step::go);
        }
        case semicolon:
            st_.mode = Mode::line_comment;
            return leave(p, Step::go);
        case paren_open:
            // A forfeit `(+)-(-)` / `(-)-(+)` is a result where a variation could start.
            if (depth == 0) {
                if (end - p < 8 && !final_) return leave(p, Step::wait);
                if (std::size_t const n = match_result(p, end); n != 0)
                    return leave(p + n, result_at(p));
            }
            ++depth;
            ++p;
            break;
        case paren_close:
            if (depth > 0) --depth;
            ++p;
            break;
        case result_start: {
            // A result token is at most 7 bytes and the byte after it.
            if (end - p < 8 && !final_) return leave(p, Step::wait);
            std::size_t n = match_result(p, end);
            if (n != 0 && p != lo && p[-1] == '.') {
                // Only a move number may precede a result in its token (`40.1-0`).
                char const* t = p;
                while (t != lo && (t[-1] == '.' || is_digit(t[-1]))) --t;
                if (t != lo && is_token_byte(t[-1])) n = 0;
            }
            if (n == 0) {
                ++p;
                break;
            }
            return leave(p + n, result_at(p));
        }
        }
    }
    leave(p, Step::wait);
    return at_limit(pr);
}

// Inside a brace comment: up to its '}', watching for a line that starts like a tag pair
// (`[Name "`, after a line end of the comment), where the game ends.
Splitter::Step Splitter::comment(char const*& p) {
    char const* const close = find_byte(p, end_, '}');
    while (p != close) {
        switch (st_.line) {
        case Line::rest: {
            char const* const le = find_line_end(p, close, end_);
            if (le == close) {
                p = close;
                break;
            }
            p = le + 1;
            st_.line = Line::start;
            st_.candidate = off(p);
            break;
        }
        case Line::start:
            p = skip_blanks(p, close);
            if (p == close) break;
            if (*p == '[') {
                ++p;
                st_.line = Line::name_first;
            } else {
                st_.line = Line::rest;
            }
            break;
        case Line::name_first:
        case Line::name_rest: {
            char const* q = p;
            while (q != close && is_name_byte(*q)) ++q;
            if (q != p) st_.line = Line::name_rest;
            p = q;
            if (p == close) break;
            st_.line = st_.line == Line::name_rest ? Line::after_name : Line::rest;
            break;
        }
        case Line::after_name:
            p = skip_blanks(p, close);
            if (p == close) break;
            if (*p == '"') return finish(st_.result ? st_.trail_end : boundary(at(st_.candidate)));
            st_.line = Line::rest;
            break;
        }
    }
    if (close == end_) {
        // After the result, a comment never closed does not join the game.
        if (st_.result && final_) return finish(st_.trail_end);
        return at_limit(p);
    }
    p = close + 1;
    st_.mode = st_.result ? Mode::after_result : Mode::movetext;
    return Step::go;
}

Splitter::Step Splitter::line_comment(char const*& p) {
    p = find_line_end(p, end_);
    if (p == end_) return at_limit(p);
    st_.mode = st_.result ? Mode::after_result : Mode::movetext; // which handle the line end
    return Step::go;
}

// After a result, on its line: the rest of the line belongs to the game (blanks, comments,
// a word such as `ff`, a stray ')'), unless a tag section or a game `1.` starts there: then the
// game ends before it. On a comment line after the game (result_line false) only comments
// join: other text ends the game before it. trail_end is where the game ends if what comes
// next does not join (a comment never closed, or closed only after a tag-like line).
Splitter::Step Splitter::after_result(char const*& p) {
    p = skip_blanks(p, end_);
    if (p == end_) return final_ ? finish(off(p)) : Step::wait;
    st_.trail_end = off(p);
    if (is_line_end(*p)) {
        if (pending_cr(p)) return Step::wait;
        p = skip_line_end(p, end_);
        st_.trail_end = st_.line_start = off(p);
        st_.mode = Mode::after_game;
        st_.result_line = false;
        st_.in_percent = false;
        return Step::go;
    }
    if (start_comment(p)) return Step::go;
    if (!st_.result_line || *p == '[') return finish(off(p));
    if (*p == '1') {
        if (p + 1 == end_ && !final_) return Step::wait;
        if (p + 1 != end_ && p[1] == '.') return finish(off(p));
    }
    // Text: another game on this line (`e4 * d4 1-0`) if a result follows before the line
    // end or a comment and the text starts like a game (a move number or a move); else it
    // belongs to this game (`1-0 ff`, `1-0 ff *`). The search resumes where it stopped
    // (st_.searched).
    char const* q = at(std::max(off(p), st_.searched));
    for (; q != end_ && !is_line_end(*q) && *q != '{' && *q != ';'; ++q) {
        if (split_classes[static_cast<unsigned char>(*q)] != result_start && *q != '(') continue;
        if (q != lo_ && is_token_byte(q[-1]) && q[-1] != '"' && q[-1] != '.') continue;
        if (end_ - q < 8 && !final_) break;
        if (match_result(q, end_) != 0 && starts_like_game(p, q)) return finish(off(p));
    }
    st_.searched = off(q);
    if (q == end_ || (end_ - q < 8 && !final_ && !is_line_end(*q) && *q != '{' && *q != ';'))
        return final_ ? finish(off(end_)) : Step::wait;
    p = q; // the text joins the game
    return Step::go;
}

// At a line start after the game's last line: blank lines and '%' lines are skipped; a line
// starting with a comment joins the game, anything else (or the end) starts after it.
Splitter::Step Splitter::after_game(char const*& p) {
    bool blank = false; // whether a blank line came first does not matter here
    switch (skip_empty_lines(p, blank)) {
    case LineSkip::unread:
        p = end_;
        return final_ ? finish(st_.trail_end) : Step::wait;
    case LineSkip::cr:
        return Step::wait;
    case LineSkip::content:
        break;
    }
    if (start_comment(p)) return Step::go;
    return finish(st_.trail_end);
}

// Whether the tag pair at q (after a blank line inside a tag section, its line ending at le)
// starts a new game: it is an Event tag, or its name already occurs in the section. The names
// of the section are every '[' of it (as the look-back this replaces found them), indexed once.
bool Splitter::starts_new_game(char const* q, char const* le) {
    auto const name = tag_name_at(q, le);
    if (iequals(name, "Event")) return true;
    if (name.empty()) return false;
    // The names of [begin, q), then this one, which the next index_names would take.
    index_names(q);
    st_.names_upto = off(q) + 1;
    return insert_name(st_.names, name);
}

void Splitter::index_names(char const* to) {
    char const* p = at(std::max(st_.names_upto, off(lo_)));
    while (p < to) {
        p = static_cast<char const*>(std::memchr(p, '[', static_cast<std::size_t>(to - p)));
        if (p == nullptr) break;
        if (auto const name = tag_name_at(p, to); !name.empty()) (void)insert_name(st_.names, name);
        ++p;
    }
    st_.names_upto = std::max(st_.names_upto, off(to));
}

// Whether [begin, to) holds anything but tag pairs, comments, '%' lines and whitespace: a
// blank line and `1.` start a new game only after some movetext (not after an introductory
// comment). `to` is a line start (or, catching up in an oversized game, any byte: a tag line
// cut there is taken whole). The probe resumes where it stopped.
bool Splitter::has_movetext(char const* to) {
    if (st_.probe_found) return true;
    char const* p = at(std::max(st_.probe_pos, off(lo_)));
    while (p < to) {
        if (st_.probe == Probe::brace) {
            auto const* close =
                static_cast<char const*>(std::memchr(p, '}', static_cast<std::size_t>(to - p)));
            if (close == nullptr) {
                p = to;
                break;
            }
            p = close + 1;
            st_.probe = Probe::scan;
            continue;
        }
        if (st_.probe == Probe::line) {
            p = find_line_end(p, to);
            if (p == to) break;
            st_.probe = Probe::scan;
            continue;
        }
        char const c = *p;
        if (is_space(c)) {
            ++p;
        } else if (c == '[') {
            char const* s = p;
            while (s != lo_ && is_blank(s[-1])) --s;
            if (s != lo_ && !is_line_end(s[-1])) {
                st_.probe_found = true;
                break;
            }
            char const* const le = find_line_end(p, to);
            if (le == to) {
                st_.probe = Probe::line;
                p = to;
                break;
            }
            char const* t = le;
            while (t != p && is_blank(t[-1])) --t;
            p = one_tag_pair(p, t, end_) ? le : skip_tag_pair(p, le);
        } else if (c == '{') {
            st_.probe = Probe::brace;
        } else if (c == ';' || (c == '%' && (p == lo_ || is_line_end(p[-1])))) {
            st_.probe = Probe::line;
        } else {
            st_.probe_found = true;
            break;
        }
    }
    st_.probe_pos = std::max(st_.probe_pos, off(p));
    return st_.probe_found;
}

std::uint64_t Splitter::anchor() const {
    // After the result, the game may end back at trail_end (the comment being scanned, or the
    // blank lines being skipped, may not join it).
    if (st_.result && st_.mode != Mode::after_result) return st_.trail_end;
    switch (st_.mode) {
    case Mode::tag_line:
        return st_.check_new_game ? st_.line_start : st_.pos;
    case Mode::content_line:
        return st_.in_percent ? st_.pos : st_.line_start;
    case Mode::comment:
        return st_.line == Line::rest ? st_.pos : st_.candidate;
    default:
        return st_.pos;
    }
}

void Splitter::force() {
    if (st_.result) {
        st_.trail_end = std::max(st_.trail_end, st_.pos); // what was read joins
        // Text after the result whose line does not end within the window: the game ends
        // before it.
        if (st_.mode == Mode::after_result) st_.result_line = false;
    }
    switch (st_.mode) {
    case Mode::tag_line:
        index_names(end_);
        st_.mode = Mode::tag_skip;
        st_.check_new_game = false;
        break;
    case Mode::content_line:
        if (!st_.in_percent) st_.line_start = st_.pos;
        break;
    case Mode::comment:
        st_.line = Line::rest;
        break;
    default:
        break;
    }
}

void Splitter::catch_up(std::uint64_t to) {
    bool const tags = st_.mode == Mode::tag_line || st_.mode == Mode::tag_skip ||
                      (st_.mode == Mode::content_line && st_.in_tags);
    if (tags) index_names(at(to));
    has_movetext(at(to));
}

} // namespace detail

GameReader::GameReader(ByteSource& source, std::size_t chunk_size, std::size_t max_game_size)
    // The buffer starts small and doubles for a game that does not fit: a directory of many
    // small files opens a reader per file. It is malloc'ed, not a vector: nothing is zeroed.
    : source_(source), chunk_size_(std::max<std::size_t>(chunk_size, 64)),
      max_game_size_(std::max<std::size_t>(max_game_size, 256)),
      capacity_(std::min({chunk_size_, std::size_t{512} << 10, max_game_size_})),
      small_capacity_(capacity_) {
    buffer_.reset(static_cast<char*>(std::malloc(capacity_)));
    if (!buffer_) throw std::bad_alloc();
}

void GameReader::advance(char const* from, char const* to) {
    if (from == to) return;
    char const* line_start = nullptr;
    auto const n = count_lines(from, to, prev_cr_, line_start);
    cursor_.line += static_cast<std::uint32_t>(n);
    // Any line-end byte moves the column, the LF of a CRLF whose CR ended the last range too.
    if (line_start != nullptr) {
        cursor_.column = static_cast<std::uint32_t>(to - line_start) + 1;
    } else {
        cursor_.column += static_cast<std::uint32_t>(to - from);
    }
    cursor_.offset += static_cast<std::uint64_t>(to - from);
    prev_cr_ = to[-1] == '\r';
}

GameReader::Fill GameReader::fill() {
    if (eof_) return Fill::end;
    if (begin_ != 0) {
        std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
        end_ -= begin_;
        base_ += begin_;
        begin_ = 0;
    }
    // Once a game of several MiB is out, the reader goes back to its first, small buffer: the
    // window's pages are not held for the rest of the input (the splitter keeps stream
    // offsets, never pointers, so the bytes may move).
    if (reserved_ && capacity_ >= (std::size_t{4} << 20) && end_ <= small_capacity_ / 2) {
        auto* const small = static_cast<char*>(std::malloc(small_capacity_));
        if (small == nullptr) throw std::bad_alloc();
        std::memcpy(small, buffer_.get(), end_);
        buffer_.reset(small);
        reserved_ = false;
        capacity_ = small_capacity_;
    }
    if (end_ == capacity_) { // one game larger than the buffer
        if (capacity_ == max_game_size_) return Fill::full;
        if (!reserved_) {
            // The first growth allocates the whole window at once (its pages are only touched as
            // the game grows) and nothing is copied again.
            auto* const window = static_cast<char*>(std::malloc(max_game_size_));
            if (window == nullptr) throw std::bad_alloc();
            // Filled page fault by page fault: huge pages make 512 times fewer faults.
            io::advise_huge_pages(window, max_game_size_);
            std::memcpy(window, buffer_.get(), end_);
            buffer_.reset(window);
            reserved_ = true;
        }
        capacity_ = std::min(capacity_ * 2, max_game_size_);
    }
    // At most 256 KiB per read, whatever the chunk size: the splitter and the parser then
    // find the bytes still in the core's cache after the copy from the kernel.
    constexpr std::size_t max_read = std::size_t{256} << 10;
    auto const want = std::min({chunk_size_, max_read, capacity_ - end_});
    auto const n = source_.read(buffer_.get() + end_, want);
    if (n < 0) {
        io_error_ = source_.error();
        if (io_error_.empty()) io_error_ = "read error";
        eof_ = true;
        return Fill::end;
    }
    if (n == 0) {
        eof_ = true;
        return Fill::end;
    }
    end_ += static_cast<std::size_t>(n);
    total_read_ += static_cast<std::uint64_t>(n);
    return Fill::read;
}

void GameReader::start_game(std::size_t at) {
    using Mode = SplitState::Mode;
    SplitState& st = split_;
    std::uint64_t const o = base_ + at;
    st.begin = st.pos = st.line_start = st.candidate = st.searched = o;
    st.probe_pos = st.names_upto = o;
    st.depth = 0;
    st.mode = buffer_.get()[at] == '[' ? Mode::tag_line : Mode::movetext;
    st.line = SplitState::Line::rest;
    st.probe = SplitState::Probe::scan;
    st.in_tags = st.after_blank = st.in_percent = st.check_new_game = false;
    st.probe_found = false;
    st.had_tags = buffer_.get()[at] == '[';
    st.result = st.result_line = false;
    st.trail_end = o;
    if (st.names.count != 0) {
        if (st.names.slots.size() > 256) {
            st.names = {}; // a huge section: give the memory back
        } else {
            std::fill(st.names.slots.begin(), st.names.slots.end(), TagNames::Slot{});
            st.names.arena.clear();
            st.names.count = 0;
        }
    }
}

// The first byte the splitter may look back on: the game's first byte (not the blanks
// before it on its line, held for text between games), or the first not handed out of an
// oversized game.
std::size_t GameReader::scan_floor() const {
    return split_.begin >= base_ + begin_ ? static_cast<std::size_t>(split_.begin - base_) : begin_;
}

// A game (not text between games) drops the blanks before it on its line.
void GameReader::drop_lead() {
    char const* const p = buffer_.get() + begin_;
    std::size_t const to = scan_floor();
    advance(p, buffer_.get() + to);
    begin_ = to;
}

void GameReader::enter_between() {
    phase_ = Phase::between;
    between_pos_ = line_from_ = base_ + begin_;
    line_junk_ = false;
}

std::uint64_t GameReader::scan(bool final, bool force) {
    detail::Splitter s(split_, buffer_.get(), base_, scan_floor(), end_, final);
    if (force) s.force();
    return s.run();
}

// Oversized game: the end of what may be handed out now. It stops one byte before the scan's
// anchor (look-back of one byte) and, unless forced, before the blanks, digits and dots just
// before it (look-backs of the trimming and result rules), up to max_held_tail bytes.
std::uint64_t GameReader::safe_end(bool force) {
    detail::Splitter s(split_, buffer_.get(), base_, begin_, end_, eof_);
    std::uint64_t const cur = base_ + begin_;
    std::uint64_t const a = std::max(s.anchor(), cur);
    s.catch_up(a);
    char const* const lo = buffer_.get() + begin_;
    char const* q = s.at(a);
    if (!force) {
        auto const held = std::min(max_held_tail, max_game_size_ / 4);
        char const* const stop = q - std::min(static_cast<std::size_t>(q - lo), held);
        while (q != stop && is_held_byte(q[-1])) --q;
    }
    if (q != lo) --q;
    return s.off(q);
}

void GameReader::hand_out(syntax::RawGame& game, std::size_t n, std::uint64_t number) {
    char const* const p = buffer_.get() + begin_;
    game.bytes = std::string_view(p, n);
    game.start = cursor_;
    game.number = number;
    advance(p, p + n);
    begin_ += n;
}

bool GameReader::next(syntax::RawGame& game) {
    part_ = GamePart::whole;
    for (;;) {
        switch (phase_) {
        case Phase::between: {
            // Skip the bytes that belong to no game (all the bytes read, if need be: a line of
            // a billion NUL bytes goes through a buffer of a few hundred KiB, in pieces of
            // text between games).
            char const* const buf = buffer_.get();
            char const* const end = buf + end_;
            auto const off = [&](char const* q) { return base_ + std::uint64_t(q - buf); };
            auto const at = [&](std::uint64_t o) { return buf + (o - base_); };
            char const* p = at(between_pos_);
            bool more = false;
            bool run_ended = false; // a run of junk lines ended at p
            for (;;) {
                if (in_percent_) {
                    p = find_line_end(p, end);
                    if (p == end) {
                        more = true;
                        break;
                    }
                    in_percent_ = false; // the line end is skipped as whitespace
                }
                // A run of junk lines ends at a line without control bytes (a blank line, or
                // a line whose first 4096 bytes are blanks: a bound on what is held).
                std::uint64_t const held = std::min<std::uint64_t>(4096, max_game_size_ / 4);
                for (; p != end && is_space(*p); ++p) {
                    char const c = *p;
                    if (is_line_end(c)) {
                        if (line_junk_) {
                            junk_to_ = off(p + 1);
                        } else if (junk_from_ != no_junk) {
                            if (c != '\n' || junk_to_ != off(p) || p[-1] != '\r') {
                                run_ended = true; // a blank line
                                break;
                            }
                            junk_to_ = off(p + 1); // the LF of a junk line's CRLF
                        }
                        line_junk_ = false;
                        line_from_ = off(p + 1);
                    } else if (!is_blank(c) && c != '\f' && c != '\v') {
                        if (junk_from_ == no_junk) junk_from_ = line_from_;
                        line_junk_ = true;
                    } else if (junk_from_ != no_junk && !line_junk_ &&
                               off(p) - line_from_ >= held) {
                        run_ended = true;
                        break;
                    }
                }
                if (run_ended) break;
                if (p == end) {
                    more = true;
                    break;
                }
                bool const line_start =
                    p == buf + begin_ ? cursor_.column == 1 : is_line_end(p[-1]);
                if (*p == '%' && line_start) {
                    if (junk_from_ != no_junk) break; // the junk run ends before it
                    in_percent_ = true;
                    continue;
                }
                static constexpr char bom[] = "\xEF\xBB\xBF";
                auto const left = static_cast<std::size_t>(end - p);
                if (left >= 3 && std::memcmp(p, bom, 3) == 0) {
                    p += 3;
                    continue;
                }
                if (left < 3 && !eof_ && std::memcmp(p, bom, left) == 0) {
                    more = true; // perhaps a BOM: decide with more bytes
                    break;
                }
                break;
            }
            between_pos_ = off(p);
            auto const drop_to = [&](std::uint64_t o) { // bytes of no game, not copied
                if (o <= base_ + begin_) return;
                advance(buf + begin_, at(o));
                begin_ = static_cast<std::size_t>(o - base_);
            };
            if (junk_from_ != no_junk) {
                // A run of lines with control bytes: text between games, handed out whole
                // when it ends (at the end of its last line, or before the game that follows
                // on its line), or in pieces at fixed offsets from its start.
                drop_to(junk_from_);
                bool const ended = !more || eof_ || run_ended;
                std::uint64_t const cut = line_junk_ ? off(p) : junk_to_;
                std::uint64_t const piece = junk_piece_size();
                if (cut - junk_from_ > piece) { // the run goes on after this piece
                    part_ = junk_pieces_ ? GamePart::text_more : GamePart::text_first;
                    junk_pieces_ = true;
                    hand_out(game, static_cast<std::size_t>(piece), 0);
                    junk_from_ += piece;
                    return true;
                }
                if (ended) {
                    part_ = junk_pieces_ ? GamePart::text_more : GamePart::text;
                    junk_from_ = no_junk;
                    junk_pieces_ = false;
                    if (cut == off(p)) line_from_ = cut; // control bytes before a game
                    line_junk_ = false;
                    if (cut > base_ + begin_) {
                        hand_out(game, static_cast<std::size_t>(cut - (base_ + begin_)), 0);
                        return true;
                    }
                }
            }
            if (junk_from_ == no_junk) {
                // The current line's leading blanks stay (up to `held`) for text between
                // games that may start after them.
                std::uint64_t const held = std::min<std::uint64_t>(4096, max_game_size_ / 4);
                line_from_ = std::max(line_from_, off(p) - std::min(off(p) - base_, held));
                drop_to(line_from_);
            }
            if (more) {
                if (eof_) return false;
                fill();
                continue;
            }
            start_game(static_cast<std::size_t>(p - buf));
            phase_ = Phase::in_game;
            [[fallthrough]];
        }
        case Phase::in_game: {
            std::uint64_t const e = scan(eof_);
            if (e != no_end) {
                char const* const g = buffer_.get() + (split_.begin - base_);
                auto const n = static_cast<std::size_t>(e - split_.begin);
                bool const like_game = split_.had_tags || starts_like_game(g, g + n);
                char const* const score = like_game ? nullptr : score_line(g, g + n);
                if (score != nullptr) {
                    // Text above a game score: the text is handed out, and the score is
                    // split again from its line on.
                    part_ = GamePart::text;
                    hand_out(game, static_cast<std::size_t>(score - (buffer_.get() + begin_)), 0);
                    enter_between();
                    return true;
                }
                if (!like_game && !split_.result) {
                    // Text between games: no game, number 0; with the blanks before it on
                    // its line.
                    part_ = GamePart::text;
                    hand_out(game, static_cast<std::size_t>(e - (base_ + begin_)), 0);
                } else {
                    drop_lead();
                    hand_out(game, n, ++games_);
                }
                enter_between();
                return true;
            }
            if (fill() == Fill::full) {
                drop_lead();
                // The buffer (max_game_size) holds the game's first bytes and not its end.
                phase_ = Phase::oversized;
                over_begin_ = base_ + begin_;
                over_first_ = true;
                over_done_ = false;
                ++games_;
                over_safe_ = safe_end(false);
            }
            continue;
        }
        case Phase::oversized: {
            // Pieces end at fixed offsets from the game's start (the cuts depend only on the
            // bytes), once the scan allows.
            std::uint64_t const cur = base_ + begin_;
            std::uint64_t const piece = std::min(max_piece_size, max_game_size_ / 2);
            std::uint64_t const cut = cur + piece - (cur - over_begin_) % piece;
            if (over_done_ ? cur < over_end_ : cut <= over_safe_) {
                auto n =
                    static_cast<std::size_t>(std::min(cut, over_done_ ? over_end_ : cut) - cur);
                bool last = over_done_ && cur + n == over_end_;
                if (last && over_first_) { // at least two pieces (a game whose end came late)
                    n /= 2;
                    last = false;
                }
                part_ = over_first_ ? GamePart::oversized_first
                        : last      ? GamePart::oversized_last
                                    : GamePart::oversized_middle;
                over_first_ = false;
                hand_out(game, n, games_);
                if (last) enter_between();
                return true;
            }
            // Every byte that may go is out: read and scan on (forcing progress if the window
            // is full of bytes the scan still needs).
            bool const force = fill() == Fill::full;
            std::uint64_t const e = scan(eof_, force);
            if (e != no_end) {
                over_done_ = true;
                over_end_ = e;
            } else {
                over_safe_ = safe_end(force);
            }
            continue;
        }
        }
    }
}

bool GameReader::next_batch(GameBatch& batch, std::size_t target_bytes, std::size_t max_games) {
    std::size_t const before = batch.games.size();
    std::size_t const base = batch.bytes.size();
    syntax::RawGame game;
    while (batch.bytes.size() - base < target_bytes && batch.games.size() - before < max_games &&
           next(game)) {
        batch.bytes.append(game.bytes);
        batch.games.push_back(game);
        batch.parts.push_back(part_);
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
