// What an observer can time must not depend on the data (docs/draw-policy.md): the functions that take a private
// histogram to a released index are read, in the shipped client module, for their branches. A branch whose direction
// follows the data is a timing leak a branch predictor turns into a measurable one (three were found that way and
// removed: quantizing, the alias table's choice, its build; tests/js/draw-timing.test.mjs times them). Timing tests are
// statistical; this one is not: it pins the branches of each function as they were read.
//
// Every branch counted below was read in the disassembly and is decided by public parameters (k, ε, the plan's box, the
// number of draws), by random words that say nothing about the index released (a rejection, whose count is independent
// of the value it accepts; a coin's tie after 64 bits, probability 2^-64; buffer refills), by loop control, by the
// float-to-integer conversion guard, by the documented rescaling of masses beyond 2^±500 or a total that overflows, or
// by an error path (invalid input, allocation) — or it is an integer select, which engines compile without a branch. A
// branch on a random coin is not enough: draw_release_once branched on the plan's coin (a public probability), and its
// time then said whether the index came from the data part (tests/js/draw-timing.test.mjs). When a count here changes,
// a function on the draw path changed shape: print it (node tests/wasm/draw-branches.test.mjs --print '<name
// pattern>'), read its new branches, and update the count with what decides them. The oracles' encoders were read the
// same way (their item enters a branch only through a float-to-integer conversion guard, taken for every valid item).
//
// The module read is build/wasm-named/privsample-client-glue.wasm (scripts/test.sh links the client again with function
// names), shipped by the same steps as the package's module (scripts/ship-wasm.mjs, names kept); its code must be byte
// for byte the shipped build/wasm/privsample-client.wasm's.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';
import { sectionOf, shipWasm } from '../../scripts/ship-wasm.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const NAMED_GLUE = `${root}build/wasm-named/privsample-client-glue.wasm`;
const SHIPPED = `${root}build/wasm/privsample-client.wasm`;

// name pattern → the branches it was read with: `if`, `br_if` (a conditional exit or loop back edge) and `select`; and,
// where there are any, what V8 makes branches of although WebAssembly has none there, on x86-64: `f64Select` (a select
// on doubles), `minMax` (f64.min and f64.max: a compare and jumps) and `toUnsigned` (a double converted to an unsigned
// 64-bit integer: a branch on whether it reaches 2^63). None of these follows the data except where said.
// quantize_units converted each atom's share of 2^63 unsigned, and a point mass's atom (2^63) took the branch at its
// own place in the loop: its release's time said where the mass was, beyond the index released
// (tests/js/draw-timing.test.mjs); the scan chose the largest count and the compensated total's error term by selects
// on doubles, which follow where the mass lies; the fixed schedule chose its case, the root's clamps and Case B's
// share by such selects and branches (a spread histogram's release took 13 ns longer than a point mass's at k = 2).
const DRAW_PATH = {
  // sample(): the histogram's scan (its select on doubles: whether zeros are allowed, public; the last entries' split
  // into ordinary and small counts by integer selects; each total's lanes gathered, a sum that is not finite once
  // per lane — the ordinary counts' overflow, documented; the small counts' total never is), the data part's target,
  // its units, one draw over them
  '^privsample::\\(anonymous namespace\\)::scanned\\(': { if: 7, br_if: 6, select: 13, f64Select: 1 },
  '^privsample::normalized_pmf_into\\(': { if: 1, br_if: 0, select: 0 },
  // its pass: a total that overflows (summed again: documented), loop control and guards (k: the f64x2 pairs, the
  // last entry); once per call, the rule's constants made from bit patterns (integer selects: whether the histogram is
  // rescaled, the shift's clamps, whether the least count is subnormal, whether every count is kept: a prior's — each
  // was a branch or a select on doubles, taken by extreme magnitudes alone); per entry of the overflow's sum and the
  // last entry HistogramScale's masks (integer selects) and the last entry's clamp (the pairs choose by lane masks;
  // its two selects on doubles are taken only if rounding leaves the mixture's box)
  'divide_by_total\\(': { if: 5, br_if: 3, select: 38, f64Select: 2 },
  // (its selects on doubles: the plan's shares, public)
  '^privsample::clip_data_target_into\\(': { if: 3, br_if: 3, select: 2, f64Select: 2 },
  '^privsample::quantize_units\\(': { if: 5, br_if: 6, select: 14 },
  '^privsample::draw_release_once\\(': { if: 1, br_if: 1, select: 1 },
  // the clip samplers' fixed schedule (sample() and sampleMany() solve by it): its 63 steps, its passes' loop control
  // and guards (k), the error paths (a bad input, a box that cannot hold 1) and the inputs it hands to the adaptive
  // search (masses spanning more than ~2^1000); its case and clamps are chosen by integer masks, as is whether the
  // floors fill the box (then every candidate is 1 and b is 0: integer selects on F̃(0), the box's alone)
  '^privsample::clip_solver::solve_in_fixed_steps\\(': { if: 3, br_if: 7, select: 19 },
  'clip_solver::\\(anonymous namespace\\)::value_in_fixed_order\\(': { if: 6, br_if: 3, select: 7 },
  // sampleMany(): the alias table's build and the draws
  '^privsample::AliasTable::AliasTable\\(': { if: 7, br_if: 7, select: 5 },
  'ReleaseDraws::many\\(': { if: 6, br_if: 2, select: 3 },
  // coins on a probability's bits (the plan's share, the record-level samplers' obscuring probability); their unsigned
  // conversions: the probability split into words (public), the rest of its expansion after a tie (probability 2^-64)
  '^privsample::FixedCostCoin::FixedCostCoin\\(double\\)': { if: 1, br_if: 0, select: 2, toUnsigned: 1 },
  '^privsample::FixedCostCoin::settle\\(': { if: 3, br_if: 1, select: 0, toUnsigned: 1 },
  '^privsample::bernoulli_fixed_cost\\(': { if: 1, br_if: 0, select: 0 },
  // the record-level samplers ('roo', 'ds-roo'): one release, many releases, DS-ROO's q for the least count (its
  // selects on doubles and f64.min/max follow that count: bench/draw-timing.mjs ds-roo measures the lookup)
  'reveal_or_obscure_draws.*\\$_0>::operator\\(\\)': { if: 1, br_if: 1, select: 1 },
  'reveal_or_obscure_draws.*\\$_1>::operator\\(\\)': { if: 2, br_if: 0, select: 3 },
  '^privsample::DsRooSampler::q_for\\(': { if: 13, br_if: 16, select: 10, f64Select: 3, minMax: 1 },
  // the random words
  '^privsample::BufferedBits::next_u64\\(': { if: 1, br_if: 0, select: 0 },
  // the frequency oracles' encoders, each inlined into the encoder's visit of its oracle (encode and encodeMany):
  // 'oue', 'olh', 'hadamard', 'subset-selection' (with open_gap inlined: its loop over words is entered and ended,
  // and a word told whole or short and first or not, by public counts; the item and the coin enter it only through
  // integer selects, its masks); 'olh''s unsigned conversions reduce its hash modulo its prime and its range, values
  // below 2^32
  ...Object.fromEntries([
    { if: 6, br_if: 4, select: 3 },
    { if: 4, br_if: 1, select: 3, toUnsigned: 2 },
    { if: 4, br_if: 1, select: 0 },
    { if: 11, br_if: 4, select: 7 },
  ].map((counts, i) => [`dispatcher<${i}ul>::__dispatch<.*BasicOracleEncoder<privsample::SecureRandom>::draw\\(`, counts])),
};

