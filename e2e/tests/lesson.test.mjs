// The lesson: the question, few controls, the regularizer's three models, readable chart text, and
// the sentences that follow the run.
import { useApp } from '../fixture.mjs';
import { tiny, waitDone, pressRun, noErrors, shot } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('the lesson, readable: the question and ≤ 8 controls before Run; with the regularizer three models; chart text ≥ 11 px at 1280 and 390 px; the sentences follow the run', async () => {
  const page = await open(`?backend=cpu&${tiny}&regularizer=true`);
  const idle = await page.evaluate(() => ({
    question: document.querySelector('#question')?.textContent || '',
    controls: [...document.querySelectorAll('.controls input, .controls select, .controls button')].filter((e) => e.checkVisibility()).map((e) => e.name || e.id),
    says: document.querySelector('#memorized-says')?.textContent || '',
    earlier: document.querySelector('#measured-earlier')?.textContent || '',
    charts: [...document.querySelectorAll('.lenses .chart svg')].filter((s) => s.querySelector('polyline')).length,
  }));
  if (!/memorize/.test(idle.question) || idle.controls.length > 8 || !idle.controls.includes('run')) throw new Error('idle page: ' + JSON.stringify(idle));
  // Before Run the lenses show a run measured earlier, and say so.
  if (idle.charts < 4 || !/^Measured earlier, on the default run for a processor \(1,?000 training samples × 6 epochs\)/.test(idle.earlier)) throw new Error('before Run: ' + JSON.stringify(idle));
  await pressRun(page);
  // The sentence under the memorization chart changes while the run goes, epoch by epoch.
  await page.waitForFunction(() => /After epoch 1:/.test(document.querySelector('#memorized-says')?.textContent || ''), null, { timeout: 300000 });
  const during = await page.textContent('#memorized-says');
  await waitDone(page);
  const end = await page.evaluate(() => ({
    says: document.querySelector('#memorized-says').textContent, attack: document.querySelector('#attack-says')?.textContent || '',
    models: [...document.querySelectorAll('#epoch-table tr')].slice(1).map((tr) => tr.children[0].textContent),
    rows: [...document.querySelectorAll('#epoch-table tr')].slice(1).map((tr) => [...tr.children].map((td) => td.textContent)),
    tpr: [...document.querySelectorAll('#attack-table tr')].slice(1).map((tr) => tr.children[2].textContent),
  }));
  if (end.models.join() !== 'BN,BN + γ/σ reg,no-BN') throw new Error('three models side by side: ' + end.models.join());
  // At the end, what just happened in three sentences: the lenses' own two, and where to go next.
  const happened = await page.evaluate(() => [...document.querySelectorAll('#just-happened p')].map((p) => p.textContent));
  if (happened.length !== 3 || happened[0] !== end.says || happened[1] !== end.attack || !/^Next: draw/.test(happened[2])) {
    throw new Error('what just happened: ' + JSON.stringify(happened));
  }
  // 300 members at 20 % flipped: 60 wrong labels; each model's count is its flipped accuracy × 60.
  for (const [name, , flipped] of end.rows) {
    const n = Math.round(parseFloat(flipped) / 100 * 60);
    if (!end.says.includes(`${name}${end.says.startsWith('After epoch 2: ' + name) ? ' has learned' : ':'} ${n}`)) throw new Error(`sentence vs table (${name} ${flipped}): ${end.says}`);
  }
  if (!/^After epoch 2: BN has learned \d+ of its 60 wrong labels by heart; BN \+ γ\/σ reg: \d+; no-BN: \d+\.$/.test(end.says) || during === end.says) throw new Error(`sentences: ${during} → ${end.says}`);
  for (const t of end.tpr) if (!end.attack.includes(`${t} of`)) throw new Error(`attack sentence without ${t}: ${end.attack}`);
  // Chart text as the reader sees it: the SVG's font size times its scale on the page.
  const smallest = () => page.evaluate(() => {
    let min = Infinity, where = '';
    for (const svg of document.querySelectorAll('.lenses .chart svg')) {
      const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      if (!(k > 0)) continue;
      for (const t of svg.querySelectorAll('text')) {
        const px = parseFloat(getComputedStyle(t).fontSize) * k;
        if (t.textContent.trim() && px < min) { min = px; where = `${svg.closest('.view').id}: "${t.textContent}"`; }
      }
    }
    return { min, where };
  });
  const wide = await smallest();
  await shot(page, 'three-models', { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  const phone = await smallest();
  await shot(page, 'phone-charts', { fullPage: true });
  if (!(wide.min >= 11 && phone.min >= 11)) throw new Error(`chart text: ${wide.min.toFixed(1)} px at 1280 (${wide.where}), ${phone.min.toFixed(1)} px at 390 (${phone.where})`);
  noErrors(page);
  await page.close();
  return `${idle.controls.length} controls before Run; smallest chart text ${wide.min.toFixed(1)} px at 1280, ${phone.min.toFixed(1)} px at 390; "${end.says}"`;
});
