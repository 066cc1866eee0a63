// The file system as the plan sees it: what a path is (following links), a folder's names, a
// canonical form of a path, what the standard streams are. An interface, so that the plan's
// tests build any tree (loops, hard links, folders that cannot be listed) in memory.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::io {

// What the plan may learn from the file system (a fake one in the tests).
class FileSystem {
public:
    enum class Kind : std::uint8_t { missing, file, directory, other, unreadable };
    struct FileId {
        std::uint64_t device = 0;
        std::uint64_t inode = 0;
        bool operator==(FileId const&) const = default;
    };
    struct Status {
        Kind kind = Kind::missing;
        FileId id{};            // valid for file, directory and other
        std::uint64_t size = 0; // of a file
        std::string error;      // for unreadable: the reason ("Permission denied", ...)
    };
    // The error of a dangling symbolic link. Followed, it names a file that may be created.
    static constexpr std::string_view dangling = "dangling symbolic link";
    virtual ~FileSystem() = default;
    // Follows symbolic links (a dangling link is unreadable).
    virtual Status status(std::string const& path) const = 0;
    // The names in a directory (without "." and ".."), in any order; false with `error` set if
    // it cannot be listed.
    virtual bool list(std::string const& dir, std::vector<std::string>& names,
                      std::string& error) const = 0;
    // An absolute, normalised form of `path` in which existing symbolic links are resolved
    // (std::filesystem::weakly_canonical of the absolute path), for comparing names of files
    // that may not exist yet.
    virtual std::string canonical(std::string const& path) const = 0;
    // What standard input (fd 0), output (1) or error (2) is (fstat(2)); missing when it
    // cannot be told (a closed descriptor).
    virtual Status stream(int fd) const {
        (void)fd;
        return {};
    }
};

// The real file system (std::filesystem and stat(2)).
FileSystem const& real_file_system();

} // namespace pgn_iccf::io
