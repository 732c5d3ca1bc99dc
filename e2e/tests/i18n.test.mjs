// Languages: lang=es and lang=pt translate every text; the browser's language; the menu switches live.
import { useApp } from '../fixture.mjs';
import { tiny, setValue, noErrors, shot } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('lang=es and lang=pt: every text of the page translated (none left in English), the browser\'s language by default, the menu switches live', async () => {
  // Every text of the page, by where it is: the element's own text nodes and its text attributes
  // (title, aria-label, placeholder, an <option>'s text), the charts' SVG text included.
  const collect = (page) => page.evaluate(() => {
    const key = (e) => { const p = []; for (; e && e !== document.body; e = e.parentElement) p.unshift(e.tagName + ':' + [...e.parentElement.children].indexOf(e)); return p.join('/'); };
    const out = {};
    for (const e of document.body.querySelectorAll('*')) {
      if (e.closest('script, style, code, #lang')) continue;
      const own = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(' ').replace(/\s+/g, ' ').trim();
      if (own) out[key(e)] = own;
      for (const a of ['title', 'aria-label', 'placeholder', 'alt']) if (e.getAttribute(a)) out[key(e) + '@' + a] = e.getAttribute(a).trim();
    }
    out.title = document.title;
    return out;
  });
  // A text left in English: the same as in English and with a word that is not a name.
  const names = new Set(['MNIST', 'Fashion', 'Adam', 'SGD', 'BN', 'LiRA', 'AUC', 'TPR', 'FPR', 'ROC', 'LeNet', 'Spotlight', 'WebGPU', 'CPU', 'GPU',
    'OOD', 'CSV', 'JSON', 'SVG', 'SwiftShader', 'burn', 'flex', 'wgpu', 'Doan', 'Alouani', 'Gu', 'log', 'conv', 'fc', 'max', 'BatchNorm', 'GroupNorm', 'LayerNorm']);
  const english = (t) => (t.match(/[A-Za-z]{3,}/g) || []).some((w) => !names.has(w));
  const leftovers = (en, other) => Object.entries(other).filter(([k, t]) => en[k] === t && english(t)).map(([k, t]) => `${k.replace(/.*\//, '')}: ${t.slice(0, 80)}`);
  // With a few bad settings, so that the notices are compared too.
  const bad = 'epochs=abc&x=1&label_noise=0.9&tour=9';
  const en = await open(`?backend=cpu&lang=en&${bad}`);
  const enTexts = await collect(en);
  const found = {};
  for (const lang of ['es', 'pt']) {
    const page = await open(`?backend=cpu&lang=${lang}&${bad}`);
    const t = await collect(page);
    const left = leftovers(enTexts, t);
    const html = await page.evaluate(() => document.documentElement.lang);
    if (html !== lang) throw new Error(`<html lang="${html}">, want ${lang}`);
    if (left.length) throw new Error(`lang=${lang} leaves ${left.length} texts in English:\n  ${left.slice(0, 30).join('\n  ')}`);
    found[lang] = Object.keys(t).length;
    // A real number shown and typed with the language's decimal comma (not the browser's point).
    const lr = await page.evaluate(() => document.querySelector('input[name=learning_rate]').value);
    if (!/^0,0+\d+$/.test(lr)) throw new Error(`lang=${lang}: the learning rate shows as ${lr}, want a decimal comma`);
    await setValue(page, 'learning_rate', '0,002');
    await page.waitForTimeout(200);
    const typed = new URL(await page.evaluate(() => location.href)).searchParams.get('learning_rate');
    const shownNow = await page.evaluate(() => document.querySelector('input[name=learning_rate]').value);
    if (typed !== '0.002' || shownNow !== '0,002') throw new Error(`lang=${lang}: typing 0,002 gave learning_rate=${typed} in the link, ${shownNow} in the box`);
    noErrors(page);
    if (lang === 'es') await shot(page, 'spanish', { fullPage: false });
    await page.close();
  }
  // A finished run in Spanish (progress, banner, charts, tables, the canary and attack panels), then
  // the menu switches the same page to English: every text that changed is compared.
  const run = await open(`?backend=cpu&run=1&lang=es&${tiny}`);
  // (The attack table's rows: only this run's attack fills it; before the run the lenses show a report measured earlier.)
  await run.waitForFunction(() => !document.querySelector('#run')?.disabled && document.querySelectorAll('#attack-table tr').length > 1, null, { timeout: 300000 });
  // Every fold open (the paper's charts are drawn when their fold opens).
  await run.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  await run.waitForTimeout(2500);
  const es = await collect(run);
  await run.selectOption('#lang', 'en');
  await run.waitForTimeout(2500);
  const back = await collect(run);
  const left = leftovers(back, es);
  if (left.length) throw new Error(`after a run, lang=es leaves ${left.length} texts in English:\n  ${left.slice(0, 30).join('\n  ')}`);
  if (new URL(await run.evaluate(() => location.href)).searchParams.get('lang') !== 'en') throw new Error('the menu did not set lang= in the link');
  noErrors(run);
  await run.close();
  // No lang= in the link: the browser's first language the page has (here Portuguese).
  const br = await open('?backend=cpu', () => Object.defineProperty(Navigator.prototype, 'languages', { get: () => ['de-DE', 'pt-BR', 'en'] }));
  const brLang = await br.evaluate(() => [document.documentElement.lang, document.querySelector('#lang').value]);
  if (brLang.join() !== 'pt,pt') throw new Error('the browser\'s pt-BR gave ' + brLang);
  await br.close();
  await en.close();
  return `es: ${found.es} texts, pt: ${found.pt} texts, none left in English; a run in es: ${Object.keys(es).length} texts; pt-BR browser → pt`;
});
