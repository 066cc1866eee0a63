// Byte sources: files and standard input through POSIX read(2) (no stdio buffering in
// between: the game reader has its own chunked buffer), in-memory buffers, a prefixed source
// for the bytes read while sniffing, the sniffer, and open_input() which puts them together.
// The decoders are in decode.cpp.
#include "io/source.hpp"

#include "io/ascii.hpp"
#include "io/prefetch.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pgn_iccf::io {

namespace {

// pread on a descriptor of its own (a dup: the reader outlives the source).
class FdPositional final : public PositionalReader {
public:
    explicit FdPositional(int fd) : fd_(fd) {}
    ~FdPositional() override {
        if (fd_ >= 0) ::close(fd_);
    }
    FdPositional(FdPositional const&) = delete;
    FdPositional& operator=(FdPositional const&) = delete;
    std::ptrdiff_t read_at(char* dst, std::size_t n, std::uint64_t offset,
                           std::string& error) const override {
        std::size_t got = 0;
        while (got < n) {
            auto const r = ::pread(fd_, dst + got, n - got, static_cast<off_t>(offset + got));
            if (r < 0) {
                if (errno == EINTR) continue;
                error = std::generic_category().message(errno);
                return -1;
            }
            if (r == 0) break;
            got += static_cast<std::size_t>(r);
        }
        return static_cast<std::ptrdiff_t>(got);
    }

private:
    int fd_;
};

class MemoryPositional final : public PositionalReader {
public:
    explicit MemoryPositional(std::string_view bytes) : bytes_(bytes) {}
    std::ptrdiff_t read_at(char* dst, std::size_t n, std::uint64_t offset,
                           std::string&) const override {
        if (offset >= bytes_.size()) return 0;
        auto const k = std::min<std::uint64_t>(n, bytes_.size() - offset);
        std::memcpy(dst, bytes_.data() + offset, static_cast<std::size_t>(k));
        return static_cast<std::ptrdiff_t>(k);
    }

private:
    std::string_view bytes_;
};

class PositionalSource final : public ByteSource {
public:
    PositionalSource(std::shared_ptr<PositionalReader const> reader, std::uint64_t offset)
        : reader_(std::move(reader)), pos_(offset) {}
    std::ptrdiff_t read(char* dst, std::size_t n) override {
        auto const r = reader_->read_at(dst, n, pos_, error_);
        if (r > 0) pos_ += static_cast<std::uint64_t>(r);
        return r;
    }
    std::string error() const override { return error_; }
    std::uint64_t consumed() const override { return pos_; }
    std::shared_ptr<PositionalReader const> positional() const override { return reader_; }

private:
    std::shared_ptr<PositionalReader const> reader_;
    std::uint64_t pos_;
    std::string error_;
};

class FdSource final : public ByteSource {
public:
    FdSource(int fd, bool owned, bool regular = false)
        : fd_(fd), owned_(owned), regular_(regular) {}
    ~FdSource() override {
        if (owned_) ::close(fd_);
    }
    FdSource(FdSource const&) = delete;
    FdSource& operator=(FdSource const&) = delete;

