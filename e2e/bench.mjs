// The app's benchmark in headless Chromium: opens `?bench=1&QUERY` against ../dist, waits for it to
// finish and prints the figures (train samples/s per backend and model, and the comparison's wall
// time by phase) and the benchmark's JSON. These are the README's browser figures.
// Then its peer in the same browser: ../bench/tfjs (the same LeNet-5 ± BN in TensorFlow.js, served on
// the same origin under /tfjs/) at the batch size and step count of the app's throughput rows, on
// each TF.js backend (wasm with SIMD and cpu; webgpu and webgl too when the app had a hardware GPU), and the table
// "Spotlight ÷ TF.js" (BN with BN, no-BN with no-BN), and the TF.js JSON. Between the two: the wasm's
// size (raw and gzipped) and, on a page opened with `run=1&QUERY`, the time to the first curve point.
//   node bench.mjs [QUERY] [--dist DIR] [--timeout SECONDS] [--no-tfjs | --tfjs-only]
//                  [--tfjs-steps N] [--tfjs-backends wasm,cpu,webgpu,webgl]
//   e.g. node bench.mjs 'backend=cpu';  node bench.mjs --tfjs-only 'batch_size=128' (no dist/ needed)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { launch, open, startServer } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const valued = ['--dist', '--timeout', '--tfjs-steps', '--tfjs-backends'];
const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const dist = path.resolve(opt('--dist', path.join(here, '..', 'dist')));
const timeout = 1000 * Number(opt('--timeout', '3600'));
const query = argv.find((a, i) => !a.startsWith('--') && !(i > 0 && valued.includes(argv[i - 1]))) || '';
const noTfjs = argv.includes('--no-tfjs');
const tfjsOnly = argv.includes('--tfjs-only');
const tfjsDir = path.resolve(here, '..', 'bench', 'tfjs');
// The app's benchmark times 10 steps after 3 warm-up (app/src/session.rs BENCH_STEPS) at the
// comparison's batch size (crates/core/src/config.rs, 64 by default).
const BENCH_STEPS = 10;
const DEFAULT_BATCH = 64;

if (noTfjs && tfjsOnly) { console.error('--no-tfjs and --tfjs-only exclude each other'); process.exit(2); }
if (!noTfjs && !fs.existsSync(path.join(tfjsDir, 'node_modules', '@tensorflow', 'tfjs'))) {
  console.error(`bench/tfjs/node_modules is missing (${tfjsDir}): install the TF.js page's pinned packages with\n` +
    '  (cd bench/tfjs && npm ci --no-audit --no-fund)\nor run ./x.sh bench-web, which does; or pass --no-tfjs to time the app alone.');
  process.exit(1);
}
if (!tfjsOnly && !fs.existsSync(path.join(dist, 'index.html'))) {
  console.error(`${dist}/index.html is missing: build the app (./x.sh build), or pass --tfjs-only to time TF.js alone.`);
  process.exit(1);
}

const server = await startServer(dist, '/spotlight/', noTfjs ? {} : { '/tfjs/': tfjsDir });
const browser = await launch();
const fmt = (n) => n.toFixed(0).padStart(6);
const epoch = (sps) => `one MNIST epoch ${(60000 / sps).toFixed(1)} s`;
let code = 0;
let spot = null; // the app's bench JSON
try {
  if (!tfjsOnly) {
    const page = await open(browser.ctx, server.base, `?bench=1${query ? '&' + query : ''}`);
    const t0 = Date.now();
    await page.waitForFunction(() => /in all|did not finish/.test(document.querySelector('#bench-comparison')?.textContent + ' ' + document.querySelector('#bench-note')?.textContent),
      null, { timeout, polling: 1000 });
    const b = JSON.parse(await page.getAttribute('#view-bench', 'data-json'));
    spot = b;
    console.log(`page: ${await page.textContent('#backend-banner')}; ${((Date.now() - t0) / 1000).toFixed(0)} s in all`);
    for (const t of b.throughput) {
      const work = t.gpu_work ? `; per step ${t.gpu_work.dispatches.toFixed(0)} dispatches, ${t.gpu_work.submits.toFixed(1)} submits, ${t.gpu_work.readbacks.toFixed(2)} read-backs` : '';
      console.log(`${t.backend.padEnd(44)} ${(t.batch_norm ? 'BN' : 'no-BN').padEnd(6)} batch ${t.batch_size}: ${fmt(t.samples_per_s)} samples/s (${epoch(t.samples_per_s)})${work}`);
    }
    console.log(await page.textContent('#bench-comparison'));
    // The throughput rows train on the page's thread (that is what they time); the comparison
    // is what a user runs.
    const run = await page.evaluate(() => window.__longTasks('spotlight-run-pressed'));
    const all = await page.evaluate(() => window.__longTasks());
    console.log(`main thread during the comparison (from pressing Run to the end): ${run.count} long tasks (> 50 ms), the longest ${run.maxMs.toFixed(0)} ms; ` +
      `since opening the page, with the throughput rows: ${all.count}, the longest ${all.maxMs.toFixed(0)} ms`);
    console.log(JSON.stringify(b));
    if (page.errors.length) { console.error(page.errors.join('\n')); code = 1; }
    await page.close();
  }
  if (!tfjsOnly) {
    wasmSize();
    code = Math.max(code, await firstPoint());
  }
  if (!noTfjs) code = Math.max(code, await tfjs(spot));
} catch (e) {
  console.error(String(e.message || e));
  code = 1;
}
if (browser.csp.length) { console.error(browser.csp.join('\n')); code = 1; }
if (server.outside.length) console.error(`requests outside the served folders: ${server.outside.join(', ')}`);
await browser.close();
server.close();
process.exit(code);

