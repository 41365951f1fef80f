import { toDisplayAmount } from '@dex/core';
import { normaliseAccountId } from '../../../application/auth/trading-identity.js';
import { isNativeCoin } from '../../../domain/markets/market.js';
import type { AmmAdmin, AmmPool } from '../../../ports/amm-admin.js';
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
  const tokens = await io.markets.tokens();
  const a = findToken(tokens, first, 'tokenA');
  const b = findToken(tokens, second, 'tokenB');
  if (a.id === b.id) throw new UsageError('a pool needs two different tokens');
  // The native coin has no token contract (its address is zero): a pool holds its wrapped token.
  for (const [token, label] of [
    [a, 'tokenA'],
    [b, 'tokenB'],
  ] as const) {
    if (isNativeCoin(token)) {
      throw new UsageError(
        `${label}: ${token.symbol} is the native coin, which a pool holds as its wrapped token: name that token (WHBAR on the devnet)`,
      );
    }
  }
  return [a, b] as const;
}

/** The 0x address of `--from` (a devnet account's id, or a 0x address), or null for the sender itself. */
async function provider(values: Values, amm: AmmAdmin, io: OperatorIo): Promise<string | null> {
  if (values.from === undefined) return null;
  if (amm.sender.kind === 'key') {
    throw new UsageError(
      "--from: nothing can act for another account on a chain the service did not start (no impersonation); the liquidity comes from the --key-file holder's own balances",
    );
  }
  const account = normaliseAccountId(values.from);
  if (account === undefined) throw new UsageError('--from must be a ledger id (0.0.X) or a 0x address');
  if (account.startsWith('0x')) return account;
  const address = await io.accounts.evmAddressOf(account);
  if (address === undefined) throw new UsageError(`no devnet account ${account}`);
  return address;
}

export const poolCreateCommand: OperatorCommand = {
  group: 'pool',
  actions: ['create'],
  synopsis: ` <tokenA> <tokenB> [--key-file FILE]
                       create the AMM pool of two tokens (id or symbol), empty; --key-file: the AMM
                       owner's key, which sends it on a chain the service did not start (CHAIN=rpc)`,
  async run({ operands, values, print }, io) {
    const [a, b] = await tokenPair(operands, 'create', io);
    const pool = await (await connectAmm(io, values, 'pool create')).createPool(a.evmAddress, b.evmAddress);
    print(pool, `created pool ${await describePool(pool, io)}`);
    return 0;
  },
};

export const poolAddLiquidityCommand: OperatorCommand = {
  group: 'pool',
  actions: ['add-liquidity'],
  synopsis: ` <tokenA> <tokenB> <amountA> <amountB> [--from <0.0.X|0x...>] [--key-file FILE]
                       deposit at the pool's ratio (the first deposit sets it; a pool that does not
                       exist is created), amounts in whole units ("1.5"). Devnet chain: from the
                       account --from (its own tokens; it gets the LP tokens), else the issuer mints
                       them. CHAIN=rpc: from the --key-file holder's own balances, to it the LP tokens`,
  async run({ operands, values, print }, io) {
    const [a, b] = await tokenPair(operands, 'add-liquidity', io);
    const amountA = rawAmount(operands[2], a.decimals, 'amountA');
    const amountB = rawAmount(operands[3], b.decimals, 'amountB');
    if (amountA === 0n || amountB === 0n) throw new UsageError('amountA and amountB must be more than zero');
    const amm = await connectAmm(io, values, 'pool add-liquidity');
    const from = await provider(values, amm, io);
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
  synopsis: '            every AMM pool (id, tokens, pair) with its reserves and LP supply',
  async run({ values, print }, io) {
    const pools = await (await connectAmm(io, values, null)).pools();
    const lines = await Promise.all(pools.map((pool) => describePool(pool, io)));
    print(pools, lines.join('\n'));
    return 0;
  },
};
