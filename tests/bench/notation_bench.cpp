// Micro-benchmark of src/notation over the moves of real games (not a test).
//
//   notation_bench [--benchmark_filter=...]
//   PGN_ICCF_BENCH_PGN=a.pgn:b.pgn notation_bench      (default: TWIC + lichess samples)
//
// The games' mainline SAN tokens are read once (a simple movetext scan; comments, NAGs,
// variations and results skipped) and replayed with read_move to collect the moves and their
// numeric texts. The `stored_*` benchmarks time one operation per stored position (the
// first 4096 moves); the others replay every game from its start, doing one operation per
// move plus the do_move that advances the position, and `replay` measures that do_move
// alone, so "operation cost" = benchmark - replay. The `per_move` counter is the time per
// move.
#include "notation/notation.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace n = pgn_iccf::notation;
using pgn_iccf::chess::Move;
using pgn_iccf::chess::Position;
using pgn_iccf::chess::UndoInfo;

namespace {

struct Game {
    Position start;
    std::size_t first = 0; // index of the first move in Corpus::moves
    std::size_t count = 0;
};

struct Corpus {
    std::vector<Game> games;
    std::vector<Move> moves;
    std::vector<std::string> san;     // the tokens as they stand in the file
    std::vector<n::MoveText> numeric; // write_numeric of each move
    std::vector<n::MoveText> san_out; // canonical SAN of each move
};

bool is_result(std::string const& t) {
    return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*";
}

// Mainline tokens of one game's movetext.
std::vector<std::string> tokens_of(std::string const& text) {
    std::vector<std::string> out;
    int depth = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        char c = text[i];
        if (c == '{') {
            std::size_t e = text.find('}', i);
            i = e == std::string::npos ? text.size() : e + 1;
        } else if (c == ';') {
            std::size_t e = text.find('\n', i);
            i = e == std::string::npos ? text.size() : e + 1;
        } else if (c == '(') {
            ++depth;
            ++i;
        } else if (c == ')') {
            --depth;
            ++i;
        } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            ++i;
        } else {
            std::size_t j = i;
            while (j < text.size() &&
                   std::string_view(" \n\r\t{}();").find(text[j]) == std::string_view::npos)
                ++j;
            std::string tok = text.substr(i, j - i);
            i = j;
            if (depth > 0 || tok[0] == '$' || is_result(tok)) continue;
            std::size_t dot = tok.find_last_of('.');
            if (dot != std::string::npos) tok = tok.substr(dot + 1); // "12." "12..." "12.e4"
            if (!tok.empty() && !(tok[0] >= '0' && tok[0] <= '9' && tok.size() < 4))
                out.push_back(tok);
        }
    }
    return out;
}

void add_game(Corpus& c, std::string const& fen, std::string const& movetext) {
    Game g;
    if (!fen.empty() && !g.start.set_fen(fen).ok()) return;
    g.first = c.moves.size();
    Position pos = g.start;
    for (std::string const& tok : tokens_of(movetext)) {
        n::ReadResult r = n::read_move(pos, tok);
        if (r.error != n::ReadError::none) break; // keep the game up to the first bad move
        c.moves.push_back(r.move);
        c.san.push_back(tok);
        c.numeric.push_back(n::write_numeric(pos, r.move));
        c.san_out.push_back(n::write_san(pos, r.move));
        UndoInfo u;
        pos.do_move(r.move, u);
    }
    g.count = c.moves.size() - g.first;
    if (g.count) c.games.push_back(g);
}

void load_file(Corpus& c, std::string const& path) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "notation_bench: cannot read %s\n", path.c_str());
        return;
    }
    std::string line, fen, movetext;
    bool in_moves = false;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line[0] == '[') {
            if (in_moves) {
                add_game(c, fen, movetext);
                fen.clear();
                movetext.clear();
                in_moves = false;
            }
            if (line.rfind("[FEN \"", 0) == 0) fen = line.substr(6, line.rfind('"') - 6);
            continue;
        }
        if (!line.empty()) in_moves = true;
        movetext += line;
        movetext += '\n';
    }
    if (in_moves) add_game(c, fen, movetext);
}

Corpus const& corpus() {
    static Corpus const c = [] {
        Corpus k;
        std::string list;
        if (char const* env = std::getenv("PGN_ICCF_BENCH_PGN")) {
            list = env;
        } else {
            std::string d = PGN_ICCF_DATA_DIR "/corpus/";
            if (!std::ifstream(d + "twic-01-232games.pgn"))
                d = PGN_ICCF_SOURCE_DIR "/../shared/data/corpus/";
            list =
                d + "twic-01-232games.pgn:" + d + "lichess_db_standard_rated_2021-10_first999.pgn";
        }
        std::stringstream ss(list);
        std::string path;
        while (std::getline(ss, path, ':'))
            if (!path.empty()) load_file(k, path);
        std::fprintf(stderr, "notation_bench: %zu games, %zu moves\n", k.games.size(),
                     k.moves.size());
        return k;
    }();
    return c;
}

