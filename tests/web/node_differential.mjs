// The differential test of the two builds (issue I, test a): the WebAssembly module
// (OUTDIR/pgn-iccf.mjs) against the command line, on the same bytes with the same options.
//
//   node tests/web/node_differential.mjs OUTDIR/pgn-iccf.mjs PGN_ICCF_BINARY DATA_DIR
//
// 1. Every golden case (data/golden/NAME.VARIANT.args with NAME.VARIANT.expected, the input
//    data/golden/NAME.pgn or data/edge/NAME.pgn): convert() gives the expected bytes, and its
//    output, rejects, diagnostics (the CLI's --all-warnings lines without the file name) and
//    summary line (without the timing) are what the CLI writes.
// 2. Every file of data/edge, data/sample, data/hostile, data/corpus and data/compressed in
//    SAN and numeric, with and without rejects: the same comparison (data/compressed: the
//    module refuses compressed bytes, the page decompresses .gz itself; only that it refuses
//    them and does not crash is checked there). The fuzz seeds of tests/fuzz are these files.
// 3. Options the CLI refuses are refused with its words; with voice: 'page', the refusals
//    and the diagnostics of the small data files are the same with the page's labels for the
//    flags (the page speaks to people who never use the command line).
// 4. Mutated inputs (a fixed-seed mutator in the manner of libFuzzer's over the small files of
//    the fuzz seed corpora: byte flips, inserted delimiters and control bytes, deleted,
//    repeated and spliced ranges, cuts) under varied options: the same comparison with the
//    command line, each within a time bound, and the board's positionAt at random offsets:
//    no input hangs, crashes or is converted otherwise than by the command line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [modulePath, cliArg, dataDir] = process.argv.slice(2);
const cli = cliArg && path.resolve(cliArg);
if (!modulePath || !cliArg || !dataDir) {
  console.error('usage: node node_differential.mjs MODULE.mjs PGN_ICCF DATA_DIR');
  process.exit(2);
}
const factory = (await import(pathToFileURL(path.resolve(modulePath)).href)).default;
const m = await factory();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pgn-iccf-web-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

let failures = 0;
let checked = 0;
function fail(what, detail) {
  ++failures;
  console.error(`FAIL ${what}: ${detail}`);
}

// Command-line arguments of a golden .args file as options of convert().
function optionsOf(args) {
  const o = {};
  const cliArgs = [];
  for (let i = 0; i < args.length; ++i) {
    const a = args[i];
    const value = () => args[++i];
    switch (a) {
      case '-t': case '--to': o.to = value(); cliArgs.push('--to', o.to); break;
      case '--lang': o.lang = value(); cliArgs.push(a, o.lang); break;
      case '--input-lang': o.inputLang = value(); cliArgs.push(a, o.inputLang); break;
      case '--width': o.width = Number(value()); cliArgs.push(a, String(o.width)); break;
      case '--fix-typos': o.fixTypos = true; cliArgs.push(a); break;
      case '--annotate': o.annotate = true; cliArgs.push(a); break;
      case '--no-comments': o.comments = false; cliArgs.push(a); break;
      case '--no-nags': o.nags = false; cliArgs.push(a); break;
      case '--no-variations': o.variations = false; cliArgs.push(a); break;
      case '--keep-broken': o.keepBroken = true; cliArgs.push(a); break;
      case '--strict': o.strict = true; cliArgs.push(a); break;
      case '--iccf-short-promotion': o.iccfShortPromotion = true; cliArgs.push(a); break;
      // How warnings are shown: the module returns every one (--all-warnings).
      case '-w': case '--no-warnings': case '--all-warnings': break;
      default: throw new Error(`unknown argument in a golden .args file: ${a}`);
    }
  }
  return { o, cliArgs };
}

const timing = /; [0-9.]+ s, [0-9.]+ MB\/s, [0-9]+ games\/s/;

