// Output sinks and the signal cleanup of their temporaries (src/io/sink, src/io/cleanup).
//
// Each test works in its own folder under $TMPDIR (test::TempFolder), removed at the end.
// Behaviour that depends on process-wide state (the umask read once, signal dispositions,
// dying by a signal) is tested in child processes: forked for the signals, re-executed for the
// umask. A symbolic link planted at the temporary's name is tested through an interposed open(2)
// that plants one at exactly the name the sink is about to create.
#define BOOST_TEST_MODULE sink
#include <boost/test/unit_test.hpp>

#include "io/cleanup.hpp"
#include "io/sink.hpp"
#include "support/shell.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace pgn_iccf::io;

// --- the planting open(2) -------------------------------------------------------------------
//
// Linked into the test executable, this open() takes precedence over the C library's for
// every caller, including the sink in the static pgn_iccf_io library. When armed, the first
// open of a name containing ".pgn-iccf-tmp." is preceded by a symbolic link at that very
// name, as an attacker racing the sink would plant it; the real open then runs.
namespace {
std::atomic<bool> plant_armed{false};
std::string plant_link_target;
std::string planted_at;
} // namespace

extern "C" int open(char const* path, int flags, ...) {
    mode_t mode = 0;
    if ((flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE) {
        va_list ap;
        va_start(ap, flags);
        mode = static_cast<mode_t>(va_arg(ap, unsigned));
        va_end(ap);
    }
    using OpenFn = int (*)(char const*, int, ...);
    static auto const real_open = reinterpret_cast<OpenFn>(::dlsym(RTLD_NEXT, "open"));
    if (std::strstr(path, ".pgn-iccf-tmp.") != nullptr && plant_armed.exchange(false)) {
        if (::symlink(plant_link_target.c_str(), path) == 0) planted_at = path;
    }
    return real_open(path, flags, mode);
}

// --- helpers --------------------------------------------------------------------------------
namespace {

using TempFolder = pgn_iccf::test::TempFolder;

std::string slurp(std::string const& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put(std::string const& path, std::string const& bytes, mode_t mode = 0644) {
    { std::ofstream(path, std::ios::binary) << bytes; }
    ::chmod(path.c_str(), mode);
}

std::vector<std::string> names_in(std::string const& dir) {
    std::vector<std::string> names;
    for (auto const& e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<std::string> temporaries_in(std::string const& dir) {
    std::vector<std::string> names;
    for (auto const& n : names_in(dir))
        if (n.find(".pgn-iccf-tmp.") != std::string::npos) names.push_back(n);
    return names;
}

mode_t mode_of(std::string const& path) {
    struct stat st {};
    BOOST_REQUIRE(::lstat(path.c_str(), &st) == 0);
    return st.st_mode & 07777;
}

bool is_symlink(std::string const& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// Bytes that differ from position to position, so a dropped or repeated chunk shows.
std::string pattern_bytes(std::size_t n, unsigned seed) {
    std::string s(n, '\0');
    std::uint32_t x = seed * 2654435761u + 1;
    for (auto& c : s) {
        x = x * 1664525u + 1013904223u;
        c = static_cast<char>(x >> 24);
    }
    return s;
}

std::string current_umask_text() {
    mode_t const m = ::umask(022);
    ::umask(m);
    std::ostringstream os;
    os << std::oct << m;
    return os.str();
}

// Runs `body` with descriptor 1 replaced by `fd`, restoring it afterwards; checks are made
// by the caller after the restore, so that the test log is never lost into `fd`.
template <typename F>
void with_stdout(int fd, F body) {
    std::cout.flush();
    std::fflush(stdout);
    int const saved = ::dup(STDOUT_FILENO);
    BOOST_REQUIRE(saved >= 0);
    ::dup2(fd, STDOUT_FILENO);
    body();
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
}

} // namespace

// --- files through a temporary ----------------------------------------------------------------

BOOST_AUTO_TEST_CASE(commit_writes_exact_bytes_and_leaves_no_temporary) {
    TempFolder const dir("sink");
    std::string const out = dir / "out.pgn";
    // Tiny writes (gathered), writes of 32 KiB or more (written with what is gathered in one
    // writev, not copied), writes larger than the buffer, and an empty write.
    std::vector<std::size_t> const sizes{1, 2, 100, 0, 200000, 100000, 1 << 20, 3, (1 << 18) + 7};
    std::string expected;
    std::string error;
    auto sink = open_file_sink(out, error);
    BOOST_REQUIRE_MESSAGE(sink, error);
    unsigned seed = 0;
    for (auto n : sizes) {
        auto const chunk = pattern_bytes(n, ++seed);
        expected += chunk;
        BOOST_TEST(sink->write(chunk));
    }
    BOOST_TEST(!fs::exists(out)); // nothing at the final name before commit
    BOOST_TEST(sink->commit(error));
    BOOST_TEST(error.empty());
    BOOST_TEST(sink->error().empty());
    BOOST_TEST((slurp(out) == expected));
    BOOST_TEST(names_in(dir.str()) == std::vector<std::string>{"out.pgn"});
    // commit() again is harmless; writing after it fails.
    BOOST_TEST(sink->commit(error));
    BOOST_TEST(!sink->write("late"));
    BOOST_TEST((slurp(out) == expected));
}

// prepare() writes everything out and closes the temporary but renames nothing: the old file
// stays until commit(), abandon() after prepare() still removes the temporary, and a full
// device fails at prepare(), before any rename.
BOOST_AUTO_TEST_CASE(prepare_completes_the_temporary_without_renaming_it) {
    TempFolder const dir("sink");
    std::string const out = dir / "out.pgn";
    put(out, "old\n", 0640);
    std::string error;
    auto sink = open_file_sink(out, error);
    BOOST_REQUIRE_MESSAGE(sink, error);
    BOOST_TEST(sink->write("new\n"));
    BOOST_TEST(sink->prepare(error));
    BOOST_TEST(sink->prepare(error)); // idempotent
    BOOST_TEST(!sink->write("late"));
    BOOST_TEST(slurp(out) == "old\n");
    auto const temps = temporaries_in(dir.str());
    BOOST_TEST_REQUIRE(temps.size() == 1u);
    BOOST_TEST(slurp(dir / temps.front()) == "new\n"); // complete, not in a buffer
    BOOST_TEST(sink->commit(error));
    BOOST_TEST(slurp(out) == "new\n");
    BOOST_TEST(mode_of(out) == 0640u);
    BOOST_TEST(names_in(dir.str()) == std::vector<std::string>{"out.pgn"});

    auto second = open_file_sink(out, error);
    BOOST_REQUIRE_MESSAGE(second, error);
    BOOST_TEST(second->write("newer\n"));
    BOOST_TEST(second->prepare(error));
    second->abandon();
    BOOST_TEST(!second->commit(error));
    BOOST_TEST(slurp(out) == "new\n");
    BOOST_TEST(names_in(dir.str()) == std::vector<std::string>{"out.pgn"});

    if (::access("/dev/full", W_OK) == 0) {
        auto full = open_file_sink("/dev/full", error);
        BOOST_REQUIRE_MESSAGE(full, error);
        BOOST_TEST(full->write("1. e4 e5\n"));
        error.clear();
        BOOST_TEST(!full->prepare(error));
        BOOST_TEST(error == "cannot write /dev/full: No space left on device");
    }
}

BOOST_AUTO_TEST_CASE(temporary_is_private_regular_file_in_final_folder) {
    TempFolder const dir("sink");
    std::string const out = dir / "game.pgn";
    std::string error;
    auto sink = open_file_sink(out, error);
    BOOST_REQUIRE_MESSAGE(sink, error);
    BOOST_TEST(sink->write(pattern_bytes(1 << 20, 7)));
    auto const temps = temporaries_in(dir.str());
    BOOST_REQUIRE_EQUAL(temps.size(), 1u);
    auto const& name = temps.front();
    std::string const prefix = "game.pgn.pgn-iccf-tmp.";
    BOOST_TEST(name.size() == prefix.size() + 6);
    BOOST_TEST(name.compare(0, prefix.size(), prefix) == 0);
    BOOST_TEST(std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                           [](char c) { return std::isalnum(static_cast<unsigned char>(c)); }));
    struct stat st {};
    BOOST_REQUIRE(::lstat((dir / name).c_str(), &st) == 0);
    BOOST_TEST(S_ISREG(st.st_mode));
    BOOST_TEST((st.st_mode & 07777) == 0600u);
    BOOST_TEST(st.st_size == 1 << 20); // large writes are not held back
    BOOST_TEST(sink->commit(error));
    BOOST_TEST(temporaries_in(dir.str()).empty());
}

BOOST_AUTO_TEST_CASE(replacing_keeps_old_file_until_commit_and_keeps_its_mode) {
    for (mode_t const mode : {mode_t{0600}, mode_t{0640}, mode_t{0755}}) {
        BOOST_TEST_CONTEXT("mode " << std::oct << mode) {
            TempFolder const dir("sink");
            std::string const out = dir / "out.pgn";
            put(out, "old contents\n", mode);
            std::string error;
            auto sink = open_file_sink(out, error);
            BOOST_REQUIRE_MESSAGE(sink, error);
            BOOST_TEST(sink->write("new contents\n"));
            BOOST_TEST(slurp(out) == "old contents\n");
            BOOST_TEST(sink->commit(error));
            BOOST_TEST(slurp(out) == "new contents\n");
            BOOST_TEST(mode_of(out) == mode);
            BOOST_TEST(names_in(dir.str()) == std::vector<std::string>{"out.pgn"});
        }
    }
}

BOOST_AUTO_TEST_CASE(abandon_and_destructor_leave_old_file_and_no_temporary) {
    TempFolder const dir("sink");
    std::string const out = dir / "out.pgn";
    put(out, "old\n", 0640);
    std::string error;
    {
        auto sink = open_file_sink(out, error);
        BOOST_REQUIRE_MESSAGE(sink, error);
        BOOST_TEST(sink->write(pattern_bytes(300000, 1)));
        BOOST_TEST(temporaries_in(dir.str()).size() == 1u);
        sink->abandon();
        sink->abandon(); // idempotent
        BOOST_TEST(!sink->write("x"));
        BOOST_TEST(!sink->commit(error));
        BOOST_TEST(error.find("cannot write " + out + ": ") == 0u);
    }
    BOOST_TEST(names_in(dir.str()) == std::vector<std::string>{"out.pgn"});
    {
        auto sink = open_file_sink(out, error);
        BOOST_REQUIRE_MESSAGE(sink, error);
        BOOST_TEST(sink->write("never committed"));
    }
    BOOST_TEST(slurp(out) == "old\n");
    BOOST_TEST(mode_of(out) == 0640u);
    BOOST_TEST(names_in(dir.str()) == std::vector<std::string>{"out.pgn"});
}

BOOST_AUTO_TEST_CASE(symlink_planted_at_temporary_name_is_not_followed) {
    TempFolder const dir("sink");
    std::string const victim = dir / "victim";
    put(victim, "precious\n", 0644);
    plant_link_target = victim;
    planted_at.clear();
    plant_armed = true;
    std::string error;
    auto sink = open_file_sink(dir / "out.pgn", error);
    plant_armed = false;
    BOOST_REQUIRE_MESSAGE(sink, error);
    BOOST_REQUIRE_MESSAGE(!planted_at.empty(), "the interposed open(2) planted nothing");
    BOOST_TEST(sink->write("converted\n"));
    BOOST_TEST(sink->commit(error));
    BOOST_TEST(slurp(victim) == "precious\n");
    BOOST_TEST(is_symlink(planted_at)); // not replaced, not removed: not ours
    BOOST_TEST(slurp(dir / "out.pgn") == "converted\n");
    auto const temps = temporaries_in(dir.str());
    BOOST_TEST(temps.size() == 1u); // only the planted link
}

// The umask is read once per process, so each umask is tried in a fresh process: this
// executable run again with only `umask_probe`, which creates the file named in the
// environment.
BOOST_AUTO_TEST_CASE(umask_probe, *boost::unit_test::disabled()) {
    char const* path = std::getenv("PGN_ICCF_SINK_PROBE");
    BOOST_REQUIRE(path != nullptr);
    std::string error;
    auto sink = open_file_sink(path, error);
    BOOST_REQUIRE_MESSAGE(sink, error);
    BOOST_REQUIRE(sink->write("probe\n"));
    BOOST_REQUIRE_MESSAGE(sink->commit(error), error);
}

BOOST_AUTO_TEST_CASE(new_file_gets_0666_less_umask) {
    for (mode_t const mask : {mode_t{022}, mode_t{077}, mode_t{027}, mode_t{0}}) {
        BOOST_TEST_CONTEXT("umask " << std::oct << mask) {
            TempFolder const dir("sink");
            std::string const out = dir / "new.pgn";
            pid_t const pid = ::fork();
            BOOST_REQUIRE(pid >= 0);
            if (pid == 0) {
                ::umask(mask);
                ::setenv("PGN_ICCF_SINK_PROBE", out.c_str(), 1);
                ::execl("/proc/self/exe", "sink_test", "--run_test=umask_probe",
                        "--log_level=nothing", "--report_level=no", static_cast<char*>(nullptr));
                ::_exit(127);
            }
            int status = 0;
            BOOST_REQUIRE(::waitpid(pid, &status, 0) == pid);
            BOOST_REQUIRE(WIFEXITED(status));
            BOOST_REQUIRE_EQUAL(WEXITSTATUS(status), 0);
            BOOST_TEST(slurp(out) == "probe\n");
            BOOST_TEST(mode_of(out) == (0666 & ~mask));
            BOOST_TEST(names_in(dir.str()) == std::vector<std::string>{"new.pgn"});
        }
    }
    BOOST_TEST_MESSAGE("test process umask: " << current_umask_text());
}

// A link is written through: the file it points to is replaced (in its own folder, keeping
// its mode) and the link stays a link. Chains and dangling links are followed too.
BOOST_AUTO_TEST_CASE(symlink_final_path_is_written_through) {
    TempFolder const dir("sink");
    fs::create_directory(dir / "real");
    std::string const target = dir / "real/target.pgn";
    put(target, "old\n", 0640);
    BOOST_REQUIRE(::symlink("real/target.pgn", (dir / "link.pgn").c_str()) == 0);
    BOOST_REQUIRE(::symlink((dir / "link.pgn").c_str(), (dir / "chain.pgn").c_str()) == 0);
    BOOST_REQUIRE(::symlink("real/created.pgn", (dir / "dangling.pgn").c_str()) == 0);

    std::string error;
    auto sink = open_file_sink(dir / "link.pgn", error);
    BOOST_REQUIRE_MESSAGE(sink, error);
    BOOST_TEST(sink->write("through the link\n"));
    BOOST_TEST(temporaries_in(dir / "real").size() == 1u); // next to the target
    BOOST_TEST(temporaries_in(dir.str()).empty());
    BOOST_TEST(sink->commit(error));
    BOOST_TEST(is_symlink(dir / "link.pgn"));
    BOOST_TEST(slurp(target) == "through the link\n");
    BOOST_TEST(mode_of(target) == 0640u);

    sink = open_file_sink(dir / "chain.pgn", error);
    BOOST_REQUIRE_MESSAGE(sink, error);
    BOOST_TEST(sink->write("through two links\n"));
    BOOST_TEST(sink->commit(error));
    BOOST_TEST(is_symlink(dir / "chain.pgn"));
    BOOST_TEST(is_symlink(dir / "link.pgn"));
    BOOST_TEST(slurp(target) == "through two links\n");

    sink = open_file_sink(dir / "dangling.pgn", error);
    BOOST_REQUIRE_MESSAGE(sink, error);
    BOOST_TEST(sink->write("created\n"));
    BOOST_TEST(sink->commit(error));
    BOOST_TEST(is_symlink(dir / "dangling.pgn"));
    BOOST_TEST(slurp(dir / "real/created.pgn") == "created\n");

    BOOST_TEST(temporaries_in(dir.str()).empty());
    BOOST_TEST(temporaries_in(dir / "real").empty());
}

// --- devices and pipes, written in place -----------------------------------------------------

BOOST_AUTO_TEST_CASE(dev_null_is_written_in_place) {
    std::string error;
    auto sink = open_file_sink("/dev/null", error);
    BOOST_REQUIRE_MESSAGE(sink, error);
    BOOST_TEST(sink->write("discarded"));
    BOOST_TEST(sink->write(pattern_bytes(1 << 20, 3)));
    BOOST_TEST(sink->commit(error));
    struct stat st {};
    BOOST_REQUIRE(::lstat("/dev/null", &st) == 0);
    BOOST_TEST(S_ISCHR(st.st_mode));
    BOOST_TEST(temporaries_in("/dev").empty());
}

BOOST_AUTO_TEST_CASE(fifo_is_written_in_place) {
    TempFolder const dir("sink");
    std::string const fifo = dir / "pipe";
    BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] { received = slurp(fifo); });
    auto const expected = "first\n" + pattern_bytes(3 << 19, 5);
    std::string error;
    auto sink = open_file_sink(fifo, error); // waits for the reader, as `>` does
    bool ok = sink != nullptr;
    if (sink) {
        ok = sink->write("first\n") && sink->write(expected.substr(6)) && sink->commit(error);
    } else {
        int const fd = ::open(fifo.c_str(), O_WRONLY); // release the reader
        ::close(fd);
    }
    reader.join();
    BOOST_TEST(ok, error);
    BOOST_TEST((received == expected));
    struct stat st {};
    BOOST_REQUIRE(::lstat(fifo.c_str(), &st) == 0);
    BOOST_TEST(S_ISFIFO(st.st_mode));
    BOOST_TEST(names_in(dir.str()) == std::vector<std::string>{"pipe"});
}

// --- failures ---------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(missing_folder_directory_and_long_name_are_refused) {
    TempFolder const dir("sink");
    std::string error;
    std::string const missing = dir / "no/such/folder/out.pgn";
    BOOST_TEST(!open_file_sink(missing, error));
    BOOST_TEST(error == "cannot write " + missing + ": No such file or directory");

    BOOST_TEST(!open_file_sink(dir.str(), error));
    BOOST_TEST(error == "cannot write " + dir.str() + ": Is a directory");

    // The name is valid but the temporary's (20 characters longer) is not.
    std::string const longname = dir / std::string(NAME_MAX - 4, 'x');
    BOOST_TEST(!open_file_sink(longname, error));
    BOOST_TEST(error == "cannot write " + longname + ": File name too long");
    BOOST_TEST(names_in(dir.str()).empty());
}

// Root ignores folder permissions, so as root the attempt is made by a child that has
// become `nobody` (uid and gid 65534).
BOOST_AUTO_TEST_CASE(read_only_folder_is_refused) {
    TempFolder const dir("sink");
    ::chmod(dir.str().c_str(), 0755);
    fs::create_directory(dir / "ro");
    ::chmod((dir / "ro").c_str(), 0555);
    std::string const out = dir / "ro/out.pgn";
    auto const attempt = [&out] {
        std::string error;
        return open_file_sink(out, error) ? std::string("opened") : error;
    };
    std::string result;
    if (::geteuid() != 0) {
        result = attempt();
    } else {
        int p[2];
        BOOST_REQUIRE(::pipe(p) == 0);
        std::cout.flush();
        pid_t const pid = ::fork();
        BOOST_REQUIRE(pid >= 0);
        if (pid == 0) {
            ::close(p[0]);
            if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
            auto const r = attempt();
            auto const n = static_cast<ssize_t>(r.size());
            ::_exit(::write(p[1], r.data(), r.size()) == n ? 0 : 3);
        }
        ::close(p[1]);
        char buf[4096];
        ssize_t n;
        while ((n = ::read(p[0], buf, sizeof buf)) > 0)
            result.append(buf, static_cast<std::size_t>(n));
        ::close(p[0]);
        int status = 0;
        BOOST_REQUIRE(::waitpid(pid, &status, 0) == pid);
        BOOST_REQUIRE(WIFEXITED(status));
        BOOST_REQUIRE_EQUAL(WEXITSTATUS(status), 0);
    }
    BOOST_TEST(result == "cannot write " + out + ": Permission denied");
    BOOST_TEST(names_in(dir / "ro").empty());
}

BOOST_AUTO_TEST_CASE(full_device_fails_at_write_or_commit) {
    if (::access("/dev/full", W_OK) != 0) {
        BOOST_TEST_MESSAGE("skipped: no writable /dev/full");
        return;
    }
    std::string const expected = "cannot write /dev/full: No space left on device";
    std::string error;
    auto sink = open_file_sink("/dev/full", error); // small write: shows at commit
    BOOST_REQUIRE_MESSAGE(sink, error);
    BOOST_TEST(sink->write("1. e4 e5\n"));
    BOOST_TEST(!sink->commit(error));
    BOOST_TEST(error == expected);
    BOOST_TEST(sink->error() == expected);

    sink = open_file_sink("/dev/full", error); // large write: shows at once, and sticks
    BOOST_REQUIRE_MESSAGE(sink, error);
    BOOST_TEST(!sink->write(pattern_bytes(1 << 20, 9)));
    BOOST_TEST(sink->error() == expected);
    BOOST_TEST(!sink->write("x"));
    error.clear();
    BOOST_TEST(!sink->commit(error));
    BOOST_TEST(error == expected);
}

// --- standard output --------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(stdout_writes_straight_to_descriptor_1) {
    TempFolder const dir("sink");
    std::string const file = dir / "stdout";
    int const fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    BOOST_REQUIRE(fd >= 0);
    auto const big = pattern_bytes(3 << 20, 11);
    bool first = false, second = false, committed = false;
    std::size_t size_before_commit = 0;
    std::string error;
    with_stdout(fd, [&] {
        auto sink = open_stdout();
        first = sink->write("[Event \"x\"]\n");
        second = sink->write(big);
        size_before_commit = static_cast<std::size_t>(fs::file_size(file)); // not buffered
        committed = sink->commit(error);
    });
    ::close(fd);
    BOOST_TEST(first);
    BOOST_TEST(second);
    BOOST_TEST(committed);
    BOOST_TEST(size_before_commit == 12 + big.size());
    BOOST_TEST((slurp(file) == "[Event \"x\"]\n" + big));
}

