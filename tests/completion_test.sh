#!/usr/bin/env bash
# The bash completion of pgn-iccf (src/cli/pgn-iccf.bash-completion) against the binary itself,
# so that neither can change without the other:
# - every option of `pgn-iccf --help` (long and short) is offered after '-' / '--', and
#   nothing else;
# - an option that takes a value (a NOTATION, CODE, N, PATH... after it in --help) is
#   completed with values, never with options; a switch is followed by options again;
# - the values of --to, --lang and --input-lang are exactly those the binary accepts (the
#   lists of its own usage errors, and the "Languages:" line of --help), also as --to=VALUE;
#   --compress-level 1-19; --suffix the default suffixes;
# - inputs: directories and *.pgn, *.pgn.gz, *.pgn.bz2, *.pgn.zst in any letter case, names
#   with spaces included; outputs: any file, and '-'.
#
#   tests/completion_test.sh PGN_ICCF_BINARY COMPLETION_SCRIPT
set -o pipefail
bin=$(realpath -- "$1") || exit 2
script=$(realpath -- "$2") || exit 2
[[ -x $bin && -f $script ]] || {
    echo "usage: $0 PGN_ICCF_BINARY COMPLETION_SCRIPT" >&2
    exit 2
}
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# shellcheck source=/dev/null
source "$script" || exit 1
[[ $(complete -p pgn-iccf 2>/dev/null) == "complete -F _pgn_iccf pgn-iccf" ]] ||
    fail "the script does not register _pgn_iccf for pgn-iccf: $(complete -p pgn-iccf 2>&1)"

# comp WORD... : the completions for the command line WORD... (the last word is the one being
# completed, as bash splits it: `--to=s` is `--to` `=` `s`), sorted, one a line.
comp() {
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _pgn_iccf pgn-iccf "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    ((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort
}
# expect WHAT ACTUAL EXPECTED (both: sorted lines)
expect() {
    [[ $2 == "$3" ]] || fail "$1: got [$(tr '\n' ' ' <<<"$2")], expected [$(tr '\n' ' ' <<<"$3")]"
}
lines() { printf '%s\n' "$@" | LC_ALL=C sort; }

help=$("$bin" --help) || fail "pgn-iccf --help failed"

# The option lines of --help: "  -t [ --to ] NOTATION  text", "  --lang CODE  text",
# "  --check  text".
declare -A takes_value=()
longs=() shorts=()
while IFS= read -r line; do
    if [[ $line =~ ^\ +(-([a-zA-Z])\ \[\ )?--([a-z][a-z0-9-]*)(\ \])?(\ ([A-Z]+))?\ \  ]]; then
        longs+=("--${BASH_REMATCH[3]}")
        [[ -n ${BASH_REMATCH[2]} ]] && shorts+=("-${BASH_REMATCH[2]}")
        takes_value["--${BASH_REMATCH[3]}"]=${BASH_REMATCH[6]}
        [[ -n ${BASH_REMATCH[2]} ]] && takes_value["-${BASH_REMATCH[2]}"]=${BASH_REMATCH[6]}
    fi
