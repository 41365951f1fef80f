import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanUpServiceProcesses, startServiceProcess } from '@dex/server/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AddonDownload, serveBuiltAddon } from './addon-download.js';
import { readerScript, runnableBlocks } from './runnable-blocks.js';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
/** What `npm start` runs. */
const START = new URL('packages/devnet/dist/main.js', `file://${REPOSITORY}`);

/** The documents with runnable examples: the README first, then docs/ in name order. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(REPOSITORY, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]
  .map((path) => ({ path, blocks: runnableBlocks(readFileSync(join(REPOSITORY, path), 'utf8')) }))
  .filter((document) => document.blocks.length > 0);

interface Run {
  readonly code: number | null;
  readonly output: string;
}

function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, timeout: options.timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, output: `${stdout}${stderr}` }),
    );
  });
}

/**
 * A reader's shell: none of this repository's npm run context (its npm_* settings, its
 * node_modules/.bin on PATH), global installs going to `home`, the three variables the README
 * has the reader export before the quick start, and the better-sqlite3 download (addon-download.ts).
 * npm resolves from what its cache holds (`npm ci` of the clone has just fetched it) without
 * asking the registry for anything newer: the same commands, some seconds sooner.
 */
function readerEnvironment(home: string, apiUrl: string, addon: AddonDownload): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !/^(npm_|NODE_OPTIONS$|INIT_CWD$|VITEST)/i.test(name));
  const path = (process.env.PATH ?? '').split(delimiter).filter((folder) => !folder.includes('node_modules'));
  return {
    ...Object.fromEntries(inherited),
    PATH: [join(home, 'global', 'bin'), ...path].join(delimiter),
    npm_config_prefix: join(home, 'global'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_prefer_offline: 'true',
    XDG_STATE_HOME: join(home, 'state'),
    DEX_HOME: home,
    DATA_DIR: join(home, 'data'),
    DEX_API_URL: apiUrl,
    ...addon.env,
  };
}

describe('the runnable examples of the README and docs/', () => {
  let home = '';
  let env: NodeJS.ProcessEnv = {};
  let addon: AddonDownload | undefined;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'dex-reader-'));
    // As the README has the reader do in the clone: `npm start`, then `npm run pack`.
    const service = startServiceProcess(START, { DATA_DIR: join(home, 'data') });
    const packed = await run(process.execPath, [join(REPOSITORY, 'scripts', 'pack.mjs'), join(home, 'packs')], {
      cwd: REPOSITORY,
      env: process.env,
      timeoutMs: 300_000,
    });
    expect(packed, packed.output).toMatchObject({ code: 0 });
    addon = await serveBuiltAddon(REPOSITORY, home);
    env = readerEnvironment(home, await service.url, addon);
  }, 360_000);

  afterAll(() => {
    addon?.close();
    cleanUpServiceProcesses();
    rmSync(home, { recursive: true, force: true });
  });

  it('finds the quick start of the README among them', () => {
    expect(DOCUMENTS[0]?.path).toBe('README.md');
    expect(DOCUMENTS[0]?.blocks.some((block) => block.kind === 'file' && block.name === 'trade.mjs')).toBe(true);
  });

  // One after the other: the README installs the command-line tools the later documents use.
  for (const document of DOCUMENTS) {
    it(`${document.path}: every runnable block runs as printed, from a folder outside the repository`, async () => {
      const folder = join(home, 'reader', document.path.replaceAll('/', '-'));
      mkdirSync(folder, { recursive: true });
      const { code, output } = await run('bash', ['-c', readerScript(document.blocks)], { cwd: folder, env, timeoutMs: 600_000 });
      if (process.env.DOCS_TEST_VERBOSE) console.log(output);
      expect({ code, output }).toMatchObject({ code: 0 });
      expect(output).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/); // no JWT printed
      if (document.path === 'README.md') {
        const placed = /ORDER_CREATED order (\d+) ACTIVE/.exec(output);
        expect(placed, output).not.toBeNull();
        expect(output).toContain(`ORDER_CANCELED order ${placed?.[1]} CANCELED USER`);
      }
    }, 900_000);
  }
});
