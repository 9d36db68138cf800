// The .d.ts types that list mechanisms, generated from the registry the WebAssembly modules export (one type list,
// core/mechanisms/list.hpp): MechanismName and OptionsByMechanism in bindings/js/privsample.d.ts, and
// ContinuousMechanismName and ContinuousOptionsByMechanism in bindings/js/research.d.ts. Each is written between two
// marker lines; the rest of each file is hand-written. tests/js/generated-types.test.mjs fails when a file is stale.
//   node scripts/generate-types.mjs           rewrite the generated parts (after scripts/build-wasm.sh)
//   node scripts/generate-types.mjs --check   exit 1 and name the stale file instead of writing
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BEGIN = '// ---- generated from the registry by scripts/generate-types.mjs: do not edit by hand ----';
export const END = '// ---- end of the generated part ----';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each space's names and file: the finite mechanisms in the default entry, the continuous ones in research. */
export const TARGETS = [
  {
    file: 'bindings/js/privsample.d.ts',
    space: 'finite',
    names: 'MechanismName',
    options: 'OptionsByMechanism',
    array: 'Histogram',
    intro: 'Mechanisms available in this version (each has its page, core/mechanisms/<name>/README.md)',
  },
  {
    file: 'bindings/js/research.d.ts',
    space: 'continuous',
    names: 'ContinuousMechanismName',
    options: 'ContinuousOptionsByMechanism',
    array: 'CellMasses',
    intro:
      'Continuous mechanisms, solved exactly on grid cells (a released point is a cell drawn from q, then a uniform\n' +
      ' * point inside it, so the ratio bound on cells is exactly the guarantee of the point)',
  },
];

const key = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);

/** How the options of a mechanism read in a sentence: "epsilon, prior, gamma", "epsilon [+ delta] or mu, c1?". */
function optionWords(m) {
  const notion = m.notion === 'ldp-from-options' ? 'epsilon [+ delta] or mu' : 'epsilon';
  const rest = m.required.filter((o) => o !== 'notion' && o !== 'epsilon');
  return [notion, ...rest, ...m.optional.map((o) => `${o}?`)].join(', ');
}

/** What a mechanism's notion rule promises, in words. */
const NOTION_WORDS = {
  'pure-ldp': 'pure ε-LDP',
  'ldp-from-options': 'pure ε-, (ε,δ)- or μ-Gaussian LDP, as the options say',
  'record-dp': 'ε-DP of each of the user\'s n records, not LDP of the whole histogram',
};

/** `text` as comment lines of at most 120 columns: the first after ` * - `, the others indented under it. */
function wrapped(text) {
  const lines = [];
  let line = ' * -';
  for (const word of text.split(' ')) {
    if (line.length + 1 + word.length > 120 && line.trim() !== '* -') {
      lines.push(line);
      line = ' *  ';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** The TypeScript type of a mechanism's options, from its registry entry. */
function optionsType(m, registry, array) {
  const option = (name) => registry.options.find((o) => o.name === name);
  const typeOf = (name) => {
    const { kind, values } = option(name) ?? {};
    if (kind === 'numbers') return array;
    if (kind === 'text') return values?.length ? values.map((v) => `'${v}'`).join(' | ') : 'string';
    return 'number';
  };
  const fields = [];
  if (m.notion !== 'ldp-from-options') fields.push('epsilon: number');
  for (const o of m.required) if (o !== 'notion' && o !== 'epsilon') fields.push(`${o}: ${typeOf(o)}`);
  for (const o of m.optional) fields.push(`${o}?: ${typeOf(o)}`);
  const object = fields.length ? `{ ${fields.join('; ')} }` : '';
  if (m.notion !== 'ldp-from-options') return object;
  return object ? `LinearNotionOptions & ${object}` : 'LinearNotionOptions';
}

/** The generated part of one target, without its marker lines. */
export function render(registry, target) {
  const mechanisms = registry.mechanisms.filter((m) => m.space === target.space);
  const lines = ['/**', ` * ${target.intro}:`];
  for (const m of mechanisms) {
    if (m.summary.includes('*/')) throw new Error(`the summary of '${m.name}' would end the comment`);
    const notion = NOTION_WORDS[m.notion] ?? m.notion;
    lines.push(...wrapped(`'${m.name}': ${m.summary}. Guarantee: ${notion}; options: ${optionWords(m)}.`));
  }
  lines.push(' */', `export type ${target.names} =`);
  mechanisms.forEach((m, i) => lines.push(`  | '${m.name}'${i === mechanisms.length - 1 ? ';' : ''}`));
  lines.push(
    '',
    "/** The options each mechanism takes (required ones without '?'); unknown or unsupported options throw " +
      'RangeError. */',
    `export interface ${target.options} {`,
  );
  for (const m of mechanisms) lines.push(`  ${key(m.name)}: ${optionsType(m, registry, target.array)};`);
  lines.push('}');
  return lines.join('\n');
}

/** The file's text with its generated part replaced (throws if the markers are missing). */
export function withGenerated(text, generated, file) {
  const begin = text.indexOf(`${BEGIN}\n`);
  const end = text.indexOf(`${END}\n`);
  if (begin < 0 || end < begin) throw new Error(`${file}: the markers of the generated part are missing`);
  return `${text.slice(0, begin + BEGIN.length + 1)}${generated}\n${text.slice(end)}`;
}

/** Every target's path, its text now and the text it should have. */
export async function targets() {
  const { init } = await import('../bindings/js/research.mjs');
  const { registry } = await init();
  return TARGETS.map((target) => {
    const path = `${root}${target.file}`;
    const text = readFileSync(path, 'utf8');
    return { file: target.file, path, text, wanted: withGenerated(text, render(registry, target), target.file) };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const { file, path, text, wanted } of await targets()) {
    if (text === wanted) continue;
    stale += 1;
    if (check) console.error(`${file} is stale: run node scripts/generate-types.mjs`);
    else writeFileSync(path, wanted);
  }
  if (check && stale) process.exit(1);
}
