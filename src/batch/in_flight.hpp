// What travels through the pipeline of run_pipeline (pipeline.cpp): a Batch (a block or a
// batch of games with what the workers made of it), the pool that recycles them, and the
// stage clocks of PGN_ICCF_STAGE_TIMES. Internal to src/batch.
#pragma once

#include "batch/convert.hpp"
#include "io/sink.hpp"
#include "pgn/buffers.hpp"
#include "pgn/game_reader.hpp"
#include "reader/cutter.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace pgn_iccf::batch::detail {

// One batch of games on its way through the pipeline, with what the worker made of it.
// Batches are recycled (their strings keep their capacity), so the steady state does not
// allocate per batch; a batch that held a game of several MiB gives that memory back. What
// the worker makes of it (ConvertedBatch: output, rejects, diagnostics, counts) comes from
// convert_batch (src/batch/convert.hpp).
struct Batch : ConvertedBatch {
    std::size_t job = 0;
    bool pause = false;      // no games: the reader waits for earlier batches (see run_pipeline)
    std::size_t weight = 0;  // game bytes counted in flight
    bool first = false;      // the first batch of its job: the writer opens the job's output
    bool last = false;       // the last batch of its job: the writer closes it
    bool unreadable = false; // the input could not be opened (no games follow)
    std::string input_error; // open or read error ("NAME: reason"), on a first or last batch
    pgn::GameBatch games;
    std::uint64_t consumed = 0; // input bytes as stored, all jobs, at the end of this batch
    std::uint64_t bytes = 0;    // PGN bytes of this job read so far
    // A block cut by the reader (reader/cutter.hpp): a worker splits it into `games` first.
    reader::Block block;
    bool split = false;
    std::string read_error; // the block could not be read (its games are lost: see Writer)
    // A whole job in this batch, in directory mode (a small file): the worker writes its
    // output file up to the rename (write_whole_job); the writer renames it in input order,
    // or, after a stop, the batch's reset removes it.
    enum class Own : std::uint8_t { none, open_failed, write_failed, prepared, prepare_failed };
    Own own = Own::none;
    std::unique_ptr<io::ByteSink> own_sink;
    std::string own_error;        // open_failed, prepare_failed
    std::uint64_t late_bytes = 0; // bytes of a last block read to the input's end by the
                                  // worker, not in `consumed` (the reader did not see them)
    // Locations and numbers: the games of a region (a block, or the rest of a job read by one
    // GameReader) are located from line 1 and numbered from 1; the numbering stage adds the
    // lines and games of the regions before. region_lines/games: a region's own (split).
    bool new_region = false; // the first batch of a region
    bool region_end = false; // the last batch of a region that is not the job's last
    std::uint64_t region_lines = 0, region_games = 0;

    // Filled by the worker, with the fields of ConvertedBatch.
    std::string packed; // `out` compressed, when the output is compressed
    std::string rejects_packed;

    void reset() {
        first = last = unreadable = pause = false;
        split = new_region = region_end = false;
        region_lines = region_games = 0;
        read_error.clear();
        own = Own::none;
        own_sink.reset(); // a temporary the writer did not take is removed
        own_error.clear();
        late_bytes = 0;
        block.source.reset();
        block.to_end = false;
        weight = 0;
        input_error.clear();
        games.clear();
        lines.clear();
        // block.bytes keeps its bytes: the next block read from a file reads over them
        // (reader::read_block) instead of zero-filling a cleared string first.
        pgn::release_if_above(block.bytes, 2 * kept_capacity);
        for (std::string* s : {&out, &packed, &rejects, &rejects_packed, &messages, &games.bytes})
            s->clear(), pgn::release_if_above(*s, kept_capacity);
        pgn::release_if_above(games.games, kept_games * sizeof(syntax::RawGame));
        pgn::release_if_above(games.parts, kept_games * sizeof(pgn::GamePart));
        pgn::release_if_above(lines, kept_games * sizeof(report::MessageLine));
        clear_counts();
    }

    // What a recycled batch keeps: a few times a normal batch (PipelineOptions).
    static constexpr std::size_t kept_capacity = std::size_t{4} << 20;
    static constexpr std::size_t kept_games = 4096;
};

class BatchPool {
public:
    Batch* get() {
        std::lock_guard lock(mutex_);
        if (free_.empty()) {
            all_.push_back(std::make_unique<Batch>());
            return all_.back().get();
        }
        Batch* b = free_.back();
        free_.pop_back();
        return b;
    }
    void put(Batch* b) {
        b->reset();
        std::lock_guard lock(mutex_);
        free_.push_back(b);
    }

private:
    std::mutex mutex_;
    std::vector<std::unique_ptr<Batch>> all_;
    std::vector<Batch*> free_;
};

// PGN_ICCF_STAGE_TIMES (tests/bench/scaling.sh): the thread CPU time spent in each filter,
// added up and printed at the end, for the model of how the run scales with threads.
class StageTimes {
public:
    enum Stage : std::uint8_t { read, convert, number, write, stages };
    class Clock {
    public:
        explicit Clock(std::atomic<std::uint64_t>* sum) : sum_(sum), start_(sum ? now() : 0) {}
        Clock(Clock const&) = delete;
        Clock& operator=(Clock const&) = delete;
        ~Clock() {
            if (sum_) *sum_ += now() - start_;
        }

    private:
        static std::uint64_t now() {
            timespec t{};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            return std::uint64_t(t.tv_sec) * 1000000000u + std::uint64_t(t.tv_nsec);
        }
        std::atomic<std::uint64_t>* sum_;
        std::uint64_t start_;
    };
    Clock clock(Stage s) { return Clock(on_ ? &ns_[s] : nullptr); }
    void print() const {
        if (!on_) return;
        auto const sec = [&](Stage s) { return double(ns_[s].load()) / 1e9; };
        std::fprintf(stderr,
                     "pgn-iccf: stage times: read %.3f s, convert %.3f s, write %.3f s, "
                     "number %.3f s\n",
                     sec(read), sec(convert), sec(write), sec(number));
    }

private:
    bool on_ = std::getenv("PGN_ICCF_STAGE_TIMES") != nullptr;
    std::array<std::atomic<std::uint64_t>, stages> ns_{};
};

} // namespace pgn_iccf::batch::detail
