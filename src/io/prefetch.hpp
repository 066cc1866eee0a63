// Read-ahead on a thread of its own: a ByteSource whose reads are made by a dedicated thread
// into a small ring of buffers, so that a decoder (gzip, bzip2, zstd) decodes the next
// megabytes while the reader cuts and the workers convert the last ones (issue J).
#pragma once

#include "io/source.hpp"

#include <cstddef>
#include <memory>

namespace pgn_iccf::io {

// Wraps `inner` (which it owns): a thread calls inner->read() into `buffers` buffers of
// `buffer_size` bytes each (one read per buffer, as much as the inner source gives), at most
// all of them filled ahead of the consumer. read() hands out the bytes in order, in pieces of
// any size; an inner read error (a decoder's message: corrupt or truncated data, a window too
// large, a failed read) is delivered exactly where the inner source gave it: the bytes read
// before it first, then read() returns -1 and error() is the inner message (and stays so).
// consumed() is the inner consumed() just after the read that produced the bytes last handed
// out (so a progress display follows the consumer, not the read-ahead).
//
// Memory: buffers * buffer_size bytes (default 4 x 256 KiB = 1 MiB), allocated when the
// source is made. 256 KiB is also the most the GameReader asks for per read: a decoder gives
// back the bytes of a corrupt block up to where its output stopped before it noticed the
// corruption, so reads of that size keep even the garbage delivered before a "data is
// corrupt" error nearly always what it was without the read-ahead (it depends on read sizes
// there; valid and truncated data come out the same whatever the sizes).
// Destruction stops the thread: it is joined, unless it is blocked inside an inner read (a
// pipe with no data yet), in which case it is left to end after that read on its own (it
// owns the inner source then, and touches nothing else), so that a stopped run never waits
// for its input.
constexpr std::size_t prefetch_buffers = 4;
constexpr std::size_t prefetch_buffer_size = std::size_t{256} << 10;
std::unique_ptr<ByteSource> prefetched(std::unique_ptr<ByteSource> inner,
                                       std::size_t buffers = prefetch_buffers,
                                       std::size_t buffer_size = prefetch_buffer_size);

} // namespace pgn_iccf::io
