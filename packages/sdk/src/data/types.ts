/**
 * Shapes of the data API, as its published OpenAPI document has them. Prices and values in the
 * native coin are tinybar integer strings (1 coin = 100,000,000 tinybar), except candle prices,
 * which are JSON numbers; USD figures are numbers for display; reserves and stakes are raw integer
 * strings.
 */

/** Where a token without an icon of its own points, relative to the data API's base URL. */
export const DEFAULT_TOKEN_ICON = '/images/tokens/default.svg';

export interface TokenCompact {
  /** Ledger id, `0.0.X`. */
  id: string;
  /** The name; an older server did not send it on `/tokens`, and its symbol stands in. */
  name: string;
  /** The operator's icon URL, else {@link DEFAULT_TOKEN_ICON} (relative to the base URL). */
  icon: string;
  symbol: string;
  decimals: number;
  /** Tinybar per whole token; "0" when no trade prices it. */
  price: string;
  priceUsd: number;
  dueDiligenceComplete: boolean;
  isFeeOnTransferToken: boolean;
  /** When the listing last changed, unix seconds; 0 from an older server, which did not send it. */
  timestampSecondsLastListingChange: number;
}

export interface Token extends TokenCompact {
  description: string | null;
  website: string | null;
  sentinelReport: string | null;
  twitterHandle: string | null;
}

/**
 * A default-listed token with its pool liquidity and the percent change of its USD price (0 without
 * a USD price then or now; an older server sent none of these four, and they read 0).
 */
export interface TokenStats extends Token {
  /** USD value of the token held in the pools. */
  liquidityUsd: number;
  priceChangeHour: number;
  priceChangeDay: number;
  priceChangeWeek: number;
}

/** Percent change over 24 hours, by token id. */
export type TokenPriceChanges = Record<string, number>;

export type CandleInterval = 'FIVEMIN' | 'HOUR' | 'DAY' | 'WEEK';

export interface TokenCandle {
  tokenId: string;
  /** Tinybar per whole token, whole numbers. */
  open: number;
  high: number;
  low: number;
  close: number;
  /** Volume-weighted average, tinybar per whole token (with a fraction). */
  avg: number;
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
  /** Protocol tokens emitted per second, whole tokens (for display). */
  sauceEmissions: number;
  /** HBAR emitted per second, whole coins (for display). */
  hbarEmissions: number;
  totalStaked: string;
  /** `sauceEmissions` exactly, raw units of the protocol token (absent from a server that sends only the published fields). */
  sauceEmissionsRaw?: string;
  /** `hbarEmissions` exactly, tinybar (absent likewise). */
  hbarEmissionsRaw?: string;
}

export interface FarmTotal {
  farmId: number;
  poolId: number;
  accountId: string;
  /** When the stake last changed, `"seconds.nanoseconds"` as the ledger writes times. */
  timestamp: string;
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

/** The span of a price/volume/liquidity series: the last 24 hours or 7 days by the hour, or the last 30 or 365 days by the day. */
export type Period = 'daily' | 'weekly' | 'monthly' | 'yearly';

export const PERIODS: readonly Period[] = ['daily', 'weekly', 'monthly', 'yearly'];

/** A token's price, pool liquidity and traded volume at one time, all in tinybar. */
export interface TokenPvl {
  /** Unix seconds: the start of the bucket in a series, the time of the answer in a summary. */
  timestampSeconds: number;
  tokenId: string;
  /** Tinybar per whole token. */
  price: string;
  liquidity: string;
  volume: string;
}

/** The USD price of HBAR at the end of one minute. */
export interface HbarPrice {
  priceUsd: number;
  /** Unix seconds the minute starts. */
  timestampSeconds: number;
}

/** Single-sided staking of the protocol token (nothing staked while the exchange has no staking contract). */
export interface StakingStats {
  /** Average APR over five days. */
  avg5day: number;
  /** Protocol tokens per share. */
  ratio: number;
  /** Protocol tokens staked, raw units. */
  sauce: string;
  timestampSeconds: number;
  /** Shares in existence, raw units. */
  xsauce: string;
}

/** A pool's liquidity and swapped volume at one time, tinybar (no pool history is recorded yet: lists are empty). */
export interface PoolVl {
  poolId: number;
  timestampSeconds: number;
  liquidity: string;
  volume: string;
}

/** A candle of a pool's price (token A in token B, or B in A when inverted). USD amounts are decimal strings here. */
export interface PoolCandle {
  poolId: number;
  open: number;
  high: number;
  low: number;
  close: number;
  avg: number;
  volume: string;
  liquidity: string;
  volumeUsd: string;
  liquidityUsd: string;
  timestampSeconds: number;
  startTimestampSeconds: number;
}

/** A concentrated-liquidity (V2) pool; this exchange runs none, so the V2 lists are empty. */
export interface PoolV2Compact {
  id: number;
  contractId: string;
  tokenA: TokenCompact;
  tokenB: TokenCompact;
  amountA: string;
  amountB: string;
  /** Swap fee tier (3000: 0.3%). */
  fee: number;
  sqrtRatioX96: string;
  tickCurrent: number;
  liquidity: string;
}

export interface PoolV2 extends Omit<PoolV2Compact, 'tokenA' | 'tokenB'> {
  tokenA: Token;
  tokenB: Token;
}

/** A V2 liquidity position (an NFT). */
export interface PositionV2 {
  tokenSN: number;
  accountId: string;
  deleted: boolean;
  /** `"seconds.nanoseconds"`. */
  createdAt: string;
  updatedAt: string;
  token0: Token;
  token1: Token;
  fee: number;
  tickUpper: number;
  tickLower: number;
  liquidity: string;
  feeGrowthInside0LastX128: string;
  feeGrowthInside1LastX128: string;
  tokensOwed0: string;
  tokensOwed1: string;
}

/** A V2 liquidity reward of the current epoch. */
export interface LariData {
  poolId: number;
  tokenId: string;
  /** Whole tokens. */
  reward: number;
  timestampSeconds: number;
  isFinal: boolean;
}
