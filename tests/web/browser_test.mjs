// The page in headless Chromium (issue I, test b), driven over the DevTools protocol
// (tests/web/cdp.mjs), served by a static server (tests/web/static_server.mjs) and from file://.
//
//   node tests/web/browser_test.mjs OUTDIR DATA_DIR SCREENSHOT.png
//
// Checks: data/sample/typos.pgn pasted shows the CLI's diagnostics with their "did you mean"
// buttons; clicking a diagnostic selects its token; clicking the suggestions converts the
// games; the board follows the cursor; a dropped .pgn.gz converts; a 20 MB file converts in
// the worker with progress while the page answers, with the output of the module run in Node
// (the module being checked against the CLI by node_differential.mjs); Cancel stops it; a
// ?to=san&pgn= link converts on load, and Share makes one; the page from file:// works;
// labelled controls; no horizontal scrolling on a phone-sized screen; no request leaves the
// page's own files (every request the browser makes, page and workers, is recorded). A
// screenshot of the page in use is saved to SCREENSHOT.png (the README's is
// data/web-screenshot.png).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { launch } from './cdp.mjs';
import { serve } from './static_server.mjs';

const [outArg, dataArg, screenshot] = process.argv.slice(2);
if (!outArg || !dataArg || !screenshot) {
  console.error('usage: node browser_test.mjs OUTDIR DATA_DIR SCREENSHOT.png');
  process.exit(2);
}
const outDir = path.resolve(outArg);
const dataDir = path.resolve(dataArg);
const m = await (await import(pathToFileURL(path.join(outDir, 'pgn-iccf.mjs')).href)).default();

let failures = 0;
let checks = 0;
function check(ok, what) {
  ++checks;
  if (!ok) {
    ++failures;
    console.error(`FAIL ${what}`);
  } else {
    console.log(`ok   ${what}`);
  }
}

