/**
 * Answers of servers from before the data API followed its published OpenAPI document, brought to
 * the current types, so a client keeps working against either during an upgrade.
 */
import { ledgerTimestamp } from '@dex/core';
import { ApiError } from '../errors.js';
import { type DataResult, readQuota } from './data-client.js';
import {
  DEFAULT_TOKEN_ICON,
  type Farm,
  type FarmTotal,
  type Pool,
  type Token,
  type TokenCandle,
  type TokenCompact,
  type TokenStats,
} from './types.js';

type Loose<T, K extends keyof T> = Omit<T, K> & { [P in K]: T[P] | string };

/** What an older server left out or sent as null on a token. */
export type TokenWire<T extends TokenCompact> = Omit<T, 'icon' | 'name' | 'timestampSecondsLastListingChange'> &
  Partial<Pick<T, 'name' | 'timestampSecondsLastListingChange'>> & { icon: string | null };

export function tokenOf<T extends TokenCompact>(wire: TokenWire<T>): T {
  return {
    ...wire,
    name: wire.name ?? wire.symbol,
    icon: wire.icon ?? DEFAULT_TOKEN_ICON,
    timestampSecondsLastListingChange: wire.timestampSecondsLastListingChange ?? 0,
  } as T;
}

export type TokenStatsWire = TokenWire<Token> & Partial<Omit<TokenStats, keyof Token>>;

export function tokenStatsOf(wire: TokenStatsWire): TokenStats {
  return {
    ...tokenOf<Token>(wire),
    liquidityUsd: wire.liquidityUsd ?? 0,
    priceChangeHour: wire.priceChangeHour ?? 0,
    priceChangeDay: wire.priceChangeDay ?? 0,
    priceChangeWeek: wire.priceChangeWeek ?? 0,
  };
}

export type PoolWire = Omit<Pool, 'tokenA' | 'tokenB'> & { tokenA: TokenWire<Pool['tokenA']>; tokenB: TokenWire<Pool['tokenB']> };

export function poolOf(wire: PoolWire): Pool {
  return { ...wire, tokenA: tokenOf(wire.tokenA), tokenB: tokenOf(wire.tokenB) };
}

/** A candle as either server sends it: prices as numbers, or (older servers) as decimal strings. */
export type TokenCandleWire = Loose<TokenCandle, 'open' | 'high' | 'low' | 'close' | 'avg'>;

/** A number sent as a JSON number or as a decimal string. */
export function numberOf(value: number | string): number {
  return typeof value === 'number' ? value : Number(value);
}

export function tokenCandleOf(wire: TokenCandleWire): TokenCandle {
  return {
    ...wire,
    open: numberOf(wire.open),
    high: numberOf(wire.high),
    low: numberOf(wire.low),
    close: numberOf(wire.close),
    avg: numberOf(wire.avg),
  };
}

/** The latest candle: a list of at most one, or (older servers) the candle itself. */
export function latestCandlesOf(wire: TokenCandleWire | TokenCandleWire[]): TokenCandle[] {
  return (Array.isArray(wire) ? wire : [wire]).map(tokenCandleOf);
}

/** An older server's 404 `NO_PRICE_HISTORY` for a token that never traded is the empty list; other errors stay. */
export function noCandlesYet(error: unknown): DataResult<TokenCandle[]> {
  if (error instanceof ApiError && error.status === 404 && error.code === 'NO_PRICE_HISTORY') {
    return { data: [], quota: readQuota(error.headers) };
  }
  throw error;
}

/** Decimals of the protocol token (SAUCE), which an older server's raw farm emissions count in. */
const PROTOCOL_TOKEN_DECIMALS = 6;
/** Decimals of HBAR: tinybar. */
const HBAR_DECIMALS = 8;

/** A farm as either server sends it: emissions in whole tokens, or (older servers) raw integer strings. */
export type FarmWire = Omit<Farm, 'sauceEmissions' | 'hbarEmissions'> & {
  sauceEmissions: number | string;
  hbarEmissions: number | string;
};

/** Whole tokens in a raw integer string, as a number. */
function wholeOf(raw: string, decimals: number): number {
  return Number(`${raw}e-${decimals}`);
}

export function farmOf(wire: FarmWire): Farm {
  const { sauceEmissions, hbarEmissions } = wire;
  if (typeof sauceEmissions === 'number' && typeof hbarEmissions === 'number') return { ...wire, sauceEmissions, hbarEmissions };
  const sauceRaw = String(wire.sauceEmissions);
  const hbarRaw = String(wire.hbarEmissions);
  return {
    ...wire,
    sauceEmissions: wholeOf(sauceRaw, PROTOCOL_TOKEN_DECIMALS),
    hbarEmissions: wholeOf(hbarRaw, HBAR_DECIMALS),
    sauceEmissionsRaw: sauceRaw,
    hbarEmissionsRaw: hbarRaw,
  };
}

/** A stake as either server sends it: a ledger time string, or (older servers) unix ms. */
export type FarmTotalWire = Omit<FarmTotal, 'timestamp'> & { timestamp: string | number };

export function farmTotalOf(wire: FarmTotalWire): FarmTotal {
  return { ...wire, timestamp: typeof wire.timestamp === 'number' ? ledgerTimestamp(wire.timestamp) : wire.timestamp };
}
