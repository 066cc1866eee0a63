// The outputs of a run: opening, completing and withholding the single output and the
// rejects file; the empty-member rule of compressed outputs (commit_output).
#include "batch/outputs.hpp"

#include "io/compress.hpp"

#include <filesystem>
#include <system_error>
#include <tuple>
#include <utility>

namespace pgn_iccf::batch {

namespace {

// " (the file is left as it was)" when `name` exists: what an error about a file not written
// adds.
std::string left_as_it_was(std::string const& name) {
    std::error_code ec;
    return std::filesystem::exists(name, ec) ? " (the file is left as it was)" : "";
}

} // namespace

bool prepare_output(io::ByteSink& sink, io::Compression c, int level, bool written,
                    std::string& error) {
    if (!written && c != io::Compression::none) {
        std::string empty;
        io::compress_chunk(c, level, {}, empty);
        sink.write(empty);
    }
    return sink.prepare(error);
}

bool commit_output(io::ByteSink& sink, io::Compression c, int level, bool written,
                   std::string& error) {
    return prepare_output(sink, c, level, written, error) && sink.commit(error);
}

void Outputs::none_readable(Report& report) const {
    for (std::string const& name :
         {plan_.directory_mode ? std::string() : plan_.output, plan_.rejects}) {
        if (name.empty() || name == "-") continue;
        report.error(name + " not written: no input could be read" + left_as_it_was(name), name);
    }
}

bool Outputs::open(Report& report) {
    for (auto const& dir : plan_.directories_to_create) {
        std::error_code ec;
        if (!created_.create(dir, ec)) {
            report.error("cannot create directory " + dir + ": " + ec.message(), dir);
            return false;
        }
    }
    std::string error;
    if (!plan_.rejects.empty()) {
        rejects_ =
            plan_.rejects == "-" ? io::open_stdout() : io::open_file_sink(plan_.rejects, error);
        if (!rejects_) {
            report.error(error, plan_.rejects);
            return false;
        }
    }
    if (!plan_.directory_mode && !plan_.output.empty()) {
        single_ = plan_.output == "-" ? io::open_stdout() : io::open_file_sink(plan_.output, error);
        if (!single_) {
            report.error(error, plan_.output);
            return false;
        }
    }
    return true;
}

Sinks Outputs::sinks() const {
    return {single_.get(), plan_.output_compression, rejects_.get(), plan_.rejects_compression};
}

// A file output is renamed into place only when what fed it was read, and read to the end:
// the single output (one input, or standard input) needs its input; the rejects file, fed by
// every input, needs every input that was opened read to the end (a corrupt .gz decodes
// garbage before its check fails) and at least one input read. Neither is kept from a run
// stopped by an output that could not be written (the rest of the input was not read), and
// the two stand or fall together: each is completed up to its rename (prepare: a full disk
// shows at the latest there) before either is renamed. A file not written leaves the one
// already there as it was, and the error names it. Standard output cannot be withheld.
void Outputs::finish(SinkUse const& use, Summary& sum, Report& report) {
    std::uint64_t const never_opened = sum.unreadable - sum.incomplete;
    bool const none_read = sum.unreadable > 0 && sum.files == never_opened;
    auto withhold = [&](io::ByteSink& sink, std::string const& name, char const* why) {
        sink.abandon();
        report.error(name + " not written: " + why + left_as_it_was(name), name);
        sum.io_failure = true;
    };
    char const* const unread =
        sum.incomplete > 0 ? "an input could not be read to the end" : "no input could be read";
    std::string error;
    // Whether `sink` (named `name`, "-" for standard output) is completed; reports why not.
    auto prepare = [&](io::ByteSink& sink, std::string const& name, bool failed, io::Compression c,
                       bool written) {
        if (failed) {
            sink.abandon(); // the failed write was reported
        } else if (name != "-" && use.stopped) {
            withhold(sink, name, "the run stopped before the end of its input");
        } else if (name != "-" && (sum.incomplete > 0 || none_read)) {
            withhold(sink, name, unread);
        } else if (!prepare_output(sink, c, level_, written, error)) {
            report.error(error, name);
            sum.io_failure = true;
        } else {
            return true;
        }
        return false;
    };
    bool single_ok = single_ && prepare(*single_, plan_.output, use.single_failed,
                                        plan_.output_compression, use.single_written);
    bool rejects_ok = rejects_ && prepare(*rejects_, plan_.rejects, use.rejects_failed,
                                          plan_.rejects_compression, use.rejects_written);
    if (single_ && !single_ok && rejects_ok && plan_.rejects != "-") {
        withhold(*rejects_, plan_.rejects, "the output was not written");
        rejects_ok = false;
    }
    if (rejects_ && !rejects_ok && single_ok && plan_.output != "-") {
        withhold(*single_, plan_.output, "the rejects file was not written");
        single_ok = false;
    }
    for (auto [sink, ok, name] : {std::tuple{single_.get(), single_ok, &plan_.output},
                                  std::tuple{rejects_.get(), rejects_ok, &plan_.rejects}})
        if (ok && !sink->commit(error)) {
            report.error(error, *name);
            sum.io_failure = true;
        }
}

} // namespace pgn_iccf::batch