BOOST_AUTO_TEST_CASE(stdout_failures_are_sticky_and_reported) {
    TempFolder const dir("sink");
    std::string const file = dir / "readonly";
    put(file, "", 0600);
    struct Case {
        char const* name;
        std::string reason;
    };
    for (Case const& c : {Case{"descriptor open for reading", "Bad file descriptor"},
                          Case{"pipe without a reader", "Broken pipe"}}) {
        BOOST_TEST_CONTEXT(c.name) {
            int fd = -1;
            if (c.reason == "Bad file descriptor") {
                fd = ::open(file.c_str(), O_RDONLY);
            } else {
                int p[2];
                BOOST_REQUIRE(::pipe(p) == 0);
                ::close(p[0]);
                fd = p[1];
            }
            BOOST_REQUIRE(fd >= 0);
            struct sigaction ignore {
            }, old{};
            ignore.sa_handler = SIG_IGN;
            ::sigaction(SIGPIPE, &ignore, &old);
            bool wrote = true, again = true, committed = true;
            std::string error, sticky;
            with_stdout(fd, [&] {
                auto sink = open_stdout();
                wrote = sink->write("1. d4\n");
                again = sink->write("");
                committed = sink->commit(error);
                sticky = sink->error();
            });
            ::sigaction(SIGPIPE, &old, nullptr);
            ::close(fd);
            std::string const expected = "cannot write to standard output: " + c.reason;
            BOOST_TEST(!wrote);
            BOOST_TEST(!again);
            BOOST_TEST(!committed);
            BOOST_TEST(error == expected);
            BOOST_TEST(sticky == expected);
        }
    }
}

