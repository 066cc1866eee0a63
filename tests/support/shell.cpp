#include "support/shell.hpp"

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pgn_iccf::test {

ShellResult sh(std::string const& cmd) {
    ShellResult r;
    std::FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return r;
    std::array<char, 65536> buf{};
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    int const st = ::pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

std::string read_file(std::filesystem::path const& p) {
    std::ifstream f(p, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + p.string());
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

void write_file(std::filesystem::path const& p, std::string_view bytes) {
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
    std::ofstream f(p, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f) throw std::runtime_error("cannot write " + p.string());
}

bool remove_tree(std::filesystem::path const& p) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(fs::symlink_status(p, ec))) {
        fs::permissions(p, fs::perms::owner_all, fs::perm_options::add, ec);
        for (auto it = fs::directory_iterator(p, ec); !ec && it != fs::directory_iterator();
             it.increment(ec))
            remove_tree(it->path());
    }
    fs::remove(p, ec);
    return !fs::exists(fs::symlink_status(p, ec));
}

TempFolder::TempFolder(std::string_view area) : owner_(::getpid()) {
    std::string tmpl = (std::filesystem::temp_directory_path() /
                        ("pgn-iccf-" + std::string(area) + "-test-XXXXXX"))
                           .string();
    if (::mkdtemp(tmpl.data()) == nullptr)
        throw std::runtime_error("cannot make a temporary folder " + tmpl);
    path_ = tmpl;
}

TempFolder::~TempFolder() {
    if (::getpid() == owner_) remove_tree(path_);
}

std::filesystem::path scratch_folder(std::string_view area) {
    static TempFolder const scratch(area);
    return scratch.path();
}

std::filesystem::path fresh_folder(std::string_view area, std::string const& name) {
    std::filesystem::path d = scratch_folder(area) / name;
    remove_tree(d);
    std::filesystem::create_directories(d);
    return d;
}

std::string shell_quote(std::filesystem::path const& p) {
    std::string s = "'";
    for (char const c : p.string()) {
        if (c == '\'')
            s += "'\\''";
        else
            s += c;
    }
    return s + "'";
}

} // namespace pgn_iccf::test
