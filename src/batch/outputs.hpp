// The outputs of a run, from the plan: every sink's life. open() creates the planned folders
// and opens the single output (or standard output) and the rejects file; the pipeline writes
// to sinks() and opens and commits directory-mode outputs itself through commit_output();
// finish() completes the two (or withholds them) by the rules below, and a run that read no
// input names the files it did not write.
#pragma once

#include "batch/report.hpp"
#include "io/cleanup.hpp"
#include "io/sink.hpp"
#include "plan/plan.hpp"

#include <memory>
#include <string>

namespace pgn_iccf::batch {

// Where the batches go. `single` is the output of a run that is not in directory mode (null
// with --check); directory-mode outputs are opened by the writer as their jobs start, from
// the plan. `rejects` may be null.
struct Sinks {
    io::ByteSink* single = nullptr;
    io::Compression single_compression = io::Compression::none;
    io::ByteSink* rejects = nullptr;
    io::Compression rejects_compression = io::Compression::none;
};

// What the pipeline wrote to the caller's sinks (an empty compressed output still needs one
// empty member: see commit_output).
struct SinkUse {
    bool single_written = false;
    bool rejects_written = false;
    bool single_failed = false; // a write failed (reported): abandon, do not commit
    bool rejects_failed = false;
    bool stopped = false; // an output could not be written: the rest of the input was not read
};

// Commits an output; a compressed output that received no data first gets one empty member,
// so that gzip -d, bzip2 -d and zstd -d read it as an empty file instead of failing on zero
// bytes.
bool commit_output(io::ByteSink& sink, io::Compression c, int level, bool written,
                   std::string& error);
// commit_output up to the rename (io::ByteSink::prepare): every write error is then known; a
// commit_output after it only renames.
bool prepare_output(io::ByteSink& sink, io::Compression c, int level, bool written,
                    std::string& error);

// The single output and the rejects file of a run, and the folders it created (removed, when
// left empty, after the sinks' temporaries).
class Outputs {
public:
    Outputs(Plan const& plan, int compress_level) : plan_(plan), level_(compress_level) {}

    // No input can be read at all: the file outputs say they are not written (nothing is
    // created or opened: opening -o FIFO would wait for a reader).
    void none_readable(Report& report) const;
    // Creates the planned folders and opens the sinks; false (reported) when one cannot be.
    bool open(Report& report);
    Sinks sinks() const;
    // After the pipeline: commits the two outputs, or withholds them (reported, with
    // summary.io_failure set) by the rules in outputs.cpp.
    void finish(SinkUse const& use, Summary& summary, Report& report);

private:
    Plan const& plan_;
    int level_;
    io::CreatedFolders created_; // destroyed after the sinks: their temporaries go first
    std::unique_ptr<io::ByteSink> single_;
    std::unique_ptr<io::ByteSink> rejects_;
};

} // namespace pgn_iccf::batch
