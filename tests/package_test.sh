#!/usr/bin/env bash
# The Debian package of a build, for real: `cpack -G DEB` makes it (in a temporary folder),
# `dpkg -i` installs it on this machine, then the installed pgn-iccf must print VERSION,
# convert the sample as the build's binary does, `man -w pgn-iccf` must find its page and
# bash-completion must load its completion; `dpkg -r` then removes it and every file must be
# gone. It changes the machine it runs on (for the length of the test), so it runs only as
# root on a dpkg system (exit 77, which ctest shows as skipped, otherwise), and refuses to
# start where a pgn-iccf is installed already, so as not to replace or remove someone's copy.
#
#   tests/package_test.sh BUILD_DIR VERSION [CPACK]
#
# Needs dpkg-dev and file (cpack's dependency list), man-db and bash-completion (Debian
# packages of the Quick start's test command).
set -euo pipefail
build=$(realpath -- "$1")
version=$2
cpack=${3:-cpack}
source_dir=$(realpath -- "$(dirname -- "$0")/..")

if [[ $(id -u) != 0 ]]; then
    echo "package_test: skipped: it installs the package on this machine, which needs root"
    exit 77
fi
if ! command -v dpkg >/dev/null; then
    echo "package_test: skipped: not a dpkg (Debian) system"
    exit 77
