// A whole run of the tool: plan (inputs -> jobs, every naming and identity check) -> open the
// outputs -> the ordered pipeline -> commit the outputs -> summary and exit status of CLI.md.
//
// Nothing is written before the plan is checked. Output files are written under a temporary
// name and renamed when complete; an input file is never overwritten.
#pragma once

#include "batch/report.hpp"
#include "io/source.hpp"
#include "pgn/converter.hpp"
#include "pgn/game_reader.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace pgn_iccf::batch {

struct RunOptions {
    pgn::ConvertOptions convert{};
    std::vector<std::string> inputs; // files, directories, or "-" for standard input
    std::string output = "-";        // file, "-" (stdout), or a directory (directory mode)
    std::string suffix;              // file-name suffix in directory mode ("" = by notation)
    std::string rejects;             // rejects file ("" = none)
    bool check = false;              // verify only
    bool quiet = false;              // no progress, no per-file lines, no summary
    bool progress = false;           // progress even when stderr is not a terminal
    WarningDisplay warnings = WarningDisplay::folded;
    report::Format diagnostics = report::Format::text; // --diagnostics: text lines or JSON
    unsigned threads = 0;   // worker threads; 0 = every core (default_threads())
    int compress_level = 0; // 0 = the default level of each compression
    std::size_t max_game_size = pgn::GameReader::default_max_game_size; // larger: one error
    std::uint64_t max_window = io::default_max_window; // zstd frames with a larger window: refused
    bool stdout_closed = false; // descriptor 1 was closed at start (now /dev/null)
    bool stdin_closed = false;  // descriptor 0 was closed at start: "-" is an unreadable input
    std::size_t batch_bytes = std::size_t{1} << 20; // game bytes per pipeline batch
    std::size_t chunk_size = std::size_t{4} << 20;  // reader buffer
};

// The number of cores this process may use.
unsigned default_threads();

// Runs the job; diagnostics, progress and the summary go to `err`.
Summary run(RunOptions const& options, std::FILE* err);

} // namespace pgn_iccf::batch
