// Spotlight's real-browser tests: Debian's Chromium, driven by playwright-core, against the release
// build in ../dist served on 127.0.0.1. The tests live in tests/*.test.mjs, one file per theme, on
// Node's own test runner (node:test); this runs them one file at a time and one test at a time
// (2 cores, timing-sensitive runs), prints "e2e: N passed, M failed" and exits non-zero on any failure.
//   node run.mjs [--dist DIR] [--only SUBSTRING] [THEME …]
// THEME: a file of tests/ without its ending (startup, links, …); --only: the tests whose name
// contains SUBSTRING (as typed, not a pattern).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opts = {};
const themes = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--dist' || argv[i] === '--only') opts[argv[i]] = argv[++i];
  else if (argv[i] === '-h' || argv[i] === '--help') {
    console.log('node run.mjs [--dist DIR] [--only SUBSTRING] [THEME …]\nthemes: ' + files().map(theme).join(' '));
    process.exit(0);
  } else themes.push(argv[i]);
}
const dist = path.resolve(opts['--dist'] ?? path.join(here, '..', 'dist'));
const only = opts['--only'] ?? null;

// The test files (node --test runs them in the order of their names, each in a process of its own).
function files() {
  return fs.readdirSync(path.join(here, 'tests')).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => path.join(here, 'tests', f));
}
function theme(file) { return path.basename(file, '.test.mjs'); }

/** The names of a file's tests, as written in it (`app.test('NAME', …)` or `test("NAME", …)`). */
function names(file) {
  const src = fs.readFileSync(file, 'utf8');
  return [...src.matchAll(/\btest\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g)].map((m) => m[2].replace(/\\(.)/g, '$1'));
}

let chosen = files();
for (const t of themes) if (!chosen.some((f) => theme(f) === t)) {
  console.error(`no tests/${t}.test.mjs; the themes: ${chosen.map(theme).join(' ')}`);
  process.exit(2);
}
if (themes.length) chosen = chosen.filter((f) => themes.includes(theme(f)));
// With --only, only the files that hold such a test (each file starts its own server and browser).
if (only !== null) chosen = chosen.filter((f) => names(f).some((n) => n.includes(only)));
if (!chosen.length) {
  console.log(`e2e: 0 passed, 0 failed — no test's name contains "${only}"`);
  process.exit(1);
}

const args = ['--test', '--test-concurrency=1', `--test-reporter=${pathToFileURL(path.join(here, 'reporter.mjs')).href}`];
if (only !== null) args.push(`--test-name-pattern=${only.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`);
const child = spawn(process.execPath, [...args, ...chosen], {
  cwd: here,
  stdio: 'inherit',
  env: { ...process.env, SPOTLIGHT_E2E_DIST: dist },
});
child.on('exit', (code, signal) => process.exit(signal ? 1 : code ?? 1));
