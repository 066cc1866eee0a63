// Byte sources: where the bytes of an input come from (a file, standard input, memory), and
// the decoders that turn gzip, bzip2 and zstd data back into PGN text.
//
// open_input() is what the tool uses: it opens a path (or "-" for standard input), looks at
// the first bytes (never at the name) and returns a source that delivers the decoded text,
// or refuses the input with one line saying what it looks like (a zip archive, an image,
// binary data...). Concatenated gzip members, bzip2 streams and zstd frames are read to the
// end, as gzip -d, bzip2 -d and zstd -d do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace pgn_iccf::io {

// Reads of an input at any offset, from any thread at once: a regular file (pread) or bytes in
// memory. The cutter's workers read their blocks with it (src/reader/cutter.hpp), so that the
// serial stage of a run does not copy the input. Offsets count from the input's first byte.
class PositionalReader {
public:
    virtual ~PositionalReader() = default;
    // Reads n bytes at `offset`, fewer only at the end of the input; -1 on an error (`error`
    // then says what happened, without the input's name).
    virtual std::ptrdiff_t read_at(char* dst, std::size_t n, std::uint64_t offset,
                                   std::string& error) const = 0;
};

// A source of bytes. read() returns the number of bytes read (0 at end of input) or -1 on
// an error (error() then says what happened, without the input's name).
class ByteSource {
public:
    virtual ~ByteSource() = default;
    virtual std::ptrdiff_t read(char* dst, std::size_t n) = 0;
    virtual std::string error() const { return {}; }
    // Bytes taken so far from the underlying file or stream (for a decoder: compressed
    // bytes), for progress displays.
    virtual std::uint64_t consumed() const = 0;
    // The same bytes read at any offset (it outlives the source), or null where they cannot
    // be (pipes, standard input, decoders): a file opened by open_file that is a regular file,
    // memory; a source that delivers a head first, its inner source's.
    virtual std::shared_ptr<PositionalReader const> positional() const { return nullptr; }
};

// A source delivering the bytes of `reader` from `offset` on.
std::unique_ptr<ByteSource> open_positional(std::shared_ptr<PositionalReader const> reader,
                                            std::uint64_t offset);

// Opens a file for reading; nullptr with `error` filled ("PATH: reason") if it cannot.
std::unique_ptr<ByteSource> open_file(std::string const& path, std::string& error);
// Standard input (descriptor 0, not closed by the source).
std::unique_ptr<ByteSource> open_stdin();
// An in-memory buffer (tests, benchmarks); the bytes must outlive the source. With
// `read_size`, each read hands out at most read_size() bytes (at least 1), as pipes and
// decoders do: the seam for tests of readers that must not depend on how reads fall.
std::unique_ptr<ByteSource> open_memory(std::string_view bytes,
                                        std::function<std::size_t()> read_size = {});

enum class Compression : std::uint8_t { none, gzip, bzip2, zstd };

// What the first bytes of an input look like.
struct Sniffed {
    Compression compression = Compression::none;
    bool text = true;       // PGN text or a known compression: to be read
    std::string looks_like; // when !text: "a zip archive", "a PNG image", "binary data", ...
};

// Classifies the first bytes of an input (as many as are available, up to 4 KiB; fewer at
// the end of a short input). Compressions by their magic bytes; refused: other archive and
// compression formats, executables, images, documents, UTF-16/32 text, and bytes with NUL
// or many control bytes; anything else is taken as text (Latin-1 and UTF-8 alike).
Sniffed sniff(std::string_view head);

// A decoder reading compressed bytes from `inner` (which it owns), delivering the decoded
// bytes; consumed() is the inner source's. Errors (corrupt or truncated data) are read
// errors with a message such as "gzip data is corrupt (invalid block type)" or "zstd data
// is truncated". After the last complete member, zero bytes (padding) are ignored and
// anything else is "trailing garbage after the gzip data" (see decode.cpp).
//
// Memory: gzip needs its 32 KiB window, bzip2 at most ~3.6 MB (a 900 KB block); a zstd
// frame needs the window its header declares (up to 8 MiB for zstd -1 to -19, 32 MiB to
// 128 MiB for --ultra -20 to -22 and --long, up to 2 GiB for --long=31). A frame whose window
// is larger than `max_window` (a power of two, 1 KiB to 2 GiB) is not decoded: the read error
// names the window, the bound, and the ways out (--max-window, or zstd -d ... | pgn-iccf -).
// A decoder that cannot get its memory says "not enough memory to decode zstd data with a
// 2 GiB window: ..." (or bzip2 data), never that the data is corrupt.
constexpr std::uint64_t default_max_window = std::uint64_t{8} << 20;
constexpr std::uint64_t largest_max_window = std::uint64_t{2} << 30;
std::unique_ptr<ByteSource> decode(Compression c, std::unique_ptr<ByteSource> inner,
                                   std::uint64_t max_window = default_max_window);

// A source that first delivers `head` (bytes already read from `inner` while sniffing),
// then the rest of `inner`, which it owns.
std::unique_ptr<ByteSource> prefixed(std::string head, std::unique_ptr<ByteSource> inner);

// The opened input of the tool.
struct Input {
    std::unique_ptr<ByteSource> source; // decoded PGN text; null if refused or unreadable
    Compression compression = Compression::none;
    std::string error; // why source is null: "PATH: No such file or directory",
                       // "PATH: not PGN text: this looks like a zip archive", ...
};

// Opens `path` ("-" for standard input), sniffs its first bytes and stacks the decoder (zstd
// windows up to `max_window`, see decode()). Compressed input is sniffed again after
// decoding: compressed UTF-16 text, an executable or binary data, or data compressed twice,
// is refused as "gzip data containing UTF-16 text (...)" and the like. `display` is the name
// used in messages ("<stdin>" for standard input).
Input open_input(std::string const& path, std::string const& display,
                 std::uint64_t max_window = default_max_window);

// Name helpers. compression_for_name: by the extension .gz, .bz2, .zst (any letter case);
// none otherwise. extension: ".gz", ".bz2", ".zst" or "". name: "gzip", "bzip2", "zstd",
// "plain".
Compression compression_for_name(std::string_view path);
std::string_view extension(Compression c);
std::string_view name(Compression c);

// The name endings io knows, longest first where one ends another (".pgn.gz" before ".gz", so
// that a whole PGN ending is replaced and not only its compression extension). `pgn`: the name
// of a PGN file (a directory walk takes it as an input).
struct NameEnding {
    std::string_view text;
    Compression compression;
    bool pgn;
};
// The ending of `name` (any letter case), or nullptr.
NameEnding const* name_ending(std::string_view name);
// Named *.pgn, *.pgn.gz, *.pgn.bz2 or *.pgn.zst (any letter case).
bool is_pgn_name(std::string_view name);

} // namespace pgn_iccf::io
