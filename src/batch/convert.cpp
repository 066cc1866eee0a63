// One batch of games converted on one thread (convert.hpp): each game's output, its problems
// worded (at most so many per kind), the games not converted in full, oversized pieces and text
// between games sent to the rejects file, and the counts for the summary.
#include "batch/convert.hpp"

#include "report/wording.hpp"

#include <array>
#include <cstdint>
#include <cstdio>

namespace pgn_iccf::batch {

namespace {

// "64 MiB", "1.5 GiB", "300 bytes".
std::string format_size(std::uint64_t n) {
    char buf[64];
    if (n >= (std::uint64_t{1} << 30) && n % (std::uint64_t{1} << 30) == 0)
        std::snprintf(buf, sizeof buf, "%llu GiB", static_cast<unsigned long long>(n >> 30));
    else if (n >= (std::uint64_t{1} << 20) && n % (std::uint64_t{1} << 20) == 0)
        std::snprintf(buf, sizeof buf, "%llu MiB", static_cast<unsigned long long>(n >> 20));
    else if (n >= 1024 && n % 1024 == 0)
        std::snprintf(buf, sizeof buf, "%llu KiB", static_cast<unsigned long long>(n >> 10));
    else
        std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(n));
    return buf;
}

// Warnings of each kind in this call: those past BatchSource::worded_per_kind are not worded.
using KindCounts = std::array<std::uint64_t, report::fold_key_count>;

bool worded(report::FoldKey key, BatchSource const& job, KindCounts& counts) {
    return key == report::FoldKey::none || ++counts[std::size_t(key)] <= job.worded_per_kind;
}

// A diagnostic of this layer, not in a game's replay, in the converter's shape.
void add_line(ConvertedBatch& b, BatchSource const& job, report::Line const& line,
              report::FoldKey key, KindCounts& counts) {
    std::size_t const text = worded(key, job, counts)
                                 ? report::append_line(b.messages, line, job.format)
                                 : b.messages.size();
    b.lines.push_back({key, b.messages.size(), line.severity, line.where, text});
}

// The problems of a game's report, worded (or counted only: see worded).
void add_problems(ConvertedBatch& b, BatchSource const& job, pgn::GameReport const& r,
                  KindCounts& counts) {
    for (pgn::Problem const& p : r.problems) {
        report::FoldKey const key = report::fold_key(p);
        std::size_t const text =
            worded(key, job, counts)
                ? report::word(p, r, job.display, b.messages, job.format, job.voice)
                : b.messages.size();
        b.lines.push_back({key, b.messages.size(), p.severity, p.where, text});
    }
}

// Bytes as read to the rejects file; a line end keeps games apart when the input's last game
// had none.
void add_to_rejects(ConvertedBatch& b, std::string_view bytes) {
    b.rejects += bytes;
    if (!bytes.empty() && bytes.back() != '\n') b.rejects += '\n';
}

// A piece of a game larger than --max-game-size: the game is one rejected game with one error
// (at its first piece); its bytes, piece by piece, go to the rejects file unparsed.
void oversized_piece(ConvertedBatch& b, syntax::RawGame const& piece, pgn::GamePart part,
                     BatchSource const& job, KindCounts& counts) {
    if (part == pgn::GamePart::oversized_first) {
        ++b.game_count;
        ++b.rejected;
        ++b.errors;
        std::string const text =
            "the game is larger than " + format_size(job.max_game_size) + " (" +
            std::string(report::setting_name(report::Setting::max_game_size, job.voice)) +
            "): not read" + (job.keep_rejects ? "; its bytes go to the rejects file" : "");
        report::Line line;
        line.file = job.display;
        line.where = piece.start;
        line.game = piece.number;
        line.code = "game_too_large";
        line.text = text;
        add_line(b, job, line, report::FoldKey::none, counts);
    }
    if (!job.keep_rejects) return;
    if (part == pgn::GamePart::oversized_last)
        add_to_rejects(b, piece.bytes);
    else
        b.rejects += piece.bytes; // the game goes on in the next piece
}

// Text between games (GamePart::text, or a long run of control bytes in pieces: text_first,
// text_more): no game, so not counted; a warning naming its lines (at the first piece), and
// its bytes go to the rejects file so that nothing is lost (pieces as they are).
void text_between_games(ConvertedBatch& b, syntax::RawGame const& text, pgn::GamePart part,
                        BatchSource const& job, KindCounts& counts) {
    if (part == pgn::GamePart::text_more) {
        if (job.keep_rejects) b.rejects += text.bytes;
        return;
    }
    ++b.warnings;
    auto const last = pgn::last_line(text);
    bool const more = part == pgn::GamePart::text_first;
    std::string const words =
        (more                      ? "from line "
         : last == text.start.line ? "line "
                                   : "lines ") +
        std::to_string(text.start.line) +
        (more || last == text.start.line ? std::string() : '-' + std::to_string(last)) +
        ": text between games is not a game" +
        (job.keep_rejects
             ? "; its bytes go to the rejects file"
             : "; left out (" +
                   std::string(report::setting_name(report::Setting::rejects, job.voice)) +
                   " keeps it)");
    report::Line line;
    line.file = job.display;
    line.severity = syntax::Severity::warning;
    line.where = text.start;
    line.code = "text_between_games";
    line.text = words;
    add_line(b, job, line, report::text_between_games, counts);
    if (!job.keep_rejects) return;
    if (more)
        b.rejects += text.bytes;
    else
        add_to_rejects(b, text.bytes);
}

} // namespace

void add_counts(report::Summary& sum, ConvertedBatch const& b) {
    sum.games += b.game_count;
    sum.converted += b.converted;
    sum.kept_broken += b.kept_broken;
    sum.rejected += b.rejected;
    sum.moves += b.moves;
    sum.errors += b.errors;
    sum.warnings += b.warnings;
    sum.corrected += b.corrected;
}

void convert_batch(pgn::GameBatch const& games, pgn::Converter& converter,
                   BatchSource const& source, ConvertedBatch& b) {
    KindCounts counts{};
    for (std::size_t i = 0; i < games.games.size(); ++i) {
        syntax::RawGame const& game = games.games[i];
        pgn::GamePart const part = games.parts[i];
        if (pgn::is_text(part)) {
            text_between_games(b, game, part, source, counts);
            continue;
        }
        if (part != pgn::GamePart::whole) {
            oversized_piece(b, game, part, source, counts);
            continue;
        }
        ++b.game_count;
        pgn::GameReport r = converter.convert(game, source.display, b.out);
        b.moves += r.moves;
        b.errors += std::uint64_t(r.errors);
        b.warnings += std::uint64_t(r.warnings);
        b.corrected += r.corrected;
        add_problems(b, source, r, counts);
        switch (r.status) {
        case pgn::GameStatus::converted:
            ++b.converted;
            break;
        case pgn::GameStatus::kept_broken:
            ++b.kept_broken;
            break;
        case pgn::GameStatus::rejected:
            ++b.rejected;
            break;
        }
        // Every game not converted in full goes to the rejects file as read (a kept-broken
        // game too: it is written only up to its bad move).
        if (r.status != pgn::GameStatus::converted && source.keep_rejects)
            add_to_rejects(b, game.bytes);
    }
}

} // namespace pgn_iccf::batch
