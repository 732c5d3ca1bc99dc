// Links: a course link and its builder, the share link's round trip, hostile links, and run=1 (one run
// with clicks, a max-size link asking first, a frame of another origin).
import http from 'node:http';
import { useApp } from '../fixture.mjs';
import { tiny, waitTraining, waitDone, runsStarted, advanced, values, typeInto, setValue, shareLink, notices, noErrors, shot } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('a course link shows only what it names, opens the tour at its step; the builder writes such a link; bad parts are notices', async () => {
  const page = await open('?backend=cpu&label_noise=0.2&show=label_noise,accuracy&tour=2');
  const seen = () => page.evaluate(() => {
    const shown = (sel) => [...document.querySelectorAll(sel)].some((e) => e.offsetParent !== null);
    return {
      controls: [...document.querySelectorAll('.controls [name]')].filter((e) => e.offsetParent !== null && !e.closest('#course')).map((e) => e.name),
      views: ['accuracy', 'gradients', 'gamma', 'attack', 'gallery', 'paper', 'bench'].filter((v) => shown('#view-' + v)),
      canary: shown('#canary-pad'), teach: shown('.teach'), run: shown('#run'),
      tour: document.querySelector('#tour .tour-count')?.textContent, target: document.querySelector('.tour-target')?.id,
    };
  });
  const s = await seen();
  if (s.controls.join() !== 'label_noise' || s.views.join() !== 'accuracy' || s.canary || s.teach || !s.run) throw new Error('shown: ' + JSON.stringify(s));
  // The tour skips the steps at hidden parts: the noise slider and the memorization chart are left.
  if (s.tour !== 'Step 2 of 2' || s.target !== 'view-accuracy') throw new Error('tour: ' + JSON.stringify(s));
  await shot(page, 'course', { fullPage: false });
  await page.click('#tour-back');
  if (!/Step 1 of 2/.test(await page.textContent('#tour .tour-count'))) throw new Error('Back did not move the tour');
  await page.keyboard.press('Escape');
  if (await page.locator('#tour').count()) throw new Error('Escape did not close the tour');
  // The page's own link (its address, after a change of setting) keeps what the course hides,
  // not the tour's step.
  await setValue(page, 'label_noise', '0.3');
  const share = new URL(await page.evaluate(() => location.href));
  if (share.searchParams.get('label_noise') !== '0.3') throw new Error('the slider did not set the link: ' + share);
  if (share.searchParams.get('show') !== 'label_noise,accuracy' || share.searchParams.get('tour')) throw new Error('the page\'s link: ' + share);
  await page.close();
  // The builder: untick everything but the noise slider and the ROC, tour at step 3; the link it writes.
  const b = await open('?backend=cpu');
  await advanced(b);
  await b.click('#course summary');
  await b.click('#course-none');
  if (await b.evaluate(() => [...document.querySelectorAll('#course input[type=checkbox]')].some((c) => c.checked))) throw new Error('"Untick all" left a part ticked');
  await b.click('input[name=show-label_noise]');
  await b.click('input[name=show-attack]');
  await b.selectOption('select[name=course-tour]', '3');
  const built = await b.inputValue('#course-link');
  const q = new URL(built).searchParams;
  if (q.get('show') !== 'label_noise,attack' || q.get('tour') !== '3' || !q.get('epochs')) throw new Error('course link: ' + built);
  await b.click('#copy-course-link');
  await b.waitForFunction(() => /copied|Copy failed/.test(document.querySelector('#course .copied').textContent));
  const c = await open(built.slice(app.base.length));
  const cs = await c.evaluate(() => ({ views: ['accuracy', 'attack', 'gamma'].filter((v) => document.querySelector('#view-' + v)), step: document.querySelector('#tour .tour-count')?.textContent,
    builder: !!document.querySelector('#course'),
    controls: [...document.querySelectorAll('.controls [name]')].filter((e) => e.offsetParent !== null && !e.closest('#course')).map((e) => e.name) }));
  // Its tour: step 3 (the attack) is the second of the two steps the class sees; no course builder on a class page.
  if (cs.views.join() !== 'attack' || cs.step !== 'Step 2 of 2' || cs.controls.join() !== 'label_noise' || cs.builder) throw new Error('the built link opens: ' + JSON.stringify(cs));
  // A part that does not exist: a notice, the rest kept.
  const bad = await open('?backend=cpu&hide=teach,bogus&tour=9');
  const n = await notices(bad);
  if (!/hide: "bogus" is not valid/.test(n) || !/tour/.test(n)) throw new Error('notices: ' + n);
  if (await bad.evaluate(() => [...document.querySelectorAll('.teach')].some((e) => e.offsetParent !== null))) throw new Error('hide=teach left explanations');
  for (const p of [b, c, bad]) { noErrors(p); await p.close(); }
  return `shown: ${s.controls} + ${s.views}; built ${built.slice(built.indexOf('show='))}`;
});

