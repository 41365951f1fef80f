import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Farm } from '@dex/contracts';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, RealTimeClock, startHarness } from '../../../test-support/harness.js';
import { operator } from '../../../test-support/operator-cli.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new RealTimeClock() });
  // Two pools to farm: 0 WHBAR/USDC and 1 USDC/SAUCE.
  expect((await run('pool', 'add-liquidity', 'WHBAR', 'USDC', '400', '100')).code).toBe(0);
  expect((await run('pool', 'add-liquidity', 'SAUCE', 'USDC', '2000', '100')).code).toBe(0);
});

afterAll(async () => {
  await h?.close();
});

const run = (...argv: string[]) => operator(h.services.store, h.clock, h.config.dataDir)(...argv);

interface FarmJson {
  saucePerSecond: string;
  nativePerSecond: string;
  totalAllocPoint: string;
  pools: { pid: number; lpToken: string; allocPoint: string; totalStaked: string }[];
}

const farmList = async () => JSON.parse((await run('farm', 'list', '--json')).out) as FarmJson;
const pairs = async () => (JSON.parse((await run('pool', 'list', '--json')).out) as { pair: string }[]).map((pool) => pool.pair);

function farm() {
  const amm = h.services.settlement?.chain.amm;
  if (!amm) throw new Error('no AMM');
  return amm.farm;
}

describe('operator CLI farm on the devnet chain', () => {
  it('starts with no pools and no emissions', async () => {
    expect(await farmList()).toMatchObject({ saucePerSecond: '0', nativePerSecond: '0', totalAllocPoint: '0', pools: [] });
  });

  it('adds farm pools by pool id or LP token address, and refuses one twice', async () => {
    const [first, second] = await pairs();
    const byId = await run('farm', 'add', '0', '2', '--json');
    expect(byId).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(byId.out)).toEqual({ pid: 0, lpToken: first, allocPoint: '2', totalStaked: '0' });
    const byAddress = await run('farm', 'add', String(second), '1');
    expect(byAddress).toMatchObject({ code: 0, err: '' });
    expect(byAddress.out).toMatch(/^added farm pool 1\tUSDC\/SAUCE LP\t0x[0-9a-fA-F]{40}\talloc 1\tstaked 0$/);
    const twice = await run('farm', 'add', '1', '3');
    expect(twice.code).toBe(1);
    expect(twice.err).toContain(`DuplicatePool(${second})`);
    expect((await farmList()).totalAllocPoint).toBe('3');
  });

  it("changes a pool's allocation points, and refuses a pool that does not exist", async () => {
    const set = await run('farm', 'set', '1', '5', '--json');
    expect(set.code).toBe(0);
    expect(JSON.parse(set.out)).toMatchObject({ pid: 1, allocPoint: '5' });
    expect((await farmList()).totalAllocPoint).toBe('7');
    const unknown = await run('farm', 'set', '9', '1');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('UnknownPool(9)');
  });

  it('sets the emissions from whole units a second, converted exactly to raw units', async () => {
    const set = await run('farm', 'emissions', '0.1', '0.001');
    expect(set).toMatchObject({ code: 0, err: '' });
    expect(set.out).toContain('raw 100000 and 1000000000000000');
    const reads = h.services.settlement?.chain.public;
    expect(await reads?.readContract({ address: farm(), abi: Farm.abi, functionName: 'saucePerSecond' })).toBe(100_000n);
    expect(await reads?.readContract({ address: farm(), abi: Farm.abi, functionName: 'nativePerSecond' })).toBe(10n ** 15n);
    const listed = await run('farm', 'list');
    expect(listed.out).toMatch(/^emissions 0.1 SAUCE\/s, 0.001 HBAR\/s; balance 0 HBAR; 7 allocation points$/m);
    expect(listed.out).toMatch(/^0\tWHBAR\/USDC LP\t0x[0-9a-fA-F]{40}\talloc 2\tstaked 0$/m);
  });

  it("funds the farm from the issuer, and refuses --key-file: the devnet's AMM is worked by its issuer", async () => {
    const funded = await run('farm', 'fund', '1.5');
    expect(funded).toMatchObject({ code: 0, err: '', out: 'sent 1.5 HBAR to the farm; it holds 1.5 HBAR' });
    const keyFile = join(h.config.dataDir, 'owner.key');
    writeFileSync(keyFile, generatePrivateKey(), { mode: 0o600 });
    expect(await run('farm', 'fund', '1', '--key-file', keyFile)).toMatchObject({
      code: 2,
      err: "--key-file is for a chain the service did not start: the devnet's AMM is worked by its issuer",
    });
  });

  it.each([
    [['emissions', '0.0000001', '0'], /saucePerSecond .*6 decimal places/],
    [['emissions', '1', '1,5'], /hbarPerSecond must be a decimal amount/],
    [['emissions', '1'], /hbarPerSecond is required/],
    [['add', '7', '1'], /no pool 7/],
    [['add', 'WHBAR', '1'], /pool id must be a whole number/],
    [['add', '0'], /allocPoint must be a whole number/],
    [['set', 'x', '1'], /pid must be a whole number/],
  ])('refuses farm %j (exit 2)', async (args, message) => {
    const refused = await run('farm', ...args);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(message);
  });
});
