import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanUpServiceProcesses, startServiceProcess, until } from '@dex/server/test-support';
import { afterEach, describe, expect, it } from 'vitest';

/** `npm start` without the build: main.ts in a process of its own. */
const MAIN = new URL('./main.ts', import.meta.url);

afterEach(() => cleanUpServiceProcesses());

const startMain = (env: Record<string, string>) => startServiceProcess(MAIN, env);

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
});
