// Where the page's thread spends its time: opens dist/ with QUERY, presses Run under Chrome's sampling
// profiler and prints the functions with the most self and inclusive time (wasm functions by name).
// SECONDS stops it early; without, at the run's end. A diagnosis tool, not a test:
// `node profile.mjs '' 6` (the first six seconds of the default run).
import { launch, open, startServer } from './lib.mjs';
const [query] = process.argv.slice(2);
const server = await startServer(process.env.DIST || new URL('../dist', import.meta.url).pathname);
const b = await launch();
const page = await open(b.ctx, server.base, query || '');
await page.setViewportSize({ width: 1280, height: 800 });
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
await cdp.send('Profiler.start');
await page.click('#run');
const secs = +process.argv[3] || 0;
if (secs) await new Promise((r) => setTimeout(r, secs * 1000)); else await page.waitForFunction(() => /done in|Error|Cancelled|^done/.test(document.querySelector('#progress-text')?.textContent || ''), null, { timeout: 600000 });
await new Promise((r) => setTimeout(r, 1000));
const { profile } = await cdp.send('Profiler.stop');
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
const self = new Map(), incl = new Map();
const dts = profile.timeDeltas; 
profile.samples.forEach((id, k) => {
  const dt = (dts[k + 1] ?? 0) / 1000;
  const n = byId.get(id); const name = (f) => `${f.callFrame.functionName || '(anon)'} ${f.callFrame.url.split('/').pop()}`;
  self.set(name(n), (self.get(name(n)) || 0) + dt);
  const seen = new Set(); let cur = id;
  while (cur) { const m = byId.get(cur); const nm = name(m); if (!seen.has(nm)) { seen.add(nm); incl.set(nm, (incl.get(nm) || 0) + dt); } cur = parent.get(cur); }
});
const top = (m) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => `${v.toFixed(0).padStart(7)} ms  ${k}`).join('\n');
console.log('SELF\n' + top(self)); console.log('INCLUSIVE\n' + top(incl));
await b.close(); server.close();
