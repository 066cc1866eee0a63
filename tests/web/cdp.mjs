// A small client of the Chrome DevTools protocol over a pipe (chromium --remote-debugging-pipe:
// the browser reads commands on its descriptor 3 and writes answers and events on its
// descriptor 4, each a JSON text ending in a NUL byte). No WebSocket, no npm package.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export async function launch({ executable = process.env.CHROMIUM || '/usr/bin/chromium', args = [] } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pgn-iccf-chromium-'));
  const flags = [
    '--headless=new', '--remote-debugging-pipe', `--user-data-dir=${profile}`,
    '--no-first-run', '--no-default-browser-check', '--disable-gpu', '--disable-extensions',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--disable-default-apps', '--metrics-recording-only', '--mute-audio', '--hide-scrollbars',
    '--window-size=1280,1000', '--allow-file-access-from-files=false',
    ...(process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : []),
    ...args, 'about:blank',
  ];
  const child = spawn(executable, flags, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; if (stderr.length > 20000) stderr = stderr.slice(-10000); });
  const browser = new Browser(child, child.stdio[3], child.stdio[4], profile);
  browser.stderr = () => stderr;
  await browser.send('Target.getTargets');
  return browser;
}

class Browser {
  constructor(child, writer, reader, profile) {
    this.child = child;
    this.writer = writer;
    this.profile = profile;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = [];
    this.exited = new Promise((resolve) => child.on('exit', resolve));
    let buffer = Buffer.alloc(0);
    reader.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      let end;
      while ((end = buffer.indexOf(0)) >= 0) {
        const message = JSON.parse(buffer.subarray(0, end).toString('utf8'));
        buffer = buffer.subarray(end + 1);
        this.dispatch(message);
      }
    });
    child.on('exit', () => {
      for (const p of this.pending.values()) p.reject(new Error('chromium exited'));
      this.pending.clear();
    });
  }

  dispatch(message) {
    if (message.id !== undefined) {
      const p = this.pending.get(message.id);
      if (!p) return;
      this.pending.delete(message.id);
      if (message.error) p.reject(new Error(`${p.method}: ${message.error.message}`));
      else p.resolve(message.result);
      return;
    }
    for (const l of [...this.listeners]) l(message);
  }

  send(method, params = {}, sessionId = undefined) {
    const id = this.nextId++;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.writer.write(JSON.stringify(message) + '\0');
    });
  }

  on(listener) { this.listeners.push(listener); }

  // A new page (tab) with its own session.
  async newPage() {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    return new Page(this, sessionId, targetId);
  }

  async close() {
    try { await Promise.race([this.send('Browser.close'), new Promise((r) => setTimeout(r, 3000))]); } catch (e) { /* gone */ }
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 3000))]);
    // Chromium's helper processes may still write the profile for a moment after the main
    // one exits: removal is retried (ENOTEMPTY) rather than failing the test.
    for (let i = 0; ; ++i) {
      try {
        fs.rmSync(this.profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
        break;
      } catch (e) {
        if (i === 20) throw e;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }
}

class Page {
  constructor(browser, sessionId, targetId) {
    this.browser = browser;
    this.sessionId = sessionId;
    this.targetId = targetId;
    this.events = [];
    browser.on((m) => { if (m.sessionId === sessionId) this.events.push(m); for (const w of this.waiters || []) w(m); });
  }

  send(method, params = {}) { return this.browser.send(method, params, this.sessionId); }

  // The first event `method` (after now) that `test` accepts.
  waitFor(method, test = () => true, timeout = 30000) {
    return new Promise((resolve, reject) => {
      this.waiters = this.waiters || [];
      const timer = setTimeout(() => { done(); reject(new Error(`timeout waiting for ${method}`)); }, timeout);
      const waiter = (m) => {
        if (m.sessionId === this.sessionId && m.method === method && test(m.params)) { done(); resolve(m.params); }
      };
      const done = () => { clearTimeout(timer); this.waiters = this.waiters.filter((w) => w !== waiter); };
      this.waiters.push(waiter);
    });
  }

  async navigate(url) {
    const loaded = this.waitFor('Page.loadEventFired');
    const r = await this.send('Page.navigate', { url });
    if (r.errorText) throw new Error(`navigate ${url}: ${r.errorText}`);
    await loaded;
  }

  // The value of a JavaScript expression in the page (awaited when it is a promise).
  async eval(expression) {
    const r = await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      throw new Error(`${expression.slice(0, 80)}: ${d.exception ? d.exception.description : d.text}`);
    }
    return r.result.value;
  }

  // Waits until `expression` is truthy in the page.
  async until(expression, timeout = 30000, what = expression) {
    const end = Date.now() + timeout;
    for (;;) {
      const v = await this.eval(expression);
      if (v) return v;
      if (Date.now() > end) throw new Error(`timeout: ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
