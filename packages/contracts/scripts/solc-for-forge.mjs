#!/usr/bin/env node
// The solc that forge runs (foundry.toml's `solc`): forge cannot download a compiler here, so this
// answers the two calls forge makes of a solc binary with the pinned npm `solc` (the wasm build
// compile.mjs uses, so forge and the artifacts compile alike):
//   --version          the banner whose last line forge parses, `Version: 0.8.30+commit....`
//   --standard-json    standard JSON in on stdin, standard JSON out on stdout
// forge also passes --base-path, --include-path and --allow-paths; imports are resolved against
// those folders, though forge already sends every source's content in the input.
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import solc from 'solc';

const args = process.argv.slice(2);

if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
  process.exit(0);
}

if (!args.includes('--standard-json')) {
  process.stderr.write('solc-for-forge: only --version and --standard-json are supported\n');
  process.exit(2);
}

/** The values given to a repeatable option such as `--include-path a --include-path b`. */
function optionValues(name) {
  const values = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name && i + 1 < args.length) values.push(args[i + 1]);
    else if (args[i]?.startsWith(`${name}=`)) values.push(args[i].slice(name.length + 1));
  }
  return values.flatMap((value) => value.split(','));
}

const basePath = optionValues('--base-path')[0] ?? process.cwd();
const roots = [basePath, ...optionValues('--include-path')].map((dir) => resolve(dir));
const allowed = [...roots, ...optionValues('--allow-paths').map((dir) => resolve(dir))];

/** Reads an import forge did not send, only from inside the folders forge allowed. */
function findImport(path) {
  const candidates = isAbsolute(path) ? [path] : roots.map((root) => join(root, path));
  for (const candidate of candidates) {
    const inside = allowed.some((dir) => {
      const rest = relative(dir, candidate);
      return rest === '' || !(rest.startsWith('..') || isAbsolute(rest));
    });
    if (!inside) continue;
    try {
      return { contents: readFileSync(candidate, 'utf8') };
    } catch {
      // not in this folder
    }
  }
  return { error: `File not found: ${path}` };
}

const input = readFileSync(0, 'utf8');
process.stdout.write(solc.compile(input, { import: findImport }));