// --- the cleanup registry ---------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(registry_slots_are_exclusive_and_reusable) {
    BOOST_TEST(register_temporary("") == -1);
    BOOST_TEST(register_temporary(std::string(PATH_MAX, 'a')) == -1);
    unregister_temporary(-1); // harmless
    unregister_temporary(1 << 20);

    std::vector<int> taken;
    for (int i = 0; i < 10000; ++i) {
        int const s = register_temporary("/tmp/not-there-" + std::to_string(i));
        if (s < 0) break;
        taken.push_back(s);
    }
    BOOST_TEST(taken.size() >= 64u);
    BOOST_TEST(taken.size() < 10000u); // the registry is bounded and says so
    auto sorted = taken;
    std::sort(sorted.begin(), sorted.end());
    BOOST_TEST((std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()));
    for (int s : taken) unregister_temporary(s);
    int const again = register_temporary("/tmp/not-there");
    BOOST_TEST(again >= 0);
    unregister_temporary(again);

    // Threads registering and unregistering at once never receive a slot another holds.
    std::array<std::atomic<int>, 4096> owner{};
    std::atomic<int> clashes{0}, refusals{0};
    std::vector<std::thread> threads;
    for (int t = 1; t <= 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 20000; ++i) {
                int const s = register_temporary("/tmp/not-there-" + std::to_string(t));
                if (s < 0 || s >= static_cast<int>(owner.size())) {
                    ++refusals;
                    continue;
                }
                int expected = 0;
                if (!owner[static_cast<std::size_t>(s)].compare_exchange_strong(expected, t))
                    ++clashes;
                owner[static_cast<std::size_t>(s)].store(0);
                unregister_temporary(s);
            }
        });
    }
    for (auto& th : threads) th.join();
    BOOST_TEST(clashes.load() == 0);
    BOOST_TEST(refusals.load() == 0);
}

