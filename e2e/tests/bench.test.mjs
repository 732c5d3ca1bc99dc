// The benchmark page (bench=1): figures per backend and model, then the comparison's phases.
import { useApp } from '../fixture.mjs';
import { tiny, noErrors, shot, checkViews } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('bench=1 times train samples/s per backend and model, then the comparison', async () => {
  const page = await open(`?backend=cpu&bench=1&${tiny}`);
  await page.waitForFunction(() => /in all/.test(document.querySelector('#bench-comparison')?.textContent || ''), null, { timeout: 600000 });
  const b = JSON.parse(await page.getAttribute('#view-bench', 'data-json'));
  const rows = b.throughput.map((t) => `${t.backend} ${t.batch_norm ? 'BN' : 'no-BN'} ${t.samples_per_s.toFixed(0)}/s`);
  // burn-flex is the page's one CPU backend (burn-ndarray is not built into the page).
  if (b.throughput.some((t) => t.backend.includes('ndarray'))) throw new Error(`a burn-ndarray row: ${rows}`);
  const want = ['flex'].flatMap((k) => [true, false].map((bn) => [k, bn]));
  for (const [k, bn] of want) {
    const t = b.throughput.find((t) => t.backend.includes(k) && t.batch_norm === bn);
    if (!t || !(t.samples_per_s > 0) || t.steps !== 10 || t.batch_size !== 50) throw new Error(`no figure for ${k} ${bn ? 'BN' : 'no-BN'}: ${rows}`);
  }
  const c = b.comparison;
  // In the workers the shadow models train beside the targets: their phase is the wall time they
  // add after the last target ended, 0 when they were all done by then (here, often: the no-BN
  // target ends first and its worker trains the shadows while the BN one still trains).
  if (!c || !c.finished || !(c.times.total_s > 0) || !(c.times.targets_s > 0) || !(c.times.shadows_s >= 0) || !(c.workers >= 2)) throw new Error('comparison: ' + JSON.stringify(c));
  if (Math.abs(c.times.targets_s + c.times.shadows_s + c.times.attack_s - c.times.total_s) > 0.01) throw new Error('phases do not add up: ' + JSON.stringify(c.times));
  if (c.config.train_size !== 300) throw new Error('timed the wrong config: ' + JSON.stringify(c.config));
  // Shadow models one by one, then stacked as one network: a pair per backend, and its row.
  const sh = b.shadows;
  if (sh.length !== 2 || sh[0].stacked || !sh[1].stacked || !sh.every((t) => t.models === 4 && t.samples > 0 && t.seconds > 0 && t.batch_norm)) throw new Error('shadows: ' + JSON.stringify(sh));
  const shRows = await page.$$eval('#bench-shadows tr', (trs) => trs.length - 1);
  if (shRows !== 1) throw new Error(`the shadows' table has ${shRows} rows`);
  await checkViews(page);
  await shot(page.locator('#view-bench'), 'bench');
  noErrors(page);
  await page.close();
  return `${rows.join(', ')}; 4 BN shadow models one by one ${(sh[0].samples / sh[0].seconds).toFixed(0)} samples/s, stacked ${(sh[1].samples / sh[1].seconds).toFixed(0)} samples/s; comparison ${c.times.total_s.toFixed(1)} s`;
});

test('bench=1 on WebGPU counts each training step\'s GPU work: dispatches, submits, read-backs; stacked shadow models launch fewer', async () => {
  // The software adapter, forced: the counts are the API calls, whatever runs them.
  const page = await open('?backend=webgpu&bench=1&batch_size=8&train_size=300&test_size=200&epochs=1&shadow_models=0&probe_size=2');
  await page.waitForFunction(() => {
    const j = document.querySelector('#view-bench')?.getAttribute('data-json');
    return j && JSON.parse(j).throughput.filter((t) => t.gpu_work).length === 2;
  }, null, { timeout: 300000 });
  const b = JSON.parse(await page.getAttribute('#view-bench', 'data-json'));
  const gpu = b.throughput.filter((t) => t.gpu_work);
  const said = await page.$$eval('#bench-table td.gpu-work', (tds) => tds.map((td) => td.textContent));
  for (const t of gpu) {
    const w = t.gpu_work;
    if (!/^WebGPU/.test(t.backend) || !(w.dispatches >= 10) || !(w.submits > 0) || !(w.readbacks >= 0)) throw new Error('GPU work: ' + JSON.stringify(t));
  }
  if (said.length !== 2 || !said.every((s) => /^[\d,]+ dispatches, [\d.,]+ submits, [\d.,]+ read-backs$/.test(s))) throw new Error('table: ' + JSON.stringify(said));
  // Four shadow models stacked as one network: one dispatch serves four, so far fewer per sample.
  await page.waitForFunction(() => {
    const j = document.querySelector('#view-bench')?.getAttribute('data-json');
    return j && JSON.parse(j).shadows.filter((t) => t.dispatches_per_sample).length === 2;
  }, null, { timeout: 300000 });
  const [alone, stacked] = JSON.parse(await page.getAttribute('#view-bench', 'data-json')).shadows;
  if (alone.stacked || !stacked.stacked || !(stacked.dispatches_per_sample < alone.dispatches_per_sample / 2)) throw new Error('stacked dispatches: ' + JSON.stringify([alone, stacked]));
  const cell = await page.textContent('#bench-shadows td.gpu-work');
  if (!/^[\d.,]+ → [\d.,]+$/.test(cell)) throw new Error('the shadows\' dispatches cell: ' + cell);
  await page.close();
  // Reported, not asserted: today's counts on this build.
  return gpu.map((t) => `${t.batch_norm ? 'BN' : 'no-BN'}: ${t.gpu_work.dispatches.toFixed(0)} dispatches, ${t.gpu_work.submits.toFixed(1)} submits, ${t.gpu_work.readbacks.toFixed(2)} read-backs per step`).join('; ')
    + `; 4 BN shadow models one by one ${alone.dispatches_per_sample.toFixed(2)} dispatches per sample, ${(alone.samples / alone.seconds).toFixed(0)} samples/s; stacked ${stacked.dispatches_per_sample.toFixed(2)}, ${(stacked.samples / stacked.seconds).toFixed(0)} samples/s`;
});