    std::ptrdiff_t read(char* dst, std::size_t n) override {
        for (;;) {
            auto const r = ::read(fd_, dst, n);
            if (r >= 0) {
                consumed_ += static_cast<std::uint64_t>(r);
                return r;
            }
            if (errno == EINTR) continue;
            error_ = std::generic_category().message(errno);
            return -1;
        }
    }
    std::string error() const override { return error_; }
    std::uint64_t consumed() const override { return consumed_; }
    std::shared_ptr<PositionalReader const> positional() const override {
        if (!regular_) return nullptr;
        if (!positional_) {
            int const fd = ::fcntl(fd_, F_DUPFD_CLOEXEC, 0);
            if (fd < 0) return nullptr;
            positional_ = std::make_shared<FdPositional>(fd);
        }
        return positional_;
    }

private:
    int fd_;
    bool owned_;
    bool regular_;
    std::string error_;
    std::uint64_t consumed_ = 0;
    mutable std::shared_ptr<PositionalReader const> positional_;
};

class MemorySource final : public ByteSource {
public:
    MemorySource(std::string_view bytes, std::function<std::size_t()> read_size)
        : bytes_(bytes), read_size_(std::move(read_size)) {}
    std::ptrdiff_t read(char* dst, std::size_t n) override {
        auto k = std::min(n, bytes_.size() - pos_);
        if (read_size_ && k > 0) k = std::min(k, std::max<std::size_t>(1, read_size_()));
        std::memcpy(dst, bytes_.data() + pos_, k);
        pos_ += k;
        return static_cast<std::ptrdiff_t>(k);
    }
    std::uint64_t consumed() const override { return pos_; }
    std::shared_ptr<PositionalReader const> positional() const override {
        return std::make_shared<MemoryPositional>(bytes_);
    }

private:
    std::string_view bytes_;
    std::function<std::size_t()> read_size_;
    std::size_t pos_ = 0;
};

// Delivers the bytes read while sniffing, then the rest of the inner source. consumed() is
// the inner source's: the head was taken from it and is already counted there.
class PrefixedSource final : public ByteSource {
public:
    PrefixedSource(std::string head, std::unique_ptr<ByteSource> inner)
        : head_(std::move(head)), inner_(std::move(inner)) {}
    std::ptrdiff_t read(char* dst, std::size_t n) override {
        if (pos_ < head_.size()) {
            auto const k = std::min(n, head_.size() - pos_);
            std::memcpy(dst, head_.data() + pos_, k);
            pos_ += k;
            return static_cast<std::ptrdiff_t>(k);
        }
        return inner_->read(dst, n);
    }
    std::string error() const override { return inner_->error(); }
    std::uint64_t consumed() const override { return inner_->consumed(); }
    std::shared_ptr<PositionalReader const> positional() const override {
        return inner_->positional();
    }

private:
    std::string head_;
    std::size_t pos_ = 0;
    std::unique_ptr<ByteSource> inner_;
};

} // namespace

std::unique_ptr<ByteSource> open_file(std::string const& path, std::string& error) {
    int const fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int const e = errno;
        error = path + ": " + std::generic_category().message(e);
        return nullptr;
    }
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    struct stat st {};
    bool const regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    return std::make_unique<FdSource>(fd, true, regular);
}

std::unique_ptr<ByteSource> open_positional(std::shared_ptr<PositionalReader const> reader,
                                            std::uint64_t offset) {
    return std::make_unique<PositionalSource>(std::move(reader), offset);
}

std::unique_ptr<ByteSource> open_stdin() { return std::make_unique<FdSource>(0, false); }

std::unique_ptr<ByteSource> open_memory(std::string_view bytes,
                                        std::function<std::size_t()> read_size) {
    return std::make_unique<MemorySource>(bytes, std::move(read_size));
}

std::unique_ptr<ByteSource> prefixed(std::string head, std::unique_ptr<ByteSource> inner) {
    return std::make_unique<PrefixedSource>(std::move(head), std::move(inner));
}

// --- sniffing ---------------------------------------------------------------------------------

