// The ordered multi-core pipeline of a run (oneTBB parallel_pipeline):
//
//   read (serial, in order)  ->  convert (parallel)  ->  write (serial, in order)
//
// The reader opens each job's input in turn and cuts it into batches of whole games of a
// fixed size (batch_bytes, or batch_games games if that comes first; independent of the
// number of threads); each worker converts a
// batch with its own Converter and compresses the batch's output (one gzip member, bzip2
// stream or zstd frame per batch) when the output is compressed; the writer emits batches in
// input order: output, rejects, diagnostics and counts. So output, rejects, diagnostics and
// the summary are byte-identical for every number of threads, and memory is bounded by the
// batches in flight (a few per thread) and by a budget of game bytes in flight (a batch
// holding one large game makes the reader wait; run_pipeline). -j1 runs the same code on one
// thread.
#pragma once

#include "batch/outputs.hpp"
#include "batch/report.hpp"
#include "io/sink.hpp"
#include "pgn/converter.hpp"
#include "pgn/game_reader.hpp"
#include "plan/plan.hpp"

#include <cstddef>
#include <memory>

namespace pgn_iccf::batch {

struct PipelineOptions {
    pgn::ConvertOptions convert{};
    unsigned threads = 1;                           // worker threads (>= 1)
    std::size_t batch_bytes = std::size_t{1} << 20; // game bytes per batch
    std::size_t batch_games = 1024;                 // and at most this many games
    std::size_t read_chunk = std::size_t{4} << 20;  // GameReader buffer
    int compress_level = 0;                         // 0 = the default of each compression
    std::size_t max_game_size = pgn::GameReader::default_max_game_size; // larger: unread
    std::uint64_t max_window = io::default_max_window; // larger zstd windows: refused
    WarningDisplay warnings = WarningDisplay::folded;
    report::Format diagnostics = report::Format::text; // --diagnostics
    bool stdin_closed = false;           // standard input was closed at start: "-" cannot be read
    std::uint64_t warnings_per_kind = 5; // folded: shown per file and kind, then counted
};

// Runs every job of the plan; fills `summary` (counts, bytes, io_failure) and reports on
// `report`. Directory-mode outputs are committed (or, after a read or write error, removed)
// as their jobs end; `sinks` are left for the caller to commit.
void run_pipeline(Plan const& plan, PipelineOptions const& options, Sinks const& sinks,
                  Report& report, Summary& summary, SinkUse& use);

} // namespace pgn_iccf::batch
