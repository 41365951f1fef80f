import { toDisplayAmount } from '@dex/core';
import { normaliseAccountId } from '../../../application/auth/trading-identity.js';
import type { AmmPool } from '../../../ports/devnet-amm.js';
import type { OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { UsageError, type Values } from '../operator-options.js';
import { connectAmm, describeAmount, rawAmount, symbolOf, tokensByAddress } from './amm-access.js';
import { findToken } from './token-reference.js';

/** LP tokens have 8 decimals (the pair contract's). */
const LP_DECIMALS = 8;

async function describePool(pool: AmmPool, io: OperatorIo): Promise<string> {
  const tokens = await tokensByAddress(io);
  return [
    pool.id,
    `${symbolOf(pool.token0, tokens)}/${symbolOf(pool.token1, tokens)}`,
    pool.pair,
    `reserves ${describeAmount(pool.reserve0, pool.token0, tokens)} + ${describeAmount(pool.reserve1, pool.token1, tokens)}`,
    `LP supply ${formatLp(pool.lpSupply)}`,
  ].join('\t');
}

const formatLp = (raw: bigint) => toDisplayAmount(raw, LP_DECIMALS);

/** The two registry tokens of `pool <action> <tokenA> <tokenB>`. */
async function tokenPair(operands: readonly string[], action: string, io: OperatorIo) {
  const [first, second] = operands;
  if (first === undefined || second === undefined) throw new UsageError(`pool ${action} needs two tokens (id or symbol)`);
  const tokens = await io.store.tokens.list();
  const a = findToken(tokens, first, 'tokenA');
  const b = findToken(tokens, second, 'tokenB');
  if (a.id === b.id) throw new UsageError('a pool needs two different tokens');
  return [a, b] as const;
}

/** The 0x address of `--from` (a devnet account's id, or a 0x address), or null for the issuer. */
async function provider(values: Values, io: OperatorIo): Promise<string | null> {
  if (values.from === undefined) return null;
  const account = normaliseAccountId(values.from);
  if (account === undefined) throw new UsageError('--from must be a ledger id (0.0.X) or a 0x address');
  if (account.startsWith('0x')) return account;
  const key = await io.store.accountKeys.get(account);
  if (key === undefined) throw new UsageError(`no devnet account ${account}`);
  return key.evmAddress;
}

export const poolCreateCommand: OperatorCommand = {
  group: 'pool',
  actions: ['create'],
  synopsis: ` <tokenA> <tokenB>
                       devnet chain: create the AMM pool of two tokens (id or symbol), empty`,
  async run({ operands, print }, io) {
    const [a, b] = await tokenPair(operands, 'create', io);
    const pool = await (await connectAmm(io)).createPool(a.evmAddress, b.evmAddress);
    print(pool, `created pool ${await describePool(pool, io)}`);
    return 0;
  },
};

export const poolAddLiquidityCommand: OperatorCommand = {
  group: 'pool',
  actions: ['add-liquidity'],
  synopsis: ` <tokenA> <tokenB> <amountA> <amountB> [--from <0.0.X|0x...>]
                       devnet chain: deposit at the pool's ratio (the first deposit sets it; a pool that
                       does not exist is created), amounts in whole units ("1.5"); from the devnet
                       account --from (its own tokens; it gets the LP tokens), else the issuer mints them`,
  async run({ operands, values, print }, io) {
    const [a, b] = await tokenPair(operands, 'add-liquidity', io);
    const amountA = rawAmount(operands[2], a.decimals, 'amountA');
    const amountB = rawAmount(operands[3], b.decimals, 'amountB');
    if (amountA === 0n || amountB === 0n) throw new UsageError('amountA and amountB must be more than zero');
    const from = await provider(values, io);
    const amm = await connectAmm(io);
    const added = await amm.addLiquidity({ tokenA: a.evmAddress, tokenB: b.evmAddress, amountA, amountB, from });
    const tokens = await tokensByAddress(io);
    print(
      added,
      `${added.provider} added ${describeAmount(added.amountA, a.evmAddress, tokens)} and ${describeAmount(added.amountB, b.evmAddress, tokens)} for ${formatLp(added.liquidity)} LP\npool ${await describePool(added.pool, io)}`,
    );
    return 0;
  },
};

export const poolListCommand: OperatorCommand = {
  group: 'pool',
  actions: ['list'],
  synopsis: '            devnet chain: every AMM pool (id, tokens, pair) with its reserves and LP supply',
  async run({ print }, io) {
    const pools = await (await connectAmm(io)).pools();
    const lines = await Promise.all(pools.map((pool) => describePool(pool, io)));
    print(pools, lines.join('\n'));
    return 0;
  },
};
