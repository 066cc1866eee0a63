// Issue 9: the splitter's time and memory stay linear in the input, whatever its shape
// (src/reader/window.hpp, splitter.hpp). Hostile shapes: a long line of NUL bytes; one single-line
// movetext; one game with a huge comment; hundreds of thousands of blank-separated tag pairs
// (quadratic when each tag looked back over the section); one long
// tag section; a huge introductory comment; comment lines and text after a result (issue 12);
// a game larger than max_game_size, followed by normal games.
//
// Each input is PGN_ICCF_LINEAR_MB megabytes (default 32: a reader that rescans a game after
// every read takes seconds to minutes on each), generated in memory and read through
// GameReader. Checked: (a) the games, the pieces of oversized games and the bytes between them
// reproduce the input, with the expected game boundaries; (b) the time grows linearly: the
// shape at full size takes at most twice as long per byte as the same shape at a quarter of
// the size, plus 20 ms, with reads of 16 KiB (a reader that rescans a game after every read
// takes 16 times as long at 4 times the size, and fails by far); (c) the buffer stays bounded.
// The times are this thread's CPU time, so the other tests ctest runs at the same time do not
// count, and each shape is compared with itself, so a build whose code paths differ in speed
// (sanitizers, portable scans) does not either. (CI failed once when the bound was a fixed
// multiple of the speed of real games: under AddressSanitizer the tag shapes are slower still.)
// With --log_level=message the MB/s of each shape are printed; tests/bench/linear_bench.sh
// runs this at 100 MB for the figures.
#define BOOST_TEST_MODULE linear
#include <boost/test/unit_test.hpp>

#include "pgn/game_reader.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using namespace pgn_iccf;
namespace fs = std::filesystem;
namespace utf = boost::unit_test;

namespace {

fs::path const data_dir = PGN_ICCF_DATA_DIR;
std::size_t const mib = std::size_t{1} << 20;

std::size_t input_size() {
    if (char const* s = std::getenv("PGN_ICCF_LINEAR_MB"))
        if (auto const v = std::strtoull(s, nullptr, 10); v != 0) return v * 1000000;
    return 32'000'000;
}

std::string slurp(fs::path const& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Real games: the files of data/corpus, repeated to at least n bytes.
std::string corpus(std::size_t n) {
    std::vector<fs::path> files;
    for (auto const& e : fs::directory_iterator(data_dir / "corpus"))
        if (e.path().extension() == ".pgn") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::string unit;
    for (auto const& f : files) unit += slurp(f);
    std::string s;
    s.reserve(n + unit.size());
    while (s.size() < n) s += unit;
    return s;
}

// `unit` repeated until `s` holds at least n more bytes.
void repeat(std::string& s, std::string_view unit, std::size_t n) {
    std::size_t const target = s.size() + n;
    s.reserve(target + unit.size());
    while (s.size() < target) s += unit;
}

// What a reader handed out: each RawGame's place and part, checked against the input while
// its view is alive.
struct Piece {
    std::uint64_t offset;
    std::size_t size;
    std::uint64_t number;
    pgn::GamePart part;
    std::uint32_t line, column;
};

struct Run {
    double seconds = 0;
    std::vector<Piece> pieces;
    bool bytes_match = true;
    std::size_t max_capacity = 0;
    std::uint64_t bytes_read = 0;
};

// CPU time of the calling thread (GameReader over memory reads in it).
double thread_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Reads of 16 KiB: a reader that rescans a game after each read does 16 times the work it
// would do with the usual 256 KiB reads, a linear one the same work.
std::size_t const read_size = std::size_t{16} << 10;

Run read_all(std::string_view input, std::size_t max_game_size) {
    auto source = io::open_memory(input);
    Run r;
    auto const t0 = thread_seconds();
    pgn::GameReader reader(*source, read_size, max_game_size);
    syntax::RawGame g;
    while (reader.next(g)) {
        r.pieces.push_back({g.start.offset, g.bytes.size(), g.number, reader.part(), g.start.line,
                            g.start.column});
        if (g.start.offset + g.bytes.size() > input.size() ||
            std::memcmp(input.data() + g.start.offset, g.bytes.data(), g.bytes.size()) != 0)
            r.bytes_match = false;
        r.max_capacity = std::max(r.max_capacity, reader.buffer_capacity());
    }
    r.seconds = thread_seconds() - t0;
    r.bytes_read = reader.bytes_read();
    BOOST_TEST(reader.io_error().empty());
    return r;
}

// A game as the caller sees it: whole, or its pieces put together.
struct Game {
    std::uint64_t offset;
    std::uint64_t size;
    bool oversized;
    bool operator==(Game const&) const = default;
};

std::ostream& operator<<(std::ostream& os, Game const& g) {
    return os << "{" << g.offset << ", " << g.size << (g.oversized ? ", oversized}" : "}");
}

// Bytes that belong to no game: whitespace (control bytes included), '%' lines, BOMs.
bool skippable(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c == '%' || c == 0xEF) { // a whole line / a BOM
            auto const nl = s.find_first_of("\r\n", i);
            i = nl == std::string_view::npos ? s.size() : nl;
        } else if (c > 0x20 && c != 0x7F) {
            return false;
        }
    }
    return true;
}

