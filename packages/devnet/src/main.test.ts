import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanUpServiceProcesses, FROM_SOURCE, startServiceProcess, tempDataDir, until } from '@dex/server/test-support';
import { afterEach, describe, expect, it } from 'vitest';

/** `npm start` without the build: main.ts in a process of its own. */
const MAIN = new URL('./main.ts', import.meta.url);
const REPOSITORY = new URL('../../../', import.meta.url);
const OPERATOR_CLI = new URL('packages/server/src/composition/operator-main.ts', REPOSITORY);
const folders: (() => void)[] = [];

afterEach(() => {
  cleanUpServiceProcesses();
  for (const remove of folders.splice(0)) remove();
});

const startMain = (env: Record<string, string>) => startServiceProcess(MAIN, env);

/** Runs a Node program from the repository with the workspace's sources; resolves with its exit code and output. */
function runNode(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const options = { cwd: fileURLToPath(REPOSITORY), env: { ...process.env, ...env }, timeout: 60_000 };
    execFile(process.execPath, [...FROM_SOURCE, ...args], options, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, output: `${stdout}${stderr}` }),
    );
  });
}

/** The example script of the README: the code block after its `readme-example` marker. */
function readmeExample(): string {
  const readme = readFileSync(new URL('README.md', REPOSITORY), 'utf8');
  const marker = readme.indexOf('<!-- readme-example: trade.mjs -->');
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(marker));
  if (marker < 0 || block?.[1] === undefined) throw new Error('README.md has no example script after its marker');
  return block[1];
}

async function json<T>(url: string): Promise<T> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

interface Depth {
  bids: string[][];
  asks: string[][];
}

describe('npm start', () => {
  it('on the embedded devnet runs the market maker: every book gets depth and trades that settle, and no key reaches the log', async () => {
    const service = startMain({ MARKET_MAKER_INTERVAL_MS: '500' });
    const url = await service.url;
    for (const book of [1, 2, 3]) {
      await until(
        async () => {
          const depth = await json<Depth>(`${url}/depth/${book}`);
          return depth.bids.length > 0 && depth.asks.length > 0 ? depth : undefined;
        },
        `depth on book ${book}`,
        60_000,
        200,
      );
    }
    await until(
      async () => {
        const tapes = await Promise.all(
          [1, 2, 3].map((book) => json<{ trades: { transactionHash: string }[] }>(`${url}/trades/${book}`)),
        );
        return tapes.some((tape) => tape.trades.some((trade) => trade.transactionHash !== '')) ? true : undefined;
      },
      'a settled trade',
      60_000,
      200,
    );
    expect(await service.stop()).toBe(0);
    const output = service.output();
    expect(output).toMatch(/"market maker starting"/);
    // SIGTERM stopped the bot (cancelling its quotes) before the server closed.
    expect(output).toMatch(/"shutting down"/);
    expect(output.indexOf('"market maker stopped"')).toBeGreaterThan(output.indexOf('"shutting down"'));
    // The liquidity account seeded the pools beside the books.
    expect(output).toMatch(/"seeded the devnet pools and farms"/);
    for (const file of ['market-maker-maker.key', 'market-maker-taker.key', 'market-maker-liquidity.key']) {
      const key = readFileSync(join(service.dataDir, file), 'utf8').trim();
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(output).not.toContain(key);
    }
  }, 120_000);

  it('with MARKET_MAKER=false serves empty books: no bot, no bot accounts', async () => {
    const service = startMain({ MARKET_MAKER: 'false', CHAIN: 'off' });
    const url = await service.url;
    // Several refresh intervals of a bot that would have started.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (const book of [1, 2, 3]) expect(await json<Depth>(`${url}/depth/${book}`)).toMatchObject({ bids: [], asks: [] });
    expect(await service.stop()).toBe(0);
    expect(service.output()).not.toMatch(/market maker/);
    expect(existsSync(join(service.dataDir, 'market-maker-maker.key'))).toBe(false);
  }, 60_000);

  it("runs the README's example script as printed: it places, watches and cancels an order with a funded wallet", async () => {
    const example = readmeExample();
    expect(example.trimEnd().split('\n').length).toBeLessThan(30);
    const service = startMain({});
    const url = await service.url;
    const work = tempDataDir();
    folders.push(work.remove);
    // As the README says: the operator CLI makes a funded wallet while the service runs.
    const keyFile = join(work.dir, 'trader.key');
    const created = await runNode(
      [fileURLToPath(OPERATOR_CLI), 'account', 'create', '--key-type', 'secp256k1', '--key-file', keyFile],
      { DATA_DIR: service.dataDir },
    );
    expect(created).toMatchObject({ code: 0 });
    // The script imports @dex/sdk as an integrator's project would.
    mkdirSync(join(work.dir, 'node_modules', '@dex'), { recursive: true });
    symlinkSync(fileURLToPath(new URL('packages/sdk', REPOSITORY)), join(work.dir, 'node_modules', '@dex', 'sdk'));
    writeFileSync(join(work.dir, 'trade.mjs'), example);
    const { code, output } = await runNode([join(work.dir, 'trade.mjs')], { DEX_KEY_FILE: keyFile, DEX_API_URL: url });
    expect({ code, output }).toMatchObject({ code: 0 });
    const placed = /ORDER_CREATED order (\d+) ACTIVE/.exec(output);
    expect(placed).not.toBeNull();
    expect(output).toContain(`ORDER_CANCELED order ${placed?.[1]} CANCELED USER`);
    expect(output).toMatch(/best bid \[ '0\.\d+', '\d+(\.\d+)?' \] best ask \[ '0\.\d+'/);
    expect(output).not.toContain(readFileSync(keyFile, 'utf8').trim());
    expect(await service.stop()).toBe(0);
  }, 180_000);
});