test('share link round-trips: set controls, copy the link, open it, same controls', async () => {
  const page = await open('?backend=cpu');
  await advanced(page);
  const set = (name, value) => typeInto(page, name, value);
  await set('epochs', 7);
  await set('train_size', 1200);
  await set('seed', 42);
  await page.selectOption('select[name=dataset]', 'fashion');
  await page.selectOption('select[name=optimizer]', 'sgd');
  await page.click('input[name=regularizer]');
  const url = await shareLink(page);
  const read = (p) => values(p, ['epochs', 'train_size', 'seed', 'dataset', 'optimizer', 'regularizer']);
  const a = await read(page);
  const p2 = await open(url.slice(app.base.length));
  const b = await read(p2);
  await page.close(); await p2.close();
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  if (a.epochs !== '7' || a.dataset !== 'fashion' || !a.regularizer) throw new Error('controls did not take: ' + JSON.stringify(a));
  // Every setting in the link has its control (both come from the core's field table).
  const keys = [...new URL(url).searchParams.keys()].filter((k) => k !== 'backend');
  const p3 = await open(url.slice(app.base.length));
  const missing = await p3.evaluate((ks) => ks.filter((k) => !document.querySelector(`[name=${k}]`)), keys);
  if (keys.length < 19 || missing.length) throw new Error(`${keys.length} settings in the link; no control for ${missing.join(', ')}`);
  // A control clamps what is out of range, and says so.
  await typeInto(p3, 'epochs', '1000');
  const clamped = await p3.evaluate(() => ({ v: document.querySelector('input[name=epochs]').value, n: document.querySelector('#notices')?.textContent || '' }));
  await p3.close();
  if (clamped.v !== '200' || !/epochs: 1000 set to 200/.test(clamped.n)) throw new Error('clamping: ' + JSON.stringify(clamped));
  return url;
});

test('hostile links: a notice, no script, never blank, defaults kept', async () => {
  const bad = [
    'epochs=abc', 'epochs=-5', 'epochs=1e309', 'epochs=NaN', 'epochs=999999999', 'learning_rate=inf', 'learning_rate=0',
    'label_noise=2', 'label_noise=-0.1', 'dataset=cifar', 'compare=maybe', 'seed=-1', 'seed=1.5', 'batch_size=0',
    'train_size=1e12', 'unknown=1', 'epochs=3&epochs=4', '%zz=%', '<script>window.__xss=1</script>=1',
    'dataset=<img src=x onerror="window.__xss=1">', 'optimizer="><svg onload=window.__xss=1>', 'epochs=' + 'x'.repeat(5000),
    'a=' + 'b'.repeat(10000), '&&&&epochs=zz&&', 'epochs', '=5', 'shadow_models=1000', 'probe_size=-3', 'ood_source=mars',
    'regularizer=1', 'backend=tpu', 'test_size=0', 'label_noise=0.5&ood_fraction=0.5', 'batch_size=2048&train_size=100',
  ];
  let n = 0;
  const page = await app.ctx.newPage();
  const errs = [];
  page.on('pageerror', (e) => errs.push(e.message));
  page.on('dialog', (d) => { errs.push('dialog ' + d.message()); d.dismiss(); });
  for (const q of bad) {
    await page.goto(app.base + '?' + q);
    await page.waitForSelector('h1', { timeout: 30000 });
    const s = await page.evaluate(() => ({
      notices: document.querySelector('#notices')?.textContent || '',
      xss: window.__xss === 1,
      epochs: document.querySelector('input[name=epochs]')?.value,
      h1: document.querySelector('h1')?.textContent,
    }));
    if (s.xss) throw new Error(`${q}: injected script ran`);
    if (s.h1 !== 'Spotlight') throw new Error(`${q}: page blank`);
    if (!s.notices) throw new Error(`${q}: no notice`);
    // The default: 8 epochs (6 on the CPU, for a link that names no valid setting), or what the link clamped to.
    if (!/^(8|6|200|4|1)$/.test(s.epochs)) throw new Error(`${q}: epochs = ${s.epochs}`);
    if (n === 0) await shot(page, 'bad-link', { fullPage: false });
    n++;
  }
  await page.close();
  if (errs.length) throw new Error(errs.join('\n'));
  return `${n} bad links`;
});

