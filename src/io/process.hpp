// The process's own setup with the operating system, for the command line (src/cli): standard
// streams that were closed at start, whether standard error is a terminal, and the allocator's
// policy for large blocks.
#pragma once

#include <optional>

namespace pgn_iccf::io {

// Which of the standard streams were closed when the program started.
struct ClosedStreams {
    bool in = false;
    bool out = false;
    bool err = false;
};

// A closed standard stream must not let the first file opened take its descriptor (the
// rejects file would receive the converted games, or the output our diagnostics): each closed
// one is opened on /dev/null. Says which were closed; nullopt if one could not be reopened.
std::optional<ClosedStreams> guard_standard_streams();

// Whether standard error is a terminal (the progress line is shown there by default).
bool standard_error_is_terminal();

// Blocks of 1 MiB and more (the buffers of a large game) are mapped on their own, so that
// freeing one gives its memory back at once and growing one remaps it without a copy. glibc's
// default threshold adapts upwards after such a block is freed, and large games' buffers would
// then stay in the heap, counted in the peak memory for the rest of the run. Nothing where
// the C library has no such setting.
void map_large_blocks_alone();

} // namespace pgn_iccf::io
