// A whole run of the tool: plan (inputs -> jobs, every naming and identity check) -> open the
// outputs -> the ordered pipeline -> commit the outputs -> summary and exit status of CLI.md.
//
// Nothing is written before the plan is checked. Output files are written under a temporary
// name and renamed when complete; an input file is never overwritten.
#pragma once

#include "batch/pipeline.hpp"
#include "batch/report.hpp"
#include "plan/plan.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace pgn_iccf::batch {

struct RunOptions {
    // Inputs ("-" standard input), -o ("-", a file or a directory), --suffix ("" = by the
    // notation written), --rejects, --check, --compress-level, a closed standard output.
    PlanRequest plan{};
    // The conversion, threads (0 = every core: default_threads()), batch sizes, limits,
    // warnings shown, a closed standard input. compress_level is taken from `plan`, and
    // convert.check_only from plan.check.
    PipelineOptions pipeline{.threads = 0};
    bool quiet = false;             // no progress, no per-file lines, no summary
    bool progress = false;          // the progress line (the CLI: --progress, or stderr a terminal)
    bool terminal = false;          // `err` is a terminal: the progress line is redrawn in place
    std::vector<std::string> notes; // the caller's notes (the CLI's -j cap), said first
};

// The number of cores this process may use.
unsigned default_threads();

// Runs the job; diagnostics, progress and the summary go to `err`.
Summary run(RunOptions const& options, std::FILE* err);

} // namespace pgn_iccf::batch
