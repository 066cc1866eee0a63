#!/usr/bin/env bash
# How pgn-iccf scales with threads, measured and predicted (not a test; issue J, item 5).
#
#   tests/bench/scaling.sh [BUILD_DIR] [SIZE_MB] [ROUNDS]
#
# On any machine: builds the mixed bench of tests/bench/convert_speed.sh from data/ (master,
# lichess and annotated games, a third of SIZE_MB each, default 100 MB) plain and as .zst
# (zstd -3), then
#   1. times `zstd -d -c FILE.zst > /dev/null` alone (CPU and wall);
#   2. times each stage of the pipeline alone, in a -j1 run with PGN_ICCF_STAGE_TIMES set (the
#      pipeline adds up the thread CPU time spent in each of its three filters and prints it):
#      read (reading and cutting the input into batches of games; for a .zst input without
#      read-ahead also the decoding), convert (a worker: parse and convert a batch) and write;
#      for the .zst input the rest of the process's CPU time is the decoding thread's;
#      all in ns per input byte (per decoded byte for the .zst);
#   3. measures -jN for every N from 1 to the cores this machine has (wall time, best of
#      ROUNDS, default 3): plain SAN -> numeric, and .zst in to /dev/null;
#   4. prints the Amdahl prediction for 16 threads;
# and, between 2 and 3, the serial stages of a tree of small files (directory mode) and what
# they predict for 16 threads.
#
# The model: the serial part S = read + write per byte runs on one thread at a time, the
# parallel part P = convert per byte is shared by N threads, so
#     time per byte at N threads  T(N) = S + P / N,   speed-up(N) = (S + P) / (S + P / N).
# (Pessimistic: the reader and the writer may run at the same time as each other.) For a .zst
# input the decoding is a stage of its own on its own thread (read-ahead, src/io/prefetch.hpp):
#     T_zst(N) = max(D, S_zst + P_zst / N),   D = `zstd -d` CPU time per decoded byte,
# and the throughput is given relative to `zstd -d -c > /dev/null` on the same file:
# D / T_zst(16) (1.0: as fast as decompressing alone). When the read stage does the decoding
# itself (no read-ahead), S_zst holds it and the same formula applies.
# Amdahl's formula is pessimistic for a pipeline: the serial stages work on the next and the
# last batches while the workers convert, so the time per byte is rather bounded by the
# slowest serial stage and by all the work shared by the cores:
#     T_pipe(N) = max(read, write, D, (read + convert + write + D) / N)   (D = 0 for plain)
# (README, Performance, sets both predictions beside what a 16-core machine measured.) Both
# are printed, with the measured -jN of this machine next to them; the two lines
# `predicted ... at 16 threads` are Amdahl's.
# Everything is printed to stdout; inputs live in $BENCH_DIR (default /dev/shm when it
# exists) and are removed at the end. Needs the built pgn-iccf and zstd, nothing else.
# Takes about a minute on 2 cores at 100 MB; SIZE_MB 50 halves it.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
size_mb=${2:-100}
rounds=${3:-3}
bin=$build/bin/pgn-iccf
[ -x "$bin" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
command -v zstd >/dev/null || { echo "zstd is needed (apt-get install zstd)" >&2; exit 2; }
cores=$(nproc)

base=${BENCH_DIR:-$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp)}
tmp=$(mktemp -d "$base/pgn-iccf-scaling.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The mixed bench, as tests/bench/convert_speed.sh builds it.
declare -A sources=(
  [master]="data/corpus/twic-01-232games.pgn data/corpus/chessjs-benchmark.pgn data/corpus/32games.pgn"
  [lichess]="data/corpus/lichess_db_standard_rated_2021-10_first999.pgn data/corpus/lichess_mliebelt_2024-01-03.pgn"
  [annotated]="data/corpus/variations.pgn data/edge/iecg-correspondence-variations.pgn data/edge/comment-before-first-move.pgn data/golden/games.pgn"
)
for s in master lichess annotated; do
  : > "$tmp/$s.unit"
  for f in ${sources[$s]}; do
    [ -f "$here/$f" ] || { echo "missing $f" >&2; exit 2; }
    cat "$here/$f" >> "$tmp/$s.unit"; printf '\n' >> "$tmp/$s.unit"
  done
  : > "$tmp/$s.pgn"
  while [ "$(stat -c %s "$tmp/$s.pgn")" -lt $((size_mb * 1000000 / 3)) ]; do
    cat "$tmp/$s.unit" "$tmp/$s.unit" "$tmp/$s.unit" "$tmp/$s.unit" >> "$tmp/$s.pgn"
  done
done
cat "$tmp/master.pgn" "$tmp/lichess.pgn" "$tmp/annotated.pgn" > "$tmp/mixed.pgn"
rm -f "$tmp"/*.unit "$tmp/master.pgn" "$tmp/lichess.pgn" "$tmp/annotated.pgn"
zstd -q -3 -T0 -c "$tmp/mixed.pgn" > "$tmp/mixed.pgn.zst"
bytes=$(stat -c %s "$tmp/mixed.pgn")
zbytes=$(stat -c %s "$tmp/mixed.pgn.zst")
echo "machine: $cores cores ($(uname -m)); $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || true)"
echo "pgn-iccf: $bin ($("$bin" --version 2>/dev/null | head -1 || true))"
awk -v b="$bytes" -v z="$zbytes" 'BEGIN {
  printf "input: the mixed bench of data/, %.1f MB plain, %.1f MB as .zst (zstd -3)\n", b/1e6, z/1e6 }'

# timed OUT CMD...: runs CMD (stdout to /dev/null, stderr to $tmp/err) and writes
# "wall user sys" to OUT; an exit status above 1 (1: games rejected) stops the script.
timed() {
  local out=$1; shift
  local TIMEFORMAT='%R %U %S'
  { time "$@" > /dev/null 2> "$tmp/err"; } 2> "$out" || {
    st=$?; [ $st -le 1 ] || { cat "$tmp/err" >&2; exit 2; }; }
}
# best FILE: the line with the smallest first field.
best() { sort -n "$1" | head -1; }

# 1. zstd -d alone.
: > "$tmp/zstd"
for ((r = 0; r < rounds; r++)); do
  timed "$tmp/t" zstd -d -q -c "$tmp/mixed.pgn.zst"
  awk '{print $2 + $3, $1}' "$tmp/t" >> "$tmp/zstd"
done
read -r zstd_cpu zstd_wall < <(best "$tmp/zstd")

# 2. The stages alone: -j1 with PGN_ICCF_STAGE_TIMES; the run with the least CPU time.
# stages FILE KEY: "read convert write rest" seconds (rest: process CPU time outside them).
stages() {
  : > "$tmp/$2.stages"
  for ((r = 0; r < rounds; r++)); do
    PGN_ICCF_STAGE_TIMES=1 timed "$tmp/t" "$bin" -q -j1 -o - "$1"
    local line
    line=$(grep 'stage times:' "$tmp/err") || {
      echo "$bin prints no stage times (PGN_ICCF_STAGE_TIMES): too old" >&2; exit 2; }
    # The numbering stage (serial) is counted with the writing.
    echo "$line" |
      sed -E 's/.*read ([0-9.]+) s, convert ([0-9.]+) s, write ([0-9.]+) s(, number ([0-9.]+) s)?.*/\1 \2 \3 \5/' |
      awk '{printf "%s %s %.6f\n", $1, $2, $3 + ($4 == "" ? 0 : $4)}' |
      paste -d' ' - "$tmp/t" |
      awk '{cpu = $5 + $6; printf "%.6f %s %s %s %.6f\n", cpu, $1, $2, $3, cpu - $1 - $2 - $3}' \
      >> "$tmp/$2.stages"
  done
  best "$tmp/$2.stages" | cut -d' ' -f2-
}
read -r p_read p_conv p_write p_rest < <(stages "$tmp/mixed.pgn" plain)
read -r z_read z_conv z_write z_rest < <(stages "$tmp/mixed.pgn.zst" zst)

