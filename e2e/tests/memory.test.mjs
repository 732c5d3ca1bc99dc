// Memory: many runs in one page, on the CPU and on WebGPU (no worker, so no device, left behind).
import { useApp } from '../fixture.mjs';
import { onWebGpuInWorkers, waitDone, bannerText, pressRun, workers, workersGone, noErrors } from '../page.mjs';

const app = useApp();
const { open, test } = app;

test('twenty consecutive short runs in one page do not grow memory without bound', async () => {
  const page = await open('?backend=cpu&train_size=100&test_size=50&epochs=1&batch_size=20&shadow_models=0&probe_size=4&label_noise=0.2');
  const mem = [];
  for (let i = 1; i <= 20; i++) {
    await pressRun(page);
    await waitDone(page, 120000);
    mem.push(await page.evaluate(() => ({ wasm: window.spotlightMemoryBytes(), heap: performance.memory ? performance.memory.usedJSHeapSize : 0 })));
  }
  noErrors(page);
  await page.close();
  const mib = (b) => (b / 1048576).toFixed(1);
  const grow = mem[19].wasm - mem[4].wasm;
  // Wasm memory never shrinks, so a leak shows as steady growth; allow 32 MiB of allocator slack
  // between run 5 and run 20.
  if (grow > 32 * 1048576) throw new Error(`wasm memory grew ${mib(grow)} MiB from run 5 to run 20`);
  return `wasm memory ${mib(mem[0].wasm)} → ${mib(mem[4].wasm)} → ${mib(mem[19].wasm)} MiB (runs 1, 5, 20); JS heap ${mib(mem[0].heap)} → ${mib(mem[19].heap)} MiB`;
});

test('six consecutive short runs on WebGPU leave no worker, so no GPU device, behind; the page\'s memory stays flat', async () => {
  const page = await open('?backend=webgpu&train_size=40&test_size=20&epochs=1&batch_size=20&shadow_models=0&probe_size=2&label_noise=0.2');
  // Each run's workers open their own WebGPU devices; ending the run terminates them, and with
  // them their devices and GPU memory. Checked from outside (the browser's list of the page's
  // workers) and inside (the app's own count); the page itself opens no device. Six runs, not
  // twenty as on the CPU: on SwiftShader each new device compiles every kernel again (~20 s a run).
  const RUNS = 6;
  let spawned = 0;
  page.on('worker', () => spawned++);
  const mem = [];
  const t0 = Date.now();
  for (let i = 1; i <= RUNS; i++) {
    await pressRun(page);
    await waitDone(page, 300000);
    const banner = await bannerText(page);
    if (!onWebGpuInWorkers.test(banner)) throw new Error('did not run on WebGPU in workers: ' + banner);
    await workersGone(page);
    const left = { browser: page.workers().length, app: await workers(page) };
    if (left.browser || left.app) throw new Error(`run ${i}: workers left after the run: ${JSON.stringify(left)}`);
    mem.push(await page.evaluate(() => ({ wasm: window.spotlightMemoryBytes(), pageGpu: window.spotlightGpuMemory() })));
  }
  noErrors(page);
  await page.close();
  const mib = (b) => (b / 1048576).toFixed(1);
  if (mem.some((m) => m.pageGpu !== null)) throw new Error('the page opened a WebGPU device of its own');
  if (spawned !== 2 * RUNS) throw new Error(`${spawned} workers started in ${RUNS} runs, want 2 a run`);
  const grew = mem[RUNS - 1].wasm - mem[1].wasm;
  if (grew > 16 * 1048576) throw new Error(`the page's wasm memory grew ${mib(grew)} MiB from run 2 to run ${RUNS}`);
  return `${spawned} workers started, none left after any run; page wasm ${mib(mem[0].wasm)} → ${mib(mem[1].wasm)} → ${mib(mem[RUNS - 1].wasm)} MiB (runs 1, 2, ${RUNS}; ${((Date.now() - t0) / RUNS / 1000).toFixed(1)} s a run)`;
});
