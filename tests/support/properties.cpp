// The property checks of properties.hpp. Each returns the first failure in words; the
// messages name the input position (offset, game, token) so that a fuzz finding can be read
// without a debugger.
#include "support/properties.hpp"
#include "support/detail.hpp"

#include "grammar/parse.hpp"
#include "io/source.hpp"
#include "pgn/game_reader.hpp"
#include "reader/cutter.hpp"
#include "report/codes.hpp"
#include "report/wording.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace pgn_iccf::properties {

namespace {

using namespace detail;
using chess::Bitboard;
using chess::Color;
using chess::Move;
using chess::MoveKind;
using chess::MoveList;
using chess::PieceType;
using chess::Position;
using chess::Square;
using chess::UndoInfo;
using notation::Letters;
using notation::Notation;
using notation::ReadError;

bool is_line_end(char c) { return c == '\n' || c == '\r'; }
// Whitespace of the reader: ASCII control bytes, space and DEL.
bool is_space(char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7F; }
// What the reader drops between games: blank lines (no other control bytes: those are text
// between games, copied to the rejects file).
bool is_white(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v' || is_line_end(c); }
bool line_start(std::string_view bytes, std::size_t i) {
    return i == 0 || is_line_end(bytes[i - 1]);
}
bool bom_at(std::string_view bytes, std::size_t i, std::size_t end) {
    return end - i >= 3 && bytes.substr(i, 3) == "\xEF\xBB\xBF";
}

// --- split ------------------------------------------------------------------------------

// A source that hands out the bytes in reads of random sizes (1 to 7 bytes a quarter of the
// time, up to 4 KiB otherwise), as pipes and decoders do.
std::unique_ptr<io::ByteSource> choppy_source(std::string_view bytes, std::uint64_t seed) {
    return io::open_memory(bytes, [rng = Rng(seed)]() mutable -> std::size_t {
        return rng.below(4) == 0 ? 1 + rng.below(7) : 1 + rng.below(4096);
    });
}

struct GameSpan {
    std::uint64_t offset = 0, size = 0, number = 0;
    syntax::Location start;
    bool text = false; // text between games (GamePart::text)
    bool operator==(GameSpan const& o) const {
        return offset == o.offset && size == o.size && number == o.number && same(start, o.start) &&
               text == o.text;
    }
};

// Whether [from, to) holds only bytes that belong to no game: whitespace (`control`: control
// bytes too; else blanks only), '%' lines starting in column 1, UTF-8 byte order marks.
// Returns the offset of the first other byte, or `to`.
std::size_t between_end(std::string_view bytes, std::size_t from, std::size_t to,
                        bool control = false) {
    std::size_t i = from;
    while (i < to) {
        if (control ? is_space(bytes[i]) : is_white(bytes[i])) {
            ++i;
        } else if (bytes[i] == '%' && line_start(bytes, i)) {
            while (i < to && !is_line_end(bytes[i])) ++i;
        } else if (bom_at(bytes, i, to)) {
            i += 3;
        } else {
            break;
        }
    }
    return i;
}

// Splits `bytes` read from `source` and checks every game against the input.
std::string split_games(std::string_view bytes, io::ByteSource& source, std::size_t chunk,
                        Lines const& lines, std::vector<GameSpan>& out) {
    out.clear();
    pgn::GameReader reader(source, chunk);
    syntax::RawGame g;
    std::uint64_t end = 0; // end of the previous game
    std::uint64_t games = 0;
    while (reader.next(g)) {
        std::string const where = cat("chunk ", chunk, ", game ", out.size() + 1, ": ");
        bool const text = is_text(reader.part());
        GameSpan s{g.start.offset, g.bytes.size(), g.number, g.start, text};
        // Games count 1, 2, ...; text between games is no game (number 0).
        if (g.number != (text ? 0 : ++games)) return cat(where, "numbered ", g.number);
        if (g.bytes.empty()) return cat(where, "empty game at offset ", s.offset);
        if (s.offset < end || s.offset > bytes.size() || s.size > bytes.size() - s.offset)
            return cat(where, "bytes [", s.offset, ", +", s.size, ") outside the input after ",
                       end);
        if (bytes.substr(s.offset, s.size) != g.bytes)
            return cat(where, "bytes differ from the input at offset ", s.offset, ": ",
                       show(g.bytes), " vs ", show(bytes.substr(s.offset, s.size)));
        if (!same(g.start, lines.at(s.offset)))
            return cat(where, "starts at ", show(g.start), ", counted ", show(lines.at(s.offset)));
        if (auto const e = between_end(bytes, end, s.offset); e != s.offset)
            return cat(where, "byte ", e, " ", show(bytes.substr(e, 8)),
                       " between games belongs to no game");
        // A game starts at its first byte that is no whitespace; text between games may start
        // with blanks and control bytes.
        if (!text && between_end(bytes, s.offset, s.offset + s.size, true) != s.offset)
            return cat(where, "starts with a byte that belongs to no game: ",
                       show(bytes.substr(s.offset, 8)));
        end = s.offset + s.size;
        out.push_back(s);
    }
    if (!reader.io_error().empty()) return cat("chunk ", chunk, ": I/O error ", reader.io_error());
    if (reader.bytes_read() != bytes.size())
        return cat("chunk ", chunk, ": read ", reader.bytes_read(), " of ", bytes.size(), " bytes");
    if (auto const e = between_end(bytes, end, bytes.size()); e != bytes.size())
        return cat("chunk ", chunk, ": byte ", e, " ", show(bytes.substr(e, 8)),
                   " after the last game belongs to no game");
    return {};
}

std::string compare_splits(std::vector<GameSpan> const& a, std::vector<GameSpan> const& b,
                           std::string_view what) {
    if (a.size() != b.size()) return cat(what, ": ", a.size(), " games vs ", b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i]))
            return cat(what, ": game ", i + 1, " is [", a[i].offset, ", +", a[i].size, ") vs [",
                       b[i].offset, ", +", b[i].size, ")");
    return {};
}

