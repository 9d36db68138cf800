// The histogram page's Web Worker (web/rpc.js protocol): every number the page shows is computed here, by the public
// privsample API; this file only chooses which calls to make and packs their answers.
//   'mechanisms': {}                                        → { version, mechanisms, kinds: { recordLevel, priorBased,
//                 notionBased } }: the finite mechanisms ({ name, label, plain, notion }, the picker's entries) and
//                 which takes records, a prior or a notion, all from ps.registry, for the page's controls
//   'update': { hist, epsilon, f, mechanism, settings, accountantPrior } → Q(·|P) of the chosen mechanism at ε, P
//                 normalised, its guarantee, the divergence-versus-ε curves of several mechanisms side by side and
//                 the privacy accountant of the chosen mechanism (every notion; see accountantOf)
//   'samplerOptions': { hist, epsilon, mechanism, settings } → { mechanism, options }: what ps.sampler() takes for them
//                 (the ledger panel draws on the page, through ps.ledger, with the same options)
// settings = { notion: 'pure' | 'approx' | 'gaussian', delta, prior: 'uniform' | number[], gamma }.
import { init } from 'privsample/research';
import { CURVE_EPSILONS } from './epsilon.js';
import { errorInfo, serveRequests } from './rpc.js';

/** The mechanisms always drawn in the comparison chart (the chosen one is added when it is not among them). */
const COMPARED = ['minimax', 'linear', 'mollifier', 'local', 'roo'];
// Which options each mechanism takes comes from the library's registry (ps.registry), not from a copy here.
let RECORD_LEVEL = new Set();
let PRIOR_BASED = new Set();
let NOTION_BASED = new Set();
let ESTIMATED_LAW = new Set(); // distribution() is a Monte-Carlo estimate (registry: exactDistribution false)
let FINITE = [];

const ready = init().then((ps) => {
  const finite = ps.registry.mechanisms.filter((m) => m.space === 'finite');
  FINITE = finite.map(({ name, label, plain, notion }) => ({ name, label, plain, notion }));
  const names = (keep) => new Set(finite.filter(keep).map((m) => m.name));
  RECORD_LEVEL = names((m) => m.notion === 'record-dp');
  PRIOR_BASED = names((m) => m.required.includes('prior'));
  NOTION_BASED = names((m) => m.notion === 'ldp-from-options');
  ESTIMATED_LAW = names((m) => !m.exactDistribution);
  return ps;
});
const seriesCache = new Map(); // key → one mechanism's curves (they do not depend on the current ε)

/** n, the number of the user's records: the total of the counts (a whole number when the library accepts them). */
function recordsOf(hist) {
  let n = 0;
  for (const c of hist) n += c;
  return n;
}

/**
 * The public prior P0: 'uniform', or the user's counts / probabilities as typed — the library normalises them like
 * a histogram and checks every value (length, zeros, negatives), naming the entry.
 */
function priorOf(settings, k) {
  if (settings.prior === 'invalid') throw new RangeError('its public prior or γ is not valid (pick a local sampler to see why)');
  if (settings.prior === 'uniform' || settings.prior == null) return Array(k).fill(1); // counts: the library normalises
  return settings.prior;
}

/**
 * The options of `mechanism` at budget `budget` (ε, or μ for the Gaussian notion).
 * pureOnly: the comparison chart's ε axis, where every mechanism is shown in its ε form.
 */
function optionsFor(mechanism, budget, hist, settings, pureOnly = false) {
  const k = hist.length;
  let options;
  if (RECORD_LEVEL.has(mechanism)) {
    // records = n, the number of the user's records. A non-integer total is rounded only so that the
    // library's own check of the counts ("hist[i] = 1.5: … must be integers") is the one the user sees.
    options = { epsilon: budget, records: Math.max(1, Math.round(recordsOf(hist))) };
  } else if (NOTION_BASED.has(mechanism) && !pureOnly && settings.notion === 'gaussian') {
    options = { mu: budget };
  } else if (NOTION_BASED.has(mechanism) && !pureOnly && settings.notion === 'approx') {
    options = { epsilon: budget, delta: settings.delta };
  } else {
    options = { epsilon: budget };
  }
  if (PRIOR_BASED.has(mechanism)) {
    options.prior = priorOf(settings, k);
    options.gamma = settings.gamma;
  }
  return options;
}

