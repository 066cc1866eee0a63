// The game splitter: cuts a byte stream into games without parsing them, in bounded memory and
// in time linear in the input.
//
// Which bytes belong to which game is documented once, in splitter.hpp. The splitter and the
// grammar share their lexical rules (grammar/scan.hpp), so a '[' or a result inside a
// comment, a ';' comment or a variation never ends a game.
//
// Linear time: the splitter (detail::Splitter) is a resumable scanner. It scans a game up to
// the end of the bytes read so far and, when the game goes on, stops in a state
// (SplitState: a mode, a position and what the mode needs) from which the next
// read resumes; it only steps back a few bytes (a result token, a CR that may get its LF) or,
// in the tag section, to the '[' of a line whose end has not been read (the search for that
// end resumes where it stopped). What used to look back over the game is kept up to date
// instead: the names of the tag section are a set, indexed lazily, each '[' once (the old
// look-back made 80,000 blank-separated tag pairs quadratic); whether the game has movetext
// yet is a probe that resumes where it stopped.
//
// Oversized games (longer than max_game_size before their end is known) are handed out in
// pieces from a window of max_game_size bytes while the same scanner goes on; see splitter.hpp
// for what the window changes.
#include "reader/splitter.hpp"

#include "io/ascii.hpp"
#include "reader/split_scan.hpp"

#include <algorithm>

namespace pgn_iccf::reader::detail {

Splitter::LineSkip Splitter::skip_empty_lines(char const*& p, bool& blank) {
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
        case Mode::ended:
            s = finish(st_.trail_end);
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
    char const* floor = std::min(lo_ + 1, s);
    if (hold_ != 0 && static_cast<std::size_t>(s - floor) > hold_) floor = s - hold_;
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
        if (!st_.check_new_game) p = skip_tag_lines(p, end_);
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
        // The commonest stops are taken before the switch (fewer instructions a game, no
        // change in time measured; callgrind, see the commit): a digit inside a token
        // ("Rd1") ...
        if (cls == SplitClass::result_start && (depth != 0 || !may_precede_result(p, lo))) {
            ++p;
            continue;
        }
        // ... and a comment closed on its line within 32 bytes (clock and eval comments).
        if (cls == SplitClass::brace) {
            if (char const* const q = short_comment_end(p, end)) {
                p = q;
                continue;
            }
        }
        switch (cls) {
        case SplitClass::plain:
            break;
        case SplitClass::newline: {
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
        case SplitClass::brace: {
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
        case SplitClass::semicolon:
            st_.mode = Mode::line_comment;
            return leave(p, Step::go);
        case SplitClass::paren_open:
            // A forfeit `(+)-(-)` / `(-)-(+)` is a result where a variation could start.
            if (depth == 0) {
                if (end - p < 8 && !final_) return leave(p, Step::wait);
                if (std::size_t const n = result_length(p, end); n != 0)
                    return leave(p + n, result_at(p));
            }
            ++depth;
            ++p;
            break;
        case SplitClass::paren_close:
            if (depth > 0) --depth;
            ++p;
            break;
        case SplitClass::result_start: {
            // A result token is at most 7 bytes and the byte after it.
            if (end - p < 8 && !final_) return leave(p, Step::wait);
            std::size_t n = result_length(p, end);
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
        if (split_classes[static_cast<unsigned char>(*q)] != SplitClass::result_start && *q != '(')
            continue;
        if (q != lo_ && is_token_byte(q[-1]) && q[-1] != '"' && q[-1] != '.') continue;
        if (end_ - q < 8 && !final_) break;
        if (result_length(q, end_) != 0 && like_game_(p, q)) return finish(off(p));
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
    if (io::ascii::iequals(name, "Event")) return true;
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

// Whether a '%' at p is in column 1 (an escape line, as the grammar reads it): at the game's
// first byte, as the reader found it (a game may start after control bytes, or after a
// comment line's comment); elsewhere by the byte before, which is still there (an oversized
// game's pieces end a byte before the probe's position: GameReader::safe_end).
bool Splitter::percent_line_start(char const* p) const {
    if (off(p) == st_.begin) return st_.begin_line_start;
    return p == lo_ || is_line_end(p[-1]);
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
        } else if (c == ';' || (c == '%' && percent_line_start(p))) {
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
        // Text after the result whose line does not end within the window: the game ends
        // before it.
        if (st_.mode == Mode::after_result) {
            st_.result_line = false;
        } else {
            // Blank lines, or a comment, after the result's line that fill the window while
            // it is undecided whether they join: they do not, and the game ends at trail_end
            // (as a comment not closed before a line that begins like a tag pair does not
            // join). What follows is read on from there with a window of its own, by the
            // rules: a block cut at a tag line inside such a comment (reader/cutter.hpp) is
            // where a game starts, as the rules say.
            st_.mode = Mode::ended;
            return;
        }
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

} // namespace pgn_iccf::reader::detail