// next_batch: the same games, cut into batches by their sizes only.
std::string check_batches(std::string_view bytes, std::vector<GameSpan> const& games,
                          std::size_t chunk, std::size_t target) {
    auto source = io::open_memory(bytes);
    pgn::GameReader reader(*source, chunk);
    pgn::GameBatch batch;
    std::size_t i = 0;
    while (reader.next_batch(batch, target)) {
        std::size_t sum = 0;
        for (std::size_t k = 0; k < batch.games.size(); ++k, ++i) {
            syntax::RawGame const& g = batch.games[k];
            if (i >= games.size()) return cat("next_batch(", target, "): more games than next()");
            GameSpan const s{g.start.offset, g.bytes.size(), g.number, g.start,
                             is_text(batch.parts[k])};
            if (!(s == games[i]) || bytes.substr(s.offset, s.size) != g.bytes)
                return cat("next_batch(", target, "): game ", i + 1, " differs from next()'s");
            sum += g.bytes.size();
            // Games are added while the batch holds less than target bytes.
            if (k + 1 < batch.games.size() && sum >= target)
                return cat("next_batch(", target, "): game ", i + 2, " added to a full batch");
        }
        if (sum < target && i != games.size())
            return cat("next_batch(", target, "): a batch of ", sum, " bytes before the end");
        batch.clear();
    }
    if (i != games.size()) return cat("next_batch(", target, "): ", i, " of ", games.size());
    return {};
}

// --- grammar ------------------------------------------------------------------------------

enum class Ev : std::uint8_t {
    begin_game,
    tag,
    begin_movetext,
    move,
    comment,
    nag,
    begin_variation,
    end_variation,
    result,
    end_game,
    diagnostic,
};

constexpr std::array<std::string_view, 11> event_names = {
    "begin_game",      "tag",           "begin_movetext", "move",     "comment",   "nag",
    "begin_variation", "end_variation", "result",         "end_game", "diagnostic"};

struct Event {
    Ev kind;
    syntax::Token a{}, b{};
    int value = 0; // NAG value, comment kind
    syntax::GameEnd end{};
    syntax::Severity severity = syntax::Severity::warning;
    syntax::SyntaxCode code = syntax::SyntaxCode::count; // diagnostic
    bool operator==(Event const& o) const {
        return kind == o.kind && a.text == o.a.text && same(a.where, o.a.where) &&
               b.text == o.b.text && same(b.where, o.b.where) && value == o.value &&
               end.syntax_error == o.end.syntax_error && end.has_result == o.end.has_result;
    }
};

// Records every event; skips variations (from the top level) or the game when asked.
class Recorder final : public parser::Visitor {
public:
    bool skip_variations = false;
    bool skip_game = false;
    std::vector<Event> events;

    bool begin_game(syntax::RawGame const&) override {
        events.push_back({Ev::begin_game});
        return !skip_game;
    }
    void tag(syntax::Token const& name, syntax::Token const& value) override {
        events.push_back({Ev::tag, name, value});
    }
    void begin_movetext() override { events.push_back({Ev::begin_movetext}); }
    void move(syntax::Token const& move, syntax::Token const& suffix) override {
        events.push_back({Ev::move, move, suffix});
    }
    void comment(syntax::Token const& text, syntax::CommentKind kind) override {
        events.push_back({Ev::comment, text, {}, int(kind)});
    }
    void nag(syntax::Token const& text, std::uint8_t value) override {
        events.push_back({Ev::nag, text, {}, int(value)});
    }
    bool begin_variation(syntax::Token const& open) override {
        events.push_back({Ev::begin_variation, open});
        return !skip_variations;
    }
    void end_variation(syntax::Token const& close) override {
        events.push_back({Ev::end_variation, close});
    }
    void result(syntax::Token const& token, syntax::Result) override {
        events.push_back({Ev::result, token});
    }
    void end_game(syntax::GameEnd const& end) override {
        Event e{Ev::end_game};
        e.end = end;
        events.push_back(e);
    }
    void diagnostic(syntax::Diagnostic const& d) override {
        Event e{Ev::diagnostic};
        e.a = {{}, d.where};
        e.severity = d.severity;
        e.code = d.code;
        events.push_back(e);
    }
};