/** Why a mechanism cannot be drawn for this histogram, in words; null when it can. */
function whyNotApplicable(mechanism, hist) {
  if (RECORD_LEVEL.has(mechanism) && !hist.every((c) => Number.isInteger(c))) {
    return 'needs whole-number counts (your n records)';
  }
  return null;
}

/** The worst-case and the user's own D_f curves of one mechanism over the ε grid (cached). */
function seriesOf(ps, mechanism, hist, f, settings) {
  let prior = null;
  try {
    if (PRIOR_BASED.has(mechanism)) prior = priorOf(settings, hist.length);
  } catch (error) {
    return { mechanism, worst: [], user: [], worstNote: null, skipped: errorInfo(error).message };
  }
  const key = JSON.stringify([mechanism, f, hist, prior, PRIOR_BASED.has(mechanism) ? settings.gamma : null]);
  const cached = seriesCache.get(key);
  if (cached) return cached;
  const series = { mechanism, worst: [], user: [], worstNote: null, skipped: whyNotApplicable(mechanism, hist) };
  if (!series.skipped) {
    try {
      for (const epsilon of CURVE_EPSILONS) {
        const s = ps.sampler(mechanism, optionsFor(mechanism, epsilon, hist, settings, true));
        series.user.push(ps.divergence(f, hist, s.distribution(hist)));
        if (series.worst) {
          try {
            series.worst.push(s.worstCaseRisk(f, hist.length));
          } catch (error) {
            if (!(error instanceof RangeError)) throw error;
            series.worst = null; // laplace-projection: no closed form
            series.worstNote = 'no closed form';
          }
        }
      }
      if (prior) series.outsideNeighbourhood = !ps.classMembership.neighbourhood(hist, { prior, gamma: settings.gamma }).inside;
    } catch (error) {
      series.worst = [];
      series.user = [];
      series.skipped = `${errorInfo(error).name}: ${errorInfo(error).message}`;
    }
  }
  if (seriesCache.size > 64) seriesCache.clear();
  seriesCache.set(key, series);
  return series;
}

function comparison(ps, hist, f, chosen, settings) {
  const mechanisms = COMPARED.includes(chosen) ? COMPARED : [...COMPARED, chosen];
  return { epsilon: CURVE_EPSILONS, series: mechanisms.map((m) => seriesOf(ps, m, hist, f, settings)) };
}

/**
 * The accountant's cost grows like k³ (a Monte-Carlo channel, as Laplace + projection's: much more); beyond these it
 * is not run.
 */
const ACCOUNTANT_MAX_K = 60;
const ACCOUNTANT_MAX_K_MONTE_CARLO = 20;
const accountantCache = new Map();

/**
 * The prior of the accountant (who holds which item): 'own' = the user's normalised histogram P; 'public' = the
 * local samplers' public prior P0, uniform for the others.
 */
function accountantPriorOf(ps, kind, hist, settings, mechanism) {
  if (kind === 'public') return Array.from(ps.normalise(PRIOR_BASED.has(mechanism) ? priorOf(settings, hist.length) : Array(hist.length).fill(1)));
  return Array.from(ps.normalise(hist));
}

/**
 * ps.accountant for the sampler s: its guarantee in every notion over the k point-mass inputs (a user who holds
 * one item; record-level mechanisms: all n records on one letter), with the chosen prior, plus the LMIDP paper's
 * conversions (Theorem 1(a): δ implied by the capacity alone; corrected Theorem 2(a): LIP δ implied by I(X;Y)).
 * Never throws: { error } instead, so the rest of the page is unaffected.
 */
