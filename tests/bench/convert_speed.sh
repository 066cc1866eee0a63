#!/usr/bin/env bash
# Benchmark of the main job (not a test): pgn-iccf SAN -> numeric and numeric -> SAN against
# pgn-extract's SAN rewrite (pgn-extract -s -o /dev/null) on the same input, one core each,
# alternating, several rounds; prints median MB/s, games/s, peak RSS and the ratios.
#
#   tests/bench/convert_speed.sh [BUILD_DIR] [SIZE_MB] [ROUNDS]
#
# The input is built by repeating the real games of data/ (master games from TWIC, lichess
# games with clock and eval comments, annotated correspondence games) up to SIZE_MB.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
size_mb=${2:-100}
rounds=${3:-3}
bin=$build/bin/pgn-iccf
[ -x "$bin" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || apt-get install -y time >/dev/null
pe=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$pe" ] || { apt-get install -y pgn-extract >/dev/null; pe=/usr/games/pgn-extract; }

tmp=$(mktemp -d /tmp/pgn-iccf-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
shapes=(
  "$here/data/corpus/twic-01-232games.pgn"
  "$here/data/corpus/chessjs-benchmark.pgn"
  "$here/data/corpus/lichess_db_standard_rated_2021-10_first999.pgn"
  "$here/data/corpus/variations.pgn"
  "$here/data/corpus/lichess_db_2017-01_correspondence.pgn"
)
unit="$tmp/unit.pgn"
: > "$unit"
for f in "${shapes[@]}"; do
  [ -f "$f" ] || { echo "missing $f" >&2; exit 2; }
  cat "$f" >> "$unit"; printf '\n' >> "$unit"
done
in="$tmp/in.san.pgn"
: > "$in"
while [ "$(stat -c %s "$in")" -lt $((size_mb * 1000000)) ]; do cat "$unit" >> "$in"; done
"$bin" -q -o "$tmp/in.num.pgn" "$in"
bytes=$(stat -c %s "$in")
games=$(grep -c '^\[Event ' "$in")
echo "input: $((bytes / 1000000)) MB, $games games (SAN); numeric copy $(( $(stat -c %s "$tmp/in.num.pgn") / 1000000 )) MB"

# run NAME CMD...: appends "cpu_seconds rss_kib wall_seconds" to $tmp/NAME. CPU time
# (user + system) is what is compared: on a shared machine it varies far less than wall time.
run() {
  local name=$1; shift
  /usr/bin/time -f "%U %S %M %e" -o "$tmp/t" taskset -c 0 "$@" >/dev/null 2>"$tmp/err" || {
    st=$?; [ $st -le 1 ] || { cat "$tmp/err" >&2; exit 2; }; }
  awk '{printf "%.2f %d %.2f\n", $1 + $2, $3, $4}' "$tmp/t" >> "$tmp/$name"
}
for ((r = 1; r <= rounds; r++)); do
  run ours_num "$bin" -q -j1 -o /dev/null "$in"
  run pgnx "$pe" -s -o /dev/null "$in"
  run ours_san "$bin" -q -j1 -t san -o /dev/null "$tmp/in.num.pgn"
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
report() {
  local name=$1 label=$2 file_bytes=$3
  local secs rss
  secs=$(awk '{print $1}' "$tmp/$name" | median)
  wall=$(awk '{print $3}' "$tmp/$name" | median)
  rss=$(awk '{print $2}' "$tmp/$name" | sort -n | tail -1)
  awk -v l="$label" -v s="$secs" -v w="$wall" -v b="$file_bytes" -v g="$games" -v r="$rss" 'BEGIN {
    printf "%-30s %6.2f s cpu (%5.2f s wall) %7.1f MB/s %8.0f games/s  peak RSS %5.1f MiB\n", l, s, w, b/1e6/s, g/s, r/1024 }'
  echo "$secs" > "$tmp/$name.median"
}
echo "median of $rounds rounds, one core (taskset -c 0); MB/s and games/s per CPU second:"
report ours_num "pgn-iccf SAN -> numeric" "$bytes"
report ours_san "pgn-iccf numeric -> SAN" "$(stat -c %s "$tmp/in.num.pgn")"
report pgnx "pgn-extract -s (SAN rewrite)" "$bytes"
awk -v a="$(cat "$tmp/pgnx.median")" -v b="$(cat "$tmp/ours_num.median")" -v c="$(cat "$tmp/ours_san.median")" 'BEGIN {
  printf "ratio SAN -> numeric / pgn-extract: %.1fx (target >= 8)\n", a/b
  printf "ratio numeric -> SAN / pgn-extract: %.1fx (target >= 5)\n", a/c }'
