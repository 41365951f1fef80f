import { ledgerTimestamp, type Ratio, ratio } from '@dex/core';
import type { Farm, FarmTotal, Pool } from '@dex/protocol';
import type { Static } from 'typebox';
import { inverse, plus, TINYBAR_PER_COIN, times, toNumber, ZERO } from '../../domain/data-api/native-rates.js';
import { heldValues } from '../../domain/data-api/pool-value.js';
import { AppError } from '../../domain/errors.js';
import type { TokenRecord } from '../../domain/markets/market-records.js';
import type { FarmStore, PoolRecord } from '../../ports/store/pool-ports.js';
import { type MarketPrices, type PriceSnapshot, usdValue } from './market-prices.js';
import { fullView } from './token-catalogue.js';

export type PoolBody = Static<typeof Pool>;
export type FarmBody = Static<typeof Farm>;
export type FarmTotalBody = Static<typeof FarmTotal>;

const POOL_ID = /^[1-9][0-9]{0,14}$/;

function notFound(poolIdText: string): AppError {
  return new AppError('POOL_NOT_FOUND', `No pool ${poolIdText.slice(0, 64)}`);
}

/** Tinybar held on each side of a pool now, A then B (pool-value.ts). */
function sideValues(pool: PoolRecord, prices: PriceSnapshot): [Ratio, Ratio] {
  return heldValues(pool, prices.rates, pool.tokenReserveA, pool.tokenReserveB);
}

/** Tinybar held by a pool. */
export function poolValue(pool: PoolRecord, prices: PriceSnapshot): Ratio {
  const [a, b] = sideValues(pool, prices);
  return plus(a, b);
}

/**
 * The exchange's liquidity pools and farms as the AMM indexer records them from the chain. A pool
 * is listed once the registry lists both its tokens.
 */
export class PoolDirectory {
  constructor(
    private readonly farms: FarmStore,
    private readonly tokens: () => readonly TokenRecord[],
    private readonly prices: MarketPrices,
    private readonly protocolToken: () => TokenRecord | undefined,
    /** The names an account's stakes may be recorded under: its id, and the addresses it acts from. */
    private readonly stakerNames: (accountId: string) => Promise<string[]>,
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
    const id = POOL_ID.test(poolIdText) ? Number(poolIdText) : undefined;
    const pool = id === undefined ? undefined : (await this.prices.pools()).find((candidate) => candidate.id === id);
    if (pool === undefined || !this.isListed(pool)) throw notFound(poolIdText);
    return pool;
  }

  /** The listed pools (both tokens in the registry). */
  async listed(): Promise<PoolRecord[]> {
    return (await this.prices.pools()).filter((pool) => this.isListed(pool));
  }

  private isListed(pool: PoolRecord): boolean {
    const ids = new Set(this.tokens().map((token) => token.id));
    return ids.has(pool.tokenAId) && ids.has(pool.tokenBId);
  }

  /** Tinybar of each token held in the pools, by token id; tokens no pool holds are absent. */
  async liquidity(prices: PriceSnapshot): Promise<Map<string, Ratio>> {
    const held = new Map<string, Ratio>();
    for (const pool of await this.listed()) {
      const [a, b] = sideValues(pool, prices);
      held.set(pool.tokenAId, plus(held.get(pool.tokenAId) ?? ZERO, a));
      held.set(pool.tokenBId, plus(held.get(pool.tokenBId) ?? ZERO, b));
    }
    return held;
  }

  /** Tinybar locked in every pool. */
  async totalValue(prices: PriceSnapshot): Promise<Ratio> {
    return (await this.listed()).reduce((total, pool) => plus(total, poolValue(pool, prices)), ZERO);
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

  /** An account's stake in each farm it is in (stakes under each of its names added up). */
  async farmTotals(accountId: string): Promise<FarmTotalBody[]> {
    const farms = new Map((await this.farms.list()).map((farm) => [farm.id, farm]));
    const totals = new Map<number, FarmTotalBody & { updatedAt: number }>();
    for (const stake of await this.farms.stakesOf(await this.stakerNames(accountId))) {
      const farm = farms.get(stake.farmId);
      if (farm === undefined) continue;
      const before = totals.get(stake.farmId);
      const staked = (before === undefined ? 0n : BigInt(before.staked)) + stake.staked;
      const updatedAt = Math.max(before?.updatedAt ?? 0, stake.updatedAt);
      totals.set(stake.farmId, {
        farmId: stake.farmId,
        poolId: farm.poolId,
        accountId,
        timestamp: ledgerTimestamp(updatedAt),
        staked: staked.toString(),
        updatedAt,
      });
    }
    return [...totals.values()].map(({ updatedAt: _updatedAt, ...total }) => total);
  }

  private async listWhere(keep: (pool: PoolRecord, tokens: ReadonlyMap<string, TokenRecord>) => boolean): Promise<PoolBody[]> {
    const prices = await this.prices.now();
    const tokens = new Map(this.tokens().map((token) => [token.id, token]));
    const bodies: PoolBody[] = [];
    for (const pool of await this.listed()) {
      const body = this.view(pool, tokens, prices);
      if (body !== undefined && keep(pool, tokens)) bodies.push(body);
    }
    return bodies;
  }

  private bothKnown(pool: PoolRecord, tokens: ReadonlyMap<string, TokenRecord>): boolean {
    return tokens.get(pool.tokenAId)?.isKnown === true && tokens.get(pool.tokenBId)?.isKnown === true;
  }

  private view(pool: PoolRecord, tokens: ReadonlyMap<string, TokenRecord>, prices: PriceSnapshot): PoolBody | undefined {
    const a = tokens.get(pool.tokenAId);
    const b = tokens.get(pool.tokenBId);
    if (a === undefined || b === undefined) return undefined;
    // USD per whole LP token: the pool's worth over the LP tokens in existence.
    const lpTokens = ratio(pool.lpTokenReserve, 10n ** BigInt(pool.lpTokenDecimals));
    const lpPriceUsd = pool.lpTokenReserve === 0n ? 0 : usdValue(prices, times(poolValue(pool, prices), inverse(lpTokens)));
    const lpToken = { id: pool.lpTokenId, name: pool.lpTokenName, symbol: pool.lpTokenSymbol, decimals: pool.lpTokenDecimals };
    return {
      id: pool.id,
      contractId: pool.contractId,
      lpToken: { ...lpToken, priceUsd: lpPriceUsd },
      lpTokenReserve: pool.lpTokenReserve.toString(),
      tokenA: fullView(a, prices),
      tokenReserveA: pool.tokenReserveA.toString(),
      tokenB: fullView(b, prices),
      tokenReserveB: pool.tokenReserveB.toString(),
    };
  }
}
