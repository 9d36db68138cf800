// privsample — the default entry: what a page that privatizes a histogram needs (finite samplers, divergences,
// guarantees), sized for the web. Research parts are in 'privsample/research'. See privsample.d.ts.
import { captureCsprng, makeFiniteApi, plainObject } from './common.mjs';
import { instantiateClient } from './abi.mjs';
import { makeLedgerApi } from './ledger-storage.mjs';
import { compilePackaged, compileWasm } from './load-wasm.mjs';

let loading = null;

/**
 * Loads the WebAssembly module once; later calls return the same instance. options.wasm: where the .wasm comes
 * from — a URL, a Response, its bytes or a compiled WebAssembly.Module (e.g. one shared with a worker); by
 * default the package's build/wasm/privsample-client.wasm. options.ledgerWasm: the same for the ledger's module
 * (build/wasm/privsample-ledger.wasm), which is loaded only when the page first calls ps.ledger().
 */
export function init(options) {
  if (!loading) {
    loading = (async () => {
      const { wasm: source, ledgerWasm, ...rest } = plainObject(options, 'options');
      const unknown = Object.keys(rest);
      if (unknown.length) throw new RangeError(`option '${unknown[0]}' is not supported by init (supported: wasm, ledgerWasm)`);
      const privsampleRandom = captureCsprng();
      const compiled = await compileWasm(source, () =>
        compilePackaged(new URL('../../build/wasm/privsample-client.wasm', import.meta.url)),
      );
      const abi = await instantiateClient(compiled, privsampleRandom);
      const finite = makeFiniteApi(abi);
      let ledgerAbi = null;
      const loadLedgerAbi = () => {
        if (!ledgerAbi) {
          ledgerAbi = compileWasm(ledgerWasm, () =>
            compilePackaged(new URL('../../build/wasm/privsample-ledger.wasm', import.meta.url)),
          )
            .then((module) => instantiateClient(module, privsampleRandom))
            .then((ledgerAbi) => {
              if (typeof ledgerAbi.fn.ps_ledger_total !== 'function') {
                throw new TypeError('privsample: options.ledgerWasm is not the ledger module (build/wasm/privsample-ledger.wasm): it has no ps_ledger_total');
              }
              return ledgerAbi;
            });
          ledgerAbi.catch(() => {
            ledgerAbi = null; // let a later ps.ledger() try again
          });
        }
        return ledgerAbi;
      };
      return Object.freeze({ ...finite.api, ...makeLedgerApi(loadLedgerAbi, finite.handleOf), wasmModule: compiled });
    })().catch((error) => {
      loading = null; // let a later call try again
      throw error;
    });
  }
  return loading;
}