// --- signals ----------------------------------------------------------------------------------

namespace {

// The child's side: deterministic dispositions, the cleanup installed (twice: idempotent),
// two sinks mid-write, a registered plain file and an unregistered one; then the signal,
// raised by the child itself or sent by the parent once told the child is ready.
[[noreturn]] void signal_child(int sig, bool raise_itself, TempFolder const& dir, int ready_fd) {
    ::alarm(20); // a hung child dies by SIGALRM, which fails the test instead of hanging it
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int s : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(s, &dfl, nullptr);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    install_signal_cleanup();
    install_signal_cleanup();
    std::string error;
    auto a = open_file_sink(dir / "old.pgn", error);
    auto b = open_file_sink(dir / "new.pgn", error);
    if (!a || !b || !a->write(pattern_bytes(1 << 20, 1)) || !b->write("x")) ::_exit(3);
    if (register_temporary(dir / "registered") < 0) ::_exit(4);
    int const kept = register_temporary(dir / "kept");
    if (kept < 0) ::_exit(5);
    unregister_temporary(kept);
    if (raise_itself) {
        ::raise(sig);
    } else {
        if (::write(ready_fd, "r", 1) != 1) ::_exit(6);
        for (;;) ::pause();
    }
    ::_exit(7); // the signal did not end the process
}

} // namespace

