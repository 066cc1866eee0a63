// The reading room's window: the GameReader's buffer, its reads, the phases (between games, in
// a game, in an oversized game) and the pieces it hands out. Which bytes belong to which game
// is the splitter's (splitter.hpp); whether bytes are a game or text, the classifier's.
#include "reader/window.hpp"

#include "grammar/scan.hpp"
#include "io/memory.hpp"
#include "reader/splitter.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

namespace pgn_iccf::reader {

namespace {

using namespace pgn_iccf::scan;

// An oversized game's pieces stop short of the blanks, digits and dots just before the scan
// position (look-backs of the trimming and result rules), up to this many bytes.
constexpr std::size_t max_held_tail = 4096;

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

GameReader::GameReader(ByteSource& source, Classifier classifier, std::size_t chunk_size,
                       std::size_t max_game_size, syntax::Location start)
    // The buffer starts small and doubles for a game that does not fit: a directory of many
    // small files opens a reader per file. It is malloc'ed, not a vector: nothing is zeroed.
    : source_(&source), classifier_(classifier), chunk_size_(std::max<std::size_t>(chunk_size, 64)),
      max_game_size_(std::max<std::size_t>(max_game_size, 256)),
      capacity_(std::min({chunk_size_, std::size_t{512} << 10, max_game_size_})),
      small_capacity_(capacity_), base_(start.offset), cursor_(start),
      split_(std::make_unique<detail::SplitState>()) {
    buffer_.reset(static_cast<char*>(std::malloc(capacity_)));
    if (!buffer_) throw std::bad_alloc();
    data_ = buffer_.get();
    between_pos_ = line_from_ = base_;
}

GameReader::GameReader(std::string_view bytes, syntax::Location start, Classifier classifier,
                       std::size_t max_game_size)
    : classifier_(classifier), chunk_size_(bytes.size()),
      max_game_size_(std::max<std::size_t>(max_game_size, 256)), capacity_(max_game_size_),
      small_capacity_(capacity_), data_(bytes.data()), span_size_(bytes.size()),
      base_(start.offset), cursor_(start), split_(std::make_unique<detail::SplitState>()) {
    between_pos_ = line_from_ = base_;
}

GameReader::~GameReader() = default;

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
    if (source_ == nullptr) {
        // In memory: the window is the max_game_size bytes from the first not handed out, as
        // in a buffer that has grown to its limit; full before the end of the bytes, as a
        // buffer filled by the last read is full before a read returns 0.
        if (end_ - begin_ >= max_game_size_) return Fill::full;
        if (end_ == span_size_) {
            eof_ = true;
            return Fill::end;
        }
        std::size_t const to = std::min(span_size_, begin_ + max_game_size_);
        total_read_ += to - end_;
        end_ = to;
        return Fill::read;
    }
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
        std::memcpy(small, data_, end_);
        buffer_.reset(small);
        data_ = small;
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
            std::memcpy(window, data_, end_);
            buffer_.reset(window);
            data_ = window;
            reserved_ = true;
        }
        capacity_ = std::min(capacity_ * 2, max_game_size_);
    }
    // At most 256 KiB per read, whatever the chunk size: the splitter and the parser then
    // find the bytes still in the core's cache after the copy from the kernel.
    constexpr std::size_t max_read = std::size_t{256} << 10;
    auto const want = std::min({chunk_size_, max_read, capacity_ - end_});
    auto const n = source_->read(buffer_.get() + end_, want);
    if (n < 0) {
        io_error_ = source_->error();
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

std::size_t GameReader::held_tail() const { return std::min(max_held_tail, max_game_size_ / 4); }

bool GameReader::line_starts_at(char const* p) const {
    return p == data_ + begin_ ? cursor_.column == 1 : is_line_end(p[-1]);
}

void GameReader::start_game(std::size_t at) {
    using Mode = detail::SplitState::Mode;
    detail::SplitState& st = *split_;
    std::uint64_t const o = base_ + at;
    st.begin = st.pos = st.line_start = st.candidate = st.searched = o;
    st.probe_pos = st.names_upto = o;
    st.depth = 0;
    st.mode = data_[at] == '[' ? Mode::tag_line : Mode::movetext;
    st.line = detail::SplitState::Line::rest;
    st.probe = detail::SplitState::Probe::scan;
    st.in_tags = st.after_blank = st.in_percent = st.check_new_game = false;
    st.probe_found = false;
    st.had_tags = data_[at] == '[';
    st.begin_line_start = line_starts_at(data_ + at);
    st.result = st.result_line = false;
    st.trail_end = o;
    if (st.names.count != 0) {
        if (st.names.slots.size() > 256) {
            st.names = {}; // a huge section: give the memory back
        } else {
            std::fill(st.names.slots.begin(), st.names.slots.end(), detail::TagNames::Slot{});
            st.names.arena.clear();
            st.names.count = 0;
        }
    }
}

// The first byte the splitter may look back on: the game's first byte (not the blanks
// before it on its line, held for text between games), or the first not handed out of an
// oversized game.
std::size_t GameReader::scan_floor() const {
    return split_->begin >= base_ + begin_ ? static_cast<std::size_t>(split_->begin - base_)
                                           : begin_;
}

// A game (not text between games) drops the blanks before it on its line.
void GameReader::drop_lead() {
    char const* const p = data_ + begin_;
    std::size_t const to = scan_floor();
    advance(p, data_ + to);
    begin_ = to;
}

void GameReader::enter_between() {
    phase_ = Phase::between;
    between_pos_ = line_from_ = base_ + begin_;
    line_junk_ = false;
}

std::uint64_t GameReader::scan(bool final, bool force) {
    detail::Splitter s(*split_, data_, base_, scan_floor(), end_, final,
                       classifier_.starts_like_game);
    if (phase_ == Phase::oversized) s.hold(held_tail());
    if (force) s.force();
    return s.run();
}

// Oversized game: the end of what may be handed out now. It stops one byte before the scan's
// anchor (look-back of one byte) and, unless forced, before the blanks, digits and dots just
// before it (look-backs of the trimming and result rules), up to max_held_tail bytes.
std::uint64_t GameReader::safe_end(bool force) {
    detail::Splitter s(*split_, data_, base_, begin_, end_, eof_, classifier_.starts_like_game);
    std::uint64_t const cur = base_ + begin_;
    std::uint64_t const a = std::max(s.anchor(), cur);
    s.catch_up(a);
    char const* const lo = data_ + begin_;
    char const* q = s.at(a);
    if (!force) {
        auto const held = held_tail();
        char const* const stop = q - std::min(static_cast<std::size_t>(q - lo), held);
        while (q != stop && is_held_byte(q[-1])) --q;
    }
    if (q != lo) --q;
    return s.off(q);
}

void GameReader::hand_out(syntax::RawGame& game, std::size_t n, std::uint64_t number) {
    char const* const p = data_ + begin_;
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
        case Phase::between:
            switch (between(game)) {
            case Turn::out:
                return true;
            case Turn::end:
                return false;
            case Turn::again:
                continue;
            case Turn::game:
                break;
            }
            [[fallthrough]];
        case Phase::in_game:
            if (in_game(game)) return true;
            continue;
        case Phase::oversized:
            if (oversized_piece(game)) return true;
            continue;
        }
    }
}

