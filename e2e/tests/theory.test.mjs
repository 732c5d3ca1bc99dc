// The theory lab: the γ/σ lens's two-dimensional toy, stepped, played, moved and frozen.
import { useApp } from '../fixture.mjs';
import { setValue, longTasks, noErrors, shot } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('the theory lab: opened from the γ/σ lens, stepped and played; four charts with their sentences; freezing γ holds it at 1; a course link shows it alone', async () => {
  const page = await open('?backend=cpu');
  await page.click('#view-gamma .to-theory a');
  await page.waitForFunction(() => document.querySelector('#theory-lab')?.open && document.querySelectorAll('#theory-lab .chart svg').length === 4, null, { timeout: 10000 });
  const at = () => page.textContent('#theory-at');
  if ((await at()) !== 'Step 0 of 200') throw new Error('before a step: ' + (await at()));
  await page.click('#theory-step');
  if ((await at()) !== 'Step 1 of 200') throw new Error('after a step: ' + (await at()));
  await page.evaluate(() => performance.mark('theory-play'));
  const t0 = Date.now();
  await page.click('#theory-play');
  await page.waitForFunction(() => document.querySelector('#theory-at').textContent === 'Step 200 of 200', null, { timeout: 30000 });
  const playS = (Date.now() - t0) / 1000;
  const lt = await longTasks(page, 'theory-play');
  const end = await page.evaluate(() => ({
    charts: [...document.querySelectorAll('#theory-lab .chart')].map((c) => ({ id: c.id, svg: !!c.querySelector('svg'), paths: c.querySelectorAll('path, polyline, circle, rect').length, title: c.querySelector('svg title')?.textContent || '' })),
    says: [...document.querySelectorAll('#theory-lab figcaption')].map((f) => f.textContent),
  }));
  for (const c of end.charts) if (!c.svg || c.paths < 3 || /error/i.test(c.title)) throw new Error('a theory chart: ' + JSON.stringify(c));
  if (end.says.length !== 4 || !/^The outlier's margin now: BN -?\d/.test(end.says[0]) || !/^Fitted the outlier's wrong label — BN: (from step \d+|not yet); no-BN: (from step \d+|not yet)\.$/.test(end.says[1]) || !/steps held the outlier/.test(end.says[2]) || !/^γ now: \d/.test(end.says[3])) throw new Error('sentences: ' + JSON.stringify(end.says));
  await shot(page.locator('#theory-lab'), 'theory-lab');
  // The outlier moved: a new run, other curves.
  const before = await page.evaluate(() => ({ data: document.querySelector('#theory-data').innerHTML, margins: document.querySelector('#theory-margins').innerHTML }));
  await setValue(page, 'theory-outlier-x', '-1.5');
  await page.click('#theory-play');
  await page.waitForFunction(() => document.querySelector('#theory-at').textContent === 'Step 200 of 200', null, { timeout: 30000 });
  const moved = await page.evaluate(() => ({ data: document.querySelector('#theory-data').innerHTML, margins: document.querySelector('#theory-margins').innerHTML }));
  if (moved.data === before.data || moved.margins === before.margins) throw new Error('moving the outlier changed no curve');
  // Freeze γ: a new run from step 0, whose γ stays 1 to the end.
  await page.click('input[name=theory-freeze]');
  if ((await at()) !== 'Step 0 of 200') throw new Error('a new setting did not restart the run: ' + (await at()));
  await page.click('#theory-play');
  await page.waitForFunction(() => document.querySelector('#theory-at').textContent === 'Step 200 of 200', null, { timeout: 30000 });
  const frozen = await page.textContent('#theory-lab figure:nth-child(4) figcaption');
  if (!/^γ now: 1\.00 with/.test(frozen)) throw new Error('frozen γ: ' + frozen);
  // A click on the plane places the outlier there: right of the middle, towards the top.
  const box = await page.locator('#theory-data svg').boundingBox();
  await page.mouse.click(box.x + 0.7 * box.width, box.y + 0.3 * box.height);
  const placed = await page.evaluate(() => [+document.querySelector('input[name=theory-outlier-x]').value, +document.querySelector('input[name=theory-outlier-y]').value]);
  if (!(placed[0] > 0 && placed[1] > 0) || (await at()) !== 'Step 0 of 200') throw new Error(`a click placed the outlier at ${placed} (${await at()})`);
  noErrors(page);
  await page.close();
  // A course link with only the lab: no lens, no γ/σ link, the lab there.
  const only = await open('?backend=cpu&show=theory');
  const seen = await only.evaluate(() => ({ lab: !!document.querySelector('#theory-lab'), lenses: document.querySelectorAll('#view-accuracy, #view-gamma').length }));
  if (!seen.lab || seen.lenses) throw new Error('show=theory: ' + JSON.stringify(seen));
  await only.close();
  // Reported, not asserted (speed lives in benchmarks).
  return `played 199 steps in ${playS.toFixed(1)} s (${(199 / playS).toFixed(0)} steps/s), ${lt.count} long tasks (> 50 ms), longest ${lt.maxMs.toFixed(0)} ms; ${end.says.join(' ')} | frozen: ${frozen}`;
});
