// privsample — the public ES-module API (see privsample.d.ts and shared/DESIGN.md "JS API contract").
// Glue only: checks JS types and shapes, converts to typed arrays, calls the WebAssembly module.
// Every value check and all mathematics happen in the C++ core; its errors arrive here as RangeError.
import createPrivsampleModule from '../../build/wasm/privsample-wasm.mjs';

const VERSION = '0.1.0';
const MECHANISMS = Object.freeze(['minimax', 'linear']);
const OPTIONS_OF = Object.freeze({ minimax: ['epsilon'], linear: ['epsilon'] });

let loading = null;

/** Loads the WebAssembly module once; later calls return the same instance. */
export function init() {
  if (!loading) {
    loading = createPrivsampleModule().then(
      (wasm) => makeApi(wasm),
      (error) => {
        loading = null; // let a later call try again
        throw error;
      },
    );
  }
  return loading;
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

const NUMERIC_VIEWS = [Float64Array, Float32Array, Uint32Array, Int32Array, Uint16Array, Int16Array, Uint8Array, Int8Array, Uint8ClampedArray];

function histogram(value, name) {
  if (value instanceof Float64Array) return value;
  if (NUMERIC_VIEWS.some((View) => value instanceof View)) return Float64Array.from(value);
  if (!Array.isArray(value)) {
    throw new TypeError(`${name} must be an array of numbers or a numeric typed array, got ${describe(value)}`);
  }
  const out = new Float64Array(value.length);
  for (let i = 0; i < value.length; i += 1) {
    if (typeof value[i] !== 'number') {
      throw new TypeError(`${name}[${i}] is ${describe(value[i])}: entries must be numbers`);
    }
    out[i] = value[i];
  }
  return out;
}

function number(value, name) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  return value;
}

function text(value, name) {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${describe(value)}`);
  return value;
}

function plainObject(value, name) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${name} must be an object, got ${describe(value)}`);
  }
  return value;
}

function makeApi(wasm) {
  function sampler(mechanism, options) {
    text(mechanism, 'mechanism');
    if (!MECHANISMS.includes(mechanism)) {
      throw new RangeError(`mechanism = '${mechanism}': unknown mechanism; use ${MECHANISMS.map((m) => `'${m}'`).join(' or ')}`);
    }
    const opts = plainObject(options, 'options');
    for (const key of Object.keys(opts)) {
      if (!OPTIONS_OF[mechanism].includes(key)) {
        throw new RangeError(`option '${key}' is not supported by '${mechanism}' (supported: ${OPTIONS_OF[mechanism].join(', ')})`);
      }
    }
    if (!('epsilon' in opts)) throw new TypeError(`options.epsilon is required for '${mechanism}'`);
    const epsilon = number(opts.epsilon, 'options.epsilon');
    wasm.checkMechanism(mechanism, epsilon);

    return Object.freeze({
      mechanism,
      guarantee: Object.freeze(wasm.guarantee(mechanism, epsilon)),
      distribution: (hist) => wasm.distribution(mechanism, epsilon, histogram(hist, 'hist')),
      normaliser: (hist) => wasm.normaliser(mechanism, epsilon, histogram(hist, 'hist')),
      sample: (hist) => wasm.sample(mechanism, epsilon, histogram(hist, 'hist')),
      sampleMany(hist, n, sampleOptions) {
        const h = histogram(hist, 'hist');
        number(n, 'n');
        const { seed, ...rest } = plainObject(sampleOptions, 'options');
        const unknown = Object.keys(rest);
        if (unknown.length) throw new RangeError(`option '${unknown[0]}' is not supported by sampleMany (supported: seed)`);
        if (seed !== undefined) number(seed, 'options.seed');
        return wasm.sampleMany(mechanism, epsilon, h, n, seed);
      },
      worstCaseRisk: (f, k) => wasm.worstCaseRisk(mechanism, epsilon, text(f, 'f'), number(k, 'k')),
    });
  }

  function divergence(f, p, q) {
    text(f, 'f');
    const pp = histogram(p, 'p');
    const qq = histogram(q, 'q');
    if (pp.length !== qq.length) {
      throw new TypeError(`p has ${pp.length} entries but q has ${qq.length}: they must have the same length`);
    }
    return wasm.divergence(f, pp, qq);
  }

  return Object.freeze({
    version: VERSION,
    maxCategories: wasm.maxCategories(),
    mechanisms: MECHANISMS,
    sampler,
    divergence,
  });
}
