// privsample — what both entry points share: JS type checks, the error channel from the core, the sampler handle.
// Glue only: checks JS types and shapes, converts to typed arrays, calls the WebAssembly module. Every value check
// and all mathematics happen in the C++ core.
import { writeText } from './abi.mjs';

/** Describes a value for an error message. */
export function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

const NUMERIC_VIEWS = [Float64Array, Float32Array, Uint32Array, Int32Array, Uint16Array, Int16Array, Uint8Array, Int8Array, Uint8ClampedArray];

/** A numeric array as a Float64Array (no copy for a Float64Array); TypeError for anything else. */
export function histogram(value, name) {
  attached(value, name);
  if (value instanceof Float64Array) return value;
  if (NUMERIC_VIEWS.some((View) => value instanceof View)) return Float64Array.from(value);
  if (!Array.isArray(value)) {
    throw new TypeError(`${name} must be an array of numbers or a numeric typed array, got ${describe(value)}`);
  }
  return numbersInto(value, name, new Float64Array(value.length), 0);
}

/**
 * A typed array whose buffer was transferred (postMessage, structuredClone) reads as empty, and copying from it
 * throws the engine's TypeError, which names no parameter: say which argument it is. Only an empty view can be
 * detached, and only a detached buffer refuses a new view.
 */
function attached(value, name) {
  if (!ArrayBuffer.isView(value) || value.byteLength !== 0) return;
  try {
    new Uint8Array(value.buffer);
  } catch {
    throw new TypeError(`${name} is a typed array whose buffer has been detached (transferred with postMessage or ` +
      'structuredClone): pass an array that is still attached, e.g. a copy made before the transfer');
  }
}

/** The entries of an array (numbers, else TypeError naming the first other one) into out from `at`. */
function numbersInto(value, name, out, at) {
  for (let i = 0; i < value.length; i += 1) {
    const entry = value[i]; // read once: a getter's second answer could differ from its first
    if (typeof entry !== 'number') throw new TypeError(`${name}[${i}] is ${describe(entry)}: entries must be numbers`);
    out[at + i] = entry;
  }
  return out;
}

export function number(value, name) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  return value;
}

export function text(value, name) {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${describe(value)}`);
  return value;
}

export function plainObject(value, name) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${name} must be an object, got ${describe(value)}`);
  }
  return value;
}

export function publicOptions(options) {
  const out = {};
  for (const [key, value] of Object.entries(options)) out[key] = ArrayBuffer.isView(value) ? Object.freeze(Array.from(value)) : value;
  return Object.freeze(out);
}

// ---- errors from the core -------------------------------------------------------------------------------------
// The core never throws across the WebAssembly boundary (bindings/wasm/guard.hpp): a failed call returns NaN (the
// C functions) or undefined (the research module's Embind functions) and leaves {kind, message} in the module's
// slot, read through abi.takeError() and thrown here, after the C++ side has fully unwound.

const CONSTRUCTORS = { RangeError, TypeError, Error };
const NUMBER_TOKEN = /\x1b([0-9a-f]{16})/g;
const bitsView = new DataView(new ArrayBuffer(8));

// The module writes numbers in messages (and in the words of its results: an estimate's assumption, caveat and
// warnings) as ESC + 16 hex digits of their bits; JS's own Number → String is the shortest round-trip form the native
// core writes (core/base/numeric.cpp).
export function formatNumbers(message) {
  return message.replace(NUMBER_TOKEN, (_, hex) => {
    bitsView.setBigUint64(0, BigInt(`0x${hex}`));
    return String(bitsView.getFloat64(0));
  });
}

/** The value of a module call, or the core's error thrown as a JS error. */
export function checked(abi, result) {
  if (result !== undefined) return result;
  const error = abi.takeError();
  if (error === null) return result;
  throw new CONSTRUCTORS[error.kind](formatNumbers(error.message));
}

/** The same for the calls that return a number and signal an error by NaN. */
export function checkedNumber(abi, result) {
  if (!Number.isNaN(result)) return result;
  const error = abi.takeError();
  if (error === null) return result;
  throw new CONSTRUCTORS[error.kind](formatNumbers(error.message));
}

