// Advice to the operating system about memory the program holds: the two calls the reading
// window and the writer's buffers make (Linux madvise; elsewhere nothing, the advice being
// only a speed or memory matter, never one of correctness).
#pragma once

#include <cstddef>

namespace pgn_iccf::io {

// Asks for transparent huge pages on the 2 MiB-aligned part of [p, p + n): a large window
// filled page fault by page fault then takes 512 times fewer faults.
void advise_huge_pages(char* p, std::size_t n);

// Gives the memory pages lying wholly inside [p, p + n) back to the system: their bytes are
// lost (they read as zeros), the memory stays mapped and usable.
void release_pages(char* p, std::size_t n);

} // namespace pgn_iccf::io