echo
echo "stages alone (-j1, thread CPU time; ns per input byte, decoded bytes for .zst):"
awk -v b="$bytes" -v pr="$p_read" -v pc="$p_conv" -v pw="$p_write" -v px="$p_rest" \
    -v zr="$z_read" -v zc="$z_conv" -v zw="$z_write" -v zx="$z_rest" \
    -v dc="$zstd_cpu" -v dw="$zstd_wall" 'BEGIN {
  n = 1e9 / b
  printf "  %-34s %8s %8s\n", "", "plain", ".zst"
  printf "  %-34s %8.3f %8.3f\n", "read (reading + cutting)", pr*n, zr*n
  printf "  %-34s %8.3f %8.3f\n", "convert (one worker)", pc*n, zc*n
  printf "  %-34s %8.3f %8.3f\n", "write (and numbering)", pw*n, zw*n
  printf "  %-34s %8.3f %8.3f\n", "rest of the CPU time (decoding...)", px*n, zx*n
  printf "  zstd -d alone: %.3f ns per decoded byte of CPU, %.2f s wall (%.0f MB/s)\n", dc*n, dw, b/dw/1e6
}'

# 2b. A tree of small files (directory mode): the mixed bench cut into files of about 25 KB
# (split -C 25000), converted into a folder at -j4 (the thread count from which the next
# small inputs are opened ahead on the workers), the run with the least CPU time. Serial:
# read + write (+ numbering); parallel: the rest of the process's CPU time (converting,
# writing each output file, and opening the inputs ahead).
mkdir "$tmp/tree"
split -C 25000 -d -a 6 --additional-suffix=.pgn "$tmp/mixed.pgn" "$tmp/tree/part"
tree_files=$(find "$tmp/tree" -type f | wc -l)
: > "$tmp/tree.stages"
for ((r = 0; r < rounds; r++)); do
  rm -rf "$tmp/tree-out"
  PGN_ICCF_STAGE_TIMES=1 timed "$tmp/t" "$bin" -q -j4 -o "$tmp/tree-out" "$tmp/tree"
  grep 'stage times:' "$tmp/err" |
    sed -E 's/.*read ([0-9.]+) s, convert ([0-9.]+) s, write ([0-9.]+) s(, number ([0-9.]+) s)?.*/\1 \3 \5/' |
    paste -d' ' - "$tmp/t" |
    awk '{cpu = $5 + $6; printf "%.6f %s %.6f\n", cpu, $1, $2 + ($3 == "" ? 0 : $3)}' >> "$tmp/tree.stages"
