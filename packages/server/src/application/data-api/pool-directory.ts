import { ledgerTimestamp } from '@dex/core';
import type { Farm, FarmTotal, Pool } from '@dex/protocol';
import type { Static } from 'typebox';
import { inverse, plus, type Ratio, ratio, TINYBAR_PER_COIN, times, toNumber, ZERO } from '../../domain/data-api/native-rates.js';
import { AppError } from '../../domain/errors.js';
import type { TokenRecord } from '../../domain/markets/market-records.js';
import type { FarmStore, PoolRecord, PoolStore } from '../../ports/store/pool-ports.js';
import { type MarketPrices, type PriceSnapshot, tinybarValue, usdValue } from './market-prices.js';
import { fullView } from './token-catalogue.js';

export type PoolBody = Static<typeof Pool>;
export type FarmBody = Static<typeof Farm>;
export type FarmTotalBody = Static<typeof FarmTotal>;

const POOL_ID = /^[1-9][0-9]{0,14}$/;

function notFound(poolIdText: string): AppError {
  return new AppError('POOL_NOT_FOUND', `No pool ${poolIdText.slice(0, 64)}`);
}

/**
 * Tinybar held on each side of a pool, A then B. A constant-product pool holds equal value on both
 * sides, so a priced side stands for an unpriced one; with neither priced both count nothing.
 */
function sideValues(pool: PoolRecord, prices: PriceSnapshot): [Ratio, Ratio] {
  const a = tinybarValue(prices, pool.tokenAId, pool.tokenReserveA);
  const b = tinybarValue(prices, pool.tokenBId, pool.tokenReserveB);
  return [a ?? b ?? ZERO, b ?? a ?? ZERO];
}

/** Tinybar held by a pool. */
export function poolValue(pool: PoolRecord, prices: PriceSnapshot): Ratio {
  const [a, b] = sideValues(pool, prices);
  return plus(a, b);
}

/** The exchange's liquidity pools and farms as the store holds them (empty until the AMM issue fills them). */
export class PoolDirectory {
  constructor(
    private readonly pools: PoolStore,
    private readonly farms: FarmStore,
    private readonly tokens: () => readonly TokenRecord[],
    private readonly prices: MarketPrices,
    private readonly protocolToken: () => TokenRecord | undefined,
  ) {}

  /** Every pool, or those whose two tokens are both on the known list. */
  list(knownOnly = false): Promise<PoolBody[]> {
    return this.listWhere((pool, tokens) => !knownOnly || this.bothKnown(pool, tokens));
  }

  /** The pools that hold a token. */
  holding(tokenId: string): Promise<PoolBody[]> {
    return this.listWhere((pool) => pool.tokenAId === tokenId || pool.tokenBId === tokenId);
  }

  async one(poolIdText: string): Promise<PoolBody> {
    const pool = await this.find(poolIdText);
    const tokens = new Map(this.tokens().map((token) => [token.id, token]));
    const body = this.view(pool, tokens, await this.prices.now());
    if (body === undefined) throw notFound(poolIdText);
    return body;
  }

  /** The pool an id names; 404 for an unknown or malformed id. */
  async find(poolIdText: string): Promise<PoolRecord> {
    const pool = POOL_ID.test(poolIdText) ? await this.pools.get(Number(poolIdText)) : undefined;
    if (pool === undefined) throw notFound(poolIdText);
    return pool;
  }

  /** Tinybar of each token held in the pools, by token id; tokens no pool holds are absent. */
  async liquidity(prices: PriceSnapshot): Promise<Map<string, Ratio>> {
    const held = new Map<string, Ratio>();
    for (const pool of await this.pools.list()) {
      const [a, b] = sideValues(pool, prices);
      held.set(pool.tokenAId, plus(held.get(pool.tokenAId) ?? ZERO, a));
      held.set(pool.tokenBId, plus(held.get(pool.tokenBId) ?? ZERO, b));
    }
    return held;
  }

  /** Tinybar locked in every pool. */
  async totalValue(prices: PriceSnapshot): Promise<Ratio> {
    return (await this.pools.list()).reduce((total, pool) => plus(total, poolValue(pool, prices)), ZERO);
  }

  /** Farms with their emissions per second in whole tokens (display numbers), and exactly in raw units. */
  async farmList(): Promise<FarmBody[]> {
    // Without a protocol token there is nothing to scale by: its emissions count raw units.
    const protocolUnit = 10n ** BigInt(this.protocolToken()?.decimals ?? 0);
    return (await this.farms.list()).map((farm) => ({
      id: farm.id,
      poolId: farm.poolId,
      sauceEmissions: toNumber(ratio(farm.sauceEmissions, protocolUnit)),
      hbarEmissions: toNumber(ratio(farm.hbarEmissions, TINYBAR_PER_COIN)),
      totalStaked: farm.totalStaked.toString(),
      sauceEmissionsRaw: farm.sauceEmissions.toString(),
      hbarEmissionsRaw: farm.hbarEmissions.toString(),
    }));
  }

  /** An account's stake in each farm it is in. */
  async farmTotals(accountId: string): Promise<FarmTotalBody[]> {
    const farms = new Map((await this.farms.list()).map((farm) => [farm.id, farm]));
    return (await this.farms.stakesOf(accountId)).flatMap((stake) => {
      const farm = farms.get(stake.farmId);
      if (farm === undefined) return [];
      return [
        {
          farmId: stake.farmId,
          poolId: farm.poolId,
          accountId,
          timestamp: ledgerTimestamp(stake.updatedAt),
          staked: stake.staked.toString(),
        },
      ];
    });
  }

  private async listWhere(keep: (pool: PoolRecord, tokens: ReadonlyMap<string, TokenRecord>) => boolean): Promise<PoolBody[]> {
    const prices = await this.prices.now();
    const tokens = new Map(this.tokens().map((token) => [token.id, token]));
    const bodies: PoolBody[] = [];
    for (const pool of await this.pools.list()) {
      const body = this.view(pool, tokens, prices);
      if (body !== undefined && keep(pool, tokens)) bodies.push(body);
    }
    return bodies;
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
