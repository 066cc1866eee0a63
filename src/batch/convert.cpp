#include "batch/convert.hpp"

#include "report/wording.hpp"

#include "report/terminal.hpp"

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

// Starts a diagnostic line of this layer, in the converter's shape: "FILE:LINE:COL: SEVERITY: "
// (the file name escaped for the terminal).
void begin_diagnostic(std::string& m, BatchSource const& job, syntax::Location at,
                      char const* severity) {
    report::append_terminal_safe(m, job.display, report::no_cut);
    m += ':' + std::to_string(at.line) + ':' + std::to_string(at.column) + ": " + severity + ": ";
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
                     BatchSource const& job) {
    if (part == pgn::GamePart::oversized_first) {
        ++b.game_count;
        ++b.rejected;
        ++b.errors;
        std::string& m = b.messages;
        begin_diagnostic(m, job, piece.start, "error");
        m += "game " + std::to_string(piece.number) + ": the game is larger than " +
             format_size(job.max_game_size) + " (--max-game-size): not read";
        b.kinds.emplace_back(); // an error
        m += job.keep_rejects ? "; its bytes go to the rejects file\n" : "\n";
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
                        BatchSource const& job) {
    if (part == pgn::GamePart::text_more) {
        if (job.keep_rejects) b.rejects += text.bytes;
        return;
    }
    ++b.warnings;
    std::string& m = b.messages;
    begin_diagnostic(m, job, text.start, "warning");
    auto const last = pgn::last_line(text);
    bool const more = part == pgn::GamePart::text_first;
    m += (more                      ? "from line "
          : last == text.start.line ? "line "
                                    : "lines ") +
         std::to_string(text.start.line) +
         (more || last == text.start.line ? std::string() : '-' + std::to_string(last)) +
         ": text between games is not a game";
    m += job.keep_rejects ? "; its bytes go to the rejects file\n"
                          : "; left out (--rejects keeps it)\n";
    b.kinds.emplace_back("text between games");
    if (!job.keep_rejects) return;
    if (more)
        b.rejects += text.bytes;
    else
        add_to_rejects(b, text.bytes);
}

} // namespace

void convert_batch(pgn::GameBatch const& games, pgn::Converter& converter,
                   BatchSource const& source, ConvertedBatch& b) {
    for (std::size_t i = 0; i < games.games.size(); ++i) {
        syntax::RawGame const& game = games.games[i];
        pgn::GamePart const part = games.parts[i];
        if (part == pgn::GamePart::text || part == pgn::GamePart::text_first ||
            part == pgn::GamePart::text_more) {
            text_between_games(b, game, part, source);
            continue;
        }
        if (part != pgn::GamePart::whole) {
            oversized_piece(b, game, part, source);
            continue;
        }
        ++b.game_count;
        pgn::GameReport r = converter.convert(game, source.display, b.out);
        b.moves += r.moves;
        b.errors += std::uint64_t(r.errors);
        b.warnings += std::uint64_t(r.warnings);
        b.corrected += r.corrected;
        report::word_all(r, source.display, b.messages, b.kinds);
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
