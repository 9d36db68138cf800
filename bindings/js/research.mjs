// privsample/research — everything in 'privsample' plus continuous densities and samplers on grids, the MBDE
// baseline, the privacy accountant and the LMIDP conversions (research.d.ts). One ES module with the WASM inlined:
// nothing to configure; larger than the default entry.
import createPrivsampleResearch from '../../build/wasm/privsample-research.mjs';
import { glueAbi } from './abi.mjs';
import { makeLedgerApi } from './ledger-storage.mjs';
import { captureCsprng, checked, describe, formatNumbers, histogram, makeFiniteApi, mechanismOptions, number, plainObject, publicOptions, text } from './common.mjs';

let loading = null;

/** Loads the research module once; later calls return the same instance. */
export function init() {
  if (!loading) {
    loading = createPrivsampleResearch({ privsampleRandom: captureCsprng() }).then(
      (wasm) => makeApi(wasm),
      (error) => {
        loading = null; // let a later call try again
        throw error;
      },
    );
  }
  return loading;
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
function densityOptions(options, name, allowed) {
  const given = plainObject(options, name);
  const unknown = Object.keys(given).filter((key) => given[key] !== undefined && !allowed.includes(key));
  if (unknown.length) throw new RangeError(`option '${unknown[0]}' is not supported here (supported: ${allowed.join(', ')})`);
  return given;
}

function makeContinuous(wasm, abi, registry) {
  function grid1d(options) {
    const { lo, hi, cells } = densityOptions(options, 'options', ['lo', 'hi', 'cells']);
    const grid = gridOf({ dimension: 1, lo, hi, cells }, 'grid');
    checked(abi, wasm.checkGrid(grid));
    return Object.freeze(grid);
  }

  function grid2d(options) {
    const { xLo, xHi, nx, yLo, yHi, ny } = densityOptions(options, 'options', GRID_FIELDS[2]);
    const grid = gridOf({ dimension: 2, xLo, xHi, nx, yLo, yHi, ny }, 'grid');
    const cells = checked(abi, wasm.checkGrid(grid));
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
    gaussianMixture: (grid, options) => mixture(grid, options, 'sigma', (g, m, w, s) => checked(abi, wasm.gaussianMixture(g, m, w, s))),
    laplaceMixture: (grid, options) => mixture(grid, options, 'scale', (g, m, w, s) => checked(abi, wasm.laplaceMixture(g, m, w, s))),
    ring(grid, options) {
      const g = gridOf(grid);
      if (g.dimension !== 2) throw new TypeError('grid must be a 2-D grid (ps.grid2d()) for the Gaussian ring');
      const { modes = 3, variance = 0.5, radius = 1 } = densityOptions(options, 'options', ['modes', 'variance', 'radius']);
      return checked(abi, wasm.gaussianRing(g, number(modes, 'options.modes'), number(variance, 'options.variance'), number(radius, 'options.radius')));
    },
    kernelDensity(grid, points, options) {
      const g = gridOf(grid);
      const { bandwidth = 0 } = densityOptions(options, 'options', ['bandwidth']);
      return checked(abi, wasm.kernelDensity(g, pointsOf(points, g.dimension, 'points'), number(bandwidth, 'options.bandwidth')));
    },
    gaussianMixtureEnvelope(grid, options) {
      const g = gridOf(grid);
      if (g.dimension !== 1) throw new TypeError('grid must be a 1-D grid (ps.grid1d()) for gaussianMixtureEnvelope');
      const { sigma = 1, radius = 1 } = densityOptions(options, 'options', ['sigma', 'radius']);
      return checked(abi, wasm.gaussianMixtureEnvelope(g, number(sigma, 'options.sigma'), number(radius, 'options.radius')));
    },
    ringEnvelope(grid, options) {
      const g = gridOf(grid);
      if (g.dimension !== 2) throw new TypeError('grid must be a 2-D grid (ps.grid2d()) for ringEnvelope');
      const { variance = 0.5, radius = 1 } = densityOptions(options, 'options', ['variance', 'radius']);
      return checked(abi, wasm.gaussianRingEnvelope(g, number(variance, 'options.variance'), number(radius, 'options.radius')));
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
    const r = checked(abi, wasm.mbde(g, histogram(density, 'density'), epsilon, preset, seed));
    return Object.freeze({ density: r.density, reference: r.reference, theta: r.theta });
  }

  function continuousSampler(mechanism, options) {
    text(mechanism, 'mechanism');
    const opts = mechanismOptions(options, registry);
    const guarantee = Object.freeze(checked(abi, wasm.continuousGuarantee(mechanism, opts))); // constructs: checks every value
    const spec = registry.mechanisms.find((m) => m.space === 'continuous' && m.name === mechanism);
    for (const [key, value] of Object.entries(spec.defaults)) opts[key] ??= value; // the options it runs with
    return Object.freeze({
      mechanism,
      options: publicOptions(opts),
      guarantee,
      cells: (opts.reference ?? opts.prior).length,
      distribution: (density) => checked(abi, wasm.continuousDistribution(mechanism, opts, histogram(density, 'density'))),
      normaliser: (density) => checked(abi, wasm.continuousNormaliser(mechanism, opts, histogram(density, 'density'))),
      worstCaseRisk: (f) => checked(abi, wasm.continuousWorstCaseRisk(mechanism, opts, text(f, 'f'))),
      mixtureWeight: () => checked(abi, wasm.continuousMixtureWeight(mechanism, opts)),
      samplePoint(grid, density) {
        const g = gridOf(grid);
        return checked(abi, wasm.continuousSamplePoint(mechanism, opts, g, histogram(density, 'density')));
      },
    });
  }

  /** The papers' random 1-D mixtures from the SEEDED generator (reproducible set-up, not secure). */
  function seededRandomMixtures(options) {
    const o = densityOptions(options, 'options', ['seed', 'count', 'poissonMean', 'maxComponents', 'meanRange']);
    const { seed, count, poissonMean = 2, maxComponents = 10, meanRange = 1 } = o;
    const list = checked(abi, wasm.seededRandomMixtures(number(seed, 'options.seed'), number(count, 'options.count'),
      number(poissonMean, 'options.poissonMean'), number(maxComponents, 'options.maxComponents'), number(meanRange, 'options.meanRange')));
    return Object.freeze(list.map((m) => Object.freeze(m)));
  }

  const continuousMechanisms = Object.freeze(registry.mechanisms.filter((m) => m.space === 'continuous').map((m) => m.name));
  return { grid1d, grid2d, densities, continuousSampler, continuousMechanisms, mbde, seededRandomMixtures };
}

function makeApi(wasm) {
  // The finite API runs on the module's client functions (bindings/wasm/client.cpp); the research functions are
  // Embind's, and report errors through the same slot (abi.takeError).
  const finite = makeFiniteApi(glueAbi(wasm));
  const { abi } = finite;

  // The accountant reuses the sampler's C++ mechanism when it was made by this module; a sampler from the client
  // entry ('privsample') is rebuilt here from its public mechanism name and options (withHandle).
  function accountant(s, options) {
    return withHandle(s, (handle) => report(handle, s, options));
  }

  function report(handle, s, options) {
    const opts = s.options;
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
    const r = checked(abi, wasm.accountant(handle, rows, categories, prior === undefined ? null : histogram(prior, 'options.prior'), grid));
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
        minMass: r.priorMinMass,
        mutualInformation: r.mutualInformation,
        lip: freeze({ pureEpsilon: r.pureLipEpsilon, delta: r.lipCurve }),
        mutualInformationBoundFromLipCurve: r.mutualInformationBoundFromLipCurve,
      }),
    });
  }

  // An Embind function of numbers only, wrapped: each argument is type-checked as a number named after its parameter
  // (`names`, in order), then the call's error slot is read (checked).
  const ofNumbers = (fn, ...names) => (...args) => checked(abi, fn(...names.map((name, i) => number(args[i], name))));

  const lmidp = Object.freeze({
    ldpDeltaFromCapacity: ofNumbers(wasm.ldpDeltaFromCapacity, 'mu', 'epsilon'),
    ldpDeltaFloorFromCapacity: ofNumbers(wasm.ldpDeltaFloorFromCapacity, 'mu'),
    lipDeltaFromMutualInformation: ofNumbers(wasm.lipDeltaFromMutualInformation, 'mu', 'pMin', 'epsilon'),
    lipDeltaFromMutualInformationAsPrinted: ofNumbers(wasm.lipDeltaFromMutualInformationAsPrinted, 'mu', 'epsilon'),
    gaussianSigma2ForCapacity: ofNumbers(wasm.gaussianSigma2ForCapacity, 'mu', 'd', 'bound'),
    gaussianLdpDelta: ofNumbers(wasm.gaussianLdpDelta, 'epsilon', 'd', 'bound', 'sigma2'),
    gaussianCapacityPeak: ofNumbers(wasm.gaussianCapacityPeak, 'd', 'bound', 'sigma2'),
    gaussianCapacityAveragePower: ofNumbers(wasm.gaussianCapacityAveragePower, 'd', 'bound', 'sigma2'),
    gaussianMixtureMutualInformation: (points, prior, sigma2) =>
      checked(abi, wasm.gaussianMixtureMutualInformation(histogram(points, 'points'), histogram(prior, 'prior'), number(sigma2, 'sigma2'))),
    gaussianMixtureLipDelta: (points, prior, sigma2, epsilon) =>
      checked(abi, wasm.gaussianMixtureLipDelta(histogram(points, 'points'), histogram(prior, 'prior'), number(sigma2, 'sigma2'),
        number(epsilon, 'epsilon'))),
    capacityBoundFromLdpCurve: (delta, epsHint = 0) => integrateCurve(wasm.capacityBoundFromLdpCurve, delta, epsHint),
    mutualInformationBoundFromLipCurve: (delta, epsHint = 0) => integrateCurve(wasm.mutualInformationBoundFromLipCurve, delta, epsHint),
  });

  // Theorem 1(b)/2(b) integrate a curve given as a JS function. A JS exception must not unwind through WebAssembly
  // (bindings/wasm/guard.hpp): the function handed to the module returns NaN instead (the core then rejects the
  // value), and the first error the caller's function threw is rethrown here.
  function integrateCurve(run, delta, epsHint) {
    if (typeof delta !== 'function') throw new TypeError(`delta must be a function ε => δ(ε), got ${describe(delta)}`);
    number(epsHint, 'epsHint');
    let thrown = null;
    const safe = (epsilon) => {
      if (thrown !== null) return Number.NaN;
      try {
        const value = delta(epsilon);
        if (typeof value !== 'number') thrown = new TypeError(`delta(${epsilon}) returned ${describe(value)}: it must return a number`);
        return typeof value === 'number' ? value : Number.NaN;
      } catch (error) {
        thrown = error;
        return Number.NaN;
      }
    };
    let result;
    try {
      result = checked(abi, run(safe, epsHint));
    } catch (error) {
      throw thrown ?? error;
    }
    if (thrown !== null) throw thrown;
    return result;
  }

  /** The exact LDP of the channel whose rows are the given output distributions (research.d.ts). */
  function channelLdp(rows, epsilons) {
    if (!Array.isArray(rows) || rows.length === 0) throw new TypeError(`rows must be a non-empty array of distributions, got ${describe(rows)}`);
    const checkedRows = rows.map((row, i) => histogram(row, `rows[${i}]`));
    checkedRows.forEach((row, i) => {
      if (row.length !== checkedRows[0].length) throw new TypeError(`rows[${i}] has ${row.length} entries; rows[0] has ${checkedRows[0].length}`);
    });
    const grid = epsilons === undefined ? new Float64Array(0) : histogram(epsilons, 'epsilons');
    const r = checked(abi, wasm.channelLdp(checkedRows, grid));
    return Object.freeze({ pureEpsilon: r.pureEpsilon, delta: r.delta });
  }

  /** The log-width of the smallest box [c, c·e^w]·h holding q (research.d.ts). */
  function boxLogWidth(q, h) {
    return checked(abi, wasm.boxLogWidth(histogram(q, 'q'), histogram(h, 'h')));
  }

  /** The pure ε of a channel from each output's largest and smallest probability over its rows (research.d.ts). */
  function channelLdpOfExtremes(largest, smallest) {
    const top = histogram(largest, 'largest');
    const bottom = histogram(smallest, 'smallest');
    if (top.length !== bottom.length) throw new TypeError(`largest has ${top.length} entries but smallest has ${bottom.length}`);
    return checked(abi, wasm.channelLdpOfExtremes(top, bottom));
  }

  const accuracyBounds = ofNumbers(wasm.rooAccuracyBounds, 'epsilon', 'records', 'k');
  const sampleComplexity = ofNumbers(wasm.rooSampleComplexity, 'k', 'alpha', 'epsilon');
  const roo = Object.freeze({
    obscureProbability: ofNumbers(wasm.rooObscureProbability, 'epsilon', 'records', 'k'),
    obscureTable: ofNumbers(wasm.dsRooObscureTable, 'epsilon', 'records', 'k'),
    obscureTableAsPrinted: ofNumbers(wasm.dsRooObscureTableAsPrinted, 'epsilon', 'records', 'k'),
    obscureTableTopFixOnly: ofNumbers(wasm.dsRooObscureTableTopFixOnly, 'epsilon', 'records', 'k'),
    worstPair: (table, records, k) => Object.freeze(checked(abi,
      wasm.dsRooWorstPair(histogram(table, 'table'), number(records, 'records'), number(k, 'k')))),
    accuracyBounds: (epsilon, records, k) => Object.freeze(accuracyBounds(epsilon, records, k)),
    sampleComplexity: (k, alpha, epsilon) => Object.freeze(sampleComplexity(k, alpha, epsilon)),
  });

  // A sampler's C++ handle: its own when made by this module, else one rebuilt from its public name and options
  // (a sampler from the client entry 'privsample'), disposed after the call.
  function withHandle(s, run) {
    if (s === null || typeof s !== 'object' || typeof s.mechanism !== 'string' || typeof s.options !== 'object') {
      throw new TypeError(`sampler must be an object returned by ps.sampler(), got ${describe(s)}`);
    }
    const own = finite.handleOf(s);
    const borrowed = own ? null : finite.api.sampler(s.mechanism, s.options);
    try {
      return run(own ?? finite.handleOf(borrowed));
    } finally {
      borrowed?.dispose();
    }
  }

  function onlyKeys(given, allowed, what) {
    const unknown = Object.keys(given).filter((key) => given[key] !== undefined && !allowed.includes(key));
    if (unknown.length) throw new RangeError(`option '${unknown[0]}' is not supported by ${what} (supported: ${allowed.join(', ')})`);
  }

  // Numbers in the core's words travel as tokens (common.mjs formatNumbers).
  const freezePopulation = (p) => p && Object.freeze({
    ...p,
    assumption: formatNumbers(p.assumption),
    caveat: p.caveat && formatNumbers(p.caveat),
    warnings: Object.freeze(p.warnings.map(formatNumbers)),
  });
  const freezeReport = (r) => Object.freeze({
    released: Object.freeze(r.released),
    population: freezePopulation(r.population),
    pointMasses: freezePopulation(r.pointMasses),
  });

  /** Population estimates from the counts of released categories (research.d.ts states each method). */
  function estimate(s, counts, options) {
    const o = plainObject(options, 'options');
    onlyKeys(o, ['alpha', 'divergence', 'pointMasses'], 'estimate');
    const { alpha = 0.05, divergence = 'kl', pointMasses = true } = o;
    number(alpha, 'options.alpha');
    text(divergence, 'options.divergence');
    if (typeof pointMasses !== 'boolean') throw new TypeError(`options.pointMasses must be a boolean, got ${describe(pointMasses)}`);
    const c = histogram(counts, 'counts');
    return withHandle(s, (handle) => freezeReport(checked(abi, wasm.estimate(handle, c, alpha, divergence, pointMasses))));
  }

  /** N simulated users privatized by the sampler, counted and estimated; errors against the realised truth. */
  function simulate(s, options) {
    const o = plainObject(options, 'options');
    onlyKeys(o, ['population', 'model', 'users', 'concentration', 'alpha', 'divergence', 'pointMasses', 'seed'], 'simulate');
    const { model = 'point-masses', users, concentration, alpha = 0.05, divergence = 'kl', pointMasses = true } = o;
    const { seed } = o;
    text(model, 'options.model');
    if (concentration !== undefined) number(concentration, 'options.concentration');
    number(alpha, 'options.alpha');
    text(divergence, 'options.divergence');
    if (typeof pointMasses !== 'boolean') throw new TypeError(`options.pointMasses must be a boolean, got ${describe(pointMasses)}`);
    if (seed !== undefined) number(seed, 'options.seed');
    let values;
    let k = 0;
    let givenPopulation = null;  // passed on for the core to refuse: 'given' has the users' histograms as population
    if (model === 'given') {
      if (o.population !== undefined) givenPopulation = histogram(o.population, 'options.population');
      // The users' histograms travel as one flat array of k columns (a conversion, not a computation).
      const rows = o.users;
      if (!Array.isArray(rows) || rows.length === 0) {
        throw new TypeError(`options.users must be a non-empty array of histograms for model 'given', got ${describe(rows)}`);
      }
      const checkedRows = rows.map((h, i) => histogram(h, `options.users[${i}]`));
      k = checkedRows[0].length;
      checkedRows.forEach((h, i) => {
        if (h.length !== k) throw new RangeError(`options.users[${i}] has ${h.length} categories; options.users[0] has ${k}`);
      });
      values = new Float64Array(k * rows.length);
      checkedRows.forEach((h, i) => values.set(h, i * k));
    } else {
      number(users, 'options.users');
      values = histogram(o.population, 'options.population');
    }
    const wasmOptions = {
      model, users: model === 'given' ? 0 : users, concentration: concentration ?? null, alpha, divergence, pointMasses,
      seed: seed ?? null, population: givenPopulation,
    };
    return withHandle(s, (handle) => {
      const r = checked(abi, wasm.simulate(handle, values, k, wasmOptions));
      return Object.freeze({
        truth: r.truth,
        model: r.model,
        items: r.items,
        counts: r.counts,
        estimate: freezeReport(r.estimate),
        errors: Object.freeze({
          released: r.errors.released && Object.freeze(r.errors.released),
          population: r.errors.population && Object.freeze(r.errors.population),
          pointMasses: r.errors.pointMasses && Object.freeze(r.errors.pointMasses),
        }),
      });
    });
  }

  /** λ of a finite linear sampler for k categories ('linear' with delta or mu, 'local-linear'); null otherwise. */
  function mixtureWeight(s, k) {
    const n = k === undefined ? 0 : number(k, 'k');
    return withHandle(s, (handle) => checked(abi, wasm.mixtureWeight(handle, n)));
  }

  /** The law sample() draws from for this histogram (each probability rounded once); null for 'laplace-projection'. */
  function releasedLaw(s, hist) {
    return withHandle(s, (handle) => checked(abi, wasm.releasedLaw(handle, histogram(hist, 'hist'))));
  }

  /** δ_g(β) of a notion: {epsilon}, {epsilon, delta} or {mu}. */
  function privacyProfile(notion, beta) {
    return checked(abi, wasm.privacyProfile(mechanismOptions(notion, finite.api.registry), number(beta, 'beta')));
  }

  // An oracle made by ps.oracle() (this entry's or the client's): its name and options.
  function oracleOf(o) {
    if (o === null || typeof o !== 'object' || typeof o.name !== 'string' || typeof o.options !== 'object') {
      throw new TypeError(`oracle must be an object returned by ps.oracle(), got ${describe(o)}`);
    }
    return [o.name, mechanismOptions(o.options, finite.api.registry)];
  }

  /** The counts a server keeps of frequency-oracle reports (hex texts or integers), and the number of reports. */
  function frequencyCounts(o, reports) {
    const [name, options] = oracleOf(o);
    let values = reports;
    if (Array.isArray(reports) && reports.some((r) => typeof r === 'string')) {
      reports.forEach((r, i) => text(r, `reports[${i}]`));
    } else {
      values = histogram(reports, 'reports');
    }
    const r = checked(abi, wasm.frequencyCounts(name, options, values));
    return Object.freeze(r);
  }

  /** Every item's share from an oracle's counts: unbiased estimate, closed-form variance, intervals. */
  function estimateFrequencies(o, counts, options) {
    const [name, opts] = oracleOf(o);
    const given = plainObject(options, 'options');
    onlyKeys(given, ['users', 'alpha'], 'estimateFrequencies');
    const { users, alpha = 0.05 } = given;
    if (users !== undefined) number(users, 'options.users');
    number(alpha, 'options.alpha');
    const e = checked(abi, wasm.estimateFrequencies(name, opts, histogram(counts, 'counts'), users, alpha));
    return Object.freeze({ ...e, warnings: Object.freeze(e.warnings.map(formatNumbers)) });
  }

  /** Var(f̂_v) in closed form for a share `frequency` of `users` users. */
  function frequencyVariance(o, frequency, users) {
    const [name, options] = oracleOf(o);
    return checked(abi, wasm.frequencyVariance(name, options, number(frequency, 'frequency'), number(users, 'users')));
  }

  /** The mechanism for a goal: the core's rule weighs error, report size and server cost (research.d.ts). */
  function advise(options) {
    const o = plainObject(options, 'options');
    onlyKeys(o, ['k', 'epsilon', 'users', 'goal', 'divergence'], 'advise');
    const { k, epsilon, users = 1, goal = 'frequencies', divergence = 'kl' } = o;
    const r = checked(abi, wasm.advise(number(k, 'options.k'), number(epsilon, 'options.epsilon'),
      number(users, 'options.users'), text(goal, 'options.goal'), text(divergence, 'options.divergence')));
    r.candidates.forEach(Object.freeze);
    Object.freeze(r.candidates);
    return Object.freeze(r);
  }

  const collection = Object.freeze({
    /** The privacy loss of a user who reports `reports` times under (ε, δ)-LDP each time. */
    compose(options) {
      const o = plainObject(options, 'options');
      onlyKeys(o, ['epsilon', 'delta', 'reports', 'deltaPrime', 'method'], 'collection.compose');
      const { epsilon, delta = 0, reports, deltaPrime = 0, method = 'best' } = o;
      return Object.freeze(checked(abi, wasm.compose(number(epsilon, 'options.epsilon'), number(delta, 'options.delta'),
        number(reports, 'options.reports'), number(deltaPrime, 'options.deltaPrime'), text(method, 'options.method'))));
    },
    /** The central (ε, δ) of n users' ε0-LDP reports after a uniform shuffle (Feldman, McMillan, Talwar 2021). */
    shuffle(options) {
      const o = plainObject(options, 'options');
      onlyKeys(o, ['epsilon0', 'users', 'delta', 'method', 'precision'], 'collection.shuffle');
      const { epsilon0, users, delta, method = 'numerical', precision } = o;
      return Object.freeze(checked(abi, wasm.shuffle(number(epsilon0, 'options.epsilon0'), number(users, 'options.users'),
        number(delta, 'options.delta'), text(method, 'options.method'), precision !== undefined,
        precision === undefined ? 0 : number(precision, 'options.precision'))));
    },
  });

  /** Where an input sits relative to the class a worst-case risk is about (research.d.ts, core membership.hpp). */
  const classMembership = Object.freeze({
    neighbourhood(hist, options) {
      const o = plainObject(options, 'options');
      onlyKeys(o, ['prior', 'gamma'], 'classMembership.neighbourhood');
      return Object.freeze(checked(abi, wasm.neighbourhoodMembership(histogram(hist, 'hist'), histogram(o.prior, 'options.prior'),
        number(o.gamma, 'options.gamma'))));
    },
    density(density, options) {
      const o = plainObject(options, 'options');
      onlyKeys(o, ['reference', 'c1', 'c2'], 'classMembership.density');
      // c1's default is the registry's (that of the continuous samplers' class options)
      const c1 = o.c1 ?? finite.api.registry.mechanisms.find((m) => m.space === 'continuous' && 'c1' in m.defaults).defaults.c1;
      return Object.freeze(checked(abi, wasm.densityClassMembership(histogram(density, 'density'),
        histogram(o.reference, 'options.reference'), number(c1, 'options.c1'), number(o.c2, 'options.c2'))));
    },
  });

  return Object.freeze({
    ...finite.api,
    normalise: (hist) => checked(abi, wasm.normalise(histogram(hist, 'hist'))),
    classMembership,
    ...makeLedgerApi(async () => abi, finite.handleOf),
    accountant,
    channelLdp,
    boxLogWidth,
    channelLdpOfExtremes,
    lmidp,
    roo,
    estimate,
    simulate,
    frequencyCounts,
    estimateFrequencies,
    frequencyVariance,
    advise,
    collection,
    mixtureWeight,
    releasedLaw,
    privacyProfile,
    ...makeContinuous(wasm, abi, finite.api.registry),
  });
}
