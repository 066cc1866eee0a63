// Regression tests of the fuzzing (issue 9): every file of data/hostile/ is an input that once
// broke a property of a fuzz target (a crash, a sanitizer report, a property failure; see
// data/SOURCES.md); it goes again through the property checks of every fuzz target
// (tests/support/properties.hpp), as do the seed corpora data/edge, data/sample,
// data/golden and data/compressed (gzip, bzip2 and zstd files for the decoder target). The fuzz
// targets themselves (tests/fuzz) run under CTest label `fuzz` in sanitizer builds; this test runs
// in every build.
#define BOOST_TEST_MODULE hostile
#include <boost/test/unit_test.hpp>

#include "support/properties.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace props = pgn_iccf::properties;

namespace {

fs::path const data_dir = PGN_ICCF_DATA_DIR;

std::string slurp(fs::path const& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Every regular file under `dir`, in byte order of the paths.
std::vector<fs::path> files_under(fs::path const& dir) {
    std::vector<fs::path> files;
    if (!fs::is_directory(dir)) return files;
    for (auto const& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file() && e.path().filename() != "README.md") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

int replay(std::vector<fs::path> const& files) {
    int checked = 0;
    for (auto const& f : files) {
        std::string const bytes = slurp(f);
        for (props::Target t : props::all_targets()) {
            BOOST_TEST_CONTEXT(f.filename().string()
                               << " through the " << props::name(t) << " target") {
                BOOST_TEST(props::check_input(t, bytes) == "");
                ++checked;
            }
        }
    }
    return checked;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_hostile_input_holds_every_property) {
    auto const files = files_under(data_dir / "hostile");
    BOOST_TEST_REQUIRE(files.size() >= 1U, "data/hostile is missing or empty");
    int const checks = replay(files);
    BOOST_TEST_MESSAGE(files.size() << " hostile inputs, " << checks << " checks");
}

BOOST_AUTO_TEST_CASE(every_seed_holds_every_property) {
    std::vector<fs::path> files;
    for (auto dir : {"edge", "sample", "golden", "compressed"})
        for (auto const& f : files_under(data_dir / dir)) files.push_back(f);
    BOOST_TEST_REQUIRE(files.size() >= 40U);
    BOOST_TEST_REQUIRE(files_under(data_dir / "compressed").size() >= 8U);
    int const checks = replay(files);
    BOOST_TEST_MESSAGE(files.size() << " seed inputs, " << checks << " checks");
}

// The conversion options a fuzz input carries in its first bytes (see options_from): 0x0e is
// LAN (2), --keep-broken (4), --annotate (8); 0x03 is width 12, English input; 0x06 is the
// seventh language (German) for the output.
BOOST_AUTO_TEST_CASE(fuzz_inputs_choose_the_conversion_options) {
    std::string_view with_header("\x01\x0e\x03\x06"
                                 "1. e4 *\n",
                                 12);
    auto const o = props::options_from(with_header);
    BOOST_TEST(with_header == "1. e4 *\n");
    BOOST_TEST(int(o.to) == int(pgn_iccf::notation::Notation::lan));
    BOOST_TEST(o.keep_broken);
    BOOST_TEST(o.annotate);
    BOOST_TEST(o.comments);
    BOOST_TEST(o.nags);
    BOOST_TEST(o.variations);
    BOOST_TEST(!o.read.iccf_short_promotion);
    BOOST_TEST(o.width == 12);
    BOOST_TEST(o.read.letters->code == "en");
    BOOST_TEST(o.write.letters->code == "de");
    BOOST_TEST(!o.auto_input_lang);
    BOOST_TEST(!o.fix_typos);
    std::string_view correspondence("\x06\x00\x00\x00"
                                    "1. 5254 5756 *\n",
                                    19);
    auto const c = props::options_from(correspondence);
    BOOST_TEST(correspondence == "1. 5254 5756 *\n");
    BOOST_TEST(c.auto_input_lang);
    BOOST_TEST(c.fix_typos);
    BOOST_TEST(c.read.letters->code == "en");
    std::string_view plain = "[Event \"x\"]\n\n1. e4 *\n";
    auto const before = plain;
    props::options_from(plain);
    BOOST_TEST(plain == before); // a PGN file is taken as it is
}
