// Where a module's WebAssembly comes from: the caller's `wasm` option (URL, Response, bytes or a compiled
// WebAssembly.Module), else the package's own .wasm file next to the glue.

function isBytes(value) {
  return value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

async function compileResponse(response, what) {
  if (!response.ok) throw new Error(`privsample: could not load the WebAssembly from ${what}: HTTP ${response.status}`);
  if (typeof WebAssembly.compileStreaming === 'function' && response.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** A compiled WebAssembly.Module from the `wasm` option of init(). */
export async function compileWasm(source, packaged) {
  if (source === undefined) return packaged();
  if (source instanceof WebAssembly.Module) return source;
  if (isBytes(source)) return WebAssembly.compile(source);
  if (typeof Response !== 'undefined' && source instanceof Response) return compileResponse(source, 'the given Response');
  if (typeof source === 'string' || source instanceof URL) {
    return compilePackaged(new URL(source, globalThis.location?.href ?? import.meta.url));
  }
  throw new TypeError(
    'options.wasm must be a URL (string or URL), a Response, the bytes (ArrayBuffer or typed array) or a WebAssembly.Module',
  );
}

// Node, Deno and Bun cannot fetch file: URLs; they read the file instead. The specifier is a variable so that
// bundlers for the browser leave it alone (this branch never runs there).
async function readLocalFile(url) {
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsModule);
  return readFile(url);
}

/**
 * The .wasm file at `url`: the package's own (a `new URL(…, import.meta.url)` that bundlers copy as an asset), or
 * the URL given as init's `wasm` option.
 */
export async function compilePackaged(url) {
  if (url.protocol === 'file:') return WebAssembly.compile(await readLocalFile(url));
  return compileResponse(await fetch(url), url.href);
}
