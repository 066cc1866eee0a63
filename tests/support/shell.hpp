// Helpers of the tests that run the pgn-iccf executable through the shell (cli_test,
// batch_test, tools_test, terminal_test) or work on files (io_test, sink_test, plan_test):
// one definition each, among them the one temporary folder that removes itself.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace pgn_iccf::test {

struct ShellResult {
    int status = -1; // exit status; -1 when the command could not run or was killed
    std::string out; // standard output
};

// Runs `cmd` with /bin/sh; its exit status and standard output.
ShellResult sh(std::string const& cmd);

// The bytes of a file; throws std::runtime_error when it cannot be read (a test that loads
// data must not pass on an empty string).
std::string read_file(std::filesystem::path const& p);

// Writes `bytes` to a file (created or truncated, its folders created); throws std::runtime_error
// on failure.
void write_file(std::filesystem::path const& p, std::string_view bytes);

// A fresh folder under $TMPDIR (or /tmp), named `pgn-iccf-AREA-test-XXXXXX` (mkdtemp), removed
// with everything in it (remove_tree) when the object goes, by the process that made it only
// (a forked child that exits leaves its parent's folder alone). Throws std::runtime_error
// when it cannot be made.
class TempFolder {
public:
    explicit TempFolder(std::string_view area);
    ~TempFolder();
    TempFolder(TempFolder const&) = delete;
    TempFolder& operator=(TempFolder const&) = delete;

    std::filesystem::path const& path() const { return path_; }
    std::string str() const { return path_.string(); }
    std::filesystem::path operator/(std::string_view name) const { return path_ / name; }

private:
    std::filesystem::path path_;
    int owner_; // the process that made it
};

// This test program's scratch folder: a TempFolder made on first use and removed when the
// program ends, whatever the tests left there (read-only files, folders without
// permissions). The first call names the area; later calls return the same folder.
std::filesystem::path scratch_folder(std::string_view area);

// An empty folder `name` inside scratch_folder(area) (emptied when it exists).
std::filesystem::path fresh_folder(std::string_view area, std::string const& name);

// Removes `p` and everything under it, first giving the owner every permission on each
// folder so that nothing a test made unreadable stays behind; true when nothing is left.
bool remove_tree(std::filesystem::path const& p);

// `p` quoted for the shell (single quotes; a quote inside is written '\'').
std::string shell_quote(std::filesystem::path const& p);

} // namespace pgn_iccf::test