// Replays every game, calling op(pos, move index) before each do_move.
template <class Op>
void run(benchmark::State& state, Op op) {
    Corpus const& c = corpus();
    for (auto _ : state) {
        for (Game const& g : c.games) {
            Position pos = g.start;
            for (std::size_t i = g.first; i < g.first + g.count; ++i) {
                Move m = op(pos, i);
                UndoInfo u;
                pos.do_move(m, u);
            }
            benchmark::DoNotOptimize(pos);
        }
    }
    state.counters["per_move"] =
        benchmark::Counter(double(c.moves.size()), benchmark::Counter::kIsIterationInvariantRate |
                                                       benchmark::Counter::kInvert);
    state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(c.moves.size()));
}

void replay(benchmark::State& state) {
    Corpus const& c = corpus();
    run(state, [&](Position&, std::size_t i) { return c.moves[i]; });
}

void read_san(benchmark::State& state) {
    Corpus const& c = corpus();
    run(state, [&](Position& pos, std::size_t i) { return n::read_move(pos, c.san[i]).move; });
}

void read_numeric(benchmark::State& state) {
    Corpus const& c = corpus();
    run(state,
        [&](Position& pos, std::size_t i) { return n::read_move(pos, c.numeric[i].view()).move; });
}

void write_san(benchmark::State& state) {
    Corpus const& c = corpus();
    run(state, [&](Position& pos, std::size_t i) {
        n::MoveText t = n::write_san(pos, c.moves[i]); // with check and mate marks
        benchmark::DoNotOptimize(t);
        return c.moves[i];
    });
}

void write_numeric(benchmark::State& state) {
    Corpus const& c = corpus();
    run(state, [&](Position& pos, std::size_t i) {
        n::MoveText t = n::write_numeric(pos, c.moves[i]);
        benchmark::DoNotOptimize(t);
        return c.moves[i];
    });
}

void write_lan(benchmark::State& state) {
    Corpus const& c = corpus();
    run(state, [&](Position& pos, std::size_t i) {
        n::MoveText t = n::write_lan(pos, c.moves[i]);
        benchmark::DoNotOptimize(t);
        return c.moves[i];
    });
}

// Canonical SAN (what our own output files hold) rather than the file's tokens.
void read_canonical_san(benchmark::State& state) {
    Corpus const& c = corpus();
    run(state,
        [&](Position& pos, std::size_t i) { return n::read_move(pos, c.san_out[i].view()).move; });
}

// The same operations on stored positions (the first `stored` moves of the corpus, about
// 1 MB of positions, so they stay in L2): the operation alone, without do_move.
constexpr std::size_t stored = 4096;

struct Snapshot {
    std::vector<Position> positions;
    std::vector<std::size_t> index; // into the Corpus arrays
};

Snapshot const& snapshot() {
    static Snapshot const s = [] {
        Snapshot k;
        Corpus const& c = corpus();
        for (Game const& g : c.games) {
            Position pos = g.start;
            for (std::size_t i = g.first; i < g.first + g.count && k.index.size() < stored; ++i) {
                k.positions.push_back(pos);
                k.index.push_back(i);
                UndoInfo u;
                pos.do_move(c.moves[i], u);
            }
        }
        return k;
    }();
    return s;
}

template <class Op>
void run_stored(benchmark::State& state, Op op) {
    Snapshot const& s = snapshot();
    std::vector<Position> positions = s.positions; // write_san may make/unmake on them
    for (auto _ : state)
        for (std::size_t k = 0; k < positions.size(); ++k) op(positions[k], s.index[k]);
    state.counters["per_move"] =
        benchmark::Counter(double(positions.size()), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
}

void stored_read_san(benchmark::State& state) {
    Corpus const& c = corpus();
    run_stored(state, [&](Position& pos, std::size_t i) {
        benchmark::DoNotOptimize(n::read_move(pos, c.san[i]).move);
    });
}

void stored_read_numeric(benchmark::State& state) {
    Corpus const& c = corpus();
    run_stored(state, [&](Position& pos, std::size_t i) {
        benchmark::DoNotOptimize(n::read_move(pos, c.numeric[i].view()).move);
    });
}

void stored_write_san(benchmark::State& state) {
    Corpus const& c = corpus();
    run_stored(state, [&](Position& pos, std::size_t i) {
        n::MoveText t = n::write_san(pos, c.moves[i]);
        benchmark::DoNotOptimize(t);
    });
}

void stored_write_numeric(benchmark::State& state) {
    Corpus const& c = corpus();
    run_stored(state, [&](Position& pos, std::size_t i) {
        n::MoveText t = n::write_numeric(pos, c.moves[i]);
        benchmark::DoNotOptimize(t);
    });
}

} // namespace

BENCHMARK(stored_read_san);
BENCHMARK(stored_read_numeric);
BENCHMARK(stored_write_san);
BENCHMARK(stored_write_numeric);
BENCHMARK(replay);
BENCHMARK(read_san);
BENCHMARK(read_canonical_san);
BENCHMARK(read_numeric);
BENCHMARK(write_san);
BENCHMARK(write_numeric);
BENCHMARK(write_lan);

BENCHMARK_MAIN();
