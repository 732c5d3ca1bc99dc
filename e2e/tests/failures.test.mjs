// Failures, each shown on the page: the dataset's download (slow, failing, gzip-encoded, bad assets),
// Cancel, a worker that cannot start, WebGPU hidden from the workers, a panic, a diverging run,
// leaving mid-run, a lost WebGPU device.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { makeAsset } from '../lib.mjs';
import { useApp } from '../fixture.mjs';
import { tiny, progressText, waitProgress, waitTraining, waitDone, bannerText, pressRun, pressCancel, pressRetry, workers, noErrors, shot, numbers } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('dataset download shows its progress; a failed load offers Retry, which recovers', async () => {
  app.serve.slowData = true;
  let page;
  try {
    page = await open(`?backend=cpu&${tiny}`);
    await pressRun(page);
    await page.waitForFunction(() => /Loading mnist\.spds\.gz: [\d.]+ of [\d.]+ MB/.test(document.querySelector('#progress-text')?.textContent || '')
      && parseFloat(document.querySelector('#progress-fill').style.width) > 0, null, { timeout: 30000 });
    const text = await progressText(page);
    await shot(page, 'loading', { fullPage: false });
    app.serve.slowData = false;
    await pressCancel(page);
    await page.close();
    app.serve.failData = true;
    page = await open(`?backend=cpu&run=1&${tiny}`);
    await page.waitForSelector('#retry', { timeout: 30000 });
    const err = await progressText(page);
    await shot(page, 'load-failed', { fullPage: false });
    if (!/Error: The dataset could not be loaded: .*503/.test(err)) throw new Error('error text: ' + err);
    app.serve.failData = false;
    await pressRetry(page);
    await waitDone(page);
    if (await page.$('#retry')) throw new Error('Retry still shown after a successful run');
    const errors = page.errors.filter((e) => !/503/.test(e)); // the browser logs the failed fetch itself
    if (errors.length) throw new Error(errors.join('\n'));
    return `${text}; then "${err.slice(0, 80)}…" and Retry ran to the end`;
  } finally {
    app.serve.slowData = app.serve.failData = false;
    await page?.close();
  }
});

test('cancel mid-run stops within a few seconds and the page stays usable', async () => {
  const page = await open('?backend=cpu&run=1&train_size=3000&epochs=5&shadow_models=2');
  await waitTraining(page, 120000);
  const t = Date.now();
  await pressCancel(page);
  await waitProgress(page, /Cancelled/, 10000);
  const dt = (Date.now() - t) / 1000;
  if (!(await page.isEnabled('#run'))) throw new Error('Run is not enabled after cancel');
  // Every training worker is terminated.
  const left = await workers(page);
  if (left !== 0) throw new Error(`${left} workers still alive after Cancel`);
  await page.close();
  return `stopped in ${dt.toFixed(1)} s, no worker left`;
});

test('a training worker that cannot start is reported on the page, not only in the console', async () => {
  app.serve.failWorker = true;
  try {
    const page = await open(`?backend=cpu&run=1&${tiny}`);
    await waitProgress(page, /Error|done in/, 60000);
    const text = await progressText(page);
    if (!/^Error: a training worker failed/.test(text)) throw new Error('progress: ' + text);
    if (!(await page.isEnabled('#run'))) throw new Error('Run is not enabled after the failure');
    const left = await workers(page);
    if (left !== 0) throw new Error(`${left} workers still alive`);
    await page.close();
    return text.slice(0, 120);
  } finally {
    app.serve.failWorker = false;
  }
});

