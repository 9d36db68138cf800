// The histogram page's state, in one place, and the events its panels talk through. No DOM, no mathematics.
//   'input'     something the worker's answer depends on changed: the page asks for a new update
//   'stale'     the charts no longer show the current input (controls are disabled until the answer)
//   'kinds'     the library's registry said which mechanisms take records, a prior or a notion
//   'mechanism' the chosen mechanism changed
//   'result'    { request, result }: the newest answer of the worker
//   'rejected'  { error, request }: the library refused the input (its RangeError / TypeError)
//   'clear'     the P and Q cells must show "—" (the input cannot be computed)
//   'fatal'     the worker cannot run at all

/** The histogram shown on first load: how someone got to work on the days of one month. */
export const DEFAULT_HISTOGRAM = Object.freeze([
  { name: 'Walk', count: '9' },
  { name: 'Bicycle', count: '6' },
  { name: 'Bus', count: '4' },
  { name: 'Train', count: '2' },
  { name: 'Car', count: '1' },
  { name: 'Scooter', count: '0' },
]);

/** Rows of the table rendered at once: a 1,000-category histogram is shown page by page, so edits stay fast. */
export const PAGE_SIZE = 50;

export function createStore({ f, mechanism, accountantPrior }) {
  const listeners = new Map();
  const state = {
    rows: DEFAULT_HISTOGRAM.map((r) => ({ ...r })),
    epsilon: 1,
    f,
    valid: null, // { names, hist } of the last histogram that passed the page's checks, or null
    mechanism,
    accountantPrior,
    settings: null, // { notion, delta, prior, gamma } when the mechanism's inputs pass the page's checks, else null
    computed: false, // the charts show the current input
    draws: [],
    fatal: false,
    page: 0, // the table page shown (PAGE_SIZE rows each)
    problems: new Map(), // row index → the validator's messages for that row
    last: null, // { request, result } of the newest answer shown, for the table pages and the downloads
    generation: 0, // bumped for every new input; only the answer to the newest one is shown
    kinds: null, // { recordLevel, priorBased, notionBased }: Sets of mechanism names, from ps.registry (the worker)
  };
  /** Does `mechanism` belong to a kind of the registry ('recordLevel' | 'priorBased' | 'notionBased')? */
  const is = (kind, name = state.mechanism) => Boolean(state.kinds?.[kind].has(name));
  return {
    state,
    is,
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, []);
      listeners.get(event).push(listener);
    },
    emit(event, detail) {
      for (const listener of listeners.get(event) ?? []) listener(detail);
    },
  };
}
