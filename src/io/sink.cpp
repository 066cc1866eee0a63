// Byte sinks over POSIX descriptors: standard output, atomic output files (a temporary in
// the final folder renamed into place) and devices or pipes written in place.
#include "io/sink.hpp"

#include "io/cleanup.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

namespace pgn_iccf::io {

namespace {

// Writes all `n` bytes, resuming after signals and short writes. Returns 0 or an errno
// value. A write of 0 bytes for a non-empty request would loop forever; it is reported as
// an I/O error instead (no regular file, pipe or device does that in practice).
int write_all(int fd, char const* data, std::size_t n) {
    while (n > 0) {
        auto const r = ::write(fd, data, n);
        if (r < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (r == 0) return EIO;
        data += r;
        n -= static_cast<std::size_t>(r);
    }
    return 0;
}

// Writes all of `a` then all of `b` (either may be empty) with writev: one system call for a
// buffered tail and a large write, and no copy of the large one. Returns 0 or an errno value.
int write_all(int fd, std::string_view a, std::string_view b) {
    while (!a.empty() || !b.empty()) {
        iovec v[2] = {{const_cast<char*>(a.data()), a.size()},
                      {const_cast<char*>(b.data()), b.size()}};
        int const first = a.empty() ? 1 : 0;
        auto const r = ::writev(fd, v + first, 2 - first);
        if (r < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (r == 0) return EIO;
        auto n = static_cast<std::size_t>(r);
        std::size_t const from_a = std::min(n, a.size());
        a.remove_prefix(from_a);
        b.remove_prefix(n - from_a);
    }
    return 0;
}

std::string describe(std::string const& what, int err) {
    return "cannot write " + what + ": " + std::generic_category().message(err);
}

// The process umask, read once. umask() can only be read by setting it, which would briefly
// give files created meanwhile by other threads the wrong mode, so Linux's race-free
// /proc/self/status is tried first; the umask(x); umask(x) pair is the fallback.
mode_t process_umask() {
    static mode_t const mask = [] {
        if (FILE* f = std::fopen("/proc/self/status", "re")) {
            char line[256];
            unsigned value = 0;
            bool found = false;
            while (!found && std::fgets(line, sizeof line, f))
                found = std::sscanf(line, "Umask: %o", &value) == 1;
            std::fclose(f);
            if (found) return static_cast<mode_t>(value & 0777);
        }
        mode_t const m = ::umask(022);
        ::umask(m);
        return m;
    }();
    return mask;
}

// Six characters from [A-Za-z0-9] for a temporary name. Unpredictable names only make
// collisions unlikely; safety comes from O_EXCL, so a weak fallback is acceptable when the
// kernel has no entropy ready yet.
std::string random_suffix() {
    static constexpr char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static std::atomic<std::uint64_t> counter{0};
    std::uint64_t bits = 0;
    if (::getrandom(&bits, sizeof bits, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bits)) {
        auto const now = std::chrono::steady_clock::now().time_since_epoch().count();
        bits = static_cast<std::uint64_t>(now) ^ (static_cast<std::uint64_t>(::getpid()) << 32) ^
               (++counter * 0x9E3779B97F4A7C15ULL);
    }
    std::string s(6, '\0');
    for (auto& c : s) {
        c = alphabet[bits % 62];
        bits /= 62;
    }
    return s;
}

// Where the output really goes. A symbolic link is written through, as the shell's `>` and
// most tools do: the temporary is created in the folder of the file the link points to and
// renamed onto that file, so the link stays a link and other links to the same file see the
// new contents. Chains are followed (at most 40 links, like the kernel); a dangling link
// leads to its target being created. Relative link targets are relative to the link's
// folder.
struct Target {
    std::string path;    // final path with every symbolic link resolved
    bool exists = false; // `st` is valid
    struct stat st {};
};

int resolve_target(std::string const& path, Target& out) {
    std::string p = path;
    for (int hops = 0; hops <= 40; ++hops) {
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0) {
            if (errno != ENOENT) return errno;
            out.path = p;
            out.exists = false;
            return 0;
        }
        if (!S_ISLNK(st.st_mode)) {
            out.path = p;
            out.exists = true;
            out.st = st;
            return 0;
        }
        std::vector<char> buf(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 255) + 1);
        auto const n = ::readlink(p.c_str(), buf.data(), buf.size());
        if (n < 0) return errno;
        if (static_cast<std::size_t>(n) >= buf.size()) return ENAMETOOLONG; // grew meanwhile
        std::string link(buf.data(), static_cast<std::size_t>(n));
        if (link.empty()) return ENOENT;
        if (link.front() == '/') {
            p = link;
        } else {
            auto const slash = p.rfind('/');
            p = slash == std::string::npos ? link : p.substr(0, slash + 1) + link;
        }
    }
    return ELOOP;
}

// A file written either through a temporary (regular files, new files) or in place
// (devices, FIFOs). Invariants: `fd_ >= 0` exactly while the sink is open; `slot_` is the
// temporary's cleanup registration while the temporary exists under its own name; after
// the first failure `error_` is set and every later call fails. Small writes are gathered
// in a 256 KiB buffer so that a caller writing line by line does not cost one system call
// per line; large writes bypass it.
class FileSink final : public ByteSink {
public:
    // `temp` is "" when writing in place; `final_path` is then unused.
    FileSink(std::string display, std::string final_path, int fd, std::string temp, int slot,
             mode_t mode)
        : display_(std::move(display)), final_(std::move(final_path)), temp_(std::move(temp)),
          fd_(fd), slot_(slot), mode_(mode) {}
    ~FileSink() override { abandon(); }
    FileSink(FileSink const&) = delete;
    FileSink& operator=(FileSink const&) = delete;