test('WebGPU that the workers do not get: the run trains on the page\'s thread, and the banner says why', async () => {
  app.serve.noWorkerGpu = true;
  try {
    const page = await open(`?backend=webgpu&run=1&${tiny}`);
    await waitDone(page);
    const s = await page.evaluate(() => ({ banner: document.querySelector('#backend-banner').textContent, workers: window.spotlightWorkers(),
      auc: [...document.querySelectorAll('#attack-table .auc')].map((e) => e.textContent) }));
    if (!/^Training on WebGPU.*training on the page's thread: this browser offers no WebGPU to workers/.test(s.banner)) throw new Error('banner: ' + s.banner);
    if (s.workers !== 0 || s.auc.length !== 2) throw new Error(JSON.stringify(s));
    noErrors(page);
    await page.close();
    return `${s.banner.slice(0, 150)}; AUC ${s.auc}`;
  } finally {
    app.serve.noWorkerGpu = false;
  }
});

test('a dataset sent with Content-Encoding: gzip (the browser unpacks it) loads and runs', async () => {
  app.serve.gzipEncoding = true;
  try {
    const page = await open(`?backend=cpu&run=1&compare=false&${tiny}`);
    await waitDone(page);
    const rows = (await numbers(page)).epochs.length;
    if (rows < 1) throw new Error(`${rows} epoch rows`);
    noErrors(page);
    await page.close();
    return `${rows} epoch rows`;
  } finally {
    app.serve.gzipEncoding = false;
  }
});

test('bad dataset assets: a clear load error and Retry, never an abort', async () => {
  const real = fs.readFileSync(path.join(app.dist, 'data', 'mnist.spds.gz'));
  const corrupted = Buffer.from(real);
  for (let i = 0; i < 64; i++) corrupted[Math.floor(real.length / 2) + i] ^= 0x5a;
  const cases = [
    ['corrupted', corrupted, /not valid gzip/],
    ['truncated', real.subarray(0, Math.floor(real.length / 2)), /not valid gzip|truncated/],
    ['32×32', makeAsset({ rows: 32, cols: 32 }), /32×32 images in 10 classes, expected 28×28 in 10 classes/],
    ['1 class', makeAsset({ classes: 1 }), /28×28 images in 1 class, expected 28×28 in 10 classes/],
    ['12 classes', makeAsset({ classes: 12 }), /in 12 classes, expected 28×28 in 10 classes/],
    ['gzip bomb', zlib.gzipSync(Buffer.alloc(200 << 20)), /more than 64 MB/],
    ['not an asset', Buffer.from('<html>a page of the host</html>'), /neither gzip nor a Spotlight dataset asset/],
  ];
  const seen = [];
  let page;
  try {
    for (const [name, bytes, want] of cases) {
      app.serve.data = bytes;
      page = await open(`?backend=cpu&run=1&${tiny}`);
      await page.waitForSelector('#retry', { timeout: 60000 });
      const text = await progressText(page);
      if (!/^Error: The dataset could not be loaded: mnist\.spds\.gz: /.test(text) || !want.test(text)) throw new Error(`${name}: ${text}`);
      if (name === '32×32') await shot(page, 'bad-asset', { fullPage: false });
      if (page.errors.length) throw new Error(`${name}: ${page.errors.join('\n')}`);
      seen.push(`${name}: "${text.slice(text.indexOf('gz: ') + 4, text.indexOf('gz: ') + 64)}…"`);
      if (name !== cases[cases.length - 1][0]) await page.close();
    }
    // Retry on the last page, the real asset back: the run goes through.
    app.serve.data = null;
    await pressRetry(page);
    await waitDone(page);
    noErrors(page);
    return seen.join('; ') + '; Retry then ran to the end';
  } finally {
    app.serve.data = null;
    await page?.close();
  }
});

test('a panic shows "Spotlight crashed" with its text, never a page stuck on Running', async () => {
  const page = await open('?backend=cpu&run=1&train_size=3000&epochs=5&shadow_models=2');
  await waitTraining(page, 120000);
  await page.evaluate(() => window.spotlightPanic('forced by the browser test')).catch(() => {});
  await page.waitForSelector('#crash', { state: 'visible', timeout: 10000 });
  const text = await page.textContent('#crash');
  if (!/Spotlight crashed — reload the page/.test(text) || !/forced by the browser test/.test(text)) throw new Error('crash panel: ' + text);
  if ((await page.getAttribute('#crash', 'role')) !== 'alert') throw new Error('the crash panel is not an alert');
  const href = await page.getAttribute('#crash a', 'href');
  if (!href || /run=1/.test(href) || !/train_size=3000/.test(href)) throw new Error('reload link: ' + href);
  await shot(page, 'crashed', { fullPage: false });
  await page.close();
  return text.replace(/\s+/g, ' ').slice(0, 120);
});

test('a diverging run shows each model\'s error and never reads "done"', async () => {
  // SGD at learning rate 1 without BN, two samples a batch, seed 1: the loss becomes NaN at epoch 1,
  // step 192, here and in `spotlight run` on flex (crates/cli/tests/cli.rs, the same link). The
  // issue's link (batch 128) does not diverge in this model: it collapses to chance with a finite
  // loss, and so do most seeds and batch sizes at this rate; this one is a fixture for the error path.
  const page = await open('?compare=false&batch_norm=false&optimizer=sgd&learning_rate=1&batch_size=2&train_size=1000&test_size=100&epochs=2&probe_size=4&shadow_models=0&backend=cpu&run=1');
  await waitProgress(page, /done in|Error/, 300000);
  const text = await progressText(page);
  if (!/^Error: the run ended with 1 error, listed below/.test(text)) throw new Error('progress: ' + text);
  const errors = await page.textContent('#model-errors');
  if (!/no-BN: training stopped: the loss became (NaN|inf|-inf) at epoch \d+, step \d+; try a lower learning rate/.test(errors)) throw new Error('model errors: ' + errors);
  await shot(page, 'diverged', { fullPage: false });
  noErrors(page);
  await page.close();
  return `${text}; ${errors.replace(/\s+/g, ' ').slice(0, 140)}`;
});

test('leaving the page mid-run asks first', async () => {
  const page = await open(`?backend=cpu&train_size=3000&epochs=5&shadow_models=2`);
  await pressRun(page);
  await waitTraining(page, 120000);
  page.removeAllListeners('dialog');
  const asked = new Promise((resolve) => page.once('dialog', async (d) => { const t = d.type(); await d.dismiss(); resolve(t); }));
  await page.close({ runBeforeUnload: true });
  const type = await Promise.race([asked, new Promise((r) => setTimeout(() => r('no dialog'), 10000))]);
  if (type !== 'beforeunload') throw new Error('leaving mid-run: ' + type);
  if (page.isClosed()) throw new Error('the page closed although leaving was refused');
  await pressCancel(page);
  await waitProgress(page, /Cancelled/, 10000);
  await page.close({ runBeforeUnload: true });
  return 'asked (beforeunload), stayed, then closed without asking once cancelled';
});

test('a lost WebGPU device is reported, and the next run uses the CPU', async () => {
  const page = await open(`?backend=webgpu&run=1&${tiny}`);
  // Once the workers train (their devices open on their first job, after the kernels compile):
  // every training worker destroys its device; the browser reports the loss as a real one.
  await waitProgress(page, /^[1-9]\d*% /, 300000);
  const n = await page.evaluate(() => window.spotlightLoseGpu());
  if (n < 1) throw new Error('no training worker to lose its device');
  await waitProgress(page, /Error|done in/, 120000);
  const text = await progressText(page);
  if (!/^Error: the GPU device was lost during the run/.test(text)) throw new Error('progress: ' + text);
  await page.waitForFunction(() => /CPU.*the GPU device was lost/.test(document.querySelector('#backend-banner')?.textContent || ''), null, { timeout: 30000 });
  await shot(page, 'gpu-lost', { fullPage: false });
  await pressRun(page);
  await waitDone(page);
  const banner = await bannerText(page);
  if (!/^Training on CPU/.test(banner)) throw new Error('the next run: ' + banner);
  const errors = page.errors.filter((e) => !/lost|destroyed|Destroyed|poison/i.test(e)); // wgpu and cubecl log the loss
  if (errors.length) throw new Error(errors.join('\n'));
  await page.close();
  return `${n} workers lost their devices; ${text.slice(0, 110)}…; then ${banner.slice(0, 60)}`;
});
