#!/usr/bin/env bash
# Benchmark of archive-scale work (not a test): pgn-iccf SAN -> numeric with one and with two
# worker threads (-j1, -j2) on plain, gzip and zstd input, each written with the same
# compression (the tool's default level), alternating -j1 and -j2, several rounds; prints the
# median wall-clock MB/s (of decompressed PGN) and games/s, the -j2/-j1 speed-up, the peak
# RSS, and the targets. It also checks once that -j1 and -j2 write the same games.
#
#   tests/bench/archive_speed.sh [BUILD_DIR] [SIZE_MB] [ROUNDS]
#
# The input is built like convert_speed.sh's: the real games of data/ (master games from TWIC,
# lichess games with clock and eval comments, annotated correspondence games) repeated up to
# SIZE_MB (default 200), plus a gzip -6 and a zstd -3 copy. Wall time is what is compared (the
# point is the speed-up from a second core): run it on an otherwise idle machine. The outputs
# go to a RAM-backed folder (OUT_DIR, default /dev/shm where it exists): written to disk, 200 MB
# of plain output per run soon reaches the kernel's dirty-page limit, and the writer then waits
# for the disk, which measures the disk, not pgn-iccf (on this machine it made the plain -j2
# figure vary widely between rounds).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
size_mb=${2:-200}
rounds=${3:-3}
bin=$build/bin/pgn-iccf
[ -x "$bin" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
"$bin" --help | grep -q -- '--jobs' ||
  { echo "$bin has no -j/--jobs: build the current sources" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || apt-get install -y time >/dev/null
command -v zstd >/dev/null || apt-get install -y zstd >/dev/null
[ "$(nproc)" -ge 2 ] || echo "warning: $(nproc) core(s): -j2 cannot be faster than -j1" >&2

tmp=$(mktemp -d /tmp/pgn-iccf-archive-bench.XXXXXX)
out_root=${OUT_DIR:-/dev/shm}
if [ -d "$out_root" ] && [ -w "$out_root" ] &&
   [ "$(df -Pk "$out_root" | awk 'NR == 2 {print $4}')" -gt $((size_mb * 3 * 1000)) ]; then
  out=$(mktemp -d "$out_root/pgn-iccf-archive-bench.XXXXXX")
else
  out=$tmp
fi
trap 'rm -rf "$tmp" "$out"' EXIT
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
in="$tmp/in.pgn"
: > "$in"
while [ "$(stat -c %s "$in")" -lt $((size_mb * 1000000)) ]; do cat "$unit" >> "$in"; done
gzip -6 -c "$in" > "$in.gz"
zstd -3 -q -c "$in" > "$in.zst"
bytes=$(stat -c %s "$in")
games=$(grep -c '^\[Event ' "$in")
echo "outputs written to $out"
awk -v n="$bytes" -v g="$games" -v z="$(stat -c %s "$in.gz")" -v s="$(stat -c %s "$in.zst")" \
  'BEGIN {printf "input: %.1f MB, %d games (SAN); gzip -6 %.1f MB, zstd -3 %.1f MB\n",
    n/1e6, g, z/1e6, s/1e6}'

kinds=(plain gz zst)
declare -A ext=([plain]="" [gz]=".gz" [zst]=".zst")
declare -A label=([plain]="plain .pgn" [gz]=".pgn.gz" [zst]=".pgn.zst")

# run KIND J: converts the KIND input with -jJ into $tmp/out-jJ.pgn[.gz|.zst] and appends
# "wall_seconds rss_kib" to $tmp/KIND.jJ. Wall time from date (nanoseconds), peak RSS from
# /usr/bin/time.
run() {
  local kind=$1 j=$2 e=${ext[$1]} t0 t1 st=0
  t0=$(date +%s%N)
  /usr/bin/time -f "%M" -o "$tmp/rss" "$bin" -q -j"$j" -o "$out/out-j$j.pgn$e" "$in$e" \
    2>"$tmp/err" || st=$?
  t1=$(date +%s%N)
  [ "$st" -le 1 ] || { cat "$tmp/err" >&2; exit 2; }
  echo "$(( t1 - t0 )) $(tail -1 "$tmp/rss")" |
    awk '{printf "%.4f %d\n", $1 / 1e9, $2}' >> "$tmp/$kind.j$j"
}
# decoded FILE: the PGN text of an output, whatever its compression.
decoded() {
  case $1 in
    *.gz) gzip -dc "$1" ;;
    *.zst) zstd -dcq "$1" ;;
    *) cat "$1" ;;
  esac
}

