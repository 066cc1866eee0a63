#!/bin/bash
# --diagnostics=json against the text form, line for line (issue K): for every edge, sample and
# hostile file and a few option sets, the JSON run's standard error parses as one JSON object
# per line, and each object says what the text run's line at the same place says: the same
# file, line, column, severity, game, move and token, the same message words ("text"), the same
# "did you mean" moves, the same fold lines and the same summary counts.
#   diagnostics_json_test.sh PGN_ICCF DATA_DIR
set -u
bin=$1
data=$2
command -v python3 >/dev/null || { echo "python3 not found: test not run"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgn-iccf-json-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for f in "$data"/edge/*.pgn "$data"/sample/*.pgn "$data"/hostile/*.pgn; do
    for opts in "" "--all-warnings --fix-typos -t san" "--input-lang auto --keep-broken"; do
        # shellcheck disable=SC2086
        "$bin" $opts -o "$tmp/out" "$f" 2>"$tmp/text"
        text_rc=$?
        # shellcheck disable=SC2086
        "$bin" $opts --diagnostics=json -o "$tmp/out" "$f" 2>"$tmp/json"
        json_rc=$?
        n=$((n + 1))
        if [ "$text_rc" != "$json_rc" ]; then
            echo "FAIL $f [$opts]: exit status $text_rc (text) vs $json_rc (json)"
            fail=1
            continue
        fi
        python3 - "$tmp/text" "$tmp/json" "$f [$opts]" <<'PY' || fail=1
import json, re, sys
text = open(sys.argv[1], 'rb').read().decode('utf-8').split('\n')[:-1]
raw = open(sys.argv[2], 'rb').read()
raw.decode('utf-8')  # the JSON form is always valid UTF-8
objs = [json.loads(l) for l in raw.decode('utf-8').split('\n')[:-1]]
where = sys.argv[3]
def fail(msg):
    print('FAIL', where + ':', msg)
    sys.exit(1)
# The text form: diagnostics, fold lines, then the summary line and the kinds after it.
summary_at = next((i for i, l in enumerate(text) if l.startswith('pgn-iccf: ') and ' game' in l and ' read: ' in l), len(text))
body = [l for l in text[:summary_at] if not l.startswith('pgn-iccf: ')]
runs = [l for l in text[:summary_at] if l.startswith('pgn-iccf: ')]
jbody = [o for o in objs if 'severity' in o and 'line' in o or 'folded' in o]
jruns = [o for o in objs if 'severity' in o and 'line' not in o]
for o in jruns:  # the run's own messages: the file they are about, or null
    if 'file' not in o or (o['file'] is not None and o['file'] not in o['text']):
        fail('run message without its file: %r' % o)
if len(body) != len(jbody):
    fail('%d text lines, %d JSON objects' % (len(body), len(jbody)))
if len(runs) != len(jruns) + sum(1 for o in objs if 'file_done' in o):
    fail('run lines differ: %r vs %r' % (runs, jruns))
for t, o in zip(body, jbody):
    if 'folded' in o:
        f = o['folded']
        want = ': ... and %d more warning%s like this (%s); --all-warnings shows every one' % (
            f['more'], '' if f['more'] == 1 else 's', f['kind'])
        if not t.endswith(want): fail('fold line %r vs %r' % (t, o))
        continue
    head = '%s:%d:%d: %s: ' % (o['file'], o['line'], o['column'], o['severity'])
    if not t.startswith(head): fail('%r does not start %r' % (t, head))
    if not t.endswith(o['text']): fail('%r does not end in the JSON text %r' % (t, o['text']))
    rest = t[len(head):len(t) - len(o['text'])]
    if o['game'] is not None and not rest.startswith('game %d' % o['game']):
        fail('%r: game %r' % (t, o['game']))
    if o['game'] is None and rest.startswith('game '): fail('%r: no game in JSON' % t)
    if o['move'] is not None and (', move %s: ' % o['move']) not in rest:
        fail('%r: move %r' % (t, o['move']))
    if o['token'] and not o['token'].isprintable(): pass  # escaped differently in the text
    elif o['token'] and ("'%s': " % o['token'][:60]) not in rest and len(o['token']) <= 60:
        fail('%r: token %r' % (t, o['token']))
    if not o['code'] or not re.fullmatch('[a-z0-9_]+', o['code']): fail('code %r' % o['code'])
    for s in o['suggestions']:
        if '%s (%s)' % (s['numeric'], s['san']) not in o['text']: fail('suggestion %r' % s)
sums = [o['summary'] for o in objs if 'summary' in o]
if summary_at == len(text):
    if sums: fail('a JSON summary but no text summary')
    sys.exit(0)
if len(sums) != 1 or 'summary' not in objs[-1]: fail('not one summary object at the end')
s = sums[0]
m = re.match(r'pgn-iccf: (\d+) games? read: (\d+) converted, (\d+) rejected, (\d+) kept broken; (\d+) moves?; (\d+) errors?, (\d+) warnings?', text[summary_at])
got = (s['games'], s['converted'], s['rejected'], s['kept_broken'], s['moves'], s['errors'], s['warnings'])
if tuple(int(x) for x in m.groups()) != got: fail('summary %r vs %r' % (text[summary_at], s))
kinds = [l for l in text[summary_at + 2:] if l.startswith('pgn-iccf: ')]
jk = ['%d  %s' % (k['count'], k['kind']) for k in s['warnings_by_kind']]
if [re.sub(r'^pgn-iccf: +', '', l) for l in kinds] != jk: fail('kinds %r vs %r' % (kinds, jk))
PY
    done
done
# Bytes that are neither printable nor UTF-8 in a name and a token come out as valid JSON.
printf '[White "M\xfcller \\"x\\" \x1b[2J"]\n[Black "\xe2\x99\x98"]\n\n1. e4 e5 2. Nf3 Q\xe9h4 *\n' >"$tmp/bytes.pgn"
"$bin" --diagnostics=json -o "$tmp/out" "$tmp/bytes.pgn" 2>"$tmp/json"
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
lines = open(sys.argv[1], 'rb').read().decode('utf-8').split('\n')[:-1]
o = json.loads(lines[0])
want = {'white': 'M\u00fcller "x" \u001b[2J', 'black': '\u2658'}
if o['players'] != want: print('FAIL players', o['players'], want); sys.exit(1)
if o['token'] != 'Q\u00e9h4': print('FAIL token', repr(o['token'])); sys.exit(1)
if '"summary"' not in lines[-1]: print('FAIL no summary'); sys.exit(1)
PY
# The run's own messages name their file: an input that cannot be read, an output that cannot
# be written (and the one left unwritten because of it).
"$bin" --diagnostics=json "$tmp/no-such.pgn" "$data/sample/sample.pgn" -o "$tmp/dir" 2>"$tmp/json"
"$bin" --diagnostics=json "$data/sample/sample.pgn" -o "$tmp/no-such-dir/out.pgn" 2>>"$tmp/json"
python3 - "$tmp/json" "$tmp" <<'PY' || fail=1
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1], encoding='utf-8')]
files = [o['file'] for o in objs if 'severity' in o and 'line' not in o]
want = [sys.argv[2] + '/no-such.pgn', sys.argv[2] + '/no-such-dir/out.pgn']
if files != want: print('FAIL run messages name', files, 'not', want); sys.exit(1)
PY
# An unknown format is a usage error.
"$bin" --diagnostics=xml "$data/sample/sample.pgn" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "unknown format 'xml' for --diagnostics (text or json)" "$tmp/err" ||
    { echo "FAIL --diagnostics=xml: $(cat "$tmp/err")"; fail=1; }
echo "$n runs compared"
exit $fail
