#!/usr/bin/env bash
# perft speed of our move generator against Stockfish's `go perft` (a benchmark, not a test).
#
#   tests/bench/perft_speed.sh            # uses build/bin/perft
#   PERFT=build-engine/bin/perft ROUNDS=5 tests/bench/perft_speed.sh
#
# Builds nothing: expects an already built perft (build/bin/perft or $PERFT). Finds Stockfish
# ($STOCKFISH, PATH, /usr/games/stockfish; installs the Debian package if none is found).
# Runs start position depth 6 and Kiwipete depth 5, ours and Stockfish's alternately,
# ROUNDS times (default 3), and prints the median nodes/second of each and the ratio.
# Both count with one thread; Stockfish also bulk-counts the last ply. Process start-up (longer
# for Stockfish, which sets up its evaluation network) is measured per program with a
# depth-1 run and subtracted before computing nodes/second.
set -euo pipefail

command -v bc >/dev/null || { echo "perft_speed: needs bc" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
perft=${PERFT:-$root/build/bin/perft}
rounds=${ROUNDS:-3}
[ -x "$perft" ] || { echo "perft_speed: no perft executable at $perft (build it, or set PERFT)" >&2; exit 2; }

stockfish=${STOCKFISH:-}
if [ -z "$stockfish" ]; then
    stockfish=$(command -v stockfish || true)
    [ -n "$stockfish" ] || [ ! -x /usr/games/stockfish ] || stockfish=/usr/games/stockfish
fi
if [ -z "$stockfish" ]; then
    echo "perft_speed: installing stockfish (apt-get)" >&2
    apt-get install -y stockfish >&2
    stockfish=/usr/games/stockfish
fi
[ -x "$stockfish" ] || { echo "perft_speed: stockfish not found" >&2; exit 2; }

now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
startfen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# ours FEN DEPTH -> "nodes seconds"
ours() {
    local t0 t1 nodes
    t0=$(now)
    if [ "$1" = startpos ]; then set -- "$startfen" "$2"; fi
    nodes=$("$perft" "$1" "$2" | tail -n 1)
    t1=$(now)
    echo "$nodes $(echo "$t1 - $t0" | bc -l)"
}

# theirs FEN DEPTH -> "nodes seconds"
theirs() {
    local t0 t1 nodes pos
    if [ "$1" = startpos ]; then pos="position startpos"; else pos="position fen $1"; fi
    t0=$(now)
    nodes=$(printf '%s\ngo perft %s\nquit\n' "$pos" "$2" | "$stockfish" |
        sed -n 's/^Nodes searched: *//p')
    t1=$(now)
    echo "$nodes $(echo "$t1 - $t0" | bc -l)"
}


startup_ours=$(for i in 1 2 3 4 5; do ours startpos 1 | cut -d' ' -f2; done | median)
startup_sf=$(for i in 1 2 3 4 5; do theirs startpos 1 | cut -d' ' -f2; done | median)

kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

echo "perft:     $perft"
echo "stockfish: $stockfish ($("$stockfish" <<<quit | head -n 1))"
echo "rounds:    $rounds"
printf 'start-up:  ours %.3f s, stockfish %.3f s (subtracted)\n' "$startup_ours" "$startup_sf"
echo

all_ratios=()
for test in "start 6" "kiwipete 5"; do
    set -- $test
    name=$1
    depth=$2
    if [ "$name" = start ]; then ourfen=$startfen sffen=startpos; else ourfen=$kiwipete sffen=$kiwipete; fi
    our_rates=()
    sf_rates=()
    for ((r = 1; r <= rounds; r++)); do
        read -r n1 s1 < <(ours "$ourfen" "$depth")
        read -r n2 s2 < <(theirs "$sffen" "$depth")
        if [ "$n1" != "$n2" ]; then
            echo "perft_speed: node counts differ on $name depth $depth: ours $n1, stockfish $n2" >&2
            exit 1
        fi
        our_rates+=("$(echo "$n1 / ($s1 - $startup_ours)" | bc -l)")
        sf_rates+=("$(echo "$n2 / ($s2 - $startup_sf)" | bc -l)")
        printf '%-9s depth %d round %d: %d nodes, ours %.3f s, stockfish %.3f s\n' \
            "$name" "$depth" "$r" "$n1" "$s1" "$s2"
    done
    our=$(printf '%s\n' "${our_rates[@]}" | median)
    sf=$(printf '%s\n' "${sf_rates[@]}" | median)
    ratio=$(echo "$our / $sf" | bc -l)
    all_ratios+=("$ratio")
    printf '%-9s depth %d median: ours %.0f nodes/s, stockfish %.0f nodes/s, ratio ours/stockfish %.2f\n\n' \
        "$name" "$depth" "$our" "$sf" "$ratio"
done
printf 'ratio ours/stockfish: start %.2f, kiwipete %.2f (target >= 0.5)\n' "${all_ratios[0]}" "${all_ratios[1]}"
