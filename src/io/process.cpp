// The process's setup with the operating system (process.hpp).
#include "io/process.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif

namespace pgn_iccf::io {

std::optional<ClosedStreams> guard_standard_streams() {
    ClosedStreams closed;
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
        if (::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd) return std::nullopt;
        (fd == 0 ? closed.in : fd == 1 ? closed.out : closed.err) = true;
    }
    return closed;
}

bool standard_error_is_terminal() { return ::isatty(STDERR_FILENO) != 0; }

void map_large_blocks_alone() {
#ifdef M_MMAP_THRESHOLD
    ::mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

} // namespace pgn_iccf::io
