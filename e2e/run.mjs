// Spotlight's real-browser tests: Debian's Chromium, driven by playwright-core, against the release
// build in ../dist served on 127.0.0.1. Prints "N passed, M failed"; exits non-zero on any failure.
//   node run.mjs [--dist DIR] [--only NAME]
import fs from 'node:fs';
import path from 'node:path';
import { launch, open as openIn, startServer } from './lib.mjs';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const dist = path.resolve(opt('--dist', path.join(here, '..', 'dist')));
const only = opt('--only', null);
const shots = path.join(here, 'screenshots');
fs.mkdirSync(shots, { recursive: true });

const { base, serve, close: closeServer } = await startServer(dist);
const { ctx, close: closeBrowser } = await launch();
const open = (query = '') => openIn(ctx, base, query);

const tiny = 'train_size=300&test_size=200&epochs=2&batch_size=50&shadow_models=2&probe_size=16&label_noise=0.2&seed=3';

async function waitDone(page, timeout = 600000) {
  await page.waitForFunction(() => /done in|Error|Cancelled/.test(document.querySelector('#progress-text')?.textContent || ''), null, { timeout });
  const t = await page.textContent('#progress-text');
  if (!/done in/.test(t)) throw new Error('run did not finish: ' + t);
}

async function numbers(page) {
  return page.evaluate(() => {
    const rows = (sel) => [...document.querySelectorAll(sel + ' tr')].slice(1).map((tr) => [...tr.children].map((td) => td.textContent));
    return { epochs: rows('#epoch-table'), attack: rows('#attack-table') };
  });
}

async function checkViews(page) {
  const v = await page.evaluate(() => ({
    acc: document.querySelectorAll('#view-accuracy .chart svg polyline').length,
    grads: document.querySelectorAll('#view-gradients .chart svg rect').length,
    gamma: document.querySelectorAll('#view-gamma .chart svg polyline').length,
    roc: document.querySelectorAll('#view-attack .chart svg polyline').length,
    auc: [...document.querySelectorAll('#attack-table .auc')].map((e) => e.textContent),
    gallery: document.querySelectorAll('#view-gallery figure').length,
    fill: document.querySelector('#progress-fill').style.width,
  }));
  const fail = [];
  if (v.acc < 4) fail.push(`accuracy curves: ${v.acc} lines`);
  if (v.grads < 10) fail.push(`gradient histograms: ${v.grads} bars`);
  if (v.gamma < 2) fail.push(`γ/σ curves: ${v.gamma} lines`);
  if (v.roc < 3) fail.push(`ROC: ${v.roc} lines`);
  if (v.auc.length !== 2 || v.auc.some((a) => !(+a > 0 && +a <= 1))) fail.push(`AUCs: ${v.auc}`);
  if (v.gallery < 16) fail.push(`gallery: ${v.gallery} samples`);
  if (parseFloat(v.fill) !== 100) fail.push(`progress bar at ${v.fill}`);
  if (fail.length) throw new Error('views: ' + fail.join('; '));
  return v;
}

