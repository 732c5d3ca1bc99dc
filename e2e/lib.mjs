// What the browser tests and the browser benchmark share: a static server for a dist/ folder on
// 127.0.0.1, Debian's Chromium (playwright-core, WebGPU on), and opening the app in a fresh page.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

/** Serves `dist` under a sub-path (`/spotlight/`, as static-pages hosts do) on a free port of
 *  127.0.0.1; anything outside it is a 404, and its path is kept in `outside`. Returns
 *  { base, serve, outside, close }; `serve` holds switches: `slowData` sends the datasets at
 *  ~10 MB/s in small chunks, `failData` answers them with HTTP 503, `gzipEncoding` sends them with
 *  `Content-Encoding: gzip` (the browser unpacks them), `data` (bytes) replaces MNIST's asset,
 *  `failWorker` answers the training workers' script with a 404, `noWorkerGpu` sends it with a first
 *  line that hides WebGPU from the workers (as browsers that offer it only to pages do).
 *  `more` serves other folders on the same origin, each under its own prefix: `{ '/tfjs/': dir }`
 *  (the TF.js peer of the benchmark); their URLs are in `bases` (`bases['/tfjs/']`). */
export async function startServer(dist, prefix = '/spotlight/', more = {}) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.gz': 'application/octet-stream', '.json': 'application/json' };
  const roots = [[prefix, dist], ...Object.entries(more).map(([pre, dir]) => [pre, path.resolve(dir)])];
  const serve = { slowData: false, failData: false, gzipEncoding: false, data: null, failWorker: false, noWorkerGpu: false };
  const outside = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    const at = roots.find(([pre]) => u.pathname.startsWith(pre));
    if (!at) { outside.push(u.pathname); res.writeHead(404); return res.end('not found'); }
    const [pre, root] = at;
    let p = path.join(root, decodeURIComponent(u.pathname.slice(pre.length)));
    if (!p.startsWith(root)) { res.writeHead(403); return res.end(); }
    if (fs.existsSync(p) && fs.statSync(p).isDirectory()) p = path.join(p, 'index.html');
    if (!fs.existsSync(p) || (serve.failWorker && p.endsWith('spotlight-worker.js'))) { res.writeHead(404); return res.end('not found'); }
    const data = p.endsWith('.spds.gz');
    if (data && serve.failData) { res.writeHead(503, 'Service Unavailable'); return res.end('down'); }
    const hideGpu = "Object.defineProperty(WorkerNavigator.prototype, 'gpu', { get: () => undefined, configurable: true });\n";
    const bytes = data && serve.data && p.endsWith('mnist.spds.gz') ? serve.data
      : serve.noWorkerGpu && p.endsWith('spotlight-worker.js') ? Buffer.concat([Buffer.from(hideGpu), fs.readFileSync(p)]) : null;
    const size = bytes ? bytes.length : fs.statSync(p).size;
    const headers = { 'Content-Type': types[path.extname(p)] || 'application/octet-stream', 'Content-Length': size };
    if (data && serve.gzipEncoding) headers['Content-Encoding'] = 'gzip';
    res.writeHead(200, headers);
    if (data && serve.slowData) {
      const all = bytes || fs.readFileSync(p);
      let at = 0;
      const tick = () => {
        if (at >= all.length || res.destroyed) return res.end();
        res.write(all.subarray(at, at + 256 * 1024));
        at += 256 * 1024;
        setTimeout(tick, 25);
      };
      return tick();
    }
    if (bytes) return res.end(bytes);
    fs.createReadStream(p).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const bases = Object.fromEntries(Object.keys(more).map((pre) => [pre, origin + pre]));
  return { base: origin + prefix, bases, serve, outside, close: () => server.close() };
}

/** A dataset asset (the layout of crates/data/src/asset.rs), gzip'd, with `train` and `test`
 *  images of `rows`×`cols` and labels cycling through `classes`. For the tests of bad assets. */
