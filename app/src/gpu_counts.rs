//! The benchmark's count of WebGPU work (`bench=1`): the page wraps the API's calls that launch a
//! kernel, submit to the queue and map a buffer for reading, and the benchmark reads the counts
//! before and after each WebGPU row. Only the page's own thread is counted (the benchmark's rows
//! train there); the workers' training is not.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function install_gpu_counts() {
  if (globalThis.__spotlightGpuCounts) return true;
  if (typeof GPUQueue === 'undefined') return false;
  const c = { dispatches: 0, submits: 0, readbacks: 0 };
  const wrap = (proto, name, key) => {
    const f = proto && proto[name];
    if (typeof f !== 'function') return;
    proto[name] = function (...args) { c[key] += 1; return f.apply(this, args); };
  };
  wrap(globalThis.GPUComputePassEncoder && GPUComputePassEncoder.prototype, 'dispatchWorkgroups', 'dispatches');
  wrap(globalThis.GPUComputePassEncoder && GPUComputePassEncoder.prototype, 'dispatchWorkgroupsIndirect', 'dispatches');
  wrap(GPUQueue.prototype, 'submit', 'submits');
  wrap(globalThis.GPUBuffer && GPUBuffer.prototype, 'mapAsync', 'readbacks');
  globalThis.__spotlightGpuCounts = c;
  return true;
}
export function gpu_counts() {
  const c = globalThis.__spotlightGpuCounts;
  return c ? [c.dispatches, c.submits, c.readbacks] : [];
}
"#)]
extern "C" {
    fn install_gpu_counts() -> bool;
    fn gpu_counts() -> js_sys::Array;
}

/// Starts counting (once; false where the browser has no WebGPU).
pub fn install() -> bool {
    install_gpu_counts()
}

/// The counts so far: dispatches, submits, read-backs (`None` when not counting).
pub fn counts() -> Option<[f64; 3]> {
    let a = gpu_counts();
    (a.length() == 3).then(|| [0, 1, 2].map(|i| a.get(i).as_f64().unwrap_or(f64::NAN)))
}
