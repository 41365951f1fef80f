import type { Static } from 'typebox';
import { AppError } from '../../errors.js';
import type { FarmStore, PoolRecord, PoolStore } from '../../store/pool-ports.js';
import type { TokenRecord } from '../../store/ports.js';
import { type MarketPrices, type PriceSnapshot, tinybarValue, usdValue } from './market-prices.js';
import { inverse, plus, type Ratio, ratio, times, ZERO } from './native-rates.js';
import type { Farm, FarmTotal, Pool } from './schemas.js';
import { fullView } from './token-catalogue.js';

export type PoolBody = Static<typeof Pool>;
export type FarmBody = Static<typeof Farm>;
export type FarmTotalBody = Static<typeof FarmTotal>;

const POOL_ID = /^[1-9][0-9]{0,14}$/;

/**
 * Tinybar held by a pool. A constant-product pool holds equal value on both sides, so a pool with
 * one priced token is worth twice that side; with none it counts nothing.
 */
export function poolValue(pool: PoolRecord, prices: PriceSnapshot): Ratio {
  const a = tinybarValue(prices, pool.tokenAId, pool.tokenReserveA);
  const b = tinybarValue(prices, pool.tokenBId, pool.tokenReserveB);
  if (a !== undefined && b !== undefined) return plus(a, b);
  const side = a ?? b;
  return side === undefined ? ZERO : times(side, { num: 2n, den: 1n });
}

/** The exchange's liquidity pools and farms as the store holds them (empty until the AMM issue fills them). */
export class PoolDirectory {
  constructor(
    private readonly pools: PoolStore,
    private readonly farms: FarmStore,
    private readonly tokens: () => readonly TokenRecord[],
    private readonly prices: MarketPrices,
  ) {}

  /** Every pool, or those whose two tokens are both on the known list. */
  async list(knownOnly = false): Promise<PoolBody[]> {
    const prices = await this.prices.now();
    const tokens = new Map(this.tokens().map((token) => [token.id, token]));
    const bodies: PoolBody[] = [];
    for (const pool of await this.pools.list()) {
      const body = this.view(pool, tokens, prices);
      if (body !== undefined && (!knownOnly || this.bothKnown(pool, tokens))) bodies.push(body);
    }
    return bodies;
  }

  async one(poolIdText: string): Promise<PoolBody> {
    const pool = POOL_ID.test(poolIdText) ? await this.pools.get(Number(poolIdText)) : undefined;
    const tokens = new Map(this.tokens().map((token) => [token.id, token]));
    const body = pool === undefined ? undefined : this.view(pool, tokens, await this.prices.now());
    if (body === undefined) throw new AppError('POOL_NOT_FOUND', `No pool ${poolIdText.slice(0, 64)}`);
    return body;
  }

  /** Tinybar locked in every pool. */
  async totalValue(prices: PriceSnapshot): Promise<Ratio> {
    return (await this.pools.list()).reduce((total, pool) => plus(total, poolValue(pool, prices)), ZERO);
  }

  async farmList(): Promise<FarmBody[]> {
    return (await this.farms.list()).map((farm) => ({
      id: farm.id,
      poolId: farm.poolId,
      sauceEmissions: farm.sauceEmissions.toString(),
      hbarEmissions: farm.hbarEmissions.toString(),
      totalStaked: farm.totalStaked.toString(),
    }));
  }

  /** An account's stake in each farm it is in. */
  async farmTotals(accountId: string): Promise<FarmTotalBody[]> {
    const farms = new Map((await this.farms.list()).map((farm) => [farm.id, farm]));
    return (await this.farms.stakesOf(accountId)).flatMap((stake) => {
      const farm = farms.get(stake.farmId);
      if (farm === undefined) return [];
      return [
        { farmId: stake.farmId, poolId: farm.poolId, accountId, timestamp: stake.updatedAt, staked: stake.staked.toString() },
      ];
    });
  }

  private bothKnown(pool: PoolRecord, tokens: ReadonlyMap<string, TokenRecord>): boolean {
    return tokens.get(pool.tokenAId)?.isKnown === true && tokens.get(pool.tokenBId)?.isKnown === true;
  }

  private view(pool: PoolRecord, tokens: ReadonlyMap<string, TokenRecord>, prices: PriceSnapshot): PoolBody | undefined {
    const lp = tokens.get(pool.lpTokenId);
    const a = tokens.get(pool.tokenAId);
    const b = tokens.get(pool.tokenBId);
    // The store's foreign keys guarantee the tokens; a registry that has not reloaded yet may lag.
    if (lp === undefined || a === undefined || b === undefined) return undefined;
    // USD per whole LP token: the pool's worth over the LP tokens in existence.
    const lpTokens = ratio(pool.lpTokenReserve, 10n ** BigInt(lp.decimals));
    const lpPriceUsd = pool.lpTokenReserve === 0n ? 0 : usdValue(prices, times(poolValue(pool, prices), inverse(lpTokens)));
    return {
      id: pool.id,
      contractId: pool.contractId,
      lpToken: { id: lp.id, name: lp.name, symbol: lp.symbol, decimals: lp.decimals, priceUsd: lpPriceUsd },
      lpTokenReserve: pool.lpTokenReserve.toString(),
      tokenA: fullView(a, prices),
      tokenReserveA: pool.tokenReserveA.toString(),
      tokenB: fullView(b, prices),
      tokenReserveB: pool.tokenReserveB.toString(),
    };
  }
}
