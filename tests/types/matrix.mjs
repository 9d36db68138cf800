// The package's declarations under a matrix of compiler settings, without skipLibCheck: what a TypeScript user of
// privsample may have in their tsconfig.json. Each row compiles the consumer files of this folder (usage.mts; usage.cts
// under node16/nodenext; usage-dispose.mts where the lib declares Symbol.dispose) in a scratch project whose
// node_modules/privsample is the package under test.
//   node tests/types/matrix.mjs                  the working tree's package (its package.json exports and .d.ts)
//   node tests/types/matrix.mjs <app folder>     the package installed there (npm test: the packed tarball)
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const packageDir = process.argv[2] ? join(resolve(process.argv[2]), 'node_modules', 'privsample') : ROOT;
if (!existsSync(join(packageDir, 'package.json'))) throw new Error(`no package at ${packageDir}`);
// The package's declaration files, wherever its folder really is (the working tree also holds node_modules/@types).
const declarations = join(realpathSync(packageDir), 'bindings') + sep;

/** The settings: lib with and without DOM, @types/node or none, target es2020 and esnext, three resolutions. */
export const MATRIX = [];
for (const [target, lib, types] of [
  ['es2020', ['es2022'], []],
  ['es2020', ['es2022'], ['node']],
  ['es2020', ['es2022', 'dom'], []],
  ['esnext', ['esnext'], ['node']],
  ['esnext', ['esnext', 'dom'], []],
]) {
  for (const moduleResolution of ['bundler', 'node16', 'nodenext']) {
    const disposable = lib.includes('esnext') || types.includes('node');
    const files = ['usage.mts', ...(moduleResolution === 'bundler' ? [] : ['usage.cts']), ...(disposable ? ['usage-dispose.mts'] : [])];
    MATRIX.push({ target, lib, types, moduleResolution, module: moduleResolution === 'bundler' ? 'esnext' : moduleResolution, files });
  }
}

const label = (row) => `target ${row.target}, lib [${row.lib}], types [${row.types}], ${row.moduleResolution}: ${row.files.join(' ')}`;

// One process compiles every row (TypeScript's API), parsing each file once for all of them: a parsed file is reused
// for the same path and parse options (language version and module format, which the key holds).
const parsed = new Map();

function compile(row, index, scratch) {
  const dir = join(scratch, `row-${index}`);
  mkdirSync(join(dir, 'node_modules', '@types'), { recursive: true });
  symlinkSync(packageDir, join(dir, 'node_modules', 'privsample'), 'dir');
  // @types/node from the repository's devDependencies (its own dependency, undici-types, resolves from there).
  symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(dir, 'node_modules', '@types', 'node'), 'dir');
  for (const file of row.files) cpSync(join(HERE, file), join(dir, file));
  const compilerOptions = {
    target: row.target,
    lib: row.lib,
    types: row.types,
    module: row.module,
    moduleResolution: row.moduleResolution,
    strict: true,
    noEmit: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `types-row-${index}`, private: true }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: row.files }, null, 2));
  const config = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, ...rest) => {
    const key = `${fileName}|${JSON.stringify(version)}`;
    if (!parsed.has(key)) parsed.set(key, getSourceFile(fileName, version, ...rest));
    return parsed.get(key);
  };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host });
  // Every diagnostic of the package's declarations and the consumer files, and the program-wide ones; not those of
  // @types/node or TypeScript's libs (not ours: checking them all is most of a compile's time).
  const ours = program.getSourceFiles().filter((f) => f.fileName.startsWith(declarations) || f.fileName.startsWith(realpathSync(dir) + sep));
  const diagnostics = [
    ...config.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
  ];
  if (ours.filter((f) => f.fileName.startsWith(declarations)).length < 2) throw new Error(`row ${index}: the package's declarations were not read`);
  const output = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' });
  return { row, ok: diagnostics.length === 0, output: output.trim() };
}

const scratch = mkdtempSync(join(tmpdir(), 'privsample-types-'));
const started = Date.now();
try {
  const results = MATRIX.map((row, index) => compile(row, index, scratch));
  for (const { row, ok, output } of results) {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${label(row)}`);
    if (!ok) console.log(output.replaceAll(scratch, '<scratch>').replace(/^/gm, '     '));
  }
  const failed = results.filter((r) => !r.ok).length;
  console.log(`types: ${MATRIX.length - failed} of ${MATRIX.length} settings compile (${((Date.now() - started) / 1000).toFixed(1)} s, ${packageDir})`);
  if (failed) process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
