// Decoders: gzip (ISA-L), bzip2 (libbz2) and zstd (libzstd) as ByteSources.
//
// Each decoder reads the compressed input in blocks of 128 KiB and decodes straight into the
// caller's buffer. A file is a sequence of members (gzip members, bzip2 streams, zstd frames,
// including skippable ones), read to the end as gzip -d, bzip2 -d and zstd -d do. After the
// last complete member:
//   - the end of input is the normal end;
//   - zero bytes up to the end are ignored (tar and block-device padding; gzip -d is silent
//     about them too);
//   - anything else is an error, "trailing garbage after the gzip data". gzip -d and bzip2 -d
//     only warn there (and zstd -d fails), but bytes that are not a member may be a damaged
//     member: the games in it would be lost without a word. The text decoded before is
//     delivered first, so the reader sees every complete game and then the error.
// The input ending inside a member is "... data is truncated"; bad data, a wrong checksum or
// a wrong length is "... data is corrupt (detail)". Errors never name the file: the caller
// knows it.
//
// gzip implementation, chosen by tests/bench/codec_bench.cpp (data/corpus PGN as zlib's
// gzip -6 writes it, one thread): ISA-L's isal_inflate decodes several times as fast as zlib's
// inflate (README, Performance), so gzip input is decoded with ISA-L; zlib is not used here.
// Decoding runs on one thread ahead of the conversion workers: gzip and zstd input decode many
// times faster than a core converts and keep up with many cores; bzip2 input decodes slower
// than one core converts and limits the whole run.
#include "io/source.hpp"

