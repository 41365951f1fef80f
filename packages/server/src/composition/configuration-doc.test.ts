import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { codeSpans, REPOSITORY, readDoc, tableRowsOf } from '../test-support/markdown-doc.js';
import { loadConfig } from './config.js';
import type { Env } from './env-values.js';

/**
 * docs/configuration.md against the code: its tables list exactly the variables each program
 * reads (the service's config module, the cluster launcher, the trader CLI, the tests and the
 * benchmarks), and every plain default it states is the one the config module applies.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const CWD = '/srv/exchange';
const rows = tableRowsOf(readDoc('docs/configuration.md'));

/** The variable named in each row of the tables under a level-2 heading. */
function documented(section: string): string[] {
  return rows.filter((row) => row.section === section).map((row) => codeSpans(row.cells[0] ?? '')[0] ?? row.cells[0] ?? '');
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

/** The config module and the modules of its folder it imports, transitively. */
function configModules(): string[] {
  const found = new Set<string>();
  const visit = (file: string): void => {
    if (found.has(file)) return;
    found.add(file);
    for (const [, sibling] of readFileSync(join(HERE, file), 'utf8').matchAll(/from '\.\/([\w-]+)\.js'/g)) visit(`${sibling}.ts`);
  };
  visit('config.ts');
  return [...found];
}

const ENV_NAME = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/**
 * The variables the config modules name: `env.NAME`, and every string literal shaped like a
 * variable (`text(env, 'NAME', ...)`, and the names a module keeps in a table of its own).
 */
function namedByConfig(): string[] {
  const names: string[] = [];
  for (const file of configModules()) {
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) && ENV_NAME.test(node.text)) names.push(node.text);
      if (ts.isPropertyAccessExpression(node) && node.expression.getText() === 'env') names.push(node.name.text);
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile(file, readFileSync(join(HERE, file), 'utf8'), ts.ScriptTarget.Latest, true));
  }
  return sorted(names);
}

const TERMS = join(HERE, '../../terms');

/** Environments that between them take every branch of the config module that reads a variable. */
const VARIANTS: Readonly<Record<string, Env>> = {
  'the embedded devnet': {},
  'a testnet on a JSON-RPC chain, with Redis': {
    NETWORK: 'testnet',
    JWT_SECRET: 'k'.repeat(32),
    MIRROR_NODE_URL: 'https://mirror.example.org',
    CHAIN_RPC_URL: 'https://relay.example.org/api',
    OPERATOR_PRIVATE_KEY: `0x${'ab'.repeat(32)}`,
    REACTOR_ADDRESS: `0x${'11'.repeat(20)}`,
    TERMS_OF_SERVICE_FILE: join(TERMS, 'terms-of-service.placeholder.txt'),
    TERMS_OF_SERVICE_VERSION: '1',
    RISK_NOTICE_FILE: join(TERMS, 'risk-notice.placeholder.txt'),
    RISK_NOTICE_VERSION: '1',
    REDIS_URL: 'redis://127.0.0.1:6379',
  },
};

/** The variables loadConfig looks up in `env`, recorded as it runs. */
function readsOf(env: Env): Set<string> {
  const names = new Set<string>();
  const recording = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') names.add(name);
      return target[name as string];
    },
  });
  loadConfig(recording, CWD);
  return names;
}

/** Variables whose default cell is one plain value: `3000`, not "`250` devnet, `100` rpc". */
function plainDefaults(): [string, string][] {
  return rows
    .filter((row) => row.section === 'The service')
    .flatMap(({ cells: [name = '', fallback = ''] }) => {
      const [value] = codeSpans(fallback);
      return value !== undefined && fallback === `\`${value}\`` && !value.includes('<')
        ? [[codeSpans(name)[0] ?? name, value]]
        : [];
    }) as [string, string][];
}

/** Files of the repository whose path matches, from git (node_modules and builds left out). */
function tracked(pattern: RegExp): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: REPOSITORY, encoding: 'utf8' })
    .split('\n')
    .filter((file) => pattern.test(file));
}

function readsIn(files: readonly string[], read: RegExp): string[] {
  return sorted(
    files.flatMap((file) => [...readFileSync(join(REPOSITORY, file), 'utf8').matchAll(read)].map((match) => match[1] ?? '')),
  );
}

describe('docs/configuration.md', () => {
  const service = namedByConfig();

  it('is checked over environments that make the config module read every variable it names', () => {
    const read = sorted(Object.values(VARIANTS).flatMap((env) => [...readsOf(env)]));
    // A variable named here but read in none of the variants needs a variant that reaches its branch.
    expect(read).toEqual(service);
  });

  it('lists exactly the variables the service reads, each once', () => {
    const listed = documented('The service');
    expect(listed.length).toBe(new Set(listed).size);
    expect(sorted(listed)).toEqual(service);
  });

  it('states the defaults the config module applies', () => {
    const defaults = plainDefaults();
    expect(defaults.length).toBeGreaterThan(40);
    for (const [name, value] of defaults) {
      const base = Object.values(VARIANTS).find((env) => readsOf(env).has(name));
      expect(base, `no variant reads ${name}`).toBeDefined();
      expect(loadConfig({ ...base, [name]: value }, CWD), `${name}=${value}`).toEqual(loadConfig(base ?? {}, CWD));
    }
  });

  it('lists exactly what the cluster launcher reads', () => {
    const reads = readsIn(['packages/server/src/composition/cluster-main.ts'], /\benv\.([A-Z][A-Z0-9_]*)/g);
    expect(sorted(documented('npm run cluster'))).toEqual(reads);
  });

  it('lists exactly what the trader CLI reads', () => {
    const files = tracked(/^packages\/sdk\/src\/cli\/.*(?<!\.test)\.ts$/);
    expect(sorted(documented('dex-trade'))).toEqual(readsIn(files, /\benv\.([A-Z][A-Z0-9_]*)/g));
  });

  it("lists exactly what the tests and benchmarks read beyond the service's variables", () => {
    const files = tracked(
      /^(test|bench)\/.*\.ts$|^packages\/[^/]+\/(src\/(.*\.test\.ts|(.*\/)?test-support\/.*\.ts)|test\/.*\.ts)$/,
    );
    const reads = readsIn(files, /process\.env\.([A-Z][A-Z0-9_]*)/g).filter((name) => !service.includes(name));
    expect(sorted(documented('Tests and benchmarks'))).toEqual(reads);
  });
});
