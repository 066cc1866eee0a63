#!/usr/bin/env bash
# Benchmark of the main job on one core (not a test; issue 11): pgn-iccf -j1 SAN -> numeric,
# numeric -> SAN, SAN -> SAN and --check against pgn-extract's SAN rewrite
# (pgn-extract -s -o /dev/null) on the same input, alternating, several rounds. Three shapes
# of real games from data/, reported separately and mixed:
#   master     master games with few comments (TWIC, the chess.js benchmark games)
#   lichess    lichess games with [%clk] and [%eval] comments (lichess database, CC0)
#   annotated  annotated games with variations, NAGs and comments
# Prints, per shape and mode, the median MB/s and games/s per CPU second, ns per move, peak
# RSS and the ratio to pgn-extract (the median of the rounds' ratios, as issue J states its
# targets: pgn-extract's CPU time over ours in the same round); then callgrind instructions per game on a 2 MB slice of
# each shape (a figure that machine noise does not move), and the targets of issues 11 and J
# (one core: SAN -> numeric >= 16x pgn-extract, numeric -> SAN >= 13x, --check >= 1.4x faster
# than SAN -> numeric; peak RSS <= 16 MiB at -j1 and <= 16 MiB + 4 MiB per extra thread).
#
#   tests/bench/convert_speed.sh [BUILD_DIR] [SIZE_MB] [ROUNDS] [PORTABLE_BUILD_DIR]
#
# SIZE_MB (default 210) is the size of the mixed input, a third of it from each shape.
# callgrind cannot run a -march=native binary, so instructions are counted with a portable
# build (PGN_ICCF_NATIVE=OFF) in PORTABLE_BUILD_DIR (default BUILD_DIR-portable; built here
# if missing). Inputs and outputs live in $BENCH_DIR (default /dev/shm when it exists): a
# disk would add its own noise. NO_CALLGRIND=1 skips the instruction counts.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
size_mb=${2:-210}
rounds=${3:-3}
portable=${4:-$build-portable}
bin=$build/bin/pgn-iccf
[ -x "$bin" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || apt-get install -y time >/dev/null
PATH=/usr/games:$PATH # Debian installs pgn-extract there
pe=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$pe" ] || { apt-get install -y pgn-extract >/dev/null; pe=/usr/games/pgn-extract; }

base=${BENCH_DIR:-$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp)}
tmp=$(mktemp -d "$base/pgn-iccf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

declare -A sources=(
  [master]="data/corpus/twic-01-232games.pgn data/corpus/chessjs-benchmark.pgn data/corpus/32games.pgn"
  [lichess]="data/corpus/lichess_db_standard_rated_2021-10_first999.pgn data/corpus/lichess_mliebelt_2024-01-03.pgn"
  [annotated]="data/corpus/variations.pgn data/edge/iecg-correspondence-variations.pgn data/edge/comment-before-first-move.pgn data/golden/games.pgn"
)
shapes=(master lichess annotated)
# unit SHAPE: the shape's files once, each game ending in a blank line.
for s in "${shapes[@]}"; do
  : > "$tmp/$s.unit"
  for f in ${sources[$s]}; do
    [ -f "$here/$f" ] || { echo "missing $f" >&2; exit 2; }
    cat "$here/$f" >> "$tmp/$s.unit"; printf '\n' >> "$tmp/$s.unit"
  done
done
# Each shape: its unit repeated up to a third of SIZE_MB; mixed: the three, a third of the
# bytes each.
for s in "${shapes[@]}"; do
  : > "$tmp/$s.san.pgn"
  while [ "$(stat -c %s "$tmp/$s.san.pgn")" -lt $((size_mb * 1000000 / 3)) ]; do
    cat "$tmp/$s.unit" "$tmp/$s.unit" "$tmp/$s.unit" "$tmp/$s.unit" >> "$tmp/$s.san.pgn"
  done
done
cat "$tmp/master.san.pgn" "$tmp/lichess.san.pgn" "$tmp/annotated.san.pgn" > "$tmp/mixed.san.pgn"
inputs=("${shapes[@]}" mixed)

# Per input: the numeric copy, its size, games and moves (as our summary counts them:
# main lines and variations).
declare -A bytes nbytes games moves
for s in "${inputs[@]}"; do
  summary=$("$bin" -j2 -o "$tmp/$s.num.pgn" "$tmp/$s.san.pgn" 2>&1 >/dev/null | grep 'games\? read' || true)
  bytes[$s]=$(stat -c %s "$tmp/$s.san.pgn")
  nbytes[$s]=$(stat -c %s "$tmp/$s.num.pgn")
  games[$s]=$(echo "$summary" | sed -E 's/.*: ([0-9]+) games? read.*/\1/')
  moves[$s]=$(echo "$summary" | sed -E 's/.*; ([0-9]+) moves?;.*/\1/')
  awk -v s="$s" -v b="${bytes[$s]}" -v n="${nbytes[$s]}" -v g="${games[$s]}" -v m="${moves[$s]}" \
      -v f="${sources[$s]:-the three shapes, a third each}" 'BEGIN {
    printf "%-10s %6.1f MB SAN, %6.1f MB numeric, %7d games, %9d moves (%s)\n", s, b/1e6, n/1e6, g, m, f }'
