#!/usr/bin/env bash
# Speed of the WebAssembly build against the native one (issue I: the page must convert at
# least 40% as fast as pgn-iccf -j1). Not a test. Both convert the same input, SAN -> numeric
# and numeric -> SAN, on one thread, several rounds alternating; prints the median MB/s of
# each, and the ratio; exit status 1 if a ratio is under 40%.
#
#   tests/bench/web_speed.sh [BUILD_DIR] [SIZE_MB] [ROUNDS]
#
# BUILD_DIR (default build) holds bin/pgn-iccf and web/ (src/web/build.sh BUILD_DIR/web, built
# here if missing); SIZE_MB (default 50) of real games from data/corpus (master games, lichess
# games with clock comments, annotated games). The module runs in Node (conversion time only:
# the input already in memory, as in the page's worker; the native time is the whole run).
set -euo pipefail
command -v /usr/bin/time >/dev/null || apt-get install -y time >/dev/null
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
size_mb=${2:-50}
rounds=${3:-5}
bin=$build/bin/pgn-iccf
[ -x "$bin" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 2; }
[ -f "$build/web/pgn-iccf.mjs" ] || "$here/src/web/build.sh" "$build/web" >&2

base=${BENCH_DIR:-$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp)}
tmp=$(mktemp -d "$base/pgn-iccf-web-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/unit.pgn"
for f in twic-01-232games.pgn chessjs-benchmark.pgn lichess_db_standard_rated_2021-10_first999.pgn \
         variations.pgn lichess_db_2017-01_correspondence.pgn; do
  cat "$here/data/corpus/$f" >>"$tmp/unit.pgn"; printf '\n' >>"$tmp/unit.pgn"
done
: >"$tmp/san.pgn"
while [ "$(stat -c %s "$tmp/san.pgn")" -lt $((size_mb * 1000000)) ]; do
  cat "$tmp/unit.pgn" >>"$tmp/san.pgn"
done
"$bin" -q -j1 -t numeric -o "$tmp/numeric.pgn" "$tmp/san.pgn" || true
bytes_san=$(stat -c %s "$tmp/san.pgn")
bytes_num=$(stat -c %s "$tmp/numeric.pgn")

cat >"$tmp/wasm.mjs" <<'JS'
import fs from 'node:fs';
const [mod, file, to] = process.argv.slice(2);
const m = await (await import(mod)).default();
const bytes = new Uint8Array(fs.readFileSync(file));
// Warm-up on the first 4 MB: the engine compiles the hot functions optimised once they are
// called (as a page's worker is after its first conversions).
m.convert(bytes.subarray(0, 4e6), { to });
const c0 = process.cpuUsage();
const r = m.convert(bytes, { to });
const c = process.cpuUsage(c0);
console.log(`${(c.user + c.system) / 1e6} ${r.summary.read} ${r.output.length}`);
JS

native() { # FILE TO -> CPU seconds (user + system), the whole run
  /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" -q -j1 -t "$2" -o /dev/null "$1" || true
  awk '{print $1 + $2}' "$tmp/time"
}
wasm() { node "$tmp/wasm.mjs" "file://$build/web/pgn-iccf.mjs" "$1" "$2" | cut -d' ' -f1; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

status=0
for job in "san numeric $bytes_san" "numeric san $bytes_num"; do
  set -- $job
  input=$tmp/$1.pgn to=$2 size=$3
  : >"$tmp/n.times"; : >"$tmp/w.times"
  for _ in $(seq "$rounds"); do
    native "$input" "$to" >>"$tmp/n.times"
    wasm "$input" "$to" >>"$tmp/w.times"
  done
  n=$(median <"$tmp/n.times"); w=$(median <"$tmp/w.times")
  nm=$(echo "$size / 1000000 / $n" | bc -l); wm=$(echo "$size / 1000000 / $w" | bc -l)
  ratio=$(echo "100 * $wm / $nm" | bc -l)
  printf '%-8s -> %-8s %6.1f MB: native -j1 %6.1f MB/s, WebAssembly (Node %s) %6.1f MB/s: %3.0f%% of native\n' \
    "$1" "$to" "$(echo "$size / 1000000" | bc -l)" "$nm" "$(node --version)" "$wm" "$ratio"
  if [ "$(echo "$ratio < 40" | bc -l)" = 1 ]; then status=1; fi
done
[ $status = 0 ] && echo "web_speed: the WebAssembly build is at least 40% of native -j1" ||
  echo "web_speed: under 40% of native -j1"
exit $status
