// perft against published node counts (data/perft.epd, data/perft960.epd).
//
// Every (position, depth) whose published count is at most --max-nodes (given after `--`,
// default 2,000,000) is recomputed and compared. CTest runs this twice: perft_test with 2M
// and perft_slow_test (label "slow") with 200M.
#define BOOST_TEST_MODULE perft
#include <boost/test/unit_test.hpp>

#include "chess/position.hpp"
#include "report/codes.hpp"

#include <chrono>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace pgn_iccf::chess;

struct PerftCase {
    std::string fen;
    int depth;
    std::uint64_t nodes;
    int line;
};

std::vector<PerftCase> read_epd(std::string const& path) {
    std::vector<PerftCase> cases;
    std::ifstream in(path);
    BOOST_TEST_REQUIRE(in.good(), "cannot open " << path);
    std::string text;
    int line_number = 0;
    while (std::getline(in, text)) {
        ++line_number;
        if (text.empty() || text[0] == '#') continue;
        auto semi = text.find(';');
        BOOST_TEST_REQUIRE(semi != std::string::npos, path << ":" << line_number << ": no counts");
        std::string fen = text.substr(0, semi);
        while (!fen.empty() && fen.back() == ' ') fen.pop_back();
        std::istringstream counts(text.substr(semi));
        std::string field;
        while (std::getline(counts, field, ';')) {
            std::istringstream f(field);
            std::string d;
            std::uint64_t nodes = 0;
            if (!(f >> d)) continue;
            BOOST_TEST_REQUIRE((d.size() >= 2 && d[0] == 'D' && (f >> nodes)),
                               path << ":" << line_number << ": bad count '" << field << "'");
            cases.push_back({fen, std::stoi(d.substr(1)), nodes, line_number});
        }
    }
    return cases;
}

std::uint64_t max_nodes() {
    auto& suite = boost::unit_test::framework::master_test_suite();
    std::uint64_t limit = 2'000'000;
    std::string const prefix = "--max-nodes=";
    for (int i = 1; i < suite.argc; ++i) {
        std::string a = suite.argv[i];
        if (a.rfind(prefix, 0) == 0) limit = std::stoull(a.substr(prefix.size()));
    }
    return limit;
}

void check_file(std::string const& name, bool chess960, std::size_t expected_cases) {
    std::string path = std::string(PGN_ICCF_DATA_DIR) + "/" + name;
    auto cases = read_epd(path);
    // A truncated or damaged data file must not pass silently.
    BOOST_TEST(cases.size() == expected_cases);
    std::uint64_t limit = max_nodes();
    int checked = 0;
    std::uint64_t total = 0;
    auto start = std::chrono::steady_clock::now();
    for (auto const& c : cases) {
        if (c.nodes > limit) continue;
        BOOST_TEST_CONTEXT(name << ":" << c.line << " " << c.fen << " depth " << c.depth) {
            Position pos;
            std::string error;
            BOOST_TEST_REQUIRE(
                (error = pgn_iccf::report::fen_message(pos.set_fen(c.fen, chess960))).empty(),
                error);
            std::string before = pos.fen();
            BOOST_TEST(pos.perft(c.depth) == c.nodes);
            BOOST_TEST(pos.fen() == before); // make/unmake restored the position
        }
        ++checked;
        total += c.nodes;
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    BOOST_TEST_MESSAGE(name << ": checked " << checked << " of " << cases.size() << " counts (<= "
                            << limit << " nodes), " << total << " nodes in " << seconds << " s");
    BOOST_TEST(checked > 0);
}

} // namespace

BOOST_AUTO_TEST_CASE(perft_standard) { check_file("perft.epd", false, 826); }

BOOST_AUTO_TEST_CASE(perft_chess960) { check_file("perft960.epd", true, 75); }
