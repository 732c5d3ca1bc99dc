// How the page reads and is used: dark mode from the system setting, a 390-px phone, the keyboard only.
import { useApp } from '../fixture.mjs';
import { tiny, waitDone, shareLink, noErrors, openPaperCharts, shot } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('dark mode follows the system setting: the page, the lenses and the charts turn dark, and back', async () => {
  const page = await open();
  const look = () => page.evaluate(() => {
    // Relative luminance of a computed rgb() colour, 0 (black) to 1 (white).
    const lum = (c) => { const [r, g, b] = c.match(/[\d.]+/g).map(Number); return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; };
    const cs = (sel) => getComputedStyle(document.querySelector(sel));
    return { page: lum(cs('html').backgroundColor), text: lum(cs('body').color), lens: lum(cs('#view-accuracy').backgroundColor),
      chart: cs('#view-paper .chart svg').filter };
  });
  await openPaperCharts(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await look();
  if (!(dark.page < 0.15 && dark.lens < 0.2 && dark.text > 0.8)) throw new Error('not dark: ' + JSON.stringify(dark));
  if (!/invert/.test(dark.chart)) throw new Error('the charts stay white: ' + JSON.stringify(dark));
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'dark', { fullPage: false });
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await look();
  if (!(light.page > 0.9 && light.lens > 0.9 && light.text < 0.2 && light.chart === 'none')) throw new Error('not light again: ' + JSON.stringify(light));
  noErrors(page);
  await page.close();
  return `dark: page ${dark.page.toFixed(2)}, lens ${dark.lens.toFixed(2)}, text ${dark.text.toFixed(2)}; light: page ${light.page.toFixed(2)}`;
});

test('a 390-px phone: one column, settings above the lenses, nothing wider than the screen', async () => {
  const page = await open('?backend=cpu');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  const m = await page.evaluate(() => {
    const top = (sel) => document.querySelector(sel).getBoundingClientRect().top;
    // Inside a box that scrolls sideways (a wide table) is fine; the page itself must not.
    const scrolls = (e) => { for (let p = e.parentElement; p; p = p.parentElement) if (/auto|scroll/.test(getComputedStyle(p).overflowX) && p.clientWidth <= innerWidth) return true; return false; };
    const wide = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && e.offsetParent !== null && !e.closest('.chart') && !scrolls(e))
      .slice(0, 5).map((e) => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
    return { scroll: document.documentElement.scrollWidth, side: top('.side'), lenses: top('.lenses'), wide };
  });
  if (m.scroll > 390 || m.wide.length) throw new Error('wider than the phone: ' + JSON.stringify(m));
  if (!(m.side < m.lenses)) throw new Error('the settings are not above the lenses: ' + JSON.stringify(m));
  // Opened on the phone: the settings start folded, so the lenses begin on the first screen; a tap
  // on "Settings" unfolds them.
  await page.reload();
  await page.waitForSelector('#backend-banner');
  const folded = await page.evaluate(() => ({ open: document.querySelector('details.settings').open,
    lenses: document.querySelector('.lenses').getBoundingClientRect().top, scroll: document.documentElement.scrollWidth }));
  if (folded.open || !(folded.lenses < 844) || folded.scroll > 390) throw new Error('opened on a phone: ' + JSON.stringify(folded));
  await shot(page, 'phone', { fullPage: false });
  await page.click('details.settings summary');
  if (!(await page.isVisible('input[name=epochs]'))) throw new Error('Settings did not unfold');
  noErrors(page);
  await page.close();
  return `page ${m.scroll} px wide; settings at ${Math.round(m.side)} px, lenses at ${Math.round(m.lenses)} px; opened on the phone, settings folded, lenses at ${Math.round(folded.lenses)} px`;
});

test('keyboard only: Tab reaches Run with a visible focus, Enter starts one run, the status is announced; the pad draws by keys', async () => {
  const page = await open(`?backend=cpu&${tiny}`);
  let tabs = 0;
  const active = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.getAttribute('name') || document.activeElement?.tagName);
  while ((await active()) !== 'run' && tabs < 80) { await page.keyboard.press('Tab'); tabs++; }
  if ((await active()) !== 'run') throw new Error(`Run not reached in ${tabs} presses of Tab`);
  const ring = await page.evaluate(() => { const cs = getComputedStyle(document.activeElement); return { style: cs.outlineStyle, width: parseFloat(cs.outlineWidth) }; });
  if (ring.style === 'none' || !(ring.width >= 2)) throw new Error('no visible focus on Run: ' + JSON.stringify(ring));
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /Training/.test(document.querySelector('#progress-status')?.textContent || ''), null, { timeout: 120000 });
  const bar = await page.evaluate(() => { const b = document.querySelector('[role=progressbar]'); return { now: b?.getAttribute('aria-valuenow'), label: b?.getAttribute('aria-label') }; });
  if (!bar.label || bar.now === null) throw new Error('progress bar without its aria values: ' + JSON.stringify(bar));
  await waitDone(page);
  const status = await page.evaluate(() => ({ text: document.querySelector('#progress-status').textContent, live: document.querySelector('#progress-status').getAttribute('aria-live'), runs: document.querySelector('.progress').dataset.runs }));
  if (!/^Done in \d+ s/.test(status.text) || status.live !== 'polite' || status.runs !== '1') throw new Error('after the run: ' + JSON.stringify(status));
  // The canary's pad by keyboard: focus it, pen down, five steps right and three down, pen up.
  await page.locator('#canary-pad').scrollIntoViewIfNeeded();
  await page.focus('#canary-pad');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Space');
  for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowRight');
  for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  const drawn = new URL(await shareLink(page)).searchParams.get('canary');
  if (drawn?.length !== 131) throw new Error('the keyboard drew no canary: ' + drawn);
  noErrors(page);
  await page.close();
  return `Run reached in ${tabs} presses of Tab (outline ${ring.style} ${ring.width}px); "${status.text.slice(0, 40)}"; a canary drawn by keys`;
});