BOOST_AUTO_TEST_CASE(signals_remove_temporaries_and_end_the_process) {
    struct Case {
        int sig;
        bool raise_itself;
    };
    for (Case const c : {Case{SIGINT, true}, Case{SIGTERM, true}, Case{SIGHUP, true},
                         Case{SIGINT, false}, Case{SIGTERM, false}, Case{SIGHUP, false}}) {
        BOOST_TEST_CONTEXT("signal " << c.sig << (c.raise_itself ? " raised" : " sent")) {
            TempFolder const dir("sink");
            put(dir / "old.pgn", "old\n", 0640);
            put(dir / "registered", "");
            put(dir / "kept", "");
            int p[2];
            BOOST_REQUIRE(::pipe(p) == 0);
            std::cout.flush();
            pid_t const pid = ::fork();
            BOOST_REQUIRE(pid >= 0);
            if (pid == 0) {
                ::close(p[0]);
                signal_child(c.sig, c.raise_itself, dir, p[1]);
            }
            ::close(p[1]);
            if (!c.raise_itself) {
                char byte = 0;
                ssize_t n;
                do n = ::read(p[0], &byte, 1);
                while (n < 0 && errno == EINTR);
                BOOST_TEST(n == 1);
                // The test is only meaningful if the temporaries exist at this point.
                BOOST_TEST(temporaries_in(dir.str()).size() == 2u);
                BOOST_TEST(fs::exists(dir / "registered"));
                ::kill(pid, c.sig);
            }
            ::close(p[0]);
            int status = 0;
            BOOST_REQUIRE(::waitpid(pid, &status, 0) == pid);
            BOOST_TEST(WIFSIGNALED(status), "child status " << status);
            if (WIFSIGNALED(status)) BOOST_TEST(WTERMSIG(status) == c.sig);
            BOOST_TEST(names_in(dir.str()) == (std::vector<std::string>{"kept", "old.pgn"}));
            BOOST_TEST(slurp(dir / "old.pgn") == "old\n");
            BOOST_TEST(mode_of(dir / "old.pgn") == 0640u);
        }
    }
}

