// The types of require('privsample/research') (bindings/js/research-require.cjs: Node >= 20.19 returns the ES
// module's namespace), for CommonJS files compiled with module node16/nodenext: the ES module's declarations, read
// as an import, so they are written once (research.d.ts).
export type * from './research.js' with { 'resolution-mode': 'import' };
export declare const init: typeof import('./research.js', { with: { 'resolution-mode': 'import' } }).init;