// The CLI on `file` (run in its folder, so that diagnostics start with its name).
function runCli(file, cliArgs, rejects) {
  const out = path.join(tmp, 'out.pgn');
  const rej = path.join(tmp, 'rejects.pgn');
  fs.rmSync(out, { force: true });
  fs.rmSync(rej, { force: true });
  const args = [...cliArgs, '--all-warnings', '-j1', '-o', out];
  if (rejects) args.push('--rejects', rej);
  args.push(path.basename(file));
  const r = spawnSync(cli, args, { cwd: path.dirname(file), maxBuffer: 1 << 30 });
  const name = path.basename(file) + ':';
  const diagnostics = [];
  let summary = '';
  for (const line of r.stderr.toString('latin1').split('\n')) {
    if (line === '') continue;
    // An input refused as a whole: "pgn-iccf: error: NAME: TEXT", the module's line 0.
    if (line.startsWith(`pgn-iccf: error: ${name} `)) {
      diagnostics.push(`0:0: error: ${line.slice(`pgn-iccf: error: ${name} `.length)}`);
      continue;
    }
    if (line.startsWith('pgn-iccf: ')) {
      if (/ games? read: /.test(line)) summary = line.replace(timing, '');
      continue;
    }
    diagnostics.push(line.startsWith(name) ? line.slice(name.length) : `(no file name) ${line}`);
  }
  const read = (p) => (fs.existsSync(p) ? fs.readFileSync(p) : Buffer.alloc(0));
  return { status: r.status, output: read(out), rejects: read(rej), diagnostics, summary };
}

// Diagnostics of the module as the CLI's lines (text as Latin-1 bytes: the module returns
// the bytes of its lines as UTF-8 text of them, which the CLI writes as bytes).
function moduleLines(result) {
  return result.diagnostics.map((d) => `${d.line}:${d.column}: ${d.severity}: ${d.text}`);
}

function bytesEqual(a, b) {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), b) === 0;
}

function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; ++i) if (a[i] !== b[i]) return `at ${i}`;
  return `lengths ${a.length} and ${b.length}`;
}

function compare(what, file, options, cliArgs, rejects, expected) {
  if (process.env.VERBOSE) console.error(what);
  const bytes = fs.readFileSync(file);
  const r = m.convert(new Uint8Array(bytes), { ...options, rejects });
  if (r.error) return fail(what, `refused: ${r.error}`);
  const c = runCli(file, cliArgs, rejects);
  ++checked;
  if (expected && !bytesEqual(r.output, expected))
    fail(what, `output differs from the golden file (${firstDifference(r.output, expected)})`);
  if (!bytesEqual(r.output, c.output))
    fail(what, `output differs from the CLI's (${firstDifference(r.output, c.output)})`);
  if (!bytesEqual(r.rejects, c.rejects))
    fail(what, `rejects differ from the CLI's (${firstDifference(r.rejects, c.rejects)})`);
  // The CLI writes diagnostics as bytes; compare them as bytes.
  const ours = moduleLines(r).map((l) => Buffer.from(l, 'utf8').toString('latin1'));
  if (ours.join('\n') !== c.diagnostics.join('\n')) {
    const i = ours.findIndex((l, k) => l !== c.diagnostics[k]);
    fail(what, `diagnostics differ at line ${i + 1}:\n  wasm: ${ours[i]}\n  cli:  ${c.diagnostics[i]}` +
      ` (${ours.length} and ${c.diagnostics.length} lines)`);
  }
  if (r.summary.line.replace(timing, '') !== c.summary)
    fail(what, `summary differs:\n  wasm: ${r.summary.line}\n  cli:  ${c.summary}`);
  if (r.summary.exitStatus !== c.status)
    fail(what, `exit status ${r.summary.exitStatus}, the CLI's ${c.status}`);
  const s = r.summary;
  if (s.read !== s.converted + s.rejected + s.keptBroken)
    fail(what, `summary counts do not add up: ${JSON.stringify(s)}`);
}

// 1. The golden cases.
const golden = path.join(dataDir, 'golden');
let goldenCases = 0;
for (const name of fs.readdirSync(golden).sort()) {
  if (!name.endsWith('.expected')) continue;
  const stem = name.slice(0, name.indexOf('.'));
  const variant = name.slice(0, -'.expected'.length);
  const input = [path.join(golden, `${stem}.pgn`), path.join(dataDir, 'edge', `${stem}.pgn`)]
    .find((p) => fs.existsSync(p));
  if (!input) continue;
  const argsFile = path.join(golden, `${variant}.args`);
  const args = fs.existsSync(argsFile)
    ? fs.readFileSync(argsFile, 'utf8').split(/\s+/).filter((a) => a !== '') : [];
  const { o, cliArgs } = optionsOf(args);
  const expected = fs.readFileSync(path.join(golden, name));
  for (const rejects of [false, true])
    compare(`golden ${variant}${rejects ? ' (rejects)' : ''}`, input, o, cliArgs, rejects, expected);
  ++goldenCases;
}
if (goldenCases < 90) fail('golden', `only ${goldenCases} golden cases found in ${golden}`);