bool is_result_text(std::string_view t) {
    return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*" || t == "\xC2\xBD-\xC2\xBD" ||
           t == "1/2" || t == "(+)-(-)" || t == "(-)-(+)";
}

// A token of the game: inside its bytes (when not empty) and at the location it claims.
std::string check_token(syntax::RawGame const& g, Lines const& lines, syntax::Token t,
                        std::string_view what) {
    std::uint64_t const first = g.start.offset, last = g.start.offset + g.bytes.size();
    if (!t.text.empty()) {
        char const* const b = g.bytes.data();
        if (t.text.data() < b || t.text.data() + t.text.size() > b + g.bytes.size())
            return cat(what, " ", show(t.text), " lies outside the game's bytes");
        auto const offset = first + static_cast<std::uint64_t>(t.text.data() - b);
        if (t.where.offset != offset)
            return cat(what, " ", show(t.text), " at offset ", offset, " claims offset ",
                       t.where.offset);
    }
    if (t.where.offset < first || t.where.offset > last)
        return cat(what, " ", show(t.text), " at ", show(t.where), " outside the game [", first,
                   ", ", last, "]");
    if (!same(t.where, lines.at(t.where.offset)))
        return cat(what, " ", show(t.text), " claims ", show(t.where), ", counted ",
                   show(lines.at(t.where.offset)));
    return {};
}

std::string check_events(syntax::RawGame const& g, Lines const& lines, std::vector<Event> const& ev,
                         int max_depth) {
    if (ev.size() < 2 || ev.front().kind != Ev::begin_game || ev.back().kind != Ev::end_game)
        return "events do not start with begin_game and end with end_game";
    bool movetext = false, has_result = false, error = false, tags = false;
    int depth = 0;
    std::uint64_t last_offset = 0;
    for (std::size_t i = 1; i + 1 < ev.size(); ++i) {
        Event const& e = ev[i];
        std::string const what = cat("event ", i, " (", event_names[std::size_t(e.kind)], ")");
        if (e.kind == Ev::diagnostic) {
            if (e.code >= syntax::SyntaxCode::count) return cat(what, ": no code");
            if (e.severity == syntax::Severity::error) error = true;
            if (auto f = check_token(g, lines, e.a, what); !f.empty()) return f;
            continue;
        }
        if (e.kind == Ev::begin_game || e.kind == Ev::end_game)
            return cat(what, ": a second begin_game or end_game");
        if (e.kind == Ev::begin_movetext) {
            if (movetext) return cat(what, ": a second begin_movetext");
            movetext = true;
            continue;
        }
        // Comments before the tag section come before its tags; comments after the result
        // (and text after it on its line, delivered as a comment) come after the result.
        bool const leading = e.kind == Ev::comment && !movetext && !tags;
        if (e.kind == Ev::tag) tags = true;
        if (!leading && (e.kind == Ev::tag ? movetext : !movetext))
            return cat(what, movetext ? ": a tag inside the movetext"
                                      : ": movetext before begin_movetext");
        if (has_result && e.kind != Ev::comment) return cat(what, ": after the result");
        if (auto f = check_token(g, lines, e.a, what); !f.empty()) return f;
        if (e.a.where.offset < last_offset)
            return cat(what, " ", show(e.a.text), " at ", show(e.a.where),
                       " comes before the previous token (offset ", last_offset, ")");
        last_offset = e.a.where.offset;
        switch (e.kind) {
        case Ev::tag:
            if (e.a.text.empty()) return cat(what, ": empty tag name");
            if (auto f = check_token(g, lines, e.b, what + " value"); !f.empty()) return f;
            if (e.b.where.offset < e.a.where.offset + e.a.text.size())
                return cat(what, ": value before its name");
            last_offset = e.b.where.offset;
            break;
        case Ev::move:
            if (e.a.text.empty()) return cat(what, ": empty move");
            for (char c : e.a.text)
                if (is_space(c)) return cat(what, ": ", show(e.a.text), " holds whitespace");
            if (auto f = check_token(g, lines, e.b, what + " suffix"); !f.empty()) return f;
            // '!' and '?', first, and check marks among or after them (`e4!+`: "!+").
            for (char c : e.b.text)
                if (c != '!' && c != '?' && c != '+' && c != '#')
                    return cat(what, ": suffix ", show(e.b.text));
            if (!e.b.text.empty() && e.b.text.front() != '!' && e.b.text.front() != '?')
                return cat(what, ": suffix ", show(e.b.text), " starts with a mark");
            // The suffix follows the move, or an `e.p.` cut from it (`exd6e.p.!`).
            if (auto const gap = e.b.where.offset - (e.a.where.offset + e.a.text.size());
                e.b.where.offset < e.a.where.offset + e.a.text.size() ||
                (gap != 0 &&
                 (gap != 4 || std::string_view(e.a.text.data() + e.a.text.size(), 4) != "e.p.")))
                return cat(what, ": suffix at ", e.b.where.offset, " does not follow the move");
            last_offset = e.b.where.offset;
            break;
        case Ev::comment:
            if (e.value == int(syntax::CommentKind::brace) &&
                e.a.text.find('}') != std::string_view::npos)
                return cat(what, ": brace comment holding '}'");
            if (e.value == int(syntax::CommentKind::rest_of_line) &&
                (e.a.text.find('\n') != std::string_view::npos ||
                 e.a.text.find('\r') != std::string_view::npos))
                return cat(what, ": ';' comment holding a line end");
            break;
        case Ev::nag:
            if (e.a.text.empty()) return cat(what, ": empty NAG");
            if (e.a.text[0] == '$') {
                int v = 0;
                for (char c : e.a.text.substr(1)) {
                    if (c < '0' || c > '9' || v > 255) return cat(what, ": NAG ", show(e.a.text));
                    v = v * 10 + (c - '0');
                }
                if (v != e.value) return cat(what, ": NAG ", show(e.a.text), " as ", e.value);
            }
            break;
        case Ev::begin_variation:
            if (e.a.text != "(") return cat(what, ": opens with ", show(e.a.text));
            if (++depth > max_depth) return cat(what, ": nesting deeper than ", max_depth);
            break;
        case Ev::end_variation:
            if (e.a.text != ")") return cat(what, ": closes with ", show(e.a.text));
            if (--depth < 0) return cat(what, ": closes a variation never opened");
            break;
        case Ev::result:
            if (!is_result_text(e.a.text)) return cat(what, ": result ", show(e.a.text));
            if (depth != 0) return cat(what, ": result inside a variation");
            has_result = true;
            break;
        default:
            break;
        }
    }
    syntax::GameEnd const& end = ev.back().end;
    if (end.syntax_error != error)
        return cat("end_game: syntax_error ", end.syntax_error, " but error diagnostics: ", error);
    if (end.has_result != has_result)
        return cat("end_game: has_result ", end.has_result, " but result events: ", has_result);
    if (!error && depth != 0) return cat("game ends inside ", depth, " variations, without error");
    return {};
}

