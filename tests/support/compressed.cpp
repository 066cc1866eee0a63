// The property checks of the compressed readers (properties.hpp, "compressed input"): the
// decoders fed arbitrary bytes, and PGN read through a decoder of itself compressed at run
// time.
#include "support/detail.hpp"
#include "support/properties.hpp"

#include "io/compress.hpp"
#include "io/source.hpp"
#include "pgn/game_reader.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace pgn_iccf::properties {

namespace {

using namespace detail;
using io::Compression;

constexpr std::array<Compression, 3> compressions = {Compression::gzip, Compression::bzip2,
                                                     Compression::zstd};

// A source that hands out the bytes in reads of random sizes (1 to 7 bytes a quarter of the
// time, up to 4 KiB otherwise).
std::unique_ptr<io::ByteSource> choppy(std::string_view bytes, std::uint64_t seed) {
    return io::open_memory(bytes, [rng = Rng(seed)]() mutable -> std::size_t {
        return rng.below(4) == 0 ? 1 + rng.below(7) : 1 + rng.below(4096);
    });
}

// Decoded output is read up to this much: a few bytes of zstd RLE blocks or bzip2 runs
// decode to hundreds of MB, which says nothing more about the decoder than the first MiB.
constexpr std::size_t output_cap = std::size_t{1} << 20;

struct Decoded {
    std::string data;
    bool ok = false;     // read to the end without an error
    bool capped = false; // stopped at output_cap
    std::string error;
    std::uint64_t consumed = 0;
};

// Reads `src` to its end, its first error or output_cap; `read_size` gives the size of each
// read() call.
template <class ReadSize>
Decoded drain(io::ByteSource& src, ReadSize read_size) {
    Decoded d;
    std::vector<char> buf(65536);
    for (;;) {
        std::size_t const n = std::min(buf.size(), read_size());
        auto const r = src.read(buf.data(), n);
        if (r < 0) {
            d.error = src.error();
            break;
        }
        if (r == 0) {
            d.ok = true;
            break;
        }
        if (static_cast<std::size_t>(r) > n) {
            d.error = cat("read() returned ", r, " bytes for a buffer of ", n);
            d.capped = true; // not comparable
            break;
        }
        d.data.append(buf.data(), static_cast<std::size_t>(r));
        if (d.data.size() >= output_cap) {
            d.capped = true;
            break;
        }
    }
    d.consumed = src.consumed();
    return d;
}

// The documented forms of a decoder's error (source.hpp, decode.cpp).
bool documented_error(Compression c, std::string_view e) {
    std::string const n(io::name(c));
    return e == n + " data is truncated" || e.starts_with(n + " data is corrupt (") ||
           e.starts_with("not enough memory to decode " + n + " data") ||
           (c == Compression::zstd && e.starts_with("zstd data compressed with a dictionary")) ||
           e == "trailing garbage after the " + n + " data" ||
           (c == Compression::zstd && e.starts_with("zstd data needs a ") &&
            e.ends_with("zstd -dc --long=31 FILE | pgn-iccf -"));
}

std::string check_one_decoder(Compression c, std::string_view bytes) {
    std::string const n(io::name(c));
    Rng rng(seed_of(bytes) ^ static_cast<std::uint64_t>(c));
    auto plain_src = io::decode(c, io::open_memory(bytes));
    auto const a = drain(*plain_src, [] { return std::size_t{65536}; });
    auto choppy_src = io::decode(c, choppy(bytes, rng.next()));
    auto const b = drain(*choppy_src, [&rng] { return 1 + rng.below(rng.below(2) ? 9 : 70000); });
    if (a.consumed > bytes.size() || b.consumed > bytes.size())
        return cat(n, ": consumed ", a.consumed, " and ", b.consumed, " of ", bytes.size(),
                   " bytes");
    if (!a.ok && !a.capped && !documented_error(c, a.error))
        return cat(n, ": undocumented error '", a.error, "'");
    if (a.capped || b.capped) {
        // Only the common part can be compared.
        auto const k = std::min(a.data.size(), b.data.size());
        if (a.data.compare(0, k, b.data, 0, k) != 0)
            return cat(n, ": the output depends on the read sizes (capped)");
        return {};
    }
    // Bad data may be found at another step (zstd: "Unknown frame descriptor" or "Error
    // (generic)" for one damaged header) when the input arrives in other pieces.
    if (a.ok != b.ok || (!b.ok && !documented_error(c, b.error)) ||
        (a.error.starts_with(n + " data needs") != b.error.starts_with(n + " data needs")))
        return cat(n, ": reads of 64 KiB end with '", a.ok ? "the end" : a.error,
                   "', random reads with '", b.ok ? "the end" : b.error, "'");
    // Before an error, how much of the text decoded is delivered depends on how the reads
    // fall (the step that finds bad deflate data delivers nothing): one output is a prefix of
    // the other. Read to the end, they are equal.
    auto const k = std::min(a.data.size(), b.data.size());
    if (a.data.compare(0, k, b.data, 0, k) != 0 || (a.ok && a.data.size() != b.data.size()))
        return cat(n, ": the output depends on the read sizes: ", a.data.size(), " and ",
                   b.data.size(), " bytes");
    // What decoded compresses and decodes back to itself.
    if (a.ok && a.data.size() <= (std::size_t{1} << 20)) {
        std::string again;
        io::compress_chunk(c, 1, a.data, again);
        auto src = io::decode(c, io::open_memory(again));
        auto const r = drain(*src, [] { return std::size_t{65536}; });
        if (!r.ok || r.data != a.data)
            return cat(n,
                       ": the decoded bytes do not survive compress_chunk and decode: ", r.error);
    }
    return {};
}

struct ReadGame {
    std::string bytes;
    std::uint64_t number = 0;
    syntax::Location start;
    pgn::GamePart part = pgn::GamePart::whole;
};

// Every game the reader finds in `source` (pieces of oversized games included), its error
// and the bytes it read.
std::vector<ReadGame> read_games(io::ByteSource& source, std::size_t chunk, std::string& error,
                                 std::uint64_t& bytes_read) {
    std::vector<ReadGame> games;
    pgn::GameReader reader(source, chunk, std::size_t{1} << 16);
    syntax::RawGame g;
    while (reader.next(g))
        games.push_back({std::string(g.bytes), g.number, g.start, reader.part()});
    error = reader.io_error();
    bytes_read = reader.bytes_read();
    return games;
}

} // namespace

