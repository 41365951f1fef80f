/**
 * The data API's answers (tokens, pools, farms, platform figures) and its route parameters. The
 * answers follow the published document field for field: see docs/compatibility.md.
 */
import { type Static, Type } from 'typebox';
import { QueryValue } from './query.js';

const Tinybar = Type.String({ description: 'Tinybar (1 HBAR = 100,000,000), an integer string' });
/** The published candle prices are JSON integers; tinybar prices stay below 2^53 (90 million HBAR per token). */
const TinybarPrice = Type.Integer({ description: 'Tinybar per whole token, a JSON integer (rounded down)' });
const Usd = Type.Number({ description: 'US dollars (display figure)' });
export const Raw = Type.String({ description: 'Raw token units, an integer string' });
const Text = Type.Union([Type.String(), Type.Null()]);
export const LedgerId = Type.String({ description: 'Ledger id, 0.0.X' });

const compactFields = {
  id: LedgerId,
  name: Type.String(),
  icon: Type.String({
    description: 'The icon the operator set (a URL), else the relative path of the default icon, served beside the API',
  }),
  symbol: Type.String(),
  decimals: Type.Integer(),
  price: Type.String({ description: 'Tinybar per whole token, an integer string; "0" when no trade prices it' }),
  priceUsd: Type.Number({ description: 'US dollars per whole token; 0 when it cannot be priced' }),
  dueDiligenceComplete: Type.Boolean(),
  isFeeOnTransferToken: Type.Boolean(),
  timestampSecondsLastListingChange: Type.Integer({ description: 'When the operator last changed the listing, unix seconds' }),
};

export const TokenCompact = Type.Object(compactFields, { additionalProperties: false });

const tokenFields = {
  ...compactFields,
  description: Text,
  website: Text,
  sentinelReport: Text,
  twitterHandle: Text,
};

export const Token = Type.Object(tokenFields, { additionalProperties: false });

const Percent = Type.Number({ description: 'Percent change of the USD price; 0 without a USD price then or now' });

export const TokenStats = Type.Object(
  {
    ...tokenFields,
    liquidityUsd: Type.Number({ description: 'USD value of the token held in the pools; 0 while no pool holds it' }),
    priceChangeHour: Percent,
    priceChangeDay: Percent,
    priceChangeWeek: Percent,
  },
  { additionalProperties: false },
);

export const PriceChange = Type.Record(Type.String(), Type.Number(), {
  description: 'Percent change of each priced token over 24 hours, by token id',
});

export const TokenCandle = Type.Object(
  {
    tokenId: LedgerId,
    open: TinybarPrice,
    high: TinybarPrice,
    low: TinybarPrice,
    close: TinybarPrice,
    avg: Type.Number({ description: 'Volume-weighted average price of the bucket, tinybar per whole token (with a fraction)' }),
    openUsd: Usd,
    highUsd: Usd,
    lowUsd: Usd,
    closeUsd: Usd,
    avgUsd: Usd,
    volume: Type.String({ description: 'Traded in the bucket, in tinybar' }),
    liquidity: Type.String({ description: 'Pool liquidity in tinybar ("0": no pool history yet)' }),
    volumeUsd: Usd,
    liquidityUsd: Usd,
    timestampSeconds: Type.Integer({ description: 'Unix seconds the figures are as of' }),
    startTimestampSeconds: Type.Integer({ description: 'Unix seconds the bucket starts' }),
  },
  { additionalProperties: false },
);

export const TokenPvl = Type.Object(
  {
    timestampSeconds: Type.Integer({ description: 'Unix seconds: the start of the bucket, or now for a summary' }),
    tokenId: LedgerId,
    price: Type.String({ description: 'Tinybar per whole token, an integer string' }),
    liquidity: Type.String({ description: 'Tinybar of the token held in the pools ("0": no pool history yet)' }),
    volume: Type.String({ description: 'Tinybar traded' }),
  },
  { additionalProperties: false },
);

export const PoolToken = Type.Object({
  id: LedgerId,
  name: Type.String(),
  symbol: Type.String(),
  decimals: Type.Integer(),
  priceUsd: Usd,
});

export const Pool = Type.Object(
  {
    id: Type.Integer(),
    contractId: LedgerId,
    lpToken: PoolToken,
    lpTokenReserve: Raw,
    tokenA: Token,
    tokenReserveA: Raw,
    tokenB: Token,
    tokenReserveB: Raw,
  },
  { additionalProperties: false },
);

export const PoolVl = Type.Object(
  {
    poolId: Type.Integer(),
    timestampSeconds: Type.Integer({ description: 'Unix seconds' }),
    liquidity: Type.String({ description: 'Tinybar held by the pool' }),
    volume: Type.String({ description: 'Tinybar swapped' }),
  },
  { additionalProperties: false },
);

/** The published pool candle: prices as numbers, amounts (USD ones too) as decimal strings. */
export const PoolCandle = Type.Object(
  {
    poolId: Type.Integer(),
    open: Type.Number({ description: 'Price of token A in token B (B in A when inverted)' }),
    high: Type.Number(),
    low: Type.Number(),
    close: Type.Number(),
    avg: Type.Number(),
    volume: Type.String({ description: 'Tinybar swapped in the bucket' }),
    liquidity: Type.String({ description: 'Tinybar held by the pool at the end of the bucket' }),
    volumeUsd: Type.String({ description: 'US dollars, a decimal string' }),
    liquidityUsd: Type.String({ description: 'US dollars, a decimal string' }),
    timestampSeconds: Type.Integer({ description: 'Unix seconds the bucket ends' }),
    startTimestampSeconds: Type.Integer({ description: 'Unix seconds the bucket starts' }),
  },
  { additionalProperties: false },
);

