// The page object of the browser tests: the selectors and read-outs that many tests repeat (the
// progress line, the Run button, the backend banner, the "Advanced" fold, controls by name, the
// numbers tables, the views after a run), so that a change of the page's markup is mended here once.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the tests' screenshots go: test output, overwritten on every run, ignored by git (the few
 *  that the README and docs show are copied to ../docs/img/ by `node shots.mjs`). */
export const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** "The tiny comparison": 300 members, 2 epochs, batch 50, 2 shadow models, 2 probes a group,
 *  20 % flipped, seed 3 (the tests are about the page, not the measure). */
export const tiny = 'train_size=300&test_size=200&epochs=2&batch_size=50&shadow_models=2&probe_size=2&label_noise=0.2&seed=3';

/** The banner of a run that trained on WebGPU in Web Workers (a fall-back to the CPU fails it). */
export const onWebGpuInWorkers = /^Training on WebGPU.* — training in the background \(Web Workers\), the page stays free$/;

// ---- the progress line (#progress-text), the status (#progress-status) and the banner ----

/** The progress line's text. */
export const progressText = (page) => page.textContent('#progress-text');

/** Waits until the progress line matches `re` (a RegExp; `opts`: Playwright's `polling`). */
export function waitProgress(page, re, timeout, opts = {}) {
  return page.waitForFunction(([src, flags]) => new RegExp(src, flags).test(document.querySelector('#progress-text')?.textContent || ''),
    [re.source, re.flags], { timeout, ...opts });
}

/** Waits until the models train ("… samples/s" in the progress line). */
export const waitTraining = (page, timeout) => waitProgress(page, /samples\/s/, timeout);

/** Waits for the run's end and fails unless it finished ("done in"), not in an error or a cancel. */
export async function waitDone(page, timeout = 600000) {
  await waitProgress(page, /done in|Error|Cancelled/, timeout);
  const t = await progressText(page);
  if (!/done in/.test(t)) throw new Error('run did not finish: ' + t);
}

/** The `aria-live` status under the progress bar ("Training", "Done in N s"). */
export const statusText = (page) => page.textContent('#progress-status');

/** The backend banner's text. */
export const bannerText = (page) => page.textContent('#backend-banner');

/** How many runs the page started (`data-runs` of the progress section). */
export const runsStarted = (page) => page.getAttribute('section.progress', 'data-runs');

// ---- buttons ----

export const pressRun = (page) => page.click('#run');
export const pressCancel = (page) => page.click('#cancel');
export const pressRetry = (page) => page.click('#retry');

// ---- settings: the "Advanced" fold and the controls by name ----

/** Unfolds the settings' "Advanced" fold (presets, the other settings, the share and course links). */
export const advanced = (page) => page.evaluate(() => document.querySelectorAll('details.advanced').forEach((d) => { d.open = true; }));

/** The control named `name` (`input`, `select`, … with that `name`), as a CSS selector. */
export const control = (name) => `[name=${name}]`;

/** The values of the named controls, as an object (a checkbox gives `checked`). */
export const values = (page, names) => page.evaluate((ns) => Object.fromEntries(ns.map((n) => {
  const e = document.querySelector(`[name=${n}]`);
  return [n, e.type === 'checkbox' ? e.checked : e.value];
})), names);

/** Types `value` into the input named `name` (Playwright's fill), then sends its `change`. */
export async function typeInto(page, name, value) {
  await page.fill(`input[name=${name}]`, String(value));
  await page.dispatchEvent(`input[name=${name}]`, 'change');
}

/** Sets the input named `name` to `value` from the page's side (as a slider's drag ends) with a `change`. */
export const setValue = (page, name, value) => page.evaluate(([n, v]) => {
  const r = document.querySelector(`input[name=${n}]`);
  r.value = v;
  r.dispatchEvent(new Event('change', { bubbles: true }));
}, [name, String(value)]);

/** The share link (the field under the settings). */
export const shareLink = (page) => page.inputValue('#share-link');

/** The notices (a bad link's parts, a clamped setting); '' when none. */
export const notices = (page) => page.evaluate(() => document.querySelector('#notices')?.textContent || '');

// ---- what the page reports of itself ----

/** The app's count of its live training workers. */
export const workers = (page) => page.evaluate(() => window.spotlightWorkers());

/** Waits (up to 5 s) for the browser's list of the page's workers to empty. */
export async function workersGone(page) {
  for (let k = 0; k < 50 && page.workers().length; k++) await new Promise((r) => setTimeout(r, 100));
}

