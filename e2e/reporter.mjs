// A node:test reporter (run.mjs passes it with --test-reporter) that prints the browser tests as
// they always read: a heading per file, then "ok   NAME (T s) — DETAIL" or "FAIL NAME (T s)" with
// the error indented, and at the end "e2e: N passed, M failed". Tests that --test-name-pattern
// left out are neither printed nor counted.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const indent = (text) => String(text).split('\n').join('\n     ');
const secs = (data) => `${((data.details?.duration_ms || 0) / 1000).toFixed(1)} s`;

/** The failure's own message: the test body's error (node:test wraps it), or the hook's. */
function why(error) {
  if (!error) return 'failed';
  const cause = error.cause;
  const own = (e) => (e && typeof e === 'object' ? e.message || String(e) : String(e));
  if (error.failureType === 'testCodeFailure' && cause) return own(cause);
  return cause && typeof cause === 'object' ? `${error.message}: ${own(cause)}` : own(error);
}

export default async function* reporter(source) {
  let passed = 0, failed = 0, pending = null;
  const flush = function* () {
    if (pending) yield pending.line + '\n';
    pending = null;
  };
  for await (const { type, data } of source) {
    // A test's detail (its returned string, sent as a diagnostic) goes on its "ok" line.
    if (type === 'test:diagnostic' && pending && data.file === pending.file && data.line === pending.at) {
      pending.line += ' — ' + data.message;
      continue;
    }
    yield* flush();
    switch (type) {
      case 'test:dequeue':
        // A file begins (node --test reports each file as a test named by its path).
        if (data.file && data.name === data.file) yield `\n# ${path.relative(here, data.file)}\n`;
        break;
      case 'test:pass':
        if (data.skip !== undefined || data.todo !== undefined) break;
        if (data.file && data.name === data.file) break;
        passed++;
        pending = { line: `ok   ${data.name} (${secs(data)})`, file: data.file, at: data.line };
        break;
      case 'test:fail':
        failed++;
        if (data.file && data.name === data.file) {
          // The file's process itself failed (it crashed, or did not load): its stderr is above.
          yield `FAIL ${path.relative(here, data.file)} (${secs(data)})\n     the test file itself failed: ${indent(why(data.details?.error))}\n`;
        } else {
          yield `FAIL ${data.name} (${secs(data)})\n     ${indent(why(data.details?.error))}\n`;
        }
        break;
      case 'test:diagnostic':
        // The run's own summary (tests, pass, fail, …) has no file: the last line says it.
        if (data.file) yield `     # ${data.message}\n`;
        break;
      case 'test:stdout':
      case 'test:stderr':
        yield data.message;
        break;
      default:
    }
  }
  yield* flush();
  yield `e2e: ${passed} passed, ${failed} failed\n`;
}
