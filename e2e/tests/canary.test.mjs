// The canary ("be the outlier"): drawn with the mouse, carried by the link, run, its panel; and
// hostile canaries in links.
import { useApp } from '../fixture.mjs';
import { tiny, waitDone, pressRun, shareLink, notices, noErrors, shot } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('be the outlier: draw a canary with the mouse, plant it, run the tiny comparison, see its panel; the link keeps it', async () => {
  const page = await open(`?backend=cpu&${tiny}`);
  // The pad sits under the settings in the side column: scrolled into view first.
  await page.locator('#canary-pad').scrollIntoViewIfNeeded();
  const box = await page.locator('#canary-pad').boundingBox();
  // A "7": a bar, then a diagonal, in two strokes of mouse events.
  const at = (x, y) => [box.x + (x / 28) * box.width, box.y + (y / 28) * box.height];
  for (const stroke of [[[6, 6], [22, 6]], [[21, 7], [11, 24]]]) {
    await page.mouse.move(...at(...stroke[0]));
    await page.mouse.down();
    for (let k = 1; k <= 8; k++) {
      const t = k / 8;
      await page.mouse.move(...at(stroke[0][0] + (stroke[1][0] - stroke[0][0]) * t, stroke[0][1] + (stroke[1][1] - stroke[0][1]) * t));
    }
    await page.mouse.up();
  }
  await page.selectOption('select[name=canary_label]', '3');
  // The pad's inked pixels, as its canvas shows them.
  const inkOn = (p) => p.evaluate(() => {
    const d = document.querySelector('#canary-pad').getContext('2d').getImageData(0, 0, 28, 28).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 128) n++;
    return n;
  });
  const inked = await inkOn(page);
  if (inked < 30) throw new Error(`the pad shows ${inked} inked pixels after two strokes`);
  const link = await shareLink(page);
  const q = new URL(link).searchParams;
  if (q.get('canary')?.length !== 131 || q.get('canary_label') !== '3') throw new Error('the link does not carry the drawing: ' + link);
  if (!/Planted in the next run/.test(await page.textContent('#canary-status'))) throw new Error('status: ' + await page.textContent('#canary-status'));
  // Undo takes the last stroke back; the link follows.
  await page.click('#canary-undo');
  const undone = await inkOn(page);
  if (!(undone > 0 && undone < inked)) throw new Error(`undo: ${inked} → ${undone} inked pixels`);
  const afterUndo = new URL(await shareLink(page)).searchParams.get('canary');
  if (!afterUndo || afterUndo === q.get('canary')) throw new Error('the link did not follow the undo');
  // The first link, opened in a new page: the same drawing and label on the pad.
  const p2 = await open(link.slice(app.base.length));
  const same = await p2.evaluate(() => ({ label: document.querySelector('select[name=canary_label]').value,
    link: document.querySelector('#share-link').value }));
  const inked2 = await inkOn(p2);
  if (same.label !== '3' || new URL(same.link).searchParams.get('canary') !== q.get('canary') || inked2 !== inked) {
    throw new Error(`round trip: ${JSON.stringify(same)}, ${inked2} vs ${inked} pixels`);
  }
  // Run it (the drawing of the link: the page we opened with it).
  await pressRun(p2);
  await waitDone(p2);
  await p2.waitForSelector('#view-canary');
  const panel = await p2.evaluate(() => ({
    head: [...document.querySelectorAll('#canary-table th')].map((t) => t.textContent),
    rows: document.querySelectorAll('#canary-table tr').length - 1,
    verdict: document.querySelector('#canary-verdict').textContent,
    said: [...document.querySelectorAll('#canary-said li')].map((li) => li.textContent),
    picture: !!document.querySelector('#view-canary canvas.digit'),
  }));
  // Each model's verdict in words: its prediction, and the attacker's call at 1 % false positives.
  const said = /^(BN|no-BN): learned your label — (yes|no)\. The attacker: (likely trained on|can't tell) — it looks more like a member than (only )?\d+ of 100 outsiders \(ranked \d+ of 600\)\.$/;
  if (panel.said.length !== 2 || !panel.said.every((l) => said.test(l))) throw new Error('verdicts: ' + JSON.stringify(panel.said));
  if (!panel.head.includes('BN predicts') || !panel.head.includes('no-BN predicts')) throw new Error('panel columns: ' + panel.head.join(' | '));
  if (panel.rows !== 3) throw new Error(`panel: ${panel.rows} epochs, want 0, 1, 2`);
  if (!/attacker's confidence that your drawing was in the training data: BN \d+% \(ranked \d+ of 600 candidates.*no-BN \d+%/.test(panel.verdict)) throw new Error('verdict: ' + panel.verdict);
  if (!panel.picture) throw new Error('no picture of the drawing in the panel');
  // The drawing in each model's gallery, where it ranks among the members: one of the most exposed
  // (tagged "your drawing") or after them with its place.
  const shown = await p2.evaluate(() => [...document.querySelectorAll('#view-gallery .gallery')].map((g) => ({
    inTop: [...g.querySelectorAll(':scope > .sample.canary')].length,
    ranked: g.querySelector('.ranked-drawing .rank')?.textContent || null,
    drawn: !!g.querySelector('.ranked-drawing canvas.digit'),
  })));
  if (shown.length !== 2 || !shown.every((g) => (g.inTop === 1 && !g.ranked) || (g.inTop === 0 && g.drawn && /^No\. \d+ of \d+ members$/.test(g.ranked)))) {
    throw new Error('the drawing in the galleries: ' + JSON.stringify(shown));
  }
  await shot(p2.locator('#view-gallery'), 'canary-gallery');
  await shot(p2.locator('.canary-row'), 'canary');
  await shot(page.locator('.canary-pad'), 'canary-pad');
  noErrors(page, p2);
  await page.close(); await p2.close();
  return `${inked} pixels drawn; ${panel.verdict.slice(0, 160)}…`;
});

test('a hostile canary in a link: a notice, no canary, the page runs', async () => {
  const notes = [];
  for (const bad of ['%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'A'.repeat(131), '!'.repeat(131), 'g'.repeat(200)]) {
    const page = await open(`?backend=cpu&canary=${bad}&canary_label=5`);
    const n = await notices(page);
    const status = await page.textContent('#canary-status');
    const link = await shareLink(page);
    if (!/canary/.test(n)) throw new Error(`canary=${bad.slice(0, 20)}…: no notice (${n})`);
    if (!/Nothing drawn/.test(status) || /canary=/.test(link)) throw new Error(`canary=${bad.slice(0, 20)}…: a canary was kept (${status}; ${link})`);
    noErrors(page);
    notes.push(n.replace(/\s+/g, ' ').slice(0, 90));
    await page.close();
  }
  return notes.join(' | ');
});