const decode = (bytes) => {
  try { return new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch (e) { return new TextDecoder('windows-1252').decode(bytes); }
};
const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

const server = await serve(outDir);
const browser = await launch({ args: ['--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'] });
const fileBase = pathToFileURL(path.join(outDir, 'index.html')).href;

// Every request of every target (pages and their workers).
const requests = [];
browser.on((message) => {
  if (message.method === 'Network.requestWillBeSent') requests.push(message.params.request.url);
  if (message.method === 'Target.attachedToTarget') {
    const { sessionId } = message.params;
    browser.send('Network.enable', {}, sessionId).catch(() => {});
    browser.send('Runtime.runIfWaitingForDebugger', {}, sessionId).catch(() => {});
  }
});

async function openPage(url) {
  const page = await browser.newPage();
  await page.send('Page.enable');
  await page.send('Runtime.enable');
  await page.send('Network.enable');
  await page.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
  await page.navigate(url);
  // The module has started in the quick worker once the languages are listed.
  await page.until("document.getElementById('opt-lang').options.length > 20", 30000, 'languages listed');
  return page;
}

const byId = (id) => `document.getElementById(${JSON.stringify(id)})`;
const diagnosticTexts = (page) => page.eval(`[...${byId('diagnostics')}.querySelectorAll('.where')].map((b) => b.textContent)`);
const converted = (page) => page.eval(`Number(document.body.dataset.converted || 0)`);

async function setInput(page, text) {
  // As a paste: focus, select all, insert the text (input events as from the keyboard).
  await page.eval(`${byId('input')}.focus(); ${byId('input')}.select(); true`);
  await page.send('Input.insertText', { text });
}

async function waitConverted(page, after, what) {
  await page.until(`Number(document.body.dataset.converted || 0) > ${after}`, 60000, what);
}

async function clickButton(page, selector, text) {
  return page.eval(`(() => { const b = [...document.querySelectorAll(${JSON.stringify(selector)})]
    .find((x) => x.textContent.startsWith(${JSON.stringify(text)})); if (!b) return false; b.click(); return true; })()`);
}

const errors = [];
try {
  const page = await openPage(server.url);
  page.browser.on((msg) => {
    if (msg.method === 'Runtime.exceptionThrown') errors.push(msg.params.exceptionDetails.exception?.description || msg.params.exceptionDetails.text);
  });

  // --- accessibility and layout ---------------------------------------------------------------
  const unlabelled = await page.eval(`[...document.querySelectorAll('input, select, textarea')]
    .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')).map((e) => e.id)`);
  check(unlabelled.length === 0, `every control has a label (unlabelled: ${unlabelled.join(', ')})`);
  const nameless = await page.eval(`[...document.querySelectorAll('button')].filter((b) => !b.textContent.trim() && !b.getAttribute('aria-label')).length`);
  check(nameless === 0, 'every button has a name');
  // The width box shows the module's default (the export standard's lines under 80 bytes), and
  // a share link leaves it out.
  await page.until(`${byId('opt-width')}.value !== ''`, 10000, 'the width default shown');
  const widthShown = await page.eval(`${byId('opt-width')}.value`);
  check(widthShown === '79', `the width box shows the default line width, 79 (${widthShown})`);
  check(m.defaults().width === 79, 'the module says its default width is 79');

  // --- typos.pgn pasted, SAN -------------------------------------------------------------------
  await page.eval(`${byId('opt-to')}.value = 'san'; ${byId('opt-to')}.dispatchEvent(new Event('change', {bubbles: true})); true`);
  const typos = fs.readFileSync(path.join(dataDir, 'sample', 'typos.pgn'));
  let n = await converted(page);
  await setInput(page, typos.toString('utf8'));
  await waitConverted(page, n, 'typos.pgn converted');
  const expected = m.convert(new Uint8Array(typos), { to: 'san' });
  const lines = await diagnosticTexts(page);
  const expectedLines = expected.diagnostics.map((d) => `${d.line}:${d.column}: ${d.severity}: ${d.text}`);
  check(JSON.stringify(lines) === JSON.stringify(expectedLines), `typos.pgn: the diagnostics are the module's (${lines.length} lines)`);
  check(lines.length === 3 && lines[0].startsWith("10:35: error: game 1 (Postcard, A. - Postcard, B.), move 3...: '3464': the piece on 34 is White's; Black is to move; did you mean 3644 (Nd4)?"),
    `typos.pgn: first diagnostic as the CLI words it: ${lines[0]}`);
  const suggestionButtons = await page.eval(`[...document.querySelectorAll('#diagnostics .suggestion')].map((b) => b.textContent)`);
  check(JSON.stringify(suggestionButtons) === JSON.stringify(['use 3644 (Nd4)', 'use 4866 (Qf6)', 'use 4875 (Qg5)',
    'use 57581 (e8=Q)', 'use 57582 (e8=R)', 'use 57583 (e8=B)', 'use 57584 (e8=N)']), `suggestion buttons: ${suggestionButtons.join(', ')}`);
  check((await page.eval(`${byId('summary')}.textContent`)) === '2 games read: 0 converted, 2 rejected, 0 kept broken; 9 moves; 3 errors, 0 warnings',
    'typos.pgn: the summary line');

  // Clicking a diagnostic selects its token in the input.
  await clickButton(page, '#diagnostics .where', '10:48:');
  const selected = await page.eval(`${byId('input')}.value.slice(${byId('input')}.selectionStart, ${byId('input')}.selectionEnd)`);
  check(selected === '4876', `clicking 10:48 selects its token (${JSON.stringify(selected)})`);
  check(await page.eval(`document.activeElement === ${byId('input')}`), 'the input has the focus after the click');
  // The board shows the position after the move under the cursor (4876 does not play: the
  // position after 3644, the move before it).
  await page.until(`${byId('board-caption')}.textContent.startsWith('After 4. 6355')`, 10000, 'board after 4. 6355');
  check(true, 'the board follows the cursor (after 4. 6355)');

  // Keyboard: from the input, Tab reaches the first diagnostic (a button), and Enter on it
  // selects its token (real key events).
  {
    const key = async (k, code, vk, text) => {
      await page.send('Input.dispatchKeyEvent', { type: 'keyDown', key: k, code, windowsVirtualKeyCode: vk, ...(text ? { text } : {}) });
      await page.send('Input.dispatchKeyEvent', { type: 'keyUp', key: k, code, windowsVirtualKeyCode: vk });
    };
    await page.eval(`${byId('input')}.focus(); true`);
    const target = `[...document.querySelectorAll('#diagnostics .where')].find((b) => b.textContent.startsWith('10:35:'))`;
    let tabs = 0;
    while (tabs < 80 && !(await page.eval(`document.activeElement === ${target}`))) {
      await key('Tab', 'Tab', 9);
      ++tabs;
    }
    // The messages come next after the score (they came after the 12 options before).
    check(tabs === 1, `Tab goes from the input to the first diagnostic (${tabs} presses)`);
    await key('Enter', 'Enter', 13, '\r');
    const byKey = await page.eval(`${byId('input')}.value.slice(${byId('input')}.selectionStart, ${byId('input')}.selectionEnd)`);
    check(byKey === '3464', `Enter on 10:35 selects its token (${JSON.stringify(byKey)})`);
    // The hidden file input, reached by Shift+Tab from Convert, shows its focus on its label.
    await page.eval(`${byId('convert')}.focus(); true`);
    await page.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Shift', code: 'ShiftLeft', windowsVirtualKeyCode: 16, modifiers: 8 });
    await page.send('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, modifiers: 8 });
    await page.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, modifiers: 8 });
    await page.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Shift', code: 'ShiftLeft', windowsVirtualKeyCode: 16 });
    check(await page.eval(`document.activeElement === ${byId('file')} &&
      getComputedStyle(document.querySelector('label[for=file]')).outlineStyle === 'solid'`),
    'the file button shows the keyboard focus');
  }

  // A suggestion replaces its token and the game converts again.
  for (const [suggestion, left] of [['use 3644', 2], ['use 4875', 1], ['use 57581', 0]]) {
    n = await converted(page);
    check(await clickButton(page, '#diagnostics .suggestion', suggestion), `click ${suggestion}`);
    await waitConverted(page, n, `converted after ${suggestion}`);
    const now = await diagnosticTexts(page);
    check(now.length === left, `after ${suggestion}: ${left} diagnostics left (${now.length})`);
  }
  const fixedText = await page.eval(`${byId('input')}.value`);
  const fixed = m.convert(new TextEncoder().encode(fixedText), { to: 'san' });
  check(fixed.summary.converted === 2 && (await page.eval(`${byId('output')}.value`)) === decode(fixed.output),
    'after the suggestions both games convert, and the output is the module\'s');
  check(decode(fixed.output).includes('3. Bc4 Nd4 4. Nxe5 Qg5'), 'the SAN output holds the corrected moves');
  await page.eval(`${byId('input')}.focus(); ${byId('input')}.setSelectionRange(${fixedText.indexOf('7163') + 2}, ${fixedText.indexOf('7163') + 2}); ${byId('input')}.dispatchEvent(new Event('click')); true`);
  await page.until(`${byId('board-caption')}.textContent.startsWith('After 2. 7163')`, 10000, 'board after 2. 7163');
  check(await page.eval(`document.querySelectorAll('#board .moved').length === 2 && document.querySelectorAll('#board .piece').length === 32`),
    'the board marks the move and draws the pieces');
  // The screenshot of the page in use, with a typo left to show.
  n = await converted(page);
  await setInput(page, typos.toString('utf8'));
  await waitConverted(page, n, 'typos.pgn again');
  await clickButton(page, '#diagnostics .where', '10:35:');
  await page.until(`${byId('board-caption')}.textContent.startsWith('After 3... 3464')`, 10000, 'board after 3... 3464');
  await page.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 1300, deviceScaleFactor: 1, mobile: false });
  const shot = await page.send('Page.captureScreenshot', { format: 'png' });
  await page.send('Emulation.clearDeviceMetricsOverride');
  fs.writeFileSync(screenshot, Buffer.from(shot.data, 'base64'));
  check(fs.statSync(screenshot).size > 10000, `screenshot saved: ${screenshot}`);

  // --- a dropped .pgn.gz -----------------------------------------------------------------------------
  const sample = fs.readFileSync(path.join(dataDir, 'sample', 'sample.pgn'));
  // Two gzip members one after the other (what pgn-iccf -o x.pgn.gz writes for an input of more
  // than one batch): both read (the browser's decoder stopped at the first and failed).
  {
    const half = sample.indexOf('[Event', 10);
    const two = Buffer.concat([zlib.gzipSync(sample.subarray(0, half)), zlib.gzipSync(sample.subarray(half))]);
    const before = await converted(page);
    await page.eval(`(() => {
      const bytes = Uint8Array.from(atob(${JSON.stringify(two.toString('base64'))}), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'members.pgn.gz'));
      document.getElementById('input').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      return true; })()`);
    await waitConverted(page, before, 'a gzip file of two members converted');
    check((await page.eval(`${byId('input')}.value`)) === sample.toString('utf8'), 'a .gz of two members is read whole');
  }
  const gz = zlib.gzipSync(sample);
  n = await converted(page);
  await page.eval(`(() => {
    const bytes = Uint8Array.from(atob(${JSON.stringify(gz.toString('base64'))}), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'sample.pgn.gz', { type: 'application/gzip' }));
    document.getElementById('input').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    return true; })()`);
  await waitConverted(page, n, 'the dropped .pgn.gz converted');
  const sampleExpected = m.convert(new Uint8Array(sample), { to: 'san' });
  check((await page.eval(`${byId('output')}.value`)) === decode(sampleExpected.output) && sampleExpected.summary.converted > 0,
    'a dropped .pgn.gz is decompressed and converted as the module converts the .pgn');
  check((await page.eval(`${byId('file-name')}.textContent`)).startsWith('sample.pgn.gz'), 'the file name is shown');
  // A .zst is refused with a pointer to the command line.
  await page.eval(`(() => { const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0])], 'x.pgn.zst'));
    document.getElementById('input').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    return true; })()`);
  await page.until(`${byId('notice')}.textContent.includes('zstd')`, 10000, 'zstd refused');
  check((await page.eval(`${byId('notice')}.textContent`)).includes('command-line tool'), 'a .zst file points to the command line');
  // A PNG is refused by the input check and not shown as text (it was, before its message).
  const boxBefore = await page.eval(`${byId('input')}.value`);
  await page.eval(`(() => { const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])], 'board.png'));
    document.getElementById('input').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    return true; })()`);
  await page.until(`${byId('notice')}.textContent.includes('board.png')`, 10000, 'PNG refused');
  check((await page.eval(`${byId('notice')}.textContent`)).startsWith('board.png is not PGN text: it looks like a PNG image') &&
    (await page.eval(`${byId('input')}.value`)) === boxBefore, 'a PNG is refused as the command line refuses it, and the box keeps its text');
  check(await page.eval(`getComputedStyle(${byId('notice')}).color`) !== await page.eval(`getComputedStyle(document.body).color`),
    'a refusal is shown as an error');

  // --- 20 MB: progress while the page answers; the module's output ---------------------------------
  const unit = Buffer.concat(['lichess_db_standard_rated_2021-10_first999.pgn', 'twic-01-232games.pgn', 'chessjs-benchmark.pgn']
    .map((f) => Buffer.concat([fs.readFileSync(path.join(dataDir, 'corpus', f)), Buffer.from('\n')])));
  const copies = Math.ceil(20e6 / unit.length);
  const big = Buffer.concat(Array(copies).fill(unit));
  const bigExpected = m.convert(new Uint8Array(big), { to: 'san' });
  await page.eval(`(() => {
    const unit = Uint8Array.from(atob(${JSON.stringify(unit.toString('base64'))}), (c) => c.charCodeAt(0));
    const big = new Uint8Array(unit.length * ${copies});
    for (let i = 0; i < ${copies}; ++i) big.set(unit, i * unit.length);
    window.testBig = new File([big], 'big.pgn');
    return true; })()`);
  const dropBig = `(() => { const dt = new DataTransfer(); dt.items.add(window.testBig);
    document.getElementById('input').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    return true; })()`;
  // Timer gaps on the page's thread while it converts: the page answers.
  // (Counted while the progress bar shows: the conversion, not the drawing of its result.)
  await page.eval(`window.gaps = [0]; window.lastTick = performance.now(); window.ticker = setInterval(() => {
    const now = performance.now();
    if (!document.getElementById('progress-box').hidden) window.gaps.push(now - window.lastTick);
    window.lastTick = now; }, 10); true`);
  n = await converted(page);
  const dropped = Date.now();
  await page.eval(dropBig);
  const progressSeen = [];
  const answers = [];
  for (;;) {
    const t0 = Date.now();
    const state = await page.eval(`({ hidden: ${byId('progress-box')}.hidden, value: ${byId('progress')}.value,
      done: Number(document.body.dataset.converted || 0) > ${n} })`);
    answers.push(Date.now() - t0);
    if (!state.hidden) progressSeen.push(state.value);
    if (state.done) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await page.eval('clearInterval(window.ticker); true');
  const maxGap = await page.eval('Math.max(...window.gaps)');
  const partial = progressSeen.filter((v) => v > 0 && v < 1);
  check(partial.length >= 2 && new Set(partial).size >= 2, `20 MB (${(big.length / 1e6).toFixed(1)} MB): progress shown and moving (${partial.length} readings between 0 and 1)`);
  // Relative to the conversion's own duration, not fixed times (a loaded machine slows both):
  // a conversion on the page's thread would freeze it for about all of that duration.
  const took = Date.now() - dropped;
  const bound = Math.max(500, took / 2);
  check(Math.max(...answers) < Math.max(1000, bound) && maxGap < bound, `the page answers while converting (${took} ms: slowest answer ${Math.max(...answers)} ms, longest timer gap ${maxGap.toFixed(0)} ms)`);
  const pageHash = await page.eval(`crypto.subtle.digest('SHA-256', window.pgnIccfPage.result.output).then((h) =>
    [...new Uint8Array(h)].map((b) => b.toString(16).padStart(2, '0')).join(''))`);
  check(pageHash === sha256(bigExpected.output), `20 MB: the output is the module's (${(bigExpected.output.length / 1e6).toFixed(1)} MB, ${bigExpected.summary.read} games)`);
  check((await page.eval(`${byId('summary')}.textContent`)).startsWith(bigExpected.summary.line.replace(/^pgn-iccf: /, '').replace(/; [0-9.]+ s, .*$/, '')), '20 MB: the summary line');
  check(await page.eval(`${byId('progress-box')}.hidden`), 'the progress bar goes away');

  // --- Cancel --------------------------------------------------------------------------------------
  // After a short typed game, the big file opened again: while it converts, and after the
  // Cancel, nothing of the typed game is on offer (Copy gave it under big.pgn's name).
  n = await converted(page);
  await page.eval(`${byId('clear')}.click(); true`);
  await setInput(page, '1. 5254 5755 *\n');
  await waitConverted(page, n, 'a short game before the big file');
  await page.eval(dropBig);
  const before = await page.eval(`window.pgnIccfPage.generation`);
  await page.until(`!${byId('progress-box')}.hidden && ${byId('progress')}.value > 0`, 30000, 'progress before cancel');
  await page.eval(`${byId('cancel')}.click(); true`);
  // The large file's note stays beside it (why the box cannot be edited); nothing of an
  // earlier input is on offer (Copy gave the game typed before, under this file's name).
  check(await page.eval(`${byId('progress-box')}.hidden && ${byId('notice')}.textContent.startsWith('Conversion cancelled. ') &&
    ${byId('notice')}.textContent.includes('cannot be edited here')`), 'Cancel stops the conversion and says so');
  check(await page.eval(`window.pgnIccfPage.result === null && ${byId('output')}.value === '' && ${byId('summary')}.textContent === ''`),
    'after a Cancel no earlier result is on offer');
  await new Promise((r) => setTimeout(r, 300));
  check(await page.eval(`Number(document.body.dataset.converted) <= ${before}`), 'a cancelled conversion shows no result');
  // The page converts again afterwards (Clear: the large file leaves the input).
  await page.eval(`${byId('clear')}.click(); true`);
  check(await page.eval(`${byId('input')}.value === '' && !${byId('input')}.readOnly`), 'Clear empties the input');
  n = await converted(page);
  await setInput(page, '1. 5254 5755 2. 7163 2836 *\n');
  await waitConverted(page, n, 'converts after a cancel');
  check((await page.eval(`${byId('output')}.value`)).includes('1. e4 e5 2. Nf3 Nc6 *'), 'after a cancel the page converts again');
  // The page's messages name its controls, not the command line's flags.
  n = await converted(page);
  await setInput(page, '1. e4 e5 2. Cf3 *\n');
  await waitConverted(page, n, 'a French letter in English');
  const named = (await diagnosticTexts(page)).join('\n');
  check(named.includes(`unknown piece letter for input language 'en' (see "Piece letters of the input")`) && !named.includes('--'),
    `a message names the page's control, not a flag (${named})`);

  // --- found by a review as a user: the input's bytes, "use" on an edited score, undo ----------------
  // An empty input shows the starting position (it showed an empty board and "undefined").
  await page.eval(`${byId('clear')}.click(); true`);
  await page.until(`${byId('board-caption')}.textContent.startsWith('Before the first move')`, 10000, 'the caption of an empty input');
  check(!(await page.eval(`${byId('board-caption')}.textContent`)).includes('undefined') &&
    await page.eval(`document.querySelectorAll('#board .piece').length === 32`), 'an empty input shows the starting position');
  // A dropped file, its bytes and the "use" buttons' places in them: Latin-1 (one byte a letter
  // before the typo, where UTF-8 has two), and UTF-8 with one Latin-1 byte in the next game.
  const dropBytes = async (name, bytes) => {
    const before = await converted(page);
    await page.eval(`(() => { const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(${JSON.stringify(Buffer.from(bytes).toString('base64'))}), (c) => c.charCodeAt(0))], ${JSON.stringify(name)}));
      document.getElementById('input').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      return true; })()`);
    await waitConverted(page, before, `${name} converted`);
  };
  const resultBytes = async () => Buffer.from(await page.eval(`[...window.pgnIccfPage.result.output]`));
  const useAndWait = async (text) => {
    const before = await converted(page);
    check(await clickButton(page, '#diagnostics .suggestion', text), `click ${text}`);
    await waitConverted(page, before, `converted after ${text}`);
  };
  const latin1 = Buffer.from('[Event "F"]\n[Result "*"]\n\n{Sch\xf6ner Anfang, gro\xdfe Idee} 1. 5254 5755 2. 7164 2836 *\n', 'latin1');
  await dropBytes('latin1.pgn', latin1);
  await useAndWait('use 7163');
  check((await page.eval(`${byId('input')}.value`)).includes('Idee} 1. 5254 5755 2. 7163 2836 *'), 'Latin-1 file: "use 7163" replaces 7164');
  let bytesNow = await resultBytes();
  check(bytesNow.includes(Buffer.from('{Sch\xf6ner Anfang, gro\xdfe Idee}', 'latin1')) && bytesNow.includes(Buffer.from('2. Nf3 Nc6')) &&
    (await diagnosticTexts(page)).length === 0, 'Latin-1 file: after the edit the comment keeps its Latin-1 bytes and the game converts');
  // The edit is undone by the browser's undo.
  await page.eval(`${byId('input')}.focus(); document.execCommand('undo'); true`);
  check((await page.eval(`${byId('input')}.value`)).includes('2. 7164 2836'), 'a "use" edit can be undone');
  const mixed = Buffer.concat([Buffer.from('[White "M\u00fcller"]\n[Black "Dvo\u0159\u00e1k"]\n\n1. 5254 5755 2. 7164 *\n\n'),
    Buffer.from('[White "Gro\xdf"]\n\n1. 5254 *\n', 'latin1')]);
  await dropBytes('mixed.pgn', mixed);
  await useAndWait('use 7163');
  check((await page.eval(`${byId('file-name')}.textContent`)).startsWith('mixed.pgn'), 'after an edit the file keeps its name');
  bytesNow = await resultBytes();
  check(bytesNow.includes(Buffer.from('[White "M\u00fcller"]')) && bytesNow.includes(Buffer.from('[Black "Dvo\u0159\u00e1k"]')) &&
    bytesNow.includes(Buffer.from('[White "Gro\xdf"]', 'latin1')) && bytesNow.includes(Buffer.from('2. Nf3 *')),
  'UTF-8 with a Latin-1 byte: after an edit every name keeps its bytes');
  // Found by a review as a user. "use" replaces the quoted move only: a glyph and a NAG after
  // it stay (they went with it).
  n = await converted(page);
  await setInput(page, '1. 5254 5755 2. 7164?! 2836 *\n');
  await waitConverted(page, n, 'a typo with a glyph');
  await useAndWait('use 7163');
  check((await page.eval(`${byId('input')}.value`)) === '1. 5254 5755 2. 7163?! 2836 *\n', '"use" keeps the glyph after the move');
  // The board says where a game stops being playable.
  n = await converted(page);
  await setInput(page, '1. 5254 5755 2. 7199 2836 3. 6134 *\n');
  await waitConverted(page, n, 'a bad move');
  await page.eval(`${byId('input')}.setSelectionRange(27, 27); ${byId('input')}.dispatchEvent(new Event('select')); true`);
  await page.until(`${byId('board-caption')}.textContent.includes('cannot be played')`, 10000, 'the caption past a bad move');
  check((await page.eval(`${byId('board-caption')}.textContent`)).includes("The moves from '7199' (line 1) on cannot be played"),
    'past a bad move the board says that the game stops there');
  // Clear is an edit the browser's undo takes back.
  await page.eval(`${byId('clear')}.click(); true`);
  await page.eval(`${byId('input')}.focus(); document.execCommand('undo'); true`);
  check((await page.eval(`${byId('input')}.value`)).startsWith('1. 5254 5755 2. 7199'), 'Clear can be undone');
  // An empty file is refused and the box keeps its text (it was emptied).
  await page.eval(`(() => { const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(0)], 'empty.pgn'));
    document.getElementById('input').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    return true; })()`);
  await page.until(`${byId('notice')}.textContent.includes('empty.pgn')`, 10000, 'an empty file refused');
  check((await page.eval(`${byId('notice')}.textContent`)).startsWith('empty.pgn is empty.') &&
    (await page.eval(`${byId('input')}.value`)).startsWith('1. 5254 5755 2. 7199'), 'an empty file is refused and the box keeps its text');
  // A game whose FEN tag is not valid shows no position (it showed the starting one).
  n = await converted(page);
  await setInput(page, '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n1. 5254 *\n');
  await waitConverted(page, n, 'an invalid FEN converted');
  await page.until(`${byId('board-caption')}.textContent.includes('FEN')`, 10000, 'the caption of an invalid FEN');
  check(await page.eval(`document.querySelectorAll('#board .piece').length === 0`) &&
    (await page.eval(`${byId('board-caption')}.textContent`)).startsWith('Game 1 starts from a FEN tag that is not valid'),
  'an invalid FEN shows an empty board and says why');
  // Another game pasted over the whole text is no longer the file (its name went on naming
  // the download).
  n = await converted(page);
  await setInput(page, '1. 5254 5755 *\n');
  await waitConverted(page, n, 'a paste over a file converted');
  check((await page.eval(`${byId('file-name')}.textContent`)) === '', 'a paste over the whole file drops its name');
  // A "use" button of messages older than the text refuses (it wrote into the tag section).
  await page.eval(`${byId('clear')}.click(); ${byId('live')}.checked = false; true`);
  await setInput(page, '1. 5254 5755 2. 7164 2836 *\n');
  n = await converted(page);
  await page.eval(`${byId('convert')}.click(); true`);
  await waitConverted(page, n, 'converted on Convert');
  await page.eval(`${byId('input')}.value = '[White "X"]\\n[Black "Y"]\\n\\n' + ${byId('input')}.value; true`);
  const stale = await page.eval(`${byId('input')}.value`);
  check(await clickButton(page, '#diagnostics .suggestion', 'use 7163'), 'click use 7163 on the edited score');
  check((await page.eval(`${byId('input')}.value`)) === stale && (await page.eval(`${byId('notice')}.textContent`)).includes('has changed'),
    'a suggestion of messages older than the text changes nothing and says why');
  await page.eval(`${byId('live')}.checked = true; true`);
  // Nothing converted: Copy and Download say so, and the clipboard is left alone.
  n = await converted(page);
  await setInput(page, '1. 5254 4244 *\n');
  await waitConverted(page, n, 'a rejected game converted');
  await page.eval(`${byId('copy')}.click(); true`);
  await page.until(`${byId('output-note')}.textContent.startsWith('Nothing to copy')`, 10000, 'nothing to copy');
  check(true, 'Copy with no game converted says there is nothing to copy');
  // With piece letters "auto", the board follows a German score to the cursor (it stopped at
  // the first move German and English write alike).
  await page.eval(`(() => { const s = ${byId('opt-inputLang')}; s.value = 'auto';
    s.dispatchEvent(new Event('change', { bubbles: true })); return true; })()`);
  n = await converted(page);
  await setInput(page, '1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 *\n');
  await waitConverted(page, n, 'a German score converted');
  await page.eval(`(() => { const i = ${byId('input')}; i.focus(); i.setSelectionRange(27, 27);
    i.dispatchEvent(new Event('keyup')); return true; })()`);
  await page.until(`${byId('board-caption')}.textContent.startsWith('After 3... a6')`, 10000, 'the board at 3... a6');
  check(true, 'with input letters auto the board follows a German score (after 3... a6)');
  await page.eval(`(() => { const s = ${byId('opt-inputLang')}; s.value = 'en';
    s.dispatchEvent(new Event('change', { bubbles: true })); return true; })()`);
  n = await converted(page); // the game the checks below share
  await setInput(page, '1. 5254 5755 2. 7163 2836 *\n');
  await waitConverted(page, n, 'converted again');

  // --- Share and ?pgn= ---------------------------------------------------------------------------------
  const link = await page.eval(`window.pgnIccfPage.shareLink()`);
  check(typeof link === 'string' && link.includes('to=san') && link.includes('pgn='), `Share makes a link: ${link}`);
  check(!link.includes('width='), 'the link leaves out the default width');
  await page.navigate(link);
  await page.until(`${byId('output')}.value.includes('1. e4 e5 2. Nf3 Nc6 *')`, 30000, 'the shared link converts on load');
  check(true, 'the shared link converts on load');
  const query = `?to=san&fixTypos=1&pgn=${encodeURIComponent('[White "A"]\n\n1. 5254 5755 2. 7163 2836 3. 6134 3464 *\n')}`;
  await page.navigate(server.url + query);
  await page.until(`${byId('output')}.value.includes('3. Bc4 Nd4 {typed 3464}')`, 30000, '?pgn= with fixTypos');
  check(await page.eval(`${byId('opt-fixTypos')}.checked && ${byId('opt-to')}.value === 'san'`), 'the query sets the options');

  // --- phone-sized screen ----------------------------------------------------------------------------
  await page.send('Emulation.setDeviceMetricsOverride', { width: 390, height: 844, deviceScaleFactor: 2, mobile: true });
  await page.navigate(server.url);
  await page.until(`document.getElementById('opt-lang').options.length > 20`, 30000, 'phone load');
  const width = await page.eval('document.documentElement.scrollWidth');
  check(width <= 390, `no horizontal scrolling on a 390 px screen (${width} px)`);
  await page.send('Emulation.clearDeviceMetricsOverride');

  // --- file:// --------------------------------------------------------------------------------------------
  const filePage = await openPage(fileBase + `?to=san&pgn=${encodeURIComponent('1. 5254 5755 2. 7163 2836 *')}`);
  await filePage.until(`${byId('output')}.value.includes('1. e4 e5 2. Nf3 Nc6 *')`, 30000, 'file:// ?pgn= converts');
  check(true, 'from file:// the page converts (?pgn= on load)');
  n = await converted(filePage);
  await setInput(filePage, typos.toString('utf8'));
  await waitConverted(filePage, n, 'file:// typos');
  check((await diagnosticTexts(filePage)).length === 3, 'from file:// the diagnostics show');

  // --- requests ----------------------------------------------------------------------------------------
  const allowed = (url) => url.startsWith(server.url) || url.startsWith('data:') || url.startsWith('blob:') ||
    url === 'about:blank' || url.startsWith(pathToFileURL(outDir).href + '/');
  const outside = requests.filter((u) => !allowed(u));
  check(requests.length > 0 && outside.length === 0, `no request leaves the page's own files (${requests.length} requests; outside: ${outside.join(' ')})`);
  const served = [...new Set(server.requests.map((u) => u.split('?')[0]))].sort();
  check(served.every((u) => ['/', '/index.html', '/app.js', '/worker.js', '/pgn-iccf.mjs', '/style.css'].includes(u)),
    `the server was asked only for the page's files: ${served.join(' ')}`);
  // Served, the workers import the one module that Node imports; the classic wrapping of the
  // same code (pgn-iccf.js) is for file:// only.
  check(served.includes('/pgn-iccf.mjs') && !served.includes('/pgn-iccf.js'),
    `served, the page's workers use pgn-iccf.mjs (requested: ${served.join(' ')})`);
  const fromFile = requests.filter((u) => u.startsWith(pathToFileURL(outDir).href + '/')).map((u) => path.basename(u));
  check(fromFile.includes('pgn-iccf.js') && !fromFile.includes('pgn-iccf.mjs'),
    `from file://, the classic wrapping pgn-iccf.js is loaded (requested: ${[...new Set(fromFile)].join(' ')})`);
  check(errors.length === 0, `no uncaught error in the page (${errors.join(' | ')})`);
} catch (e) {
  ++failures;
  console.error(`FAIL ${e.stack || e}`);
  console.error(browser.stderr().slice(-3000));
} finally {
  await browser.close();
  await server.close();
}
console.log(`browser_test: ${checks} checks, ${failures} failures`);
process.exit(failures === 0 ? 0 : 1);