done
rm -rf "$tmp/tree-out"
read -r t_cpu t_read t_write < <(best "$tmp/tree.stages")
echo
awk -v n="$tree_files" -v cpu="$t_cpu" -v r="$t_read" -v w="$t_write" 'BEGIN {
  S = r + w; P = cpu - S
  printf "tree of %d files of about 25 KB (-j4, CPU time per file): read %.1f us, write %.1f us, the rest %.1f us\n",
         n, r / n * 1e6, w / n * 1e6, P / n * 1e6
  t16 = S + P / 16; pipe = cpu / 16; if (r > pipe) pipe = r; if (w > pipe) pipe = w
  printf "  tree: Amdahl at 16 threads %.2fx, pipeline bound at 16 threads %.2fx\n", cpu / t16, cpu / pipe
}'
rm -rf "$tmp/tree"

# 3. Measured -jN, wall time, best of ROUNDS.
echo
echo "measured (wall time, best of $rounds; .zst: to /dev/null, relative to zstd -d alone):"
printf '  %4s %9s %9s %9s   %9s %9s %9s\n' -jN "plain s" "MB/s" speed-up ".zst s" "MB/s" "of zstd -d"
for ((n = 1; n <= cores; n++)); do
  : > "$tmp/p$n"; : > "$tmp/z$n"
  for ((r = 0; r < rounds; r++)); do
    timed "$tmp/t" "$bin" -q -j$n -o - "$tmp/mixed.pgn"; cat "$tmp/t" >> "$tmp/p$n"
    timed "$tmp/t" "$bin" -q -j$n -o - "$tmp/mixed.pgn.zst"; cat "$tmp/t" >> "$tmp/z$n"
  done
  read -r pw _ < <(best "$tmp/p$n")
  read -r zw _ < <(best "$tmp/z$n")
  [ "$n" = 1 ] && p1=$pw
  awk -v n="$n" -v b="$bytes" -v pw="$pw" -v zw="$zw" -v p1="$p1" -v dw="$zstd_wall" 'BEGIN {
    printf "  %4d %9.3f %9.1f %8.2fx   %9.3f %9.1f %9.2f\n", n, pw, b/pw/1e6, p1/pw, zw, b/zw/1e6, dw/zw }'
  if [ "$n" = "$cores" ]; then last_p=$pw; last_z=$zw; fi
