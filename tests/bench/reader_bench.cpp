// Benchmark of the PGN reader alone (not a test): GameReader + parse_game with a visitor that
// only counts, over a file read in chunks (as the converter reads it).
//
//   reader_bench FILE [--split-only] [--chunk BYTES] [--max-game-size BYTES]
//
// Prints bytes, games (of which oversized: handed out in pieces, not parsed), moves, diagnostics;
// MB/s (10^6 bytes) and games/s on the wall clock and on the process's CPU time (user + system: the
// fair figure on a shared machine); and the peak resident set size (getrusage ru_maxrss) of the
// whole process.
#include "grammar/parse.hpp"
#include "pgn/game_reader.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <sys/resource.h>

using namespace pgn_iccf;

namespace {

class Counter final : public parser::Visitor {
public:
    std::uint64_t moves = 0, tokens = 0, errors = 0, warnings = 0;
    void tag(parser::Token const&, parser::Token const&) override { ++tokens; }
    void move(parser::Token const&, parser::Token const&) override { ++moves; }
    void comment(parser::Token const&, parser::CommentKind) override { ++tokens; }
    void nag(parser::Token const&, std::uint8_t) override { ++tokens; }
    void result(parser::Token const&, syntax::Result) override { ++tokens; }
    void diagnostic(syntax::Diagnostic const& d) override {
        (d.severity == syntax::Severity::error ? errors : warnings) += 1;
    }
};

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: reader_bench FILE [--split-only] [--chunk BYTES] "
                             "[--max-game-size BYTES]\n");
        return 2;
    }
    std::string const path = argv[1];
    bool split_only = false;
    std::size_t chunk = pgn::GameReader::default_chunk_size;
    std::size_t max_game_size = pgn::GameReader::default_max_game_size;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--split-only") == 0)
            split_only = true;
        else if (std::strcmp(argv[i], "--chunk") == 0 && i + 1 < argc)
            chunk = std::strtoull(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--max-game-size") == 0 && i + 1 < argc)
            max_game_size = std::strtoull(argv[++i], nullptr, 10);
    }
    std::string error;
    auto source = io::open_file(path, error);
    if (!source) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 2;
    }
    Counter counter;
    parser::ParseOptions options;
    auto const t0 = std::chrono::steady_clock::now();
    pgn::GameReader reader(*source, chunk, max_game_size);
    syntax::RawGame game;
    std::uint64_t games = 0, oversized = 0;
    while (reader.next(game)) {
        if ((reader.part() != pgn::GamePart::whole && !pgn::is_text(reader.part()))) {
            games += reader.part() == pgn::GamePart::oversized_first;
            oversized += reader.part() == pgn::GamePart::oversized_first;
            continue;
        }
        if (pgn::is_text(reader.part())) continue; // text between games: no game
        ++games;
        if (!split_only) parser::parse_game(game, counter, options);
    }
    auto const seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!reader.io_error().empty()) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), reader.io_error().c_str());
        return 2;
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto const bytes = static_cast<double>(reader.bytes_read());
    std::printf("%s%s: %.0f bytes, %llu games (%llu oversized), %llu moves, %llu errors, "
                "%llu warnings\n",
                split_only ? "[split only] " : "", path.c_str(), bytes,
                static_cast<unsigned long long>(games), static_cast<unsigned long long>(oversized),
                static_cast<unsigned long long>(counter.moves),
                static_cast<unsigned long long>(counter.errors),
                static_cast<unsigned long long>(counter.warnings));
    auto const cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                     static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    std::printf("wall %.3f s  %.1f MB/s  %.0f games/s | cpu %.3f s  %.1f MB/s  %.0f games/s | "
                "peak RSS %ld KiB\n",
                seconds, bytes / seconds / 1e6, static_cast<double>(games) / seconds, cpu,
                bytes / cpu / 1e6, static_cast<double>(games) / cpu, usage.ru_maxrss);
    return 0;
}