// A hangup ignored when the program starts (nohup) stays ignored.
BOOST_AUTO_TEST_CASE(ignored_hangup_stays_ignored) {
    std::cout.flush();
    pid_t const pid = ::fork();
    BOOST_REQUIRE(pid >= 0);
    if (pid == 0) {
        ::alarm(20);
        struct sigaction ign {};
        ign.sa_handler = SIG_IGN;
        ::sigaction(SIGHUP, &ign, nullptr);
        install_signal_cleanup();
        ::raise(SIGHUP);
        ::_exit(0);
    }
    int status = 0;
    BOOST_REQUIRE(::waitpid(pid, &status, 0) == pid);
    BOOST_TEST(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 0);
}

// The folders a run created: a signal removes those left empty, newest first and after the
// temporaries (a folder holding only a temporary goes too), and keeps those holding anything
// else; folders forgotten with unregister_directories() stay.
BOOST_AUTO_TEST_CASE(signals_remove_registered_folders_left_empty) {
    for (bool const forget : {false, true}) {
        BOOST_TEST_CONTEXT((forget ? "forgotten" : "registered")) {
            TempFolder const dir("sink");
            std::cout.flush();
            pid_t const pid = ::fork();
            BOOST_REQUIRE(pid >= 0);
            if (pid == 0) {
                ::alarm(20);
                struct sigaction dfl {};
                dfl.sa_handler = SIG_DFL;
                ::sigaction(SIGTERM, &dfl, nullptr);
                install_signal_cleanup();
                // out/ holds sub/ (only a temporary in it) and kept/ (a user's file in it).
                for (char const* d : {"out", "out/sub", "out/kept"}) {
                    if (::mkdir((dir / d).c_str(), 0755) != 0) ::_exit(3);
                    register_directory(dir / d);
                }
                put(dir / "out/kept/mine.txt", "mine\n");
                std::string error;
                auto sink = open_file_sink(dir / "out/sub/x.pgn", error);
                if (!sink || !sink->write("1. e4 *\n")) ::_exit(4);
                if (forget) unregister_directories();
                ::raise(SIGTERM);
                ::_exit(7);
            }
            int status = 0;
            BOOST_REQUIRE(::waitpid(pid, &status, 0) == pid);
            BOOST_TEST(WIFSIGNALED(status), "child status " << status);
            if (WIFSIGNALED(status)) BOOST_TEST(WTERMSIG(status) == SIGTERM);
            BOOST_TEST(fs::exists(dir / "out/kept/mine.txt"));
            BOOST_TEST(fs::exists(dir / "out/sub") == forget);
            if (forget) BOOST_TEST(names_in(dir / "out/sub").empty()); // the temporary went
        }
    }
}