// The events a visitor that skips every variation must see: begin_variation and
// end_variation of the outermost ones, nothing between; no diagnostics compared.
std::vector<Event> outside_variations(std::vector<Event> const& ev) {
    std::vector<Event> r;
    int depth = 0;
    for (Event const& e : ev) {
        if (e.kind == Ev::diagnostic) continue;
        if (e.kind == Ev::end_game) {
            r.push_back(e);
        } else if (e.kind == Ev::begin_variation) {
            if (depth++ == 0) r.push_back(e);
        } else if (e.kind == Ev::end_variation) {
            if (--depth == 0) r.push_back(e);
        } else if (depth == 0) {
            r.push_back(e);
        }
    }
    return r;
}

std::string check_game_events(syntax::RawGame const& g, Lines const& lines) {
    parser::ParseOptions po;
    po.max_variation_depth = 40; // reachable by small inputs
    Recorder all;
    parser::parse_game(g, all, po);
    if (auto f = check_events(g, lines, all.events, po.max_variation_depth); !f.empty())
        return cat("game ", g.number, " at ", show(g.start), ": ", f);
    Recorder skipping;
    skipping.skip_variations = true;
    parser::parse_game(g, skipping, po);
    std::vector<Event> const want = outside_variations(all.events);
    std::vector<Event> got;
    for (Event const& e : skipping.events)
        if (e.kind != Ev::diagnostic) got.push_back(e);
    if (got.size() != want.size())
        return cat("game ", g.number, ": skipping variations gives ", got.size(),
                   " events instead of ", want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        if (!(got[i] == want[i]))
            return cat("game ", g.number, ": skipping variations changes event ", i, " (",
                       event_names[std::size_t(got[i].kind)], " ", show(got[i].a.text), ")");
    Recorder none;
    none.skip_game = true;
    parser::parse_game(g, none, po);
    if (none.events.size() != 2 || none.events[1].kind != Ev::end_game ||
        none.events[1].end.syntax_error || none.events[1].end.has_result)
        return cat("game ", g.number, ": a skipped game gets more than end_game");
    return {};
}

// --- notation -----------------------------------------------------------------------------

std::string move_name(Position const& pos, Move m) {
    return std::string(notation::write_numeric(pos, m).view());
}

std::string read_back(Position const& pos, Move m, std::string_view text, Letters const* letters,
                      std::string_view what) {
    notation::ReadOptions opt;
    opt.letters = letters;
    notation::ReadResult const r = notation::read_move(pos, text, opt);
    if (r.error != ReadError::none)
        return cat(what, " ", show(text), " of ", move_name(pos, m), " in ", pos.fen(),
                   " does not read back: ", report::read_error_words(r.error));
    if (!(r.move == m))
        return cat(what, " ", show(text), " of ", move_name(pos, m), " in ", pos.fen(),
                   " reads back as ", move_name(pos, r.move));
    return {};
}

// The check mark a written move must carry.
std::string_view mark_of(std::string_view text) {
    if (text.ends_with('#')) return "#";
    if (text.ends_with('+')) return "+";
    return "";
}

// The sixteen positions of the move target.
constexpr std::array<std::string_view, 16> move_positions = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
    "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1",
    "4k3/8/8/8/8/5N2/8/1N2K1N1 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "4k3/8/8/8/8/8/8/R4KR1 w GA - 0 1",
    "4k3/8/8/8/8/8/8/R4K1R w HA - 0 1",
    "rk6/8/8/8/8/8/8/RK6 w Aa - 0 1",
    "4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1",
    "8/R3P2k/8/8/8/8/8/K7 w - - 0 1",
    "2r3k1/1P3ppp/8/8/8/8/5PPP/6K1 w - - 0 1",
};

