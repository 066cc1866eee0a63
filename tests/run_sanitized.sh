#!/usr/bin/env bash
# The sanitizer and fuzzing half of the test command (README, Quick start; issue 9): builds
# the whole project in build-sanitize/ with clang, AddressSanitizer + UndefinedBehaviorSanitizer
# (-DPGN_ICCF_SANITIZE=ON), the portable code paths (-DPGN_ICCF_NATIVE=OFF) and the libFuzzer
# targets (-DPGN_ICCF_BUILD_FUZZ=ON), then runs the test suite there without the slow perft
# test: every Boost test, the CLI tests on the instrumented pgn-iccf, and each fuzz target
# for a fixed number of runs with a fixed seed over data/edge, data/sample, data/golden and
# data/hostile, plus data/compressed (label fuzz, about a minute and a half in all). The web
# tests (label web) are left out: the page they build does not use this build.
#
#   tests/run_sanitized.sh [BUILD_DIR]      (default build-sanitize)
#
# Then the vector paths that the portable build leaves out (the splitter's AVX2 or AVX-512BW
# movetext skip and the scanners, src/reader/split_scan.hpp, grammar/scan.hpp) get the same
# sanitizers: reader_test, grammar_test and the split fuzz target again, built for this
# machine in BUILD_DIR-native (about a minute to run after its build).
#
# Needs clang and libclang-rt-14-dev (Debian 12) besides the packages of the plain build. Any
# sanitizer report fails the test that triggered it (-fno-sanitize-recover, halt_on_error).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-sanitize}
cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPGN_ICCF_SANITIZE=ON -DPGN_ICCF_NATIVE=OFF -DPGN_ICCF_BUILD_FUZZ=ON
cmake --build "$dir" -j"$(nproc)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# Reports with function names and lines (Debian installs it as llvm-symbolizer-14 with clang).
symbolizer=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || true)
if [[ -n $symbolizer ]]; then export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-$symbolizer}; fi
ctest --test-dir "$dir" --output-on-failure -j2 -LE 'slow|web'
native=$dir-native
cmake -S . -B "$native" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPGN_ICCF_SANITIZE=ON -DPGN_ICCF_NATIVE=ON -DPGN_ICCF_BUILD_FUZZ=ON
cmake --build "$native" -j"$(nproc)" --target reader_test grammar_test fuzz_split
ctest --test-dir "$native" --output-on-failure -j2 -R '^(reader_test|grammar_test|fuzz_split)$'
