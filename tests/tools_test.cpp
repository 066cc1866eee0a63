// Tests of the tooling around the pgn-iccf executable: the man page that help2man generates at
// build time (src/cli/CMakeLists.txt, src/cli/pgn-iccf.h2m), the install rules, and the GNU
// parallel recipes of the README ("Beyond one machine: GNU parallel"), each run here and
// compared byte for byte with a single run of the binary on the same input.
//
// help2man, GNU parallel and rsync are required (the CI installs them): a missing one fails
// the test that needs it, saying which package to install.
#define BOOST_TEST_MODULE tools
#include <boost/test/unit_test.hpp>

#include "support/shell.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

fs::path without_trailing_slash(fs::path p) {
    p = p.lexically_normal();
    return p.has_filename() ? p : p.parent_path();
}

fs::path const bin_dir = without_trailing_slash(PGN_ICCF_BIN_DIR);
fs::path const build_dir = bin_dir.parent_path();
fs::path const data = PGN_ICCF_DATA_DIR;
std::string const bin = (bin_dir / "pgn-iccf").string();

using Result = pgn_iccf::test::ShellResult;
using pgn_iccf::test::read_file;
using pgn_iccf::test::sh;
using pgn_iccf::test::write_file;
std::string q(fs::path const& p) { return pgn_iccf::test::shell_quote(p); }

// A fresh directory per test under one per-process directory, removed at exit.
fs::path temp_dir(std::string const& name) { return pgn_iccf::test::fresh_folder("tools", name); }

// `--x-y` tokens, as in `pgn-iccf --help`.
std::set<std::string> long_options(std::string const& text) {
    static std::regex const option("--[a-z][a-z-]*");
    std::set<std::string> found;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), option);
         it != std::sregex_iterator(); ++it)
        found.insert(it->str());
    return found;
}

// Man page source as text: `\-` is a minus sign, `\%` only stops hyphenation.
std::string unescape_roff(std::string const& roff) {
    std::string s;
    for (std::size_t i = 0; i < roff.size(); ++i) {
        if (roff[i] == '\\' && i + 1 < roff.size() && (roff[i + 1] == '-' || roff[i + 1] == '%')) {
            if (roff[i + 1] == '-') s += '-';
            ++i;
        } else {
            s += roff[i];
        }
    }
    return s;
}

fs::path const man_page = build_dir / "man" / "pgn-iccf.1";
char const* const no_man_page =
    "help2man was not found when the build was configured (apt-get install help2man, then "
    "configure and build again), or the default target was not built";

// The cmake that configured the build (from its cache), else the one in PATH.
std::string cmake_command() {
    std::istringstream cache(read_file(build_dir / "CMakeCache.txt"));
    std::string line;
    std::string const key = "CMAKE_COMMAND:INTERNAL=";
    while (std::getline(cache, line))
        if (line.starts_with(key)) return "'" + line.substr(key.size()) + "'";
    return "cmake";
}

// GNU parallel (not the moreutils program of the same name), with the built pgn-iccf first in
// PATH so that the recipes call it by name exactly as the README writes them. RSYNC_OLD_ARGS=1
// as in the README: rsync 3.2.4 and later quote remote file names themselves, GNU parallel
// 20221122 quotes them too, and a name with a space or a quote then never comes back from
// --return (and the exit status is still 0).
std::string parallel() {
    auto v = sh("parallel --will-cite --version 2>/dev/null");
    BOOST_TEST_REQUIRE(v.out.starts_with("GNU parallel"),
                       "GNU parallel is not installed (apt-get install parallel)");
    return "PATH=" + q(bin_dir) + ":\"$PATH\" RSYNC_OLD_ARGS=1 parallel --will-cite";
}

std::string in(fs::path const& dir) { return "cd " + q(dir) + " && "; }

// The README gives each pgn-iccf one worker thread (-j1) next to parallel's own jobs; the
// option is left out for a binary that does not have it yet.
std::string const& one_thread() {
    static std::string const j =
        sh(bin + " --help").out.find("--jobs") != std::string::npos ? " -j1" : "";
    return j;
}

