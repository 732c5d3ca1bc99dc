// The pictures that the README and docs show, refreshed from the tests' screenshots: copies each
// one named below from screenshots/ (the tests' output, ignored by git) to ../docs/img/.
//   node shots.mjs [--run] [--dist DIR]
// --run first runs the tests that take them (node run.mjs --only …), so that the copies are fresh.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const from = path.join(here, 'screenshots');
const to = path.join(here, '..', 'docs', 'img');

// Each picture shown in the docs, with the test that takes it (a part of its name, for --only)
// and where it is shown.
const pictures = [
  { file: 'first-screen.png', test: 'start-up', shownIn: 'README.md' },
];

const argv = process.argv.slice(2);
if (argv.includes('--run')) {
  const dist = argv.includes('--dist') ? ['--dist', argv[argv.indexOf('--dist') + 1]] : [];
  for (const only of new Set(pictures.map((p) => p.test))) {
    const r = spawnSync(process.execPath, [path.join(here, 'run.mjs'), ...dist, '--only', only], { stdio: 'inherit' });
    if (r.status !== 0) { console.error(`shots: the test "${only}" failed; no picture copied`); process.exit(1); }
  }
}
fs.mkdirSync(to, { recursive: true });
let missing = 0;
for (const { file, test, shownIn } of pictures) {
  const src = path.join(from, file);
  if (!fs.existsSync(src)) { console.error(`shots: no ${path.relative(process.cwd(), src)} (run the test "${test}", or pass --run)`); missing++; continue; }
  fs.copyFileSync(src, path.join(to, file));
  console.log(`shots: ${path.relative(process.cwd(), path.join(to, file))} (shown in ${shownIn}) from ${path.relative(process.cwd(), src)}`);
}
process.exit(missing ? 1 : 0);
