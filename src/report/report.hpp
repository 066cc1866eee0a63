// The report of a run: the only owner of standard error. Diagnostics arrive in input order
// (the pipeline's serial writer calls in), the progress line is redrawn at most four times a
// second when standard error is a terminal (or with --progress), a line per file closes each
// file in directory mode, and the summary closes the run.
#pragma once

#include "report/fold.hpp"
#include "report/line.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pgn_iccf::report {

// Which warnings a run shows. Errors are always shown in full.
enum class WarningDisplay : std::uint8_t {
    folded, // per file, the first few of each kind, then one line counting the rest
    all,    // every one (--all-warnings)
    none,   // none (--no-warnings); they are still counted
};

struct Summary {
    std::uint64_t files = 0;       // inputs, read or not
    std::uint64_t unreadable = 0;  // inputs that could not be opened or read to the end
    std::uint64_t incomplete = 0;  // of those, inputs opened but not read to the end
    std::uint64_t games = 0;       // = converted + rejected + kept_broken
    std::uint64_t converted = 0;   // written in full
    std::uint64_t kept_broken = 0; // written up to a bad move (--keep-broken)
    std::uint64_t rejected = 0;    // not written (in --rejects if given)
    std::uint64_t moves = 0;
    std::uint64_t errors = 0;
    std::uint64_t warnings = 0;
    std::uint64_t corrected = 0; // moves replaced by --fix-typos, in games written
    std::uint64_t bytes = 0;     // PGN bytes read (after decompression)
    double seconds = 0;
    bool io_failure = false; // an input could not be read or an output not written
    // Warnings by kind (fold.hpp), in order of first appearance.
    std::vector<std::pair<FoldKey, std::uint64_t>> warning_kinds;
};

// Exit status of CLI.md: 0 all converted, 1 some games not converted, 2 I/O or usage.
int exit_status(Summary const& s);

// The summary as printed at the end of a run (one line, no line end).
std::string format_summary(Summary const& s);

// The summary as one JSON object on one line (ending in '\n'): {"summary":{...}}.
std::string format_summary_json(Summary const& s);

// The lines after the summary counting warnings by kind, most frequent first (each ending in
// '\n'; "" when there were no warnings).
std::string format_warning_kinds(Summary const& s);

// What one file of a directory-mode run gave, for its line.
struct FileLine {
    std::string_view input;
    std::string_view output; // "" when nothing was written (--check, or output failed)
    std::uint64_t games = 0, rejected = 0, kept_broken = 0, errors = 0, warnings = 0;
};

class Report {
public:
    // How often a plain progress line is written where standard error is not a terminal.
    static constexpr std::chrono::seconds log_interval{10};

    struct Options {
        bool quiet = false;    // no progress, no per-file lines, no summary
        bool progress = false; // show the progress line
        // Standard error is a terminal: the progress line is redrawn in place four times a
        // second. Else (--progress into a log or a pipe) it is a plain line, at the first
        // batch and then every log_interval, with no carriage return or escape sequence.
        bool terminal = false;
        bool file_lines = false; // a line per file (directory mode)
        std::uint64_t files = 0; // number of inputs (for "file 3/12")
        std::uint64_t total = 0; // total input size in bytes as stored (0 = unknown)
        // json (--diagnostics=json): every line is a JSON object (see README, "Diagnostics as
        // JSON"): the converter's diagnostics arrive as such; errors and notes of the run
        // {"severity","text"}, fold lines {"folded":{...}}, per-file lines {"file_done":{...}}
        // and the summary {"summary":{...}}; no progress line.
        Format format = Format::text;
    };
    Report(std::FILE* err, Options const& options);

    // "pgn-iccf: error: MESSAGE" (always shown, even with -q). `file`: the input or output it
    // is about, as named (the message names it too), "" for none: JSON's "file" (null for "").
    void error(std::string_view message, std::string_view file = {});
    // "pgn-iccf: note: MESSAGE" (not with -q).
    void note(std::string_view message, std::string_view file = {});
    // Diagnostic lines of the converter, each ending in '\n' (always shown: the caller
    // chooses which warnings to pass).
    void diagnostics(std::string_view lines);
    // Closes a file's diagnostics: "FILE: ... and N more warnings like this (KIND)".
    void folded(std::string_view input, FoldKey kind, std::uint64_t more);
    void file_done(FileLine const& line);
    // Progress: inputs finished, bytes consumed as stored (compressed bytes for compressed
    // inputs), PGN bytes and games done.
    void progress(std::uint64_t files_done, std::uint64_t consumed, std::uint64_t bytes,
                  std::uint64_t games);
    void summary(Summary const& s);

private:
    void message(std::string_view severity, std::string_view message, std::string_view file);
    bool json() const { return opt_.format == Format::json; }
    void clear_progress();
    void put(std::string_view text);

    std::FILE* err_;
    Options opt_;
    bool shown_ = false;  // a progress line is on the terminal, not yet cleared
    bool logged_ = false; // a plain progress line was written (not a terminal)
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_{};
};

} // namespace pgn_iccf::report
