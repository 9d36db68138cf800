// The many-users page's Web Worker (web/rpc.js protocol): every simulation, count and estimate the page shows is
// computed here by the public privsample API (ps.sampler, ps.simulate).
//   'run': { spec } → progress { done, total } after each simulation, then
//          { main: { mechanism, truth, counts, released, estimate }, mechanisms, byEpsilon: { [mechanism]: tv[] },
//            byUsers: { [mechanism]: tv[] } }; it stops at its next simulation when the page aborts the call.
// spec = { population: number[], users, epsilon, mechanisms: string[], epsilons: number[], userCounts: number[],
//          repeats }. The TV of a mechanism is that of its population estimate (the projected affine inversion where
// the mechanism is affine, else the point-mass inversion), averaged over `repeats` simulated populations.
import { init } from 'privsample/research';
import { nextTurn, serveRequests } from './rpc.js';

const ready = init();

// The estimate a mechanism is judged by: the affine inversion where it exists, else the point-mass inversion.
function populationOf(report) {
  return report.population ?? report.pointMasses;
}
function populationErrors(result) {
  return result.errors.population ?? result.errors.pointMasses;
}

async function run(ps, { spec }, { progress: report, signal }) {
  const samplers = new Map();
  const samplerOf = (mechanism, epsilon) => {
    const key = `${mechanism}:${epsilon}`;
    if (!samplers.has(key)) samplers.set(key, ps.sampler(mechanism, { epsilon }));
    return samplers.get(key);
  };
  try {
    const total = 1 + spec.mechanisms.length * (spec.epsilons.length + spec.userCounts.length);
    let done = 0;
    const progress = async () => {
      done += 1;
      report({ done, total });
      await nextTurn(); // lets the page's abort in
      signal.throwIfAborted();
    };

    // The main view: one simulated population for the first mechanism (CSPRNG: a fresh population each run).
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
        assumption: estimate.assumption,
        confidence: estimate.confidence,
      },
      errors: populationErrors(sim),
      releasedErrors: sim.errors.released,
    };
    await progress();

    const meanTv = (s, users) => {
      let sum = 0;
      for (let r = 0; r < spec.repeats; r += 1) sum += populationErrors(ps.simulate(s, { population: spec.population, users })).tv;
      return sum / spec.repeats;
    };
    const byEpsilon = {};
    const byUsers = {};
    for (const m of spec.mechanisms) {
      byEpsilon[m] = [];
      for (const epsilon of spec.epsilons) {
        byEpsilon[m].push(meanTv(samplerOf(m, epsilon), spec.users));
        await progress();
      }
      byUsers[m] = [];
      for (const users of spec.userCounts) {
        byUsers[m].push(meanTv(samplerOf(m, spec.epsilon), users));
        await progress();
      }
    }
    return { main, mechanisms: spec.mechanisms, byEpsilon, byUsers };
  } finally {
    for (const s of samplers.values()) s.dispose();
  }
}

serveRequests(ready, { run });
