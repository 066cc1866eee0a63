// A whole run of the tool: inputs -> games -> converter -> outputs, with the rejects file,
// diagnostics on standard error, the closing summary and the exit status of CLI.md.
//
// Output files are written under a temporary name and renamed when complete; an input file
// is never overwritten. Games are written in input order.
#pragma once

#include "pgn/converter.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace pgn_iccf::batch {

struct RunOptions {
    pgn::ConvertOptions convert{};
    std::vector<std::string> inputs; // files, or "-" for standard input
    std::string output = "-";        // file, "-" (stdout), or a directory for several inputs
    std::string suffix;              // file-name suffix in directory mode ("" = by notation)
    std::string rejects;             // rejects file ("" = none)
    bool check = false;              // verify only
    bool quiet = false;              // no progress, no summary
    bool progress = false;           // progress even when stderr is not a terminal
    std::size_t chunk_size = std::size_t{4} << 20;
};

struct Summary {
    std::uint64_t files = 0;
    std::uint64_t games = 0;
    std::uint64_t converted = 0;   // written in full
    std::uint64_t kept_broken = 0; // written up to a bad move (--keep-broken)
    std::uint64_t rejected = 0;    // not written (in --rejects if given)
    std::uint64_t moves = 0;
    std::uint64_t errors = 0;
    std::uint64_t warnings = 0;
    std::uint64_t bytes = 0;
    double seconds = 0;
    bool io_failure = false; // an input could not be read or an output not written
};

// Exit status of CLI.md: 0 all converted, 1 some games not converted, 2 I/O or usage.
int exit_status(Summary const& s);

// Runs the job; diagnostics and the summary go to `err`.
Summary run(RunOptions const& options, std::FILE* err);

// The summary as printed at the end of a run (one line, no line end).
std::string format_summary(Summary const& s);

} // namespace pgn_iccf::batch
