// The conversion of one batch of games, single-threaded: what a pipeline worker does with a
// batch (src/batch/pipeline.cpp) and what the WebAssembly build runs (src/web/binding.cpp),
// so that the command line and the browser share one source of truth. No threads, no files,
// no compression here: the batch's games in, its output, rejects, diagnostics and counts out.
#pragma once

#include "pgn/converter.hpp"
#include "pgn/game_reader.hpp"
#include "report/report.hpp"
#include "report/wording.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::batch {

// What converting a batch made of it. Appended to by convert_batch (a caller may convert
// several batches into one result).
struct ConvertedBatch {
    std::string out;      // converted games
    std::string rejects;  // rejected games as read (only when kept)
    std::string messages; // diagnostics, one line each (text or JSON), in game order
    std::vector<report::MessageLine> lines; // each line's fold key and end in `messages`
    std::uint64_t game_count = 0;           // an oversized game counts at its first piece
    std::uint64_t converted = 0, kept_broken = 0, rejected = 0, moves = 0, errors = 0, warnings = 0;
    std::uint64_t corrected = 0; // moves replaced by --fix-typos

    void clear_counts() {
        game_count = converted = kept_broken = rejected = moves = errors = warnings = 0;
        corrected = 0;
    }
};

// Adds a converted batch's counts (games, converted, kept broken, rejected, moves, errors,
// warnings, corrected) to a run's summary: the pipeline's writer and the browser's binding.
void add_counts(report::Summary& sum, ConvertedBatch const& b);

// Where a batch comes from and where its rejects go.
struct BatchSource {
    std::string_view display;  // the input's name as diagnostics show it
    bool keep_rejects = false; // a rejects file is written (--rejects)
    std::size_t max_game_size = pgn::GameReader::default_max_game_size; // for the message
    report::Format format = report::Format::text;      // of the diagnostics (--diagnostics)
    report::Voice voice = report::Voice::command_line; // who reads them (the page: Voice::page)
    // Warnings worded per kind in a batch; the rest get a line without text (their key is
    // counted, never shown). A batch's warnings past the run's per-file fold limit can never
    // be shown, so the pipeline words only those that may be (see pipeline.cpp).
    std::uint64_t worded_per_kind = UINT64_MAX;
};

// Converts the games of `games` in order with `converter`, appending to `b`.
void convert_batch(pgn::GameBatch const& games, pgn::Converter& converter,
                   BatchSource const& source, ConvertedBatch& b);

} // namespace pgn_iccf::batch