fi
missing=()
command -v dpkg-shlibdeps >/dev/null || missing+=(dpkg-dev)
command -v file >/dev/null || missing+=(file)
command -v man >/dev/null || missing+=(man-db)
[[ -f /usr/share/bash-completion/bash_completion ]] || missing+=(bash-completion)
if ((${#missing[@]})); then
    echo "package_test: FAIL: missing tools: apt-get install ${missing[*]}" >&2
    exit 1
fi
if dpkg-query -W -f='${Status}\n' pgn-iccf 2>/dev/null | grep -q ' installed$'; then
    echo "package_test: FAIL: a pgn-iccf package is installed already (dpkg -r pgn-iccf first);" \
        "this test installs and removes its own" >&2
    exit 1
fi
for f in /usr/bin/pgn-iccf /usr/share/man/man1/pgn-iccf.1 \
    /usr/share/bash-completion/completions/pgn-iccf /usr/share/doc/pgn-iccf; do
    if [[ -e $f ]]; then
        echo "package_test: FAIL: $f exists outside any package (cmake --install --prefix /usr?);" \
            "this test would replace and then remove it" >&2
        exit 1
    fi
done

failures=0
fail() {
    echo "package_test: FAIL: $*" >&2
    failures=$((failures + 1))
}
work=$(mktemp -d)
installed=0
cleanup() {
    ((installed)) && dpkg -r pgn-iccf >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT

# 1. The package.
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1 || {
    cat "$work/cpack.log" >&2
    fail "cpack -G DEB failed"
    exit 1
}
deb=$work/pgn-iccf_${version}_$(dpkg --print-architecture).deb
[[ -f $deb ]] || {
    ls "$work" >&2
    fail "no $(basename "$deb") made"
    exit 1
}
echo "package_test: $(basename "$deb"), $(stat -c %s "$deb") bytes"
dpkg-deb -f "$deb" Package Version Section Maintainer Depends | sed 's/^/  /'
[[ $(dpkg-deb -f "$deb" Version) == "$version" ]] || fail "package version is not $version"
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libstdc++6 libboost-program-options libtbb libzstd libbz2 zlib1g libisal; do
    [[ $depends == *"$lib"* ]] || fail "Depends does not name $lib"
done
contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '/$' | sort)
expected=$(printf '%s\n' ./usr/bin/pgn-iccf ./usr/share/bash-completion/completions/pgn-iccf \
    ./usr/share/doc/pgn-iccf/copyright ./usr/share/man/man1/pgn-iccf.1 | sort)
[[ $contents == "$expected" ]] || fail "package files: got [$(echo $contents)], expected" \
    "[$(echo $expected)] (no man page: help2man was missing when the build was configured)"

# 2. Installed. Debian's minimal images tell dpkg not to install manual pages and
# documentation (path-exclude in /etc/dpkg/dpkg.cfg.d/); where so, this test says it and lets
# this package's own files in with --path-include, which comes after the configuration.
include=()
excludes=$(grep -hs '^ *path-exclude' /etc/dpkg/dpkg.cfg /etc/dpkg/dpkg.cfg.d/* || true)
if [[ -n $excludes ]]; then
    echo "package_test: note: this machine's dpkg configuration excludes paths:"
    sed 's/^/  /' <<<"$excludes"
    echo "  (installing with --path-include for the man page and the copyright file)"
    include=(--path-include=/usr/share/man/man1/pgn-iccf.1
        --path-include=/usr/share/doc/pgn-iccf/copyright)
fi
dpkg "${include[@]}" -i "$deb" >"$work/dpkg-i.log" 2>&1 || {
    cat "$work/dpkg-i.log" >&2
    fail "dpkg -i failed (missing dependencies? apt-get install -y $deb installs them)"
    exit 1
}
installed=1
[[ $(dpkg-query -W -f='${Status} ${Version}' pgn-iccf) == "install ok installed $version" ]] ||
    fail "dpkg-query: $(dpkg-query -W -f='${Status} ${Version}' pgn-iccf)"

[[ $(command -v pgn-iccf) == /usr/bin/pgn-iccf ]] ||
    fail "pgn-iccf in PATH is $(command -v pgn-iccf || echo nothing)"
v=$(/usr/bin/pgn-iccf --version) || fail "pgn-iccf --version failed"
echo "package_test: pgn-iccf --version: $v"
[[ $v == "pgn-iccf $version" ]] || fail "pgn-iccf --version says '$v', not 'pgn-iccf $version'"
sample=$source_dir/data/sample/sample.pgn
cmp -s <(/usr/bin/pgn-iccf -q "$sample") <("$build/bin/pgn-iccf" -q "$sample") ||
    fail "the installed pgn-iccf converts the sample differently from $build/bin/pgn-iccf"

page=$(man -w pgn-iccf 2>&1) || true
echo "package_test: man -w pgn-iccf: $page"
[[ $page == /usr/share/man/man1/pgn-iccf.1* ]] || fail "man -w pgn-iccf: $page"
text=$(LC_ALL=C MANWIDTH=80 man -P cat pgn-iccf 2>/dev/null) || fail "man pgn-iccf failed"
[[ $text == *"pgn-iccf - rewrite chess games between SAN and ICCF numeric notation"* &&
    $text == *--input-lang* && $text == *"EXIT STATUS"* ]] ||
    fail "man pgn-iccf does not show the page: $(head -c 300 <<<"$text")"

# bash-completion loads completions on demand by the command's name; ask it as a login
# shell's first tab on `pgn-iccf --to ` would, then `pgn-iccf --inp`.
completion=$(bash --norc --noprofile -c '
    source /usr/share/bash-completion/bash_completion
    __load_completion pgn-iccf || { echo "not found"; exit 1; }
    complete -p pgn-iccf
    COMP_WORDS=(pgn-iccf --to ""); COMP_CWORD=2; COMP_LINE="pgn-iccf --to "
    COMP_POINT=${#COMP_LINE}; COMPREPLY=()
    _pgn_iccf pgn-iccf "" --to; echo "${COMPREPLY[*]}"
    COMP_WORDS=(pgn-iccf --inp); COMP_CWORD=1; COMPREPLY=()
    _pgn_iccf pgn-iccf --inp pgn-iccf; echo "${COMPREPLY[*]}"' 2>&1) || true
echo "package_test: bash-completion:"
sed 's/^/  /' <<<"$completion"
[[ $completion == $'complete -F _pgn_iccf pgn-iccf\nnumeric san lan\n--input-lang' ]] ||
    fail "bash-completion does not complete pgn-iccf"

# 3. Removed.
dpkg -r pgn-iccf >"$work/dpkg-r.log" 2>&1 || {
    cat "$work/dpkg-r.log" >&2
    fail "dpkg -r pgn-iccf failed"
}
installed=0
status=$(dpkg-query -W -f='${Status}' pgn-iccf 2>/dev/null || true)
echo "package_test: after dpkg -r: ${status:-unknown to dpkg}"
[[ -z $status || $status == "deinstall ok not-installed" || $status == "unknown ok not-installed" ]] ||
    fail "dpkg still lists pgn-iccf: $status"
for f in /usr/bin/pgn-iccf /usr/share/man/man1/pgn-iccf.1 \
    /usr/share/bash-completion/completions/pgn-iccf /usr/share/doc/pgn-iccf; do
    [[ -e $f ]] && fail "$f is left after dpkg -r"
done
hash -r
command -v pgn-iccf >/dev/null && fail "pgn-iccf is still in PATH: $(command -v pgn-iccf)"
man -w pgn-iccf >/dev/null 2>&1 && fail "man -w still finds pgn-iccf"

if ((failures)); then
    echo "package_test: $failures check(s) failed" >&2
    exit 1
fi
echo "package_test: installed, run, found by man and bash-completion, removed: all as expected"
