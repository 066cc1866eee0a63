// Unit tests of the run plan (src/plan/plan): modes, directory walks, output names and the
// identity checks, on an in-memory file system with symbolic links and hard links; then one
// run of the real file system on a temporary folder to show that it answers like the fake.
#define BOOST_TEST_MODULE plan
#include <boost/test/unit_test.hpp>

#include "plan/plan.hpp"
#include "plan/wording.hpp"
#include "support/fake_file_system.hpp"
#include "support/properties.hpp"
#include "support/shell.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace pgn_iccf;
using batch::Plan;
using batch::PlanRequest;
using io::Compression;
using io::FileSystem;
using test::FakeFileSystem;

PlanRequest request(std::vector<std::string> inputs, std::string output = "-") {
    PlanRequest r;
    r.inputs = std::move(inputs);
    r.output = std::move(output);
    r.default_suffix = ".iccf.pgn";
    return r;
}

// "display -> output" per job, joined: one string compares and prints well in a failure.
std::string jobs_of(Plan const& plan) {
    std::string s;
    for (auto const& j : plan.jobs) {
        if (!s.empty()) s += "; ";
        s += j.display;
        if (!j.output.empty()) s += " -> " + j.output;
    }
    return s;
}

std::string joined(std::vector<std::string> const& v) {
    std::string s;
    for (auto const& x : v) s += (s.empty() ? "" : "; ") + x;
    return s;
}
// The plan's problems, unreadable inputs or notes as the tool words them.
std::string joined(std::vector<batch::PlanProblem> const& v) {
    std::string s;
    for (auto const& x : v) s += (s.empty() ? "" : "; ") + batch::word(x);
    return s;
}

// The tree most tests share: two loose files and an archive with nested folders, mixed-case
// endings and files that are no PGN.
FakeFileSystem archive_tree() {
    FakeFileSystem fs;
    fs.file("g.pgn", 100)
        .file("h.pgn.gz", 50)
        .file("sub/h.pgn.gz", 60)
        .file("archive/2024/jan.pgn", 10)
        .file("archive/2024/Feb.PGN", 20)
        .file("archive/2024/notes.txt", 1)
        .file("archive/a.pgn", 1)
        .file("archive/a/b.pgn.zst", 2)
        .file("archive/c.pGn", 3)
        .file("archive/Z.Pgn.Gz", 4)
        .file("archive/readme.md", 5)
        .file("archive/games.pgn.txt", 6)
        .file("archive/deep/er/y.pgn", 7)
        .file("archive/x.pgn.bz2", 8);
    return fs;
}

std::string const archive_jobs =
    "archive/2024/Feb.PGN; archive/2024/jan.pgn; archive/Z.Pgn.Gz; archive/a.pgn; "
    "archive/a/b.pgn.zst; archive/c.pGn; archive/deep/er/y.pgn; archive/x.pgn.bz2";

} // namespace

BOOST_AUTO_TEST_CASE(single_output_mode) {
    // Without directory mode the jobs carry no output; the plan names the one output.
    struct Case {
        std::vector<std::string> inputs;
        std::string output;
        bool check;
        std::string want_output;
        Compression want_compression;
        std::string want_jobs;
        std::uint64_t want_size;
        bool want_size_known;
    };
    std::vector<Case> const cases{
        {{"g.pgn"}, "-", false, "-", Compression::none, "g.pgn", 100, true},
        {{"g.pgn"}, "f.pgn.gz", false, "f.pgn.gz", Compression::gzip, "g.pgn", 100, true},
        {{"g.pgn"}, "F.PGN.ZST", false, "F.PGN.ZST", Compression::zstd, "g.pgn", 100, true},
        {{"g.pgn"}, "f.bz2", false, "f.bz2", Compression::bzip2, "g.pgn", 100, true},
        {{}, "-", false, "-", Compression::none, "<stdin>", 0, false},
        {{"g.pgn", "h.pgn.gz"}, "-", false, "-", Compression::none, "g.pgn; h.pgn.gz", 150, true},
        {{"archive"}, "", false, "-", Compression::none, archive_jobs, 55, true},
        {{"g.pgn", "archive", "-"},
         "out",
         true,
         "",
         Compression::none,
         "g.pgn; " + archive_jobs + "; <stdin>",
         155,
         false},
        {{"g.pgn"}, "out.pgn.gz", true, "", Compression::none, "g.pgn", 100, true},
    };
    auto const fs = archive_tree();
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(joined(c.inputs) << " -o " << c.output << (c.check ? " --check" : "")) {
            auto r = request(c.inputs, c.output);
            r.check = c.check;
            r.rejects = c.check ? "bad.pgn" : "";
            Plan const p = make_plan(r, fs);
            BOOST_TEST(joined(p.problems) == "");
            BOOST_TEST(!p.directory_mode);
            BOOST_TEST(p.output == c.want_output);
            BOOST_TEST((p.output_compression == c.want_compression));
            BOOST_TEST(jobs_of(p) == c.want_jobs);
            BOOST_TEST(p.total_size == c.want_size);
            BOOST_TEST(p.total_size_known == c.want_size_known);
            BOOST_TEST(p.directories_to_create.empty());
            BOOST_TEST(p.rejects == r.rejects);
            for (auto const& j : p.jobs) BOOST_TEST((j.output_compression == Compression::none));
        }
    }
}

