// batch::run: plan -> outputs -> pipeline -> summary.
#include "batch/run.hpp"

#include "batch/outputs.hpp"
#include "plan/wording.hpp"

#include <oneapi/tbb/info.h>

#include <chrono>
#include <string>

namespace pgn_iccf::batch {

namespace {

std::string default_suffix(notation::Notation n) {
    switch (n) {
    case notation::Notation::numeric:
        return ".iccf.pgn";
    case notation::Notation::san:
        return ".san.pgn";
    case notation::Notation::lan:
        return ".lan.pgn";
    }
    return ".pgn";
}

} // namespace

unsigned default_threads() {
    int const n = tbb::info::default_concurrency();
    return n > 0 ? static_cast<unsigned>(n) : 1U;
}

Summary run(RunOptions const& options, std::FILE* err) {
    auto const t0 = std::chrono::steady_clock::now();
    PlanRequest request = options.plan;
    if (request.default_suffix.empty())
        request.default_suffix = default_suffix(options.pipeline.convert.to);
    Plan const plan = make_plan(request, io::real_file_system());
    Report report(err, {.quiet = options.quiet,
                        .progress = options.progress,
                        .terminal = options.terminal,
                        .file_lines = plan.directory_mode || plan.jobs.size() > 1,
                        .files = plan.jobs.size(),
                        .total = plan.total_size_known ? plan.total_size : 0,
                        .format = options.pipeline.diagnostics});
    Summary sum;
    auto finish = [&](bool summary) {
        sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (summary) report.summary(sum);
        return sum;
    };
    // Nothing is written unless the whole plan holds.
    sum.io_failure = !plan.problems.empty() || !plan.unreadable.empty();
    for (auto const& n : options.notes) report.note(n);
    for (auto const& p : plan.problems) report.error(word(p), file_of(p));
    if (!plan.problems.empty()) return finish(false);
    for (auto const& u : plan.unreadable) report.error(word(u), file_of(u));
    sum.unreadable = plan.unreadable.size();
    // Every input named counts as a file, read or not, and whether or not the run reaches it
    // (a run stopped by an output that cannot be written counted only those it began).
    sum.files = plan.unreadable.size() + plan.jobs.size();
    for (auto const& n : plan.notes) report.note(word(n), file_of(n));

    Outputs outputs(plan, request.compress_level);
    if (plan.jobs.empty() && !plan.unreadable.empty()) {
        outputs.none_readable(report);
        return finish(true);
    }
    if (!outputs.open(report)) {
        sum.io_failure = true;
        return finish(true);
    }
    PipelineOptions pipeline = options.pipeline;
    pipeline.convert.check_only = request.check;
    pipeline.compress_level = request.compress_level;
    if (pipeline.threads == 0) pipeline.threads = default_threads();
    SinkUse use;
    run_pipeline(plan, pipeline, outputs.sinks(), report, sum, use);
    outputs.finish(use, sum, report);
    return finish(true);
}

} // namespace pgn_iccf::batch