// --- chess --------------------------------------------------------------------------------

std::vector<Move> sorted_moves(MoveList const& l) {
    std::vector<Move> v(l.begin(), l.end());
    std::sort(v.begin(), v.end(), [](Move a, Move b) {
        return std::memcmp(&a, &b, sizeof a) < 0; // any strict order
    });
    return v;
}

// Derived state of a position that operator== does not compare.
std::string compare_state(Position const& a, Position const& b, std::string_view what) {
    if (!(a == b)) return cat(what, ": ", a.fen(), " vs ", b.fen());
    if (a.checkers() != b.checkers()) return cat(what, ": checkers differ in ", a.fen());
    for (Color c : {Color::white, Color::black})
        if (a.blockers_for_king(c) != b.blockers_for_king(c))
            return cat(what, ": pinned pieces differ in ", a.fen());
    MoveList la, lb;
    a.generate_legal(la);
    b.generate_legal(lb);
    if (sorted_moves(la) != sorted_moves(lb)) return cat(what, ": legal moves differ in ", a.fen());
    return {};
}

// Move generation of one position against itself: is_legal over every from/to pair and
// kind, legal_moves_to, count_legal_moves, has_legal_move.
std::string check_generation(Position const& pos) {
    // The table-free attack tests (Position::attacked, chess::reaching) against the
    // sliding-attack tables, on every square, with the board's occupancy and with either king
    // lifted off it.
    Bitboard const all = pos.pieces();
    for (int s = 0; s < 64; ++s) {
        Square const sq(s);
        for (Bitboard occ : {all, all ^ pos.king_square(Color::white).bb(),
                             all ^ pos.king_square(Color::black).bb()})
            for (Color c : {Color::white, Color::black})
                if (pos.attacked(sq, occ, c) != (pos.attackers_to(sq, occ, c) != 0))
                    return cat(pos.fen(), ": attacked(", s, ") disagrees with attackers_to");
        for (PieceType t : {PieceType::knight, PieceType::bishop, PieceType::rook, PieceType::queen,
                            PieceType::king})
            if (chess::reaching(t, sq, all, all) != (chess::attacks(t, sq, all) & all))
                return cat(pos.fen(), ": reaching(", int(t), ", ", s, ") disagrees with attacks");
    }
    MoveList legal;
    pos.generate_legal(legal);
    if (pos.count_legal_moves() != legal.size)
        return cat(pos.fen(), ": count_legal_moves ", pos.count_legal_moves(), " but ", legal.size,
                   " generated");
    if (pos.has_legal_move() != (legal.size > 0)) return cat(pos.fen(), ": has_legal_move wrong");
    for (Move m : legal)
        if (!pos.is_legal(m)) return cat(pos.fen(), ": generated ", move_name(pos, m), " illegal");
    for (int from = 0; from < 64; ++from) {
        for (int to = 0; to < 64; ++to) {
            for (Move m : {Move(Square(from), Square(to)),
                           Move(Square(from), Square(to), MoveKind::promotion, PieceType::queen),
                           Move(Square(from), Square(to), MoveKind::promotion, PieceType::knight),
                           Move(Square(from), Square(to), MoveKind::en_passant),
                           Move(Square(from), Square(to), MoveKind::castling)})
                if (pos.is_legal(m) != legal.contains(m))
                    return cat(pos.fen(), ": is_legal(", from, "->", to, " kind ", int(m.kind()),
                               ") is ", pos.is_legal(m), " against generation");
        }
    }
    for (PieceType t : {PieceType::pawn, PieceType::knight, PieceType::bishop, PieceType::rook,
                        PieceType::queen, PieceType::king}) {
        for (int to = 0; to < 64; ++to) {
            MoveList got;
            pos.legal_moves_to(t, Square(to), got);
            MoveList want;
            for (Move m : legal)
                if (m.kind() != MoveKind::castling && m.to() == Square(to) &&
                    pos.piece_on(m.from()).type() == t)
                    want.push(m);
            if (sorted_moves(got) != sorted_moves(want))
                return cat(pos.fen(), ": legal_moves_to(", int(t), ", ", to, ") gives ", got.size,
                           " moves, generation ", want.size);
        }
    }
    return {};
}