BOOST_AUTO_TEST_CASE(directory_walk_mirrors_the_tree) {
    // Names matched in any letter case, others ignored, files in byte order of their relative
    // path ("Z" < "a", "a.pgn" < "a/b.pgn.zst"), folders created parents first.
    auto const fs = archive_tree();
    Plan const p = make_plan(request({"archive"}, "out"), fs);
    BOOST_TEST(joined(p.problems) == "");
    BOOST_TEST(p.directory_mode);
    BOOST_TEST(jobs_of(p) ==
               "archive/2024/Feb.PGN -> out/2024/Feb.iccf.pgn; "
               "archive/2024/jan.pgn -> out/2024/jan.iccf.pgn; "
               "archive/Z.Pgn.Gz -> out/Z.iccf.pgn.gz; archive/a.pgn -> out/a.iccf.pgn; "
               "archive/a/b.pgn.zst -> out/a/b.iccf.pgn.zst; archive/c.pGn -> out/c.iccf.pgn; "
               "archive/deep/er/y.pgn -> out/deep/er/y.iccf.pgn; "
               "archive/x.pgn.bz2 -> out/x.iccf.pgn.bz2");
    std::vector<Compression> const want{Compression::none, Compression::none, Compression::gzip,
                                        Compression::none, Compression::zstd, Compression::none,
                                        Compression::none, Compression::bzip2};
    BOOST_TEST_REQUIRE(p.jobs.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        BOOST_TEST_CONTEXT(p.jobs[i].display) {
            BOOST_TEST((p.jobs[i].output_compression == want[i]));
            BOOST_TEST(p.jobs[i].input == p.jobs[i].display);
            BOOST_TEST(p.jobs[i].size_known);
        }
    }
    BOOST_TEST(joined(p.directories_to_create) == "out; out/2024; out/a; out/deep; out/deep/er");
    BOOST_TEST(p.total_size == 55U);
    BOOST_TEST(p.unreadable.empty());
    BOOST_TEST(p.notes.empty());
}

BOOST_AUTO_TEST_CASE(several_inputs_mirror_into_the_output_directory) {
    // Named files by their file name, directory inputs by their relative paths, standard input
    // as stdin + suffix; only missing folders are created.
    struct Case {
        std::vector<std::string> inputs;
        std::string output;
        std::string want_jobs;
        std::string want_create;
    };
    std::vector<Case> const cases{
        {{"g.pgn", "sub/h.pgn.gz"},
         "out",
         "g.pgn -> out/g.iccf.pgn; sub/h.pgn.gz -> out/h.iccf.pgn.gz",
         "out"},
        {{"g.pgn"}, "made/", "g.pgn -> made/g.iccf.pgn", "made"},
        {{"-"}, "made/", "<stdin> -> made/stdin.iccf.pgn", "made"},
        {{"g.pgn"}, "outdir", "g.pgn -> outdir/g.iccf.pgn", ""},
        {{"g.pgn", "archive/a", "-"},
         "outdir/",
         "g.pgn -> outdir/g.iccf.pgn; archive/a/b.pgn.zst -> outdir/b.iccf.pgn.zst; "
         "<stdin> -> outdir/stdin.iccf.pgn",
         ""},
        {{"archive/deep"}, "outdir", "archive/deep/er/y.pgn -> outdir/er/y.iccf.pgn", "outdir/er"},
        {{"archive/deep/"}, "outdir", "archive/deep/er/y.pgn -> outdir/er/y.iccf.pgn", "outdir/er"},
        // A missing -o folder is made with its missing parents (as mkdir -p), parents first.
        {{"g.pgn", "-"},
         "new/er/out",
         "g.pgn -> new/er/out/g.iccf.pgn; <stdin> -> new/er/out/stdin.iccf.pgn",
         "new; new/er; new/er/out"},
        {{"g.pgn"}, "outdir/x/y/", "g.pgn -> outdir/x/y/g.iccf.pgn", "outdir/x; outdir/x/y"},
    };
    auto fs = archive_tree();
    fs.dir("outdir/2024").dir("outdir/deep");
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(joined(c.inputs) << " -o " << c.output) {
            Plan const p = make_plan(request(c.inputs, c.output), fs);
            BOOST_TEST(joined(p.problems) == "");
            BOOST_TEST(p.directory_mode);
            BOOST_TEST(p.output == "");
            BOOST_TEST(jobs_of(p) == c.want_jobs);
            BOOST_TEST(joined(p.directories_to_create) == c.want_create);
        }
    }
    // A file in the way of the missing folder's parents: refused, nothing to create.
    {
        Plan const q = make_plan(request({"g.pgn", "-"}, "g.pgn/x/out"), fs);
        BOOST_TEST(joined(q.problems).find("Not a directory") != std::string::npos,
                   joined(q.problems));
        BOOST_TEST(q.directories_to_create.empty());
    }
    // Existing folders are not created again; new ones come after their parents.
    Plan const p = make_plan(request({"archive", "-"}, "outdir"), fs);
    BOOST_TEST(joined(p.problems) == "");
    BOOST_TEST(joined(p.directories_to_create) == "outdir/a; outdir/deep/er");
    BOOST_TEST(p.jobs.back().output == "outdir/stdin.iccf.pgn");
    BOOST_TEST(!p.total_size_known);
    BOOST_TEST(p.total_size == 55U);
}

