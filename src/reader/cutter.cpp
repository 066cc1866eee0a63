// The reading room's cutter: blocks cut where a game starts whatever came before (cutter.hpp).
#include "reader/cutter.hpp"

#include "grammar/syntax.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace pgn_iccf::reader {

namespace {

constexpr bool blank_or_cr(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Whether the line [s, e] (e: its last byte that is not a blank) ends with a result token
// preceded by a blank or nothing, and is neither a '%' line nor holds a ';'.
bool ends_with_result(std::string_view line) {
    if (line.empty() || line.front() == '%' || line.find(';') != std::string_view::npos)
        return false;
    for (syntax::ResultSpelling const& s : syntax::result_spellings) {
        std::string_view const r = s.text;
        if (s.result.spelling != syntax::Spelling::standard || !line.ends_with(r)) continue;
        std::size_t const before = line.size() - r.size();
        return before == 0 || line[before - 1] == ' ' || line[before - 1] == '\t';
    }
    return false;
}

// Whether the `[Event "` at c (after a line end) is a cut: a blank line before it, and before
// that a line ending with a result (find_cut).
bool is_cut(std::string_view b, std::size_t c, bool at_line_start) {
    std::size_t k = c - 1; // the line end before c
    while (k > 0 && blank_or_cr(b[k - 1])) --k;
    if (k == 0 || b[k - 1] != '\n') return false; // the line before is not blank
    --k;
    while (k > 0 && blank_or_cr(b[k - 1])) --k;
    // One blank line, short: the bytes an oversized game's window holds back before a line
    // that may end it are a few (splitter.hpp), so the rules, not the window, decide here.
    if (k == 0 || b[k - 1] == '\n' || c - k > 64) return false;
    std::size_t const e = k; // after the last byte that is not a space
    while (k > 0 && b[k - 1] != '\n' && b[k - 1] != '\r') --k;
    if (k == 0 && !at_line_start) return false; // its line may begin before the bytes
    return ends_with_result(b.substr(k, e - k));
}

// The rest of an input after the cutter gave up: the bytes it held, then the source's.
class RestSource final : public ByteSource {
public:
    RestSource(std::string held, ByteSource& source) : held_(std::move(held)), source_(source) {}
    std::ptrdiff_t read(char* dst, std::size_t n) override {
        if (pos_ == held_.size()) return source_.read(dst, n);
        std::size_t const k = std::min(n, held_.size() - pos_);
        std::memcpy(dst, held_.data() + pos_, k);
        pos_ += k;
        if (pos_ == held_.size()) { // the memory back; the source's bytes from now on
            std::string().swap(held_);
            pos_ = 0;
        }
        return static_cast<std::ptrdiff_t>(k);
    }
    std::string error() const override { return source_.error(); }
    std::uint64_t consumed() const override { return source_.consumed(); }

private:
    std::string held_;
    std::size_t pos_ = 0;
    ByteSource& source_;
};

} // namespace

std::size_t find_cut(std::string_view bytes, std::size_t from, std::size_t& line_end,
                     std::size_t max_line, bool at_line_start) {
    static constexpr std::string_view tag = "\n[Event \"";
    line_end = 0;
    std::size_t pos = std::max<std::size_t>(from, 2) - 1;
    while ((pos = bytes.find(tag, pos)) != std::string_view::npos) {
        std::size_t const c = pos + 1;
        if (is_cut(bytes, c, at_line_start)) {
            std::size_t const le = bytes.find('\n', c);
            std::size_t const length = le == std::string_view::npos ? bytes.size() - c : le + 1 - c;
            if (length <= max_line) {
                if (le != std::string_view::npos) line_end = le + 1;
                return c;
            }
        }
        pos = c;
    }
    return 0;
}

BlockCount split_block(Block const& block, Classifier classifier, std::size_t max_game_size,
                       GameBatch& batch) {
    GameReader reader(block.bytes, syntax::Location{block.offset, 1, 1}, classifier, max_game_size);
    std::uint64_t const cut = block.offset + block.size;
    BlockCount count;
    syntax::RawGame g;
    while (reader.next(g)) {
        if (!block.last && g.start.offset >= cut) {
            if (g.start.offset != cut)
                throw std::logic_error("internal error: the block cut at offset " +
                                       std::to_string(cut) +
                                       " is not where a game starts (please report the input)");
            count.lines = g.start.line - 1;
            return count;
        }
        if (!block.last && g.start.offset + g.bytes.size() > cut)
            throw std::logic_error("internal error: a game crosses the block cut at offset " +
                                   std::to_string(cut) + " (please report the input)");
        batch.games.push_back(g);
        batch.parts.push_back(reader.part());
        if (g.number != 0) count.games = g.number;
    }
    if (!block.last)
        throw std::logic_error("internal error: no game starts at the block cut at offset " +
                               std::to_string(cut) + " (please report the input)");
    return count;
}

bool read_block(Block& b, std::string& error) {
    // b.bytes may hold the bytes of an earlier block (Block): they are read over, so that the
    // string grows (and zero-fills) only past the largest block it has held.
    if (b.to_end) {
        // The last block, to the end of the input (less than the block size in general).
        constexpr std::size_t step = std::size_t{64} << 10;
        std::size_t have = 0;
        for (;;) {
            if (b.bytes.size() < have + step) b.bytes.resize(have + step);
            auto const n = b.source->read_at(b.bytes.data() + have, step, b.offset + have, error);
            if (n < 0) {
                b.bytes.resize(have);
                b.source.reset();
                return false;
            }
            have += static_cast<std::size_t>(n);
            if (static_cast<std::size_t>(n) < step) break;
        }
        b.bytes.resize(have);
        b.source.reset();
        b.to_end = false;
        b.size = b.length = b.bytes.size();
        return true;
    }
    b.bytes.resize(b.length);
    auto const n = b.source->read_at(b.bytes.data(), b.length, b.offset, error);
    b.source.reset();
    if (n < 0) return false;
    if (static_cast<std::size_t>(n) != b.length) {
        error = "the file is shorter than when it was opened (it changed while it was read)";
        return false;
    }
    return true;
}

Cutter::Cutter(ByteSource& source, std::size_t target, std::size_t cap, std::size_t max_game_size)
    : source_(source), positional_(source.positional()), target_(std::max<std::size_t>(target, 1)),
      cap_(std::max(cap, target_ + 1)),
      max_line_(std::max<std::size_t>(max_game_size, 256) / 4 - 64) {}

bool Cutter::probe(std::uint64_t at, std::size_t n) {
    auto const r = positional_->read_at(probe_.grow(n), n, at, error_);
    probe_.size += static_cast<std::size_t>(std::max<std::ptrdiff_t>(r, 0));
    if (r < 0 && error_.empty()) error_ = "read error";
    return r == static_cast<std::ptrdiff_t>(n);
}

// A positional input: the cut is looked for in a probe of the bytes around offset_ + target
// (from a few KiB before it: a cut looks back on the lines before it), read here; the block's
// bytes are read by a worker (read_block). So the serial stage reads about 3% of the input.
Cutter::Next Cutter::next_positional(Block& b) {
    if (end_) return Next::end;
    constexpr std::size_t back = std::size_t{2} << 10;
    constexpr std::size_t first = std::size_t{6} << 10, step = std::size_t{64} << 10;
    std::uint64_t const at = offset_;
    probe_at_ = at + target_ - std::min(target_, back);
    probe_.size = 0;
    bool more = probe(probe_at_, static_cast<std::size_t>(at + target_ - probe_at_) + first);
    if (probe_.size == 0 && probe_at_ > at && error_.empty()) {
        // The input ends before the probe (a small file, the end of a large one): the last
        // block, whose end the worker finds as it reads (a small file is not read here).
        b.offset = at;
        b.source = positional_;
        b.size = b.length = 0;
        b.to_end = true;
        b.last = true;
        end_ = true;
        return Next::block;
    }
    for (;;) {
        if (!error_.empty()) {
            // The bytes before the error are the last block, as a reader of the whole input
            // ends at a read error.
            more = false;
        }
        std::size_t line_end = 0;
        std::size_t const c =
            find_cut(probe_.view(), static_cast<std::size_t>(at + target_ - probe_at_), line_end,
                     max_line_, probe_at_ == at);
        b.offset = at;
        b.source = positional_;
        b.to_end = false;
        if (c != 0 && line_end != 0) {
            b.size = static_cast<std::size_t>(probe_at_ + c - at);
            b.length = static_cast<std::size_t>(probe_at_ + line_end - at);
            b.last = false;
            offset_ = probe_at_ + c;
            return Next::block;
        }
        if (!more) {
            std::uint64_t const end = probe_at_ + probe_.size;
            end_ = true;
            if (end == at) return Next::end;
            b.size = b.length = static_cast<std::size_t>(end - at);
            b.last = true;
            offset_ = end;
            return Next::block;
        }
        if (probe_at_ + probe_.size - at >= cap_) {
            b.source.reset();
            rest_ = io::open_positional(positional_, at);
            return Next::rest;
        }
        more = probe(probe_at_ + probe_.size, step);
    }
}

bool Cutter::read_more(std::size_t want) {
    if (end_) return false;
    auto const n = source_.read(held_.grow(want), want);
    held_.size += static_cast<std::size_t>(std::max<std::ptrdiff_t>(n, 0));
    if (n < 0) {
        error_ = source_.error();
        if (error_.empty()) error_ = "read error";
    }
    if (n <= 0) end_ = true;
    read_ += static_cast<std::uint64_t>(std::max<std::ptrdiff_t>(n, 0));
    return n > 0;
}

Cutter::Next Cutter::next(Block& b) {
    if (positional_) return next_positional(b);
    constexpr std::size_t step = std::size_t{64} << 10;
    for (;;) {
        std::size_t const from = std::max(target_, searched_);
        if (held_.size > from) {
            std::size_t line_end = 0;
            std::size_t const c = find_cut(held_.view(), from, line_end, max_line_);
            if (c != 0 && line_end != 0) {
                // The block takes the bytes held; what follows the cut goes to the room the
                // block's string had (the bytes of an earlier block), read over.
                std::size_t const rest = held_.size - c;
                b.bytes.swap(held_.room);
                held_.size = 0;
                std::memcpy(held_.grow(rest), b.bytes.data() + c, rest);
                held_.size = rest;
                b.bytes.resize(line_end); // shrinks: the room held at least the bytes held
                b.size = c;
                b.length = line_end;
                b.to_end = false;
                b.offset = offset_;
                b.last = false;
                offset_ += c;
                searched_ = 0;
                return Next::block;
            }
            // Search on from the cut whose line is not whole yet, or from the last bytes that
            // may begin the pattern.
            searched_ =
                c != 0 ? c : std::max(from, held_.size - std::min<std::size_t>(held_.size, 9));
        }
        if (end_) {
            if (held_.size == 0) return Next::end;
            b.bytes.swap(held_.room);
            b.bytes.resize(held_.size);
            held_.size = 0;
            b.size = b.length = b.bytes.size();
            b.to_end = false;
            b.offset = offset_;
            b.last = true;
            offset_ += b.size;
            return Next::block;
        }
        if (held_.size >= cap_) {
            held_.room.resize(held_.size);
            rest_ = std::make_unique<RestSource>(std::move(held_.room), source_);
            held_ = Held{};
            return Next::rest;
        }
        std::size_t const want = held_.size < target_ ? target_ - held_.size + step : step;
        read_more(std::min(want, cap_ + step - held_.size));
    }
}

} // namespace pgn_iccf::reader