// Between games: skips the bytes that belong to no game from between_pos_ up to p (the
// game's first byte, or the end of the bytes read: `more`). A run of junk lines ends at a line
// without control bytes (a blank line, or a line whose first 4096 bytes are blanks: a bound on
// what is held): `run_ended`, p at that line.
char const* GameReader::skip_between(bool& more, bool& run_ended) {
    char const* const buf = data_;
    char const* const end = buf + end_;
    auto const off = [&](char const* q) { return base_ + std::uint64_t(q - buf); };
    char const* p = buf + (between_pos_ - base_);
    for (;;) {
        if (in_percent_) {
            p = find_line_end(p, end);
            if (p == end) {
                more = true;
                return p;
            }
            in_percent_ = false; // the line end is skipped as whitespace
        }
        std::uint64_t const held = held_tail();
        for (; p != end && is_space(*p); ++p) {
            char const c = *p;
            if (is_line_end(c)) {
                if (line_junk_) {
                    junk_to_ = off(p + 1);
                } else if (junk_from_ != no_junk) {
                    if (c != '\n' || junk_to_ != off(p) || p[-1] != '\r') {
                        run_ended = true; // a blank line
                        return p;
                    }
                    junk_to_ = off(p + 1); // the LF of a junk line's CRLF
                }
                line_junk_ = false;
                line_from_ = off(p + 1);
            } else if (!is_blank(c) && c != '\f' && c != '\v') {
                if (junk_from_ == no_junk) junk_from_ = line_from_;
                line_junk_ = true;
            } else if (junk_from_ != no_junk && !line_junk_ && off(p) - line_from_ >= held) {
                run_ended = true;
                return p;
            }
        }
        if (p == end) {
            more = true;
            return p;
        }
        bool const line_start = line_starts_at(p);
        if (*p == '%' && line_start) {
            if (junk_from_ != no_junk) return p; // the junk run ends before it
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
            return p;
        }
        return p;
    }
}

