// A training worker for Spotlight (app/src/pool.rs starts it, app/src/worker.rs is what it runs).
// Its first message is [URL of the page's wasm-bindgen JS, the WebAssembly.Module the page
// compiled]: it loads that same module (no second download or compile), whose `main` sees a worker
// and answers every later message itself.
self.onmessage = async (e) => {
  self.onmessage = null;
  const [glue, module] = e.data;
  try {
    const bindings = await import(glue);
    await bindings.default({ module_or_path: module });
  } catch (err) {
    // worker.rs's `FromWorker::Failed(Trouble::Escaped(text))`, as the page reads it.
    self.postMessage(JSON.stringify({ Failed: { Escaped: `the app's module did not load in the worker: ${err}` } }));
  }
};