done

# run KEY CMD...: appends "cpu_seconds rss_kib wall_seconds" to $tmp/KEY. CPU time (user +
# system) is what is compared: on a shared machine it varies far less than wall time.
# The times come from the shell's `time` in milliseconds (GNU time prints hundredths, a step
# of 1-2% of a run of under a second); GNU time gives the peak RSS. Both count the
# process run under taskset, and bash's also the millisecond or so of GNU time itself.
run() {
  local key=$1; shift
  local TIMEFORMAT='%3U %3S %3R' st=0
  { time /usr/bin/time -f "%M" -o "$tmp/rss" taskset -c 0 "$@" >/dev/null 2>"$tmp/err"; } \
    2> "$tmp/t" || st=$?
  [ $st -le 1 ] || { cat "$tmp/err" >&2; exit 2; }
  # (GNU time writes "Command exited with non-zero status 1" before the figure.)
  awk -v rss="$(tail -n 1 "$tmp/rss")" '{printf "%.3f %d %.3f\n", $1 + $2, rss, $3}' "$tmp/t" \
    >> "$tmp/$key"
}
modes=(san2num num2san san2san check)
declare -A label=([san2num]="SAN -> numeric" [num2san]="numeric -> SAN" [san2san]="SAN -> SAN"
                  [check]="--check" [pgnx]="pgn-extract -s")
for ((r = 1; r <= rounds; r++)); do
  for s in "${inputs[@]}"; do
    run "$s.san2num" "$bin" -q -j1 -o /dev/null "$tmp/$s.san.pgn"
    run "$s.pgnx" "$pe" -s -o /dev/null "$tmp/$s.san.pgn"
    run "$s.num2san" "$bin" -q -j1 -t san -o /dev/null "$tmp/$s.num.pgn"
    run "$s.san2san" "$bin" -q -j1 -t san -o /dev/null "$tmp/$s.san.pgn"
    run "$s.check" "$bin" -q -j1 --check "$tmp/$s.san.pgn"
  done
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# pair_ratios A B: round by round, CPU seconds of A over those of B (the runs of a round follow
# each other, so that a slower or faster spell of the shared machine moves both).
pair_ratios() { paste -d' ' "$tmp/$1" "$tmp/$2" | awk '{printf "%.6f\n", $1 / $4}'; }
# pair_median A B: the median of those ratios (how issue J states its targets).
pair_median() { pair_ratios "$1" "$2" | median; }
declare -A med
echo
echo "median of $rounds rounds, one core (taskset -c 0, -j1); per CPU second; x pgnx: median"
echo "of the rounds' ratios (pgn-extract's CPU time over ours in the same round):"
printf '%-10s %-16s %8s %9s %10s %8s %9s %8s\n' shape mode "cpu s" "MB/s" "games/s" "ns/move" "RSS MiB" "x pgnx"
for s in "${inputs[@]}"; do
  for m in pgnx "${modes[@]}"; do
    med[$s.$m]=$(awk '{print $1}' "$tmp/$s.$m" | median)
  done
  for m in "${modes[@]}" pgnx; do
    in_bytes=${bytes[$s]}
    [ "$m" = num2san ] && in_bytes=${nbytes[$s]}
    rss=$(awk '{print $2}' "$tmp/$s.$m" | sort -n | tail -1)
    x=$(pair_median "$s.pgnx" "$s.$m")
    awk -v s="$s" -v l="${label[$m]}" -v c="${med[$s.$m]}" -v b="$in_bytes" -v g="${games[$s]}" \
        -v mv="${moves[$s]}" -v r="$rss" -v x="$x" 'BEGIN {
      printf "%-10s %-16s %8.3f %9.1f %10.0f %8.1f %9.1f %7.1fx\n", s, l, c, b/1e6/c, g/c, c*1e9/mv, r/1024, x }'
  done
done