// Skip the bytes that belong to no game (all the bytes read, if need be: a line of a billion
// NUL bytes goes through a buffer of a few hundred KiB, in pieces of text between games).
GameReader::Turn GameReader::between(syntax::RawGame& game) {
    char const* const buf = data_;
    auto const off = [&](char const* q) { return base_ + std::uint64_t(q - buf); };
    bool more = false;
    bool run_ended = false; // a run of junk lines ended at p
    char const* const p = skip_between(more, run_ended);
    between_pos_ = off(p);
    auto const drop_to = [&](std::uint64_t o) { // bytes of no game, not copied
        if (o <= base_ + begin_) return;
        advance(buf + begin_, buf + (o - base_));
        begin_ = static_cast<std::size_t>(o - base_);
    };
    if (junk_from_ != no_junk) {
        // A run of lines with control bytes: text between games, handed out whole when it
        // ends (at the end of its last line, or before the game that follows on its line), or
        // in pieces at fixed offsets from its start.
        drop_to(junk_from_);
        bool const ended = !more || eof_ || run_ended;
        std::uint64_t const cut = line_junk_ ? off(p) : junk_to_;
        std::uint64_t const piece = junk_piece_size();
        if (cut - junk_from_ > piece) { // the run goes on after this piece
            part_ = junk_pieces_ ? GamePart::text_more : GamePart::text_first;
            junk_pieces_ = true;
            hand_out(game, static_cast<std::size_t>(piece), 0);
            junk_from_ += piece;
            return Turn::out;
        }
        if (ended) {
            part_ = junk_pieces_ ? GamePart::text_more : GamePart::text;
            junk_from_ = no_junk;
            junk_pieces_ = false;
            if (cut == off(p)) line_from_ = cut; // control bytes before a game
            line_junk_ = false;
            if (cut > base_ + begin_) {
                hand_out(game, static_cast<std::size_t>(cut - (base_ + begin_)), 0);
                return Turn::out;
            }
        }
    }
    if (junk_from_ == no_junk) {
        // The current line's leading blanks stay (up to `held`) for text between games that
        // may start after them.
        std::uint64_t const held = held_tail();
        line_from_ = std::max(line_from_, off(p) - std::min(off(p) - base_, held));
        drop_to(line_from_);
    }
    if (more) {
        if (eof_) return Turn::end;
        fill();
        return Turn::again;
    }
    start_game(static_cast<std::size_t>(p - buf));
    phase_ = Phase::in_game;
    return Turn::game;
}

// In a game: scans on to its end and hands it out (or the text before it), or reads more
// (an oversized game once the buffer is full).
bool GameReader::in_game(syntax::RawGame& game) {
    detail::SplitState const& st = *split_;
    std::uint64_t const e = scan(eof_);
    if (e != detail::no_end) {
        char const* const g = data_ + (st.begin - base_);
        auto const n = static_cast<std::size_t>(e - st.begin);
        bool const like_game = st.had_tags || classifier_.starts_like_game(g, g + n);
        char const* const score = like_game ? nullptr : classifier_.score_line(g, g + n);
        if (score != nullptr) {
            // Text above a game score: the text is handed out, and the score is split again
            // from its line on.
            part_ = GamePart::text;
            hand_out(game, static_cast<std::size_t>(score - (data_ + begin_)), 0);
            enter_between();
            return true;
        }
        if (!like_game && !st.result) {
            // Text between games: no game, number 0; with the blanks before it on its line.
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
    return false;
}

// In an oversized game: the next piece, or reads and scans on.
bool GameReader::oversized_piece(syntax::RawGame& game) {
    // Pieces end at fixed offsets from the game's start (the cuts depend only on the bytes),
    // once the scan allows.
    std::uint64_t const cur = base_ + begin_;
    std::uint64_t const piece = std::min(max_piece_size, max_game_size_ / 2);
    std::uint64_t const cut = cur + piece - (cur - over_begin_) % piece;
    if (over_done_ ? cur < over_end_ : cut <= over_safe_) {
        auto n = static_cast<std::size_t>(std::min(cut, over_done_ ? over_end_ : cut) - cur);
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
    // Every byte that may go is out: read and scan on (forcing progress if the window is full
    // of bytes the scan still needs).
    bool const force = fill() == Fill::full;
    std::uint64_t const e = scan(eof_, force);
    if (e != detail::no_end) {
        over_done_ = true;
        over_end_ = e;
    } else {
        over_safe_ = safe_end(force);
    }
    return false;
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

} // namespace pgn_iccf::reader