// 2. Every data file, SAN and numeric, with and without rejects.
let files = 0;
for (const dir of ['edge', 'sample', 'hostile', 'corpus', 'golden']) {
  for (const name of fs.readdirSync(path.join(dataDir, dir)).sort()) {
    if (!name.endsWith('.pgn')) continue;
    const file = path.join(dataDir, dir, name);
    for (const to of ['san', 'numeric'])
      for (const rejects of [false, true])
        compare(`${dir}/${name} --to ${to}${rejects ? ' --rejects' : ''}`, file, { to }, ['--to', to],
          rejects, null);
    ++files;
  }
}
if (files < 80) fail('data files', `only ${files} files found`);
// Compressed bytes: refused, never converted as text, never a crash.
for (const name of fs.readdirSync(path.join(dataDir, 'compressed')).sort()) {
  const r = m.convert(new Uint8Array(fs.readFileSync(path.join(dataDir, 'compressed', name))), {});
  ++checked;
  if (r.error || r.diagnostics.length !== 1 || r.diagnostics[0].severity !== 'error' ||
      !/^not PGN text: this looks like (gzip|bzip2|zstd) data/.test(r.diagnostics[0].text) ||
      r.output.length !== 0 || r.summary.exitStatus !== 2)
    fail(`compressed/${name}`, JSON.stringify({ ...r, output: r.output?.length }));
}

// 3. Options refused as the CLI refuses them.
const refusals = [
  [{ to: 'fen' }, "unknown notation 'fen' for --to (numeric, san or lan)"],
  [{ lang: 'xx' }, "unknown language 'xx' for --lang ("],
  [{ inputLang: 'xx' }, "unknown language 'xx' for --input-lang (auto "],
  [{ width: 5 }, '--width must be 0 (one line per game) or at least 10'],
  [{ width: -1 }, '--width must be 0 (one line per game) or at least 10'],
];
for (const [o, words] of refusals) {
  const r = m.convert(new Uint8Array(0), o);
  ++checked;
  if (!r.error || !r.error.startsWith(words)) fail(`options ${JSON.stringify(o)}`, `got ${r.error}`);
}

