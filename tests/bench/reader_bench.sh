#!/usr/bin/env bash
# Benchmark of the PGN reader alone (not a test): builds 100 MB and 400 MB inputs under /tmp by
# repeating real files, runs reader_bench (GameReader + parse_game, counting visitor) on each
# and prints MB/s, games/s, peak RSS and the RSS ratio 400 MB / 100 MB (memory must not grow
# with the input: the ratio should be within 1.10).
#
#   tests/bench/reader_bench.sh [BUILD_DIR] [ROUNDS]
#
# BUILD_DIR must be configured with -DPGN_ICCF_BUILD_BENCH=ON (target reader_bench).
# Shapes: "master" = data/corpus/twic-01-232games.pgn (TWIC master games); "famous" =
# ../shared/data/corpus/famous_games.pgn (annotated master games, CRLF; only if present, it is
# read in place and never copied); "mixed" = every file of data/corpus (lichess games with
# clock/eval comments dominate).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
rounds=${2:-3}
bin=$build/bin/reader_bench
[ -x "$bin" ] || { echo "build first: cmake -S . -B build -DPGN_ICCF_BUILD_BENCH=ON && cmake --build build --target reader_bench" >&2; exit 2; }

tmp=$(mktemp -d /tmp/reader-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# make_input OUT MB FILE...: concatenates FILE... repeatedly until OUT holds at least MB*10^6 bytes.
make_input() {
  local out=$1 mb=$2; shift 2
  cat "$@" > "$tmp/unit"
  local unit_size; unit_size=$(stat -c %s "$tmp/unit")
  local n=$(( (mb * 1000000 + unit_size - 1) / unit_size ))
  : > "$out"
  for ((i = 0; i < n; ++i)); do cat "$tmp/unit"; done >> "$out"
}

# best_of FILE: runs reader_bench ROUNDS times, prints the run with the highest wall MB/s.
best_of() {
  local best="" best_rate=0
  for ((r = 0; r < rounds; ++r)); do
    local out; out=$("$bin" "$1" | tail -1)
    local rate; rate=$(echo "$out" | awk '{print $4}')
    if awk -v a="$rate" -v b="$best_rate" 'BEGIN{exit !(a > b)}'; then best=$out; best_rate=$rate; fi
  done
  echo "$best"
}

declare -A shapes
shapes[master]="$here/data/corpus/twic-01-232games.pgn"
famous="$here/../shared/data/corpus/famous_games.pgn"
[ -f "$famous" ] && shapes[famous]="$famous"
shapes[mixed]="$(ls "$here"/data/corpus/*.pgn | tr '\n' ' ')"

echo "reader_bench: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), best of $rounds"
for shape in master famous mixed; do
  [ -n "${shapes[$shape]:-}" ] || continue
  declare -A rss=()
  for mb in 100 400; do
    f="$tmp/$shape-$mb.pgn"
    # shellcheck disable=SC2086
    make_input "$f" "$mb" ${shapes[$shape]}
    line=$(best_of "$f")
    printf '%-7s %4d MB  %s\n' "$shape" "$mb" "$line"
    rss[$mb]=$(echo "$line" | sed -E 's/.*peak RSS ([0-9]+) KiB.*/\1/')
    rm -f "$f"
  done
  awk -v a="${rss[400]}" -v b="${rss[100]}" -v s="$shape" \
    'BEGIN{printf "%-7s RSS 400 MB / 100 MB = %d / %d KiB = %.3f %s\n", s, a, b, a / b, (a / b <= 1.10 ? "(constant memory: ok)" : "(GROWS)")}'
done
