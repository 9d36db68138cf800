// The many-users page's Web Worker (web/rpc.js protocol): every simulation, count and estimate the page shows is
// computed here by the public privsample API (ps.sampler, ps.simulate, ps.advise).
//   'run': { spec } → progress { done, total } after each step, then
//          { main: { mechanism, truth, counts, released, estimate }, mechanisms, byEpsilon, byUsers, verdict,
//            advice, predicted };
//          it stops at its next step when the page aborts the call.
// spec = { population: number[], users, epsilon, mechanisms: string[], epsilons: number[], userCounts: number[],
//          repeats }. The error of a mechanism is the TV distance of its population estimate (the projected affine
// inversion where the mechanism is affine, else the point-mass inversion) to the realised population.
// byEpsilon / byUsers: { [mechanism]: { mean: number[], se: number[] } } over `repeats` simulated populations.
// verdict: the mechanisms at the chosen ε and N ranked by their mean error, from paired simulations repeated until
// every neighbouring pair is resolved (see VERDICT below) — the same verdict on every load of the same settings.
// advice: ps.advise for the population's shares at the page's k (the population's length), ε and N: { k,
// epsilon, users, mechanism, error, tolerance, reason, candidates }. predicted: { byEpsilon, byUsers:
// { [candidate]: number[] } }, the advisor's closed-form total squared error Σ_v Var(f̂_v) of k-RR ('linear') and of
// each frequency oracle at every point of the curves (no simulation: these do not depend on the population, only on
// k, ε and N).
//
// Reproducible by design: the simulated populations are seeded (seed r for the r-th repeat of every mechanism and
// point), so a load shows the same curves and verdict as the last one, and the mechanisms are compared on the same
// populations (paired differences: far less noise than independent runs). These are simulated users, not anyone's
// data; the seeded generator is the library's, named as such (ps.simulate's `seed`). The main view's one population
// is drawn with the CSPRNG, fresh on every run.
import { init } from 'privsample/research';
import { nextTurn, serveRequests } from './rpc.js';

const ready = init();

// The verdict's rule: two mechanisms are ranked apart when their mean paired difference is at least TIED of the smaller
// mean error and more than Z standard errors from 0; they are tied when the difference is within TIED with Z standard
// errors to spare. Repeats grow in batches until every neighbouring pair is one or the other, or MAX repeats are done
// (then the pair is reported as not separated, with its difference and uncertainty). With Z = 3 a resolved statement
// is wrong with probability about 0.1%.
const VERDICT = Object.freeze({ batch: 25, min: 50, max: 2000, z: 3, tied: 0.05 });

// The estimate a mechanism is judged by: the affine inversion where it exists, else the point-mass inversion.
function populationOf(report) {
  return report.population ?? report.pointMasses;
}
function populationErrors(result) {
  return result.errors.population ?? result.errors.pointMasses;
}

function meanAndError(values) {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1) : 0;
  return { mean, se: Math.sqrt(variance / n) };
}

// The status of mechanism a against b from their paired errors: 'better' | 'worse' | 'tied' | 'unresolved'.
function compare(a, b) {
  const diffs = a.map((v, i) => v - b[i]);
  const { mean, se } = meanAndError(diffs);
  const scale = Math.min(meanAndError(a).mean, meanAndError(b).mean);
  const tolerance = VERDICT.tied * scale;
  let status = 'unresolved';
  if (Math.abs(mean) > VERDICT.z * se && Math.abs(mean) >= tolerance) status = mean < 0 ? 'better' : 'worse';
  else if (Math.abs(mean) + VERDICT.z * se < tolerance) status = 'tied';
  return { difference: mean, halfWidth: VERDICT.z * se, scale, status };
}

