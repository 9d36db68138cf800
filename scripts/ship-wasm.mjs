// The shipped form of a linked WebAssembly module: build/wasm/privsample-*-glue.wasm (Emscripten's link) → what the
// package ships (scripts/bundle-client.mjs), and the same steps over a link that keeps function names
// (tests/wasm/draw-branches.test.mjs reads the draw path's branches in it).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

const WASM_FEATURES = ['simd', 'exception-handling', 'bulk-memory', 'sign-ext', 'mutable-globals', 'nontrapping-float-to-int'];

/** Writes to `shipped` the shipped form of the module linked at `glue`; keepNames: its name section too (-g). */
export function shipWasm(glue, shipped, { keepNames = false } = {}) {
  // A second run of binaryen over the linked module (Emscripten's link ran its -O2 once), at -Os, which inlines less
  // (clang has already inlined what the hot loops need): a smaller client module, the same code otherwise (binaryen
  // does not reassociate floating point) and the same speed (bench/README.md).
  // wasm-opt comes with Emscripten (Debian's binaryen). The features are the ones the link enabled; one missing fails
  // validation here.
  // Before it, the exports the loader does not call are dropped (Emscripten's glue wanted malloc, the stack functions,
  // setThrew, dynCall_*), so that binaryen drops the code only they reached (and the setTempRet0 import dynCall_ji
  // needed).
  const kept = shipped.replace(/\.wasm$/, '-kept.wasm');
  writeFileSync(kept, withExports(readFileSync(glue), (e) => e === 'memory' || e === '__wasm_call_ctors' || e.startsWith('ps_')));
  // --low-memory-unused as Emscripten's own pass says it (nothing lives below its GLOBAL_BASE, 1024): constant
  // offsets fold into loads and stores.
  const names = keepNames ? ['-g'] : [];
  execFileSync('wasm-opt', ['-Os', '--low-memory-unused', ...names, ...WASM_FEATURES.map((f) => `--enable-${f}`), kept, '-o', shipped], { stdio: 'inherit' });
  rmSync(kept);
  // binaryen splits the data into a segment per run of non-zero bytes (84 in the client), which saves raw bytes but
  // costs gzip ones (a header per segment, where zeros cost gzip almost nothing): segments less than 64 zero bytes
  // apart are joined again, the gaps written as the zeros that fresh memory holds there anyway.
  writeFileSync(shipped, withJoinedData(readFileSync(shipped), 64));
}

// Unsigned LEB128, as WebAssembly writes sizes, counts and indices.
function leb(n) {
  const out = [];
  do {
    out.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return Buffer.from(out);
}

// The module `bytes` with some sections rewritten: edit(id, reader, size) returns a section's new body, or null to keep
// it. The reader reads the section (size bytes) from its start: uleb(), bytes(n), byte(), at().
function withSections(bytes, edit) {
  let at = 8;
  const uleb = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  const reader = { uleb, byte: () => bytes[at++], bytes: (n) => bytes.subarray(at, (at += n)), at: () => at };
  const parts = [bytes.subarray(0, 8)];
  while (at < bytes.length) {
    const start = at;
    const id = bytes[at++];
    const end = uleb() + at;
    const body = edit(id, reader, end - at);
    parts.push(body ? Buffer.concat([Buffer.from([id]), leb(body.length), body]) : bytes.subarray(start, end));
    at = end;
  }
  return Buffer.concat(parts);
}

/** The body of the module's section `id` (10: the code), or null when it has none. */
export function sectionOf(bytes, id) {
  let found = null;
  withSections(bytes, (sectionId, r, size) => {
    if (sectionId === id) found = Buffer.from(r.bytes(size));
    return null;
  });
  return found;
}

// The module with only the exports whose names pass `keep`.
function withExports(bytes, keep) {
  return withSections(bytes, (id, r) => {
    if (id !== 7) return null;
    const entries = [];
    for (let count = r.uleb(); count > 0; count -= 1) {  // name, kind byte, index
      const from = r.at();
      const name = r.bytes(r.uleb()).toString();
      r.byte();
      r.uleb();
      if (keep(name)) entries.push(bytes.subarray(from, r.at()));
    }
    return Buffer.concat([leb(entries.length), ...entries]);
  });
}

// The module with its active data segments (memory 0, at i32.const offsets: what Emscripten writes) joined where
// fewer than `gap` bytes lie between two, the gap filled with zeros; the data count section says the new count.
function withJoinedData(bytes, gap) {
  const groups = [];
  const data = withSections(bytes, (id, r) => {
    if (id !== 11) return null;
    for (let count = r.uleb(); count > 0; count -= 1) {
      const flags = r.uleb();
      const opcode = r.byte();
      let offset = 0;
      let shift = 0;
      for (let byte = 0x80; byte & 0x80; shift += 7) {
        byte = r.byte();
        offset += (byte & 0x7f) * 2 ** shift;
      }
      if (flags !== 0 || opcode !== 0x41 || r.byte() !== 0x0b || offset >= 2 ** 30) {
        throw new Error('bundle-client: a data segment not at an i32.const offset of memory 0');
      }
      const segment = r.bytes(r.uleb());
      const last = groups.at(-1);
      if (last && offset >= last.end && offset - last.end < gap) {
        last.pieces.push(Buffer.alloc(offset - last.end), segment);
      } else {
        groups.push({ offset, end: offset, pieces: [segment] });
      }
      groups.at(-1).end = offset + segment.length;
    }
    return Buffer.concat([leb(groups.length), ...groups.flatMap((g) => {
      const joined = Buffer.concat(g.pieces);
      return [Buffer.from([0, 0x41]), sleb(g.offset), Buffer.from([0x0b]), leb(joined.length), joined];
    })]);
  });
  return withSections(data, (id) => (id === 12 ? leb(groups.length) : null));
}

// Signed LEB128 of a non-negative number.
function sleb(n) {
  const out = [];
  for (;;) {
    const low = n & 0x7f;
    n = Math.floor(n / 128);
    if (n === 0 && !(low & 0x40)) return Buffer.from([...out, low]);
    out.push(low | 0x80);
  }
}