const results = {};
const tests = [
  ['start-up: no console error, backend stated, default controls', async () => {
    const page = await open();
    const banner = await page.textContent('#backend-banner');
    if (!/WebGPU|CPU/.test(banner)) throw new Error('banner: ' + banner);
    const vals = await page.evaluate(() => Object.fromEntries(['epochs', 'train_size', 'batch_size', 'shadow_models'].map((n) => [n, document.querySelector(`input[name=${n}]`).value])));
    const want = { epochs: '5', train_size: '5000', batch_size: '128', shadow_models: '4' };
    for (const k in want) if (vals[k] !== want[k]) throw new Error(`${k} = ${vals[k]}, want ${want[k]}`);
    await page.screenshot({ path: path.join(shots, 'idle.png'), fullPage: true });
    if (page.errors.length) throw new Error(page.errors.join('\n'));
    await page.close();
    return banner;
  }],
  ['the paper panel: every claim with its verdict, the charts drawn when opened', async () => {
    const page = await open();
    const rows = await page.evaluate(() => [...document.querySelectorAll('#paper-table tr')].slice(1).map((tr) => [...tr.children].map((td) => td.textContent)));
    if (await page.locator('#paper-error').count()) throw new Error(await page.textContent('#paper-error'));
    if (rows.length !== 6) throw new Error(`${rows.length} claim rows, want 6`);
    for (const r of rows) {
      if (!/^(held|did not hold|could not be checked) \(\d+\/\d+ seeds\)$/.test(r[4])) throw new Error('verdict: ' + r[4]);
      if (!/±/.test(r[3])) throw new Error(`claim ${r[0]} has no mean ± sd: ${r[3]}`);
    }
    await page.click('#view-paper details summary');
    await page.waitForFunction(() => document.querySelectorAll('#view-paper .paper-chart svg').length > 0, null, { timeout: 20000 });
    const charts = await page.evaluate(() => [...document.querySelectorAll('#view-paper .paper-chart')].map((f) => ({
      lines: f.querySelectorAll('svg polyline, svg path').length, text: f.textContent })));
    if (charts.length < 4) throw new Error(`${charts.length} charts, want the lenses and the trade-off`);
    for (const c of charts) {
      if (/chart error/.test(c.text)) throw new Error('chart error: ' + c.text.slice(0, 200));
      if (c.lines === 0) throw new Error('an empty chart: ' + c.text.slice(-200));
    }
    await page.locator('#view-paper').screenshot({ path: path.join(shots, 'paper.png') });
    if (page.errors.length) throw new Error(page.errors.join('\n'));
    await page.close();
    return rows.map((r) => `${r[0]} ${r[4]}`).join('; ');
  }],
  ['tiny comparison on the CPU backend runs to the end and draws every view', async () => {
    const page = await open(`?backend=cpu&run=1&${tiny}`);
    await page.waitForFunction(() => /samples\/s/.test(document.querySelector('#progress-text')?.textContent || ''), null, { timeout: 120000 });
    await page.screenshot({ path: path.join(shots, 'training.png'), fullPage: false });
    await waitDone(page);
    const banner = await page.textContent('#backend-banner');
    if (!/^Training on CPU/.test(banner)) throw new Error('banner: ' + banner);
    const v = await checkViews(page);
    results.cpu = await numbers(page);
    const lt = await page.evaluate(() => window.__longTasks());
    await page.screenshot({ path: path.join(shots, 'results.png'), fullPage: true });
    if (page.errors.length) throw new Error(page.errors.join('\n'));
    await page.close();
    // Reported, not asserted (speed lives in benchmarks): how long the page held the main thread.
    return `AUC ${v.auc.join(', ')}; main thread: ${lt.count} long tasks (> 50 ms), longest ${lt.maxMs.toFixed(0)} ms`;
  }],
  ['tiny comparison on WebGPU, numbers agree with the CPU run', async () => {
    const page = await open(`?backend=webgpu&run=1&${tiny}`);
    await waitDone(page);
    const banner = await page.textContent('#backend-banner');
    // The run must have used WebGPU: a silent (or announced) fall-back to the CPU fails here.
    if (!/^Training on WebGPU/.test(banner)) throw new Error('did not run on WebGPU: ' + banner);
    const v = await checkViews(page);
    const gpu = await numbers(page);
    await page.screenshot({ path: path.join(shots, 'results-webgpu.png'), fullPage: true });
    if (page.errors.length) throw new Error(page.errors.join('\n'));
    await page.close();
    if (results.cpu) {
      // Same seed, data and initial weights; float summation order and max-pool tie-breaking differ
      // between backends, so trajectories drift apart a little over the steps: accuracies within
      // 5 points, AUCs within 0.1.
      const pctv = (s) => parseFloat(s) / 100;
      for (let i = 0; i < gpu.epochs.length; i++) {
        for (const col of [2, 4, 5]) {
          const a = pctv(results.cpu.epochs[i][col]), b = pctv(gpu.epochs[i][col]);
          if (Math.abs(a - b) > 0.05) throw new Error(`epoch table row ${i} col ${col}: CPU ${a} vs WebGPU ${b}`);
        }
      }
      for (let i = 0; i < gpu.attack.length; i++) {
        const a = +results.cpu.attack[i][1], b = +gpu.attack[i][1];
        if (Math.abs(a - b) > 0.1) throw new Error(`AUC row ${i}: CPU ${a} vs WebGPU ${b}`);
      }
    }
    return `${banner}; AUC ${v.auc.join(', ')}; CPU ${JSON.stringify(results.cpu?.attack?.map((r) => r[1]))}`;
  }],
  ['share link round-trips: set controls, copy the link, open it, same controls', async () => {
    const page = await open('?backend=cpu');
    const set = async (name, value) => { await page.fill(`input[name=${name}]`, String(value)); await page.dispatchEvent(`input[name=${name}]`, 'change'); };
    await set('epochs', 7);
    await set('train_size', 1200);
    await set('seed', 42);
    await page.selectOption('select[name=dataset]', 'fashion');
    await page.selectOption('select[name=optimizer]', 'sgd');
    await page.click('input[name=regularizer]');
    const url = await page.inputValue('#share-link');
    const read = (p) => p.evaluate(() => ({
      epochs: document.querySelector('input[name=epochs]').value,
      train: document.querySelector('input[name=train_size]').value,
      seed: document.querySelector('input[name=seed]').value,
      dataset: document.querySelector('select[name=dataset]').value,
      opt: document.querySelector('select[name=optimizer]').value,
      reg: document.querySelector('input[name=regularizer]').checked,
    }));
    const a = await read(page);
    const p2 = await open(url.slice(base.length));
    const b = await read(p2);
    await page.close(); await p2.close();
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    if (a.epochs !== '7' || a.dataset !== 'fashion' || !a.reg) throw new Error('controls did not take: ' + JSON.stringify(a));
    // Every setting in the link has its control (both come from the core's field table).
    const keys = [...new URL(url).searchParams.keys()].filter((k) => k !== 'backend');
    const p3 = await open(url.slice(base.length));
    const missing = await p3.evaluate((ks) => ks.filter((k) => !document.querySelector(`[name=${k}]`)), keys);
    if (keys.length < 19 || missing.length) throw new Error(`${keys.length} settings in the link; no control for ${missing.join(', ')}`);
    // A control clamps what is out of range, and says so.
    await p3.fill('input[name=epochs]', '1000');
    await p3.dispatchEvent('input[name=epochs]', 'change');
    const clamped = await p3.evaluate(() => ({ v: document.querySelector('input[name=epochs]').value, n: document.querySelector('#notices')?.textContent || '' }));
    await p3.close();
    if (clamped.v !== '200' || !/epochs: 1000 set to 200/.test(clamped.n)) throw new Error('clamping: ' + JSON.stringify(clamped));
    return url;
  }],
  ['hostile links: a notice, no script, never blank, defaults kept', async () => {
    const bad = [
      'epochs=abc', 'epochs=-5', 'epochs=1e309', 'epochs=NaN', 'epochs=999999999', 'learning_rate=inf', 'learning_rate=0',
      'label_noise=2', 'label_noise=-0.1', 'dataset=cifar', 'compare=maybe', 'seed=-1', 'seed=1.5', 'batch_size=0',
      'train_size=1e12', 'unknown=1', 'epochs=3&epochs=4', '%zz=%', '<script>window.__xss=1</script>=1',
      'dataset=<img src=x onerror="window.__xss=1">', 'optimizer="><svg onload=window.__xss=1>', 'epochs=' + 'x'.repeat(5000),
      'a=' + 'b'.repeat(10000), '&&&&epochs=zz&&', 'epochs', '=5', 'shadow_models=1000', 'probe_size=-3', 'ood_source=mars',
      'regularizer=1', 'backend=tpu', 'test_size=0', 'label_noise=0.5&ood_fraction=0.5', 'batch_size=2048&train_size=100',
    ];
    let n = 0;
    const page = await ctx.newPage();
    const errs = [];
    page.on('pageerror', (e) => errs.push(e.message));
    page.on('dialog', (d) => { errs.push('dialog ' + d.message()); d.dismiss(); });
    for (const q of bad) {
      await page.goto(base + '?' + q);
      await page.waitForSelector('h1', { timeout: 30000 });
      const s = await page.evaluate(() => ({
        notices: document.querySelector('#notices')?.textContent || '',
        xss: window.__xss === 1,
        epochs: document.querySelector('input[name=epochs]')?.value,
        h1: document.querySelector('h1')?.textContent,
      }));
      if (s.xss) throw new Error(`${q}: injected script ran`);
      if (s.h1 !== 'Spotlight') throw new Error(`${q}: page blank`);
      if (!s.notices) throw new Error(`${q}: no notice`);
      if (!/^(5|200|4|1)$/.test(s.epochs)) throw new Error(`${q}: epochs = ${s.epochs}`);
      if (n === 0) await page.screenshot({ path: path.join(shots, 'bad-link.png'), fullPage: false });
      n++;
    }
    await page.close();
    if (errs.length) throw new Error(errs.join('\n'));
    return `${n} bad links`;
  }],
  ['twenty consecutive short runs in one page do not grow memory without bound', async () => {
    const page = await open('?backend=cpu&train_size=100&test_size=50&epochs=1&batch_size=20&shadow_models=0&probe_size=4&label_noise=0.2');
    const mem = [];
    for (let i = 1; i <= 20; i++) {
      await page.click('#run');
      await waitDone(page, 120000);
      mem.push(await page.evaluate(() => ({ wasm: window.spotlightMemoryBytes(), heap: performance.memory ? performance.memory.usedJSHeapSize : 0 })));
    }
    if (page.errors.length) throw new Error(page.errors.join('\n'));
    await page.close();
    const mib = (b) => (b / 1048576).toFixed(1);
    const grow = mem[19].wasm - mem[4].wasm;
    // Wasm memory never shrinks, so a leak shows as steady growth; allow 32 MiB of allocator slack
    // between run 5 and run 20.
    if (grow > 32 * 1048576) throw new Error(`wasm memory grew ${mib(grow)} MiB from run 5 to run 20`);
    return `wasm memory ${mib(mem[0].wasm)} → ${mib(mem[4].wasm)} → ${mib(mem[19].wasm)} MiB (runs 1, 5, 20); JS heap ${mib(mem[0].heap)} → ${mib(mem[19].heap)} MiB`;
  }],
  ['twenty consecutive short runs on WebGPU do not grow GPU memory without bound', async () => {
    const page = await open('?backend=webgpu&train_size=40&test_size=20&epochs=1&batch_size=20&shadow_models=0&probe_size=2&label_noise=0.2');
    const mem = [];
    const t0 = Date.now();
    for (let i = 1; i <= 20; i++) {
      await page.click('#run');
      await waitDone(page, 300000);
      const banner = await page.textContent('#backend-banner');
      if (!/^Training on WebGPU/.test(banner)) throw new Error('did not run on WebGPU: ' + banner);
      mem.push(await page.evaluate(async () => ({ burn: window.spotlightGpuMemory(), browser: await window.__gpuBuffers(), wasm: window.spotlightMemoryBytes() })));
    }
    if (page.errors.length) throw new Error(page.errors.join('\n'));
    await page.close();
    const mib = (b) => (b / 1048576).toFixed(1);
    if (!mem[0].burn) throw new Error('no GPU allocator figures (spotlightGpuMemory() is null)');
    if (!(mem[0].browser.created > 0)) throw new Error('the page created no WebGPU buffers');
    // burn's pools keep pages for reuse, so reserved bytes rise over the first runs and must then
    // stay put: allow 16 MiB between run 5 and run 20 (one run of this size needs well under 1 MiB
    // of tensors). The browser's own count of live buffers gets the same allowance.
    const grow = (f) => f(mem[19]) - f(mem[4]);
    const reserved = grow((m) => m.burn.bytesReserved), live = grow((m) => m.browser.bytes);
    if (reserved > 16 * 1048576) throw new Error(`burn's reserved GPU memory grew ${mib(reserved)} MiB from run 5 to run 20`);
    if (live > 16 * 1048576) throw new Error(`live WebGPU buffers grew ${mib(live)} MiB from run 5 to run 20`);
    const fig = (k, f) => `${k} ${mib(f(mem[0]))} → ${mib(f(mem[4]))} → ${mib(f(mem[19]))} MiB`;
    return [fig('burn reserved', (m) => m.burn.bytesReserved), fig('burn in use', (m) => m.burn.bytesInUse),
      fig('live WebGPU buffers', (m) => m.browser.bytes) + ` (${mem[19].browser.live} of ${mem[19].browser.created} created)`,
      fig('wasm', (m) => m.wasm), `(runs 1, 5, 20; ${((Date.now() - t0) / 20000).toFixed(1)} s a run)`].join('; ');
  }],
  ['dataset download shows its progress; a failed load offers Retry, which recovers', async () => {
    serve.slowData = true;
    let page;
    try {
      page = await open(`?backend=cpu&${tiny}`);
      await page.click('#run');
      await page.waitForFunction(() => /Loading mnist\.spds\.gz: [\d.]+ of [\d.]+ MB/.test(document.querySelector('#progress-text')?.textContent || '')
        && parseFloat(document.querySelector('#progress-fill').style.width) > 0, null, { timeout: 30000 });
      const text = await page.textContent('#progress-text');
      await page.screenshot({ path: path.join(shots, 'loading.png'), fullPage: false });
      serve.slowData = false;
      await page.click('#cancel');
      await page.close();
      serve.failData = true;
      page = await open(`?backend=cpu&run=1&${tiny}`);
      await page.waitForSelector('#retry', { timeout: 30000 });
      const err = await page.textContent('#progress-text');
      await page.screenshot({ path: path.join(shots, 'load-failed.png'), fullPage: false });
      if (!/Error: The dataset could not be loaded: .*503/.test(err)) throw new Error('error text: ' + err);
      serve.failData = false;
      await page.click('#retry');
      await waitDone(page);
      if (await page.$('#retry')) throw new Error('Retry still shown after a successful run');
      const errors = page.errors.filter((e) => !/503/.test(e)); // the browser logs the failed fetch itself
      if (errors.length) throw new Error(errors.join('\n'));
      return `${text}; then "${err.slice(0, 80)}…" and Retry ran to the end`;
    } finally {
      serve.slowData = serve.failData = false;
      await page?.close();
    }
  }],
  ['bench=1 times train samples/s per backend and model, then the comparison', async () => {
    const page = await open(`?backend=cpu&bench=1&${tiny}`);
    await page.waitForFunction(() => /in all/.test(document.querySelector('#bench-comparison')?.textContent || ''), null, { timeout: 600000 });
    const b = JSON.parse(await page.getAttribute('#view-bench', 'data-json'));
    const rows = b.throughput.map((t) => `${t.backend} ${t.batch_norm ? 'BN' : 'no-BN'} ${t.samples_per_s.toFixed(0)}/s`);
    const want = ['flex', 'ndarray'].flatMap((k) => [true, false].map((bn) => [k, bn]));
    for (const [k, bn] of want) {
      const t = b.throughput.find((t) => t.backend.includes(k) && t.batch_norm === bn);
      if (!t || !(t.samples_per_s > 0) || t.steps !== 10 || t.batch_size !== 50) throw new Error(`no figure for ${k} ${bn ? 'BN' : 'no-BN'}: ${rows}`);
    }
    const c = b.comparison;
    if (!c || !c.finished || !(c.times.total_s > 0) || !(c.times.targets_s > 0) || !(c.times.shadows_s > 0)) throw new Error('comparison: ' + JSON.stringify(c));
    if (Math.abs(c.times.targets_s + c.times.shadows_s + c.times.attack_s - c.times.total_s) > 0.01) throw new Error('phases do not add up: ' + JSON.stringify(c.times));
    if (c.config.train_size !== 300) throw new Error('timed the wrong config: ' + JSON.stringify(c.config));
    await checkViews(page);
    await page.locator('#view-bench').screenshot({ path: path.join(shots, 'bench.png') });
    if (page.errors.length) throw new Error(page.errors.join('\n'));
    await page.close();
    return `${rows.join(', ')}; comparison ${c.times.total_s.toFixed(1)} s`;
  }],
  ['cancel mid-run stops within a few seconds and the page stays usable', async () => {
    const page = await open('?backend=cpu&run=1&train_size=3000&epochs=5&shadow_models=2');
    await page.waitForFunction(() => /samples\/s/.test(document.querySelector('#progress-text')?.textContent || ''), null, { timeout: 120000 });
    const t = Date.now();
    await page.click('#cancel');
    await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#progress-text')?.textContent || ''), null, { timeout: 10000 });
    const dt = (Date.now() - t) / 1000;
    if (!(await page.isEnabled('#run'))) throw new Error('Run is not enabled after cancel');
    await page.close();
    return `stopped in ${dt.toFixed(1)} s`;
  }],
];

let passed = 0, failed = 0;
for (const [name, fn] of tests) {
  if (only && !name.includes(only)) continue;
  const t = Date.now();
  try {
    const detail = await fn();
    passed++;
    console.log(`ok   ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)${detail ? ' — ' + detail : ''}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)\n     ${String(e.message || e).split('\n').join('\n     ')}`);
  }
}
await closeBrowser();
closeServer();
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
