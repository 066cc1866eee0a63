#!/bin/sh
# Runs a web test (tests/web) if the tools it needs are here:
#   need.sh TOOL... -- COMMAND...
# A missing tool skips the test (exit 77, ctest's SKIP_RETURN_CODE) with a line naming it and
# how to install it; under CI (CI=true, as .ci/run and CI services set it) it fails instead,
# so that CI never passes without having run the web tests.
set -eu
missing=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
    chromium) [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || command -v chromium >/dev/null 2>&1 || missing="$missing $1" ;;
    *) command -v "$1" >/dev/null 2>&1 || missing="$missing $1" ;;
    esac
    shift
done
[ $# -gt 0 ] && shift
if [ -n "$missing" ]; then
    echo "web test not run: missing$missing (Debian: apt-get install emscripten nodejs chromium)"
    case ${CI:-} in
    true | 1 | yes) echo "CI is set: a missing tool fails the test"; exit 1 ;;
    esac
    exit 77
fi
exec "$@"