test('a triple click, and run=1 plus a click, each start exactly one run', async () => {
  const clicks = (p) => p.evaluate(() => { for (let i = 0; i < 3; i++) document.querySelector('#run').click(); });
  const a = await open(`?backend=cpu&${tiny}`);
  await clicks(a);
  await waitDone(a);
  const ra = await runsStarted(a);
  await a.close();
  // run=1 starts once the backend is known; clicks before and after it add no run.
  const page = await app.ctx.newPage();
  await page.goto(app.base + `?backend=cpu&run=1&${tiny}`);
  await page.waitForSelector('#run');
  await clicks(page);
  await waitTraining(page, 120000);
  await clicks(page);
  await waitDone(page);
  await page.waitForTimeout(500);
  const rb = await runsStarted(page);
  if (/run=1/.test(page.url())) throw new Error('run=1 is still in the address: ' + page.url());
  await page.close();
  if (ra !== '1' || rb !== '1') throw new Error(`runs started: triple click ${ra}, run=1 and clicks ${rb}`);
  return 'one run each';
});

test('a run=1 link over the budget asks first, showing its cost, and does not start', async () => {
  const page = await open('?backend=cpu&run=1&epochs=200&train_size=30000&shadow_models=64');
  await page.waitForSelector('#autorun-ask', { timeout: 30000 });
  const ask = await page.textContent('#autorun-ask');
  if (!/200 epochs × 30000 samples × 130 models = 780,000,000 sample passes/.test(ask)) throw new Error('ask: ' + ask);
  await page.waitForTimeout(1500);
  const state = await page.evaluate(() => ({ text: document.querySelector('#progress-text').textContent, runs: document.querySelector('section.progress').dataset.runs, url: location.href }));
  if (state.text !== 'Ready. Press Run.' || state.runs !== '0') throw new Error('it started: ' + JSON.stringify(state));
  if (/run=1/.test(state.url) || !/epochs=200/.test(state.url)) throw new Error('address: ' + state.url);
  await shot(page, 'autorun-ask', { fullPage: false });
  await page.click('#autorun-dismiss');
  if (await page.$('#autorun-ask')) throw new Error('"Not now" left the question up');
  noErrors(page);
  await page.close();
  return ask.replace(/\s+/g, ' ').slice(0, 160);
});

test('run=1 inside a frame of another origin does not start by itself', async () => {
  const inFrame = app.base + `?backend=cpu&run=1&${tiny}`;
  const other = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><title>another site</title><iframe src="${inFrame}" width="1200" height="800"></iframe>`);
  });
  await new Promise((r) => other.listen(0, '127.0.0.1', r));
  const page = await app.ctx.newPage();
  try {
    await page.goto(`http://localhost:${other.address().port}/`);
    const frame = page.frameLocator('iframe');
    await frame.locator('#autorun-ask').waitFor({ timeout: 60000 });
    const ask = await frame.locator('#autorun-ask').textContent();
    if (!/another site/.test(ask)) throw new Error('ask: ' + ask);
    await page.waitForTimeout(1500);
    const runs = await frame.locator('section.progress').getAttribute('data-runs');
    const text = await frame.locator('#progress-text').textContent();
    if (runs !== '0' || text !== 'Ready. Press Run.') throw new Error(`it started: ${runs} runs, "${text}"`);
    return ask.replace(/\s+/g, ' ').slice(0, 120);
  } finally {
    await page.close();
    other.close();
  }
});
