import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUpServiceProcesses, startServiceProcess } from '../test-support/service-process.js';

/** The server's own process entry, run from source. */
const MAIN = new URL('./main.ts', import.meta.url);

afterEach(cleanUpServiceProcesses);

describe("the server's main", () => {
  it('runs the service alone: no market maker even on the devnet, and SIGTERM stops it with exit code 0', async () => {
    const service = startServiceProcess(MAIN, { CHAIN: 'off', MARKET_MAKER_INTERVAL_MS: '100' });
    const url = await service.url;
    // Several refresh intervals of a bot that would have started.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const depth = (await (await fetch(`${url}/depth/1`)).json()) as { bids: unknown[]; asks: unknown[] };
    expect(depth).toMatchObject({ bids: [], asks: [] });
    expect(await service.stop()).toBe(0);
    expect(service.output()).toMatch(/"shutting down"/);
    expect(service.output()).not.toMatch(/market maker/);
    expect(existsSync(join(service.dataDir, 'market-maker-maker.key'))).toBe(false);
  }, 60_000);
});
