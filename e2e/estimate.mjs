// How good the banner's estimate of a run's time is (a measurement, not a test): opens
// `?backend=cpu&QUERY` against ../dist, waits for the rehearsal and the banner's estimate (its
// unrounded `data-estimate-s`), presses Run, and prints the estimate beside the run's time, `runs`
// times in one page (after the first run the estimate is that run's own pace).
//   node estimate.mjs [QUERY] [--dist DIR] [--runs N]
//   e.g. node estimate.mjs                 (the CPU default)
//        node estimate.mjs 'epochs=12'     (twice its epochs)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, open, startServer } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const dist = path.resolve(opt('--dist', path.join(here, '..', 'dist')));
const runs = Number(opt('--runs', '1'));
const query = argv.find((a, i) => !a.startsWith('--') && !(i > 0 && ['--dist', '--runs'].includes(argv[i - 1]))) || '';

const server = await startServer(dist);
const browser = await launch();
let code = 0;
try {
  const page = await open(browser.ctx, server.base, `?backend=cpu${query ? '&' + query : ''}`);
  await page.waitForFunction(() => performance.getEntriesByName('spotlight-rehearsed').length > 0, null, { timeout: 60000 });
  for (let k = 1; k <= runs; k++) {
    await page.waitForSelector('#backend-banner[data-estimate-s]', { timeout: 10000 });
    const estimate = +(await page.getAttribute('#backend-banner', 'data-estimate-s'));
    const said = (await page.textContent('#backend-banner')).replace(/.*— /, '').replace(/ here.*/, ' here');
    const t0 = Date.now();
    await page.click('#run');
    await page.waitForFunction(() => /^Done in/.test(document.querySelector('#progress-status')?.textContent || ''), null, { timeout: 3600000, polling: 500 });
    const took = (Date.now() - t0) / 1000;
    const status = await page.textContent('#progress-status');
    console.log(`run ${k} (${k === 1 ? "the rehearsal's pace" : "the last run's pace"}): estimated ${estimate.toFixed(1)} s ("${said}"), took ${took.toFixed(1)} s from the click (${status.replace(/\..*/, '')}); estimate ÷ time ${(estimate / took).toFixed(2)}`);
  }
  if (page.errors.length) throw new Error(page.errors.join('\n'));
} catch (e) {
  console.error(e.message);
  code = 1;
} finally {
  await browser.close();
  server.close();
}
process.exit(code);