    bool write(std::string_view bytes) override {
        if (fd_ < 0 || !error_.empty()) return fail_closed();
        // A batch's output (tens or hundreds of KiB) goes out as it is, after what is
        // buffered, in one writev: not copied. Small writes are gathered.
        if (bytes.size() >= direct_write) {
            int const err = write_all(fd_, std::string_view(buffer_.data(), buffer_.size()), bytes);
            buffer_.clear();
            return check(err);
        }
        if (buffer_.size() + bytes.size() > buffer_capacity && !flush()) return false;
        if (buffer_.capacity() == 0) buffer_.reserve(buffer_capacity);
        buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
        return true;
    }

    // No fsync: the output of a bulk conversion can be made again, and syncing every file
    // would make a run over thousands of files several times slower. rename() still gives
    // readers either the old or the new complete file while the system stays up.
    bool prepare(std::string& error) override {
        if (prepared_) return true;
        if (fd_ < 0 && error_.empty()) error_ = "cannot write " + display_ + ": output abandoned";
        if (error_.empty() && flush()) {
            // A failing fchmod (file systems without Unix modes) leaves the private 0600,
            // which errs on the safe side; it is not worth failing the output for.
            if (!temp_.empty()) static_cast<void>(::fchmod(fd_, mode_));
            int const fd = fd_;
            fd_ = -1;
            // Delayed write errors (a full disk, NFS quotas) may show only here.
            if (check(::close(fd) == 0 ? 0 : errno)) {
                prepared_ = true;
                return true;
            }
        }
        abandon();
        error = error_;
        return false;
    }

    bool commit(std::string& error) override {
        if (committed_) return true;
        if (!prepare(error)) return false;
        if (temp_.empty() || check(::rename(temp_.c_str(), final_.c_str()) == 0 ? 0 : errno)) {
            if (!temp_.empty()) {
                unregister_temporary(slot_);
                temp_.clear();
            }
            committed_ = true;
            return true;
        }
        abandon();
        error = error_;
        return false;
    }

    // After a successful prepare() the file is closed but its temporary still there: the
    // sink is not `fd_ >= 0`, and only commit() or abandon() may follow.
    void abandon() override {
        if (fd_ >= 0) {
            ::close(fd_);
            fd_ = -1;
        }
        if (!temp_.empty()) {
            ::unlink(temp_.c_str());
            unregister_temporary(slot_);
            temp_.clear();
        }
        buffer_.clear();
        if (!committed_) prepared_ = false; // a later commit() fails: "output abandoned"
    }

