// Spotlight's LeNet-5 ± BN (crates/core/src/model.rs, bench/torch_lenet.py) trained with TF.js, timed
// like crates/core/src/bench.rs `train_throughput`: WARMUP steps, a read-back, the timed steps (a
// setTimeout(0) between steps, as the app yields), a read-back. One step = forward + softmax
// cross-entropy + backward + Adam (lr 1e-3). Random inputs of MNIST's shape and random labels.
// Results: window.__tfjsResults and #results[data-json]; `done: true` once every backend has run.
'use strict';

const WARMUP = 3;
const q = new URLSearchParams(location.search);
const backends = (q.get('backends') || 'wasm,cpu,webgpu,webgl').split(',').filter(Boolean);
const batch = Number(q.get('batch') || 128);
const steps = Number(q.get('steps') || 10);
const bns = { 1: [true], 0: [false] }[q.get('bn')] || [true, false];
const WASM_DIR = 'node_modules/@tensorflow/tfjs-backend-wasm/dist/';

const out = { tfjs: tf.version.tfjs, batch, steps, warmup: WARMUP, cross_origin_isolated: self.crossOriginIsolated, results: [], done: false };
window.__tfjsResults = out;

// The project's LeNet-5, channels-last: BN after conv1, conv2, fc1, fc2 (PyTorch's ε and momentum).
function lenet(bn) {
  const m = tf.sequential();
  const norm = () => { if (bn) m.add(tf.layers.batchNormalization({ epsilon: 1e-5, momentum: 0.9 })); };
  m.add(tf.layers.conv2d({ inputShape: [28, 28, 1], filters: 6, kernelSize: 5, padding: 'same' })); norm();
  m.add(tf.layers.reLU()); m.add(tf.layers.maxPooling2d({ poolSize: 2 }));
  m.add(tf.layers.conv2d({ filters: 16, kernelSize: 5, padding: 'valid' })); norm();
  m.add(tf.layers.reLU()); m.add(tf.layers.maxPooling2d({ poolSize: 2 }));
  m.add(tf.layers.flatten()); // 5×5×16 = 400
  m.add(tf.layers.dense({ units: 120 })); norm(); m.add(tf.layers.reLU());
  m.add(tf.layers.dense({ units: 84 })); norm(); m.add(tf.layers.reLU());
  m.add(tf.layers.dense({ units: 10 }));
  return m;
}

const pause = () => new Promise((r) => setTimeout(r, 0));
const now = () => performance.now() / 1000;

async function throughput(backend, bn) {
  const model = lenet(bn);
  const opt = tf.train.adam(1e-3);
  const x = tf.randomNormal([batch, 28, 28, 1]);
  const y = tf.tidy(() => tf.oneHot(tf.randomUniform([batch], 0, 10, 'int32'), 10));
  const last = model.layers[model.layers.length - 1].getWeights()[0]; // updated by every step's Adam
  let loss = null;
  const step = () => {
    if (loss) loss.dispose();
    loss = tf.tidy(() => opt.minimize(() => tf.losses.softmaxCrossEntropy(y, model.apply(x, { training: true })), true));
  };
  // The read-back: the loss and a weight the step's update wrote, so every queued kernel has run.
  const sync = () => Promise.all([loss.data(), last.data()]);
  try {
    for (let i = 0; i < WARMUP; i++) { step(); await pause(); }
    await sync();
    const tensorsBefore = tf.memory().numTensors;
    const start = now();
    for (let i = 0; i < steps; i++) { step(); await pause(); }
    const [l] = await sync();
    const seconds = Math.max(now() - start, 1e-9);
    const r = { backend, batch_norm: bn, model: bn ? 'BN' : 'no-BN', batch_size: batch, steps, seconds, samples_per_s: batch * steps / seconds,
      loss: l[0], tensors_before: tensorsBefore, tensors_after: tf.memory().numTensors };
    if (!Number.isFinite(r.loss)) r.error = `non-finite loss ${r.loss}`;
    if (r.tensors_after !== r.tensors_before) r.error = `tensors leaked: ${r.tensors_before} → ${r.tensors_after}`;
    return r;
  } finally {
    if (loss) loss.dispose();
    tf.dispose([x, y]);
    opt.dispose();
    model.dispose();
  }
}

// TF.js's wasm backend has no Conv2DBackpropFilter kernel (4.22.0: "Kernel 'Conv2DBackpropFilter'
// not registered for backend 'wasm'"), so a conv net cannot train on it as shipped. It does have
// Conv3DBackpropFilterV2; a 2-D filter gradient is the 3-D one at depth 1 (the same memory layout),
// so this registers that bridge: TF.js's own native kernel, no JavaScript arithmetic. NHWC and
// 'same'/'valid' padding only (what tf.layers.conv2d uses here).
const WASM_CONV2D_FILTER_GRAD = 'Conv2DBackpropFilter via the wasm Conv3DBackpropFilterV2 kernel (depth 1)';
function bridgeWasmConv2DBackpropFilter() {
  if (tf.getKernel('Conv2DBackpropFilter', 'wasm')) return false;
  const conv3d = tf.getKernel('Conv3DBackpropFilterV2', 'wasm');
  if (!conv3d) throw new Error('the wasm backend has neither Conv2DBackpropFilter nor Conv3DBackpropFilterV2');
  tf.registerKernel({
    kernelName: 'Conv2DBackpropFilter',
    backendName: 'wasm',
    kernelFunc: ({ inputs: { x, dy }, backend, attrs }) => {
      const { strides, pad, dataFormat, dimRoundingMode, filterShape } = attrs;
      if ((dataFormat && dataFormat !== 'NHWC') || typeof pad !== 'string' || dimRoundingMode != null) {
        throw new Error(`Conv2DBackpropFilter bridge: unsupported ${JSON.stringify({ dataFormat, pad, dimRoundingMode })}`);
      }
      const [sh, sw] = Array.isArray(strides) ? strides : [strides, strides];
      const as5d = (t) => ({ dataId: t.dataId, dtype: t.dtype, shape: [t.shape[0], 1, ...t.shape.slice(1)] });
      const dw = conv3d.kernelFunc({ inputs: { x: as5d(x), dy: as5d(dy) }, backend, attrs: { strides: [1, sh, sw], pad, filterShape: [1, ...filterShape] } });
      return { dataId: dw.dataId, dtype: dw.dtype, shape: filterShape };
    },
  });
  return true;
}

