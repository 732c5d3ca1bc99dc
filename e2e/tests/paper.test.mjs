// The paper panel: every claim of the paper with its verdict, mean ± sd and caveat; its charts.
import { useApp } from '../fixture.mjs';
import { noErrors, openPaperCharts, shot } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('the paper panel: every claim with its verdict, the charts drawn when opened', async () => {
  const page = await open();
  const rows = await page.evaluate(() => [...document.querySelectorAll('#paper-table tr')].slice(1).map((tr) => {
    const cells = [...tr.children].map((td) => td.textContent);
    // The verdict itself, then each tested number's own verdict and the claim's caveat.
    cells[4] = tr.querySelector('td:last-child > span').textContent;
    cells.push(tr.querySelectorAll('td:last-child div').length, tr.querySelector('td:last-child em')?.textContent || '');
    return cells;
  }));
  if (await page.locator('#paper-error').count()) throw new Error(await page.textContent('#paper-error'));
  if (rows.length !== 10) throw new Error(`${rows.length} claim rows, want 10`);
  for (const r of rows) {
    if (!/^(held|did not hold|inconclusive|could not be checked) \(\d+\/\d+ seeds\)$/.test(r[4])) throw new Error('verdict: ' + r[4]);
    if (!/±/.test(r[3])) throw new Error(`claim ${r[0]} has no mean ± sd: ${r[3]}`);
    if (r[5] < 1 || r[6].length < 10) throw new Error(`claim ${r[0]}: ${r[5]} tests shown, caveat "${r[6]}"`);
  }
  await openPaperCharts(page);
  const charts = await page.evaluate(() => [...document.querySelectorAll('#view-paper .paper-chart')].map((f) => ({
    lines: f.querySelectorAll('svg polyline, svg path').length, text: f.textContent })));
  if (charts.length < 4) throw new Error(`${charts.length} charts, want the lenses and the trade-off`);
  for (const c of charts) {
    if (/chart error/.test(c.text)) throw new Error('chart error: ' + c.text.slice(0, 200));
    if (c.lines === 0) throw new Error('an empty chart: ' + c.text.slice(-200));
  }
  await shot(page.locator('#view-paper'), 'paper');
  noErrors(page);
  await page.close();
  return rows.map((r) => `${r[0]} ${r[4]}`).join('; ');
});
