#!/bin/sh
# Builds the browser page of pgn-iccf into OUTDIR: index.html, its script, worker and style,
# and pgn-iccf.mjs, the converter compiled to WebAssembly (the wasm embedded: -sSINGLE_FILE,
# so that the page works from file:// and Node loads it without fetch).
#
#   src/web/build.sh OUTDIR
#
# The module runs in Node too (ENVIRONMENT=web,worker: emscripten 3.1.6's Node support uses
# __dirname, which an ES module has not; with SINGLE_FILE it needs none of it).
#
# Needs emscripten (Debian: apt-get install emscripten, 3.1.6 tested) and the Boost headers
# (libboost-dev). Objects are kept in OUTDIR.obj next to OUTDIR, so a second build only
# compiles what changed. JOBS (default 2) compiles in parallel.
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
obj="$out.obj"
mkdir -p "$obj/include"

command -v em++ >/dev/null 2>&1 || {
    echo "$0: em++ not found: install emscripten (Debian: apt-get install emscripten)" >&2
    exit 1
}
# Debian's emscripten runs its JS optimizer under node, which needs node-acorn from here.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
# Emscripten's cache (the system libraries it builds once) in a writable place when the
# packaged one is not (a user without root).
if [ -z "${EM_CACHE:-}" ] && ! [ -w /usr/share/emscripten/cache ]; then
    export EM_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/pgn-iccf-emscripten"
fi

# Include folders: src, and grammar/ as "grammar/NAME.hpp" and Boost as "boost/..." from
# folders holding only them (never -I/usr/include: the host's C library headers would be
# taken instead of emscripten's).
boost=$(for d in /usr/include /usr/local/include; do [ -d "$d/boost/spirit/home/x3" ] && echo "$d" && break; done)
[ -n "$boost" ] || {
    echo "$0: Boost headers (boost/spirit/home/x3) not found: apt-get install libboost-dev" >&2
    exit 1
}
ln -sfn "$root/grammar" "$obj/include/grammar"
mkdir -p "$obj/boost"
ln -sfn "$boost/boost" "$obj/boost/boost"

# The library sources the conversion needs (no oneTBB, Program_options, file output or
# compression), and the binding.
sources="
grammar/pgn.cpp
grammar/parse.cpp
src/chess/attacks.cpp
src/chess/position.cpp
src/chess/fen.cpp
src/chess/movegen.cpp
src/notation/languages.cpp
src/notation/read.cpp
src/notation/write.cpp
src/notation/iccf.cpp
src/notation/letters.cpp
src/reader/window.cpp
src/reader/splitter.cpp
src/reader/tag_names.cpp
src/pgn/game_reader.cpp
src/pgn/writer.cpp
src/pgn/converter.cpp
src/pgn/replayer.cpp
src/pgn/tags.cpp
src/pgn/export.cpp
src/io/source.cpp
src/io/memory.cpp
src/report/terminal.cpp
src/report/codes.cpp
src/report/fold.cpp
src/report/line.cpp
src/report/settings.cpp
src/report/wording.cpp
src/batch/convert.cpp
src/report/report.cpp
src/web/binding.cpp
src/web/bulk_memory.cpp
"
cxxflags="-std=c++20 -O3 -DNDEBUG -fwasm-exceptions -msimd128 -msse2 -mbulk-memory -I$root/src -I$obj/include -isystem $obj/boost \
-Wall -Wextra -Wno-sign-conversion -fconstexpr-steps=2147483647"
objects=""
for s in $sources; do objects="$objects $obj/$(echo "$s" | tr / _).o"; done

# -mbulk-memory: copies and fills as the memory.copy and memory.fill instructions (and
# bulk_memory.cpp for the C library's memcpy, memmove and memset): SAN -> numeric runs faster
# (measured; see the commit). Emscripten 3.1.6's system libraries are built without it, and its
# linker then refuses the mix, naming thread-local storage (which a module without threads
# lowers to plain globals): -Wl,--no-check-features lets it link. Browsers have had bulk memory since 2020
# (Chrome 75, Firefox 79, Safari 15).
# The compile and link commands, kept in files that changes only when it does (the link depends on it).
linkflags="-O3 -fwasm-exceptions -Wl,--no-check-features --bind -sMODULARIZE -sEXPORT_ES6 -sEXPORT_NAME=PgnIccf \
-sALLOW_MEMORY_GROWTH -sMAXIMUM_MEMORY=2GB -sENVIRONMENT=web,worker -sFILESYSTEM=0 \
-sDYNAMIC_EXECUTION=0 -sEXIT_RUNTIME=0"
if [ "$(cat "$obj/link.flags" 2>/dev/null)" != "$linkflags" ]; then
    echo "$linkflags" >"$obj/link.flags"
