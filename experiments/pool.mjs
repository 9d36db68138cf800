// The units of work an experiment may hand to other threads, and the pool that runs them here, one after another.
// An entry's run() receives a pool in its context ({ progress, pool }); `npm run reproduce` passes one of worker
// threads (scripts/reproduce-pool.mjs, one per core), which runs the same TASKS with its own privsample/research
// instance. A task is a plain function (ps, args) → result of structured-cloneable values, deterministic in its
// arguments (seeded), so a result does not depend on which thread ran it or in what order.

export const TASKS = Object.freeze({
  /**
   * One seeded MBDE run on a grid given by its plain fields ({ dimension: 1, lo, hi, cells } or the 2-D fields of
   * ps.grid2d): the privatized density q_T and its reference q0 (cell masses).
   */
  mbde(ps, { grid, density, epsilon, preset, seed }) {
    const g = grid.dimension === 2
      ? ps.grid2d({ xLo: grid.xLo, xHi: grid.xHi, nx: grid.nx, yLo: grid.yLo, yHi: grid.yHi, ny: grid.ny })
      : ps.grid1d({ lo: grid.lo, hi: grid.hi, cells: grid.cells });
    const r = ps.mbde(g, density, { epsilon, preset, seed });
    return { density: r.density, reference: r.reference };
  },
});

/**
 * A pool of one: the tasks run in this thread, in order. map(task, argsList, onDone) resolves to the results in the
 * order of argsList and calls onDone(count) after each task; close() does nothing.
 */
export function serialPool(ps) {
  return {
    size: 1,
    async map(task, argsList, onDone = () => {}) {
      const run = TASKS[task];
      if (!run) throw new RangeError(`task "${task}" is not in experiments/pool.mjs`);
      const out = [];
      for (const args of argsList) {
        out.push(run(ps, args));
        onDone(out.length);
      }
      return out;
    },
    close() {},
  };
}

/** The plain fields of a grid made by ps.grid1d / ps.grid2d (what a task's args carry). */
export function gridFields(grid) {
  return grid.dimension === 2
    ? { dimension: 2, xLo: grid.xLo, xHi: grid.xHi, nx: grid.nx, yLo: grid.yLo, yHi: grid.yHi, ny: grid.ny }
    : { dimension: 1, lo: grid.lo, hi: grid.hi, cells: grid.cells };
}