// parallel's --ssh option with a stand-in for ssh: every host is this machine, where the
// command runs in `home` (the "remote" login directory) through `sh -c`, as sshd runs it, and
// rsync reaches it the same way. Every call is logged to `log`, so that a test can tell that
// the remote path was taken. On the "remote", `mkdir -p` makes one folder at a time with a
// pause after each: jobs that share a folder which another job's --cleanup removes once it
// looks empty (parallel's own `--wd ...` under ~/.parallel/tmp) then fail on every run, not
// only on a machine fast enough to meet the race (a CI machine met it with 2 jobs).
std::string fake_ssh(fs::path const& dir, fs::path const& home, fs::path const& log) {
    BOOST_TEST_REQUIRE(sh("command -v rsync").status == 0,
                       "rsync is not installed (apt-get install rsync): GNU parallel's "
                       "--transferfile and --return need it");
    // Skips ssh's options (-B -b -c ... take an argument), then the host and a `--`.
    std::string const skip_to_command = R"(while [ $# -gt 0 ]; do
  case $1 in
    -[BbcDEeFIiJLlmOoPpQRSWw]) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
shift
[ "$1" = -- ] && shift
)";
    fs::path const slow = dir / "slow-bin";
    fs::create_directories(slow);
    write_file(slow / "mkdir", R"(#!/bin/sh
[ "$1" = -p ] || exec /bin/mkdir "$@"
shift
[ "$1" = -- ] && shift
for path in "$@"; do
  case $path in /*) made=/ ;; *) made= ;; esac
  IFS=/
  set -f
  for part in $path; do
    [ -n "$part" ] || continue
    made=${made:+${made%/}/}$part
    [ -d "$made" ] || /bin/mkdir -- "$made" || exit 1
    sleep 0.02
  done
done
)");
    fs::permissions(slow / "mkdir", fs::perms::owner_all);
    fs::path const script = dir / "fake-ssh";
    write_file(script, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> " + q(log) + "\n" + skip_to_command +
                           "cd " + q(home) + " || exit 255\nPATH=" + q(slow) +
                           ":\"$PATH\" HOME=" + q(home) + " SHELL=/bin/sh exec sh -c \"$*\"\n");
    fs::permissions(script, fs::perms::owner_all);
    return " --ssh " + q(script);
}

// Games that tempt a splitter to cut inside them: a tag section not starting with Event, a
// comment holding a tag-like line after a blank line (pgn-iccf ends the game there itself),
// one holding `[Event ` that is no tag pair, games without tags, a tags-only game, a game
// without a result, an illegal move.
std::string const tricky_games = R"([Event "comment with a tag line"]
[Site "x"]

1. e4 e5 2. Nf3 {a comment over
several lines

[Event "quoted inside a comment"]
and more after it} Nc6 1-0

[Site "site before event"]
[Event "two"]
[White "w"]

1. d4 d5 2. c4 *

1. e4 c5 2. Nf3 d6 *

1. d4 Nf6 *

[Event "tags only"]
[Result "*"]

[Event "comment with a non-tag Event line"]

1. c4 {see
[Event horizon] here} e5 *

[Event "no result"]

1. e4 e5 2. Nf3

[Event "illegal"]

1. e4 e5 2. Ke3 *

[Event "last"]

1. Nf3 d5 1/2-1/2
)";

struct SingleRun {
    Result result;
    std::string rejects;
};

SingleRun single_run(fs::path const& in, fs::path const& dir) {
    fs::path const rejects = dir / "single.rejects.pgn";
    SingleRun r{sh(bin + " -q --rejects " + q(rejects) + " " + q(in) + " 2>/dev/null"), {}};
    r.rejects = read_file(rejects);
    return r;
}

} // namespace

BOOST_AUTO_TEST_CASE(man_page_documents_every_option_of_help) {
    BOOST_TEST_REQUIRE(fs::exists(man_page), "no man page at " << man_page << ": " << no_man_page);
    std::string const page = unescape_roff(read_file(man_page));
    auto const help = sh(bin + " --help");
    BOOST_TEST_REQUIRE(help.status == 0);
    auto const options = long_options(help.out);
    BOOST_TEST(options.size() >= 18U);
    auto const documented = long_options(page);
    for (auto const& o : options) {
        BOOST_TEST_CONTEXT(o) { BOOST_TEST(documented.count(o) == 1U); }
    }

    std::set<std::string> sections;
    std::istringstream lines(page);
    std::string line;
    while (std::getline(lines, line)) {
        if (!line.starts_with(".SH ")) continue;
        std::string name = line.substr(4);
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
            name = name.substr(1, name.size() - 2);
        sections.insert(name);
    }
    for (auto s : {"NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "EXAMPLES", "FILES",
                   "CHESS960 CASTLING", "SEE ALSO"}) {
        BOOST_TEST_CONTEXT(s) { BOOST_TEST(sections.count(s) == 1U); }
    }
    BOOST_TEST(page.find("pgn-iccf - rewrite chess games between SAN and ICCF numeric notation") !=
               std::string::npos);
    BOOST_TEST(page.find(".BR pgn-extract (1),") != std::string::npos);
    BOOST_TEST(page.find(".BR parallel (1),") != std::string::npos);
    // Made from this binary, not left over from an older one.
    auto version = sh(bin + " --version").out;
    version.erase(version.find_last_not_of('\n') + 1);
    BOOST_TEST(version.starts_with("pgn-iccf "));
    BOOST_TEST(page.find(".TH PGN-ICCF \"1\"") != std::string::npos);
    BOOST_TEST(page.find("\"" + version + "\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(install_puts_the_binary_and_the_man_page_under_the_prefix) {
    // Also the bash completion and the licence (issue L); `cpack -G DEB` packages the same
    // files (tests/package_test.sh).
    BOOST_TEST_REQUIRE(fs::exists(build_dir / "CMakeCache.txt"));
    fs::path const prefix = temp_dir("prefix");
    auto const r =
        sh(cmake_command() + " --install " + q(build_dir) + " --prefix " + q(prefix) + " 2>&1");
    BOOST_TEST(r.status == 0, r.out);
    fs::path const installed = prefix / "bin" / "pgn-iccf";
    BOOST_TEST_REQUIRE(fs::exists(installed), r.out);
    BOOST_TEST(sh(q(installed) + " --version").out == sh(bin + " --version").out);
    fs::path const page = prefix / "share" / "man" / "man1" / "pgn-iccf.1";
    BOOST_TEST_REQUIRE(fs::exists(page), no_man_page << "\n" << r.out);
    BOOST_TEST(read_file(page) == read_file(man_page));
    // The bash completion where bash-completion looks for it by name, the licence where
    // Debian keeps a package's.
    fs::path const source = fs::path(PGN_ICCF_SOURCE_DIR);
    fs::path const completion = prefix / "share" / "bash-completion" / "completions" / "pgn-iccf";
    BOOST_TEST_REQUIRE(fs::exists(completion), r.out);
    BOOST_TEST(read_file(completion) ==
               read_file(source / "src" / "cli" / "pgn-iccf.bash-completion"));
    fs::path const copyright = prefix / "share" / "doc" / "pgn-iccf" / "copyright";
    BOOST_TEST_REQUIRE(fs::exists(copyright), r.out);
    BOOST_TEST(read_file(copyright) == read_file(source / "LICENSE"));
    // perft is a developer tool, not part of the product.
    BOOST_TEST(!fs::exists(prefix / "bin" / "perft"));
}

BOOST_AUTO_TEST_CASE(parallel_recipe_many_files) {
    // The README's `parallel -S HOSTS --trc {.}.iccf.pgn pgn-iccf -q -j1 -o {.}.iccf.pgn {}`:
    // every output x.iccf.pgn lands next to its input and equals a single run on that input;
    // the exit status counts the inputs whose run failed. Three ways:
    // - local: a folder of files, on this machine only (-S :, parallel transfers nothing);
    // - flat: the same through a stand-in ssh to a "remote" login directory, and this machine;
    // - tree: files in sub-folders (find), remote only, each job in a folder of its own
    //   (--wd "pgn-iccf-$$-{#}").
    std::vector<fs::path> const corpus = {data / "corpus" / "32games.pgn",
                                          data / "corpus" / "twic-01-232games.pgn",
                                          data / "corpus" / "lichess_mliebelt_2024-01-03.pgn"};
    struct Variant {
        std::string name;
        std::vector<std::string> folders; // where the inputs go, under the working directory
        std::string input_list; // a command writing the inputs' names, for parallel to read
        std::string hosts;
        std::string input_args;
    };
    std::vector<Variant> const variants = {{"local", {"."}, "", " -S :", " ::: *.pgn"},
                                           {"flat", {"."}, "", " -S 2/fakehost,1/:", " ::: *.pgn"},
                                           {"tree",
                                            {"2023", "2024/corr"},
                                            "find . -name '*.pgn' ! -name '*.iccf.pgn' | ",
                                            " -S 2/fakehost --wd \"pgn-iccf-$$-{#}\"",
                                            ""}};
    for (auto const& v : variants) {
        BOOST_TEST_CONTEXT(v.name) {
            fs::path const dir = temp_dir("many-" + v.name);
            fs::path const archive = dir / "archive";
            std::vector<fs::path> inputs;
            for (std::size_t i = 0; i < corpus.size() + 1; ++i) {
                fs::path const folder = archive / v.folders[i % v.folders.size()];
                fs::create_directories(folder);
                inputs.push_back(folder / (i < corpus.size() ? corpus[i].filename().string()
                                                             : std::string("it's a $name.pgn")));
                if (i < corpus.size())
                    fs::copy_file(corpus[i], inputs.back());
                else
                    write_file(inputs.back(), tricky_games);
            }
            fs::path const home = dir / "remote-home";
            fs::path const log = dir / "ssh.log";
            fs::create_directories(home);
            std::string const ssh = v.name == "local" ? "" : fake_ssh(dir, home, log);
            auto const run = sh(in(archive) + v.input_list + parallel() + ssh + v.hosts +
                                " --trc {.}.iccf.pgn pgn-iccf -q" + one_thread() +
                                " -o {.}.iccf.pgn {}" + v.input_args + " 2>&1");
            int failed = 0;
            for (auto const& input : inputs) {
                BOOST_TEST_CONTEXT(input.filename()) {
                    auto const single = sh(bin + " -q " + q(input) + " 2>/dev/null");
                    if (single.status != 0) ++failed;
                    fs::path out = input;
                    out.replace_extension(".iccf.pgn");
                    BOOST_TEST_REQUIRE(fs::exists(out), run.out);
                    BOOST_TEST(read_file(out) == single.out);
                }
            }
            BOOST_TEST(failed == 1); // the bad games in "it's a $name.pgn"
            BOOST_TEST(run.status == failed, run.out);
            if (v.name != "local") {
                // The inputs went through rsync and the command through ssh, and --cleanup left
                // nothing behind in the remote login directory.
                std::string const calls = read_file(log);
                BOOST_TEST(calls.find("rsync --server") != std::string::npos, calls);
                BOOST_TEST(calls.find("GNU_Parallel_worker") != std::string::npos, calls);
                int left = 0;
                for (auto const& e : fs::recursive_directory_iterator(home))
                    if (e.is_regular_file()) ++left;
                BOOST_TEST(left == 0);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(parallel_tree_recipe_with_jobs_ending_while_others_start) {
    // The tree recipe with 4 jobs at a time on one host and 24 inputs of one size, so that jobs
    // end (and --cleanup removes the folders they leave empty) while others are making theirs.
    // Every output comes back. With parallel's own `--wd ...` this failed on 5 runs of 5: the
    // jobs' folders share ~/.parallel/tmp, which a job ending alone removes while the next one
    // is making its folder in it.
    fs::path const dir = temp_dir("jobs-ending");
    fs::path const archive = dir / "archive";
    std::vector<fs::path> inputs;
    for (auto folder : {"2022", "2023", "2024/corr"})
        for (int i = 0; i < 8; ++i) {
            fs::create_directories(archive / folder);
            inputs.push_back(archive / folder / ("g" + std::to_string(i) + ".pgn"));
            fs::copy_file(data / "corpus" / "32games.pgn", inputs.back());
        }
    fs::path const home = dir / "remote-home";
    fs::create_directories(home);
    auto const run = sh(in(archive) + "find . -name '*.pgn' ! -name '*.iccf.pgn' | " + parallel() +
                        fake_ssh(dir, home, dir / "ssh.log") +
                        " -S 4/fakehost --wd \"pgn-iccf-$$-{#}\" --trc {.}.iccf.pgn pgn-iccf -q" +
                        one_thread() + " -o {.}.iccf.pgn {} 2>&1");
    BOOST_TEST(run.status == 0, run.out);
    std::string const single = sh(bin + " -q " + q(inputs.front())).out;
    int back = 0;
    for (auto const& input : inputs) {
        fs::path out = input;
        out.replace_extension(".iccf.pgn");
        if (fs::exists(out) && read_file(out) == single) ++back;
    }
    BOOST_TEST(back == static_cast<int>(inputs.size()), run.out);
    for (auto const& e : fs::recursive_directory_iterator(home))
        BOOST_TEST(false, "left on the host: " << e.path());
}

BOOST_AUTO_TEST_CASE(parallel_recipe_one_file_cut_at_game_starts) {
    // parallel --pipe-part -a huge.pgn --block B --recend '\n\n' --recstart '[Event "' -k
    // pgn-iccf -q -j1: the pieces' outputs, in order, equal one run on the whole file, and so
    // do their rejects files; likewise --pipe from a stream and pieces sent over ssh.
    fs::path const dir = temp_dir("one-file");
    fs::path const huge = dir / "huge.pgn";
    {
        std::string bytes;
        std::vector<fs::path> inputs;
        for (auto sub : {"corpus", "edge"})
            for (auto const& e : fs::directory_iterator(data / sub))
                if (e.path().extension() == ".pgn" && fs::file_size(e.path()) < 1000000)
                    inputs.push_back(e.path());
        std::sort(inputs.begin(), inputs.end());
        for (auto const& f : inputs) bytes += read_file(f) + "\n";
        write_file(huge, bytes + tricky_games);
    }
    write_file(dir / "tricky.pgn", tricky_games);
    std::string const cut = " --recend '\\n\\n' --recstart '[Event \"' -k";
    std::string const convert = " pgn-iccf -q" + one_thread();

    auto const whole = single_run(huge, dir);
    BOOST_TEST(whole.result.status == 1); // data/edge and the tricky games hold bad games
    auto const piecewise =
        sh(in(dir) + parallel() + " --pipe-part -a huge.pgn --block 40k" + cut +
           " --joblog jobs.log" + convert + " --rejects 'rejects.{#}.pgn' 2>/dev/null");
    BOOST_TEST(piecewise.out == whole.result.out);
    // The job log: a header line, then one line per piece; column 7 is the exit status.
    int pieces = 0;
    int failed = 0;
    std::istringstream jobs(read_file(dir / "jobs.log"));
    std::string line;
    std::getline(jobs, line);
    while (std::getline(jobs, line)) {
        std::istringstream fields(line);
        std::string field;
        for (int i = 0; i < 7; ++i) std::getline(fields, field, '\t');
        ++pieces;
        if (field != "0") ++failed;
    }
    BOOST_TEST(pieces >= 8);
    BOOST_TEST(failed >= 1);
    BOOST_TEST(piecewise.status == failed); // the number of failed jobs
    BOOST_TEST(sh(in(dir) + "cat $(ls -v rejects.*.pgn)").out == whole.rejects);

    auto const streamed = sh(in(dir) + parallel() + " --pipe --block 100k" + cut + convert +
                             " < huge.pgn 2>/dev/null");
    BOOST_TEST(streamed.out == whole.result.out);

    fs::path const home = dir / "remote-home";
    fs::create_directories(home);
    fs::path const log = dir / "ssh.log";
    auto const remote =
        sh(in(dir) + parallel() + fake_ssh(dir, home, log) + " -S 2/fakehost" +
           " --pipe-part -a huge.pgn --block 100k" + cut + convert + " 2>/dev/null");
    BOOST_TEST(remote.out == whole.result.out);
    BOOST_TEST(read_file(log).find("GNU_Parallel_worker") != std::string::npos);

    // Every possible cut point used at once (a 1-byte block): still the same bytes, while the
    // looser cut the README warns against (any line starting `[Event `) tears games apart.
    auto const tricky = single_run(dir / "tricky.pgn", dir);
    for (std::string const mode : {" --pipe-part -a tricky.pgn", " --pipe < tricky.pgn"}) {
        BOOST_TEST_CONTEXT(mode) {
            auto const r =
                sh(in(dir) + parallel() + mode + " --block 1" + cut + convert + " 2>/dev/null");
            BOOST_TEST(r.out == tricky.result.out);
        }
    }
    auto const loose = sh(in(dir) + parallel() +
                          " --pipe-part -a tricky.pgn --block 1 --recend '\\n'"
                          " --recstart '[Event ' -k" +
                          convert + " 2>/dev/null");
    BOOST_TEST(loose.out != tricky.result.out,
               "the tricky games no longer show why the recipe cuts only at a blank line");
}