/** The page's wasm as served: raw bytes and gzip -9 (what a host that compresses sends). */
function wasmSize() {
  for (const f of fs.readdirSync(dist).filter((f) => f.endsWith('.wasm'))) {
    const raw = fs.readFileSync(path.join(dist, f));
    const gz = zlib.gzipSync(raw, { level: 9 }).length;
    console.log(`wasm: ${f} ${raw.length} bytes (${(raw.length / 1e6).toFixed(1)} MB) raw, ${gz} bytes (${(gz / 1e6).toFixed(1)} MB) gzipped`);
  }
}

/** Opens the page with `run=1&QUERY` (the comparison in the query, the default one without) and
 *  times, from opening it, the first live read-out drawn (epoch 0, before training) and the first
 *  one of training (the curve moving), then leaves the page. Returns an exit code. */
async function firstPoint() {
  const page = await open(browser.ctx, server.base, `?run=1${query ? '&' + query : ''}`);
  try {
    const at = (n) => page.waitForFunction((n) => +(document.querySelector('#accuracy-chart')?.dataset.livePoints || 0) >= n ? performance.now() : false,
      n, { timeout: 600000, polling: 50 }).then((h) => h.jsonValue());
    // The chart counts the read-outs of every model: each target model draws one at epoch 0.
    const models = new URLSearchParams(query).get('compare') === 'false' ? 1 : 2;
    const first = await at(1);
    const moving = await at(models + 1);
    const lt = await page.evaluate(() => window.__longTasks());
    console.log(`first curve point: ${(first / 1000).toFixed(1)} s after opening the page (epoch 0, before training), ` +
      `the first of training ${(moving / 1000).toFixed(1)} s; main thread until then: the longest task ${lt.maxMs.toFixed(0)} ms`);
    return page.errors.length ? (console.error(page.errors.join('\n')), 1) : 0;
  } finally {
    await page.close();
  }
}

/** Runs the TF.js page at the app's batch size and step count (or the query's batch_size and 10
 *  steps when the app did not run), prints its rows and the ratios; returns an exit code. */
