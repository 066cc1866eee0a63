// Compression of output: each chunk of output becomes one independent gzip member, bzip2
// stream or zstd frame, so that workers compress chunks in parallel and the writer
// concatenates them in order (what pigz and pbzip2 do). gzip -d, bzip2 -d and zstd -d read
// the concatenation as one file.
#pragma once

#include "io/source.hpp"

#include <string>
#include <string_view>

namespace pgn_iccf::io {

// Levels: gzip 1-9 (1-3 by ISA-L, fast; 4-9 by zlib), bzip2 1-9, zstd 1-19; the defaults
// (gzip 3, bzip2 9, zstd 3) are chosen by measurement (see compress.cpp). Compression::none
// has level 0 only.
int default_level(Compression c);
int min_level(Compression c);
int max_level(Compression c);

// Appends `in` compressed as one complete member/stream/frame to `out` (an empty `in` gives a
// valid empty member: an empty output file still decompresses). Compression::none appends
// `in` unchanged. Level 0 is default_level(c); another level outside min_level..max_level is
// clamped. Thread-safe (no shared
// state; each thread keeps its own compressor context). Throws (std::bad_alloc,
// std::runtime_error) only if a library fails, i.e. when memory runs out.
void compress_chunk(Compression c, int level, std::string_view in, std::string& out);

} // namespace pgn_iccf::io
