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

// ---- continuous data on grids ----------------------------------------------------------------------------------

const GRID_FIELDS = { 1: ['lo', 'hi', 'cells'], 2: ['xLo', 'xHi', 'nx', 'yLo', 'yHi', 'ny'] };

// A grid as made by ps.grid1d / ps.grid2d, or any object of the same shape (e.g. one sent to a Worker):
// the fields are type-checked here and their values by the core on every call.
function gridOf(value, name = 'grid') {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${name} must be a grid from ps.grid1d() or ps.grid2d(), got ${describe(value)}`);
  }
  const { dimension } = value;
  if (dimension !== 1 && dimension !== 2) {
    throw new TypeError(`${name}.dimension must be 1 or 2 (make grids with ps.grid1d() or ps.grid2d()), got ${describe(dimension)}`);
  }
  const out = { dimension };
  for (const key of GRID_FIELDS[dimension]) out[key] = number(value[key], `${name}.${key}`);
  return out;
}

// 1-D points: numbers. 2-D points: [[x, y], …] or a flat [x0, y0, x1, y1, …] (array or typed array).
function pointsOf(value, dimension, name) {
  if (dimension === 1 || !Array.isArray(value) || !value.some((v) => Array.isArray(v) || ArrayBuffer.isView(v))) {
    const flat = histogram(value, name);
    if (dimension === 2 && flat.length % 2 !== 0) {
      throw new TypeError(`${name} has ${flat.length} numbers: 2-D points are [[x, y], …] or a flat [x0, y0, x1, y1, …] of even length`);
    }
    return flat;
  }
  const out = new Float64Array(2 * value.length);
  for (let i = 0; i < value.length; i += 1) {
    const point = value[i];
    if (!(Array.isArray(point) || ArrayBuffer.isView(point)) || point.length !== 2) {
      throw new TypeError(`${name}[${i}] is ${describe(point)}${Array.isArray(point) ? ` of length ${point.length}` : ''}: 2-D points are [x, y] pairs`);
    }
    out[2 * i] = number(point[0], `${name}[${i}][0]`);
    out[2 * i + 1] = number(point[1], `${name}[${i}][1]`);
  }
  return out;
}

// Which options each continuous mechanism takes; 'notion' stands for epsilon [+ delta] or mu.
const CONTINUOUS_RULES = {
  minimax: { required: ['epsilon', 'reference', 'c2'], optional: ['c1'] },
  linear: { required: ['notion', 'reference', 'c2'], optional: ['c1'] },
  local: { required: ['epsilon', 'prior', 'gamma'], optional: [] },
  'local-linear': { required: ['notion', 'prior', 'gamma'], optional: [] },
};
const CONTINUOUS_MECHANISMS = Object.freeze(Object.keys(CONTINUOUS_RULES));
const CONTINUOUS_NUMBER_OPTIONS = ['epsilon', 'delta', 'mu', 'gamma', 'c1', 'c2'];
const CONTINUOUS_ARRAY_OPTIONS = ['reference', 'prior'];

function continuousOptions(mechanism, options) {
  const given = plainObject(options, 'options');
  const out = {};
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (CONTINUOUS_NUMBER_OPTIONS.includes(key)) out[key] = number(value, `options.${key}`);
    else if (CONTINUOUS_ARRAY_OPTIONS.includes(key)) out[key] = histogram(value, `options.${key}`);
    else {
      throw new RangeError(`option '${key}' is unknown (known options: ${[...CONTINUOUS_NUMBER_OPTIONS, ...CONTINUOUS_ARRAY_OPTIONS].join(', ')})`);
    }
  }
  const rules = CONTINUOUS_RULES[mechanism];
  const allowed = [...rules.optional];
  for (const key of rules.required) {
    if (key === 'notion') {
      if (out.mu !== undefined && (out.epsilon !== undefined || out.delta !== undefined)) {
        throw new RangeError(`options.mu (Gaussian LDP) cannot be combined with epsilon or delta for '${mechanism}': give either mu, or epsilon (with optional delta)`);
      }
      if (out.mu !== undefined) allowed.push('mu');
      else {
        if (out.epsilon === undefined) throw new RangeError(`options.epsilon is required for '${mechanism}' (or options.mu for Gaussian LDP)`);
        allowed.push('epsilon', 'delta');
      }
    } else {
      if (out[key] === undefined) throw new RangeError(`options.${key} is required for '${mechanism}'`);
      allowed.push(key);
    }
  }
  for (const key of Object.keys(out)) {
    if (!allowed.includes(key)) {
      const supported = rules.required.flatMap((k) => (k === 'notion' ? ['epsilon', 'delta', 'mu'] : [k])).concat(rules.optional);
      throw new RangeError(`option '${key}' is not supported by '${mechanism}' (supported: ${supported.join(', ')})`);
    }
  }
  if (rules.optional.includes('c1') && out.c1 === undefined) out.c1 = 0;
  return out;
}

function densityOptions(options, name, allowed) {
  const given = plainObject(options, name);
  const unknown = Object.keys(given).filter((key) => given[key] !== undefined && !allowed.includes(key));
  if (unknown.length) throw new RangeError(`option '${unknown[0]}' is not supported here (supported: ${allowed.join(', ')})`);
  return given;
}

function makeContinuous(wasm) {
  function grid1d(options) {
    const { lo, hi, cells } = densityOptions(options, 'options', ['lo', 'hi', 'cells']);
    const grid = gridOf({ dimension: 1, lo, hi, cells }, 'grid');
    wasm.checkGrid(grid);
    return Object.freeze(grid);
  }

  function grid2d(options) {
    const { xLo, xHi, nx, yLo, yHi, ny } = densityOptions(options, 'options', GRID_FIELDS[2]);
    const grid = gridOf({ dimension: 2, xLo, xHi, nx, yLo, yHi, ny }, 'grid');
    const cells = wasm.checkGrid(grid);
    return Object.freeze({ ...grid, cells });
  }

  // A mixture's means (numbers in 1-D, points in 2-D) and weights (default: equal).
  function mixture(grid, options, scaleName, run) {
    const g = gridOf(grid);
    const o = densityOptions(options, 'options', ['means', 'weights', scaleName]);
    const means = pointsOf(o.means, g.dimension, 'options.means');
    const count = g.dimension === 2 ? means.length / 2 : means.length;
    const weights = o.weights === undefined ? new Float64Array(count).fill(1) : histogram(o.weights, 'options.weights');
    return run(g, means, weights, number(o[scaleName], `options.${scaleName}`));
  }

  const densities = Object.freeze({
    gaussianMixture: (grid, options) => mixture(grid, options, 'sigma', (g, m, w, s) => wasm.gaussianMixture(g, m, w, s)),
    laplaceMixture: (grid, options) => mixture(grid, options, 'scale', (g, m, w, s) => wasm.laplaceMixture(g, m, w, s)),
    ring(grid, options) {
      const g = gridOf(grid);
      if (g.dimension !== 2) throw new TypeError('grid must be a 2-D grid (ps.grid2d()) for the Gaussian ring');
      const { modes = 3, variance = 0.5, radius = 1 } = densityOptions(options, 'options', ['modes', 'variance', 'radius']);
      return wasm.gaussianRing(g, number(modes, 'options.modes'), number(variance, 'options.variance'), number(radius, 'options.radius'));
    },
    kernelDensity(grid, points, options) {
      const g = gridOf(grid);
      const { bandwidth = 0 } = densityOptions(options, 'options', ['bandwidth']);
      return wasm.kernelDensity(g, pointsOf(points, g.dimension, 'points'), number(bandwidth, 'options.bandwidth'));
    },
    gaussianMixtureEnvelope(grid, options) {
      const g = gridOf(grid);
      if (g.dimension !== 1) throw new TypeError('grid must be a 1-D grid (ps.grid1d()) for gaussianMixtureEnvelope');
      const { sigma = 1, radius = 1 } = densityOptions(options, 'options', ['sigma', 'radius']);
      return wasm.gaussianMixtureEnvelope(g, number(sigma, 'options.sigma'), number(radius, 'options.radius'));
    },
  });

  // The MBDE baseline on a grid: returns the privatized density (and the reference q0 it stays within e^{±ε/2} of).
  function mbde(grid, density, options) {
    const g = gridOf(grid);
    const { epsilon, preset = 'reduced', seed, ...rest } = plainObject(options, 'options');
    const unknown = Object.keys(rest);
    if (unknown.length) throw new RangeError(`option '${unknown[0]}' is not supported by mbde (supported: epsilon, preset, seed)`);
    number(epsilon, 'options.epsilon');
    text(preset, 'options.preset');
    if (seed !== undefined) number(seed, 'options.seed');
    const r = wasm.mbde(g, histogram(density, 'density'), epsilon, preset, seed);
    return Object.freeze({ density: r.density, reference: r.reference, theta: r.theta });
  }

  function continuousSampler(mechanism, options) {
    text(mechanism, 'mechanism');
    if (!CONTINUOUS_MECHANISMS.includes(mechanism)) {
      throw new RangeError(`mechanism = '${mechanism}': unknown continuous mechanism; use one of ${CONTINUOUS_MECHANISMS.map((m) => `'${m}'`).join(', ')}`);
    }
    const opts = continuousOptions(mechanism, options);
    const guarantee = Object.freeze(wasm.continuousGuarantee(mechanism, opts)); // constructs: checks every value
    return Object.freeze({
      mechanism,
      options: publicOptions(opts),
      guarantee,
      cells: (opts.reference ?? opts.prior).length,
      distribution: (density) => wasm.continuousDistribution(mechanism, opts, histogram(density, 'density')),
      normaliser: (density) => wasm.continuousNormaliser(mechanism, opts, histogram(density, 'density')),
      worstCaseRisk: (f) => wasm.continuousWorstCaseRisk(mechanism, opts, text(f, 'f')),
      samplePoint(grid, density) {
        const g = gridOf(grid);
        return wasm.continuousSamplePoint(mechanism, opts, g, histogram(density, 'density'));
      },
    });
  }

  return { grid1d, grid2d, densities, continuousSampler, continuousMechanisms: CONTINUOUS_MECHANISMS, mbde };
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
    ...makeContinuous(wasm),
  });
}
