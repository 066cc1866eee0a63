// End-to-end tests of the pgn-iccf executable: golden files, the round trip over data/,
// an external reader (pgn-extract) on our SAN output, exit statuses, rejects, and the
// README / .ci/run / --help contract.
#define BOOST_TEST_MODULE cli
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string const bin = std::string(PGN_ICCF_BIN_DIR) + "/pgn-iccf";
fs::path const data = PGN_ICCF_DATA_DIR;
fs::path const source_dir = PGN_ICCF_SOURCE_DIR;

struct Result {
    int status = -1;
    std::string out;
};

// Runs a shell command; returns its exit status and standard output.
Result sh(std::string const& cmd) {
    Result r;
    std::FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 65536> buf{};
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    int st = ::pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

std::string read_file(fs::path const& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

std::string q(fs::path const& p) { return "'" + p.string() + "'"; }

fs::path temp_dir() {
    static fs::path d = [] {
        fs::path t =
            fs::temp_directory_path() / ("pgn-iccf-cli-test-" + std::to_string(::getpid()));
        fs::create_directories(t);
        return t;
    }();
    return d;
}

std::vector<fs::path> pgn_files(fs::path const& dir) {
    std::vector<fs::path> v;
    if (!fs::exists(dir)) return v;
    for (auto const& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".pgn") v.push_back(e.path());
    std::sort(v.begin(), v.end());
    return v;
}

std::string pgn_extract() {
    for (char const* p : {"/usr/games/pgn-extract", "/usr/bin/pgn-extract"})
        if (fs::exists(p)) return p;
    return {};
}

// The summary line without its timing figures ("; 0.01 s, 1.2 MB/s, 300 games/s"), which
// change from run to run.
std::string without_timing(std::string s) {
    static std::regex const timing("; [0-9.]+ s, [0-9.]+ MB/s, [0-9]+ games/s");
    return std::regex_replace(s, timing, "");
}

} // namespace

BOOST_AUTO_TEST_CASE(help_names_every_option_of_the_contract) {
    auto r = sh(bin + " --help");
    BOOST_TEST(r.status == 0);
    for (auto opt :
         {"--to", "--lang", "--input-lang", "--iccf-short-promotion", "--annotate", "--no-comments",
          "--no-nags", "--no-variations", "--width", "--output", "--suffix", "--rejects",
          "--keep-broken", "--check", "--quiet", "--progress", "--help", "--version"}) {
        BOOST_TEST_CONTEXT(opt) { BOOST_TEST(r.out.find(opt) != std::string::npos); }
    }
    auto v = sh(bin + " --version");
    BOOST_TEST(v.status == 0);
    BOOST_TEST(v.out.starts_with("pgn-iccf "));
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
    BOOST_TEST(sh(bin + " --no-such-option 2>/dev/null").status == 2);
    BOOST_TEST(sh(bin + " --to klingon 2>/dev/null </dev/null").status == 2);
    BOOST_TEST(sh(bin + " --lang xx 2>/dev/null </dev/null").status == 2);
    BOOST_TEST(sh(bin + " /no/such/file.pgn 2>/dev/null").status == 2);
}

BOOST_AUTO_TEST_CASE(readme_quick_start_and_ci_agree) {
    // .ci/run must run the README's second Quick start command verbatim.
    std::string readme = read_file(source_dir / "README.md");
    std::string ci = read_file(source_dir / ".ci" / "run");
    auto start = readme.find("## Quick start");
    BOOST_TEST_REQUIRE(start != std::string::npos);
    std::vector<std::string> commands;
    std::istringstream in(readme.substr(start));
    std::string line;
    bool in_block = false;
    while (std::getline(in, line)) {
        if (line.starts_with("```")) {
            in_block = !in_block;
            if (!in_block && commands.size() == 2) break;
            continue;
        }
        if (in_block && !line.empty()) commands.push_back(line);
        if (line.starts_with("## ") && !line.starts_with("## Quick start")) break;
    }
    BOOST_TEST_REQUIRE(commands.size() == 2U);
    BOOST_TEST(commands[0].find("apt-get install") != std::string::npos);
    BOOST_TEST(commands[0].find("pgn-iccf") != std::string::npos);
    BOOST_TEST(commands[1].find("ctest") != std::string::npos);
    BOOST_TEST(ci.find("\n" + commands[1] + "\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(golden_files) {
    // NAME.pgn converted with the options in data/golden/NAME.VARIANT.args equals
    // data/golden/NAME.VARIANT.expected
    // (byte for byte). The expected files were checked by hand and against the
    // independent chessops-based oracle (see data/SOURCES.md).
    // The input is data/golden/NAME.pgn or data/edge/NAME.pgn (one file per construct).
    int checked = 0, checked_stderr = 0;
    std::vector<fs::path> inputs = pgn_files(data / "golden");
    for (auto const& in : pgn_files(data / "edge")) inputs.push_back(in);
    for (auto const& in : inputs) {
        for (auto const& exp : fs::directory_iterator(data / "golden")) {
            std::string name = exp.path().filename().string();
            std::string stem = in.stem().string();
            if (!name.starts_with(stem + ".") || exp.path().extension() != ".expected") continue;
            // NAME.<variant>.expected with arguments in NAME.<variant>.args
            fs::path args_file = exp.path();
            args_file.replace_extension(".args");
            std::string args = fs::exists(args_file) ? read_file(args_file) : "";
            args.erase(std::remove(args.begin(), args.end(), '\n'), args.end());
            BOOST_TEST_CONTEXT(name) {
                auto r = sh(bin + " -q " + args + " " + q(in) + " 2>/dev/null");
                BOOST_TEST(r.out == read_file(exp.path()));
                ++checked;
                // NAME.<variant>.stderr, when present: the whole standard error of the run
                // (diagnostics and the summary with its counts, without the timing figures)
                // and a last line "exit status N".
                fs::path err_file = exp.path();
                err_file.replace_extension(".stderr");
                if (fs::exists(err_file)) {
                    auto e = sh("cd " + q(in.parent_path()) + " && " + bin + " " + args + " " +
                                q(in.filename()) + " 2>&1 >/dev/null; echo \"exit status $?\"");
                    BOOST_TEST(without_timing(e.out) == read_file(err_file));
                    ++checked_stderr;
                }
            }
        }
    }
    BOOST_TEST_MESSAGE("golden outputs checked: " << checked
                                                  << ", standard errors: " << checked_stderr);
    BOOST_TEST(checked >= 4);
    BOOST_TEST(checked_stderr >= 1);
}

BOOST_AUTO_TEST_CASE(round_trip_over_every_data_file) {
    // SAN -> numeric -> SAN gives byte for byte what SAN -> SAN gives.
    int files = 0;
    for (auto dir : {"corpus", "edge", "sample", "golden"}) {
        for (auto const& in : pgn_files(data / dir)) {
            BOOST_TEST_CONTEXT(in.string()) {
                auto direct = sh(bin + " -q -t san " + q(in) + " 2>/dev/null");
                auto via = sh(bin + " -q -t numeric " + q(in) + " 2>/dev/null | " + bin +
                              " -q -t san 2>/dev/null");
                BOOST_TEST(direct.out == via.out);
                ++files;
            }
        }
    }
    BOOST_TEST(files >= 20);
}

BOOST_AUTO_TEST_CASE(pgn_extract_reads_our_san_output) {
    std::string pe = pgn_extract();
    BOOST_TEST_REQUIRE(!pe.empty(), "pgn-extract is not installed (apt-get install pgn-extract)");
    fs::path out = temp_dir() / "all.san.pgn";
    // line-comment.pgn is left out on purpose: it holds a `;` comment with a `}` (which
    // no brace comment can hold), and pgn-extract 19.04 does not read `;` comments at all.
    std::string inputs;
    for (auto dir : {"corpus", "sample", "golden"})
        for (auto const& in : pgn_files(data / dir))
            if (in.filename() != "line-comment.pgn") inputs += " " + q(in);
    auto conv = sh("cat" + inputs + " | " + bin + " -t san -o " + q(out) + " - 2>&1");
    BOOST_TEST_MESSAGE(conv.out.substr(conv.out.rfind("pgn-iccf:")));
    std::smatch m;
    std::regex converted("([0-9]+) converted");
    BOOST_TEST_REQUIRE(std::regex_search(conv.out, m, converted));
    long ours = std::stol(m[1]);
    fs::path log = temp_dir() / "pgn-extract.log";
    auto r = sh(pe + " -s -l " + q(log) + " -o /dev/null " + q(out) + " 2>&1");
    std::string errors = read_file(log);
    BOOST_TEST(errors == "", "pgn-extract reported: " << errors.substr(0, 2000));
    // The games pgn-extract accepted: it writes each one to standard output.
    auto count = sh(pe + " -s " + q(out) + " 2>/dev/null | grep -c '^\\[Event '");
    BOOST_TEST(std::stol(count.out) == ours);
}

BOOST_AUTO_TEST_CASE(rejects_reproduce_bad_games_and_counts_add_up) {
    fs::path in = temp_dir() / "mixed.pgn";
    std::string const good = "[Event \"good\"]\n\n1. e4 e5 *\n\n";
    std::string const bad = "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n\n";
    {
        std::ofstream f(in, std::ios::binary);
        f << good << bad << good;
    }
    fs::path rej = temp_dir() / "rejects.pgn";
    fs::path out = temp_dir() / "mixed.iccf.pgn";
    auto r = sh(bin + " -o " + q(out) + " --rejects " + q(rej) + " " + q(in) + " 2>&1");
    BOOST_TEST(r.status == 1);
    BOOST_TEST(r.out.find("3 games read: 2 converted, 1 rejected, 0 kept broken") !=
               std::string::npos);
    BOOST_TEST(r.out.find(in.string() + ":7:13: error: game 2, move 2.: 'Ke3': ") !=
               std::string::npos);
    std::string rejected = read_file(rej);
    BOOST_TEST(rejected.find("[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n") == 0U);
    std::string converted = read_file(out);
    BOOST_TEST(converted.find("good") != std::string::npos);
    BOOST_TEST(converted.find("bad") == std::string::npos);
    // --keep-broken writes the bad game up to its bad move, and still lists it in rejects
    fs::path rej2 = temp_dir() / "rejects2.pgn";
    auto kb = sh(bin + " -o - --keep-broken --rejects " + q(rej2) + " " + q(in) + " 2>&1");
    BOOST_TEST(kb.status == 1);
    BOOST_TEST(kb.out.find("1. 5254 5755 {Ke3} *") != std::string::npos);
    BOOST_TEST(kb.out.find("3 games read: 2 converted, 0 rejected, 1 kept broken") !=
               std::string::npos);
    BOOST_TEST(read_file(rej2) == "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n");
    // --width 0: one line of movetext per game
    auto w0 = sh(bin + " -q --width 0 " + q(in));
    BOOST_TEST(w0.out.find("\n1. 5254 5755 *\n") != std::string::npos);
    // --check writes nothing and reports the same
    auto c = sh(bin + " --check " + q(in) + " 2>&1");
    BOOST_TEST(c.status == 1);
    BOOST_TEST(c.out.find("1 rejected") != std::string::npos);
    // an input is never overwritten
    auto same = sh(bin + " -o " + q(in) + " " + q(in) + " 2>&1");
    BOOST_TEST(same.status == 2);
    BOOST_TEST(read_file(in) == good + bad + good);
}

BOOST_AUTO_TEST_CASE(text_between_games_goes_to_rejects_and_is_no_game) {
    // Issue 12: text between games is no game (not counted, exit status unchanged), a warning
    // names its lines, and the rejects file holds exactly that text; output + rejects hold
    // every input byte that is not converted (the bytes of converted games are in the output,
    // converted; between them only blank lines are left out).
    fs::path const dir = temp_dir() / "text-between";
    fs::create_directories(dir);
    std::string const mail = "From: someone@example.org\nSubject: my games\n";
    std::string const a = "[Event \"a\"]\n\n1. e4 e5 1-0 ff\n\n; { Game Nr. 1 : X wins }\n";
    std::string const junk = "some garbage\nbetween games\n";
    std::string const b = "[Event \"b\"]\n\n1. d4 d5 (+)-(-)\n";
    std::string const stray = "\xff";
    {
        std::ofstream f(dir / "in.pgn", std::ios::binary);
        f << mail << "\n" << a << junk << "\n" << b << stray;
    }
    std::string out1, err1;
    for (int j : {1, 2}) {
        BOOST_TEST_CONTEXT("-j" << j) {
            fs::path out = dir / ("out" + std::to_string(j) + ".pgn");
            fs::path rej = dir / ("rej" + std::to_string(j) + ".pgn");
            auto r = sh("cd " + q(dir) + " && " + bin + " -j" + std::to_string(j) + " -t san -o " +
                        q(out) + " --rejects " + q(rej) + " in.pgn 2>&1");
            BOOST_TEST(r.status == 0, r.out);
            std::string const err = without_timing(r.out);
            BOOST_TEST(err ==
                       "in.pgn:1:1: warning: lines 1-2: text between games is not a game; its "
                       "bytes go to the rejects file\n"
                       "in.pgn:6:14: warning: game 1: 'ff': text after the result; read as a "
                       "comment\n"
                       "in.pgn:9:1: warning: lines 9-10: text between games is not a game; its "
                       "bytes go to the rejects file\n"
                       "in.pgn:14:10: warning: game 2: '(+)-(-)': forfeit result '(+)-(-)'; read "
                       "as 1-0\n"
                       "in.pgn:15:1: warning: line 15: text between games is not a game; its "
                       "bytes go to the rejects file\n"
                       "pgn-iccf: 2 games read: 2 converted, 0 rejected, 0 kept broken; 4 moves; "
                       "0 errors, 5 warnings\n");
            // Exactly the text between games, in order (a line end added after the last).
            BOOST_TEST(read_file(rej) == mail + junk + stray + "\n");
            std::string const o = read_file(out);
            BOOST_TEST(o.find("1. e4 e5 {ff} ; { Game Nr. 1 : X wins }\n1-0\n") !=
                       std::string::npos);
            BOOST_TEST(o.find("1. d4 d5 1-0\n") != std::string::npos);
            if (j == 1) {
                out1 = o;
                err1 = err;
            } else {
                BOOST_TEST(o == out1);
                BOOST_TEST(err == err1);
            }
        }
    }
    // Without --rejects the text is left out, with the same warnings' lines.
    auto r = sh("cd " + q(dir) + " && " + bin + " -o - in.pgn 2>&1 >/dev/null");
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.out.find("in.pgn:9:1: warning: lines 9-10: text between games is not a game; "
                          "left out (--rejects keeps it)\n") != std::string::npos,
               r.out);
    // With a rejected game among them: the rejects file holds the text and the game, in input
    // order, and only the game counts (and sets the exit status).
    std::string const bad = "[Event \"bad\"]\n\n1. e4 e5 2. Ke3 *\n";
    {
        std::ofstream f(dir / "mixed.pgn", std::ios::binary);
        f << mail << "\n" << bad << junk << "\n" << a;
    }
    auto m = sh("cd " + q(dir) + " && " + bin + " -o m.pgn --rejects mrej.pgn mixed.pgn 2>&1");
    BOOST_TEST(m.status == 1);
    BOOST_TEST(m.out.find("2 games read: 1 converted, 1 rejected, 0 kept broken") !=
                   std::string::npos,
               m.out);
    BOOST_TEST(read_file(dir / "mrej.pgn") == mail + bad + junk);
    BOOST_TEST(read_file(dir / "m.pgn").find("[Event \"a\"]") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(several_inputs_go_to_a_directory) {
    fs::path a = temp_dir() / "a.pgn";
    fs::path b = temp_dir() / "b.PGN";
    {
        std::ofstream fa(a, std::ios::binary), fb(b, std::ios::binary);
        fa << "1. e4 *\n";
        fb << "1. d4 *\n";
    }
    fs::path dir = temp_dir() / "outdir";
    auto r = sh(bin + " -q -o " + q(dir) + " " + q(a) + " " + q(b));
    BOOST_TEST(r.status == 0);
    BOOST_TEST(read_file(dir / "a.iccf.pgn").find("1. 5254 *") != std::string::npos);
    BOOST_TEST(read_file(dir / "b.iccf.pgn").find("1. 4244 *") != std::string::npos);
    auto s = sh(bin + " -q -t san --suffix .x.pgn -o " + q(dir) + " " + q(a) + " " + q(b));
    BOOST_TEST(s.status == 0);
    BOOST_TEST(read_file(dir / "a.x.pgn").find("1. e4 *") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(all_good_exits_0_and_numeric_reads_back) {
    fs::path in = temp_dir() / "good.pgn";
    {
        std::ofstream f(in, std::ios::binary);
        f << "[Event \"e\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n";
    }
    auto r = sh(bin + " -q " + q(in));
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.out.find("[Notation \"ICCF\"]") != std::string::npos);
    BOOST_TEST(r.out.find("1. 5254 5755 2. 7163 2836 1-0") != std::string::npos);
    auto back = sh(bin + " -q " + q(in) + " | " + bin + " -q -t san");
    BOOST_TEST(back.status == 0);
    BOOST_TEST(back.out.find("1. e4 e5 2. Nf3 Nc6 1-0") != std::string::npos);
}
