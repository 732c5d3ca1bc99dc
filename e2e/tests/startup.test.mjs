// The start-up: the page opens without an error, states its backend, sizes its default to it, and asks
// nothing of the host outside its sub-path.
import { useApp } from '../fixture.mjs';
import { bannerText, advanced, values, noErrors, shot, longTasks } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('start-up: no console error, backend stated, default controls', async () => {
  const page = await open();
  const banner = await bannerText(page);
  if (!/WebGPU|CPU/.test(banner)) throw new Error('banner: ' + banner);
  // The default sized to the backend: fewer training samples on the CPU, said beside the controls.
  const cpu = /CPU/.test(banner);
  if (cpu) await page.waitForFunction(() => document.querySelector('#sized-note')?.textContent, null, { timeout: 10000 });
  await shot(page, 'first-screen', { fullPage: false });
  await advanced(page);
  const want = { epochs: cpu ? '6' : '8', train_size: cpu ? '1000' : '2000', batch_size: '64', shadow_models: '4' };
  const vals = await values(page, ['epochs', 'train_size', 'batch_size', 'shadow_models']);
  for (const k in want) if (vals[k] !== want[k]) throw new Error(`${k} = ${vals[k]}, want ${want[k]} (${banner})`);
  const sized = await page.textContent('#sized-note');
  if (cpu !== /Sized for your processor: 1000 training samples × 6 epochs, .*\(2000 × 8 on a GPU\)/.test(sized)) throw new Error('sized note: ' + sized);
  // A link that names a setting keeps the paper-like default for the rest.
  const named = await open('?label_noise=0.2');
  const ts = await named.evaluate(() => document.querySelector('input[name=train_size]').value);
  if (ts !== '2000') throw new Error(`train_size = ${ts} on a link that names label_noise, want 2000`);
  // …and the note about the CPU's size is not shown for a run of another size.
  if (cpu && await named.evaluate(() => document.querySelector('#sized-note')?.textContent)) throw new Error('sized note on a link of another size');
  await named.close();
  // Before any run the lenses draw a run measured earlier (4 shadow models a model): what more
  // shadows buy, from 2 to 4, and the sentence under it; the ROC's steps (no images kept there).
  const preview = await page.evaluate(() => ({
    budget: document.querySelector('#budget-chart svg desc')?.textContent || '',
    says: document.querySelector('#budget-says')?.textContent || '',
    flags: [...document.querySelectorAll('#roc-step .roc-flags')].map((p) => p.textContent),
  }));
  if (!/BN: LiRA: [\d.]+ at shadows 2, [\d.]+ at shadows 3, [\d.]+ at shadows 4/.test(preview.budget)
    || !/with 4: what an attacker's extra training buys/.test(preview.says)
    || preview.flags.length !== 2 || !preview.flags.every((t) => /^(BN|no-BN): at (0\.\d|1\.0)% false positives \(\d+ non-members wrongly flagged\) LiRA flags \d+ of 1,000 members\.$/.test(t))) throw new Error('the preview\'s attack: ' + JSON.stringify({ flags: preview.flags, says: preview.says.slice(0, 200), budget: preview.budget.slice(0, 200) }));
  await shot(page, 'idle', { fullPage: true });
  noErrors(page);
  await page.close();
  // Served under /spotlight/ (as static-pages hosts do): nothing may be asked of the host's root.
  if (app.outside.length) throw new Error('requests outside the sub-path: ' + app.outside.join(', '));
  return `${banner}; served under ${new URL(app.base).pathname}`;
});

test('the backend: a software WebGPU adapter means the CPU, said why; measure=1 times both and trains on the faster, kept for the tab; backend=webgpu forces it', async () => {
  // This machine's WebGPU is SwiftShader, a software fallback adapter: the CPU, not measured.
  const page = await open();
  const plain = await page.evaluate(() => ({
    chosen: document.querySelector('#backend-banner').dataset.chosen,
    why: document.querySelector('#backend-banner details.why')?.textContent || '',
    measured: performance.getEntriesByName('spotlight-backends-measured').length,
  }));
  if (plain.chosen !== 'cpu' || !/software fallback \(.+\), which runs on the same processor .* so it is not measured; measure=1 in the link measures both/.test(plain.why) || plain.measured) throw new Error('a software adapter: ' + JSON.stringify(plain));
  // measure=1: a few steps of the page's first model on each backend, in workers, then the faster.
  const m = await open('?measure=1&batch_size=32');
  const seen = async () => m.evaluate(() => {
    const b = document.querySelector('#backend-banner');
    return {
      chosen: b.dataset.chosen, text: b.textContent, gpu: Number(b.dataset.webgpuRate), cpu: Number(b.dataset.cpuRate),
      measured: performance.getEntriesByName('spotlight-backends-measured').length,
    };
  });
  const first = await seen();
  // Each backend's rate in one worker, times the workers a run gets there.
  const said = /measured here: WebGPU ([\d,]+) samples\/s, CPU ([\d,]+) samples\/s \(one worker's rate times a run's workers: (\d+) and (\d+)\), so training on (WebGPU|the CPU)/.exec(first.text);
  if (!said || !(first.gpu > 0) || !(first.cpu > 0) || first.measured !== 1) throw new Error('measure=1: ' + JSON.stringify(first));
  const faster = first.gpu > first.cpu ? 'webgpu' : 'cpu';
  const num = (s) => Number(s.replace(/,/g, ''));
  if (first.chosen !== faster || (said[5] === 'WebGPU') !== (faster === 'webgpu') || num(said[1]) !== Math.round(first.gpu) || num(said[2]) !== Math.round(first.cpu)) throw new Error('not the faster, or not as measured: ' + JSON.stringify(first));
  const lt = await longTasks(m, 'spotlight-backends-measuring');
  // Kept for the tab's session: a reload says the same figures, measured earlier, without measuring.
  await m.reload();
  await m.waitForSelector('#backend-banner[data-chosen]', { timeout: 60000 });
  const again = await seen();
  if (again.measured || again.chosen !== first.chosen || again.gpu !== first.gpu || again.cpu !== first.cpu || !/\(measured earlier in this session\)/.test(again.text)) throw new Error('after a reload: ' + JSON.stringify(again));
  // backend=webgpu forces WebGPU, unmeasured.
  const forced = await open('?backend=webgpu&measure=1');
  const f = await forced.evaluate(() => ({ chosen: document.querySelector('#backend-banner').dataset.chosen, rate: document.querySelector('#backend-banner').dataset.webgpuRate, measured: performance.getEntriesByName('spotlight-backends-measured').length }));
  if (f.chosen !== 'webgpu' || f.rate !== undefined || f.measured) throw new Error('backend=webgpu: ' + JSON.stringify(f));
  await shot(m.locator('#backend-banner'), 'banner-measured');
  noErrors(page, m, forced);
  return `${said[0]}; main thread while it measured and since: ${lt.count} long tasks (> 50 ms), longest ${lt.maxMs.toFixed(0)} ms`;
});
