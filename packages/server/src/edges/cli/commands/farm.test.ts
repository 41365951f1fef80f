import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { devnetClients, Farm } from '@dex/contracts';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDevnetRecord } from '../../../adapters/chain/devnet-record.js';
import { dataGet, type Harness, RealTimeClock, startHarness } from '../../../test-support/harness.js';
import { operator } from '../../../test-support/operator-cli.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet', DATA_API_AUTH: 'false', DATA_API_CACHE_MS: '0' }, { clock: new RealTimeClock() });
  // Two pools to farm: 1 WHBAR/USDC and 2 USDC/SAUCE.
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
  nativeBalance: string;
  pools: { pid: number; poolId: number | null; lpToken: string; allocPoint: string; totalStaked: string }[];
}

interface ListedPool {
  id: number;
  pair: string;
}

const farmList = async () => JSON.parse((await run('farm', 'list', '--json')).out) as FarmJson;
const pools = async () => JSON.parse((await run('pool', 'list', '--json')).out) as ListedPool[];

/** The ids of the pools as the data API answers them, by their two symbols ("USDC/WHBAR", sorted), once the indexer has recorded them. */
async function dataApiPoolIds(): Promise<Map<string, number>> {
  await h.services.settlement?.amm?.catchUp();
  const answer = await dataGet<{ id: number; tokenA: { symbol: string }; tokenB: { symbol: string } }[]>(h, '/pools');
  expect(answer.status).toBe(200);
  return new Map(answer.body.map((pool) => [[pool.tokenA.symbol, pool.tokenB.symbol].sort().join('/'), pool.id]));
}

/** The ids `pool list` prints, by their two symbols (sorted). */
async function printedPoolIds(): Promise<Map<string, number>> {
  const lines = (await run('pool', 'list')).out.split('\n');
  return new Map(
    lines.map((line) => {
      const [id = '', pair = ''] = line.split('\t');
      return [pair.split('/').sort().join('/'), Number(id)];
    }),
  );
}

function farm() {
  const amm = h.services.chain?.amm;
  if (!amm) throw new Error('no AMM');
  return amm.farm;
}

