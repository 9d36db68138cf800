// The types of require('privsample') (bindings/js/require.cjs: Node >= 20.19 returns the ES module's namespace),
// for CommonJS files (.cts, or .ts in a package without "type": "module") compiled with module node16/nodenext:
// the ES module's declarations, read as an import, so they are written once (privsample.d.ts).
export type * from './privsample.js' with { 'resolution-mode': 'import' };
export declare const init: typeof import('./privsample.js', { with: { 'resolution-mode': 'import' } }).init;
