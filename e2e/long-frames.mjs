// Where the page's thread is held during a run: opens dist/ with QUERY (e.g. '?run=1'), waits for the
// run's end and lists the N longest Long Animation Frames, each with its scripts, forced layout and
// what the progress line said then. A diagnosis tool, not a test: `node long-frames.mjs '?run=1' 15`
// (`--dist DIR` for another build than ../dist; `--click-after MS` presses Run MS ms after the page
// opened, as a user would, instead of a `run=1` link).
import path from 'node:path';
import { launch, open, startServer } from './lib.mjs';
const args = process.argv.slice(2);
const distAt = args.indexOf('--dist');
if (distAt >= 0 && !args[distAt + 1]) throw new Error('--dist needs a folder');
const dist = distAt >= 0 ? path.resolve(args.splice(distAt, 2)[1]) : new URL('../dist', import.meta.url).pathname;
const clickAt = args.indexOf('--click-after');
const clickAfter = clickAt >= 0 ? +args.splice(clickAt, 2)[1] : null;
if (clickAt >= 0 && !(clickAfter >= 0)) throw new Error('--click-after needs milliseconds');
const [query, count] = args;
const server = await startServer(dist);
const b = await launch();
const init = () => {
  window.__loaf = []; window.__prog = []; window.__tasks = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__tasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__loaf.push({ start: e.startTime, dur: e.duration, block: e.blockingDuration,
    scripts: (e.scripts || []).map((s) => ({ inv: s.invoker, type: s.invokerType, dur: s.duration, src: (s.sourceURL || '').split('/').pop(), fn: s.sourceFunctionName, forced: s.forcedStyleAndLayoutDuration })),
    render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0, style: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0 }); }).observe({ type: 'long-animation-frame', buffered: true });
  setInterval(() => { const t = document.querySelector('#progress-text')?.textContent; if (t) window.__prog.push([performance.now(), t.slice(0, 70)]); }, 100);
};
const page = await open(b.ctx, server.base, query, init);
await page.setViewportSize({ width: 1280, height: 800 });
let pressed = 0;
if (clickAfter !== null) {
  await page.waitForFunction(() => !document.querySelector('#run')?.disabled, null, { timeout: 120000 });
  const wait = clickAfter - (await page.evaluate(() => performance.now()));
  await new Promise((r) => setTimeout(r, Math.max(0, wait)));
  pressed = await page.evaluate(() => performance.now());
  await page.click('#run');
}
await page.waitForFunction(() => /done in|Error|Cancelled/.test(document.querySelector('#progress-text')?.textContent || ''), null, { timeout: 600000 });
await new Promise((r) => setTimeout(r, 1000));
const { loaf, prog, tasks, marks } = await page.evaluate(() => ({ loaf: window.__loaf, prog: window.__prog, tasks: window.__tasks,
  marks: performance.getEntriesByType('mark').filter((m) => m.name.startsWith('spotlight-')).map((m) => `${m.name} ${m.startTime.toFixed(0)} ms`) }));
console.log(`marks: ${marks.join(', ')}`);
const at = (t) => { let p = ''; for (const [x, s] of prog) { if (x <= t) p = s; else break; } return p; };
if (clickAfter !== null) console.log(`Run pressed at ${pressed.toFixed(0)} ms; frames before it: ${loaf.filter((e) => e.start < pressed).map((e) => e.dur.toFixed(0)).join(', ') || 'none'}`);
loaf.sort((a, b) => b.dur - a.dur);
for (const e of loaf.slice(0, +count || 15)) console.log(`${e.start.toFixed(0)} ms: ${e.dur.toFixed(0)} ms (render ${e.render.toFixed(0)}, style+layout ${e.style.toFixed(0)}) [${at(e.start)}] ${e.scripts.map((s) => `${s.type}/${s.inv} ${s.dur.toFixed(0)}ms ${s.src}:${s.fn} forced ${s.forced?.toFixed(0)}`).join(' | ')}`);
console.log(`${loaf.length} long animation frames; over 50 ms: ${loaf.filter((e) => e.dur > 50).length}`);
const after = tasks.filter(([t]) => t >= pressed);
console.log(`long tasks (> 50 ms)${clickAfter !== null ? ' after Run' : ''}: ${after.length}${after.length ? `; ${after.map(([t, d]) => `${d.toFixed(0)} ms at ${t.toFixed(0)} [${at(t)}]`).join(', ')}` : ''}`);
console.log(page.errors.join('\n'));
await b.close(); server.close();