// Make/unmake of legal (or null) move m: restores the position; the position after equals
// the one read from its FEN; gives_check agrees.
std::string check_make_unmake(Position const& pos, Move m) {
    Position p = pos;
    bool const check = m.is_null() ? false : p.gives_check(m);
    UndoInfo u;
    p.do_move(m, u);
    std::string const what =
        cat("after ", m.is_null() ? "--" : move_name(pos, m), " in ", pos.fen());
    if (!m.is_null() && check != p.in_check())
        return cat(what, ": gives_check ", check, " but in check ", p.in_check());
    Position fresh;
    std::string error;
    if (!(error = pgn_iccf::report::fen_message(fresh.set_fen(p.fen(), p.chess960()))).empty())
        return cat(what, ": its FEN ", p.fen(), " is refused: ", error);
    if (auto f = compare_state(p, fresh, what + " against its FEN"); !f.empty()) return f;
    p.undo_move(m, u);
    return compare_state(p, pos, what + ", undone");
}

} // namespace

std::uint64_t seed_of(std::string_view bytes) {
    std::uint64_t h = 0xCBF29CE484222325ULL;
    for (char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001B3ULL;
    }
    return h;
}

// Blocks (src/reader/cutter.hpp): the input cut by the Cutter (targets from 1 byte, a cap
// that may send the rest to one reader), each block split on its own and its games located
// and numbered from the blocks before (as the pipeline's numbering stage does), gives exactly
// what one GameReader gives over the whole input, pieces of oversized games included.
std::string check_blocks(std::string_view bytes, Rng& rng) {
    struct Piece {
        syntax::RawGame g; // g.bytes: a view into `bytes`, valid after the reader's next read
        pgn::GamePart part;
    };
    std::size_t const max_game =
        rng.below(2) == 0 ? pgn::GameReader::default_max_game_size : 256 + rng.below(3000);
    std::vector<Piece> want, got;
    {
        auto source = io::open_memory(bytes);
        pgn::GameReader reader(*source, 64 + rng.below(5000), max_game);
        syntax::RawGame g;
        while (reader.next(g)) {
            g.bytes = bytes.substr(g.start.offset, g.bytes.size());
            want.push_back({g, reader.part()});
        }
    }
    std::size_t const target = 1 + rng.below(rng.below(2) == 0 ? 16 : 4096);
    std::size_t const cap = target + 1 + rng.below(8192);
    // A stream (the cutter reads every byte) or a positional input (the cutter reads probes,
    // read_block the blocks).
    struct Stream final : io::ByteSource {
        std::unique_ptr<io::ByteSource> inner;
        std::ptrdiff_t read(char* d, std::size_t n) override { return inner->read(d, n); }
        std::uint64_t consumed() const override { return inner->consumed(); }
    };
    bool const positional = rng.below(2) == 0;
    auto choppy = choppy_source(bytes, rng.next());
    Stream stream;
    stream.inner = std::move(choppy);
    std::unique_ptr<io::ByteSource> memory = io::open_memory(bytes);
    io::ByteSource& source = positional ? *memory : static_cast<io::ByteSource&>(stream);
    reader::Cutter cutter(source, target, cap, max_game);
    reader::Block block;
    std::uint64_t line = 1, games = 0;
    std::string failure;
    auto add = [&](syntax::RawGame g, pgn::GamePart part) {
        if (g.start.offset + g.bytes.size() <= bytes.size() &&
            bytes.substr(g.start.offset, g.bytes.size()) == g.bytes)
            g.bytes = bytes.substr(g.start.offset, g.bytes.size());
        else
            g.bytes = {}; // not the input's bytes at its offset: differs from any piece
        g.start.line += static_cast<std::uint32_t>(line - 1);
        if (g.number != 0) g.number += games;
        got.push_back({g, part});
    };
    for (;;) {
        auto const next = cutter.next(block);
        if (next == reader::Cutter::Next::end) break;
        if (next == reader::Cutter::Next::rest) {
            pgn::GameReader rest(cutter.rest(), 64 + rng.below(5000), max_game,
                                 syntax::Location{cutter.rest_offset(), 1, 1});
            syntax::RawGame g;
            while (rest.next(g)) add(g, rest.part());
            break;
        }
        if (block.source) {
            std::string error;
            if (!reader::read_block(block, error)) return cat("read_block: ", error);
        }
        if (block.offset + block.size > bytes.size() ||
            bytes.substr(block.offset, block.bytes.size()) != block.bytes)
            return cat("block at ", block.offset, " does not hold the input's bytes");
        pgn::GameBatch batch;
        reader::BlockCount count;
        try {
            count = reader::split_block(block, pgn::game_classifier(), max_game, batch);
        } catch (std::logic_error const& e) {
            return cat("target ", target, ", cap ", cap, ", max game ", max_game, ": ", e.what());
        }
        for (std::size_t i = 0; i < batch.games.size(); ++i) add(batch.games[i], batch.parts[i]);
        line += count.lines;
        games += count.games;
        if (block.last) break;
    }
    if (!cutter.error().empty()) return cat("cutter read error ", cutter.error());
    std::string const what = cat(positional ? "positional " : "", "blocks of ", target, " (cap ",
                                 cap, ", max game ", max_game, ")");
    if (want.size() != got.size()) return cat(what, ": ", got.size(), " pieces vs ", want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        syntax::RawGame const &a = want[i].g, &b = got[i].g;
        if (a.start.offset != b.start.offset || a.bytes != b.bytes || a.number != b.number ||
            !same(a.start, b.start) || want[i].part != got[i].part)
            return cat(what, ": piece ", i + 1, " is [", b.start.offset, ", +", b.bytes.size(),
                       ") game ", b.number, " at ", show(b.start), ", one reader's [",
                       a.start.offset, ", +", a.bytes.size(), ") game ", a.number, " at ",
                       show(a.start));
    }
    return {};
}