same=yes
for ((r = 1; r <= rounds; r++)); do
  for kind in "${kinds[@]}"; do
    # -j1 first in odd rounds, -j2 first in even ones: drift on a shared machine cancels out.
    if ((r % 2)); then run "$kind" 1; run "$kind" 2; else run "$kind" 2; run "$kind" 1; fi
    if ((r == 1)); then
      e=${ext[$kind]}
      [ "$kind" = plain ] && cp "$out/out-j1.pgn" "$tmp/reference.pgn"
      for j in 1 2; do
        cmp -s <(decoded "$out/out-j$j.pgn$e") "$tmp/reference.pgn" ||
          { echo "DIFFERENT: ${label[$kind]} -j$j output differs from plain -j1" >&2; same=no; }
      done
    fi
  done
done
if [ "$same" = yes ]; then
  echo "outputs: -j1 and -j2 identical for every kind (compressed ones after decompression)"
fi

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf "median of %d rounds, wall clock; MB/s of decompressed PGN:\n" "$rounds"
printf "%-11s %9s %10s %9s %10s %8s %9s %9s\n" input "MB/s -j1" "games/s" "MB/s -j2" "games/s" \
  "-j2/-j1" "RSS -j1" "RSS -j2"
declare -A ratio
max_rss=0
for kind in "${kinds[@]}"; do
  w1=$(awk '{print $1}' "$tmp/$kind.j1" | median)
  w2=$(awk '{print $1}' "$tmp/$kind.j2" | median)
  r1=$(awk '{print $2}' "$tmp/$kind.j1" | sort -n | tail -1)
  r2=$(awk '{print $2}' "$tmp/$kind.j2" | sort -n | tail -1)
  max_rss=$(printf '%s\n' "$max_rss" "$r1" "$r2" | sort -n | tail -1)
  ratio[$kind]=$(awk -v a="$w1" -v b="$w2" 'BEGIN {printf "%.2f", a / b}')
  awk -v l="${label[$kind]}" -v a="$w1" -v b="$w2" -v n="$bytes" -v g="$games" -v r1="$r1" \
    -v r2="$r2" -v x="${ratio[$kind]}" 'BEGIN {
    printf "%-11s %9.1f %10.0f %9.1f %10.0f %7.2fx %5.1f MiB %5.1f MiB\n",
      l, n/1e6/a, g/a, n/1e6/b, g/b, x, r1/1024, r2/1024 }'
done
echo "wall seconds per run (min / median / max), -j1 and -j2:"
for kind in "${kinds[@]}"; do
  for j in 1 2; do
    awk '{print $1}' "$tmp/$kind.j$j" | sort -n |
      awk -v l="${label[$kind]}" -v j="$j" '{a[NR]=$1} END {
        printf "  %-11s -j%d  %.3f / %.3f / %.3f\n", l, j, a[1], a[int((NR+1)/2)], a[NR] }'
  done
done
verdict() { awk -v v="$1" -v t="$2" -v ge="$3" 'BEGIN {
  print ((ge == "ge" ? v >= t : v <= t) ? "met" : "MISSED") }'; }
rss_mib=$(awk -v r="$max_rss" 'BEGIN {printf "%.1f", r/1024}')
echo "targets: -j2/-j1 >= 1.85x on plain: ${ratio[plain]}x $(verdict "${ratio[plain]}" 1.85 ge);" \
  ">= 1.70x with .zst in and out: ${ratio[zst]}x $(verdict "${ratio[zst]}" 1.70 ge);" \
  "peak RSS <= 64 MiB: $rss_mib MiB $(verdict "$rss_mib" 64 le)"
[ "$same" = yes ] || exit 1
