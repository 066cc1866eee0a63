// Chunk compression: one complete gzip member, bzip2 stream or zstd frame per call.
//
// tests/bench/codec_bench.cpp measures each library at each level (MB/s of input and ratio,
// chunks of 1 MiB, one thread); its figures made the choices below (README, Performance, and
// the commit that moved them out of this comment). Each worker compresses the chunks it
// converted, so the compressor's speed adds directly to the per-core cost. Choices:
//   gzip: levels 1-3 are ISA-L's levels 1-3, 4-9 are zlib's. ISA-L's ratios at 1-3 match
//     zlib's at 1-3 at several times the speed, and 4-9 keep zlib's better ratios for those
//     who ask. Default 3: ISA-L level 3, ratio close to gzip -3; gzip -6's ratio would take
//     several times as long as the conversion itself.
//     Either way the output is an ordinary gzip file (one member per chunk).
//   bzip2: default 9, what bzip2 does: level 1 is hardly faster and compresses worse.
//     Compressing takes many times as long as converting: documented, slow.
//   zstd: default 3, libzstd's own default: as fast as level 1 here, better ratio. Levels
//     1-19 (20-22 need large windows and memory; not offered).
#include "io/compress.hpp"

#include <bzlib.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

namespace pgn_iccf::io {

namespace {

// The libraries count bytes in 32-bit fields: feed them at most 1 GiB at a time.
constexpr std::size_t max_piece = std::size_t{1} << 30;

unsigned piece(std::size_t remaining) {
    return static_cast<unsigned>(std::min(remaining, max_piece));
}

// Grows `out` so that at least `want` bytes are free after the `used` ones.
void reserve_tail(std::string& out, std::size_t used, std::size_t want) {
    if (out.size() - used < want) out.resize(used + want);
}

// ISA-L levels 1-3 through the stateful isal_deflate (one call for up to 1 GiB of input, a
// loop if the output buffer fills up). The stream (~300 KB with its level buffer) is reused
// per thread.
void gzip_isal(int level, std::string_view in, std::string& out) {
    struct State {
        isal_zstream stream;
        std::vector<std::uint8_t> level_buf = std::vector<std::uint8_t>(ISAL_DEF_LVL3_DEFAULT);
    };
    thread_local std::unique_ptr<State> const state = std::make_unique<State>();
    auto& s = state->stream;
    isal_deflate_init(&s);
    s.level = static_cast<std::uint32_t>(level);
    s.level_buf = state->level_buf.data();
    s.level_buf_size = static_cast<std::uint32_t>(state->level_buf.size());
    s.gzip_flag = IGZIP_GZIP;
    s.flush = NO_FLUSH;

    std::size_t used = out.size();
    std::size_t taken = 0;
    for (;;) {
        if (s.avail_in == 0) {
            auto const n = piece(in.size() - taken);
            s.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(in.data() + taken));
            s.avail_in = n;
            taken += n;
            s.end_of_stream = taken == in.size() ? 1 : 0;
        }
        reserve_tail(out, used, in.size() / 3 + 1024);
        auto const room = piece(out.size() - used);
        s.next_out = reinterpret_cast<std::uint8_t*>(out.data() + used);
        s.avail_out = room;
        int const r = isal_deflate(&s);
        used += room - s.avail_out;
        if (r != COMP_OK) {
            out.resize(used);
            throw std::runtime_error("gzip compression (ISA-L) failed: error " + std::to_string(r));
        }
        if (s.internal_state.state == ZSTATE_END) break;
    }
    out.resize(used);
}

// zlib levels 4-9: deflate with a gzip wrapper (windowBits 15 + 16).
void gzip_zlib(int level, std::string_view in, std::string& out) {
    z_stream z{};
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::bad_alloc();
    std::size_t used = out.size();
    std::size_t taken = 0;
    int r = Z_OK;
    while (r != Z_STREAM_END) {
        if (z.avail_in == 0 && taken < in.size()) {
            auto const n = piece(in.size() - taken);
            z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + taken));
            z.avail_in = n;
            taken += n;
        }
        reserve_tail(out, used, deflateBound(&z, z.avail_in) + 64);
        auto const room = piece(out.size() - used);
        z.next_out = reinterpret_cast<Bytef*>(out.data() + used);
        z.avail_out = room;
        r = deflate(&z, taken == in.size() ? Z_FINISH : Z_NO_FLUSH);
        used += room - z.avail_out;
        if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) {
            deflateEnd(&z);
            out.resize(used);
            throw std::runtime_error("gzip compression (zlib) failed: error " + std::to_string(r));
        }
    }
    deflateEnd(&z);
    out.resize(used);
}

