// The app's benchmark in headless Chromium: opens `?bench=1&QUERY` against ../dist, waits for it to
// finish and prints the figures (train samples/s per backend and model, and the comparison's wall
// time by phase) and the benchmark's JSON. These are the README's browser figures.
//   node bench.mjs [QUERY] [--dist DIR] [--timeout SECONDS]     e.g. node bench.mjs 'backend=cpu'
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, open, startServer } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const dist = path.resolve(opt('--dist', path.join(here, '..', 'dist')));
const timeout = 1000 * Number(opt('--timeout', '3600'));
const query = argv.find((a, i) => !a.startsWith('--') && !(i > 0 && argv[i - 1].startsWith('--'))) || '';

const server = await startServer(dist);
const browser = await launch();
let code = 0;
try {
  const page = await open(browser.ctx, server.base, `?bench=1${query ? '&' + query : ''}`);
  const t0 = Date.now();
  await page.waitForFunction(() => /in all|did not finish/.test(document.querySelector('#bench-comparison')?.textContent + ' ' + document.querySelector('#bench-note')?.textContent),
    null, { timeout, polling: 1000 });
  const b = JSON.parse(await page.getAttribute('#view-bench', 'data-json'));
  console.log(`page: ${await page.textContent('#backend-banner')}; ${((Date.now() - t0) / 1000).toFixed(0)} s in all`);
  for (const t of b.throughput) {
    console.log(`${t.backend.padEnd(44)} ${(t.batch_norm ? 'BN' : 'no-BN').padEnd(6)} batch ${t.batch_size}: ${t.samples_per_s.toFixed(0).padStart(6)} samples/s (one MNIST epoch ${(60000 / t.samples_per_s).toFixed(1)} s)`);
  }
  console.log(await page.textContent('#bench-comparison'));
  const lt = await page.evaluate(() => window.__longTasks());
  console.log(`main thread: ${lt.count} long tasks (> 50 ms), the longest ${lt.maxMs.toFixed(0)} ms`);
  console.log(JSON.stringify(b));
  if (page.errors.length) { console.error(page.errors.join('\n')); code = 1; }
} catch (e) {
  console.error(String(e.message || e));
  code = 1;
}
await browser.close();
server.close();
process.exit(code);