fi
if [ "$(cat "$obj/compile.flags" 2>/dev/null)" != "$cxxflags" ]; then
    echo "$cxxflags" >"$obj/compile.flags"
fi
# A makefile, so that only what changed (a source or a header it includes) is compiled again.
{
    echo "all: $obj/glue.mjs"
    for s in $sources; do
        o="$obj/$(echo "$s" | tr / _).o"
        echo "$o: $root/$s $obj/compile.flags"
        printf '\tem++ %s -MMD -MP -c %s -o %s\n' "$cxxflags" "$root/$s" "$o"
        echo "-include ${o%.o}.d"
    done
    echo "$obj/glue.mjs: $objects $obj/link.flags"
    printf '\tem++ %s %s -o %s\n' "$linkflags" "$objects" "$obj/glue.mjs"
} >"$obj/Makefile"
make -s -f "$obj/Makefile" -j"${JOBS:-2}"

# The module, in two wrappings of the same code: emscripten's glue with the wasm embedded,
# gzip-compressed and base64-encoded (decompressed at start by DecompressionStream, which
# browsers and Node 18+ have), so that no file is fetched: the page works from file://.
#   pgn-iccf.mjs  an ES module (Node, and any page or worker that imports modules):
#                 export default async function (options) -> the module
#   pgn-iccf.js   a classic script defining PgnIccfSource(), which returns that function; the
#                 page loads it with <script> and starts its workers from its text (a blob),
#                 as Chrome loads neither module scripts nor workers from file://.
glue=$(cat "$obj/glue.mjs")
case $glue in
*"export default PgnIccf;"*) ;;
*) echo "$0: unexpected emscripten output (no 'export default PgnIccf;')" >&2; exit 1 ;;
esac
wasm64=$(gzip -9 -n -c "$obj/glue.wasm" | base64 -w0)
# The wasm is never fetched (wasmBinary is given): its URL only has to parse.
body=$(printf '%s\n' "$glue" | sed -e 's/^export default PgnIccf;$//' -e 's|import\.meta\.url|"file:///pgn-iccf/"|g')
loader='const pgnIccfWasm = "'"$wasm64"'";
// The wasm binary: base64, then gzip.
async function pgnIccfWasmBytes() {
  const packed = atob(pgnIccfWasm);
  const bytes = new Uint8Array(packed.length);
  for (let i = 0; i < packed.length; ++i) bytes[i] = packed.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
async function pgnIccfFactory(options = {}) {
  return PgnIccf({ ...options, wasmBinary: options.wasmBinary || (await pgnIccfWasmBytes()) });
}'
{
    echo "// pgn-iccf $(sed -n 's/^project(pgn-iccf VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt"): the converter compiled to WebAssembly (src/web/build.sh)."
    echo "// const m = await (await import('./pgn-iccf.mjs')).default(); m.convert(bytes, options)"
    printf '%s\n%s\n' "$body" "$loader"
    echo "export default pgnIccfFactory;"
} >"$out/pgn-iccf.mjs.tmp"
{
    echo "// pgn-iccf: the converter compiled to WebAssembly, as a classic script (src/web/build.sh)."
    echo "// PgnIccfSource() returns the factory of pgn-iccf.mjs; its text starts the page's workers."
    echo "function PgnIccfSource() {"
    printf '%s\n%s\n' "$body" "$loader"
    echo "return pgnIccfFactory;"
    echo "}"
} >"$out/pgn-iccf.js.tmp"
mv "$out/pgn-iccf.mjs.tmp" "$out/pgn-iccf.mjs"
mv "$out/pgn-iccf.js.tmp" "$out/pgn-iccf.js"

for f in index.html app.js worker.js style.css; do
    cp "$root/src/web/$f" "$out/$f"
done
echo "$0: built $out ($(du -sk "$out" | cut -f1) KiB)"