async function tfjs(spot) {
  const rows = spot?.throughput || [];
  const sizes = [...new Set(rows.map((t) => t.batch_size))];
  if (sizes.length > 1) console.error(`the app's throughput rows have several batch sizes (${sizes.join(', ')}); TF.js runs at ${sizes[0]}`);
  const batch = sizes[0] ?? Number(new URLSearchParams(query).get('batch_size') || DEFAULT_BATCH);
  const steps = Number(opt('--tfjs-steps', rows[0]?.steps ?? BENCH_STEPS));
  // TF.js's GPU backends only where the app had a hardware GPU: on a software fallback (SwiftShader)
  // they take minutes for a few samples/s. `--tfjs-backends` picks them by hand.
  const gpu = rows.some((t) => /^WebGPU/.test(t.backend) && !/fallback/.test(t.backend));
  const backends = opt('--tfjs-backends', gpu ? 'wasm,cpu,webgpu,webgl' : 'wasm,cpu');
  if (!argv.includes('--tfjs-backends') && !gpu) console.log('TF.js on wasm and cpu only: the app had no hardware WebGPU adapter (--tfjs-backends wasm,cpu,webgpu,webgl to time them anyway)');

  const page = await browser.ctx.newPage();
  const log = [];
  page.on('console', (m) => { if (m.type() === 'error') log.push('console: ' + m.text()); });
  // An uncaught error (a script that did not load, a CSP block) ends the wait at once.
  const failed = new Promise((_, no) => page.on('pageerror', (e) => { log.push('pageerror: ' + e.message); no(new Error(`the TF.js page failed: ${e.message}`)); }));
  failed.catch(() => {});
  const t0 = Date.now();
  await page.goto(`${server.bases['/tfjs/']}index.html?backends=${backends}&batch=${batch}&steps=${steps}`);
  await Promise.race([page.waitForFunction(() => window.__tfjsResults?.done, null, { timeout, polling: 1000 }), failed]);
  const t = await page.evaluate(() => window.__tfjsResults);
  await page.close();

  let code = 0;
  console.log(`\nTF.js ${t.tfjs} in the same browser (cross-origin isolated: ${t.cross_origin_isolated}), batch ${t.batch}, ${t.steps} timed steps after ${t.warmup} warm-up; ${((Date.now() - t0) / 1000).toFixed(0)} s in all`);
  if (t.error) { console.error(`the TF.js page failed: ${t.error}`); code = 1; }
  const label = (r) => `TF.js ${r.backend}`;
  for (const r of t.results) {
    if (r.available === false) { console.log(`${label(r).padEnd(44)} unavailable: ${r.reason}`); continue; }
    const notes = [r.wasm_binary && `${r.wasm_binary} binary (${r.wasm_file}), ${r.threads} thread(s)`, r.device, r.note].filter(Boolean).join('; ');
    if (r.error || !r.samples_per_s) {
      console.log(`${label(r).padEnd(44)} ${r.model.padEnd(6)} failed: ${r.error || 'no figure'}${notes ? ` (${notes})` : ''}`);
      code = 1;
      continue;
    }
    console.log(`${label(r).padEnd(44)} ${r.model.padEnd(6)} batch ${r.batch_size}: ${fmt(r.samples_per_s)} samples/s (${epoch(r.samples_per_s)})${notes ? `; ${notes}` : ''}`);
  }
  const wasm = t.results.filter((r) => r.backend === 'wasm' && r.samples_per_s);
  if (wasm.length && wasm.some((r) => r.wasm_binary === 'plain')) console.error('TF.js wasm ran its plain binary, not the SIMD one');
  if (log.length) console.error(`the TF.js page's errors:\n${log.join('\n')}`);

  // Spotlight ÷ TF.js: every app row against every TF.js backend with a figure for the same model.
  const ok = t.results.filter((r) => r.samples_per_s && !r.error);
  const tfBackends = [...new Set(ok.map((r) => r.backend))];
  const ratios = [];
  if (!rows.length) {
    console.log('\n(no Spotlight rows: the app did not run, so no "Spotlight ÷ TF.js" table)');
  } else if (!tfBackends.length) {
    console.log('\n(no TF.js figures: no "Spotlight ÷ TF.js" table)');
  } else {
    console.log(`\nSpotlight ÷ TF.js (train samples/s, batch ${batch}; > 1: Spotlight is faster)`);
    console.log(`${'Spotlight backend'.padEnd(44)} ${'model'.padEnd(6)} ${tfBackends.map((b) => ('÷ ' + b).padStart(10)).join(' ')}`);
    for (const s of rows) {
      const model = s.batch_norm ? 'BN' : 'no-BN';
      const cells = tfBackends.map((b) => {
        const r = ok.find((x) => x.backend === b && x.batch_norm === s.batch_norm);
        if (!r) return '—'.padStart(10);
        ratios.push({ spotlight: s.backend, tfjs: b, model, spotlight_samples_per_s: s.samples_per_s, tfjs_samples_per_s: r.samples_per_s, ratio: s.samples_per_s / r.samples_per_s });
        return (s.samples_per_s / r.samples_per_s).toFixed(2).padStart(10);
      });
      console.log(`${s.backend.padEnd(44)} ${model.padEnd(6)} ${cells.join(' ')}`);
    }
    // The headline: the fastest CPU backend of each side, per model.
    for (const bn of [true, false]) {
      const model = bn ? 'BN' : 'no-BN';
      const best = (xs) => xs.reduce((a, x) => (!a || x.samples_per_s > a.samples_per_s ? x : a), null);
      const s = best(rows.filter((x) => x.batch_norm === bn && /^CPU/.test(x.backend)));
      const r = best(ok.filter((x) => x.batch_norm === bn && ['wasm', 'cpu'].includes(x.backend)));
      if (!s || !r) continue;
      console.log(`fastest CPU, ${model.padEnd(5)}: Spotlight ${s.backend} ${fmt(s.samples_per_s).trim()} samples/s ÷ TF.js ${r.backend} ${fmt(r.samples_per_s).trim()} samples/s = ${(s.samples_per_s / r.samples_per_s).toFixed(2)}`);
    }
  }
  console.log(JSON.stringify({ tfjs: t, spotlight_over_tfjs: ratios }));
  return code;
}