// ---- the finite API (both entries) ----------------------------------------------------------------------------
// Over the C functions of bindings/wasm/client.cpp (abi.mjs): names go in as UTF-8 text, arrays are copied into the
// module's buffers, outputs are copied out of the heap (no view escapes).

/**
 * The registry of mechanisms and options (core/mechanisms/registry.hpp) as the module exports it, frozen all the way
 * down: JSON.parse calls the reviver on every value, innermost first (freezing a string or number does nothing).
 */
export function readRegistry(abi) {
  return JSON.parse(abi.readText(abi.fn.ps_registry_json()), (key, value) => Object.freeze(value));
}

/**
 * Converts each option to its registry kind (number, text, or numeric array → Float64Array) and rejects unknown keys;
 * which options a mechanism needs, and their values, are checked by the core against the same registry.
 */
export function mechanismOptions(options, registry) {
  const given = plainObject(options, 'options');
  const out = {};
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const spec = registry.options.find((option) => option.name === key);
    if (spec === undefined) {
      throw new RangeError(`option '${key}' is unknown (known options: ${registry.options.map((o) => o.name).join(', ')})`);
    }
    if (spec.kind === 'number') out[key] = number(value, `options.${key}`);
    else if (spec.kind === 'text') out[key] = text(value, `options.${key}`);
    else out[key] = histogram(value, `options.${key}`);
  }
  return out;
}

/**
 * The finite-space API over a module's client functions (abi.mjs). Returns the public object's members,
 * handleOf(sampler) (the heap address of its C++ sampler) for the research entry, and the abi.
 */
