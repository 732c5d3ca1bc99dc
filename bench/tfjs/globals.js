// Loaded before tf.min.js: its bundled regenerator runtime assigns the global `regeneratorRuntime`
// and, when that fails (strict mode, no such global), falls back to Function(), which this page's
// CSP (no 'unsafe-eval') blocks. Declaring the global here lets the plain assignment succeed.
var regeneratorRuntime; // eslint-disable-line no-var, no-unused-vars
