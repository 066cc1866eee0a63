// Benchmark of the compression libraries behind src/io (a program, not a test): the figures
// that chose ISA-L over zlib for gzip input, and the compressors and default levels of
// compressed output (the comments at the top of src/io/decode.cpp and src/io/compress.cpp).
//
//   codec_bench [FILE] [SIZE_MB] [ROUNDS]
//
// FILE (default: the files of data/corpus concatenated) is repeated up to SIZE_MB of PGN
// (default 100). Decoding: one gzip -6 member (zlib, as gzip -6 writes it), one zstd -3 frame
// and one bzip2 -9 stream, each decoded into 256 KiB output blocks by the library alone (zlib
// inflate and ISA-L isal_inflate side by side), then through pgn-iccf's own decoders
// (io::decode, what a run uses). Compression: 1 MiB chunks, one member/frame/stream each, as
// the pipeline's workers write them, at the levels a user can ask for. One thread; the best
// of ROUNDS (default 3) runs; MB/s of PGN text.
#include "io/compress.hpp"
#include "io/source.hpp"

#include <bzlib.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace pgn_iccf;

namespace {

constexpr std::size_t out_block = std::size_t{256} << 10;

std::string read_file(fs::path const& p) {
    std::ifstream f(p, std::ios::binary);
    if (!f) throw std::runtime_error("cannot read " + p.string());
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// Seconds of the fastest of `rounds` calls.
double best_of(int rounds, std::function<void()> const& f) {
    double best = 1e30;
    for (int i = 0; i < rounds; ++i) {
        auto const t0 = std::chrono::steady_clock::now();
        f();
        std::chrono::duration<double> const d = std::chrono::steady_clock::now() - t0;
        best = std::min(best, d.count());
    }
    return best;
}

void check(bool ok, char const* what) {
    if (!ok) throw std::runtime_error(what);
}

// The reference compressed forms, made once.
std::string gzip6(std::string const& in) {
    z_stream z{};
    check(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK, "deflateInit2");
    std::string out(deflateBound(&z, in.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    check(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate");
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::string zstd3(std::string const& in) {
    std::string out(ZSTD_compressBound(in.size()), '\0');
    auto const n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3);
    check(!ZSTD_isError(n), "ZSTD_compress");
    out.resize(n);
    return out;
}

std::string bzip9(std::string const& in) {
    auto size = static_cast<unsigned>(in.size() + in.size() / 100 + 600);
    std::string out(size, '\0');
    check(BZ2_bzBuffToBuffCompress(out.data(), &size, const_cast<char*>(in.data()),
                                   static_cast<unsigned>(in.size()), 9, 0, 0) == BZ_OK,
          "BZ2_bzBuffToBuffCompress");
    out.resize(size);
    return out;
}

// Decoders of the libraries alone, into one reused block; they return the bytes decoded.
std::size_t zlib_inflate(std::string const& gz, std::vector<char>& block) {
    z_stream z{};
    check(inflateInit2(&z, 15 + 16) == Z_OK, "inflateInit2");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
    z.avail_in = static_cast<uInt>(gz.size());
    std::size_t total = 0;
    int r = Z_OK;
    while (r != Z_STREAM_END) {
        z.next_out = reinterpret_cast<Bytef*>(block.data());
        z.avail_out = static_cast<uInt>(block.size());
        r = inflate(&z, Z_NO_FLUSH);
        check(r == Z_OK || r == Z_STREAM_END, "inflate");
        total += block.size() - z.avail_out;
    }
    inflateEnd(&z);
    return total;
}

std::size_t isal_gunzip(std::string const& gz, std::vector<char>& block) {
    auto s = std::make_unique<inflate_state>();
    isal_inflate_init(s.get());
    s->crc_flag = ISAL_GZIP;
    s->next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(gz.data()));
    s->avail_in = static_cast<std::uint32_t>(gz.size());
    std::size_t total = 0;
    while (s->block_state != ISAL_BLOCK_FINISH) {
        s->next_out = reinterpret_cast<std::uint8_t*>(block.data());
        s->avail_out = static_cast<std::uint32_t>(block.size());
        check(isal_inflate(s.get()) == ISAL_DECOMP_OK, "isal_inflate");
        total += block.size() - s->avail_out;
    }
    return total;
}

std::size_t zstd_decode(std::string const& z, std::vector<char>& block) {
    std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> d(ZSTD_createDCtx(), ZSTD_freeDCtx);
    ZSTD_inBuffer in{z.data(), z.size(), 0};
    std::size_t total = 0;
    while (in.pos < in.size) {
        ZSTD_outBuffer out{block.data(), block.size(), 0};
        check(!ZSTD_isError(ZSTD_decompressStream(d.get(), &out, &in)), "ZSTD_decompressStream");
        total += out.pos;
    }
    return total;
}

std::size_t bzip2_decode(std::string const& bz, std::vector<char>& block) {
    bz_stream s{};
    check(BZ2_bzDecompressInit(&s, 0, 0) == BZ_OK, "BZ2_bzDecompressInit");
    s.next_in = const_cast<char*>(bz.data());
    s.avail_in = static_cast<unsigned>(bz.size());
    std::size_t total = 0;
    int r = BZ_OK;
    while (r != BZ_STREAM_END) {
        s.next_out = block.data();
        s.avail_out = static_cast<unsigned>(block.size());
        r = BZ2_bzDecompress(&s);
        check(r == BZ_OK || r == BZ_STREAM_END, "BZ2_bzDecompress");
        total += block.size() - s.avail_out;
    }
    BZ2_bzDecompressEnd(&s);
    return total;
}

// pgn-iccf's own decoder over the compressed bytes in memory, read in 1 MiB reads.
std::size_t project_decode(io::Compression c, std::string const& bytes, std::vector<char>& buf) {
    auto src = io::decode(c, io::open_memory(bytes));
    std::size_t total = 0;
    for (;;) {
        auto const n = src->read(buf.data(), buf.size());
        check(n >= 0, "pgn-iccf decoder");
        if (n == 0) break;
        total += static_cast<std::size_t>(n);
    }
    return total;
}

void row(char const* what, std::size_t text_bytes, std::size_t stored, double seconds) {
    std::printf("  %-44s %8.1f MB/s  ratio %5.2f\n", what, double(text_bytes) / 1e6 / seconds,
                double(text_bytes) / double(stored));
}

} // namespace

int main(int argc, char** argv) try {
    std::string unit;
    if (argc > 1) {
        unit = read_file(argv[1]);
    } else {
        std::vector<fs::path> files;
        for (auto const& e : fs::directory_iterator(fs::path(PGN_ICCF_DATA_DIR) / "corpus"))
            if (e.path().extension() == ".pgn") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (auto const& f : files) unit += read_file(f) + "\n";
    }
    check(!unit.empty(), "empty input");
    std::size_t const size = (argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 100) * 1000000;
    int const rounds = argc > 3 ? std::atoi(argv[3]) : 3;
    std::string text;
    while (text.size() < size) text += unit;

    std::string const gz = gzip6(text);
    std::string const zs = zstd3(text);
    std::string const bz = bzip9(text);
    std::printf("input: %.1f MB of PGN; gzip -6 %.1f MB, zstd -3 %.1f MB, bzip2 -9 %.1f MB; "
                "best of %d, one thread\n",
                double(text.size()) / 1e6, double(gz.size()) / 1e6, double(zs.size()) / 1e6,
                double(bz.size()) / 1e6, rounds);

    std::vector<char> block(out_block);
    std::size_t n = 0;
    auto expect = [&](std::size_t got) { check(got == text.size(), "decoded size differs"); };
    std::printf("decoding, libraries alone (256 KiB output blocks):\n");
    double const t_zlib = best_of(rounds, [&] { expect(n = zlib_inflate(gz, block)); });
    row("gzip  zlib inflate", text.size(), gz.size(), t_zlib);
    double const t_isal = best_of(rounds, [&] { expect(n = isal_gunzip(gz, block)); });
    row("gzip  ISA-L isal_inflate", text.size(), gz.size(), t_isal);
    row("zstd  ZSTD_decompressStream", text.size(), zs.size(),
        best_of(rounds, [&] { expect(n = zstd_decode(zs, block)); }));
    row("bzip2 BZ2_bzDecompress", text.size(), bz.size(),
        best_of(std::min(rounds, 2), [&] { expect(n = bzip2_decode(bz, block)); }));
    std::printf("  ISA-L / zlib: %.2fx\n", t_zlib / t_isal);

    std::vector<char> reads(std::size_t{1} << 20);
    std::printf("decoding, pgn-iccf's decoders (io::decode, 1 MiB reads):\n");
    row("gzip", text.size(), gz.size(),
        best_of(rounds, [&] { expect(project_decode(io::Compression::gzip, gz, reads)); }));
    row("zstd", text.size(), zs.size(),
        best_of(rounds, [&] { expect(project_decode(io::Compression::zstd, zs, reads)); }));
    row("bzip2", text.size(), bz.size(), best_of(std::min(rounds, 2), [&] {
            expect(project_decode(io::Compression::bzip2, bz, reads));
        }));

    // Compression as the workers do it: 1 MiB chunks, one member each. A slice of the text
    // keeps the slow levels short.
    std::printf("compressing 1 MiB chunks, as the pipeline's workers (io::compress_chunk; "
                "gzip 1-3 ISA-L, 4-9 zlib):\n");
    struct Level {
        io::Compression c;
        int level;
        std::size_t mb;
    };
    std::vector<Level> const levels = {
        {io::Compression::gzip, 1, 50}, {io::Compression::gzip, 3, 50},
        {io::Compression::gzip, 4, 20}, {io::Compression::gzip, 6, 10},
        {io::Compression::gzip, 9, 5},  {io::Compression::zstd, 1, 50},
        {io::Compression::zstd, 3, 50}, {io::Compression::zstd, 6, 20},
        {io::Compression::zstd, 19, 2}, {io::Compression::bzip2, 1, 5},
        {io::Compression::bzip2, 9, 5},
    };
    constexpr std::size_t chunk = std::size_t{1} << 20;
    for (auto const& l : levels) {
        std::string_view const slice(text.data(), std::min(text.size(), l.mb * 1000000));
        std::string out;
        double const t = best_of(std::min(rounds, 2), [&] {
            out.clear();
            for (std::size_t at = 0; at < slice.size(); at += chunk)
                io::compress_chunk(l.c, l.level, slice.substr(at, chunk), out);
        });
        char what[64];
        std::snprintf(what, sizeof what, "%s level %d%s", std::string(io::name(l.c)).c_str(),
                      l.level, l.level == io::default_level(l.c) ? " (default)" : "");
        row(what, slice.size(), out.size(), t);
    }
    return 0;
} catch (std::exception const& e) {
    std::fprintf(stderr, "codec_bench: %s\n", e.what());
    return 1;
}