let bridged = false;

// The bridge checked against TF.js's own `cpu` kernel: the filter gradient of a 5×5 convolution
// ('same' and 'valid', 3 → 4 channels) on fixed inputs, on both backends. Returns the largest
// difference relative to the largest gradient entry; the caller is on `wasm` before and after.
async function bridgeError() {
  const xs = Float32Array.from({ length: 2 * 9 * 9 * 3 }, (_, i) => Math.sin(i * 0.37));
  const fs = Float32Array.from({ length: 5 * 5 * 3 * 4 }, (_, i) => Math.cos(i * 0.11));
  const grads = () => ['same', 'valid'].map((pad) => tf.tidy(() => {
    const x = tf.tensor4d(xs, [2, 9, 9, 3]);
    return tf.grad((f) => tf.conv2d(x, f, 1, pad).square().sum())(tf.tensor4d(fs, [5, 5, 3, 4])).dataSync();
  }));
  const got = grads();
  await tf.setBackend('cpu');
  const want = grads();
  await tf.setBackend('wasm');
  let diff = 0, scale = 0;
  want.forEach((w, k) => w.forEach((v, i) => { diff = Math.max(diff, Math.abs(v - got[k][i])); scale = Math.max(scale, Math.abs(v)); }));
  return diff / scale;
}

// Switches to `name`; returns what is known about it, or throws the reason it could not start.
async function use(name) {
  const warned = [];
  const warn = console.warn;
  console.warn = (...a) => { warned.push(a.map(String).join(' ')); warn(...a); };
  try {
    if (name === 'wasm') { tf.wasm.setWasmPaths(WASM_DIR); bridged = bridgeWasmConv2DBackpropFilter() || bridged; }
    if (!tf.findBackendFactory(name)) throw new Error(`not registered in this browser (${name === 'webgpu' ? 'no navigator.gpu' : 'unknown backend'})`);
    if (!(await tf.setBackend(name))) throw new Error(warned.join('; ') || 'failed to initialise');
    await tf.ready();
  } finally {
    console.warn = warn;
  }
  const info = {};
  if (name === 'wasm') {
    if (bridged) {
      info.bridge_error = await bridgeError();
      info.note = `${WASM_CONV2D_FILTER_GRAD}, max relative difference from TF.js cpu ${info.bridge_error.toExponential(1)}`;
      if (!(info.bridge_error < 1e-4)) throw new Error(`the Conv2DBackpropFilter bridge disagrees with TF.js cpu (${info.bridge_error})`);
    }
    const files = performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.wasm'));
    info.wasm_file = files.map((f) => f.split('/').pop()).join(',');
    info.wasm_binary = /threaded-simd/.test(info.wasm_file) ? 'threaded-simd' : /simd/.test(info.wasm_file) ? 'simd' : 'plain';
    info.threads = tf.wasm.getThreadsCount();
  }
  if (name === 'webgpu') {
    const a = tf.backend().adapterInfo || {};
    info.device = [a.vendor, a.architecture].filter(Boolean).join(' ') || 'unknown adapter';
  }
  if (name === 'webgl') {
    const gl = tf.backend().gpgpu.gl;
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    info.device = gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER);
  }
  return info;
}

function show() {
  const el = document.getElementById('results');
  el.dataset.json = JSON.stringify(out);
  el.tBodies[0].innerHTML = '';
  for (const r of out.results) {
    const notes = r.available === false ? `unavailable: ${r.reason}` : [r.wasm_binary && `${r.wasm_binary} (${r.wasm_file})`, r.device, r.note, r.error].filter(Boolean).join('; ');
    const row = el.tBodies[0].insertRow();
    for (const c of [r.backend, r.model || '', r.batch_size || '', r.steps || '', r.seconds ? r.seconds.toFixed(2) : '', r.samples_per_s ? r.samples_per_s.toFixed(0) : '', notes]) {
      row.insertCell().textContent = c;
    }
  }
}

async function main() {
  const status = document.getElementById('status');
  for (const name of backends) {
    let info;
    try {
      status.textContent = `Starting ${name}…`;
      info = await use(name);
    } catch (e) {
      out.results.push({ backend: name, available: false, reason: String(e.message || e) });
      show();
      continue;
    }
    for (const bn of bns) {
      status.textContent = `Timing ${bn ? 'BN' : 'no-BN'} on ${name}…`;
      try {
        out.results.push({ ...(await throughput(name, bn)), ...info });
      } catch (e) {
        out.results.push({ backend: name, batch_norm: bn, model: bn ? 'BN' : 'no-BN', ...info, error: String(e.message || e) });
      }
      show();
    }
  }
  out.done = true;
  show();
  status.textContent = `Done (TF.js ${out.tfjs}).`;
}

main().catch((e) => { out.error = String(e.stack || e); out.done = true; show(); document.getElementById('status').textContent = `Failed: ${out.error}`; });