BOOST_AUTO_TEST_CASE(symbolic_link_loops_and_second_links_are_walked_once) {
    FakeFileSystem fs;
    fs.file("archive/r.pgn")
        .file("archive/sub/s.pgn")
        .link("archive/sub/up", "..")
        .file("shared/t.pgn")
        .link("archive/twin1", "/w/shared")
        .link("archive/twin2", "../shared")
        .link("archive/self", ".")
        .link("archive/file-link.pgn", "/w/shared/t.pgn");
    Plan const p = make_plan(request({"archive", "./archive", "shared"}, "out"), fs);
    // A link to a file is an ordinary file (it is read through the link); the file it names,
    // found again, is read again, with a note.
    BOOST_TEST(jobs_of(p) == "archive/file-link.pgn -> out/file-link.iccf.pgn; "
                             "archive/r.pgn -> out/r.iccf.pgn; "
                             "archive/sub/s.pgn -> out/sub/s.iccf.pgn; "
                             "archive/twin1/t.pgn -> out/twin1/t.iccf.pgn");
    BOOST_TEST(joined(p.notes) ==
               "archive/self: already walked (symbolic-link loop or second link), skipped; "
               "archive/sub/up: already walked (symbolic-link loop or second link), skipped; "
               "archive/twin2: already walked (symbolic-link loop or second link), skipped; "
               "archive/twin1/t.pgn is the same file as archive/file-link.pgn: its games are read "
               "twice; "
               "./archive: already walked (symbolic-link loop or second link), skipped; "
               "shared: already walked (symbolic-link loop or second link), skipped");
    BOOST_TEST(joined(p.problems) == "");
}

BOOST_AUTO_TEST_CASE(an_output_directory_in_an_input_directory_is_refused) {
    // N05: inside an input folder, the output folder's files would be skipped unseen (or, on
    // a second run, our outputs read back); equal to one, nothing would be converted. Refused
    // by path even before the output folder exists, so that a second run answers as the first.
    FakeFileSystem fs;
    fs.file("archive/a.pgn").file("archive/iccf/a.iccf.pgn").file("archive/iccf/old/b.pgn");
    fs.file("other/c.pgn").link("other/to-out", "/w/out2").dir("out2");
    fs.link("iccf-link", "archive/iccf");
    std::string const choose = ": choose an output folder outside the inputs";
    std::string const inside = ": its files would be skipped, or read back as inputs; choose an "
                               "output folder outside the inputs";
    struct Case {
        std::vector<std::string> inputs;
        std::string output;
        std::string want;
    };
    std::vector<Case> const cases{
        {{"archive"},
         "archive/iccf",
         "the output folder archive/iccf is inside the input folder "
         "archive" +
             inside},
        {{"archive"},
         "./archive//iccf/",
         "the output folder ./archive//iccf is inside the input "
         "folder archive" +
             inside},
        {{"archive"},
         "iccf-link",
         "the output folder iccf-link is inside the input folder "
         "archive" +
             inside},
        {{"archive"},
         "archive/new",
         "the output folder archive/new is inside the input folder "
         "archive" +
             inside},
        {{"archive"}, "archive", "the output folder archive is the input folder archive" + choose},
        {{"archive/iccf", "archive/a.pgn"},
         "archive/iccf",
         "the output folder archive/iccf is the input folder archive/iccf" + choose},
        {{"archive/a.pgn", "."},
         "out",
         "the output folder out is inside the input folder ." + inside},
        // Reached by a link inside the input.
        {{"other"},
         "out2",
         "the output folder out2 is inside an input folder (as "
         "other/to-out)" +
             choose},
        // Accepted: outside, or an input folder inside the output folder.
        {{"archive"}, "out", ""},
        {{"archive/iccf/old"}, "archive/iccf", ""},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(joined(c.inputs) << " -o " << c.output) {
            Plan const p = make_plan(request(c.inputs, c.output), fs);
            BOOST_TEST(joined(p.problems) == c.want);
            BOOST_TEST(joined(p.notes) == "");
        }
    }
    // No directory mode: nothing is skipped.
    Plan const p = make_plan(request({"archive"}, "-"), fs);
    BOOST_TEST(jobs_of(p) == "archive/a.pgn; archive/iccf/a.iccf.pgn; archive/iccf/old/b.pgn");
}