async function run(ps, { spec }, { progress: report, signal }) {
  const samplers = new Map();
  const samplerOf = (mechanism, epsilon) => {
    const key = `${mechanism}:${epsilon}`;
    if (!samplers.has(key)) samplers.set(key, ps.sampler(mechanism, { epsilon }));
    return samplers.get(key);
  };
  // The point-mass inversion is only computed for the mechanisms without an affine one.
  const affine = new Map();
  const errorOf = (sampler, users, seed) => {
    const pointMasses = !affine.get(sampler);
    const result = ps.simulate(sampler, { population: spec.population, users, seed, pointMasses });
    if (!affine.has(sampler)) affine.set(sampler, result.errors.population !== null);
    return populationErrors(result).tv;
  };
  try {
    const curvePoints = spec.mechanisms.length * (spec.epsilons.length + spec.userCounts.length);
    let total = 1 + curvePoints + VERDICT.max / VERDICT.batch;
    let done = 0;
    const progress = async () => {
      done += 1;
      report({ done, total });
      await nextTurn(); // lets the page's abort in
      signal.throwIfAborted();
    };

    // The main view: one simulated population for the first mechanism (CSPRNG: a fresh population each run).
    // The advisor's verdict and its predicted curves (closed forms: one ps.advise call per point).
    const k = spec.population.length;
    const adviseAt = (epsilon, users) => ps.advise({ k, epsilon, users, goal: 'frequencies' });
    const chosen = adviseAt(spec.epsilon, spec.users);
    const advice = {
      k,
      epsilon: spec.epsilon,
      users: spec.users,
      mechanism: chosen.mechanism,
      error: chosen.error,
      tolerance: chosen.tolerance,
      reason: chosen.reason,
      candidates: chosen.candidates.map((c) => ({ ...c })),
    };
    const predictedCurve = (points) => {
      const curves = {};
      for (const advised of points) {
        for (const c of advised.candidates) (curves[c.mechanism] ??= []).push(c.error);
      }
      return curves;
    };
    const predicted = {
      byEpsilon: predictedCurve(spec.epsilons.map((epsilon) => adviseAt(epsilon, spec.users))),
      byUsers: predictedCurve(spec.userCounts.map((users) => adviseAt(spec.epsilon, users))),
    };

    const mechanism = spec.mechanisms[0];
    const sampler = samplerOf(mechanism, spec.epsilon);
    const sim = ps.simulate(sampler, { population: spec.population, users: spec.users });
    const estimate = populationOf(sim.estimate);
    const main = {
      mechanism,
      truth: Array.from(sim.truth),
      counts: Array.from(sim.counts),
      released: Array.from(sim.estimate.released.q),
      estimate: estimate && {
        value: Array.from(estimate.projected),
        unbiased: Array.from(estimate.estimate),
        lower: Array.from(estimate.lower),
        upper: Array.from(estimate.upper),
        method: estimate.method,
        intervalMethod: estimate.intervalMethod,
        assumption: estimate.assumption,
        confidence: estimate.confidence,
      },
      errors: populationErrors(sim),
      releasedErrors: sim.errors.released,
    };
    await progress();

    // The verdict at the chosen ε and N: paired, seeded repeats in batches until resolved.
    const errors = Object.fromEntries(spec.mechanisms.map((m) => [m, []]));
    let pairs = [];
    let order = spec.mechanisms.slice();
    for (let r = 1; r <= VERDICT.max; r += VERDICT.batch) {
      for (let seed = r; seed < r + VERDICT.batch; seed += 1) {
        for (const m of spec.mechanisms) errors[m].push(errorOf(samplerOf(m, spec.epsilon), spec.users, seed));
      }
      await progress();
      order = spec.mechanisms.slice().sort((a, b) => meanAndError(errors[a]).mean - meanAndError(errors[b]).mean);
      pairs = order.slice(1).map((m, i) => ({ a: order[i], b: m, ...compare(errors[order[i]], errors[m]) }));
      const repeats = r + VERDICT.batch - 1;
      if (repeats >= VERDICT.min && pairs.every((p) => p.status !== 'unresolved')) break;
    }
    total = done + curvePoints; // the verdict's unused batches are not waited for
    const verdict = {
      epsilon: spec.epsilon,
      users: spec.users,
      repeats: errors[spec.mechanisms[0]].length,
      z: VERDICT.z,
      tied: VERDICT.tied,
      means: Object.fromEntries(order.map((m) => {
        const { mean, se } = meanAndError(errors[m]);
        return [m, { mean, halfWidth: VERDICT.z * se }];
      })),
      order,
      pairs,
    };

    const curve = async (m, epsilon, users) => {
      const s = samplerOf(m, epsilon);
      const values = [];
      for (let seed = 1; seed <= spec.repeats; seed += 1) values.push(errorOf(s, users, seed));
      await progress();
      return meanAndError(values);
    };
    const byEpsilon = {};
    const byUsers = {};
    for (const m of spec.mechanisms) {
      byEpsilon[m] = { mean: [], se: [] };
      for (const epsilon of spec.epsilons) {
        const { mean, se } = await curve(m, epsilon, spec.users);
        byEpsilon[m].mean.push(mean);
        byEpsilon[m].se.push(se);
      }
      byUsers[m] = { mean: [], se: [] };
      for (const users of spec.userCounts) {
        const { mean, se } = await curve(m, spec.epsilon, users);
        byUsers[m].mean.push(mean);
        byUsers[m].se.push(se);
      }
    }
    return { main, mechanisms: spec.mechanisms, byEpsilon, byUsers, verdict, advice, predicted };
  } finally {
    for (const s of samplers.values()) s.dispose();
  }
}

serveRequests(ready, { run });