std::string check_split(std::string_view bytes, SplitStats* stats) {
    Lines const lines(bytes);
    Rng rng(seed_of(bytes));
    std::size_t const chunk_a = 64 + rng.below(2000);
    std::size_t const chunk_b = 64 + rng.below(100000);
    std::vector<GameSpan> a, b;
    auto choppy = choppy_source(bytes, rng.next());
    if (auto f = split_games(bytes, *choppy, chunk_a, lines, a); !f.empty()) return f;
    auto memory = io::open_memory(bytes);
    if (auto f = split_games(bytes, *memory, chunk_b, lines, b); !f.empty()) return f;
    if (auto f = compare_splits(a, b, cat("chunks ", chunk_a, " and ", chunk_b)); !f.empty())
        return f;
    if (auto f = check_batches(bytes, a, 64 + rng.below(5000), 1 + rng.below(4000)); !f.empty())
        return f;
    if (auto f = check_blocks(bytes, rng); !f.empty()) return f;
    if (stats)
        stats->games = static_cast<std::uint64_t>(
            std::count_if(a.begin(), a.end(), [](GameSpan const& s) { return !s.text; }));
    return {};
}

std::string check_grammar(std::string_view bytes) {
    Lines const lines(bytes);
    syntax::RawGame whole;
    whole.bytes = bytes;
    whole.number = 1;
    if (auto f = check_game_events(whole, lines); !f.empty()) return "whole input as a game: " + f;
    auto source = io::open_memory(bytes);
    pgn::GameReader reader(*source, 64 + seed_of(bytes) % 5000);
    syntax::RawGame g;
    while (reader.next(g))
        if (auto f = check_game_events(g, lines); !f.empty()) return f;
    return {};
}

std::string check_written_move(Position const& pos, Move m, bool every_language) {
    Position p = pos;
    UndoInfo u;
    p.do_move(m, u);
    bool const mate = p.is_checkmate();
    bool const check = p.in_check();
    p.undo_move(m, u);
    std::string_view const mark = mate ? "#" : check ? "+" : "";
    notation::Mark const known = mate    ? notation::Mark::mate
                                 : check ? notation::Mark::check
                                         : notation::Mark::none;
    auto const languages = notation::all_languages();
    auto check_language = [&](Letters const& l) -> std::string {
        notation::WriteOptions wo;
        wo.letters = &l;
        Position q = pos;
        auto const san = notation::write_san(q, m, wo);
        if (!(q == pos)) return cat("write_san changed the position ", pos.fen());
        if (san.view() != notation::write_san(pos, m, known, wo).view())
            return cat("the two write_san of ", move_name(pos, m), " differ in ", pos.fen());
        if (mark_of(san.view()) != mark)
            return cat("SAN ", show(san.view()), " in ", pos.fen(), " should end in '", mark, "'");
        if (auto f = read_back(pos, m, san.view(), &l, cat("SAN (", l.code, ")")); !f.empty())
            return f;
        auto const lan = notation::write_lan(q, m, wo);
        if (lan.view() != notation::write_lan(pos, m, known, wo).view())
            return cat("the two write_lan of ", move_name(pos, m), " differ in ", pos.fen());
        if (mark_of(lan.view()) != mark)
            return cat("LAN ", show(lan.view()), " in ", pos.fen(), " should end in '", mark, "'");
        return read_back(pos, m, lan.view(), &l, cat("LAN (", l.code, ")"));
    };
    if (every_language) {
        for (Letters const& l : languages)
            if (auto f = check_language(l); !f.empty()) return f;
    } else {
        auto const pick = std::size_t(m.from().index() + m.to().index()) % languages.size();
        for (Letters const* l : {&notation::english(), &languages.back(), &languages[pick]})
            if (auto f = check_language(*l); !f.empty()) return f;
    }
    return read_back(pos, m, notation::write_numeric(pos, m).view(), nullptr, "numeric");
}