/** The page's long tasks (> 50 ms): { count, maxMs } since the performance mark `mark`. */
export const longTasks = (page, mark) => page.evaluate((m) => window.__longTasks(m), mark);

/** Fails with the page's console errors, uncaught errors and dialogs, if any (`open` collects them). */
export function noErrors(...pages) {
  const errors = pages.flatMap((p) => p.errors);
  if (errors.length) throw new Error(errors.join('\n'));
}

/** Opens the paper panel's fold and waits for its charts. */
export async function openPaperCharts(page) {
  await page.click('#view-paper details summary');
  await page.waitForFunction(() => document.querySelectorAll('#view-paper .paper-chart svg').length > 0, null, { timeout: 20000 });
}

/** A screenshot of a page or a locator, to `screenshots/NAME.png`. */
export function shot(target, name, opts = {}) {
  fs.mkdirSync(shots, { recursive: true });
  return target.screenshot({ path: path.join(shots, name + '.png'), ...opts });
}

// ---- after a run: the numbers tables and the views ----

/** The epoch table's and the attack table's rows (cells' text, header row left out). */
export async function numbers(page) {
  return page.evaluate(() => {
    const rows = (sel) => [...document.querySelectorAll(sel + ' tr')].slice(1).map((tr) => [...tr.children].map((td) => td.textContent));
    return { epochs: rows('#epoch-table'), attack: rows('#attack-table') };
  });
}

/** Every view drawn after a run of the comparison, each lens chart with its text alternative. */
export async function checkViews(page) {
  const v = await page.evaluate(() => ({
    acc: document.querySelectorAll('#view-accuracy .chart svg polyline').length,
    grads: document.querySelectorAll('#view-gradients .chart svg rect').length,
    gamma: document.querySelectorAll('#view-gamma .chart svg polyline').length,
    roc: document.querySelectorAll('#view-attack .chart svg polyline').length,
    auc: [...document.querySelectorAll('#attack-table .auc')].map((e) => e.textContent),
    gallery: document.querySelectorAll('#view-gallery figure').length,
    fill: document.querySelector('#progress-fill').style.width,
    // What more shadow models buy (none with 2 shadows), and TPR at 0.1 % FPR where 0.1 % of the
    // non-members is a sample at least.
    budget: document.querySelector('#budget-chart svg desc')?.textContent || '',
    nonMembers: [...document.querySelectorAll('#attack-table tr')].slice(1).map((tr) => tr.lastElementChild?.textContent || ''),
    // Each chart's text alternative: role="img", a title, and a description with its numbers.
    alt: [...document.querySelectorAll('.lenses .chart svg')].map((svg) => ({
      role: svg.getAttribute('role'), title: svg.querySelector('title')?.textContent || '', desc: svg.querySelector('desc')?.textContent || '' })),
  }));
  const fail = [];
  if (v.acc < 4) fail.push(`accuracy curves: ${v.acc} lines`);
  if (v.grads < 10) fail.push(`gradient histograms: ${v.grads} bars`);
  if (v.gamma < 2) fail.push(`γ/σ curves: ${v.gamma} lines`);
  if (v.roc < 3) fail.push(`ROC: ${v.roc} lines`);
  if (v.auc.length !== 2 || v.auc.some((a) => !(+a > 0 && +a <= 1))) fail.push(`AUCs: ${v.auc}`);
  if (v.gallery < 16) fail.push(`gallery: ${v.gallery} samples`);
  if (parseFloat(v.fill) !== 100) fail.push(`progress bar at ${v.fill}`);
  // With 2 shadow models a model there is no curve of what more of them buy (the start-up test
  // checks it on the preview's 4).
  if (v.budget !== '') fail.push(`a shadow-count chart with 2 shadows: ${v.budget.slice(0, 200)}`);
  if (v.nonMembers.length !== 2 || v.nonMembers.some((c) => c !== 'too few candidates' && !/^\d+(\.\d)?%$/.test(c))) fail.push(`TPR at 0.1 % FPR: ${v.nonMembers}`);
  delete v.budget;
  delete v.nonMembers;
  if (v.alt.length < 4) fail.push(`${v.alt.length} charts in the lenses`);
  for (const a of v.alt) if (a.role !== 'img' || !a.title || !/BN[^.]*\d/.test(a.desc)) fail.push('a chart without its text alternative: ' + JSON.stringify(a).slice(0, 200));
  delete v.alt;
  if (fail.length) throw new Error('views: ' + fail.join('; '));
  return v;
}