done

# 4. The model.
echo
awk -v pr="$p_read" -v pc="$p_conv" -v pw="$p_write" -v zr="$z_read" -v zc="$z_conv" \
    -v zw="$z_write" -v dc="$zstd_cpu" -v dw="$zstd_wall" -v cores="$cores" \
    -v p1="$p1" -v lp="$last_p" -v lz="$last_z" 'BEGIN {
  S = pr + pw; P = pc
  Sz = zr + zw; Pz = zc
  t = S + P / cores
  tz = Sz + Pz / cores; if (dc > tz) tz = dc
  printf "model: S = read + write, P = convert; speed-up(N) = (S + P) / (S + P / N)\n"
  printf "  plain: S = %.1f%% of the -j1 stage time, P = %.1f%%; limit as N grows: %.1fx\n",
         100 * S / (S + P), 100 * P / (S + P), (S + P) / S
  printf "  .zst: T(N) = max(D, S + P / N), D = zstd -d CPU time\n"
  printf "  Amdahl at -j%d (this machine): predicted %.2fx, measured %.2fx; .zst predicted %.2f, measured %.2f of zstd -d\n",
         cores, (S + P) / t, p1 / lp, dc / tz, dw / lz
  # The pipeline bound: the slowest serial stage, or all the work over the cores.
  pipe = (pr + pc + pw) / cores; if (pr > pipe) pipe = pr; if (pw > pipe) pipe = pw
  pipez = (zr + zc + zw + dc) / cores
  if (zr > pipez) pipez = zr; if (zw > pipez) pipez = zw; if (dc > pipez) pipez = dc
  printf "  pipeline bound at -j%d: predicted %.2fx, .zst %.2f of zstd -d\n",
         cores, (S + P) / pipe, dc / pipez
  pipe = (pr + pc + pw) / 16; if (pr > pipe) pipe = pr; if (pw > pipe) pipe = pw
  pipez = (zr + zc + zw + dc) / 16
  if (zr > pipez) pipez = zr; if (zw > pipez) pipez = zw; if (dc > pipez) pipez = dc
  printf "  pipeline bound at 16 threads: speed-up %.2f, .zst throughput %.2f of zstd -d\n",
         (S + P) / pipe, dc / pipez
  t16 = S + P / 16
  tz16 = Sz + Pz / 16; if (dc > tz16) tz16 = dc
  printf "predicted speed-up at 16 threads: %.2f\n", (S + P) / t16
  printf "predicted .zst throughput at 16 threads: %.2f of zstd -d\n", dc / tz16
}'