BOOST_AUTO_TEST_CASE(standard_streams_are_files_too) {
    // N14, N15: standard output opened on a file (`>> all.pgn`) is that file: read as an input
    // it would grow for ever; beside a named output it would be renamed over. Standard input
    // opened on a file is an input no output may be. By FileId, so hard links count.
    auto fs = archive_tree();
    fs.file("all.pgn").hard_link("g2.pgn", "g.pgn").file("r.pgn").file("o.pgn");
    fs.file("out/g.iccf.pgn").fifo("/dev/null").fifo("pipe");
    struct Case {
        std::vector<std::string> inputs;
        std::string output;
        std::string rejects;
        bool check;
        std::string in;  // standard input's file ("" = a pipe)
        std::string out; // standard output's file
        std::string want;
    };
    std::string const same = ": input file is output file";
    std::vector<Case> const cases{
        {{"g.pgn"}, "-", "", false, "", "g.pgn", "the input g.pgn is standard output" + same},
        {{"g.pgn", "all.pgn"},
         "-",
         "",
         false,
         "",
         "all.pgn",
         "the input all.pgn is standard output" + same},
        {{"g.pgn"}, "-", "", false, "", "g2.pgn", "the input g.pgn is standard output" + same},
        {{"-"},
         "-",
         "",
         false,
         "all.pgn",
         "all.pgn",
         "the input <stdin> is standard output" + same},
        {{}, "-", "", false, "all.pgn", "all.pgn", "the input <stdin> is standard output" + same},
        {{"archive"},
         "-",
         "",
         false,
         "",
         "archive/2024/jan.pgn",
         "the input archive/2024/jan.pgn is standard output" + same},
        {{"g.pgn"}, "", "-", true, "", "g.pgn", "the input g.pgn is standard output" + same},
        {{"g.pgn"},
         "-",
         "r.pgn",
         false,
         "",
         "r.pgn",
         "--rejects r.pgn is standard output too: both would be written to one file"},
        {{"g.pgn"},
         "o.pgn",
         "-",
         false,
         "",
         "o.pgn",
         "-o o.pgn is standard output too (--rejects -): both would be written to one file"},
        {{"g.pgn", "h.pgn.gz"},
         "out",
         "-",
         false,
         "",
         "out/g.iccf.pgn",
         "the output out/g.iccf.pgn is standard output too (--rejects -): both would be "
         "written to one file"},
        {{"-"}, "all.pgn", "", false, "all.pgn", "", "the output all.pgn is the input <stdin>"},
        {{"-"}, "-", "all.pgn", false, "all.pgn", "", "the rejects file all.pgn is an input"},
        {{"-", "g.pgn"},
         "out",
         "",
         false,
         "out/g.iccf.pgn",
         "",
         "the output out/g.iccf.pgn is the input <stdin>"},
        // Accepted: standard output not written, or another file, or no file.
        {{"g.pgn"}, "o.pgn", "", false, "", "g.pgn", ""},
        {{"g.pgn"}, "", "", true, "", "g.pgn", ""},
        {{"g.pgn"}, "-", "", false, "", "all.pgn", ""},
        {{"g.pgn"}, "-", "", false, "", "", ""},
        {{"-"}, "-", "", false, "g.pgn", "all.pgn", ""},
        {{"-"}, "-", "/dev/null", false, "/dev/null", "", ""},
        {{"-"}, "-", "pipe", false, "pipe", "", ""},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(joined(c.inputs) << " -o " << c.output << " --rejects " << c.rejects
                                            << " < " << c.in << " > " << c.out) {
            FakeFileSystem f = fs;
            f.stream(0, c.in).stream(1, c.out);
            auto r = request(c.inputs, c.output);
            r.rejects = c.rejects;
            r.check = c.check;
            Plan const p = make_plan(r, f);
            BOOST_TEST(joined(p.problems) == c.want);
        }
    }
    // Standard error appended to an input: each warning about the text it adds would be read
    // back as more text.
    FakeFileSystem f = fs;
    f.stream(2, "g2.pgn");
    BOOST_TEST(joined(make_plan(request({"g.pgn"}, "o.pgn"), f).problems) ==
               "the input g.pgn is standard error: input file is output file");
    f.stream(2, "all.pgn");
    BOOST_TEST(joined(make_plan(request({"g.pgn"}, "o.pgn"), f).problems) == "");
}

BOOST_AUTO_TEST_CASE(outputs_that_are_one_file_are_refused) {
    // Two outputs of one run that are hard links of each other.
    FakeFileSystem fs;
    fs.file("a.pgn")
        .file("b.pgn")
        .file("out/a.iccf.pgn")
        .hard_link("out/b.iccf.pgn", "out/a.iccf.pgn");
    Plan const p = make_plan(request({"a.pgn", "b.pgn"}, "out"), fs);
    BOOST_TEST(joined(p.problems) ==
               "the outputs out/a.iccf.pgn and out/b.iccf.pgn are one file (hard links)");
}

BOOST_AUTO_TEST_CASE(output_names) {
    // The default suffix keeps the input's compression; an explicit one decides it.
    struct Case {
        std::string name;
        std::string suffix;
        std::string want;
        Compression want_compression;
    };
    std::vector<Case> const cases{
        {"x.pgn", "", "x.iccf.pgn", Compression::none},
        {"c.pGn", "", "c.iccf.pgn", Compression::none},
        {"x.PGN.GZ", "", "x.iccf.pgn.gz", Compression::gzip},
        {"x.pgn.zst", "", "x.iccf.pgn.zst", Compression::zstd},
        {"x.Pgn.Bz2", "", "x.iccf.pgn.bz2", Compression::bzip2},
        {"games.txt", "", "games.txt.iccf.pgn", Compression::none},
        {"games.gz", "", "games.iccf.pgn.gz", Compression::gzip},
        {"games", "", "games.iccf.pgn", Compression::none},
        {"x.pgn.zst", ".out.pgn", "x.out.pgn", Compression::none},
        {"x.pgn", ".o.pgn.bz2", "x.o.pgn.bz2", Compression::bzip2},
        {"x.pgn.gz", ".o.PGN.ZST", "x.o.PGN.ZST", Compression::zstd},
        {"games.gz", "-san.pgn", "games-san.pgn", Compression::none},
        {"x.pgn", "..pgn", "x..pgn", Compression::none},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(c.name << " --suffix '" << c.suffix << "'") {
            FakeFileSystem fs;
            fs.file("in/" + c.name);
            auto r = request({"in/" + c.name}, "out/");
            r.suffix = c.suffix;
            Plan const p = make_plan(r, fs);
            BOOST_TEST(joined(p.problems) == "");
            BOOST_TEST_REQUIRE(p.jobs.size() == 1U);
            BOOST_TEST(p.jobs[0].output == "out/" + c.want);
            BOOST_TEST((p.jobs[0].output_compression == c.want_compression));
        }
    }
}

