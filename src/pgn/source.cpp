// Byte sources for the GameReader: files and standard input through POSIX read(2) (no stdio
// buffering in between: the reader has its own chunked buffer), and in-memory buffers.
#include "src/pgn/game_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace pgn_iccf::pgn {

namespace {

class FdSource final : public ByteSource {
public:
    FdSource(int fd, bool owned) : fd_(fd), owned_(owned) {}
    ~FdSource() override {
        if (owned_) ::close(fd_);
    }
    FdSource(FdSource const&) = delete;
    FdSource& operator=(FdSource const&) = delete;

    std::ptrdiff_t read(char* dst, std::size_t n) override {
        for (;;) {
            auto const r = ::read(fd_, dst, n);
            if (r >= 0) return r;
            if (errno == EINTR) continue;
            error_ = std::strerror(errno);
            return -1;
        }
    }
    std::string error() const override { return error_; }

private:
    int fd_;
    bool owned_;
    std::string error_;
};

class MemorySource final : public ByteSource {
public:
    explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
    std::ptrdiff_t read(char* dst, std::size_t n) override {
        auto const k = std::min(n, bytes_.size() - pos_);
        std::memcpy(dst, bytes_.data() + pos_, k);
        pos_ += k;
        return static_cast<std::ptrdiff_t>(k);
    }

private:
    std::string_view bytes_;
    std::size_t pos_ = 0;
};

} // namespace

std::unique_ptr<ByteSource> open_file(std::string const& path, std::string& error) {
    int const fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = path + ": " + std::strerror(errno);
        return nullptr;
    }
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    return std::make_unique<FdSource>(fd, true);
}

std::unique_ptr<ByteSource> open_stdin() { return std::make_unique<FdSource>(0, false); }

std::unique_ptr<ByteSource> open_memory(std::string_view bytes) {
    return std::make_unique<MemorySource>(bytes);
}

} // namespace pgn_iccf::pgn
