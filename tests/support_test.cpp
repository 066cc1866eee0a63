// The test support's own promises (tests/support/shell.hpp): a temporary folder is gone when
// its object goes, and the scratch folder of a test program when the program ends, whatever
// the tests left in them; a forked child removes neither.
#define BOOST_TEST_MODULE support
#include <boost/test/unit_test.hpp>

#include "support/shell.hpp"

#include <filesystem>
#include <fstream>
#include <string>

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace pgn_iccf;

BOOST_AUTO_TEST_CASE(scratch_folder_is_removed_at_exit) {
    int fds[2];
    BOOST_TEST_REQUIRE(::pipe(fds) == 0);
    pid_t const pid = ::fork();
    BOOST_TEST_REQUIRE(pid >= 0);
    if (pid == 0) {
        // The child: a scratch folder with a file, a locked folder holding a file, a link.
        ::close(fds[0]);
        fs::path const d = test::scratch_folder("support");
        std::string const s = d.string();
        if (::write(fds[1], s.data(), s.size()) != static_cast<ssize_t>(s.size())) std::_Exit(3);
        ::close(fds[1]);
        test::write_file(d / "a.pgn", "1. e4 *\n");
        fs::path const locked = test::fresh_folder("support", "locked");
        test::write_file(locked / "b.pgn", "1. d4 *\n");
        fs::create_symlink("/", d / "root-link");
        fs::permissions(locked, fs::perms::none);
        std::exit(fs::equivalent(test::scratch_folder("other"), d) ? 0 : 4);
    }
    ::close(fds[1]);
    std::string made;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) made.append(buf, n);
    ::close(fds[0]);
    int status = 0;
    BOOST_TEST_REQUIRE(::waitpid(pid, &status, 0) == pid);
    BOOST_TEST(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 0);
    BOOST_TEST_REQUIRE(!made.empty());
    BOOST_TEST(fs::path(made).filename().string().rfind("pgn-iccf-support-test-", 0) == 0);
    BOOST_TEST(!fs::exists(fs::symlink_status(made)), made << " is still there");
    BOOST_TEST(fs::exists("/"), "the link's target is untouched");
}

BOOST_AUTO_TEST_CASE(remove_tree_removes_locked_folders) {
    fs::path const d = test::fresh_folder("support", "tree");
    test::write_file(d / "x" / "y" / "z.pgn", "*\n");
    fs::permissions(d / "x" / "y", fs::perms::none);
    fs::permissions(d / "x", fs::perms::owner_read);
    BOOST_TEST(test::remove_tree(d));
    BOOST_TEST(!fs::exists(d));
}

BOOST_AUTO_TEST_CASE(temp_folder_is_removed_when_it_goes) {
    fs::path made;
    {
        test::TempFolder const a("support");
        test::TempFolder const b("support");
        made = a.path();
        BOOST_TEST(a.path() != b.path());
        BOOST_TEST(fs::equivalent(a.path().parent_path(), fs::temp_directory_path()));
        BOOST_TEST(a.path().filename().string().rfind("pgn-iccf-support-test-", 0) == 0);
        BOOST_TEST(fs::is_directory(a.path()));
        test::write_file(a / "sub" / "c.pgn", "*\n");
        fs::permissions(a / "sub", fs::perms::owner_read);
    }
    BOOST_TEST(!fs::exists(fs::symlink_status(made)), made << " is still there");
}

BOOST_AUTO_TEST_CASE(a_forked_child_that_exits_leaves_the_scratch_folder) {
    // The child runs the static destructors at std::exit, the scratch folder's among them:
    // only the process that made the folder removes it.
    fs::path const d = test::scratch_folder("support");
    test::write_file(d / "kept.pgn", "*\n");
    std::fflush(nullptr); // nothing buffered is written twice
    pid_t const pid = ::fork();
    BOOST_TEST_REQUIRE(pid >= 0);
    if (pid == 0) std::exit(0);
    int status = 0;
    BOOST_TEST_REQUIRE(::waitpid(pid, &status, 0) == pid);
    BOOST_TEST(fs::exists(d / "kept.pgn"));
}