#include <bzlib.h>
#include <isa-l/igzip_lib.h>
#define ZSTD_STATIC_LINKING_ONLY // for ZSTD_getFrameHeader, which libzstd.so.1 exports
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pgn_iccf::io {

namespace {

constexpr std::size_t input_block = std::size_t{128} << 10;

// What the format-specific part reports after one decoding step.
struct Step {
    std::size_t consumed = 0; // input bytes taken from the block
    std::size_t produced = 0; // bytes written to the caller's buffer
    bool member_end = false;  // a member/stream/frame is complete and fully flushed
    bool garbage = false;     // what follows a complete member is not a member
    std::string error;        // non-empty: the data is bad (detail for the message)
    std::string refusal;      // non-empty: the data cannot be decoded here (whole message)
};

// The part shared by the three decoders: the input block, the walk over members, the
// trailing-bytes policy and the error state. A subclass decodes one step of a member and
// knows how a member starts.
class Decoder : public ByteSource {
public:
    Decoder(std::string_view format, std::unique_ptr<ByteSource> inner)
        : format_(format), inner_(std::move(inner)), block_(input_block) {}

    std::ptrdiff_t read(char* dst, std::size_t n) final {
        if (!error_.empty()) return -1;
        if (n == 0 || finished_) return 0;
        // Output per call stays within what the libraries' 32-bit counters take.
        n = std::min<std::size_t>(n, std::numeric_limits<std::uint32_t>::max() / 2);
        for (;;) {
            if (between_members_) {
                if (pos_ == end_ && !fill()) return -1;
                if (pos_ == end_) {
                    finished_ = true;
                    return 0;
                }
                if (block_[pos_] == 0) return skip_zero_padding();
                if (!is_member_start(block_[pos_]))
                    return fail("trailing garbage after the " + format_ + " data");
                if (!start_member()) return -1;
                between_members_ = false;
            }
            if (pos_ == end_ && !eof_ && !fill()) return -1;
            bool const had_input = pos_ < end_;
            Step const s = step(block_.data() + pos_, end_ - pos_, dst, n);
            pos_ += s.consumed;
            // What a failing step decoded is handed out first, the failure on the next read:
            // a gzip member whose CRC fails at its end has decoded all of its bytes, and the
            // games in them are read and reported like those of the earlier steps.
            if (s.garbage)
                fail("trailing garbage after the " + format_ + " data");
            else if (!s.refusal.empty())
                fail(s.refusal);
            else if (!s.error.empty())
                fail(format_ + " data is corrupt (" + s.error + ")");
            if (!error_.empty())
                return s.produced > 0 ? static_cast<std::ptrdiff_t>(s.produced) : -1;
            if (s.member_end) between_members_ = true;
            if (s.produced > 0) return static_cast<std::ptrdiff_t>(s.produced);
            if (s.member_end) continue;
            if (!had_input && eof_) return fail(format_ + " data is truncated");
            // No output and no input consumed although both were available: the library
            // cannot go on (never seen; guards against looping forever).
            if (had_input && s.consumed == 0)
                return fail(format_ + " data is corrupt (the decoder made no progress)");
        }
    }

    std::string error() const final { return error_; }
    std::uint64_t consumed() const final { return inner_->consumed(); }

protected:
    // One decoding step of the current member over `in` (possibly empty at the end of the
    // input) into `out`.
    virtual Step step(char const* in, std::size_t in_size, char* out, std::size_t out_size) = 0;
    // Whether `first` can begin another member after a complete one.
    virtual bool is_member_start(char first) const = 0;
    // Prepares for the next member; false with fail() called if that is impossible.
    virtual bool start_member() = 0;

    std::ptrdiff_t fail(std::string message) {
        error_ = std::move(message);
        return -1;
    }

private:
    // Reads the next input block once the current one is used up.
    bool fill() {
        if (eof_) return true;
        auto const r = inner_->read(block_.data(), block_.size());
        if (r < 0) {
            auto const e = inner_->error();
            error_ = e.empty() ? "read error" : e;
            return false;
        }
        pos_ = 0;
        end_ = static_cast<std::size_t>(r);
        if (r == 0) eof_ = true;
        return true;
    }

    // After a complete member, a zero byte: the rest must be zeros too.
    std::ptrdiff_t skip_zero_padding() {
        for (;;) {
            auto const* const first = block_.data() + pos_;
            auto const* const last = block_.data() + end_;
            if (std::find_if(first, last, [](char c) { return c != 0; }) != last)
                return fail("trailing garbage after the " + format_ + " data");
            pos_ = end_;
            if (!fill()) return -1;
            if (pos_ == end_) {
                finished_ = true;
                return 0;
            }
        }
    }

    std::string format_;
    std::unique_ptr<ByteSource> inner_;
    std::vector<char> block_;
    std::size_t pos_ = 0;
    std::size_t end_ = 0;
    bool eof_ = false;
    bool between_members_ = false; // the first member is started by the subclass constructor
    bool finished_ = false;
    std::string error_;
};

// --- gzip (ISA-L) -----------------------------------------------------------------------------

// isal_inflate with crc_flag ISAL_GZIP parses the header, inflates and checks the CRC-32 and
// length of the trailer. At ISAL_BLOCK_FINISH it has given back the input bytes it buffered
// past the trailer (next_in points just after it), so the next member starts there after
// isal_inflate_reset.
class GzipDecoder final : public Decoder {
public:
    explicit GzipDecoder(std::unique_ptr<ByteSource> inner)
        : Decoder("gzip", std::move(inner)), state_(std::make_unique<inflate_state>()) {
        isal_inflate_init(state_.get());
        state_->crc_flag = ISAL_GZIP;
    }

private:
    Step step(char const* in, std::size_t in_size, char* out, std::size_t out_size) override {
        auto& s = *state_;
        auto const avail_in =
            static_cast<std::uint32_t>(std::min<std::size_t>(in_size, input_block));
        s.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(in));
        s.avail_in = avail_in;
        s.next_out = reinterpret_cast<std::uint8_t*>(out);
        s.avail_out = static_cast<std::uint32_t>(out_size);
        int const r = isal_inflate(&s);
        Step step;
        if (s.avail_in > avail_in) {
            // Bytes buffered in an earlier call given back: never seen (ISA-L gives back only
            // what it buffered past a trailer in this call); refuse rather than lose them.
            step.error = "ISA-L gave back input it was not given";
            return step;
        }
        step.consumed = avail_in - s.avail_in;
        step.produced = out_size - s.avail_out;
        if (r != ISAL_DECOMP_OK) {
            step.error = describe(r);
            // A checksum is checked once the member's bytes are all out: they stand. On bad
            // deflate data, what the failing call wrote depends on where its output ended
            // (fuzz_decoder): nothing of it is handed out.
            if (r != ISAL_INCORRECT_CHECKSUM) step.produced = 0;
            return step;
        }
        step.member_end = s.block_state == ISAL_BLOCK_FINISH;
        return step;
    }

    bool is_member_start(char first) const override { return first == '\x1F'; }

    bool start_member() override {
        isal_inflate_reset(state_.get());
        state_->crc_flag = ISAL_GZIP;
        return true;
    }

    static std::string describe(int r) {
        switch (r) {
        case ISAL_INVALID_BLOCK:
            return "invalid block type or block header";
        case ISAL_INVALID_SYMBOL:
            return "invalid code";
        case ISAL_INVALID_LOOKBACK:
            return "invalid distance too far back";
        case ISAL_INVALID_WRAPPER:
            return "invalid gzip header";
        case ISAL_UNSUPPORTED_METHOD:
            return "unknown compression method";
        case ISAL_INCORRECT_CHECKSUM:
            return "CRC or length check failed";
        case ISAL_NEED_DICT:
            return "needs a preset dictionary";
        default:
            return "ISA-L error " + std::to_string(r);
        }
    }

    std::unique_ptr<inflate_state> state_; // ~100 KB: on the heap
};

// --- bzip2 ------------------------------------------------------------------------------------

// One bz_stream per bzip2 stream: BZ2_bzDecompress returns BZ_STREAM_END once a stream is
// complete and flushed; the next stream needs a fresh BZ2_bzDecompressInit.
class Bzip2Decoder final : public Decoder {
public:
    explicit Bzip2Decoder(std::unique_ptr<ByteSource> inner) : Decoder("bzip2", std::move(inner)) {
        start_member();
    }
    ~Bzip2Decoder() override {
        if (live_) BZ2_bzDecompressEnd(&stream_);
    }
    Bzip2Decoder(Bzip2Decoder const&) = delete;
    Bzip2Decoder& operator=(Bzip2Decoder const&) = delete;

private:
    Step step(char const* in, std::size_t in_size, char* out, std::size_t out_size) override {
        Step step;
        if (!live_) {
            step.refusal = "not enough memory to decode bzip2 data";
            return step;
        }
        auto const avail_in = static_cast<unsigned>(std::min<std::size_t>(in_size, input_block));
        stream_.next_in = const_cast<char*>(in);
        stream_.avail_in = avail_in;
        stream_.next_out = out;
        stream_.avail_out = static_cast<unsigned>(out_size);
        int const r = BZ2_bzDecompress(&stream_);
        step.consumed = avail_in - stream_.avail_in;
        step.produced = out_size - stream_.avail_out;
        switch (r) {
        case BZ_OK:
            break;
        case BZ_STREAM_END:
            BZ2_bzDecompressEnd(&stream_);
            live_ = false;
            step.member_end = true;
            break;
        case BZ_DATA_ERROR_MAGIC:
            step.error = "bad stream header";
            break;
        case BZ_DATA_ERROR:
            step.error = "CRC or block data error";
            break;
        case BZ_MEM_ERROR:
            step.refusal = "not enough memory to decode bzip2 data";
            break;
        default:
            step.error = "libbz2 error " + std::to_string(r);
            break;
        }
        return step;
    }

    bool is_member_start(char first) const override { return first == 'B'; }

    bool start_member() override {
        stream_ = bz_stream{};
        live_ = BZ2_bzDecompressInit(&stream_, 0, 0) == BZ_OK;
        return true; // an init failure is reported by the next step
    }

    bz_stream stream_{};
    bool live_ = false;
};

// --- zstd -------------------------------------------------------------------------------------

// ZSTD_decompressStream walks frames by itself (skippable frames included) and returns 0 when
// a frame is complete and flushed; the decoder stops there so that the member walk above can
// look at what follows.
//
// A frame needs as much memory as the window its header declares (the decoder keeps that
// much of the decoded text to copy matches from), and libzstd's own limit is 128 MiB. Here
// the limit is max_window (ZSTD_d_windowLogMax; default 8 MiB, the largest window of zstd -1
// to -19): a larger window is refused with its size and the ways out instead of being
// allocated. Each frame header is gathered whole first (see step), also to name the window.
class ZstdDecoder final : public Decoder {
public:
    ZstdDecoder(std::unique_ptr<ByteSource> inner, std::uint64_t max_window)
        : Decoder("zstd", std::move(inner)), dctx_(ZSTD_createDCtx()), max_window_(max_window) {
        int log = 10; // ZSTD_WINDOWLOG_ABSOLUTEMIN to ZSTD_WINDOWLOG_MAX_64 (31)
        while (log < 31 && (std::uint64_t{1} << log) < max_window) ++log;
        max_window_ = std::uint64_t{1} << log;
        if (dctx_ && ZSTD_isError(ZSTD_DCtx_setParameter(dctx_.get(), ZSTD_d_windowLogMax, log)))
            dctx_.reset();
    }

private:
    Step step(char const* in, std::size_t in_size, char* out, std::size_t out_size) override {
        Step step;
        if (!dctx_) {
            step.refusal = "not enough memory to decode zstd data";
            return step;
        }
        // Each frame's header is gathered here, judged whole by ZSTD_getFrameHeader, and handed
        // to libzstd in one piece. Given the bytes as they came, libzstd took the path of the
        // formats before zstd 1.0 whenever a header it could not parse met an input starting
        // with one of their magic numbers (0xFD2FB522 to 0xFD2FB527), at the frame's start or
        // inside its header: the same bytes were read, or called corrupt, by how the reads fell,
        // and an old format's window is not bounded by --max-window (the decoder fuzz target
        // found both). Such frames are unknown now, as for the zstd program ("unknown header").
        std::size_t taken = 0;
        while (!header_whole_) {
            std::size_t const take = std::min(header_need_ - header_.size(), in_size - taken);
            header_.append(in + taken, take);
            taken += take;
            ZSTD_frameHeader frame{};
            std::size_t const r = ZSTD_getFrameHeader(&frame, header_.data(), header_.size());
            if (ZSTD_isError(r)) {
                step.consumed = taken;
                describe_error(r, step);
                return step;
            }
            if (r == 0) {
                header_whole_ = true;
            } else {
                header_need_ = r; // the whole header's size, or 5 bytes to learn it
                if (taken == in_size) {
                    step.consumed = taken;
                    return step;
                }
            }
        }
        // The window is judged here, before the decoder sees the frame: libzstd checks it only
        // on its streaming path, and decoded a frame whole in one input in one pass, unchecked
        // (the same bytes were refused or not by how the reads fell). A header handed over
        // alone, as above, keeps libzstd off that path; the bound does not depend on it.
        if (declared_window(header_) > max_window_) {
            step.refusal = window_refusal();
            return step;
        }
        // The header's bytes not yet taken by libzstd go first, then this step's input.
        ZSTD_outBuffer output{out, out_size, 0};
        std::size_t r = 1; // no error, and the frame goes on
        if (header_fed_ < header_.size()) {
            ZSTD_inBuffer held{header_.data() + header_fed_, header_.size() - header_fed_, 0};
            r = ZSTD_decompressStream(dctx_.get(), &output, &held);
            header_fed_ += held.pos;
        }
        if (!ZSTD_isError(r) && r != 0 && header_fed_ == header_.size()) {
            ZSTD_inBuffer input{in + taken, in_size - taken, 0};
            r = ZSTD_decompressStream(dctx_.get(), &output, &input);
            taken += input.pos;
        }
        step.consumed = taken;
        step.produced = output.pos;
        if (ZSTD_isError(r)) {
            step.produced = 0;
            describe_error(r, step);
            return step;
        }
        if (r == 0) {
            ++frames_;
            header_.clear();
            header_need_ = header_prefix;
            header_whole_ = false;
            header_fed_ = 0;
            step.member_end = true;
        }
        return step;
    }

    // A libzstd error as the step's garbage, refusal or error.
    void describe_error(std::size_t r, Step& step) const {
        if (ZSTD_getErrorCode(r) == ZSTD_error_prefix_unknown && frames_ > 0)
            step.garbage = true;
        else if (ZSTD_getErrorCode(r) == ZSTD_error_frameParameter_windowTooLarge)
            step.refusal = window_refusal();
        else if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation)
            step.refusal = memory_refusal();
        else if (ZSTD_getErrorCode(r) == ZSTD_error_dictionary_wrong)
            step.refusal = dictionary_refusal();
        else
            step.error = ZSTD_getErrorName(r);
    }

    std::string window_refusal() const {
        auto const declared = declared_window(header_);
        std::string const window = declared > max_window_
                                       ? "a " + size_text(declared) + " window"
                                       : "a window larger than " + size_text(max_window_);
        return "zstd data needs " + window +
               " to be decoded (written by zstd --long or --ultra), more than the " +
               size_text(max_window_) +
               " of --max-window: raise it (memory grows by the window), or decode with zstd: "
               "zstd -dc --long=31 FILE | pgn-iccf -";
    }

    // The memory a frame needs is mostly its window (allowed by --max-window, but more than
    // the system gives): not "corrupt" data.
    std::string memory_refusal() const {
        auto const declared = declared_window(header_);
        return "not enough memory to decode zstd data" +
               (declared > 0 ? " with a " + size_text(declared) + " window" : std::string()) +
               ": decode it with zstd (zstd -dc --long=31 FILE | pgn-iccf -) or free memory";
    }

    // A frame compressed with a dictionary (zstd -D) decodes only with it: not "corrupt
    // (Dictionary mismatch)".
    std::string dictionary_refusal() const {
        auto const id = declared_dictionary(header_);
        return "zstd data compressed with a dictionary (zstd -D" +
               (id > 0 ? ", dictionary id " + std::to_string(id) : std::string()) +
               "), which pgn-iccf does not read: decode it with zstd, zstd -dc -D DICT FILE | "
               "pgn-iccf -";
    }

    // The dictionary id a zstd frame header declares (RFC 8878 3.1.1.1.3), 0 if none.
    static std::uint64_t declared_dictionary(std::string_view h) {
        if (h.size() < 5 || h.substr(0, 4) != std::string_view("\x28\xB5\x2F\xFD", 4)) return 0;
        auto const descriptor = static_cast<std::uint8_t>(h[4]);
        static constexpr std::array<std::size_t, 4> did_size{0, 1, 2, 4};
        std::size_t const at = (descriptor & 0x20) != 0 ? 5 : 6;
        std::size_t const n = did_size[descriptor & 3];
        if (h.size() < at + n) return 0;
        std::uint64_t id = 0;
        for (std::size_t i = n; i-- > 0;) id = id << 8 | static_cast<std::uint8_t>(h[at + i]);
        return id;
    }

    // The window a zstd frame header declares (RFC 8878 3.1.1.1), 0 if `h` does not hold it.
    static std::uint64_t declared_window(std::string_view h) {
        if (h.size() < 6 || h.substr(0, 4) != std::string_view("\x28\xB5\x2F\xFD", 4)) return 0;
        auto const byte = [&h](std::size_t i) { return static_cast<std::uint8_t>(h[i]); };
        unsigned const descriptor = byte(4);
        if ((descriptor & 0x20) == 0) { // a window descriptor byte
            unsigned const b = byte(5);
            std::uint64_t const base = std::uint64_t{1} << (10 + (b >> 3));
            return base + base / 8 * (b & 7);
        }
        // Single segment: the window is the content size, after the dictionary id.
        static constexpr std::array<std::size_t, 4> did_size{0, 1, 2, 4};
        static constexpr std::array<std::size_t, 4> fcs_size{1, 2, 4, 8};
        std::size_t const at = 5 + did_size[descriptor & 3];
        std::size_t const n = fcs_size[descriptor >> 6];
        if (h.size() < at + n) return 0;
        std::uint64_t size = 0;
        for (std::size_t i = n; i-- > 0;) size = size << 8 | byte(at + i);
        return n == 2 ? size + 256 : size;
    }

    // "8 MiB", "2 GiB", "160 MiB", "1.5 KiB"...: the window sizes a frame header can declare.
    static std::string size_text(std::uint64_t bytes) {
        static constexpr std::array<char const*, 4> units{"bytes", "KiB", "MiB", "GiB"};
        std::size_t u = 0;
        std::uint64_t scale = 1;
        while (u + 1 < units.size() && bytes >= (scale << 10)) {
            scale <<= 10;
            ++u;
        }
        std::uint64_t const whole = bytes / scale;
        std::uint64_t const tenths = (bytes % scale) * 10 / scale;
        return std::to_string(whole) + (tenths ? "." + std::to_string(tenths) : "") + " " +
               units[u];
    }

    // Any byte but zero may start a frame: ZSTD_decompressStream judges the magic.
    bool is_member_start(char) const override { return true; }
    bool start_member() override { return true; }

    struct FreeDctx {
        void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
    };
    std::unique_ptr<ZSTD_DCtx, FreeDctx> dctx_;
    std::uint64_t max_window_;
    std::uint64_t frames_ = 0;
    // The current frame's header: the bytes gathered, how many it needs (5 until its size is
    // known), whether it is whole, and how many of it libzstd has taken.
    static constexpr std::size_t header_prefix = 5; // ZSTD_FRAMEHEADERSIZE_PREFIX(ZSTD_f_zstd1)
    std::string header_;
    std::size_t header_need_ = header_prefix;
    bool header_whole_ = false;
    std::size_t header_fed_ = 0;
};

} // namespace

std::unique_ptr<ByteSource> decode(Compression c, std::unique_ptr<ByteSource> inner,
                                   std::uint64_t max_window) {
    switch (c) {
    case Compression::gzip:
        return std::make_unique<GzipDecoder>(std::move(inner));
    case Compression::bzip2:
        return std::make_unique<Bzip2Decoder>(std::move(inner));
    case Compression::zstd:
        return std::make_unique<ZstdDecoder>(std::move(inner), max_window);
    case Compression::none:
        break;
    }
    return inner;
}

} // namespace pgn_iccf::io