    std::string error() const override { return error_; }

private:
    static constexpr std::size_t buffer_capacity = std::size_t{256} << 10;
    static constexpr std::size_t direct_write = std::size_t{32} << 10;

    bool flush() {
        if (buffer_.empty()) return true;
        int const err = write_all(fd_, buffer_.data(), buffer_.size());
        buffer_.clear();
        return check(err);
    }
    bool check(int err) {
        if (err == 0) return true;
        if (error_.empty()) error_ = describe(display_, err);
        return false;
    }
    bool fail_closed() {
        if (error_.empty()) error_ = "cannot write " + display_ + ": output already closed";
        return false;
    }

    std::string display_;   // the path as the user gave it, for messages
    std::string final_;     // where rename() puts the temporary (links resolved)
    std::string temp_;      // the temporary's name while it exists; "" when writing in place
    int fd_;                // -1 once closed
    int slot_;              // cleanup registration of temp_ (-1: none)
    mode_t mode_;           // the mode the final file gets
    bool prepared_ = false; // flushed and closed: only the rename is left
    bool committed_ = false;
    std::string error_;
    std::vector<char> buffer_;
};

// Standard output is not owned (never closed) and not buffered, so that output interleaves
// correctly with anything else written to descriptor 1 and reaches a pipe as it is made.
class StdoutSink final : public ByteSink {
public:
    bool write(std::string_view bytes) override {
        if (!error_.empty()) return false;
        int const err = write_all(STDOUT_FILENO, bytes.data(), bytes.size());
        if (err == 0) return true;
        error_ =
            std::string("cannot write to standard output: ") + std::generic_category().message(err);
        return false;
    }
    bool prepare(std::string& error) override {
        if (error_.empty()) return true;
        error = error_;
        return false;
    }
    bool commit(std::string& error) override { return prepare(error); }
    void abandon() override {}
    std::string error() const override { return error_; }

private:
    std::string error_;
};

} // namespace

std::unique_ptr<ByteSink> open_stdout() { return std::make_unique<StdoutSink>(); }

// The temporary is opened with O_EXCL (and O_NOFOLLOW for good measure): a symbolic link or
// any file planted at its name makes the open fail with EEXIST, and another name is drawn.
// It starts with mode 0600 so that nobody else can read a half-written file; commit() sets
// the final mode. The final mode is taken from the file being replaced when the sink is
// opened.
std::unique_ptr<ByteSink> open_file_sink(std::string const& path, std::string& error) {
    Target target;
    if (int const err = resolve_target(path, target); err != 0) {
        error = describe(path, err);
        return nullptr;
    }
    if (target.exists && S_ISDIR(target.st.st_mode)) {
        error = describe(path, EISDIR);
        return nullptr;
    }
    if (target.exists && !S_ISREG(target.st.st_mode)) {
        // A device or FIFO: there is nothing to replace, and a FIFO's open waits for a
        // reader, as the shell's `>` does.
        int fd;
        do fd = ::open(target.path.c_str(), O_WRONLY | O_CLOEXEC);
        while (fd < 0 && errno == EINTR);
        if (fd < 0) {
            error = describe(path, errno);
            return nullptr;
        }
        return std::make_unique<FileSink>(path, target.path, fd, std::string(), -1, mode_t{0});
    }
    mode_t const mode =
        target.exists ? (target.st.st_mode & 07777) : (0666 & ~process_umask() & 0777);
    for (int attempt = 0; attempt < 1000; ++attempt) {
        std::string temp = target.path + ".pgn-iccf-tmp." + random_suffix();
        int const fd =
            ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd < 0) {
            if (errno == EEXIST || errno == EINTR) continue;
            error = describe(path, errno);
            return nullptr;
        }
        int const slot = register_temporary(temp);
        return std::make_unique<FileSink>(path, target.path, fd, std::move(temp), slot, mode);
    }
    error = describe(path, EEXIST);
    return nullptr;
}

} // namespace pgn_iccf::io
