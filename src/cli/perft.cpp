// perft: counts the leaf nodes of the legal move tree of a position (a move generator check).
//
//   perft [--divide] [--chess960] [--stats] FEN DEPTH
//
// The FEN is one (quoted) argument; as a convenience its fields may also be given as separate
// arguments, in which case the last argument is the depth. `startpos` names the standard
// starting position. The node count is always the last line of standard output.
#include "chess/position.hpp"
#include "notation/notation.hpp"
#include "report/codes.hpp"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace pgn_iccf::chess;

constexpr std::string_view usage =
    "usage: perft [--divide] [--chess960] [--stats] FEN DEPTH\n"
    "\n"
    "Counts the leaf nodes of the legal move tree of FEN at DEPTH plies and prints the count\n"
    "as the last line of standard output.\n"
    "\n"
    "  FEN         one argument (quote it), or its fields as separate arguments; `startpos`\n"
    "              is the standard starting position. X-FEN and Shredder-FEN castling\n"
    "              fields (KQkq, HAha, ...) are accepted.\n"
    "  DEPTH       plies, 0 or more\n"
    "  --divide    first print `<move> <count>` for each legal move (UCI notation; castling\n"
    "              as king to destination, e1g1, or king to rook, e1h1, in Chess960)\n"
    "  --chess960  treat the position as Chess960 (also detected from the castling field)\n"
    "  --stats     print time and nodes per second on standard error\n"
    "  -h, --help  this text\n"
    "\n"
    "Exit status: 0 on success, 2 on a usage error (bad FEN, bad depth).\n";

int usage_error(std::string const& message) {
    std::fprintf(stderr, "perft: %s\n(perft --help for usage)\n", message.c_str());
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    bool divide = false;
    bool chess960 = false;
    bool stats = false;
    std::vector<std::string_view> positional;
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        if (a == "-h" || a == "--help") {
            std::fputs(usage.data(), stdout);
            return 0;
        }
        if (a == "--divide")
            divide = true;
        else if (a == "--chess960")
            chess960 = true;
        else if (a == "--stats")
            stats = true;
        else if (a.size() > 1 && a[0] == '-' && a[1] == '-')
            return usage_error("unknown option '" + std::string(a) + "'");
        else
            positional.push_back(a);
    }
    if (positional.size() < 2) return usage_error("expected a FEN and a depth");

    std::string_view depth_text = positional.back();
    int depth = -1;
    auto [end, ec] =
        std::from_chars(depth_text.data(), depth_text.data() + depth_text.size(), depth);
    if (ec != std::errc() || end != depth_text.data() + depth_text.size() || depth < 0 ||
        depth > 30)
        return usage_error("bad depth '" + std::string(depth_text) + "' (expected 0 to 30)");
    positional.pop_back();

    std::string fen;
    for (std::string_view p : positional) {
        if (!fen.empty()) fen += ' ';
        fen += p;
    }
    if (fen == "startpos") fen = Position::start_fen;

    Position pos;
    if (FenError const bad = pos.set_fen(fen, chess960); !bad.ok())
        return usage_error("bad FEN '" + fen + "': " + pgn_iccf::report::fen_message(bad));

    auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    if (divide && depth > 0) {
        MoveList list;
        pos.generate_legal(list);
        UndoInfo undo;
        for (Move m : list) {
            pos.do_move(m, undo);
            std::uint64_t n = pos.perft(depth - 1);
            pos.undo_move(m, undo);
            total += n;
            std::printf("%s %llu\n",
                        std::string(pgn_iccf::notation::write_uci(pos, m).view()).c_str(),
                        static_cast<unsigned long long>(n));
        }
    } else {
        total = pos.perft(depth);
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%llu\n", static_cast<unsigned long long>(total));
    if (stats)
        std::fprintf(stderr, "time %.3f s, %.0f nodes/s\n", seconds,
                     seconds > 0 ? double(total) / seconds : 0.0);
    return 0;
}