// Selects whose first value is a double (an f64 local or an f64 expression), f64.min/max, unsigned conversions: the
// counts that are not 0.
function v8Branches(text) {
  const types = {};
  for (const m of text.matchAll(/\((?:param|local) \$(\d+) (\w+)\)/g)) types[m[1]] = m[2];
  const lines = text.split('\n');
  let f64Select = 0;
  lines.forEach((line, i) => {
    if (line.trim() !== '(select' || i + 1 >= lines.length) return;
    const first = lines[i + 1].trim();
    const local = first.match(/^\((?:local\.get|local\.tee) \$(\d+)/);
    if ((local ? types[local[1]] : first.slice(1, 4)) === 'f64') f64Select += 1;
  });
  const counts = {
    f64Select,
    minMax: (text.match(/\(f64\.(?:min|max)\b/g) ?? []).length,
    toUnsigned: (text.match(/\(i64\.trunc(?:_sat)?_f64_u\b/g) ?? []).length,
  };
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}

// The shipped form of the named link, as text: { name, text } per function.
function namedFunctions() {
  const dir = mkdtempSync(join(tmpdir(), 'privsample-branches-'));
  try {
    const named = join(dir, 'client-named.wasm');
    shipWasm(NAMED_GLUE, named, { keepNames: true });
    const same = Buffer.compare(sectionOf(readFileSync(named), 10), sectionOf(readFileSync(SHIPPED), 10)) === 0;
    const quiet = { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] };  // its name-section warnings
    const wat = execFileSync('wasm-dis', [named], quiet).toString();
    const functions = wat.split('\n (func $').slice(1).map((text) => ({
      name: text.slice(0, text.search(/ \(|\n/)).replace(/\\([0-9a-f]{2})/g, (_, h) => String.fromCodePoint(`0x${h}`)),
      text,
    }));
    return { same, functions };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const branches = (text) => ({
  if: (text.match(/\(if\b/g) ?? []).length,
  br_if: (text.match(/\(br_if\b/g) ?? []).length,
  select: (text.match(/\(select\b/g) ?? []).length,
  ...v8Branches(text),
});

const printing = process.argv.indexOf('--print');
if (printing > 0) {
  const pattern = new RegExp(process.argv[printing + 1]);
  for (const f of namedFunctions().functions.filter((g) => pattern.test(g.name))) {
    console.log(`;; ${f.name}\n;; ${JSON.stringify(branches(f.text))}\n (func $${f.text}`);
  }
} else {
  const { same, functions } = namedFunctions();

  test('the module read with names is the shipped module: the same code, byte for byte', () => {
    assert.ok(same, `${NAMED_GLUE} shipped with names differs in code from ${SHIPPED}: rebuild both (scripts/test.sh)`);
  });

  test('every function on the draw path has the branches it was read with', () => {
    const changed = [];
    for (const [pattern, expected] of Object.entries(DRAW_PATH)) {
      const matching = functions.filter((f) => new RegExp(pattern).test(f.name));
      assert.equal(matching.length, 1, `${pattern} names ${matching.length} functions (renamed, inlined or split?)`);
      const found = branches(matching[0].text);
      if (JSON.stringify(found) !== JSON.stringify(expected)) {
        changed.push(`${pattern}: ${JSON.stringify(found)}, read with ${JSON.stringify(expected)}`);
      }
    }
    assert.deepEqual(changed, [], "a function on the draw path changed its branches: read them (this file's header)");
  });
}