export function makeFiniteApi(abi) {
  const { fn } = abi;
  const registry = readRegistry(abi);
  const mechanisms = Object.freeze(registry.mechanisms.filter((m) => m.space === 'finite').map((m) => m.name));
  const handles = new WeakMap();
  // A sampler forgotten without dispose() is released when the garbage collector reclaims it.
  const release = new FinalizationRegistry((handle) => fn.ps_delete(0, handle));
  const textOf = (value) => checkedNumber(abi, writeText(abi, value));

  function toArray(slot, values) {
    const at = checkedNumber(abi, fn.ps_stage(slot, values.length)) / 8;
    abi.doubles().set(values, at); // a fresh view after ps_stage: the heap may have grown
  }

  let inputs = 0; // toInput's calls so far
  // Copies a histogram into the sampler's input buffer on the WebAssembly heap; returns its length. `kept` holds the
  // buffer's place while its length stays the same (the module reallocates it only for another length), so a call
  // with the same k as the last one copies in without asking the module.
  function toInput(handle, hist, kept) {
    const call = ++inputs;
    // an array's entries are checked as they are copied in (no Float64Array made for them)
    const values = Array.isArray(hist) ? hist : histogram(hist, 'hist');
    if (values.length !== kept.length || values.length === 0) {
      kept.at = checkedNumber(abi, fn.ps_input(handle, values.length)) / 8;
      kept.length = values.length;
    }
    if (!Array.isArray(values)) return abi.doubles().set(values, kept.at), values.length;
    const view = abi.doubles();
    numbersInto(values, 'hist', view, kept.at);
    // Reading an entry may run the caller's code (a getter, a Proxy). If that called in (the memory grew, and writes to
    // the old view were lost; or another input was copied in): the entries again, into an array of ours first.
    return call === inputs && view === abi.doubles() ? values.length : toInput(handle, histogram(values, 'hist'), kept);
  }

  // The options of the next ps_sampler_new or ps_oracle_new, one by one.
  function stageOptions(opts) {
    for (const [key, value] of Object.entries(opts)) {
      const keyLength = textOf(key);
      if (typeof value === 'number') {
        checkedNumber(abi, fn.ps_option(keyLength, 0, value));
      } else if (typeof value === 'string') {
        // the key and its value staged as one text, the key's keyLength bytes first
        checkedNumber(abi, fn.ps_option(keyLength, 2, textOf(key + value)));
      } else {
        toArray(0, value);
        checkedNumber(abi, fn.ps_option(keyLength, 1, 0));
      }
    }
  }

  function guaranteeOf(handle) {
    const [notion, ...fields] = abi.readText(checkedNumber(abi, fn.ps_guarantee(handle, -1))).split(' ');
    const out = { notion };
    fields.forEach((field, i) => {
      out[field] = checkedNumber(abi, fn.ps_guarantee(handle, i));
    });
    return Object.freeze(out);
  }

  // The frozen public object of a C++ handle: `members(live)` and the lifecycle. live() returns the handle until
  // dispose() (then throws TypeError `message`); dispose() frees the handle once (remove); an object forgotten without
  // dispose() is freed by `finalizer` when the garbage collector reclaims it. `members` must not hold getters (the
  // spread would read them once).
  function owning(handle, finalizer, remove, message, members) {
    let disposed = false;
    const live = () => {
      if (disposed) throw new TypeError(message);
      return handle;
    };
    const made = Object.freeze({
      ...members(live),
      get disposed() {
        return disposed;
      },
      dispose() {
        if (disposed) return;
        disposed = true;
        finalizer.unregister(made);
        remove(handle);
      },
      // `using` support where the engine has Symbol.dispose; elsewhere no such member (not a key 'undefined').
      ...(typeof Symbol.dispose === 'symbol' && {
        [Symbol.dispose]() {
          made.dispose();
        },
      }),
    });
    finalizer.register(made, handle, made);
    return { made, live };
  }

  function sampler(mechanism, options) {
    text(mechanism, 'mechanism');
    const opts = mechanismOptions(options, registry);
    stageOptions(opts);
    const handle = checkedNumber(abi, fn.ps_sampler_new(textOf(mechanism))); // freed by the module if it throws
    let guarantee;
    try {
      guarantee = guaranteeOf(handle);
    } catch (error) {
      fn.ps_delete(0, handle);
      throw error;
    }
    const kept = { at: 0, length: -1 }; // the sampler's input buffer (toInput)
    const message = `this '${mechanism}' sampler was disposed: make a new one with ps.sampler()`;
    const owned = owning(handle, release, (h) => fn.ps_delete(0, h), message, (live) => ({
      mechanism,
      options: publicOptions(opts),
      guarantee,
      distribution(hist) {
        const length = toInput(live(), hist, kept);
        const at = checkedNumber(abi, fn.ps_distribution(handle)) / 8;
        return abi.doubles().slice(at, at + length); // a copy: no view of the heap escapes
      },
      distributionInto(hist, out) {
        live();
        const values = histogram(hist, 'hist');
        if (!(out instanceof Float64Array)) throw new TypeError(`out must be a Float64Array, got ${describe(out)}`);
        attached(out, 'out');
        if (out.length !== values.length) {
          throw new TypeError(`out has ${out.length} entries but hist has ${values.length}: they must have the same length`);
        }
        const length = toInput(handle, values, kept);
        const at = checkedNumber(abi, fn.ps_distribution(handle)) / 8;
        out.set(abi.doubles().subarray(at, at + length)); // copied into the caller's array: no view escapes
        return out;
      },
      normaliser(hist) {
        toInput(live(), hist, kept);
        const r = checkedNumber(abi, fn.ps_normaliser(handle));
        return Number.isNaN(r) ? null : r; // NaN without an error: the mechanism has no normaliser
      },
      sample(hist) {
        toInput(live(), hist, kept);
        return checkedNumber(abi, fn.ps_sample(handle)) - 1; // the module returns index + 1 (ps_sample says why)
      },
      sampleMany(hist, n, sampleOptions) {
        const h = histogram(hist, 'hist');
        number(n, 'n');
        const { seed, ...rest } = plainObject(sampleOptions, 'options');
        const unknown = Object.keys(rest);
        if (unknown.length) throw new RangeError(`option '${unknown[0]}' is not supported by sampleMany (supported: seed)`);
        if (seed !== undefined) number(seed, 'options.seed');
        toInput(live(), h, kept);
        const seeded = seed !== undefined;
        const at = checkedNumber(abi, fn.ps_sample_many(handle, n, seeded ? 1 : 0, seeded ? seed : 0)) / 4;
        return abi.words().slice(at, at + n);
      },
      worstCaseRisk(f, k) {
        live();
        text(f, 'f');
        number(k, 'k');
        return checkedNumber(abi, fn.ps_divergence(handle, textOf(f), k));
      },
    }));
    handles.set(owned.made, owned.live);
    return owned.made;
  }

  const oracles = Object.freeze(registry.oracles.map((o) => o.name));
  const releaseOracle = new FinalizationRegistry((handle) => fn.ps_delete(1, handle));

  /** A frequency oracle (privsample.d.ts): encode(item) draws one report with the CSPRNG. */
  function oracle(name, options) {
    text(name, 'name');
    const opts = mechanismOptions(options, registry);
    stageOptions(opts);
    const handle = checkedNumber(abi, fn.ps_oracle_new(textOf(name)));
    const entry = registry.oracles.find((o) => o.name === name); // the core has accepted the name
    const message = `this '${name}' oracle was disposed: make a new one with ps.oracle()`;
    const parameters = {}; // the core's, by name: what a server needs to count the reports (privsample.d.ts)
    for (let i = 0, at; (at = fn.ps_oracle_parameter(handle, i, 0)) !== 0; i += 1) {
      parameters[abi.readText(at)] = fn.ps_oracle_parameter(handle, i, 1);
    }
    return owning(handle, releaseOracle, (h) => fn.ps_delete(1, h), message, (live) => ({
      name,
      options: publicOptions(opts),
      // every oracle states pure ε-LDP at options.epsilon over options.categories items, as the core accepted them
      guarantee: Object.freeze({ notion: entry.notion, epsilon: opts.epsilon }),
      categories: opts.categories,
      parameters: Object.freeze(parameters),
      report: entry.report,
      counts: entry.counts,
      encode(item) {
        number(item, 'item');
        const r = checkedNumber(abi, fn.ps_oracle_encode(live(), item));
        return entry.report === 'hex' ? abi.readText(r) : r;
      },
      encodeMany(items) {
        live();
        const values = histogram(items, 'items');
        toArray(0, values);
        const at = checkedNumber(abi, fn.ps_oracle_encode_many(handle));
        const n = values.length;
        if (entry.report !== 'hex') return abi.doubles().slice(at / 8, at / 8 + n); // a copy: no view escapes
        return abi.readTexts(at, n);
      },
    })).made;
  }

  function divergence(f, p, q) {
    text(f, 'f');
    const pp = histogram(p, 'p');
    const qq = histogram(q, 'q');
    if (pp.length !== qq.length) {
      throw new TypeError(`p has ${pp.length} entries but q has ${qq.length}: they must have the same length`);
    }
    toArray(0, pp);
    toArray(1, qq);
    return checkedNumber(abi, fn.ps_divergence(0, textOf(f), 0));
  }

  // Test hooks (not part of the API): heap bytes in use and the shadow-stack position, for the leak tests.
  const internals = Object.freeze({ heapInUse: () => fn.ps_heap_in_use(), stackPosition: () => fn.ps_stack_position() });

  return {
    api: {
      version: abi.readText(fn.ps_version()),
      maxCategories: fn.ps_max_categories(),
      mechanisms,
      oracles,
      registry,
      sampler,
      oracle,
      divergence,
      [Symbol.for('privsample.internals')]: internals,
    },
    /** The heap address of a sampler made by this API (for the research module's functions), or undefined. */
    handleOf: (s) => handles.get(s)?.(),
    abi,
  };
}

// ---- randomness -------------------------------------------------------------------------------------------------

/**
 * The platform CSPRNG, captured once when a module is loaded: a page script that replaces crypto.getRandomValues
 * afterwards does not reach the samplers.
 */
export function captureCsprng() {
  const source = globalThis.crypto;
  if (!source || typeof source.getRandomValues !== 'function') {
    throw new Error('privsample needs crypto.getRandomValues (Web Crypto): available in browsers, workers and Node >= 20');
  }
  const getRandomValues = source.getRandomValues;
  return (view) => {
    getRandomValues.call(source, view);
  };
}