describe('operator CLI farm on the devnet chain', () => {
  it('starts with no pools and no emissions', async () => {
    expect(await farmList()).toMatchObject({ saucePerSecond: '0', nativePerSecond: '0', totalAllocPoint: '0', pools: [] });
  });

  it('numbers pools as the data API does: pool list prints for each pair the id /data/pools answers', async () => {
    const printed = await printedPoolIds();
    expect(printed).toEqual(
      new Map([
        ['USDC/WHBAR', 1],
        ['SAUCE/USDC', 2],
      ]),
    );
    expect(await dataApiPoolIds()).toEqual(printed);
  });

  it('adds farm pools by the pool id pool list prints or by LP token address, with the farm ids the data API shows, and refuses one twice', async () => {
    const [first, second] = await pools();
    const byId = await run('farm', 'add', String((await printedPoolIds()).get('USDC/WHBAR')), '2', '--json');
    expect(byId).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(byId.out)).toEqual({ pid: 0, poolId: 1, lpToken: first?.pair, allocPoint: '2', totalStaked: '0' });
    const byAddress = await run('farm', 'add', String(second?.pair), '1');
    expect(byAddress).toMatchObject({ code: 0, err: '' });
    expect(byAddress.out).toMatch(/^added farm pool 1\tpool 2 USDC\/SAUCE LP\t0x[0-9a-fA-F]{40}\talloc 1\tstaked 0$/);
    const twice = await run('farm', 'add', '2', '3');
    expect(twice.code).toBe(1);
    expect(twice.err).toContain(`DuplicatePool(${second?.pair})`);
    expect((await farmList()).totalAllocPoint).toBe('3');
    await h.services.settlement?.amm?.catchUp();
    const farms = await dataGet<{ id: number; poolId: number }[]>(h, '/farms');
    expect(farms.body.map(({ id, poolId }) => ({ id, poolId }))).toEqual([
      { id: 0, poolId: 1 },
      { id: 1, poolId: 2 },
    ]);
    expect((await farmList()).pools.map(({ pid, poolId }) => ({ id: pid, poolId }))).toEqual([
      { id: 0, poolId: 1 },
      { id: 1, poolId: 2 },
    ]);
  });

  it("changes a farm pool's allocation points by its farm id", async () => {
    const set = await run('farm', 'set', '1', '5', '--json');
    expect(set.code).toBe(0);
    expect(JSON.parse(set.out)).toMatchObject({ pid: 1, poolId: 2, allocPoint: '5' });
    expect((await farmList()).totalAllocPoint).toBe('7');
  });

  it('takes HBAR rates in HBAR to 8 decimals, converted exactly to wei (10^10 to the tinybar)', async () => {
    const set = await run('farm', 'emissions', '0.1', '0.00000001');
    expect(set).toMatchObject({
      code: 0,
      err: '',
      out: 'farm emissions: 0.1 SAUCE and 0.00000001 HBAR a second (raw 100000 SAUCE units and 10000000000 wei)',
    });
    const reads = h.services.chain?.public;
    expect(await reads?.readContract({ address: farm(), abi: Farm.abi, functionName: 'nativePerSecond' })).toBe(10n ** 10n);
    expect((await run('farm', 'emissions', '0.1', '0.001')).code).toBe(0);
    expect(await reads?.readContract({ address: farm(), abi: Farm.abi, functionName: 'saucePerSecond' })).toBe(100_000n);
    expect(await reads?.readContract({ address: farm(), abi: Farm.abi, functionName: 'nativePerSecond' })).toBe(10n ** 15n);
    const listed = await run('farm', 'list');
    expect(listed.out).toMatch(/^emissions 0.1 SAUCE\/s, 0.001 HBAR\/s; balance 0 HBAR; 7 allocation points$/m);
    expect(listed.out).toMatch(/^0\tpool 1 WHBAR\/USDC LP\t0x[0-9a-fA-F]{40}\talloc 2\tstaked 0$/m);
  });

  it('refuses an HBAR amount with more than 8 decimals: there is nothing below the tinybar', async () => {
    const message =
      /must be a decimal amount such as 1.5 of HBAR, whose smallest unit is the tinybar \(0.00000001\): .* has more than 8 decimal places$/;
    const rate = await run('farm', 'emissions', '0.1', '0.000000001');
    expect(rate).toMatchObject({ code: 2, err: expect.stringMatching(message) });
    expect(rate.err).toMatch(/^hbarPerSecond /);
    const fund = await run('farm', 'fund', '1.000000001');
    expect(fund).toMatchObject({ code: 2, err: expect.stringMatching(message) });
    expect((await farmList()).nativeBalance).toBe('0');
  });

  it("funds the farm from the issuer, and refuses --key-file: the devnet's AMM is worked by its issuer", async () => {
    const funded = await run('farm', 'fund', '1.5');
    expect(funded).toMatchObject({ code: 0, err: '', out: 'sent 1.5 HBAR to the farm; it holds 1.5 HBAR' });
    expect((await farmList()).nativeBalance).toBe(String(15n * 10n ** 17n));
    const keyFile = join(h.config.dataDir, 'owner.key');
    writeFileSync(keyFile, generatePrivateKey(), { mode: 0o600 });
    expect(await run('farm', 'fund', '1', '--key-file', keyFile)).toMatchObject({
      code: 2,
      err: "--key-file is for a chain the service did not start: the devnet's AMM is worked by its issuer",
    });
  });

  it('shows the HBAR the farm holds in HBAR to 8 decimals, the wei below a tinybar left out', async () => {
    const record = readDevnetRecord(h.config.dataDir);
    if (record === null) throw new Error('no devnet chain record');
    // 151,234,567 tinybar and 8,999,999,999 wei more, as a transfer from any EVM account could leave it.
    const wei = 1_512_345_678_999_999_999n;
    await devnetClients(record.rpcUrl, record.chainId).test.setBalance({ address: farm(), value: wei });
    expect((await run('farm', 'list')).out).toMatch(/^emissions .* HBAR\/s; balance 1.51234567 HBAR; /m);
    expect((await farmList()).nativeBalance).toBe(String(wei));
  });

  it.each([
    [['emissions', '0.0000001', '0'], /saucePerSecond .*6 decimal places/],
    [['emissions', '1', '1,5'], /hbarPerSecond must be a decimal amount/],
    [['emissions', '1'], /hbarPerSecond is required/],
    [['add', '7', '1'], /^no pool 7: pool ids run from 1 to 2 \(pool list shows them\)$/],
    [['add', '0', '1'], /^no pool 0: pool ids run from 1 to 2 \(pool list shows them\)$/],
    [['add', 'WHBAR', '1'], /the pool id must be a whole number/],
    [['add', '1'], /allocPoint must be a whole number/],
    [['set', 'x', '1'], /the farm id must be a whole number/],
    [['set', '9', '1'], /^no farm 9: farm ids run from 0 to 1 \(farm list shows them\)$/],
  ])('refuses farm %j (exit 2)', async (args, message) => {
    const refused = await run('farm', ...args);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(message);
  });
});
