// The real file system. stat(2) rather than std::filesystem::status because the plan needs
// the device and inode numbers (the identity of a file whatever its name), and lstat(2) only
// to tell a dangling symbolic link from a missing file. opendir(3) rather than a
// directory_iterator so that a folder that cannot be listed gives its errno text.
#include "io/file_system.hpp"

#include "io/paths.hpp"

#include <cerrno>
#include <filesystem>
#include <system_error>

#include <dirent.h>
#include <sys/stat.h>

namespace pgn_iccf::io {

namespace {

namespace stdfs = std::filesystem;
using Kind = FileSystem::Kind;
using Status = FileSystem::Status;

std::string errno_text(int e) { return std::generic_category().message(e); }

using paths::tidy;

class RealFileSystem final : public FileSystem {
public:
    Status status(std::string const& path) const override {
        Status s;
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) {
            int const e = errno;
            struct stat link {};
            if (e == ENOENT && ::lstat(path.c_str(), &link) == 0) {
                s.kind = Kind::unreadable;
                s.error = dangling;
            } else if (e != ENOENT) {
                s.kind = Kind::unreadable;
                s.error = errno_text(e);
            }
            return s;
        }
        return of(st);
    }

    Status stream(int fd) const override {
        struct stat st {};
        if (::fstat(fd, &st) != 0) return {};
        return of(st);
    }

    bool list(std::string const& dir, std::vector<std::string>& names,
              std::string& error) const override {
        names.clear();
        DIR* d = ::opendir(dir.c_str());
        if (d == nullptr) {
            error = errno_text(errno);
            return false;
        }
        int failure = 0;
        for (;;) {
            errno = 0;
            dirent const* entry = ::readdir(d);
            if (entry == nullptr) {
                failure = errno;
                break;
            }
            std::string_view const name = entry->d_name;
            if (name != "." && name != "..") names.emplace_back(name);
        }
        ::closedir(d);
        if (failure != 0) {
            error = errno_text(failure);
            return false;
        }
        return true;
    }

    static Status of(struct stat const& st) {
        Status s;
        s.id = {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
        if (S_ISREG(st.st_mode)) {
            s.kind = Kind::file;
            s.size = static_cast<std::uint64_t>(st.st_size);
        } else if (S_ISDIR(st.st_mode)) {
            s.kind = Kind::directory;
        } else {
            s.kind = Kind::other;
        }
        return s;
    }

    std::string canonical(std::string const& path) const override {
        std::error_code ec;
        stdfs::path const absolute = stdfs::absolute(path, ec);
        if (ec) return tidy(stdfs::path(path).lexically_normal().generic_string());
        stdfs::path const resolved = stdfs::weakly_canonical(absolute, ec);
        if (ec) return tidy(absolute.lexically_normal().generic_string());
        return tidy(resolved.generic_string());
    }
};

} // namespace

FileSystem const& real_file_system() {
    static RealFileSystem const fs;
    return fs;
}

} // namespace pgn_iccf::io
