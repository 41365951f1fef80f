import { AmmPair } from '@dex/contracts';
import { type Address, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, RealTimeClock, startHarness, tempDataDir } from '../../../test-support/harness.js';
import { operator } from '../../../test-support/operator-cli.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new RealTimeClock() });
});

afterAll(async () => {
  await h?.close();
});

/** The operator CLI beside the running service, on its store and its devnet chain. */
const run = (...argv: string[]) => operator(h.services.store, h.clock, h.config.dataDir)(...argv);

interface PoolJson {
  id: number;
  pair: string;
  token0: string;
  token1: string;
  reserve0: string;
  reserve1: string;
  lpSupply: string;
}

const E6 = 10n ** 6n;
const E8 = 10n ** 8n;

function chain() {
  const { chain } = h.services;
  if (chain === null) throw new Error('settlement is off');
  return chain;
}

describe('operator CLI pools on the devnet chain', () => {
  it('creates an empty pool, and refuses it a second time', async () => {
    const created = await run('pool', 'create', 'WHBAR', 'USDC', '--json');
    expect(created).toMatchObject({ code: 0, err: '' });
    const pool = JSON.parse(created.out) as PoolJson;
    // WHBAR (0x...03e9) sorts before USDC (0x...03ea).
    expect(pool).toMatchObject({ id: 1, reserve0: '0', reserve1: '0', lpSupply: '0' });
    expect(pool.token0).toBe(getAddress('0x00000000000000000000000000000000000003e9'));
    const again = await run('pool', 'create', 'USDC', '0.0.1001');
    expect(again.code).toBe(1);
    expect(again.err).toBe(`creating the pool: the chain refused it with PairExists(${pool.pair})`);
  });

  it('adds liquidity from the issuer at the amounts given, whole units converted exactly', async () => {
    const added = await run('pool', 'add-liquidity', 'WHBAR', 'USDC', '400.5', '100.125', '--json');
    expect(added).toMatchObject({ code: 0, err: '' });
    const result = JSON.parse(added.out) as { amountA: string; amountB: string; liquidity: string; pool: PoolJson };
    expect(result).toMatchObject({ amountA: '40050000000', amountB: '100125000' });
    expect(result.pool).toMatchObject({ id: 1, reserve0: '40050000000', reserve1: '100125000' });
    // The first deposit mints sqrt(reserve0 * reserve1), less the 1000 units locked for good.
    expect(BigInt(result.pool.lpSupply)).toBe(2_002_500_000n);
    expect(result.liquidity).toBe(String(2_002_500_000n - 1_000n));
    const plain = await run('pool', 'add-liquidity', 'WHBAR', 'USDC', '4', '100');
    // At the pool's ratio, 4 WHBAR take 1 USDC of the 100 offered.
    expect(plain.out).toContain('added 4 WHBAR and 1 USDC for');
  });

  it('adds liquidity from a funded devnet account with --from, creating the pool; the account gets the LP tokens', async () => {
    const account = '0x00000000000000000000000000000000000a11ce';
    expect((await run('account', 'fund', '--account', account, '--amount', '50')).code).toBe(0);
    const added = await run('pool', 'add-liquidity', 'SAUCE', 'USDC', '20', '1', '--from', account, '--json');
    expect(added).toMatchObject({ code: 0, err: '' });
    const result = JSON.parse(added.out) as { provider: string; liquidity: string; pool: PoolJson };
    expect(result.provider).toBe(getAddress(account));
    expect(result.pool.id).toBe(2);
    const lp = await chain().public.readContract({
      address: result.pool.pair as Address,
      abi: AmmPair.abi,
      functionName: 'balanceOf',
      args: [getAddress(account)],
    });
    expect(lp).toBe(BigInt(result.liquidity));
    // It had 50 of each: more than that is refused by its token.
    const short = await run('pool', 'add-liquidity', 'SAUCE', 'USDC', '1000', '50', '--from', account);
    expect(short.code).toBe(1);
    expect(short.err).toContain('InsufficientBalance');
  });

  it('lists every pool with its reserves and LP supply, numbered from 1 as the data API numbers them', async () => {
    const listed = JSON.parse((await run('pool', 'list', '--json')).out) as PoolJson[];
    expect(listed.map((pool) => pool.id)).toEqual([1, 2]);
    expect(listed[0]).toMatchObject({ reserve0: String((4045n * E8) / 10n), reserve1: String(101_125_000n) });
    expect(listed[1]).toMatchObject({ reserve0: String(E6), reserve1: String(20n * E6) });
    const text = await run('pool', 'list');
    expect(text.out).toMatch(/^1\tWHBAR\/USDC\t0x[0-9a-fA-F]{40}\treserves 404.5 WHBAR \+ 101.125 USDC\tLP supply /m);
    expect(text.out).toMatch(/^2\tUSDC\/SAUCE\t/m);
  });

  it.each([
    [['create', 'WHBAR'], /two tokens/],
    [['create', 'WHBAR', 'WHBAR'], /two different tokens/],
    [['create', 'WHBAR', 'NOPE'], /tokenB: no token NOPE/],
    [['create', 'HBAR', 'USDC'], /tokenA: HBAR is the native coin, which a pool holds as its wrapped token/],
    [['add-liquidity', 'USDC', 'HBAR', '1', '1'], /tokenB: HBAR is the native coin/],
    [['add-liquidity', 'WHBAR', 'USDC', '1.123456789', '1'], /amountA must be a decimal amount.*8 decimal places/],
    [['add-liquidity', 'WHBAR', 'USDC', '1', '1e3'], /amountB must be a decimal amount/],
    [['add-liquidity', 'WHBAR', 'USDC', '0', '1'], /more than zero/],
    [['add-liquidity', 'WHBAR', 'USDC', '1', '1', '--from', '0.0.999999'], /no devnet account 0.0.999999/],
  ])('refuses pool %j (exit 2)', async (args, message) => {
    const refused = await run('pool', ...args);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(message);
  });

  it('says to start the service when no devnet chain runs on the data folder', async () => {
    const elsewhere = tempDataDir();
    try {
      const refused = await operator(h.services.store, h.clock, elsewhere.dir)('pool', 'list');
      expect(refused.code).toBe(2);
      expect(refused.err).toContain('start the service');
    } finally {
      elsewhere.remove();
    }
  });
});