export const Farm = Type.Object(
  {
    id: Type.Integer(),
    poolId: Type.Integer(),
    sauceEmissions: Type.Number({ description: 'Protocol tokens emitted per second, whole tokens' }),
    hbarEmissions: Type.Number({ description: 'HBAR emitted per second, whole coins' }),
    totalStaked: Raw,
    sauceEmissionsRaw: Type.String({ description: 'sauceEmissions exactly, in raw units of the protocol token' }),
    hbarEmissionsRaw: Type.String({ description: 'hbarEmissions exactly, in tinybar' }),
  },
  { additionalProperties: false },
);

export const FarmTotal = Type.Object(
  {
    farmId: Type.Integer(),
    poolId: Type.Integer(),
    accountId: Type.String(),
    timestamp: Type.String({ description: 'When the stake last changed, "seconds.nanoseconds" as the ledger writes times' }),
    staked: Raw,
  },
  { additionalProperties: false },
);

export const Stats = Type.Object(
  {
    circulatingSauce: Type.String({ description: 'Protocol tokens in circulation, raw units ("0" when not recorded)' }),
    swapTotal: Type.Integer({ description: 'Fills since the exchange opened' }),
    tvl: Type.String({ description: 'Value locked in the pools, tinybar' }),
    tvlUsd: Usd,
    volumeTotal: Type.String({ description: 'Traded since the exchange opened, tinybar' }),
    volumeTotalUsd: Usd,
  },
  { additionalProperties: false },
);

export const PlatformPoint = Type.Object(
  {
    timestampSeconds: Type.Integer({ description: 'Unix seconds the bucket starts' }),
    valueHbar: Tinybar,
    valueUsd: Usd,
  },
  { additionalProperties: false },
);

export const NativeUsdPoint = Type.Object(
  {
    priceUsd: Type.Number({ description: 'US dollars per HBAR at the end of the minute' }),
    timestampSeconds: Type.Integer({ description: 'Unix seconds the minute starts' }),
  },
  { additionalProperties: false },
);

export const StakingStats = Type.Object(
  {
    avg5day: Type.Number({ description: 'Average APR of single-sided staking over five days (0: no staking contract yet)' }),
    ratio: Type.Number({ description: 'Protocol tokens per staked-token share (1 while nothing is staked)' }),
    sauce: Type.String({ description: 'Protocol tokens staked, raw units' }),
    timestampSeconds: Type.Integer({ description: 'Unix seconds the figures are as of' }),
    xsauce: Type.String({ description: 'Staked-token shares in existence, raw units' }),
  },
  { additionalProperties: false },
);

export const TokenParams = Type.Object({ tokenId: Type.String({ maxLength: 64 }) });
export const PoolParams = Type.Object({ poolId: Type.String({ maxLength: 64 }) });
export const AccountParams = Type.Object({ accountId: Type.String({ maxLength: 64 }) });

export const HistoryQuerySchema = Type.Object({
  from: Type.Optional(QueryValue),
  to: Type.Optional(QueryValue),
  interval: Type.Optional(QueryValue),
});
export const RangeQuery = Type.Object({ from: Type.Optional(QueryValue), to: Type.Optional(QueryValue) });
export const LatestQuery = Type.Object({ interval: Type.Optional(QueryValue) });
export const PoolHistoryQuery = Type.Object({
  from: Type.Optional(QueryValue),
  to: Type.Optional(QueryValue),
  interval: Type.Optional(QueryValue),
  inverted: Type.Optional(QueryValue),
});
export const PoolLatestQuery = Type.Object({ interval: Type.Optional(QueryValue), inverted: Type.Optional(QueryValue) });
export const PlatformQuery = Type.Object({
  from: Type.Optional(QueryValue),
  to: Type.Optional(QueryValue),
  interval: Type.Optional(QueryValue),
  field: Type.Optional(QueryValue),
});

export type TokenCompact = Static<typeof TokenCompact>;
export type Token = Static<typeof Token>;
export type TokenStats = Static<typeof TokenStats>;
/** Percent change of each priced token over 24 hours, by token id. */
export type TokenPriceChanges = Static<typeof PriceChange>;
export type TokenCandle = Static<typeof TokenCandle>;
export type TokenPvl = Static<typeof TokenPvl>;
export type PoolToken = Static<typeof PoolToken>;
export type Pool = Static<typeof Pool>;
export type PoolVl = Static<typeof PoolVl>;
export type PoolCandle = Static<typeof PoolCandle>;
export type Farm = Static<typeof Farm>;
export type FarmTotal = Static<typeof FarmTotal>;
export type Stats = Static<typeof Stats>;
export type PlatformPoint = Static<typeof PlatformPoint>;
/** US dollars per HBAR at one minute. */
export type HbarPrice = Static<typeof NativeUsdPoint>;
export type StakingStats = Static<typeof StakingStats>;
