// The client functions of a privsample WebAssembly module (bindings/wasm/client.cpp): plain C functions over
// numbers, heap addresses and UTF-8 text. Two ways to reach them — instantiate the client module directly (no
// Emscripten glue: it needs only the four imports below), or take them from the research module's Emscripten
// glue — and one object over them for common.mjs. Glue only: copies in and out, no rules.

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const ERROR_KINDS = ['', 'RangeError', 'TypeError', 'Error'];

/**
 * The ABI object over `fn` (the ps_* functions by name) and `buffer()` (the current heap ArrayBuffer; it changes
 * when the heap grows, so callers ask for a view on every use and never keep one).
 */
function makeAbi(fn, buffer) {
  // A view of the current heap, remade only after the heap grew (a grown memory has a new ArrayBuffer).
  const view = (Type) => {
    let current = null;
    return () => {
      const heap = buffer();
      if (current === null || current.buffer !== heap) current = new Type(heap);
      return current;
    };
  };
  const abi = {
    fn,
    bytes: view(Uint8Array),
    doubles: view(Float64Array),
    words: view(Uint32Array),
    /** The NUL-terminated UTF-8 text at `at`. */
    readText(at) {
      const bytes = abi.bytes();
      return decoder.decode(bytes.subarray(at, bytes.indexOf(0, at)));
    },
    /**
     * The `count` texts of equal length, concatenated and NUL-terminated at `at`, decoded about 2^28 characters at a
     * time: all of them together can exceed the engine's longest string (2^29 − 24 characters in V8).
     */
    readTexts(at, count) {
      const bytes = abi.bytes();
      const width = count && (bytes.indexOf(0, at) - at) / count;
      const perChunk = Math.ceil(2 ** 28 / width);
      let chunk = '';
      return Array.from({ length: count }, (_, i) => {
        const j = i % perChunk;
        if (j === 0) chunk = decoder.decode(bytes.subarray(at + i * width, at + Math.min(i + perChunk, count) * width));
        return chunk.slice(j * width, (j + 1) * width);
      });
    },
    /** {kind: 'RangeError' | 'TypeError' | 'Error', message} of the pending error, cleared; null when none. */
    takeError() {
      const kind = fn.ps_error_kind();
      if (kind === 0) return null;
      const message = abi.readText(fn.ps_error_message());
      fn.ps_error_clear();
      return { kind: ERROR_KINDS[kind], message };
    },
  };
  return abi;
}

/** Writes `value` into the module's text buffer; returns its length in bytes (NaN: an error is pending). */
export function writeText(abi, value) {
  const encoded = encoder.encode(value);
  const at = abi.fn.ps_stage(2, encoded.length);
  if (Number.isNaN(at)) return at;
  abi.bytes().set(encoded, at);
  return encoded.length;
}

/**
 * Instantiates the client module (a compiled WebAssembly.Module). Its imports: the CSPRNG the wrapper captured,
 * heap growth up to the module's 2 GiB maximum, a large memcpy and abort (a trap in the core, never a bad input).
 */
export async function instantiateClient(compiled, privsampleRandom) {
  let memory = null;
  const env = {
    fill_with_captured_crypto: (at, length) => privsampleRandom(new Uint8Array(memory.buffer, at, length)),
    emscripten_memcpy_big: (to, from, length) => {
      new Uint8Array(memory.buffer).copyWithin(to, from, from + length);
    },
    emscripten_resize_heap(requested) {
      const size = memory.buffer.byteLength;
      const target = Math.min(2 ** 31, Math.max(requested >>> 0, Math.ceil((size * 1.2) / 65536) * 65536));
      if ((requested >>> 0) > 2 ** 31) return 0;
      try {
        memory.grow(Math.ceil((target - size) / 65536));
        return 1;
      } catch {
        return 0;
      }
    },
    abort() {
      throw new WebAssembly.RuntimeError('privsample: the WebAssembly module aborted');
    },
  };
  const needed = WebAssembly.Module.imports(compiled).filter((i) => !(i.module === 'env' && i.name in env));
  if (needed.length) {
    throw new Error(`privsample: the client module needs imports this loader does not provide: ${needed.map((i) => `${i.module}.${i.name}`).join(', ')}`);
  }
  const instance = await WebAssembly.instantiate(compiled, { env });
  const { exports } = instance;
  memory = exports.memory;
  exports.__wasm_call_ctors?.();
  return makeAbi(exports, () => memory.buffer);
}

/** The ABI of a module built with Emscripten's glue (the research module): its exported `_ps_*` functions. */
export function glueAbi(module) {
  const fn = {};
  for (const key of Object.keys(module)) if (key.startsWith('_ps_')) fn[key.slice(1)] = module[key];
  return makeAbi(fn, () => module.HEAPU8.buffer);
}
