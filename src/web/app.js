// The page of pgn-iccf (index.html): input, options, output, diagnostics and the board. Every
// rule of the conversion is the WebAssembly module's (pgn-iccf.mjs, the code of the command
// line); this script only moves bytes to and from it and draws what it returns.
/* global PgnIccfSource, pgnIccfWorkerMain */
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const input = $('input');
  const output = $('output');
  const notice = $('notice');

  // Inputs up to this size convert as they are typed; larger ones on Convert, in the worker.
  const liveLimit = 256 * 1024;
  // The input text area holds files up to this size; a larger file is converted as it was
  // read, the text area showing its beginning.
  const editLimit = 4 * 1024 * 1024;
  const shownLimit = 512 * 1024; // of a large output, the text area shows this much
  const shareLimit = 6000; // bytes of PGN in a Share link

  // --- workers ------------------------------------------------------------------------------
  // Two workers: `quick` for conversions as you type and the board, `bulk` for Convert
  // (cancelled by terminating it, so the page never waits on a long conversion). Each runs
  // pgnIccfWorkerMain (worker.js) over the module:
  // - served (http, https): a module worker importing pgn-iccf.mjs, the module Node imports;
  // - from file://, where browsers load neither module scripts nor module workers: the same
  //   code in its classic wrapping, pgn-iccf.js (built from the same output by build.sh),
  //   loaded only then, and the worker started from its text as a blob.
  function workerSource() {
    const main = `${pgnIccfWorkerMain.toString()}\n`;
    if (location.protocol === 'http:' || location.protocol === 'https:') {
      const module = new URL('pgn-iccf.mjs', location.href).href;
      return Promise.resolve({
        url: URL.createObjectURL(new Blob([
          `import factory from ${JSON.stringify(module)};\n${main}pgnIccfWorkerMain(self, factory);\n`],
        { type: 'text/javascript' })),
        options: { type: 'module' },
      });
    }
    return new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = 'pgn-iccf.js';
      script.onload = () => resolve({
        url: URL.createObjectURL(new Blob([
          `${PgnIccfSource.toString()}\n${main}pgnIccfWorkerMain(self, PgnIccfSource());\n`],
        { type: 'text/javascript' })),
        options: {},
      });
      script.onerror = () => reject(new Error('pgn-iccf.js could not be loaded'));
      document.head.append(script);
    });
  }
  const source = workerSource();

  class Channel {
    constructor() { this.next = 1; this.pending = new Map(); this.generation = 0; this.start(); }
    start() {
      const generation = ++this.generation;
      this.ready = source.then(({ url, options }) => {
        if (generation !== this.generation) return; // restarted before it was ready
        this.worker = new Worker(url, options);
        this.worker.onmessage = (e) => {
          const p = this.pending.get(e.data.id);
          if (!p) return;
          if (e.data.progress) { if (p.progress) p.progress(...e.data.progress); return; }
          this.pending.delete(e.data.id);
          if (e.data.error !== undefined) p.reject(new Error(e.data.error));
          else p.resolve(e.data.result);
        };
        this.worker.onerror = (e) => this.restart(new Error(e.message || 'the converter stopped'));
      });
    }
    async request(message, progress, transfer = []) {
      while (!this.worker) await this.ready; // (a restart may replace it while waiting)
      const id = this.next++;
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject, progress });
        this.worker.postMessage({ ...message, id }, transfer);
      });
    }
    restart(reason) {
      if (this.worker) this.worker.terminate();
      this.worker = null;
      for (const p of this.pending.values()) p.reject(reason);
      this.pending.clear();
      this.start();
    }
  }
  const quick = new Channel();
  const bulk = new Channel();

  // --- the input as bytes -------------------------------------------------------------------
  // A file keeps its bytes as read (Latin-1 and UTF-8 alike pass through unchanged, as in the
  // command line) until the text is edited; typed text is UTF-8.
  // A file that is not UTF-8 (Latin-1, or UTF-8 with a Latin-1 byte somewhere) is shown as
  // Windows-1252, one character a byte, and an edit of it is encoded back the same way, so the
  // bytes of what was not edited (names in either encoding) stay as read.
  let file = null; // {name, bytes, shown: the text area holds all of it, latin1: not UTF-8}
  let inputDirty = false;

  const cp1252 = (() => {
    const text = new TextDecoder('windows-1252').decode(Uint8Array.from({ length: 256 }, (_, i) => i));
    const byChar = new Map();
    for (let i = 0; i < 256; ++i) byChar.set(text[i], i);
    return byChar;
  })();
  const utf8 = new TextEncoder();

  // The bytes of `text` as the input is encoded: UTF-8, or for a file that is not, its
  // Windows-1252 bytes (a character typed that it has not: UTF-8).
  function encodeText(text) {
    if (!(file && file.latin1)) return utf8.encode(text);
    const out = new Uint8Array(text.length * 3);
    let n = 0;
    for (const ch of text) {
      const b = cp1252.get(ch);
      if (b !== undefined) out[n++] = b;
      else n += utf8.encodeInto(ch, out.subarray(n)).written;
    }
    return out.slice(0, n);
  }

  // Bytes of the character `ch` in the input's encoding (columns count bytes).
  function byteLength(ch) {
    if (file && file.latin1 && cp1252.has(ch)) return 1;
    return utf8.encode(ch).length;
  }

  function inputBytes() {
    if (file && (!inputDirty || !file.shown)) return file.bytes;
    return encodeText(input.value);
  }

  // The text of `bytes`: UTF-8, or where they are not UTF-8 Windows-1252 (latin1 set).
  function decodeBytes(bytes) {
    try {
      // The byte order mark stays in the text (U+FEFF, invisible): the module counts its bytes
      // in the columns of line 1, and an edit writes it back.
      return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), latin1: false };
    } catch (e) {
      return { text: new TextDecoder('windows-1252').decode(bytes), latin1: true };
    }
  }

  function decodeForDisplay(bytes) { return decodeBytes(bytes).text; }

  function largeFileNote() {
    return `${file.name} is ${formatBytes(file.bytes.length)}: the box shows its beginning and ` +
      'cannot be edited here; Convert converts all of it. To correct a move, correct it in the ' +
      'file and open it again.';
  }

  function setFile(name, bytes) {
    // A new input: the results of the one before go (Copy and Download gave them under this
    // file's name while it converted, or after a Cancel), and a conversion still due for the
    // text before it is dropped (it could land after this file's).
    clearTimeout(timer);
    ++generation;
    clearResult();
    const shown = bytes.length <= editLimit;
    // A file too large to edit shows its beginning; whether it is UTF-8 matters only to edits.
    const { text, latin1 } = decodeBytes(shown ? bytes : bytes.subarray(0, 64 * 1024));
    file = { name, bytes, shown, latin1: shown && latin1 };
    inputDirty = false;
    input.value = text;
    input.readOnly = !shown;
    $('file-name').textContent = `${name} (${formatBytes(bytes.length)})`;
    setNotice(shown ? '' : largeFileNote(), 'info');
  }

  // A file that could not be read: said, and the page left as it was.
  function unreadable(text) {
    setNotice(`${text}${input.value ? ' The box still shows what it showed before.' : ''}`);
  }

  function formatBytes(n) {
    if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
    if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
    return `${n} bytes`;
  }

  // A gzip file's bytes decompressed, or null if they are not valid gzip data. Several members
  // one after the other (what pgn-iccf -o x.pgn.gz, pigz and bgzip write) are read one by one:
  // the browser's DecompressionStream reads one member and fails on what follows it, so the
  // data is cut where a member header (1f 8b 08) begins and the part before it reads whole.
  async function gunzip(bytes) {
    const inflate = async (part) => {
      try {
        const stream = new Blob([part]).stream().pipeThrough(new DecompressionStream('gzip'));
        return new Uint8Array(await new Response(stream).arrayBuffer());
      } catch (e) {
        return null;
      }
    };
    const whole = await inflate(bytes);
    if (whole) return whole;
    const parts = [];
    let start = 0;
    for (let i = 1; i + 2 < bytes.length; ++i) {
      if (bytes[i] !== 0x1f || bytes[i + 1] !== 0x8b || bytes[i + 2] !== 0x08 || i <= start) continue;
      const part = await inflate(bytes.subarray(start, i));
      if (part) {
        parts.push(part);
        start = i;
      }
    }
    const last = await inflate(bytes.subarray(start));
    if (!last || parts.length === 0) return null;
    parts.push(last);
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  async function openFile(f) {
    const bytes = new Uint8Array(await f.arrayBuffer());
    const magic = (a, b, c) => bytes[0] === a && bytes[1] === b && (c === undefined || bytes[2] === c);
    // What the bytes are, as the command line looks at them (by their first bytes, not the name).
    let text = bytes;
    if (magic(0x1f, 0x8b)) {
      text = await gunzip(bytes);
      if (!text) {
        unreadable(`${f.name} could not be read: the gzip data is corrupt or truncated.`);
        return;
      }
    } else if (magic(0x42, 0x5a, 0x68) || (bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd)) {
      const kind = bytes[0] === 0x42 ? 'bzip2' : 'zstd';
      unreadable(`${f.name} is ${kind}-compressed: this page reads .pgn and .pgn.gz files. ` +
        `Decompress it first, or use the command-line tool: pgn-iccf ${f.name}.`);
      return;
    }
    if (text.length === 0) {
      unreadable(`${f.name} is empty.`);
      return;
    }
    // Not text (an image, an archive, UTF-16 text, compressed data inside the .gz): said, and
    // not shown as text in the box.
    const sniffed = await quick.request({ kind: 'sniff', bytes: text.slice(0, 4096) });
    if (!sniffed.text || sniffed.compression) {
      unreadable(`${f.name} is not PGN text: it looks like ${sniffed.looksLike || `${sniffed.compression} data inside the ${text === bytes ? 'file' : 'gzip data'}`}.`);
      return;
    }
    setFile(f.name, text);
    convertNow();
    updateBoard();
  }

  // A notice: an error or a warning (red), or with kind 'info' a plain note (a large file, a
  // cancelled conversion).
  function setNotice(text, kind = 'error') {
    notice.textContent = text;
    notice.classList.toggle('info', kind === 'info');
  }

  // --- options --------------------------------------------------------------------------------
  const optionNames = ['to', 'lang', 'inputLang', 'width', 'fixTypos', 'annotate', 'comments', 'nags',
    'variations', 'keepBroken', 'strict', 'iccfShortPromotion'];
  const defaults = { to: 'numeric', lang: 'en', inputLang: 'en', width: undefined, fixTypos: false, annotate: false,
    comments: true, nags: true, variations: true, keepBroken: false, strict: false, iccfShortPromotion: false };

  // The module words its messages for the page's reader: settings by the labels of the
  // controls above ("Piece letters of the input"), not by the command line's flags.
  function options() {
    const o = { voice: 'page' };
    for (const name of optionNames) {
      const el = $(`opt-${name}`);
      if (el.type === 'checkbox') o[name] = el.checked;
      else if (name === 'width') o[name] = el.value === '' ? defaults.width : Number(el.value);
      else o[name] = el.value;
    }
    return o;
  }

  function setOption(name, value) {
    const el = $(`opt-${name}`);
    if (!el) return;
    if (el.type === 'checkbox') {
      el.checked = !['0', 'false', 'no', 'off'].includes(String(value).toLowerCase());
      return;
    }
    // A choice in any letter case (?to=SAN), as the module and the command line take it, and
    // the command line's other name of numeric (?to=iccf).
    const wanted = name === 'to' && String(value).toLowerCase() === 'iccf' ? 'numeric' : String(value).toLowerCase();
    const known = el.tagName === 'SELECT' && [...el.options].find((o) => o.value.toLowerCase() === wanted);
    if (known) el.value = known.value;
    else if (el.tagName === 'SELECT') {
      el.add(new Option(value, value)); // shown, and refused by the module with its words
      el.value = value;
    } else el.value = value;
  }

  // The width's default is the module's (pgn::default_width): an empty box means it until
  // the module has said what it is, then the box shows it.
  async function fillDefaults() {
    const d = await quick.request({ kind: 'defaults' });
    defaults.width = d.width;
    const box = $('opt-width');
    if (box.value === '') box.value = String(d.width);
  }

  async function fillLanguages() {
    const list = await quick.request({ kind: 'languages' });
    for (const sel of [$('opt-lang'), $('opt-inputLang')]) {
      const keep = sel.value;
      const auto = sel.id === 'opt-inputLang';
      sel.textContent = '';
      if (auto) sel.add(new Option('auto (each game in the language that plays it)', 'auto'));
      for (const l of list) sel.add(new Option(`${l.code}: ${l.name}`, l.code));
      sel.value = keep;
    }
  }

  // --- conversion --------------------------------------------------------------------------------
  let generation = 0; // a newer conversion makes older answers stale
  let lastResult = null;

  function suffix(to) { return to === 'san' ? '.san.pgn' : to === 'lan' ? '.lan.pgn' : '.iccf.pgn'; }

  // The name of the output on offer: the notation it was converted to, not the one chosen
  // since (a numeric score was saved as .san.pgn).
  function outputName() {
    const base = file ? file.name.replace(/(\.pgn)?(\.gz|\.bz2|\.zst)?$/i, '') : 'game';
    return base + suffix(lastResult && lastResult.to ? lastResult.to : options().to);
  }

  async function convert(bytes, useBulk) {
    const mine = ++generation;
    const channel = useBulk ? bulk : quick;
    const box = $('progress-box');
    if (useBulk) {
      box.hidden = false;
      $('progress').value = 0;
      $('progress-text').textContent = '';
    }
    const chosen = options();
    try {
      const result = await channel.request({ kind: 'convert', bytes, options: chosen }, (done, total) => {
        $('progress').value = total ? done / total : 1;
        $('progress-text').textContent = `${formatBytes(done)} of ${formatBytes(total)}`;
      });
      if (mine !== generation) return;
      result.to = chosen.to;
      show(result);
    } catch (e) {
      if (mine === generation) setNotice(e.message === 'cancelled' ? 'Conversion cancelled.' : `The conversion failed: ${e.message}`,
        e.message === 'cancelled' ? 'info' : 'error');
    } finally {
      if (useBulk && mine === generation) box.hidden = true;
    }
  }

  function convertNow() {
    const bytes = inputBytes();
    convert(bytes.slice(), bytes.length > liveLimit);
  }

  let timer = 0;
  function convertSoon() {
    clearTimeout(timer);
    if (!$('live').checked) return;
    const bytes = inputBytes();
    if (bytes.length > liveLimit) {
      ++generation; // a conversion of the text before must not land now
      clearResult(); // it was the result of the text before
      setNotice('Large input: press Convert.', 'info');
      return;
    }
    timer = setTimeout(() => convert(bytes, false), 300);
  }

  // No result on show (a new input, a refused option).
  function clearResult() {
    lastResult = null;
    output.value = '';
    $('output-note').textContent = '';
    $('summary').textContent = '';
    $('download-rejects').hidden = true;
    showDiagnostics([]);
  }

  function show(result) {
    if (result.error) {
      // Nothing of an earlier conversion stays on show as if it were this one's.
      clearResult();
      setNotice(result.error);
      return;
    }
    lastResult = result;
    setNotice(file && !file.shown ? largeFileNote() : '', 'info');
    const text = decodeForDisplay(result.output.length > shownLimit ? result.output.subarray(0, shownLimit) : result.output);
    output.value = text;
    $('output-note').textContent = result.output.length > shownLimit
      ? `${formatBytes(result.output.length)}: the box shows the beginning; Copy and Download take all of it.` : '';
    $('download-rejects').hidden = result.rejects.length === 0;
    // The command line's summary without its program name, and its speed only where the
    // conversion took long enough for one to mean something.
    const line = result.summary.line.replace(/^pgn-iccf: /, '');
    $('summary').textContent = result.summary.bytes === 0 && result.diagnostics.length === 0 ? '' // an empty box
      : result.summary.seconds < 0.1 ? line.replace(/; [0-9.]+ s, [0-9.]+ MB\/s, [0-9]+ games\/s/, '') : line;
    showDiagnostics(result.diagnostics);
    document.body.dataset.converted = String(generation);
  }

  // --- diagnostics ---------------------------------------------------------------------------------
  const maxShown = 1000;

  function showDiagnostics(list) {
    const ol = $('diagnostics');
    ol.textContent = '';
    for (const d of list.slice(0, maxShown)) {
      const li = document.createElement('li');
      li.className = d.severity;
      const where = document.createElement('button');
      where.type = 'button';
      where.className = 'where';
      where.textContent = `${d.line}:${d.column}: ${d.severity}: ${d.text}`;
      where.title = 'Show this place in the game score';
      where.addEventListener('click', () => selectToken(d.line, d.column));
      li.append(where);
      for (const s of suggestions(d.text)) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'suggestion';
        b.textContent = `use ${s.move}${s.reading ? ` (${s.reading})` : ''}`;
        b.setAttribute('aria-label', `Replace the move at line ${d.line}, column ${d.column} with ${s.move}`);
        b.addEventListener('click', () => replaceToken(d.line, d.column, quotedToken(d.text), s.move));
        li.append(' ', b);
      }
      ol.append(li);
    }
    if (list.length > maxShown) {
      const li = document.createElement('li');
      li.textContent = `… and ${list.length - maxShown} more`;
      ol.append(li);
    }
  }

  // The moves of a "did you mean 3644 (Nd4) or 3655 (Nf6)?" of the module's text.
  function suggestions(text) {
    const at = text.indexOf('did you mean ');
    if (at < 0) return [];
    const end = text.indexOf('?', at);
    const part = text.slice(at + 13, end < 0 ? undefined : end);
    const found = [];
    for (const m of part.matchAll(/([^\s,()]+)(?: \(([^)]*)\))?/g)) {
      if (m[1] === 'or') continue;
      found.push({ move: m[1], reading: m[2] });
    }
    return found;
  }

  // The token a diagnostic quotes at its move ("move 2.: '7164': ..."), or null.
  function quotedToken(text) {
    const m = /move \d+\.(?:\.\.)?: '([^']*)'/.exec(text);
    return m ? m[1] : null;
  }

  // The text area's character range of the token at LINE:COLUMN (a column counts bytes, in
  // the input's encoding).
  function tokenRange(line, column) {
    if (file && !file.shown) {
      setNotice(largeFileNote(), 'info');
      return null;
    }
    const text = input.value;
    let start = 0;
    for (let l = 1; l < line; ++l) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) return null;
      start = nl + 1;
    }
    let bytes = 0;
    let i = start;
    while (bytes < column - 1 && i < text.length && text[i] !== '\n') {
      const ch = String.fromCodePoint(text.codePointAt(i));
      bytes += byteLength(ch);
      i += ch.length;
    }
    let end = i;
    while (end < text.length && !/[\s(){};]/.test(text[end])) ++end;
    if (end === i && end < text.length) ++end;
    return [i, end];
  }

  function selectToken(line, column) {
    const r = tokenRange(line, column);
    if (!r) return;
    input.focus();
    input.setSelectionRange(r[0], r[1]);
    // Scroll the line into view.
    const lineHeight = parseFloat(getComputedStyle(input).lineHeight) || 20;
    input.scrollTop = Math.max(0, (line - 3) * lineHeight);
    input.classList.add('marked');
    setTimeout(() => input.classList.remove('marked'), 1500);
    updateBoard();
  }

  // "use ...": the move the diagnostic quotes, at its place, replaced (an edit the browser can
  // undo), unless the text there is no longer that move (edited since the conversion).
  function replaceToken(line, column, token, move) {
    const r = tokenRange(line, column);
    if (!r) return;
    if (token !== null && !input.value.slice(r[0], r[1]).startsWith(token)) {
      setNotice(`The game score has changed since these messages: line ${line} no longer has ` +
        `'${token}' there. Press Convert, then choose again.`);
      return;
    }
    // Only the quoted move: a glyph or NAG glued after it ('7164?!', '7164$1') stays.
    const end = token !== null ? r[0] + token.length : r[1];
    input.focus();
    input.setSelectionRange(r[0], end);
    if (!document.execCommand('insertText', false, move)) input.setRangeText(move, r[0], end, 'end');
    inputDirty = true;
    convert(inputBytes(), false);
    updateBoard();
  }

  // --- board -------------------------------------------------------------------------------------------
  const glyphs = { K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658', P: '\u2659',
    k: '\u265a', q: '\u265b', r: '\u265c', b: '\u265d', n: '\u265e', p: '\u265f' };

  function drawBoard(fen, from, to) {
    const size = 40;
    const svgNS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(svgNS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${size * 8 + 20} ${size * 8 + 20}`);
    svg.setAttribute('aria-hidden', 'true');
    const rows = (fen || '').split(' ')[0].split('/');
    const squareName = (f, r) => 'abcdefgh'[f] + (r + 1);
    const el = (name, attrs, text) => {
      const e = document.createElementNS(svgNS, name);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      svg.append(e);
      return e;
    };
    for (let r = 7; r >= 0; --r) {
      for (let f = 0; f < 8; ++f) {
        const x = 20 + f * size;
        const y = (7 - r) * size;
        const name = squareName(f, r);
        let cls = (f + r) % 2 === 0 ? 'dark' : 'light';
        if (name === from || name === to) cls += ' moved';
        el('rect', { x, y, width: size, height: size, class: cls });
      }
    }
    for (let i = 0; i < 8; ++i) {
      // ICCF numeric names: files and ranks 1-8 (and the letters of SAN).
      el('text', { x: 20 + i * size + size / 2, y: size * 8 + 15, class: 'coord' }, `${i + 1} ${'abcdefgh'[i]}`);
      el('text', { x: 10, y: (7 - i) * size + size / 2 + 5, class: 'coord' }, String(i + 1));
    }
    rows.forEach((row, i) => {
      let f = 0;
      for (const c of row) {
        if (c >= '1' && c <= '8') { f += Number(c); continue; }
        if (glyphs[c]) {
          el('text', { x: 20 + f * size + size / 2, y: i * size + size * 0.78, class: `piece ${c === c.toUpperCase() ? 'white' : 'black'}` }, glyphs[c]);
        }
        ++f;
      }
    });
    const box = $('board');
    box.textContent = '';
    box.append(svg);
    box.setAttribute('aria-label', `chess board: ${fen}`);
  }

  const startFen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  let boardTimer = 0;
  function updateBoard() {
    clearTimeout(boardTimer);
    boardTimer = setTimeout(async () => {
      const text = input.value;
      if ((file && !file.shown) || text.length > liveLimit * 4) { // not followed: said so
        drawBoard('8/8/8/8/8/8/8/8 w - - 0 1');
        $('board-caption').textContent = `The board follows the cursor in inputs up to ${formatBytes(liveLimit * 4)}.`;
        return;
      }
      const bytes = encodeText(text);
      const offset = encodeText(text.slice(0, input.selectionStart)).length;
      try {
        // The line width plays no part in a position (a refused width would stop the board).
        const o = options(); // what reads the moves; the output's options play no part
        const r = await quick.request({ kind: 'position', bytes, offset,
          options: { inputLang: o.inputLang, iccfShortPromotion: o.iccfShortPromotion, voice: 'page' } });
        if (r.error) return;
        if (r.invalidFen) { // no position to show: an empty board, and why
          drawBoard('8/8/8/8/8/8/8/8 w - - 0 1');
          $('board-caption').textContent = `Game ${r.game} starts from a FEN tag that is not valid: no position to show (see the messages).`;
          return;
        }
        const fen = r.fen || startFen; // no game (an empty input): the starting position
        drawBoard(fen, r.from, r.to);
        // The FEN alone may break anywhere (it has no spaces to break at); the words may not.
        const caption = $('board-caption');
        caption.textContent = r.found
          ? `After ${r.number}${r.white ? '.' : '...'} ${r.token}${r.corrected ? ' (read as its suggestion)' : ''}` +
            ` (line ${r.line}, game ${r.game}); `
          : 'Before the first move; ';
        const fenSpan = document.createElement('span');
        fenSpan.className = 'fen';
        fenSpan.textContent = fen;
        caption.append(fenSpan);
        if (r.stoppedAt) caption.append(`. The moves from '${r.stoppedAt}' (line ${r.stoppedLine}) on cannot be played: see the messages.`);
      } catch (e) { /* the next cursor move asks again */ }
    }, 120);
  }

  // --- output ----------------------------------------------------------------------------------------
  function download(bytes, name) {
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/x-chess-pgn' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // Whether there is output to copy or download; if not, says so (the clipboard is left alone).
  function haveOutput(what) {
    if (lastResult && lastResult.output && lastResult.output.length) return true;
    $('output-note').textContent = `Nothing to ${what}: no game was converted (see the messages).`;
    return false;
  }

  async function copyOutput() {
    if (!haveOutput('copy')) return;
    const text = decodeForDisplay(lastResult.output);
    try {
      await navigator.clipboard.writeText(text);
      $('output-note').textContent = 'Copied.';
    } catch (e) {
      output.focus();
      output.select();
      document.execCommand('copy');
      $('output-note').textContent = 'Copied.';
    }
  }

  function shareLink() {
    const bytes = inputBytes();
    if (bytes.length > shareLimit) {
      $('output-note').textContent = `A link holds at most ${shareLimit} bytes of PGN; this input has ${bytes.length}.`;
      return null;
    }
    const params = new URLSearchParams();
    const o = options();
    for (const name of optionNames) if (String(o[name]) !== String(defaults[name])) params.set(name, String(o[name]));
    params.set('pgn', decodeForDisplay(bytes));
    const url = `${location.href.split(/[?#]/)[0]}?${params.toString()}`;
    $('output-note').textContent = 'Link to this game score (copied):';
    let link = $('share-link');
    if (!link) {
      link = document.createElement('a');
      link.id = 'share-link';
      $('output-note').after(link);
    }
    link.href = url;
    link.textContent = url.length > 80 ? `${url.slice(0, 77)}…` : url;
    if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
    return url;
  }

  // --- wiring ---------------------------------------------------------------------------------------
  $('options').addEventListener('submit', (e) => e.preventDefault());
  $('options').addEventListener('change', () => { convertSoon(); updateBoard(); });
  $('convert').addEventListener('click', convertNow);
  $('clear').addEventListener('click', () => {
    const editable = !input.readOnly;
    if (!$('progress-box').hidden) { // a conversion of what is cleared: stopped
      bulk.restart(new Error('cancelled'));
      $('progress-box').hidden = true;
    }
    ++generation;
    clearResult();
    file = null;
    inputDirty = false;
    input.readOnly = false;
    // Typed text is cleared as an edit, which the browser's undo brings back.
    input.focus();
    input.select();
    if (!editable || !document.execCommand('delete')) input.value = '';
    $('file-name').textContent = '';
    setNotice('');
    input.focus();
    convertSoon();
    updateBoard();
  });
  $('cancel').addEventListener('click', () => {
    ++generation;
    bulk.restart(new Error('cancelled'));
    $('progress-box').hidden = true;
    setNotice(`Conversion cancelled.${file && !file.shown ? ` ${largeFileNote()}` : ''}`, 'info');
  });
  // Text pasted or typed over the whole text of a file is a new input, no longer that file: its
  // name goes (Download names the output game.*.pgn) and the text is UTF-8 again.
  let replacesAll = false;
  input.addEventListener('beforeinput', (e) => {
    replacesAll = Boolean(file) && file.shown && e.inputType.startsWith('insert') &&
      input.selectionStart === 0 && input.selectionEnd === input.value.length;
  });
  input.addEventListener('input', () => {
    if (replacesAll) {
      file = null;
      $('file-name').textContent = '';
      replacesAll = false;
    }
    inputDirty = true;
    convertSoon();
    updateBoard();
  });
  for (const ev of ['click', 'keyup', 'select']) input.addEventListener(ev, updateBoard);
  $('file').addEventListener('change', (e) => {
    const f = e.target.files[0];
    e.target.value = ''; // the same file chosen again (changed on disk) is read again
    if (f) openFile(f);
  });
  // Files dropped anywhere are opened; dragged text is left to the browser (it goes into the
  // box where it is dropped).
  const carriesFiles = (e) => e.dataTransfer && [...e.dataTransfer.types].includes('Files');
  document.addEventListener('dragover', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  document.addEventListener('drop', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    document.body.classList.remove('dragging');
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (f) openFile(f);
  });
  $('copy').addEventListener('click', copyOutput);
  $('download').addEventListener('click', () => { if (haveOutput('download')) download(lastResult.output, outputName()); });
  $('download-rejects').addEventListener('click', () => {
    if (lastResult && lastResult.rejects) download(lastResult.rejects, outputName().replace(/\.[a-z]+\.pgn$/, '.rejects.pgn'));
  });
  $('share').addEventListener('click', shareLink);

  // The query: ?to=san&pgn=... (and the other options by their names).
  const query = new URLSearchParams(location.search);
  for (const name of optionNames) if (query.has(name)) setOption(name, query.get(name));
  fillLanguages().then(() => {
    for (const name of ['lang', 'inputLang']) if (query.has(name)) setOption(name, query.get(name));
  }).catch(() => {});
  fillDefaults().catch(() => {});
  drawBoard(startFen);
  if (query.has('pgn')) {
    input.value = query.get('pgn');
    inputDirty = true;
    convert(inputBytes(), false);
    updateBoard();
  }

  // For tests and the curious: the page's state.
  window.pgnIccfPage = { options, shareLink, get result() { return lastResult; }, get generation() { return generation; } };
})();