// 3b. The page's voice (voice: 'page'): the same refusals and diagnostics with the page's
// controls named by their labels, and no command-line flag left in any of them.
const pageNames = [
  ['--input-lang auto', '"Piece letters of the input": auto'],
  ['--input-lang', '"Piece letters of the input"'],
  ['--fix-typos', '"fix typos"'],
  ['--iccf-short-promotion', '"accept four-digit promotions"'],
  ['--max-game-size', "the page's limit"],
  ['--to', '"Convert to"'],
  ['--lang', '"Piece letters of the output"'],
  ['--width', '"Line width"'],
];
const inPageWords = (text) => pageNames.reduce((t, [flag, label]) => t.split(flag).join(label), text);
const flagLeft = /--(input-lang|fix-typos|iccf-short-promotion|max-game-size|rejects|to|lang|width)\b/;
for (const [o, words] of refusals) {
  const r = m.convert(new Uint8Array(0), { ...o, voice: 'page' });
  ++checked;
  if (!r.error || !r.error.startsWith(inPageWords(words)) || flagLeft.test(r.error))
    fail(`options ${JSON.stringify(o)} in the page's voice`, `got ${r.error}`);
}
{
  let named = 0;
  const cases = [{ to: 'san' }, { to: 'numeric', inputLang: 'auto' }, { to: 'san', fixTypos: true },
    { to: 'numeric', inputLang: 'fr' }];
  for (const dir of ['edge', 'sample', 'hostile', 'golden']) {
    for (const name of fs.readdirSync(path.join(dataDir, dir)).sort()) {
      if (!name.endsWith('.pgn')) continue;
      const bytes = new Uint8Array(fs.readFileSync(path.join(dataDir, dir, name)));
      for (const o of cases) {
        const cli = m.convert(bytes, o);
        const page = m.convert(bytes, { ...o, voice: 'page' });
        ++checked;
        const want = cli.diagnostics.map((d) => inPageWords(d.text));
        const got = page.diagnostics.map((d) => d.text);
        named += cli.diagnostics.filter((d) => flagLeft.test(d.text)).length;
        const left = got.find((t) => flagLeft.test(t));
        if (JSON.stringify(want) !== JSON.stringify(got) || left !== undefined)
          fail(`${dir}/${name} ${JSON.stringify(o)} in the page's voice`,
            left !== undefined ? `a flag is named: ${left}` : `got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      }
    }
  }
  // The data must hold diagnostics that name settings, or the check above proves nothing.
  ++checked;
  if (named < 20) fail("page's voice", `only ${named} diagnostics name a setting`);
  console.log(`page's voice: ${named} diagnostics that name a setting, each worded with the page's labels`);
}
{
  const r = m.convert(new Uint8Array(0), { voice: 'terminal' });
  ++checked;
  if (r.error !== "unknown voice 'terminal' (command-line or page)") fail('voice', `got ${r.error}`);
}

// 4. Mutated inputs (PGN_ICCF_WEB_MUTATIONS, default 300).
{
  let state = 0x9e3779b9; // xorshift32, fixed seed: the same inputs every run
  const rand = (n) => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state % n;
  };
  const seeds = [];
  for (const dir of ['edge', 'sample', 'hostile', 'golden']) {
    for (const name of fs.readdirSync(path.join(dataDir, dir)).sort()) {
      const file = path.join(dataDir, dir, name);
      if (name.endsWith('.pgn') && fs.statSync(file).size <= 65536) seeds.push(fs.readFileSync(file));
    }
  }
  const pieces = ['{', '}', '(', ')', '[', ']', '"', '\\', ';', '%', '$', '.', '*', '1-0', '0-1',
    '1/2-1/2', '\n', '\r', '\t', ' ', '\0', '\x1a', '\x7f', '\xc3', '\xbd', '\xe2\x80', '5254',
    '67682', 'O-O', 'O-O-O', 'e8=Q', 'Nbd7', '[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]',
    '[Variant "Chess960"]', '[SetUp "1"]', '1.', '...', '$255', '!?', '--', 'Z0'];
  const mutate = (bytes) => {
    let b = Buffer.from(bytes);
    for (let k = 1 + rand(4); k > 0; --k) {
      const at = rand(b.length + 1);
      switch (rand(7)) {
        case 0: if (b.length) b[Math.min(at, b.length - 1)] ^= 1 << rand(8); break;
        case 1: b = Buffer.concat([b.subarray(0, at), Buffer.from(pieces[rand(pieces.length)], 'latin1'), b.subarray(at)]); break;
        case 2: b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + rand(64)))]); break;
        case 3: { const n = rand(256); b = Buffer.concat([b.subarray(0, at + n), b.subarray(at, at + n), b.subarray(at + n)]); break; }
        case 4: { const other = seeds[rand(seeds.length)]; const from = rand(other.length + 1);
          b = Buffer.concat([b.subarray(0, at), other.subarray(from, from + rand(2048))]); break; }
        case 5: b = b.subarray(0, at); break;
        default: b = Buffer.concat([b.subarray(0, at), Buffer.from([rand(256)]), b.subarray(at)]); break;
      }
    }
    return b;
  };
  const choices = [
    [{ to: 'numeric' }, ['--to', 'numeric']],
    [{ to: 'san' }, ['--to', 'san']],
    [{ to: 'san', fixTypos: true }, ['--to', 'san', '--fix-typos']],
    [{ to: 'lan', keepBroken: true }, ['--to', 'lan', '--keep-broken']],
    [{ to: 'numeric', inputLang: 'auto' }, ['--to', 'numeric', '--input-lang', 'auto']],
    [{ to: 'san', strict: true, iccfShortPromotion: true }, ['--to', 'san', '--strict', '--iccf-short-promotion']],
    [{ to: 'numeric', annotate: true, width: 40 }, ['--to', 'numeric', '--annotate', '--width', '40']],
  ];
  const count = Number(process.env.PGN_ICCF_WEB_MUTATIONS || 300);
  const file = path.join(tmp, 'mutated.pgn');
  let slowest = 0;
  for (let i = 0; i < count; ++i) {
    const bytes = mutate(seeds[rand(seeds.length)]);
    fs.writeFileSync(file, bytes);
    const [o, cliArgs] = choices[rand(choices.length)];
    const t0 = performance.now();
    compare(`mutation ${i} (PGN_ICCF_WEB_MUTATIONS=${i + 1} repeats it, ${JSON.stringify(o)})`, file, o, cliArgs,
      rand(2) === 1, null);
    slowest = Math.max(slowest, performance.now() - t0);
    for (let k = 0; k < 3; ++k) {
      const r = m.positionAt(new Uint8Array(bytes), rand(bytes.length + 1), o);
      ++checked;
      // Outside every game (text between games, past the end) nothing is found and no FEN given.
      // In a game whose FEN tag is not valid there is no position: invalidFen, no FEN.
      if (r.error || (r.fen === undefined ? r.game !== undefined && r.invalidFen !== true : r.fen.split(' ').length !== 6))
        fail(`mutation ${i}: positionAt`, JSON.stringify(r));
    }
  }
  console.log(`mutations: ${count} inputs, slowest comparison (module and command line) ${slowest.toFixed(0)} ms`);
  if (slowest > 10000) fail('mutations', `a comparison took ${slowest.toFixed(0)} ms`);
  if (failures) fs.copyFileSync(file, path.join(os.tmpdir(), 'pgn-iccf-web-last-mutation.pgn'));
}

// Progress: called once per batch, ending at the input's size.
{
  const bytes = fs.readFileSync(path.join(dataDir, 'corpus', 'lichess_db_standard_rated_2021-10_first999.pgn'));
  const calls = [];
  const r = m.convertWithProgress(new Uint8Array(bytes), { to: 'numeric' }, (done, total) => calls.push([done, total]));
  ++checked;
  const last = calls[calls.length - 1];
  if (r.error || calls.length < 2 || last[0] !== bytes.length || last[1] !== bytes.length)
    fail('progress', JSON.stringify(calls));
}

// Time linear in the input: 16 copies of a 2.3 MB file take about 16 times as long as one,
// not 50 (an exact reserve per game once copied the whole output for every game under libc++:
// quadratic). Best of three, and a wide margin for noisy machines.
{
  const one = fs.readFileSync(path.join(dataDir, 'corpus', 'lichess_db_standard_rated_2021-10_first999.pgn'));
  const many = Buffer.concat(Array(16).fill(one));
  const best = (bytes) => {
    let t = Infinity;
    for (let i = 0; i < 3; ++i) {
      const t0 = performance.now();
      m.convert(bytes, { to: 'numeric' });
      t = Math.min(t, performance.now() - t0);
    }
    return t;
  };
  best(new Uint8Array(one)); // warm-up: the engine compiles the hot code optimised
  const t1 = best(new Uint8Array(one));
  const t16 = best(new Uint8Array(many));
  ++checked;
  console.log(`linear time: ${(one.length / 1e6).toFixed(1)} MB in ${t1.toFixed(0)} ms, 16 times that in ${t16.toFixed(0)} ms ` +
    `(${(many.length / 1e3 / t16).toFixed(1)} MB/s)`);
  if (t16 > 40 * t1) fail('linear time', `16 copies took ${(t16 / t1).toFixed(1)} times one`);
}

// The input check (sniff): text, and what other bytes look like, as the command line says.
{
  const png = m.sniff(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  const pgn = m.sniff(new TextEncoder().encode('[Event "x"]\n\n1. e4 *\n'));
  ++checked;
  if (png.text !== false || png.looksLike !== 'a PNG image' || pgn.text !== true)
    fail('sniff', JSON.stringify([png, pgn]));
  // A FEN tag that is not valid: no position at all, not the starting one.
  const bad = m.positionAt(new TextEncoder().encode('[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n1. 5254 *\n'), 40, {});
  ++checked;
  if (bad.fen !== undefined || bad.invalidFen !== true || bad.game !== 1) fail('positionAt, invalid FEN', JSON.stringify(bad));
}

// The position under the cursor: after 1. e4 e5 2. Nf3, the cursor on Nf3.
{
  const text = '[Event "x"]\n\n1. e4 e5 2. Nf3 (2. Nc3 Nc6) 2... Nc6 *\n';
  const bytes = new TextEncoder().encode(text);
  const at = (needle, o = {}) => m.positionAt(bytes, text.indexOf(needle), o);
  const checks = [
    [at('Nf3'), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2', 'g1', 'f3'],
    [at('Nc6)'), 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3', 'b8', 'c6'],
    [at(' 2... Nc6'), 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2', 'g1', 'f3'],
    [at('[Event'), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', undefined, undefined],
  ];
  for (const [r, fen, from, to] of checks) {
    ++checked;
    if (r.fen !== fen || r.from !== from || r.to !== to)
      fail('positionAt', `${JSON.stringify(r)}, expected ${fen} ${from}-${to}`);
  }
}

console.log(`node_differential: ${checked} comparisons (${goldenCases} golden cases, ${files} data files), ${failures} failures`);
process.exit(failures === 0 ? 0 : 1);
