// The start-up: the page opens without an error, states its backend, sizes its default to it, and asks
// nothing of the host outside its sub-path.
import { useApp } from '../fixture.mjs';
import { bannerText, advanced, values, noErrors, shot } from '../page.mjs';

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
