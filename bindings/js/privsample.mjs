// privsample — the public ES-module API (see privsample.d.ts and shared/DESIGN.md "JS API contract").
// Glue only: checks JS types and shapes, converts to typed arrays, calls the WebAssembly module.
// Every value check and all mathematics happen in the C++ core; its errors arrive here as RangeError.
import createPrivsampleModule from '../../build/wasm/privsample-wasm.mjs';

const VERSION = '0.1.0';
const NUMBER_OPTIONS = ['epsilon', 'delta', 'mu', 'gamma', 'records'];
const ARRAY_OPTIONS = ['prior', 'reference'];

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

// Checks option types (numbers, arrays of numbers) and rejects unknown keys; which options a mechanism
// needs, and their values, are checked by the core.
function mechanismOptions(options) {
  const given = plainObject(options, 'options');
  const out = {};
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (NUMBER_OPTIONS.includes(key)) out[key] = number(value, `options.${key}`);
    else if (ARRAY_OPTIONS.includes(key)) out[key] = histogram(value, `options.${key}`);
    else throw new RangeError(`option '${key}' is unknown (known options: ${[...NUMBER_OPTIONS, ...ARRAY_OPTIONS].join(', ')})`);
  }
  return out;
}

function publicOptions(options) {
  const out = {};
  for (const [key, value] of Object.entries(options)) out[key] = ArrayBuffer.isView(value) ? Object.freeze(Array.from(value)) : value;
  return Object.freeze(out);
}

function makeApi(wasm) {
  const mechanisms = Object.freeze(wasm.mechanismNames());
  const samplerOptions = new WeakMap();

  function sampler(mechanism, options) {
    text(mechanism, 'mechanism');
    if (!mechanisms.includes(mechanism)) {
      throw new RangeError(`mechanism = '${mechanism}': unknown mechanism; use one of ${mechanisms.map((m) => `'${m}'`).join(', ')}`);
    }
    const opts = mechanismOptions(options);
    wasm.checkMechanism(mechanism, opts);

    const made = Object.freeze({
      mechanism,
      options: publicOptions(opts),
      guarantee: Object.freeze(wasm.guarantee(mechanism, opts)),
      distribution: (hist) => wasm.distribution(mechanism, opts, histogram(hist, 'hist')),
      normaliser: (hist) => wasm.normaliser(mechanism, opts, histogram(hist, 'hist')),
      sample: (hist) => wasm.sample(mechanism, opts, histogram(hist, 'hist')),
      sampleMany(hist, n, sampleOptions) {
        const h = histogram(hist, 'hist');
        number(n, 'n');
        const { seed, ...rest } = plainObject(sampleOptions, 'options');
        const unknown = Object.keys(rest);
        if (unknown.length) throw new RangeError(`option '${unknown[0]}' is not supported by sampleMany (supported: seed)`);
        if (seed !== undefined) number(seed, 'options.seed');
        return wasm.sampleMany(mechanism, opts, h, n, seed);
      },
      worstCaseRisk: (f, k) => wasm.worstCaseRisk(mechanism, opts, text(f, 'f'), number(k, 'k')),
    });
    samplerOptions.set(made, opts);
    return made;
  }

  // The accountant needs the sampler's validated options; a WeakMap keeps them off the public object.
  function accountant(s, options) {
    const opts = samplerOptions.get(s);
    if (!opts) throw new TypeError(`sampler must be an object returned by ps.sampler(), got ${describe(s)}`);
    const { k, inputs, prior, epsilons, ...rest } = plainObject(options, 'options');
    const unknown = Object.keys(rest);
    if (unknown.length) {
      throw new RangeError(`option '${unknown[0]}' is not supported by accountant (supported: k, inputs, prior, epsilons)`);
    }
    let rows = null;
    if (inputs !== undefined) {
      if (!Array.isArray(inputs)) throw new TypeError(`options.inputs must be an array of histograms, got ${describe(inputs)}`);
      rows = inputs.map((h, i) => histogram(h, `options.inputs[${i}]`));
    }
    const categories = k !== undefined ? number(k, 'options.k') : rows ? rows[0]?.length ?? 0 : opts.prior ? opts.prior.length : undefined;
    if (categories === undefined) throw new TypeError('options.k (the number of categories) is required when no inputs are given');
    const grid = epsilons === undefined ? new Float64Array(0) : histogram(epsilons, 'options.epsilons');
    const r = wasm.accountant(s.mechanism, opts, rows, categories, prior === undefined ? null : histogram(prior, 'options.prior'), grid);
    const freeze = (o) => Object.freeze(o);
    return freeze({
      guarantee: s.guarantee,
      epsilons: r.epsilons,
      ldp: freeze({ pureEpsilon: r.pureLdpEpsilon, delta: r.ldpCurve }),
      capacity: freeze({
        lower: r.capacityLower,
        upper: r.capacityUpper,
        prior: r.capacityPrior,
        boundFromPureLdp: r.capacityBoundFromPureLdp,
        boundFromLdpCurve: r.capacityBoundFromLdpCurve,
      }),
      prior: r.mutualInformation === null ? null : freeze({
        entropy: r.priorEntropy,
        mutualInformation: r.mutualInformation,
        lip: freeze({ pureEpsilon: r.pureLipEpsilon, delta: r.lipCurve }),
        mutualInformationBoundFromLipCurve: r.mutualInformationBoundFromLipCurve,
      }),
    });
  }

  const lmidp = Object.freeze({
    ldpDeltaFromCapacity: (mu, epsilon) => wasm.ldpDeltaFromCapacity(number(mu, 'mu'), number(epsilon, 'epsilon')),
    ldpDeltaFloorFromCapacity: (mu) => wasm.ldpDeltaFloorFromCapacity(number(mu, 'mu')),
    lipDeltaFromMutualInformation: (mu, pMin, epsilon) =>
      wasm.lipDeltaFromMutualInformation(number(mu, 'mu'), number(pMin, 'pMin'), number(epsilon, 'epsilon')),
    lipDeltaFromMutualInformationAsPrinted: (mu, epsilon) =>
      wasm.lipDeltaFromMutualInformationAsPrinted(number(mu, 'mu'), number(epsilon, 'epsilon')),
    gaussianSigma2ForCapacity: (mu, d, bound) =>
      wasm.gaussianSigma2ForCapacity(number(mu, 'mu'), number(d, 'd'), number(bound, 'bound')),
  });

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
    mechanisms,
    sampler,
    accountant,
    lmidp,
    divergence,
  });
}