BOOST_AUTO_TEST_CASE(bad_suffixes_are_refused) {
    auto const fs = archive_tree();
    std::vector<std::string> const suffixes{"/x.pgn", "a/b.pgn", "..", ".", "sub/"};
    std::vector<std::string> const outputs{"out", "-"};
    for (auto const& suffix : suffixes) {
        for (auto const& output : outputs) {
            BOOST_TEST_CONTEXT("--suffix '" << suffix << "' -o " << output) {
                auto r = request({"g.pgn", "archive"}, output);
                r.suffix = suffix;
                Plan const p = make_plan(r, fs);
                BOOST_TEST(joined(p.problems) ==
                           "--suffix must be a file-name ending, without '/': " + suffix);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(outputs_that_clash_or_are_inputs_are_refused) {
    auto fs = archive_tree();
    fs.file("a/x.pgn").file("b/x.pgn").file("a/x.pgn.gz");
    fs.file("in/x.pgn").file("in/x.iccf.pgn");
    fs.file("src/x.pgn").file("src/y.pgn").hard_link("out/x.iccf.pgn", "src/y.pgn");
    fs.hard_link("g2.pgn", "g.pgn");
    fs.link("in-link", "in");
    fs.dir("elsewhere").dir("escape").link("escape/2024", "/w/elsewhere");
    fs.file("other.pgn").link("escape/a.iccf.pgn", "/w/other.pgn");
    fs.file("busy/a").dir("busy/g.iccf.pgn").file("stdin.pgn");
    struct Case {
        std::vector<std::string> inputs;
        std::string output;
        std::string suffix;
        std::string want;
    };
    std::vector<Case> const cases{
        {{"a/x.pgn", "b/x.pgn"},
         "out",
         "",
         "a/x.pgn and b/x.pgn would both be written to "
         "out/x.iccf.pgn"},
        {{"a/x.pgn", "a/x.pgn.gz"},
         "o2",
         ".o.pgn",
         "a/x.pgn and a/x.pgn.gz would both be "
         "written to o2/x.o.pgn"},
        {{"g.pgn", "g.pgn"}, "o2", "", "g.pgn and g.pgn would both be written to o2/g.iccf.pgn"},
        {{"in/x.pgn", "in/x.iccf.pgn"},
         "in",
         "",
         "the output in/x.iccf.pgn is the input in/x.iccf.pgn"},
        {{"in/x.pgn", "in/x.iccf.pgn"},
         "in-link",
         "",
         "the output in-link/x.iccf.pgn is the input in/x.iccf.pgn"},
        {{"src/x.pgn", "src/y.pgn"}, "out", "", "the output out/x.iccf.pgn is the input src/y.pgn"},
        {{"archive"},
         "escape",
         "",
         "escape/2024/Feb.iccf.pgn would be written outside escape; "
         "escape/2024/jan.iccf.pgn would be written outside escape; "
         "escape/a.iccf.pgn would be written outside escape"},
        {{"g.pgn", "h.pgn.gz"}, "busy", "", "the output busy/g.iccf.pgn is a folder"},
        {{"g.pgn", "archive"},
         "busy/a",
         "",
         "with several inputs or a directory input, -o must name a directory: busy/a is a file"},
        {{"g.pgn"}, "busy/a/", "", "-o busy/a/: Not a directory"},
        {{"g.pgn", "stdin.pgn", "-", "-"},
         "o2",
         "",
         "standard input is given twice; "
         "stdin.pgn and <stdin> would both be written to o2/stdin.iccf.pgn"},
        // Single output mode.
        {{"g.pgn"}, "./g.pgn", "", "the output ./g.pgn is the input g.pgn"},
        {{"archive/a.pgn"},
         "archive/2024/../a.pgn",
         "",
         "the output archive/2024/../a.pgn is the input archive/a.pgn"},
        {{"g.pgn"}, "g2.pgn", "", "the output g2.pgn is the input g.pgn"},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(joined(c.inputs) << " -o " << c.output << " --suffix " << c.suffix) {
            auto r = request(c.inputs, c.output);
            r.suffix = c.suffix;
            Plan const p = make_plan(r, fs);
            BOOST_TEST(joined(p.problems) == c.want);
        }
    }
}

BOOST_AUTO_TEST_CASE(output_folders_in_the_way_are_refused) {
    FakeFileSystem fs;
    fs.file("archive/2024/jan.pgn").file("archive/x/y/z.pgn").file("out/x");
    Plan const p = make_plan(request({"archive"}, "out"), fs);
    BOOST_TEST(joined(p.problems) == "the output folder out/x cannot be created: a file is there");
    BOOST_TEST(joined(p.directories_to_create) == "out/2024");
}

BOOST_AUTO_TEST_CASE(floods_of_output_problems_are_counted) {
    FakeFileSystem fs;
    for (int i = 0; i < 15; ++i) {
        fs.file("one/g" + std::to_string(i) + ".pgn");
        fs.file("two/g" + std::to_string(i) + ".pgn");
    }
    Plan const p = make_plan(request({"one", "two"}, "out"), fs);
    BOOST_TEST_REQUIRE(p.problems.size() == 11U);
    BOOST_TEST(batch::word(p.problems[0]) ==
               "one/g0.pgn and two/g0.pgn would both be written to out/g0.iccf.pgn");
    BOOST_TEST(batch::word(p.problems[10]) == "... and 5 more problems with output names");
}

// A folder named as an input that holds no PGN file is said (found by a review as a user:
// a mistyped folder gave "0 games read" and exit status 0 without a word); one that holds one
// below is not, and neither is one whose walk said why already.
BOOST_AUTO_TEST_CASE(a_folder_without_a_pgn_file_is_noted) {
    auto fs = archive_tree();
    fs.file("texts/games.txt", 1).file("texts/sub/games.pgn.zip", 1).file("empty/.keep", 0);
    fs.unlistable("locked");
    Plan const p = make_plan(request({"texts", "archive", "empty", "locked"}, "out"), fs);
    BOOST_TEST(joined(p.problems) == "");
    BOOST_TEST(joined(p.unreadable) == "locked: Permission denied");
    std::string const rest = ": no PGN file in this folder or below (names ending in .pgn, "
                             ".pgn.gz, .pgn.bz2 or .pgn.zst, in any letter case); nothing "
                             "converted from it";
    BOOST_TEST(joined(p.notes) == "texts" + rest + "; empty" + rest);
    BOOST_TEST(p.jobs.size() == 8U); // the archive's
}

// Options the run has no use for are noted (found by a review as a user: they were ignored
// without a word).
BOOST_AUTO_TEST_CASE(options_without_effect_are_noted) {
    auto fs = archive_tree();
    auto notes = [&](PlanRequest r) {
        Plan const p = make_plan(r, fs);
        BOOST_TEST(joined(p.problems) == "");
        return joined(p.notes);
    };
    PlanRequest r = request({"g.pgn"}, "x.pgn");
    r.compress_level = 5;
    BOOST_TEST(notes(r) == "--compress-level 5 has no effect: no output is compressed (outputs "
                           "named .gz, .bz2 or .zst are)");
    r.rejects = "r.pgn.gz"; // the rejects file is compressed
    BOOST_TEST(notes(r) == "");
    r = request({"g.pgn"}, "x.pgn.zst");
    r.compress_level = 5;
    BOOST_TEST(notes(r) == "");
    r = request({"g.pgn"}, "x.pgn");
    r.suffix = ".foo";
    BOOST_TEST(notes(r) == "--suffix .foo has no effect: it names the outputs written into a "
                           "folder (-o FOLDER with a folder or several files)");
    r = request({"archive"}, "out");
    r.suffix = ".foo.pgn";
    BOOST_TEST(notes(r) == "");
    r = request({"g.pgn"}, "chk.pgn");
    r.check = true;
    BOOST_TEST(notes(r) == "--check writes no output: -o chk.pgn is not written");
    r.output = "-";
    BOOST_TEST(notes(r) == "");
    // The same file named twice is read twice, with a note.
    BOOST_TEST(notes(request({"g.pgn", "./g.pgn"})) ==
               "./g.pgn is the same file as g.pgn: its games are read twice");
}

BOOST_AUTO_TEST_CASE(unreadable_inputs_are_reported_and_the_rest_goes_on) {
    auto fs = archive_tree();
    fs.unlistable("archive/locked").file("archive/locked/l.pgn");
    // Only PGN names are inputs (N07): a dangling notes.txt link or a link loop named so is
    // nothing to read; a dangling link named like a PGN input is an error naming it.
    fs.link("archive/dead", "/w/nowhere").link("archive/dead.txt", "nowhere.txt");
    fs.link("archive/dead.pgn.gz", "nowhere.pgn").link("archive/loop.txt", "loop.txt");
    fs.fifo("archive/pipe.pgn").fifo("archive/pipe.txt").fifo("named-pipe");
    Plan const p = make_plan(request({"nope.pgn", "g.pgn", "archive", "named-pipe"}, "out"), fs);
    BOOST_TEST(joined(p.problems) == "");
    BOOST_TEST(p.directory_mode);
    BOOST_TEST(joined(p.unreadable) == "nope.pgn: No such file or directory; "
                                       "archive/dead.pgn.gz: dangling symbolic link; "
                                       "archive/locked: Permission denied");
    BOOST_TEST(joined(p.notes) == "archive/pipe.pgn: not a regular file, skipped");
    BOOST_TEST(jobs_of(p) == "g.pgn -> out/g.iccf.pgn; " +
                                 std::string("archive/2024/Feb.PGN -> out/2024/Feb.iccf.pgn") +
                                 "; archive/2024/jan.pgn -> out/2024/jan.iccf.pgn; "
                                 "archive/Z.Pgn.Gz -> out/Z.iccf.pgn.gz; "
                                 "archive/a.pgn -> out/a.iccf.pgn; "
                                 "archive/a/b.pgn.zst -> out/a/b.iccf.pgn.zst; "
                                 "archive/c.pGn -> out/c.iccf.pgn; "
                                 "archive/deep/er/y.pgn -> out/deep/er/y.iccf.pgn; "
                                 "archive/x.pgn.bz2 -> out/x.iccf.pgn.bz2; "
                                 "named-pipe -> out/named-pipe.iccf.pgn");
    BOOST_TEST(!p.total_size_known); // the named FIFO's size is unknown
    // A missing input still counts as one of several: the output stays a directory.
    Plan const q = make_plan(request({"nope.pgn", "g.pgn"}, "out"), fs);
    BOOST_TEST(q.directory_mode);
    BOOST_TEST(jobs_of(q) == "g.pgn -> out/g.iccf.pgn");
}

BOOST_AUTO_TEST_CASE(rejects_file_checks) {
    auto fs = archive_tree();
    fs.hard_link("g2.pgn", "g.pgn")
        .file("old-out.pgn")
        .hard_link("old-out-link.pgn", "old-out.pgn");
    fs.dir("outdir");
    struct Case {
        std::vector<std::string> inputs;
        std::string output;
        bool check;
        std::string rejects;
        std::string want;
    };
    std::vector<Case> const cases{
        {{"g.pgn"}, "o.pgn", false, "o.pgn", "--rejects and -o name the same file: o.pgn"},
        {{"g.pgn"}, "o.pgn", false, "./o.pgn", "--rejects and -o name the same file: ./o.pgn"},
        {{"g.pgn"},
         "./o.pgn",
         false,
         "missing/../o.pgn",
         "--rejects and -o name the same file: missing/../o.pgn"},
        {{"g.pgn"},
         "old-out.pgn",
         false,
         "old-out-link.pgn",
         "--rejects and -o name the same file: old-out-link.pgn"},
        {{"g.pgn", "h.pgn.gz"},
         "out",
         false,
         "out/g.iccf.pgn",
         "--rejects and -o name the same file: out/g.iccf.pgn"},
        {{"archive"},
         "outdir",
         false,
         "./outdir//a/b.iccf.pgn.zst",
         "--rejects and -o name the same file: ./outdir//a/b.iccf.pgn.zst"},
        {{"g.pgn"}, "o.pgn", false, "g.pgn", "the rejects file g.pgn is an input"},
        {{"g.pgn"}, "o.pgn", false, "g2.pgn", "the rejects file g2.pgn is an input"},
        {{"archive"},
         "out",
         false,
         "archive/2024/../a.pgn",
         "the rejects file archive/2024/../a.pgn is an input"},
        {{"g.pgn"}, "", true, "./g.pgn", "the rejects file ./g.pgn is an input"},
        {{"g.pgn"}, "o.pgn", false, "archive", "--rejects names a directory: archive"},
        {{"g.pgn"},
         "-",
         false,
         "-",
         "--rejects - and the output both name standard output (the output goes there unless -o "
         "names a file)"},
        // R14b: nothing may be created for a rejects file that cannot be opened.
        {{"g.pgn", "h.pgn.gz"}, "X", false, "./X", "--rejects ./X names the output folder X"},
        {{"g.pgn", "h.pgn.gz"}, "X/", false, "X", "--rejects X names the output folder X"},
        {{"g.pgn", "h.pgn.gz"},
         "outdir",
         false,
         "./outdir",
         "--rejects names a directory: ./outdir"},
        {{"archive"},
         "out",
         false,
         "out/2024",
         "--rejects out/2024 names a folder the outputs need"},
        {{"g.pgn", "h.pgn.gz"},
         "out",
         false,
         "nodir/r.pgn",
         "--rejects nodir/r.pgn cannot be written: no folder /w/nodir"},
        {{"g.pgn", "h.pgn.gz"},
         "out",
         false,
         "g.pgn/r.pgn",
         "--rejects g.pgn/r.pgn: Not a directory"},
        {{"g.pgn"}, "o.pgn", false, "g.pgn/", "--rejects g.pgn/: Not a directory"},
        // Accepted.
        {{"g.pgn"}, "o.pgn", false, "bad.pgn", ""},
        {{"g.pgn"}, "-", false, "bad.pgn", ""},
        {{"g.pgn"}, "o.pgn", false, "-", ""},
        {{"g.pgn"}, "-", true, "-", ""},
        {{"g.pgn"}, "-", true, "o.pgn", ""},
        {{"g.pgn", "h.pgn.gz"}, "out", false, "out/rejects.pgn", ""},
        {{"archive"}, "out", false, "out/2024/rejects.pgn", ""},
        {{"archive"}, "outdir", false, "outdir/rejects.pgn", ""},
        // Both discarded: nothing can be mixed up in /dev/null.
        {{"g.pgn"}, "/dev/null", false, "/dev/null", ""},
    };
    for (auto const& c : cases) {
        BOOST_TEST_CONTEXT(joined(c.inputs) << " -o " << c.output << " --rejects " << c.rejects
                                            << (c.check ? " --check" : "")) {
            auto r = request(c.inputs, c.output);
            r.check = c.check;
            r.rejects = c.rejects;
            Plan const p = make_plan(r, fs);
            BOOST_TEST(joined(p.problems) == c.want);
            BOOST_TEST(p.rejects == c.rejects);
        }
    }
    auto r = request({"g.pgn"});
    r.rejects = "bad.PGN.GZ";
    BOOST_TEST((make_plan(r, fs).rejects_compression == Compression::gzip));
    r.rejects = "bad.pgn";
    BOOST_TEST((make_plan(r, fs).rejects_compression == Compression::none));
}

BOOST_AUTO_TEST_CASE(real_file_system_agrees) {
    namespace stdfs = std::filesystem;
    test::TempFolder const folder("plan");
    std::string const root = stdfs::canonical(folder.path()).string(); // as canonical() will say
    auto write = [](std::string const& path, std::string const& text) {
        stdfs::create_directories(stdfs::path(path).parent_path());
        std::ofstream(path, std::ios::binary) << text;
    };
    std::string const archive = root + "/archive";
    write(archive + "/b.PGN", "12345");
    write(archive + "/sub/a.pgn.gz", "123");
    write(archive + "/notes.txt", "x");
    stdfs::create_directory_symlink("..", archive + "/sub/up");
    stdfs::create_symlink(root + "/nowhere", archive + "/dead.pgn");
    stdfs::create_directories(root + "/out");
    stdfs::create_hard_link(archive + "/b.PGN", root + "/out/b.iccf.pgn");

    auto const& fs = io::real_file_system();
    FileSystem::Status const st = fs.status(archive + "/b.PGN");
    BOOST_TEST((st.kind == FileSystem::Kind::file));
    BOOST_TEST(st.size == 5U);
    BOOST_TEST((fs.status(archive + "/sub/up").id == fs.status(archive).id));
    BOOST_TEST((fs.status(root + "/none").kind == FileSystem::Kind::missing));
    BOOST_TEST(fs.status(archive + "/dead.pgn").error == "dangling symbolic link");
    BOOST_TEST(fs.canonical(archive + "/sub/up/../x/../o.pgn") == root + "/o.pgn");
    BOOST_TEST(fs.canonical(root + "/new/") == root + "/new");
    std::vector<std::string> names;
    std::string error;
    BOOST_TEST(!fs.list(root + "/none", names, error));
    BOOST_TEST(error == "No such file or directory");

    PlanRequest r = request({archive}, root + "/out");
    r.rejects = root + "/new/../out/sub/a.iccf.pgn.gz";
    Plan const p = make_plan(r, fs);
    BOOST_TEST(jobs_of(p) == archive + "/b.PGN -> " + root + "/out/b.iccf.pgn; " + archive +
                                 "/sub/a.pgn.gz -> " + root + "/out/sub/a.iccf.pgn.gz");
    BOOST_TEST(joined(p.problems) ==
               "the output " + root + "/out/b.iccf.pgn is the input " + archive +
                   "/b.PGN; --rejects and -o name the same file: " + r.rejects);
    BOOST_TEST(joined(p.unreadable) == archive + "/dead.pgn: dangling symbolic link");
    BOOST_TEST(joined(p.notes) == archive + "/sub/up: already walked (symbolic-link loop or " +
                                      "second link), skipped");
    BOOST_TEST(joined(p.directories_to_create) == root + "/out/sub");
    BOOST_TEST(p.total_size == 8U);

    // Without the hard link: accepted; with the output directory inside the archive: refused.
    stdfs::remove(root + "/out/b.iccf.pgn");
    Plan const accepted = make_plan(request({archive}, root + "/out"), fs);
    BOOST_TEST(joined(accepted.problems) == "");
    BOOST_TEST(accepted.jobs.size() == 2U);
    stdfs::rename(root + "/out", archive + "/out");
    write(archive + "/out/old.iccf.pgn", "");
    Plan const q = make_plan(request({archive}, archive + "/out"), fs);
    BOOST_TEST(joined(q.problems) == "the output folder " + archive +
                                         "/out is inside the input folder " + archive +
                                         ": its files would be skipped, or read back as inputs; "
                                         "choose an output folder outside the inputs");

    // Standard streams by fstat: a file opened as standard output is that file.
    int const saved = ::dup(1);
    BOOST_TEST_REQUIRE(saved >= 0);
    int const fd = ::open((archive + "/b.PGN").c_str(), O_WRONLY | O_APPEND);
    BOOST_TEST_REQUIRE(fd >= 0);
    std::fflush(stdout);
    ::dup2(fd, 1);
    FileSystem::Status const out = fs.stream(1);
    Plan const looped = make_plan(request({archive}), fs);
    ::dup2(saved, 1);
    ::close(fd);
    ::close(saved);
    BOOST_TEST((out.kind == FileSystem::Kind::file));
    BOOST_TEST((out.id == fs.status(archive + "/b.PGN").id));
    BOOST_TEST(joined(looped.problems) ==
               "the input " + archive + "/b.PGN is standard output: input file is output file");
}

BOOST_AUTO_TEST_CASE(random_trees_keep_the_plan_properties) {
    // The property checks of the fuzz target `plan` (tests/support/plan_properties.cpp) on
    // seeded random inputs: trees of files, folders, FIFOs and links, and command lines.
    std::mt19937_64 rng(20261205);
    int const runs = 20000;
    for (int i = 0; i < runs; ++i) {
        std::string bytes(16 + rng() % 112, '\0');
        for (char& c : bytes) c = static_cast<char>(rng());
        std::string const failure = properties::check_plan_input(bytes);
        BOOST_TEST_REQUIRE(failure == "", "run " << i << ": " << failure);
    }
}

// Every PlanCode has its own wording (plan/wording.cpp): a loop over the enum's values, so a
// code added without a sentence is found here (the fallback names the number).
BOOST_AUTO_TEST_CASE(every_plan_code_is_worded) {
    batch::PlanProblem p{.path = "P",
                         .other = "O",
                         .os_error = "E",
                         .third = "T",
                         .number = 3,
                         .compression = Compression::gzip};
    for (std::size_t i = 0; i < batch::plan_code_count; ++i) {
        p.code = static_cast<batch::PlanCode>(i);
        std::string const text = batch::word(p);
        BOOST_TEST_CONTEXT("code " << i << ": " << text) {
            BOOST_TEST(!text.empty());
            BOOST_TEST(text.find("plan problem") == std::string::npos);
        }
    }
}