done <<<"$help"
((${#longs[@]} >= 20)) || fail "only ${#longs[@]} options found in --help: the pattern is stale"

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

expect "long options after --" "$(comp pgn-iccf --)" "$(lines "${longs[@]}")"
expect "options after -" "$(comp pgn-iccf -)" "$(lines "${longs[@]}" "${shorts[@]}")"
expect "options after --no-" "$(comp pgn-iccf --no-)" \
    "$(lines $(printf '%s\n' "${longs[@]}" | grep '^--no-'))"

all_options=$(lines "${longs[@]}")
for opt in "${longs[@]}" "${shorts[@]}"; do
    if [[ -n ${takes_value[$opt]} ]]; then
        # A value follows: no option is offered (the temporary folder has no file named --*).
        expect "$opt ${takes_value[$opt]} completes a value" "$(comp pgn-iccf "$opt" --)" ""
    else
        expect "$opt is a switch: options follow it" "$(comp pgn-iccf "$opt" --)" "$all_options"
    fi
done

# Values the binary accepts, from its usage errors:
#   unknown notation 'x' for --to (numeric, san or lan)
#   unknown language 'x' for --lang (en af ... figurine)
#   unknown language 'x' for --input-lang (auto en af ... figurine)
accepted() {
    "$bin" "$1" not-a-value </dev/null 2>&1 >/dev/null | sed -n "s/.* for $1 (\(.*\))\$/\1/p" |
        sed 's/,//g; s/ or / /' | tr ' ' '\n' | LC_ALL=C sort
}
notations=$(accepted --to)
[[ $notations == *san* ]] || fail "the usage error of --to lists no notation: [$notations]"
expect "--to values" "$(comp pgn-iccf --to '')" "$notations"
expect "-t values" "$(comp pgn-iccf -t '')" "$notations"
expect "--to=" "$(comp pgn-iccf --to =)" "$notations"
expect "--to=s" "$(comp pgn-iccf --to = s)" "san"
expect "--to l" "$(comp pgn-iccf --check --to l)" "lan"

languages=$(sed -n 's/^Languages: //p' <<<"$help" | tr ' ' '\n' | LC_ALL=C sort)
[[ $languages == *de* ]] || fail "no Languages: line in --help"
expect "--lang accepted = Languages of --help" "$(accepted --lang)" "$languages"
expect "--lang values" "$(comp pgn-iccf --lang '')" "$languages"
expect "--lang=f" "$(comp pgn-iccf --lang = f)" "$(lines fi figurine fr)"
expect "--input-lang accepted = auto + Languages" "$(accepted --input-lang)" \
    "$(lines auto $languages)"
expect "--input-lang values" "$(comp pgn-iccf --input-lang '')" "$(accepted --input-lang)"
expect "--input-lang a" "$(comp pgn-iccf --input-lang a)" "$(lines af auto)"
expect "--compress-level values" "$(comp pgn-iccf --compress-level '')" "$(lines {1..19})"
expect "--suffix .s" "$(comp pgn-iccf --suffix .s)" \
    "$(lines .san.pgn .san.pgn.gz .san.pgn.bz2 .san.pgn.zst)"

# Every value offered is taken by the binary (an empty input converts: exit status 0).
for v in $notations; do
    "$bin" -q --check --to "$v" </dev/null || fail "--to $v is offered but refused"
done
for v in $languages; do
    "$bin" -q --check --lang "$v" --input-lang "$v" </dev/null ||
        fail "language $v is offered but refused"
done
for v in $(comp pgn-iccf --suffix ''); do
    "$bin" -q --check --suffix "$v" </dev/null || fail "--suffix $v is offered but refused"
done

# File names.
mkdir -p sub/deeper 'a dir'
# '[ab].pgn' is also a pattern that a.pgn matches: the names must not be globbed.
touch a.pgn B.PGN c.pgn.gz d.PGN.ZST e.Pgn.Bz2 'with space.pgn' '[ab].pgn' f.txt g.pgn.xz h.gz \
    pgn x.pgn.gz.txt sub/inner.pgn sub/notes.txt
expect "inputs" "$(comp pgn-iccf '')" \
    "$(lines 'a dir' a.pgn B.PGN c.pgn.gz d.PGN.ZST e.Pgn.Bz2 sub 'with space.pgn' '[ab].pgn')"
expect "inputs starting with [" "$(comp pgn-iccf '[')" '[ab].pgn'
expect "inputs after options" "$(comp pgn-iccf -q --to san w)" 'with space.pgn'
expect "inputs in a folder" "$(comp pgn-iccf sub/)" "$(lines sub/deeper sub/inner.pgn)"
expect "inputs after --to=san" "$(comp pgn-iccf --to = san c)" c.pgn.gz
comp pgn-iccf '' >/dev/null # in this shell, not in a $(...) subshell
shopt -q nocasematch && fail "the completion left nocasematch set"
expect "-o takes any file, and -" "$(comp pgn-iccf -o '')" "$(lines - *)"
expect "--rejects takes any file" "$(comp pgn-iccf --rejects f)" f.txt
expect "--output=sub/n" "$(comp pgn-iccf --output = sub/n)" sub/notes.txt
expect "no completion for --jobs" "$(comp pgn-iccf --jobs '')" ""

if ((failures)); then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "completion_test: ${#longs[@]} long and ${#shorts[@]} short options, $(wc -w <<<"$languages") languages, file names: all as --help and the binary say"
