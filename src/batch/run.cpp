#include "batch/run.hpp"

#include "batch/pipeline.hpp"
#include "batch/plan.hpp"
#include "io/compress.hpp"
#include "io/sink.hpp"

#include <oneapi/tbb/info.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <system_error>
#include <unistd.h>

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
    Summary sum;

    PlanRequest req;
    req.inputs = options.inputs;
    req.output = options.output;
    req.suffix = options.suffix;
    req.default_suffix = default_suffix(options.convert.to);
    req.rejects = options.rejects;
    req.check = options.check;
    Plan const plan = make_plan(req, real_file_system());

    Report::Options ro;
    ro.quiet = options.quiet;
    ro.progress = options.progress || ::isatty(::fileno(err)) != 0;
    ro.file_lines = plan.directory_mode || plan.jobs.size() > 1;
    ro.files = plan.jobs.size();
    ro.total = plan.total_size_known ? plan.total_size : 0;
    Report report(err, ro);

    auto finish = [&]() {
        sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        report.summary(sum);
        return sum;
    };

    // Nothing is written unless the whole plan holds.
    if (!plan.problems.empty()) {
        for (auto const& p : plan.problems) report.error(p);
        sum.io_failure = true;
        sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return sum;
    }
    if (options.compress_level != 0) {
        std::vector<io::Compression> used{plan.output_compression, plan.rejects_compression};
        for (auto const& job : plan.jobs) used.push_back(job.output_compression);
        for (io::Compression c : used) {
            if (c == io::Compression::none) continue;
            if (options.compress_level < io::min_level(c) ||
                options.compress_level > io::max_level(c)) {
                report.error("--compress-level " + std::to_string(options.compress_level) +
                             " is out of range for " + std::string(io::name(c)) + " output (" +
                             std::to_string(io::min_level(c)) + "-" +
                             std::to_string(io::max_level(c)) + ")");
                sum.io_failure = true;
                return sum;
            }
        }
    }
    for (auto const& u : plan.unreadable) {
        report.error(u);
        ++sum.unreadable;
        sum.io_failure = true;
    }
    for (auto const& n : plan.notes) report.note(n);
    // Before any folder is made: a refused run creates nothing.
    if (plan.rejects == "-" && options.stdout_closed) {
        report.error("--rejects -: standard output is closed");
        sum.io_failure = true;
        return finish();
    }

    for (auto const& dir : plan.directories_to_create) {
        std::error_code ec;
        std::filesystem::create_directory(dir, ec);
        if (ec && !std::filesystem::is_directory(dir)) {
            report.error("cannot create directory " + dir + ": " + ec.message());
            sum.io_failure = true;
            return finish();
        }
    }

    std::string error;
    std::unique_ptr<io::ByteSink> rejects;
    if (!plan.rejects.empty()) {
        rejects = plan.rejects == "-" ? io::open_stdout() : io::open_file_sink(plan.rejects, error);
        if (!rejects) {
            report.error(error);
            sum.io_failure = true;
            return finish();
        }
    }
    std::unique_ptr<io::ByteSink> single;
    if (!plan.directory_mode && plan.output == "-" && options.stdout_closed) {
        report.error("standard output is closed: give -o FILE, or --check");
        sum.io_failure = true;
        return finish();
    }
    if (!plan.directory_mode && !plan.output.empty()) {
        single = plan.output == "-" ? io::open_stdout() : io::open_file_sink(plan.output, error);
        if (!single) {
            report.error(error);
            sum.io_failure = true;
            return finish();
        }
    }

    PipelineOptions po;
    po.convert = options.convert;
    po.convert.check_only = options.check;
    po.threads = options.threads == 0 ? default_threads() : options.threads;
    po.batch_bytes = options.batch_bytes;
    po.read_chunk = options.chunk_size;
    po.compress_level = options.compress_level;
    po.max_game_size = options.max_game_size;
    po.max_window = options.max_window;
    po.warnings = options.warnings;
    Sinks sinks;
    sinks.single = single.get();
    sinks.single_compression = plan.output_compression;
    sinks.rejects = rejects.get();
    sinks.rejects_compression = plan.rejects_compression;
    SinkUse use;
    run_pipeline(plan, po, sinks, report, sum, use);

    if (single) {
        if (use.single_failed) {
            single->abandon();
        } else if (sum.incomplete > 0 && plan.output != "-") {
            single->abandon();
            report.error(plan.output + " not written: an input could not be read to the end");
        } else if (!commit_output(*single, plan.output_compression, options.compress_level,
                                  use.single_written, error)) {
            report.error(error);
            sum.io_failure = true;
        }
    }
    if (rejects && use.rejects_failed) {
        rejects->abandon();
    } else if (rejects && !commit_output(*rejects, plan.rejects_compression, options.compress_level,
                                         use.rejects_written, error)) {
        report.error(error);
        sum.io_failure = true;
    }
    return finish();
}

} // namespace pgn_iccf::batch