std::string check_move_token(Position const& pos, std::string_view token,
                             notation::ReadOptions const& options, bool* accepted) {
    notation::ReadResult const r = notation::read_move(pos, token, options);
    if (accepted) *accepted = r.error == ReadError::none;
    std::string const what = cat(show(token), " in ", pos.fen());
    MoveList legal;
    pos.generate_legal(legal);
    if (r.error == ReadError::none) {
        if (!legal.contains(r.move) || !pos.is_legal(r.move))
            return cat(what, " read as the illegal move ", move_name(pos, r.move));
        if (r.short_promotion && !options.iccf_short_promotion)
            return cat(what, " read in the four-digit promotion form, which is off");
        if (auto f = check_written_move(pos, r.move); !f.empty()) return cat(what, ": ", f);
    } else if (r.error == ReadError::ambiguous) {
        if (r.candidate_count < 2) return cat(what, " ambiguous with ", int(r.candidate_count));
        for (int i = 0; i < std::min<int>(r.candidate_count, int(r.candidates.size())); ++i)
            if (!legal.contains(r.candidates[std::size_t(i)]))
                return cat(what, " ambiguous with an illegal candidate");
    }
    std::array<Move, 8> out{};
    int const n = notation::suggest_numeric(pos, token, out);
    if (n < 0 || n > int(out.size())) return cat(what, ": ", n, " suggestions");
    for (int i = 0; i < n; ++i) {
        if (!legal.contains(out[std::size_t(i)]))
            return cat(what, ": suggestion ", i, " is an illegal move");
        for (int k = 0; k < i; ++k)
            if (out[std::size_t(k)] == out[std::size_t(i)])
                return cat(what, ": suggestion ", move_name(pos, out[std::size_t(i)]), " twice");
    }
    return {};
}

std::string check_move_input(std::string_view bytes) {
    if (bytes.size() < 2) return {};
    Position pos;
    std::string_view const fen = move_positions[static_cast<unsigned char>(bytes[0]) & 15U];
    if (!pos.set_fen(fen).ok()) return cat("the move target's position ", fen, " is refused");
    auto const languages = notation::all_languages();
    auto const b = static_cast<unsigned char>(bytes[1]);
    notation::ReadOptions opt;
    opt.letters = &languages[(b & 31U) % languages.size()];
    opt.iccf_short_promotion = (b & 32U) != 0;
    return check_move_token(pos, bytes.substr(2), opt);
}

std::string check_fen(std::string_view fen, bool chess960) {
    Position pos;
    std::string error;
    if (!(error = pgn_iccf::report::fen_message(pos.set_fen(fen, chess960))).empty()) {
        if (error.empty()) return cat("FEN ", show(fen), " refused without a message");
        return {};
    }
    if (chess960 && !pos.chess960()) return cat("FEN ", show(fen), " read as Chess960 is not");
    std::string const out = pos.fen();
    Position again;
    if (!(error = pgn_iccf::report::fen_message(again.set_fen(out, pos.chess960()))).empty())
        return cat("FEN ", show(fen), " written as ", out, " is refused: ", error);
    if (auto f = compare_state(again, pos, cat("FEN ", show(fen), " written as ", out)); !f.empty())
        return f;
    if (again.fen() != out) return cat("FEN ", out, " is written again as ", again.fen());
    // The side not to move is never in check.
    Square const their_king = pos.king_square(~pos.side_to_move());
    if (pos.attackers_to(their_king) & pos.pieces(pos.side_to_move()))
        return cat("FEN ", out, ": the side not to move is in check");
    if (auto f = check_generation(pos); !f.empty()) return f;
    MoveList legal;
    pos.generate_legal(legal);
    for (Move m : legal) {
        if (auto f = check_make_unmake(pos, m); !f.empty()) return f;
        if (auto f = check_written_move(pos, m, false); !f.empty()) return f;
    }
    if (!pos.in_check())
        if (auto f = check_make_unmake(pos, Move::null_move()); !f.empty()) return f;
    return {};
}

std::string check_fen_input(std::string_view bytes) {
    std::string_view fen = bytes;
    if (auto const at = bytes.find("[FEN \""); at != std::string_view::npos) {
        fen = bytes.substr(at + 6);
        fen = fen.substr(0, fen.find('"'));
    }
    if (auto f = check_fen(fen, false); !f.empty()) return f;
    return check_fen(fen, true);
}

} // namespace pgn_iccf::properties