std::string check_decoder_input(std::string_view bytes) {
    for (auto const c : compressions)
        if (auto f = check_one_decoder(c, bytes); !f.empty()) return f;
    return {};
}

std::string check_compressed_input(std::string_view bytes) {
    Rng rng(seed_of(bytes));
    Compression const c = compressions[rng.below(compressions.size())];
    std::string const n(io::name(c));
    // One to three members, cut at random places, as a parallel compressor writes them.
    std::string z;
    std::size_t const members = 1 + rng.below(3);
    std::size_t at = 0;
    for (std::size_t m = 0; m < members; ++m) {
        std::size_t const end =
            m + 1 == members ? bytes.size() : at + rng.below(bytes.size() - at + 1);
        io::compress_chunk(c, 1 + static_cast<int>(rng.below(3)), bytes.substr(at, end - at), z);
        at = end;
    }
    auto const sniffed = io::sniff(std::string_view(z).substr(0, 4096));
    if (sniffed.compression != c) return cat(n, " data not sniffed as ", n);

    std::size_t const chunk = 64 + rng.below(5000);
    std::string plain_error, decoded_error;
    std::uint64_t plain_read = 0, decoded_read = 0;
    auto plain_src = io::open_memory(bytes);
    auto const plain = read_games(*plain_src, chunk, plain_error, plain_read);
    auto decoder = io::decode(c, choppy(z, rng.next()));
    auto const decoded = read_games(*decoder, chunk, decoded_error, decoded_read);
    if (!decoded_error.empty()) return cat(n, ", ", members, " members: ", decoded_error);
    if (decoded_read != bytes.size() || decoded_read != plain_read)
        return cat(n, ": read ", decoded_read, " of ", bytes.size(), " bytes (plain ", plain_read,
                   ")");
    if (decoded.size() != plain.size())
        return cat(n, ": ", decoded.size(), " games through the decoder, ", plain.size(),
                   " from the plain text");
    for (std::size_t i = 0; i < plain.size(); ++i) {
        auto const& p = plain[i];
        auto const& d = decoded[i];
        if (p.bytes != d.bytes || p.number != d.number || !same(p.start, d.start) ||
            p.part != d.part)
            return cat(n, ": game ", i + 1, " differs through the decoder: ", show(d.bytes), " at ",
                       show(d.start), " against ", show(p.bytes), " at ", show(p.start));
    }
    return check_split(bytes);
}

} // namespace pgn_iccf::properties
