// The memory advice of memory.hpp: madvise on Linux for huge pages and for giving pages back;
// nothing elsewhere.
#include "io/memory.hpp"

#include <cstdint>

#if __has_include(<sys/mman.h>) && __has_include(<unistd.h>)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace pgn_iccf::io {

void advise_huge_pages(char* p, std::size_t n) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
    auto const b = (reinterpret_cast<std::uintptr_t>(p) + huge - 1) & ~(huge - 1);
    auto const e = (reinterpret_cast<std::uintptr_t>(p) + n) & ~(huge - 1);
    if (e > b) (void)::madvise(reinterpret_cast<void*>(b), e - b, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

void release_pages(char* p, std::size_t n) {
#if defined(__linux__) && defined(MADV_DONTNEED)
    static auto const page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    auto const first = (reinterpret_cast<std::uintptr_t>(p) + page - 1) / page * page;
    auto const last = (reinterpret_cast<std::uintptr_t>(p) + n) / page * page;
    if (p != nullptr && first < last)
        (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
#else
    (void)p;
    (void)n;
#endif
}

} // namespace pgn_iccf::io
