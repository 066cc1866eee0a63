#include "batch/run.hpp"

#include "batch/pipeline.hpp"
#include "batch/plan.hpp"
#include "io/cleanup.hpp"
#include "io/compress.hpp"
#include "io/sink.hpp"

#include <oneapi/tbb/info.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <vector>

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

// The folders this run created, parents first. When the run ends (by any path) those left
// empty are removed, children first, so that a run stopped by a full disk, a name too long or
// inputs that could not be read leaves no empty mirror tree; a signal removes them too
// (io::register_directory). rmdir(2) removes only an empty folder: one holding anything, a
// user's file put there meanwhile included, stays.
class CreatedFolders {
public:
    CreatedFolders() = default;
    CreatedFolders(CreatedFolders const&) = delete;
    CreatedFolders& operator=(CreatedFolders const&) = delete;
    ~CreatedFolders() {
        for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it) ::rmdir(it->c_str());
        if (!dirs_.empty()) io::unregister_directories();
    }
    void add(std::string const& dir) {
        dirs_.push_back(dir);
        io::register_directory(dir);
    }

private:
    std::vector<std::string> dirs_;
};

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
    ro.format = options.diagnostics;
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

    // No input can be read at all (every one missing or a dangling link): no folder is made
    // and no output opened (opening -o FIFO would wait for a reader); the file outputs say
    // they are not written, as after a run whose inputs turned out unreadable (below).
    if (plan.jobs.empty() && !plan.unreadable.empty()) {
        for (std::string const& name :
             {plan.directory_mode ? std::string() : plan.output, plan.rejects}) {
            if (name.empty() || name == "-") continue;
            std::error_code ec;
            report.error(
                name + " not written: no input could be read" +
                (std::filesystem::exists(name, ec) ? " (the file is left as it was)" : ""));
        }
        return finish();
    }

    CreatedFolders created; // destroyed after the sinks below: their temporaries go first
    for (auto const& dir : plan.directories_to_create) {
        std::error_code ec;
        if (std::filesystem::create_directory(dir, ec)) created.add(dir);
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
    po.diagnostics = options.diagnostics;
    po.stdin_closed = options.stdin_closed;
    Sinks sinks;
    sinks.single = single.get();
    sinks.single_compression = plan.output_compression;
    sinks.rejects = rejects.get();
    sinks.rejects_compression = plan.rejects_compression;
    SinkUse use;
    run_pipeline(plan, po, sinks, report, sum, use);

    // A file output is renamed into place only when what fed it was read, and read to the
    // end: the single output (one input, or standard input) needs its input; the rejects file,
    // fed by every input, needs every input that was opened read to the end (a corrupt .gz
    // decodes garbage before its check fails) and at least one input read. Neither is kept
    // from a run stopped by an output that could not be written (the rest of the input was
    // not read), and the two stand or fall together: each is completed up to its rename
    // (prepare: a full disk shows at the latest there) before either is renamed. A file not
    // written leaves the one already there as it was, and the error names it. Standard
    // output cannot be withheld.
    bool const none_read = sum.files == 0 && sum.unreadable > 0;
    auto withhold = [&](io::ByteSink& sink, std::string const& name, char const* why) {
        sink.abandon();
        std::error_code ec;
        bool const there = std::filesystem::exists(name, ec);
        report.error(name + " not written: " + why +
                     (there ? " (the file is left as it was)" : ""));
        sum.io_failure = true;
    };
    char const* const unread =
        sum.incomplete > 0 ? "an input could not be read to the end" : "no input could be read";
    // Whether `sink` (named `name`, "-" for standard output) is completed; reports why not.
    auto prepare = [&](io::ByteSink& sink, std::string const& name, bool failed, io::Compression c,
                       bool written) {
        if (failed) {
            sink.abandon(); // the failed write was reported
        } else if (name != "-" && use.stopped) {
            withhold(sink, name, "the run stopped before the end of its input");
        } else if (name != "-" && (sum.incomplete > 0 || none_read)) {
            withhold(sink, name, unread);
        } else if (!prepare_output(sink, c, options.compress_level, written, error)) {
            report.error(error);
            sum.io_failure = true;
        } else {
            return true;
        }
        return false;
    };
    bool single_ok = single && prepare(*single, plan.output, use.single_failed,
                                       plan.output_compression, use.single_written);
    bool rejects_ok = rejects && prepare(*rejects, plan.rejects, use.rejects_failed,
                                         plan.rejects_compression, use.rejects_written);
    if (single && !single_ok && rejects_ok && plan.rejects != "-") {
        withhold(*rejects, plan.rejects, "the output was not written");
        rejects_ok = false;
    }
    if (rejects && !rejects_ok && single_ok && plan.output != "-") {
        withhold(*single, plan.output, "the rejects file was not written");
        single_ok = false;
    }
    for (auto [sink, ok] :
         {std::pair{single.get(), single_ok}, std::pair{rejects.get(), rejects_ok}})
        if (ok && !sink->commit(error)) {
            report.error(error);
            sum.io_failure = true;
        }
    return finish();
}

} // namespace pgn_iccf::batch