if [ "${NO_CALLGRIND:-}" != 1 ]; then
  command -v valgrind >/dev/null || apt-get install -y valgrind >/dev/null
  pbin=$portable/bin/pgn-iccf
  if [ ! -x "$pbin" ]; then
    echo "building a portable binary for callgrind in $portable ..."
    cmake -S "$here" -B "$portable" -DCMAKE_BUILD_TYPE=Release -DPGN_ICCF_NATIVE=OFF \
      -DPGN_ICCF_BUILD_TESTS=OFF >/dev/null
    cmake --build "$portable" -j"$(nproc)" --target pgn-iccf >/dev/null
  fi
  echo
  echo "callgrind instructions per game (portable build, 2 MB slice of each shape, -j1):"
  printf '%-10s %7s %14s %14s %14s %14s\n' shape games "SAN->numeric" "numeric->SAN" "SAN->SAN" "--check"
  for s in "${shapes[@]}"; do
    # The first whole games of about 2 MB: cut at a tag section start.
    head -c 2000000 "$tmp/$s.san.pgn" > "$tmp/slice.cut"
    awk 'BEGIN{n=0} /^\[Event /{last=NR} {lines[NR]=$0} END{for(i=1;i<last;i++) print lines[i]}' \
      "$tmp/slice.cut" > "$tmp/$s.slice.san.pgn"
    "$pbin" -q -o "$tmp/$s.slice.num.pgn" "$tmp/$s.slice.san.pgn" 2>/dev/null || true
    g=$(grep -c '^\[Event ' "$tmp/$s.slice.san.pgn")
    row=()
    for m in "${modes[@]}"; do
      case $m in
        san2num) args=(-o /dev/null "$tmp/$s.slice.san.pgn") ;;
        num2san) args=(-t san -o /dev/null "$tmp/$s.slice.num.pgn") ;;
        san2san) args=(-t san -o /dev/null "$tmp/$s.slice.san.pgn") ;;
        check) args=(--check "$tmp/$s.slice.san.pgn") ;;
      esac
      ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$pbin" -q -j1 "${args[@]}" 2>&1 |
           sed -nE 's/.*Collected : ([0-9]+).*/\1/p')
      row+=("$(( ir / g ))")
    done
    printf '%-10s %7d %14d %14d %14d %14d\n' "$s" "$g" "${row[@]}"
  done
fi

# Peak RSS of SAN -> numeric on the mixed input at -j1 (the largest of the rounds) and -j2.
rss1=$(awk '{print $2}' "$tmp/mixed.san2num" | sort -n | tail -1)
/usr/bin/time -f "%M" -o "$tmp/t" "$bin" -q -j2 -o /dev/null "$tmp/mixed.san.pgn" 2>/dev/null || true
rss2=$(cat "$tmp/t")
echo
# The targets as medians of the rounds' ratios, with the lowest and highest ratio of a round.
spread() { pair_ratios "$1" "$2" | sort -n | awk '{a[NR]=$1} END {printf "%.2f-%.2f", a[1], a[NR]}'; }
echo "ratios of the rounds, lowest-highest (mixed input): SAN -> numeric $(spread mixed.pgnx mixed.san2num)x," \
     "numeric -> SAN $(spread mixed.pgnx mixed.num2san)x, SAN -> SAN $(spread mixed.pgnx mixed.san2san)x," \
     "--check $(spread mixed.san2num mixed.check)x faster than SAN -> numeric"
awk -v a="$(pair_median mixed.pgnx mixed.san2num)" -v b="$(pair_median mixed.pgnx mixed.num2san)" \
    -v c="$(pair_median mixed.pgnx mixed.san2san)" -v d="$(pair_median mixed.san2num mixed.check)" \
    -v r1="$rss1" -v r2="$rss2" 'BEGIN {
  printf "targets (mixed input, medians of the rounds'"'"' ratios): SAN -> numeric %.1fx pgn-extract (>= 16: %s); numeric -> SAN %.1fx (>= 13: %s); SAN -> SAN %.1fx (>= 10: %s); --check %.2fx faster than SAN -> numeric (>= 1.4: %s); peak RSS -j1 %.1f MiB (<= 16: %s), -j2 %.1f MiB (<= 20: %s)\n",
    a, (a >= 16 ? "met" : "not met"), b, (b >= 13 ? "met" : "not met"),
    c, (c >= 10 ? "met" : "not met"), d, (d >= 1.4 ? "met" : "not met"),
    r1/1024, (r1 <= 16384 ? "met" : "not met"), r2/1024, (r2 <= 20480 ? "met" : "not met") }'
