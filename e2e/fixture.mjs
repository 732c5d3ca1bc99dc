// The fixture of every test file (tests/*.test.mjs, run by node:test): the static server for the
// dist/ folder and one Chromium, started once per file (before/after hooks), and `test`, which runs
// a test body and then, whether it passed or failed, closes every page it opened and resets the
// server's switches, so that a failing test leaks nothing into the next ones (the memory tests
// among them). The folder served: $SPOTLIGHT_E2E_DIST (run.mjs sets it from --dist), else ../dist.
import { after, before, test as nodeTest } from 'node:test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, open as openIn, startServer } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The dist/ folder the tests serve. */
export const dist = path.resolve(process.env.SPOTLIGHT_E2E_DIST || path.join(here, '..', 'dist'));

// The server's switches, all off: what each test starts from.
const switchesOff = { slowData: false, failData: false, gzipEncoding: false, data: null, failWorker: false, noWorkerGpu: false };

/** Registers the file's hooks and returns its app: `{ dist, base, serve, outside, ctx, csp, open, test }`.
 *  `base`, `serve`, `outside` (from lib.mjs's startServer), `ctx` and `csp` (from launch) are set
 *  by the `before` hook; `open(query, init)` opens the app in a new page of `ctx` (lib.mjs's open);
 *  `test(name, fn)` is node:test's test around `fn`, whose returned string is the test's detail
 *  (a diagnostic: the runner prints it after the name). */
export function useApp() {
  const app = { dist };
  let closeServer = null, closeBrowser = null;

  before(async () => {
    const server = await startServer(dist);
    closeServer = server.close;
    Object.assign(app, { base: server.base, serve: server.serve, outside: server.outside });
    const browser = await launch();
    closeBrowser = browser.close;
    Object.assign(app, { ctx: browser.ctx, csp: browser.csp });
  });

  after(async () => {
    await closeBrowser?.();
    closeServer?.();
  });

  app.open = (query = '', init = null) => openIn(app.ctx, app.base, query, init);

  app.test = (name, fn, options = {}) => nodeTest(name, options, async (t) => {
    const had = new Set(app.ctx.pages());
    const cspBefore = app.csp.length;
    let detail;
    try {
      detail = await fn(t);
    } finally {
      // Every page the test opened, closed (its workers, and their devices, with it), pass or fail.
      await Promise.all(app.ctx.pages().filter((p) => !had.has(p)).map(closeQuietly));
      Object.assign(app.serve, switchesOff);
    }
    // The page's Content-Security-Policy is strict; anything it blocks is a bug.
    if (app.csp.length > cspBefore) throw new Error('Content-Security-Policy violations:\n' + app.csp.slice(cspBefore).join('\n'));
    if (detail) t.diagnostic(String(detail));
  });

  return app;
}

/** Closes a page without its `beforeunload` (a run left going would ask), giving up after 10 s. */
async function closeQuietly(page) {
  if (page.isClosed()) return;
  await Promise.race([page.close({ runBeforeUnload: false }).catch(() => {}), new Promise((r) => setTimeout(r, 10000).unref())]);
}
