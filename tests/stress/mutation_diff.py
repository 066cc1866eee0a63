#!/usr/bin/env python3
"""Differential stress run (by hand, not a test: it takes minutes): pgn-iccf must give the same
output, rejects, exit status and messages for an input read from a file with one thread and
read from a pipe with two, whatever the reads and the blocks (issue J: identical for every -j).

Inputs are made from the PGN files of data/ by seeded random edits, in three styles:
  general   brackets, quotes, line ends, NUL bytes, results and tag lines inserted, deleted
            or replaced anywhere in the file
  tags      the same edits aimed at the tag lines (where the splitter's vector skip reads)
  results   braces, parentheses, '%' and ';' lines, results and blank lines near the ends of
            games and comments (where the splitter decides where a game ends)
Each input runs as it is and behind about 255 KB of whole games (so that the cutter's first
block ends inside it), with --max-game-size 300, 777, 1K, 5K and 64M.

  tests/stress/mutation_diff.py BINARY [--count N] [--seed S] [--styles general,tags,results]
                                       [--sanitized]

--sanitized: BINARY is a sanitizer build; a run that prints a sanitizer report or exits with
a status above 2 counts as a failure too. Inputs that fail are kept in the work folder, which
is printed. Exit status 1 if any failed.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, '..', '..', 'data'))

EDITS = {
    'general': [b']', b'"', b'[', b'\n', b'\r', b' ', b'\t', b'{', b'}', b'%', b'\n\n', b'\r\n',
                b'"]', b'"]\n', b'\n[', b']\n[', b'[Event "x"]\n', b'[Site "y"]', b'\x00', b';',
                b'1-0', b'*', b'\\"', b'\n\n[Event "z"]\n', b'[A "1"][B "2"]\n', b'\n%x\n',
                b'\xc2\xbd', b'  ', b'\x0c'],
    'results': [b'{', b'}', b'(', b')', b';', b'%', b'\n%', b'\n', b'\r', b'\r\n', b'\n\n', b' ',
                b'1-0', b'0-1', b'1/2-1/2', b'*', b'\xc2\xbd-\xc2\xbd', b'{ 1-0 }',
                b'1-0\n\n[Event "q"]\n', b'\n[Event "', b'\n\n[', b'[', b']', b'"',
                b'\x00' * 7, b'\x00', b'\x1a', b'\t', b'$1', b'!?', b'e4', b'Nf3', b'12.', b'...',
                b'0-0', b'O-O', b'--', b'\n;x\n', b'{\n}', b'(1. e4)', b'1-0 {c}', b'\n1-0\n',
                b'  \n  \n', b'\\', b'\xef\xbb\xbf'],
}
EDITS['tags'] = EDITS['general']
# Where each style aims its edits: anywhere (None), near tag sections, or near results, blank
# lines and closers.
AIM = {'general': None, 'tags': rb'\n\[', 'results': rb'(1-0|0-1|1/2-1/2|\*|\n\n|\}|\))'}
REPLACE = {'general': b'[]"\n\r ', 'tags': b'[]"\n\r ', 'results': b'{}()\n\r ;%[]*01'}
SANITIZER = re.compile(rb'runtime error|AddressSanitizer|LeakSanitizer')
WINDOWS = ['300', '777', '1K', '5K', '64M']


def sources():
    out = []
    for d, _, files in os.walk(DATA):
        if 'compressed' in d:
            continue
        for f in sorted(files):
            if f.endswith('.pgn'):
                b = open(os.path.join(d, f), 'rb').read()
                if b'[' in b and len(b) < 400000:
                    out.append(b)
    return out


def mutate(rng, files, style):
    b = bytearray(rng.choice(files))
    if style == 'results' and len(b) > 30000:
        s = rng.randint(0, len(b) - 30000)
        b = b[s:s + 30000]
    for _ in range(rng.randint(1, 40 if style != 'results' else 30)):
        if AIM[style] is None:
            pos = rng.randrange(len(b) + 1)
        else:
            marks = [m.start() for m in re.finditer(AIM[style], bytes(b))] or [0]
            spread = (-8, 8) if style == 'results' else (-20, 90)
            pos = min(len(b), max(0, rng.choice(marks) + rng.randint(*spread)))
        r = rng.random()
        if r < 0.6:
            b[pos:pos] = rng.choice(EDITS[style])
        elif r < 0.85 and len(b) > 1:
            del b[pos:pos + rng.randint(1, 3)]
        elif pos < len(b):
            b[pos] = rng.choice(REPLACE[style])
    return bytes(b)


def prefix_games():
    """About 255 KB of whole games from data/corpus, ending with a blank line."""
    corpus = os.path.join(DATA, 'corpus')
    b = b''.join(open(os.path.join(corpus, f), 'rb').read()
                 for f in ('twic-01-232games.pgn', 'chessjs-benchmark.pgn'))
    i = b.rfind(b'\n[Event ', 0, 255000)
    p = b[:i + 1]
    return p if p.endswith(b'\n\n') else p + b'\n'


def run(binary, args, path, work, tag, stdin_path=None):
    out, rej = os.path.join(work, tag + '.out'), os.path.join(work, tag + '.rej')
    for f in (out, rej):
        if os.path.exists(f):
            os.remove(f)
    cmd = [binary, '-q'] + args + ['--keep-broken', '-o', out, '--rejects', rej,
                                    '-' if stdin_path else path]
    stdin = open(stdin_path, 'rb') if stdin_path else subprocess.DEVNULL
    p = subprocess.run(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.replace(path.encode(), b'IN').replace(b'<stdin>', b'IN')
    err = err.replace(out.encode(), b'OUT').replace(rej.encode(), b'REJ')
    read = lambda f: open(f, 'rb').read() if os.path.exists(f) else None
    return p.returncode, err, read(out), read(rej), p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('binary')
    ap.add_argument('--count', type=int, default=100, help='inputs per style (default 100)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--styles', default='general,tags,results')
    ap.add_argument('--sanitized', action='store_true')
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    work = tempfile.mkdtemp(prefix='mutation_diff.')
    files = sources()
    prefix = prefix_games()
    runs = failed = 0
    for style in a.styles.split(','):
        rng = random.Random(f'{a.seed}-{style}')
        for k in range(a.count):
            data = mutate(rng, files, style)
            for behind in (False, True):
                name = f'{style}-{k:04d}{"-behind" if behind else ""}.pgn'
                path = os.path.join(work, name)
                with open(path, 'wb') as f:
                    f.write((prefix if behind else b'') + data)
                bad = []
                for w in WINDOWS:
                    runs += 1
                    one = run(binary, ['-j1', '--max-game-size', w], path, work, 'a')
                    two = run(binary, ['-j2', '--max-game-size', w], path, work, 'b',
                              stdin_path=path)
                    if one[:4] != two[:4]:
                        bad.append(f'window {w}: file -j1 and pipe -j2 differ')
                    if a.sanitized:
                        for r in (one, two):
                            if r[0] > 2 or SANITIZER.search(r[4]):
                                bad.append(f'window {w}: status {r[0]} or a sanitizer report')
                if bad:
                    failed += 1
                    print(f'FAILED {path}: ' + '; '.join(sorted(set(bad))))
                else:
                    os.remove(path)
    for f in ('a.out', 'a.rej', 'b.out', 'b.rej'):
        if os.path.exists(os.path.join(work, f)):
            os.remove(os.path.join(work, f))
    print(f'{runs} runs of two readings each, {failed} inputs failed; work folder {work}')
    if failed == 0:
        shutil.rmtree(work)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