export function makeAsset({ rows = 28, cols = 28, classes = 10, train = 200, test = 50 } = {}) {
  const name = Buffer.from('test');
  const head = Buffer.alloc(8 + 1 + name.length + 1 + 4 + 8);
  let at = head.write('SPOTDS01', 0, 'latin1');
  head[at++] = name.length; at += name.copy(head, at);
  head[at++] = classes;
  head.writeUInt16LE(rows, at); head.writeUInt16LE(cols, at + 2); head.writeUInt32LE(train, at + 4); head.writeUInt32LE(test, at + 8);
  const labels = Buffer.from(Array.from({ length: train + test }, (_, i) => i % classes));
  const images = Buffer.alloc((train + test) * rows * cols, 7);
  return zlib.gzipSync(Buffer.concat([head, labels, images]));
}

/** Debian's Chromium, headless with WebGPU (SwiftShader here) and a fresh profile. Returns
 *  { ctx, csp, close }; `csp` collects every Content-Security-Policy violation of every page. */
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
    // The page picks its language from the browser's: English for every test that does not say.
    locale: 'en-US',
    timeout: 60000,
  });

  // The browser's own count of WebGPU buffers: every createBuffer with its size, minus those the
  // garbage collector has finalized (wgpu frees a buffer by dropping it, without destroy()).
  // `window.__gpuBuffers()` forces a collection first (--expose-gc) and waits for finalizers.
  // How long the main thread was held: every "long task" (> 50 ms) the browser reports.
  // `window.__longTasks()` gives { count, maxMs } since the page opened; `__longTasks(mark)` those
  // that began after the last performance mark of that name (none yet: none).
  // Every Content-Security-Policy violation on any page, for the runner: each one fails the test.
  const csp = [];
  ctx.on('console', (m) => { if (m.text().startsWith('CSP violation:')) csp.push(m.text()); });
  await ctx.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || '?'}:${e.lineNumber}`);
    });
  });
  await ctx.addInitScript(() => {
    const seen = [];
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) seen.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask', buffered: true });
    } catch { /* no long-task API: figures stay 0 */ }
    self.__longTasks = (mark) => {
      const marks = mark ? performance.getEntriesByName(mark, 'mark') : [];
      const since = mark ? (marks.length ? marks[marks.length - 1].startTime : Infinity) : 0;
      const tasks = seen.filter(([t]) => t >= since);
      return { count: tasks.length, maxMs: Math.max(0, ...tasks.map(([, d]) => d)) };
    };
  });
  // Text measured through the page, as plotters' web font backend does: a <span> appended to <body>
  // (fixed, below the view) and its offsetWidth read, one forced layout each. `__textMeasured()`
  // counts them since the page opened; the charts must size their text without the page.
  await ctx.addInitScript(() => {
    let measured = 0;
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.target !== document.body) continue;
        for (const n of r.addedNodes) if (n.nodeName === 'SPAN' && n.style?.top === '100%') measured++;
      }
    }).observe(document, { childList: true, subtree: true });
    self.__textMeasured = () => measured;
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
  return { ctx, csp, close: async () => { await ctx.close(); fs.rmSync(udd, { recursive: true, force: true }); } };
}

/** Opens the app at `base + query` in a new page (after `init`, a script run before the page's
 *  own, if given) and waits until it states its backend; the page's console errors, uncaught
 *  errors and dialogs collect in `page.errors`. */
export async function open(ctx, base, query = '', init = null) {
  const page = await ctx.newPage();
  if (init) await page.addInitScript(init);
  const log = [];
  page.on('console', (m) => { if (m.type() === 'error') log.push('console: ' + m.text()); });
  page.on('pageerror', (e) => log.push('pageerror: ' + e.message));
  page.on('dialog', (d) => { log.push('dialog: ' + d.message()); d.dismiss(); });
  await page.goto(base + query);
  await page.waitForSelector('#backend-banner', { timeout: 60000 });
  // The backend chosen (in any of the page's languages).
  await page.waitForSelector('#backend-banner[data-chosen]', { timeout: 60000 });
  page.errors = log;
  return page;
}

