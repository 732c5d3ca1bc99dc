// Is it BN, or any normalization? BN beside GroupNorm, picked in the controls: every lens draws the
// GroupNorm model, the γ/σ lens says whose σ it is, the attack's samples open, the link keeps it.
import { useApp } from '../fixture.mjs';
import { tiny, waitDone, pressRun, control, checkViews, shareLink, noErrors, shot, notices } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('BN vs GroupNorm: picked in "Compared with", the tiny comparison trains both and every lens draws GroupNorm; a sample\'s LiRA picture, its margin over the epochs and a ROC step open; the link keeps it; GroupNorm against itself is a notice', async () => {
  const page = await open(`?backend=cpu&${tiny}`);
  await page.selectOption(control('versus'), 'group');
  await page.waitForFunction(() => /versus=group/.test(document.querySelector('#share-link')?.value || ''), null, { timeout: 10000 });
  await pressRun(page);
  await waitDone(page);
  const v = await checkViews(page);
  const seen = await page.evaluate(() => ({
    accuracy: document.querySelector('#view-accuracy .chart svg desc')?.textContent || '',
    gamma: document.querySelector('#view-gamma .chart svg desc')?.textContent || '',
    note: document.querySelector('#gamma-per-sample')?.textContent || '',
    models: [...document.querySelectorAll('#attack-table tr')].slice(1).map((tr) => tr.firstElementChild?.textContent || ''),
  }));
  if (!/GroupNorm, flipped:/.test(seen.accuracy) || !/BN, flipped:/.test(seen.accuracy)) throw new Error('accuracy chart: ' + seen.accuracy.slice(0, 300));
  if (!/GroupNorm conv1/.test(seen.gamma) || !/BN conv1/.test(seen.gamma)) throw new Error('γ/σ chart: ' + seen.gamma.slice(0, 300));
  if (!/^GroupNorm and LayerNorm divide each sample by its own σ/.test(seen.note)) throw new Error('γ/σ note: ' + seen.note);
  if (seen.models.join() !== 'BN,GroupNorm') throw new Error('attack table: ' + JSON.stringify(seen.models));
  // The ROC's top step flags every member of each model; a gallery sample opens its picture.
  await page.focus('#roc-step input[type=range]');
  await page.keyboard.press('End');
  const flags = await page.$$eval('#roc-step .roc-flags', (ps) => ps.map((p) => p.textContent));
  if (flags.length !== 2 || !flags.every((t) => /LiRA flags 300 of 300 members/.test(t))) throw new Error('ROC step: ' + JSON.stringify(flags));
  await page.click('#view-gallery figure.sample.scored');
  await page.waitForSelector('#sample-lira .chart svg', { timeout: 10000 });
  // Its loss and margin over the epochs: a chart and a sentence.
  const history = await page.evaluate(() => ({
    title: document.querySelector('#sample-history svg title')?.textContent || '',
    says: document.querySelector('#sample-history-says')?.textContent || '',
  }));
  if (history.title !== 'Its margin over the epochs' || !/^Its loss went from [\d.]+ before training to [\d.]+ at epoch 2, its margin \(its label's logit minus the largest other\) from -?[\d.]+ to -?[\d.]+: the model (has predicted the label it was given since epoch \d|does not predict the label it was given)\.$/.test(history.says)) throw new Error('history: ' + JSON.stringify(history));
  await shot(page.locator('#sample-lira'), 'sample-history');
  await shot(page.locator('#view-gamma'), 'gamma-groupnorm');
  const link = await shareLink(page);
  if (!/versus=group/.test(link)) throw new Error('share link: ' + link);
  noErrors(page);
  await page.close();
  // A link that compares GroupNorm with itself: a notice, and the default comparison.
  const same = await open(`?backend=cpu&norm=group&versus=group`);
  const said = await notices(same);
  if (!/versus: GroupNorm is compared with itself; choose another normalization/.test(said)) throw new Error('notice: ' + said);
  const kept = await same.evaluate(() => [document.querySelector('[name=norm]').value, document.querySelector('[name=versus]').value]);
  if (kept.join() !== 'batch,none') throw new Error('after the notice: ' + kept);
  noErrors(same);
  await same.close();
  return `AUC ${v.auc.join(', ')}`;
});