void bzip2_stream(int level, std::string_view in, std::string& out) {
    bz_stream b{};
    if (BZ2_bzCompressInit(&b, level, 0, 0) != BZ_OK) throw std::bad_alloc();
    std::size_t used = out.size();
    std::size_t taken = 0;
    int r = BZ_RUN_OK;
    while (r != BZ_STREAM_END) {
        if (b.avail_in == 0 && taken < in.size()) {
            auto const n = piece(in.size() - taken);
            b.next_in = const_cast<char*>(in.data() + taken);
            b.avail_in = n;
            taken += n;
        }
        reserve_tail(out, used, b.avail_in + b.avail_in / 100 + 1024);
        auto const room = piece(out.size() - used);
        b.next_out = out.data() + used;
        b.avail_out = room;
        r = BZ2_bzCompress(&b, taken == in.size() ? BZ_FINISH : BZ_RUN);
        used += room - b.avail_out;
        if (r != BZ_RUN_OK && r != BZ_FINISH_OK && r != BZ_STREAM_END) {
            BZ2_bzCompressEnd(&b);
            out.resize(used);
            throw std::runtime_error("bzip2 compression failed: error " + std::to_string(r));
        }
    }
    BZ2_bzCompressEnd(&b);
    out.resize(used);
}

// One frame with the content size in its header and a checksum, through a context reused per
// thread (creating one costs more than compressing a small chunk).
//
// Memory: libzstd sizes its match tables by level. For a chunk of 1 MiB, levels 9-12 take
// ~12.5 MiB per context and 13-19 ~17 MiB (ZSTD_estimateCCtxSize), which took a -j2 run at
// level 15-19 past the 64 MiB bound. From level 7 on, the window is 1 MiB (a chunk's size) and
// the hash and chain tables 2^19 entries: at most ~5.2 MiB per context, levels 1-6 unchanged.
// Measured on data/corpus PGN at -j2 (peak RSS, output bytes: see the commit): the peak well
// down, the output barely larger, the speed within noise. tests/batch_test.cpp checks the peak
// at level 15.
constexpr int zstd_capped_from = 7;
constexpr int zstd_window_log = 20;
constexpr int zstd_table_log = 19;
constexpr std::size_t zstd_scratch_limit = std::size_t{4} << 20;
void zstd_frame(int level, std::string_view in, std::string& out) {
    struct FreeCctx {
        void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
    };
    thread_local std::unique_ptr<ZSTD_CCtx, FreeCctx> const cctx(ZSTD_createCCtx());
    if (!cctx) throw std::bad_alloc();
    auto* const c = cctx.get();
    ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
    if (level >= zstd_capped_from) {
        ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, zstd_window_log);
        ZSTD_CCtx_setParameter(c, ZSTD_c_hashLog, zstd_table_log);
        ZSTD_CCtx_setParameter(c, ZSTD_c_chainLog, zstd_table_log);
    }
    auto const used = out.size();
    auto const bound = ZSTD_compressBound(in.size());
    // The frame goes to a buffer of the thread's, then its bytes (a fifth of the input, for
    // PGN) to `out`: room for the bound in `out` itself was zero-filled, so every chunk in
    // flight held pages for four times its compressed size (peak RSS, see the commit). A
    // chunk larger than the buffer keeps (one huge game) is compressed in place as before.
    thread_local std::string scratch;
    bool const in_place = bound > zstd_scratch_limit;
    if (in_place)
        out.resize(used + bound);
    else if (scratch.size() < bound)
        scratch.resize(bound);
    char* const dst = in_place ? out.data() + used : scratch.data();
    auto const r = ZSTD_compress2(c, dst, bound, in.data(), in.size());
    if (ZSTD_isError(r)) {
        out.resize(used);
        throw std::runtime_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(r));
    }
    if (in_place)
        out.resize(used + r);
    else
        out.append(scratch.data(), r);
}

} // namespace

int default_level(Compression c) {
    switch (c) {
    case Compression::gzip:
        return 3;
    case Compression::bzip2:
        return 9;
    case Compression::zstd:
        return 3;
    case Compression::none:
        break;
    }
    return 0;
}

int min_level(Compression c) { return c == Compression::none ? 0 : 1; }

int max_level(Compression c) {
    switch (c) {
    case Compression::gzip:
        return 9;
    case Compression::bzip2:
        return 9;
    case Compression::zstd:
        return 19;
    case Compression::none:
        break;
    }
    return 0;
}

void compress_chunk(Compression c, int level, std::string_view in, std::string& out) {
    if (level == 0) level = default_level(c); // --compress-level not given
    level = std::clamp(level, min_level(c), max_level(c));
    switch (c) {
    case Compression::gzip:
        if (level <= ISAL_DEF_MAX_LEVEL)
            gzip_isal(level, in, out);
        else
            gzip_zlib(level, in, out);
        return;
    case Compression::bzip2:
        bzip2_stream(level, in, out);
        return;
    case Compression::zstd:
        zstd_frame(level, in, out);
        return;
    case Compression::none:
        out.append(in);
        return;
    }
}

} // namespace pgn_iccf::io
