#!/usr/bin/env bash
# Stress run (not a test; minutes): streams about 5 GB of PGN, made of copies of data/corpus,
# through standard input of the built pgn-iccf, once converting (-j2 -o /dev/null) and once
# checking (--check -j2), and prints for each the peak resident memory (/usr/bin/time -f %M),
# the time, the exit status and the counts of the summary, next to the counts expected from
# one copy times the number of copies. Memory must not grow with the input (README: bounded
# by the batches in flight).
#
#   tests/stress/stream_5gb.sh [BUILD_DIR [GIGABYTES]]     (defaults: build 5)
#
# Needs /usr/bin/time (Debian package time). -q is not used so that the summary line is
# printed; standard error (diagnostics of the corpus's broken games, once per copy) goes to a
# temporary file of which only the summary is shown.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
gigabytes=${2:-5}
bin=$build/bin/pgn-iccf
[[ -x $bin ]] || { echo "no $bin: build it first (cmake --build $build --target pgn-iccf)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One copy of the corpus (a line end after each file, so that copies join cleanly), then a
# block of 64 copies, repeated.
for f in data/corpus/*.pgn; do cat "$f"; printf '\n'; done > "$tmp/one.pgn"
one=$(stat -c %s "$tmp/one.pgn")
for ((i = 0; i < 64; i++)); do cat "$tmp/one.pgn"; done > "$tmp/block.pgn"
blocks=$(((gigabytes * 1000000000 + 64 * one - 1) / (64 * one)))
copies=$((blocks * 64))
total=$((copies * one))
stream() { for ((i = 0; i < blocks; i++)); do cat "$tmp/block.pgn"; done; }

# The counts of one copy: "N games read: C converted, R rejected, K kept broken; M moves; ..."
summary_of() { grep '^pgn-iccf: .* games\? read' "$1" | tail -n 1; }
"$bin" --check -j1 "$tmp/one.pgn" 2> "$tmp/one.err" || true
read -r g c r k m < <(summary_of "$tmp/one.err" |
    sed -E 's/^pgn-iccf: ([0-9]+) games? read: ([0-9]+) converted, ([0-9]+) rejected, ([0-9]+) kept broken; ([0-9]+) moves.*/\1 \2 \3 \4 \5/')
echo "input: $copies copies of data/corpus ($one bytes each), $total bytes"
echo "expected: $((g * copies)) games read: $((c * copies)) converted, $((r * copies)) rejected, $((k * copies)) kept broken; $((m * copies)) moves"

run() {
    local name=$1
    shift
    local status=0
    stream | /usr/bin/time -f '%M %e' -o "$tmp/time" "$bin" "$@" 2> "$tmp/err" || status=$?
    read -r rss seconds < <(tail -n 1 "$tmp/time") # after "Command exited with ..."
    echo "$name: exit status $status, peak RSS $((rss / 1024)) MiB ($rss KiB), $seconds s," \
        "$(awk -v b="$total" -v s="$seconds" 'BEGIN { printf "%.0f MB/s", b / s / 1e6 }')"
    echo "  $(summary_of "$tmp/err")"
}
run "convert (-j2 -o /dev/null)" -j2 -o /dev/null -
run "check (--check -j2)" --check -j2 -