namespace {

bool starts_with(std::string_view head, std::string_view magic) {
    return head.substr(0, magic.size()) == magic;
}

unsigned char byte_at(std::string_view head, std::size_t i) {
    return static_cast<unsigned char>(head[i]);
}

Sniffed refused(std::string looks_like) {
    return Sniffed{Compression::none, false, std::move(looks_like)};
}

// Formats recognised by a fixed magic at offset 0 and refused with a description. Only
// signatures that plain text cannot start with (a NUL or a non-ASCII byte early on, or a
// signature no chess text would begin with) are listed.
struct Signature {
    std::string_view magic;
    std::string_view looks_like;
};

constexpr std::string_view unsupported_compression = " (not supported: use gzip, bzip2 or zstd)";

constexpr std::array signatures{
    Signature{{"PK\x03\x04", 4}, "a zip archive"},
    Signature{{"PK\x05\x06", 4}, "a zip archive"},
    Signature{{"PK\x07\x08", 4}, "a zip archive"},
    Signature{{"\xFD\x37zXZ\x00", 6}, "xz-compressed data"},
    Signature{{"7z\xBC\xAF\x27\x1C", 6}, "a 7-Zip archive"},
    Signature{{"Rar!\x1A\x07", 6}, "a RAR archive"},
    Signature{{"\x04\x22\x4D\x18", 4}, "lz4-compressed data"},
    Signature{{"\x02\x21\x4C\x18", 4}, "lz4-compressed data"},
    Signature{{"LZIP\x01", 5}, "lzip-compressed data"},
    Signature{{"\x1F\x9D", 2}, "compress (.Z) data"},
    Signature{{"\x7F\x45LF", 4}, "an executable (ELF)"},
    Signature{{"\x89PNG\r\n\x1A\n", 8}, "a PNG image"},
    Signature{{"\xFF\xD8\xFF", 3}, "a JPEG image"},
    Signature{{"GIF87a", 6}, "a GIF image"},
    Signature{{"GIF89a", 6}, "a GIF image"},
    Signature{{"%PDF-", 5}, "a PDF document"},
    Signature{{"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8}, "a Microsoft Office document"},
    Signature{{"SQLite format 3\x00", 16}, "an SQLite database"},
    // UTF-32 before UTF-16: FF FE 00 00 also starts with the UTF-16 LE mark.
    Signature{{"\xFF\xFE\x00\x00", 4}, "UTF-32 text (convert it to UTF-8 first)"},
    Signature{{"\x00\x00\xFE\xFF", 4}, "UTF-32 text (convert it to UTF-8 first)"},
    Signature{{"\xFF\xFE", 2}, "UTF-16 text (convert it to UTF-8 first)"},
    Signature{{"\xFE\xFF", 2}, "UTF-16 text (convert it to UTF-8 first)"},
};

bool is_compression_refused(std::string_view looks_like) {
    return looks_like.ends_with("-compressed data") || looks_like == "compress (.Z) data";
}

// bzip2: "BZh" + block size digit, then the magic of the first block (pi) or of the end of
// stream (sqrt(pi)) for an empty stream. Only the first four bytes are checked when fewer
// than ten are available.
bool is_bzip2(std::string_view head) {
    if (head.size() < 4 || !starts_with(head, "BZh") || head[3] < '1' || head[3] > '9')
        return false;
    if (head.size() < 10) return true;
    auto const rest = head.substr(4, 6);
    return rest == std::string_view("\x31\x41\x59\x26\x53\x59", 6) ||
           rest == std::string_view("\x17\x72\x45\x38\x50\x90", 6);
}

// zstd frame magic 0xFD2FB528, or a skippable frame 0x184D2A50..0x184D2A5F, little endian.
bool is_zstd(std::string_view head) {
    if (head.size() < 4) return false;
    if (starts_with(head, "\x28\xB5\x2F\xFD")) return true;
    return (byte_at(head, 0) & 0xF0) == 0x50 && byte_at(head, 1) == 0x2A &&
           byte_at(head, 2) == 0x4D && byte_at(head, 3) == 0x18;
}

// UTF-16 without a byte order mark: ASCII characters alternating with NUL bytes.
bool looks_utf16(std::string_view head) {
    if (head.size() < 4) return false;
    bool const le = head[0] != 0 && head[1] == 0 && head[2] != 0 && head[3] == 0;
    bool const be = head[0] == 0 && head[1] != 0 && head[2] == 0 && head[3] != 0;
    return le || be;
}

} // namespace

Sniffed sniff(std::string_view head) {
    if (head.size() >= 2 && starts_with(head, "\x1F\x8B")) return {Compression::gzip, true, {}};
    if (is_bzip2(head)) return {Compression::bzip2, true, {}};
    if (is_zstd(head)) return {Compression::zstd, true, {}};
    for (auto const& s : signatures) {
        if (!starts_with(head, s.magic)) continue;
        std::string looks_like(s.looks_like);
        if (is_compression_refused(looks_like)) looks_like += unsupported_compression;
        return refused(std::move(looks_like));
    }
    // lzma-alone (.lzma): properties byte 0x5D, then a little-endian dictionary size whose
    // low bytes are zero for the sizes the tools write.
    if (head.size() >= 13 && byte_at(head, 0) == 0x5D && head[1] == 0 && head[2] == 0)
        return refused(std::string("lzma-compressed data") + std::string(unsupported_compression));
    // A Windows executable starts with "MZ", and its DOS header has NUL bytes right away.
    if (starts_with(head, "MZ") && head.substr(0, 64).find('\0') != std::string_view::npos)
        return refused("a Windows executable");
    if (head.size() >= 262 && head.substr(257, 5) == "ustar") return refused("a tar archive");
    if (looks_utf16(head)) return refused("UTF-16 text (convert it to UTF-8 first)");

    // Text unless NUL bytes or more than 3% C0 control bytes. Tab, LF, CR, FF and ^Z (the
    // end-of-file mark of old DOS files) are text; bytes >= 0x80 are Latin-1 or UTF-8 text.
    std::size_t controls = 0;
    for (char const ch : head) {
        auto const b = static_cast<unsigned char>(ch);
        if (b == 0) return refused("binary data");
        if (b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != 0x1A) ++controls;
    }
    if (controls * 100 > head.size() * 3) return refused("binary data");
    return {};
}

// --- open_input -------------------------------------------------------------------------------

namespace {

// Up to `size` bytes from the start of `source` (pipes, terminals and decoders deliver less
// per read(), so it loops until the head is full or the input ends); false if a read fails.
bool read_head(ByteSource& source, std::size_t size, std::string& head) {
    head.assign(size, '\0');
    std::size_t got = 0;
    bool ok = true;
    while (got < size) {
        auto const r = source.read(head.data() + got, size - got);
        if (r < 0) {
            ok = false;
            break;
        }
        if (r == 0) break;
        got += static_cast<std::size_t>(r);
    }
    head.resize(got);
    return ok;
}

} // namespace

Input open_input(std::string const& path, std::string const& display, std::uint64_t max_window) {
    Input input;
    std::unique_ptr<ByteSource> raw;
    if (path == "-") {
        raw = open_stdin();
    } else {
        std::string error;
        raw = open_file(path, error);
        if (!raw) {
            // open_file says "PATH: reason"; messages use the display name.
            input.error = display + error.substr(std::min(error.size(), path.size()));
            return input;
        }
    }

    constexpr std::size_t head_size = 4096;
    std::string head;
    if (!read_head(*raw, head_size, head)) {
        input.error = display + ": " + raw->error();
        return input;
    }
    auto const sniffed = sniff(head);
    if (!sniffed.text) {
        input.error = display + ": not PGN text: this looks like " + sniffed.looks_like;
        return input;
    }
    input.compression = sniffed.compression;
    input.source = prefixed(std::move(head), std::move(raw));
    if (sniffed.compression == Compression::none) return input;

    // The same check on the first decoded bytes: a .gz of UTF-16 text, of an executable or of
    // 2 GB of zeros would otherwise be read to the end as text holding no game. A read error
    // there (corrupt or truncated data, a zstd window too large) is left to the reader: the
    // bytes decoded before it are delivered first, then the error, as without this check.
    auto decoded = decode(sniffed.compression, std::move(input.source), max_window);
    std::string text;
    if (read_head(*decoded, head_size, text)) {
        auto const inner = sniff(text);
        std::string const outer(name(sniffed.compression));
        if (inner.compression != Compression::none) {
            input.error = display + ": not PGN text: this looks like " + outer +
                          " data containing " + std::string(name(inner.compression)) +
                          " data (compressed twice: decompress it once first)";
            return input;
        }
        if (!inner.text) {
            input.error = display + ": not PGN text: this looks like " + outer +
                          " data containing " + inner.looks_like;
            return input;
        }
    }
    // Decoding runs ahead on a thread of its own (prefetch.hpp), overlapped with the cutting
    // and converting; plain input gains nothing from it.
    input.source = prefixed(std::move(text), prefetched(std::move(decoded)));
    return input;
}

// --- names ------------------------------------------------------------------------------------

namespace {

// The one list of name endings: the compression extensions are its entries that are not
// PGN names.
constexpr std::array<NameEnding, 7> endings{{
    {".pgn.gz", Compression::gzip, true},
    {".pgn.bz2", Compression::bzip2, true},
    {".pgn.zst", Compression::zstd, true},
    {".pgn", Compression::none, true},
    {".gz", Compression::gzip, false},
    {".bz2", Compression::bzip2, false},
    {".zst", Compression::zstd, false},
}};

} // namespace

Compression compression_for_name(std::string_view path) {
    for (auto const& e : endings)
        if (!e.pgn && ascii::ends_with_icase(path, e.text)) return e.compression;
    return Compression::none;
}

NameEnding const* name_ending(std::string_view name) {
    for (auto const& e : endings)
        if (ascii::ends_with_icase(name, e.text)) return &e;
    return nullptr;
}

bool is_pgn_name(std::string_view name) {
    NameEnding const* e = name_ending(name);
    return e != nullptr && e->pgn;
}

std::string_view extension(Compression c) {
    for (auto const& e : endings)
        if (!e.pgn && e.compression == c) return e.text;
    return "";
}

std::string_view name(Compression c) {
    switch (c) {
    case Compression::gzip:
        return "gzip";
    case Compression::bzip2:
        return "bzip2";
    case Compression::zstd:
        return "zstd";
    case Compression::none:
        break;
    }
    return "plain";
}

} // namespace pgn_iccf::io
