import { Type } from 'typebox';
import { QueryValue } from '../../http/schemas.js';

const Tinybar = Type.String({ description: 'Tinybar (1 HBAR = 100,000,000), an integer string' });
const Usd = Type.Number({ description: 'US dollars (display figure)' });
const Raw = Type.String({ description: 'Raw token units, an integer string' });
const Text = Type.Union([Type.String(), Type.Null()]);
const LedgerId = Type.String({ description: 'Ledger id, 0.0.X' });

const compactFields = {
  id: LedgerId,
  icon: Type.Union([Type.String(), Type.Null()], { description: 'Icon URL' }),
  symbol: Type.String(),
  decimals: Type.Integer(),
  price: Type.String({ description: 'Tinybar per whole token, an integer string; "0" when no trade prices it' }),
  priceUsd: Type.Number({ description: 'US dollars per whole token; 0 when it cannot be priced' }),
  dueDiligenceComplete: Type.Boolean(),
  isFeeOnTransferToken: Type.Boolean(),
};

export const TokenCompact = Type.Object(compactFields, { additionalProperties: false });

export const Token = Type.Object(
  {
    ...compactFields,
    name: Type.String(),
    description: Text,
    website: Text,
    sentinelReport: Text,
    twitterHandle: Text,
  },
  { additionalProperties: false },
);

export const PriceChange = Type.Record(Type.String(), Type.Number(), {
  description: 'Percent change of each priced token over 24 hours, by token id',
});

export const TokenCandle = Type.Object(
  {
    tokenId: LedgerId,
    open: Tinybar,
    high: Tinybar,
    low: Tinybar,
    close: Tinybar,
    avg: Type.String({ description: 'Volume-weighted average, tinybar' }),
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

const PoolToken = Type.Object({
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

export const Farm = Type.Object(
  {
    id: Type.Integer(),
    poolId: Type.Integer(),
    sauceEmissions: Type.String({ description: 'Protocol-token emissions per second, raw units' }),
    hbarEmissions: Type.String({ description: 'Native-coin emissions per second, tinybar' }),
    totalStaked: Raw,
  },
  { additionalProperties: false },
);

export const FarmTotal = Type.Object(
  {
    farmId: Type.Integer(),
    poolId: Type.Integer(),
    accountId: Type.String(),
    timestamp: Type.Integer({ description: 'When the stake last changed, unix ms' }),
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

export const TokenParams = Type.Object({ tokenId: Type.String({ maxLength: 64 }) });
export const PoolParams = Type.Object({ poolId: Type.String({ maxLength: 64 }) });
export const AccountParams = Type.Object({ accountId: Type.String({ maxLength: 64 }) });

export const HistoryQuerySchema = Type.Object({
  from: Type.Optional(QueryValue),
  to: Type.Optional(QueryValue),
  interval: Type.Optional(QueryValue),
});
export const LatestQuery = Type.Object({ interval: Type.Optional(QueryValue) });
export const PlatformQuery = Type.Object({
  from: Type.Optional(QueryValue),
  to: Type.Optional(QueryValue),
  interval: Type.Optional(QueryValue),
  field: Type.Optional(QueryValue),
});
