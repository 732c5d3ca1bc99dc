// What the browser tests and the browser benchmark share: a static server for a dist/ folder on
// 127.0.0.1, Debian's Chromium (playwright-core, WebGPU on), and opening the app in a fresh page.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

/** Serves `dist` on a free port of 127.0.0.1. Returns { base, serve, close }; `serve` holds switches:
 *  `slowData` sends the datasets at ~10 MB/s in small chunks, `failData` answers them with HTTP 503. */
export async function startServer(dist) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.gz': 'application/octet-stream', '.json': 'application/json' };
  const serve = { slowData: false, failData: false };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    let p = path.join(dist, decodeURIComponent(u.pathname));
    if (!p.startsWith(dist)) { res.writeHead(403); return res.end(); }
    if (fs.existsSync(p) && fs.statSync(p).isDirectory()) p = path.join(p, 'index.html');
    if (!fs.existsSync(p)) { res.writeHead(404); return res.end('not found'); }
    const data = p.endsWith('.spds.gz');
    if (data && serve.failData) { res.writeHead(503, 'Service Unavailable'); return res.end('down'); }
    res.writeHead(200, { 'Content-Type': types[path.extname(p)] || 'application/octet-stream', 'Content-Length': fs.statSync(p).size });
    if (data && serve.slowData) {
      const bytes = fs.readFileSync(p);
      let at = 0;
      const tick = () => {
        if (at >= bytes.length || res.destroyed) return res.end();
        res.write(bytes.subarray(at, at + 256 * 1024));
        at += 256 * 1024;
        setTimeout(tick, 25);
      };
      return tick();
    }
    fs.createReadStream(p).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${server.address().port}/`, serve, close: () => server.close() };
}

/** Debian's Chromium, headless with WebGPU (SwiftShader here) and a fresh profile. Returns { ctx, close }. */
export async function launch() {
  const exe = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => fs.existsSync(p));
  if (!exe) throw new Error('Debian chromium is not installed (apt-get install chromium)');
  const udd = fs.mkdtempSync(path.join(os.tmpdir(), 'spotlight-e2e-'));
  const ctx = await chromium.launchPersistentContext(udd, {
    executablePath: exe,
    headless: true,
    ignoreDefaultArgs: ['--headless'],
    args: ['--headless=new', '--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--enable-unsafe-webgpu', '--js-flags=--expose-gc'],
    viewport: { width: 1280, height: 900 },
    timeout: 60000,
  });

  // The browser's own count of WebGPU buffers: every createBuffer with its size, minus those the
  // garbage collector has finalized (wgpu frees a buffer by dropping it, without destroy()).
  // `window.__gpuBuffers()` forces a collection first (--expose-gc) and waits for finalizers.
  // How long the main thread was held: every "long task" (> 50 ms) the browser reports.
  // `window.__longTasks()` gives { count, maxMs } since the page opened.
  await ctx.addInitScript(() => {
    const seen = { count: 0, maxMs: 0 };
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) { seen.count++; seen.maxMs = Math.max(seen.maxMs, e.duration); }
      }).observe({ type: 'longtask', buffered: true });
    } catch { /* no long-task API: figures stay 0 */ }
    self.__longTasks = () => ({ ...seen });
  });
  await ctx.addInitScript(() => {
    if (!self.GPUDevice) return;
    const state = { live: 0, bytes: 0, created: 0 };
    const gone = new FinalizationRegistry((size) => { state.live--; state.bytes -= size; });
    const create = GPUDevice.prototype.createBuffer;
    GPUDevice.prototype.createBuffer = function (desc) {
      const b = create.call(this, desc);
      state.live++; state.created++; state.bytes += desc.size;
      gone.register(b, desc.size);
      return b;
    };
    self.__gpuBuffers = async () => {
      for (let i = 0; i < 3; i++) {
        if (self.gc) self.gc();
        await new Promise((r) => setTimeout(r, 50));
      }
      return { ...state };
    };
  });
  return { ctx, close: async () => { await ctx.close(); fs.rmSync(udd, { recursive: true, force: true }); } };
}

/** Opens the app at `base + query` in a new page and waits until it states its backend; the page's
 *  console errors, uncaught errors and dialogs collect in `page.errors`. */
export async function open(ctx, base, query = '') {
  const page = await ctx.newPage();
  const log = [];
  page.on('console', (m) => { if (m.type() === 'error') log.push('console: ' + m.text()); });
  page.on('pageerror', (e) => log.push('pageerror: ' + e.message));
  page.on('dialog', (d) => { log.push('dialog: ' + d.message()); d.dismiss(); });
  await page.goto(base + query);
  await page.waitForSelector('#backend-banner', { timeout: 60000 });
  await page.waitForFunction(() => /Backend: (WebGPU|CPU)|Training on/.test(document.querySelector('#backend-banner')?.textContent || ''), null, { timeout: 60000 });
  page.errors = log;
  return page;
}

