// The ordered multi-core pipeline of a run (oneTBB parallel_pipeline):
//
//   cut (serial) -> split (parallel) -> number (serial) -> convert (parallel) -> write (serial)
//
// The reader opens each job's input in turn and cuts it into blocks of about block_bytes, at
// places where a game starts whatever came before (src/reader/cutter.hpp); of a regular file
// it reads only a few KiB around each cut, and the worker that splits the block reads its
// bytes. A worker splits a block into games, located and numbered from the block's start; the
// numbering stage adds the lines and games of the blocks before, in input order (a few
// additions per game); a worker converts the games with its own Converter and compresses the
// batch's output (one gzip member, bzip2 stream or zstd frame per batch) when the output is
// compressed; the writer emits batches in input order: output, rejects, diagnostics and
// counts. An input with no cut within block_cap bytes is split from there in the cutting stage
// by one GameReader, into batches of batch_bytes (or batch_games games). So output, rejects,
// diagnostics and the summary are byte-identical for every number of threads and every block
// size, and memory is bounded by the batches in flight (a few per thread) and by a budget of
// game bytes in flight (a batch holding one large game makes the reader wait; run_pipeline).
// -j1 runs the same code on one thread.
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
    unsigned threads = 1;                                           // worker threads (>= 1)
    std::size_t batch_bytes = pgn::GameReader::default_batch_bytes; // game bytes per batch
    std::size_t batch_games = pgn::GameReader::default_batch_games; // and at most this many games
    std::size_t read_chunk = pgn::GameReader::default_chunk_size;   // GameReader buffer
    // Blocks (reader/cutter.hpp): cut at the first cut after block_bytes (256 KiB: blocks of
    // 1 MiB took more memory, for no gain in time; see the commit); an input with no cut
    // within block_cap bytes is read on by one GameReader in the serial stage, in batches of
    // batch_bytes. cut_blocks false: every input is (tests compare the two ways).
    std::size_t block_bytes = std::size_t{256} << 10;
    std::size_t block_cap = std::size_t{4} << 20;
    bool cut_blocks = true;
    int compress_level = 0; // 0 = the default of each compression
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
