/**
 * Shapes of the data API. Prices and values in the native coin are tinybar integer strings
 * (1 coin = 100,000,000 tinybar); USD figures are numbers for display; reserves and stakes are raw
 * integer strings.
 */

export interface TokenCompact {
  /** Ledger id, `0.0.X`. */
  id: string;
  icon: string | null;
  symbol: string;
  decimals: number;
  /** Tinybar per whole token; "0" when no trade prices it. */
  price: string;
  priceUsd: number;
  dueDiligenceComplete: boolean;
  isFeeOnTransferToken: boolean;
}

export interface Token extends TokenCompact {
  name: string;
  description: string | null;
  website: string | null;
  sentinelReport: string | null;
  twitterHandle: string | null;
}

/** Percent change over 24 hours, by token id. */
export type TokenPriceChanges = Record<string, number>;

export type CandleInterval = 'FIVEMIN' | 'HOUR' | 'DAY' | 'WEEK';

export interface TokenCandle {
  tokenId: string;
  open: string;
  high: string;
  low: string;
  close: string;
  /** Volume-weighted average, tinybar. */
  avg: string;
  openUsd: number;
  highUsd: number;
  lowUsd: number;
  closeUsd: number;
  avgUsd: number;
  /** Traded in the bucket, tinybar. */
  volume: string;
  liquidity: string;
  volumeUsd: number;
  liquidityUsd: number;
  timestampSeconds: number;
  startTimestampSeconds: number;
}

export interface PoolToken {
  id: string;
  name: string;
  symbol: string;
  decimals: number;
  priceUsd: number;
}

export interface Pool {
  id: number;
  contractId: string;
  lpToken: PoolToken;
  lpTokenReserve: string;
  tokenA: Token;
  tokenReserveA: string;
  tokenB: Token;
  tokenReserveB: string;
}

export interface Farm {
  id: number;
  poolId: number;
  /** Protocol-token emissions per second, raw units. */
  sauceEmissions: string;
  /** Native-coin emissions per second, tinybar. */
  hbarEmissions: string;
  totalStaked: string;
}

export interface FarmTotal {
  farmId: number;
  poolId: number;
  accountId: string;
  /** Unix ms of the last change. */
  timestamp: number;
  staked: string;
}

export interface Stats {
  circulatingSauce: string;
  swapTotal: number;
  /** Tinybar. */
  tvl: string;
  tvlUsd: number;
  /** Tinybar. */
  volumeTotal: string;
  volumeTotalUsd: number;
}

export type PlatformInterval = 'HOUR' | 'DAY' | 'WEEK';
export type PlatformField = 'LIQUIDITY' | 'VOLUME';

export interface PlatformPoint {
  timestampSeconds: number;
  /** Tinybar. */
  valueHbar: string;
  valueUsd: number;
}