// (a) The pieces lie in input order; each is where its location (offset, line, column) says;
// the bytes between games are skippable; an oversized game's pieces are contiguous, carry one
// number, go first, middle..., last, and are at most max_piece_size bytes. Returns the games.
std::vector<Game> games_of(std::string_view input, Run const& r) {
    BOOST_TEST(r.bytes_match);
    BOOST_TEST(r.bytes_read == input.size());
    std::vector<Game> games;
    std::uint64_t pos = 0;
    std::uint32_t line = 1, column = 1;
    auto walk = [&](std::uint64_t to) {
        for (; pos < to; ++pos) {
            char const c = input[pos];
            if (c == '\n' || (c == '\r' && (pos + 1 == input.size() || input[pos + 1] != '\n'))) {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
    };
    bool open = false;
    std::uint64_t number = 0;
    bool ok = true;
    for (auto const& p : r.pieces) {
        ok = ok && p.offset >= pos;
        if (!ok) break;
        auto const gap = input.substr(pos, p.offset - pos);
        ok = open ? gap.empty() : skippable(gap);
        walk(p.offset);
        ok = ok && p.line == line && p.column == column;
        if (p.part == pgn::GamePart::text || p.part == pgn::GamePart::text_first ||
            p.part == pgn::GamePart::text_more) { // text between games: no game, numbered 0
            ok = ok && !open && p.number == 0;
        } else if (p.part == pgn::GamePart::whole || p.part == pgn::GamePart::oversized_first) {
            ok = ok && !open && p.number == ++number;
            games.push_back({p.offset, p.size, p.part != pgn::GamePart::whole});
            open = p.part == pgn::GamePart::oversized_first;
        } else {
            ok = ok && open && p.number == number;
            games.back().size += p.size;
            open = p.part != pgn::GamePart::oversized_last;
        }
        ok = ok && (p.part == pgn::GamePart::whole || p.size <= pgn::GameReader::max_piece_size);
        if (!ok) break;
        walk(p.offset + p.size);
    }
    BOOST_TEST(ok, "piece layout broken at game " << number);
    BOOST_TEST(!open);
    BOOST_TEST(skippable(input.substr(std::min<std::uint64_t>(pos, input.size()))));
    return games;
}

double mb_per_s(std::size_t bytes, double seconds) {
    return static_cast<double>(bytes) / 1e6 / std::max(seconds, 1e-9);
}

// (b) Linear time: `big` (read in `r`) takes at most 2 * (its size / the size of `small`) as
// long as `small` plus 20 ms. A failing comparison is measured again up to twice, keeping the
// best time of each, so that a moment of noise does not fail the test; a reader that is not
// linear fails every time.
void check_linear(std::string_view big, Run const& r, std::string_view small,
                  std::size_t max_game_size) {
    double const ratio = static_cast<double>(big.size()) / static_cast<double>(small.size());
    double t_big = r.seconds;
    double t_small = read_all(small, max_game_size).seconds;
    for (int again = 0; again != 2 && t_big > 2 * ratio * t_small + 0.02; ++again) {
        t_big = std::min(t_big, read_all(big, max_game_size).seconds);
        t_small = std::min(t_small, read_all(small, max_game_size).seconds);
    }
    BOOST_TEST_MESSAGE(big.size() << " bytes: " << t_big << " s, " << mb_per_s(big.size(), t_big)
                                  << " MB/s; " << small.size() << " bytes: " << t_small << " s, "
                                  << mb_per_s(small.size(), t_small) << " MB/s; max_game_size "
                                  << max_game_size << ", buffer " << r.max_capacity << " bytes");
    BOOST_TEST(t_big <= 2 * ratio * t_small + 0.02,
               "time not linear: " << t_big << " s for " << big.size() << " bytes, " << t_small
                                   << " s for " << small.size() << " bytes");
}

// A hostile input and the games it must give.
struct Shape {
    char const* name;
    std::string input;
    std::vector<Game> games; // whole-game boundaries (a game may come in pieces)
    std::size_t max_capacity_default;
};

// A normal game to follow each hostile part: the reader must be back in step after it.
std::string_view const after = "[Event \"after\"]\n[Result \"*\"]\n\n1. d4 d5 *\n";

Game whole(std::size_t from, std::size_t to) { return {from, to - from, false}; }

Shape nul_line(std::size_t n) {
    Shape s{"long line of NUL bytes", std::string(n, '\0'), {}, 512 << 10};
    s.input += after;
    s.games = {whole(n, s.input.size())};
    return s;
}

Shape movetext_line(std::size_t n) {
    Shape s{"single-line movetext", "[Event \"one line\"]\n[Site \"?\"]\n\n", {}, 64 * mib};
    repeat(s.input, "e4 e5 ", n);
    s.input += "*\n";
    auto const end = s.input.size();
    s.input += after;
    s.games = {whole(0, end), whole(end, s.input.size())};
    return s;
}

Shape huge_comment(std::size_t n) {
    Shape s{"one game with a huge comment", "[Event \"comment\"]\n\n1. e4 {", {}, 64 * mib};
    // Brackets, results and digits inside: none of them may end the game.
    repeat(s.input, "[12] a line [of] notes, 1-0 or 0-1 * (perhaps); 12. e4 [%clk 0:01:00]\n", n);
    s.input += "} e5 1-0\n\n";
    auto const end = s.input.size() - 1;
    s.input += after;
    s.games = {whole(0, end), whole(end + 1, s.input.size())};
    return s;
}

// Distinct tag names, each after a blank line; then a name of the section again (another
// letter case), which starts the next game.
Shape blank_tags(std::size_t n) {
    Shape s{"blank-separated tag pairs", "[Event \"tags\"]\n\n", {}, 64 * mib};
    std::size_t const target = s.input.size() + n;
    for (std::size_t i = 0; s.input.size() < target || i < 80'000; ++i)
        s.input += "[T" + std::to_string(i) + " \"v\"]\n\n";
    auto const end = s.input.size() - 1;
    s.input += "[t1 \"again\"]\n1. e4 *\n";
    auto const second = s.input.size();
    s.input += after;
    s.games = {whole(0, end), whole(end + 1, second), whole(second, s.input.size())};
    return s;
}

// One tag section without blank lines, then a blank line and a name of its start again:
// in a window, the names must be remembered before their bytes go.
Shape tag_section(std::size_t n) {
    Shape s{"one long tag section", "[Event \"tags\"]\n", {}, 64 * mib};
    std::size_t const target = s.input.size() + n;
    for (std::size_t i = 0; s.input.size() < target; ++i)
        s.input += "[T" + std::to_string(i) + " \"v\"]\n";
    auto const end = s.input.size();
    s.input += "\n[t1 \"again\"]\n1. e4 *\n";
    auto const second = end + 1;
    auto const third = s.input.size();
    s.input += after;
    s.games = {whole(0, end), whole(second, third), whole(third, s.input.size())};
    return s;
}

// Untagged games: a huge introductory comment is not movetext, so the `1.` after a blank line
// that follows it does not start a new game; the next one does (has-movetext probe).
Shape intro_comment(std::size_t n) {
    Shape s{"huge introductory comment", "{", {}, 64 * mib};
    repeat(s.input, "An introduction, 1. e4 (the best) ; [Event] 1-0\n", n);
    s.input += "}\n\n1. e4 e5\n";
    auto const end = s.input.size();
    s.input += "\n1. d4 d5 *\n";
    auto const third = s.input.size();
    s.input += after;
    s.games = {whole(0, end), whole(end + 1, third), whole(third, s.input.size())};
    return s;
}

// Issue 12: the comment lines after a result belong to its game (after_game, line_comment):
// hundreds of thousands of them, some blank lines between, then the next game.
Shape comments_after_result(std::size_t n) {
    Shape s{"comment lines after a result", "[Event \"log\"]\n\n1. e4 e5 1/2-1/2\n", {}, 64 * mib};
    repeat(s.input, "; { Game Nr. 1 : X draws against Y by adjudication }\n\n{ and } {more}\n", n);
    auto const end = s.input.size();
    s.input += "\n";
    s.input += after;
    s.games = {whole(0, end), whole(end + 1, s.input.size())};
    return s;
}

// Issue 12: text after a result on its line belongs to the game unless a result follows on
// the line; the search for one resumes where it stopped (a line within the window: 6 MiB).
Shape text_after_result(std::size_t n) {
    Shape s{"text after a result", "[Event \"ff\"]\n\n1. e4 e5 1-0 ", {}, 64 * mib};
    repeat(s.input, "ff (x) 2. e4 10-1 *x ", std::min<std::size_t>(n, 6 * mib)); // no result
    s.input += "\n";
    auto const end = s.input.size();
    s.input += after;
    s.games = {whole(0, end), whole(end, s.input.size())};
    return s;
}

// `quarter`: the same shape at a quarter of the size, for the time check.
void check_shape(Shape const& s, Shape const& quarter, std::size_t max_game_size) {
    BOOST_TEST_CONTEXT(s.name << ", max_game_size " << max_game_size) {
        auto const r = read_all(s.input, max_game_size);
        auto const games = games_of(s.input, r);
        BOOST_TEST(games.size() == s.games.size());
        for (std::size_t i = 0; i != std::min(games.size(), s.games.size()); ++i) {
            BOOST_TEST(games[i].offset == s.games[i].offset);
            BOOST_TEST(games[i].size == s.games[i].size);
            // A game is oversized exactly when it is longer than the limit (these games end
            // with a result or are followed at once by the next game).
            BOOST_TEST(games[i].oversized == (s.games[i].size > max_game_size));
        }
        // (c) The buffer holds at most one game (below the limit), never more than the limit.
        BOOST_TEST(r.max_capacity <= std::min(max_game_size, s.max_capacity_default));
        check_linear(s.input, r, quarter.input, max_game_size);
    }
}

} // namespace

// A test case that went quadratic would take minutes: it fails at its timeout instead.
BOOST_AUTO_TEST_CASE(long_line_of_nul_bytes, *utf::timeout(120)) {
    auto const s = nul_line(input_size());
    auto const q = nul_line(input_size() / 4);
    check_shape(s, q, pgn::GameReader::default_max_game_size);
}

BOOST_AUTO_TEST_CASE(single_line_movetext, *utf::timeout(120)) {
    auto const s = movetext_line(input_size());
    auto const q = movetext_line(input_size() / 4);
    check_shape(s, q, pgn::GameReader::default_max_game_size);
    check_shape(s, q, mib); // the same line, scanned in a window of 1 MiB
}

BOOST_AUTO_TEST_CASE(game_with_a_huge_comment, *utf::timeout(120)) {
    auto const s = huge_comment(input_size());
    auto const q = huge_comment(input_size() / 4);
    check_shape(s, q, pgn::GameReader::default_max_game_size);
    check_shape(s, q, mib);
}

BOOST_AUTO_TEST_CASE(blank_separated_tag_pairs, *utf::timeout(120)) {
    auto const s = blank_tags(input_size());
    auto const q = blank_tags(input_size() / 4);
    check_shape(s, q, pgn::GameReader::default_max_game_size);
    check_shape(s, q, mib);
}

BOOST_AUTO_TEST_CASE(long_tag_section, *utf::timeout(120)) {
    auto const s = tag_section(input_size());
    auto const q = tag_section(input_size() / 4);
    check_shape(s, q, pgn::GameReader::default_max_game_size);
    check_shape(s, q, mib);
}

BOOST_AUTO_TEST_CASE(huge_introductory_comment, *utf::timeout(120)) {
    auto const s = intro_comment(input_size());
    auto const q = intro_comment(input_size() / 4);
    check_shape(s, q, pgn::GameReader::default_max_game_size);
    check_shape(s, q, mib);
}

BOOST_AUTO_TEST_CASE(comment_lines_after_a_result, *utf::timeout(120)) {
    auto const s = comments_after_result(input_size());
    auto const q = comments_after_result(input_size() / 4);
    check_shape(s, q, pgn::GameReader::default_max_game_size);
    check_shape(s, q, mib);
}

BOOST_AUTO_TEST_CASE(text_after_a_result, *utf::timeout(120)) {
    auto const s = text_after_result(input_size());
    auto const q = text_after_result(input_size() / 4);
    check_shape(s, q, pgn::GameReader::default_max_game_size);
}

// A game larger than max_game_size (1 MiB here) amid real games: it comes in pieces whose
// concatenation is exactly its bytes, the buffer never exceeds the limit, and the games after
// it are exactly those of the real games read alone. Twice: a game ending with a result, and
// one without, whose end is trimmed back from the next tag section.
BOOST_AUTO_TEST_CASE(game_larger_than_max_game_size, *utf::timeout(120)) {
    std::size_t const n = input_size();
    auto const tail = corpus(std::min<std::size_t>(n / 2, 8'000'000));
    auto const tail_run = read_all(tail, pgn::GameReader::default_max_game_size);
    auto const tail_games = games_of(tail, tail_run);
    BOOST_TEST_REQUIRE(tail_games.size() > 1000u);
    for (bool const result : {true, false}) {
        BOOST_TEST_CONTEXT((result ? "with a result" : "without a result")) {
            // The oversized game of about `size` / 3 bytes, then the real games.
            auto const make = [&](std::size_t size, std::uint64_t& big, std::uint64_t& tail_at) {
                std::string input = "[Event \"big\"]\n[Site \"?\"]\n\n";
                repeat(input,
                       "1. e4 {[%clk 0:03:00]} e5 (1... c5 2. Nf3 {the Sicilian}) 2. Nf3 Nc6 3. "
                       "Bb5 a6 $1\n4. Ba4 Nf6 5. O-O Be7 ; a comment to the line end 1-0\n",
                       size / 3);
                input += result ? "6. Re1 1-0\n" : "6. Re1\n";
                big = input.size();
                input += result ? "\n" : "\n\n  \n";
                tail_at = input.size();
                input += tail;
                return input;
            };
            std::uint64_t big = 0, tail_at = 0, unused = 0;
            auto const input = make(n, big, tail_at);
            auto const r = read_all(input, mib);
            auto const games = games_of(input, r);
            BOOST_TEST_REQUIRE(games.size() == tail_games.size() + 1);
            BOOST_TEST((games[0] == Game{0, big, true}));
            std::size_t pieces = 0;
            for (auto const& p : r.pieces) pieces += p.number == 1;
            BOOST_TEST(pieces >= big / mib);
            bool same = true;
            for (std::size_t i = 0; i != tail_games.size(); ++i) {
                Game want = tail_games[i];
                want.offset += tail_at;
                if (!(games[i + 1] == want)) {
                    BOOST_TEST(games[i + 1] == want, "game " << i + 2);
                    same = false;
                    break;
                }
            }
            BOOST_TEST(same);
            BOOST_TEST(r.max_capacity <= mib);
            check_linear(input, r, make(n / 4, unused, unused), mib);

            // next_batch carries the same pieces, in order, with their parts.
            auto source = io::open_memory(input);
            pgn::GameReader reader(*source, read_size, mib);
            pgn::GameBatch batch;
            std::size_t k = 0;
            bool batches_match = true;
            while (reader.next_batch(batch, mib)) {
                BOOST_TEST_REQUIRE(batch.parts.size() == batch.games.size());
                for (std::size_t i = 0; i != batch.games.size() && batches_match; ++i, ++k) {
                    auto const& g = batch.games[i];
                    batches_match = k < r.pieces.size() && g.start.offset == r.pieces[k].offset &&
                                    g.bytes.size() == r.pieces[k].size &&
                                    batch.parts[i] == r.pieces[k].part &&
                                    input.compare(g.start.offset, g.bytes.size(), g.bytes) == 0;
                }
                batch.clear();
            }
            BOOST_TEST(batches_match);
            BOOST_TEST(k == r.pieces.size());
        }
    }
}
