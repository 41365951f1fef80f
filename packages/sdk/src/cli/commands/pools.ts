import { formatDecimal } from '@dex/core';
import { getFarms } from '../../data/actions/get-farms.js';
import { getKnownPools } from '../../data/actions/get-known-pools.js';
import { getPools } from '../../data/actions/get-pools.js';
import type { Command } from '../command.js';
import { tableWithFooter } from '../output.js';

/** `SAUCE/USDC`: a pool's pair by its tokens' symbols. */
function pairOfPool(pool: { tokenA: { symbol: string }; tokenB: { symbol: string } }): string {
  return `${pool.tokenA.symbol}/${pool.tokenB.symbol}`;
}

export const poolsCommand: Command = {
  name: 'pools',
  synopsis: '[--known]',
  summary: 'the AMM pools (data API): pair, reserves, LP supply and LP token price',
  help: '  --known   only pools whose two tokens are both on the known list\n  The data API needs DEX_API_KEY (and DEX_DATA_API_URL when it is not under /data).',
  options: ['known'],
  arguments: [0, 0],
  async run(context) {
    const client = context.dataClient('pools');
    const { data } = await (context.values.known === true ? getKnownPools(client) : getPools(client));
    const rows = data.map((pool) => [
      String(pool.id),
      pairOfPool(pool),
      formatDecimal(BigInt(pool.tokenReserveA), pool.tokenA.decimals),
      formatDecimal(BigInt(pool.tokenReserveB), pool.tokenB.decimals),
      formatDecimal(BigInt(pool.lpTokenReserve), pool.lpToken.decimals),
      String(pool.lpToken.priceUsd),
      pool.contractId,
    ]);
    const columns = [
      { title: 'ID', align: 'right' },
      { title: 'PAIR', align: 'left' },
      { title: 'RESERVE A', align: 'decimal' },
      { title: 'RESERVE B', align: 'decimal' },
      { title: 'LP SUPPLY', align: 'decimal' },
      { title: 'LP USD', align: 'decimal' },
      { title: 'CONTRACT', align: 'left' },
    ] as const;
    context.print(data, tableWithFooter(columns, rows, data.length === 1 ? '1 pool' : `${data.length} pools`));
    return 0;
  },
};

export const farmsCommand: Command = {
  name: 'farms',
  synopsis: '',
  summary: 'the liquidity-mining farms (data API): pool, emissions per second, LP staked',
  help: '  The data API needs DEX_API_KEY (and DEX_DATA_API_URL when it is not under /data).',
  options: [],
  arguments: [0, 0],
  async run(context) {
    const client = context.dataClient('farms');
    const [{ data: farms }, { data: pools }] = await Promise.all([getFarms(client), getPools(client)]);
    const pairs = new Map(pools.map((pool) => [pool.id, pool]));
    const rows = farms.map((farm) => {
      const pool = pairs.get(farm.poolId);
      return [
        String(farm.id),
        String(farm.poolId),
        pool === undefined ? '-' : pairOfPool(pool),
        String(farm.sauceEmissions),
        String(farm.hbarEmissions),
        pool === undefined ? farm.totalStaked : formatDecimal(BigInt(farm.totalStaked), pool.lpToken.decimals),
      ];
    });
    const columns = [
      { title: 'ID', align: 'right' },
      { title: 'POOL', align: 'right' },
      { title: 'PAIR', align: 'left' },
      { title: 'SAUCE/S', align: 'decimal' },
      { title: 'HBAR/S', align: 'decimal' },
      { title: 'STAKED LP', align: 'decimal' },
    ] as const;
    context.print(farms, tableWithFooter(columns, rows, farms.length === 1 ? '1 farm' : `${farms.length} farms`));
    return 0;
  },
};