function accountantOf(ps, s, mechanism, hist, settings, priorKind) {
  const k = hist.length;
  const estimated = ESTIMATED_LAW.has(mechanism);
  const limit = estimated ? ACCOUNTANT_MAX_K_MONTE_CARLO : ACCOUNTANT_MAX_K;
  const label = FINITE.find((m) => m.name === mechanism)?.label;
  if (k > limit) {
    // Not an error: the page shows this as a note and everything else works at this size.
    return {
      unavailable: `The accountant is computed for up to ${limit} categories${
        estimated ? ` with ${label} (its channel is a Monte-Carlo estimate)` : ''
      }; your histogram has k = ${k}. Its exact computation grows like k³ (at k = ${k} it would take far longer than the rest of the page), so it is left out here. The guarantee line and the charts above hold for any k; merge rare categories to see the accountant.`,
    };
  }
  let prior;
  try {
    prior = accountantPriorOf(ps, priorKind, hist, settings, mechanism);
  } catch (error) {
    return { error: errorInfo(error).message };
  }
  const key = JSON.stringify([mechanism, s.options, k, prior]);
  const cached = accountantCache.get(key);
  if (cached) return cached;
  let out;
  try {
    const r = ps.accountant(s, { k, prior });
    const epsilons = Array.from(r.epsilons);
    const pMin = r.prior.minMass;
    const every = (i) => i % 2 === 0 || i === epsilons.length - 1; // the conversion curves on every other point
    const curve = (fn) => epsilons.map((e, i) => (every(i) ? fn(e) : null));
    const mi = r.prior.mutualInformation;
    out = {
      k,
      priorKind,
      prior,
      guarantee: { ...r.guarantee },
      epsilons,
      ldp: { pureEpsilon: r.ldp.pureEpsilon, delta: Array.from(r.ldp.delta) },
      capacity: {
        lower: r.capacity.lower,
        upper: r.capacity.upper,
        boundFromPureLdp: r.capacity.boundFromPureLdp,
        boundFromLdpCurve: r.capacity.boundFromLdpCurve,
      },
      entropy: r.prior.entropy,
      mutualInformation: mi,
      lip: { pureEpsilon: r.prior.lip.pureEpsilon, delta: Array.from(r.prior.lip.delta) },
      mutualInformationBoundFromLipCurve: r.prior.mutualInformationBoundFromLipCurve,
      // Theorem 1(a): any mechanism leaking at most C bits (C = the certified capacity upper bound) is (ε′, δ)-LDP with
      ldpFromCapacity: curve((e) => ps.lmidp.ldpDeltaFromCapacity(r.capacity.upper, e)),
      ldpFloorFromCapacity: ps.lmidp.ldpDeltaFloorFromCapacity(r.capacity.upper),
      // Theorem 2(a), corrected: the LIP δ(ε′) implied by I(X;Y) and the prior's smallest (positive) mass.
      lipFromMutualInformation: curve((e) => ps.lmidp.lipDeltaFromMutualInformation(mi, pMin, e)),
      pMin,
      erratum: {
        epsilon: 1,
        asPrinted: ps.lmidp.lipDeltaFromMutualInformationAsPrinted(mi, 1),
        corrected: ps.lmidp.lipDeltaFromMutualInformation(mi, pMin, 1),
      },
    };
  } catch (error) {
    const info = errorInfo(error);
    out = { error: `${info.name}: ${info.message}` };
  }
  if (accountantCache.size > 32) accountantCache.clear();
  accountantCache.set(key, out);
  return out;
}

function update(ps, { hist, epsilon, f, mechanism, settings, accountantPrior = 'own' }) {
  const s = ps.sampler(mechanism, optionsFor(mechanism, epsilon, hist, settings));
  const q = s.distribution(hist); // validates hist: RangeError / TypeError with the library's message
  const current = { epsilon, mechanism, user: ps.divergence(f, hist, q), worst: null, worstNote: null };
  try {
    current.worst = s.worstCaseRisk(f, hist.length);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    current.worstNote = 'no closed form';
  }
  return {
    epsilon,
    f,
    k: hist.length,
    mechanism,
    records: RECORD_LEVEL.has(mechanism) ? s.options.records : null,
    p: Array.from(ps.normalise(hist)),
    q: Array.from(q),
    normaliser: s.normaliser(hist),
    guarantee: { ...s.guarantee },
    current,
    curve: comparison(ps, hist, f, mechanism, settings),
    accountant: accountantOf(ps, s, mechanism, hist, settings, accountantPrior),
    version: ps.version,
  };
}

function mechanisms(ps) {
  const kinds = { recordLevel: [...RECORD_LEVEL], priorBased: [...PRIOR_BASED], notionBased: [...NOTION_BASED] };
  return { version: ps.version, mechanisms: FINITE, kinds };
}

/** The options ps.sampler() takes for the page's settings: the ledger panel makes the same sampler on the page. */
function samplerOptions(ps, { hist, epsilon, mechanism, settings }) {
  return { mechanism, options: optionsFor(mechanism, epsilon, hist, settings) };
}

serveRequests(ready, { mechanisms, update, samplerOptions });
