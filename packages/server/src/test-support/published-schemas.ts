/**
 * The published OpenAPI document of the data API (44 paths), encoded as test data for the contract
 * test: each schema's fields with their JSON types, and each path with its answer's container and
 * schema. Every listed field is required. Written by hand from the published facts; where the
 * published document contradicts itself, the comment says which reading is encoded.
 */

/** A JSON type; `number` is any number, `integer` a whole one. */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean';

/** A field: a JSON type, a string or null, or the name of a schema (a nested object). */
export type FieldType = JsonType | 'string|null' | SchemaName;

const TOKEN_COMPACT = {
  id: 'string',
  // Listed as required (not among the properties); its examples carry a string.
  name: 'string',
  icon: 'string',
  symbol: 'string',
  decimals: 'integer',
  price: 'string',
  priceUsd: 'number',
  dueDiligenceComplete: 'boolean',
  isFeeOnTransferToken: 'boolean',
} as const;

const TOKEN_CANDLE_PRICES = {
  open: 'integer',
  high: 'integer',
  low: 'integer',
  close: 'integer',
  avg: 'number',
  openUsd: 'number',
  highUsd: 'number',
  lowUsd: 'number',
  closeUsd: 'number',
  avgUsd: 'number',
} as const;

const V2_POOL = {
  id: 'integer',
  contractId: 'string',
  amountA: 'string',
  amountB: 'string',
  fee: 'integer',
  sqrtRatioX96: 'string',
  tickCurrent: 'integer',
  liquidity: 'string',
} as const;

const SCHEMAS = {
  TokenCompact: TOKEN_COMPACT,
  Token: {
    ...TOKEN_COMPACT,
    // Typed string; the prose pages type these four `string | null`, and unset ones are null.
    description: 'string|null',
    website: 'string|null',
    sentinelReport: 'string|null',
    twitterHandle: 'string|null',
  },
  TokenStats: {
    id: 'string',
    symbol: 'string',
    priceUsd: 'number',
    liquidityUsd: 'number',
    priceChangeHour: 'number',
    priceChangeDay: 'number',
    priceChangeWeek: 'number',
  },
  TokenPVL: { timestampSeconds: 'integer', tokenId: 'string', price: 'string', liquidity: 'string', volume: 'string' },
  TokenCandlestickData: {
    tokenId: 'string',
    ...TOKEN_CANDLE_PRICES,
    volume: 'string',
    liquidity: 'string',
    volumeUsd: 'number',
    // Published without a type, with format float.
    liquidityUsd: 'number',
    timestampSeconds: 'integer',
    startTimestampSeconds: 'integer',
  },
  LPToken: { id: 'string', name: 'string', symbol: 'string', decimals: 'integer', priceUsd: 'number' },
  Pool: {
    id: 'integer',
    contractId: 'string',
    lpToken: 'LPToken',
    lpTokenReserve: 'string',
    tokenA: 'Token',
    tokenReserveA: 'string',
    tokenB: 'Token',
    tokenReserveB: 'string',
  },
  PoolCompact: {
    id: 'integer',
    contractId: 'string',
    lpToken: 'LPToken',
    lpTokenReserve: 'string',
    tokenA: 'TokenCompact',
    tokenReserveA: 'string',
    tokenB: 'TokenCompact',
    tokenReserveB: 'string',
  },
  PoolVL: { poolId: 'integer', timestampSeconds: 'integer', liquidity: 'string', volume: 'string' },
  CandlestickData: {
    poolId: 'integer',
    open: 'number',
    high: 'number',
    low: 'number',
    close: 'number',
    avg: 'number',
    volume: 'string',
    liquidity: 'string',
    volumeUsd: 'string',
    liquidityUsd: 'string',
    timestampSeconds: 'integer',
    startTimestampSeconds: 'integer',
  },
  PoolV2Compact: { ...V2_POOL, tokenA: 'TokenCompact', tokenB: 'TokenCompact' },
  PoolV2: { ...V2_POOL, tokenA: 'Token', tokenB: 'Token' },
  PositionV2: {
    tokenSN: 'integer',
    accountId: 'string',
    deleted: 'boolean',
    createdAt: 'string',
    updatedAt: 'string',
    token0: 'Token',
    token1: 'Token',
    fee: 'integer',
    tickUpper: 'integer',
    tickLower: 'integer',
    liquidity: 'string',
    feeGrowthInside0LastX128: 'string',
    feeGrowthInside1LastX128: 'string',
    tokensOwed0: 'string',
    tokensOwed1: 'string',
  },
  // Its published `required` list names liquidity and volume, which it does not have: its properties are encoded.
  LariData: { poolId: 'integer', tokenId: 'string', reward: 'number', timestampSeconds: 'integer', isFinal: 'boolean' },
  Farm: { id: 'integer', poolId: 'integer', sauceEmissions: 'number', hbarEmissions: 'number', totalStaked: 'string' },
  // `timestamp` is typed number with a string example; the conventions page says a "seconds.nanoseconds" string.
  FarmAccount: { farmId: 'integer', poolId: 'integer', accountId: 'string', timestamp: 'string', staked: 'string' },
  // The objects below are published inline on their paths; the names are ours.
  Stats: {
    circulatingSauce: 'string',
    swapTotal: 'integer',
    tvl: 'string',
    tvlUsd: 'number',
    volumeTotal: 'string',
    volumeTotalUsd: 'number',
  },
  SingleSidedStaking: { avg5day: 'number', ratio: 'number', sauce: 'string', timestampSeconds: 'integer', xsauce: 'string' },
  HbarPrice: { priceUsd: 'number', timestampSeconds: 'integer' },
  PlatformPoint: { valueHbar: 'string', timestampSeconds: 'integer' },
} as const satisfies Record<string, Record<string, string>>;

export type SchemaName = keyof typeof SCHEMAS;

export const PUBLISHED_SCHEMAS: Readonly<Record<SchemaName, Readonly<Record<string, FieldType>>>> = SCHEMAS;

export interface PublishedPath {
  /** As published, with `{name}` path parameters. */
  readonly path: string;
  /** A list of items, one object, or an object mapping ids to values. */
  readonly answer: 'array' | 'object' | 'map';
  /** The items' (the object's, the map values') schema. */
  readonly schema: SchemaName | JsonType;
  /** The required query parameters. */
  readonly query?: readonly string[];
}

const HISTORY = ['from', 'to', 'interval'];
const PERIODS = ['daily', 'weekly', 'monthly', 'yearly'];

/** `{base}/{period}` for every period and `{base}/{period}/{id}`, all lists. */
function periodPaths(base: string, id: string, schema: SchemaName): PublishedPath[] {
  return ['', `/${id}`].flatMap((tail) =>
    PERIODS.map((period) => ({ path: `${base}/${period}${tail}`, answer: 'array', schema })),
  );
}

export const PUBLISHED_PATHS: readonly PublishedPath[] = [
  { path: '/stats', answer: 'object', schema: 'Stats' },
  { path: '/stats/sss', answer: 'object', schema: 'SingleSidedStaking' },
  { path: '/stats/hbarHistoricalPrices', answer: 'array', schema: 'HbarPrice', query: ['from', 'to'] },
  { path: '/stats/platformData', answer: 'array', schema: 'PlatformPoint', query: [...HISTORY, 'field'] },
  { path: '/farms', answer: 'array', schema: 'Farm' },
  { path: '/farms/totals/{accountId}', answer: 'array', schema: 'FarmAccount' },
  { path: '/tokens', answer: 'array', schema: 'TokenCompact' },
  { path: '/tokens/full', answer: 'array', schema: 'Token' },
  { path: '/tokens/{tokenId}', answer: 'object', schema: 'Token' },
  { path: '/tokens/known', answer: 'array', schema: 'Token' },
  { path: '/tokens/default', answer: 'array', schema: 'TokenStats' },
  { path: '/tokens/price-change', answer: 'map', schema: 'number' },
  ...periodPaths('/tokens', '{tokenId}', 'TokenPVL'),
  { path: '/tokens/associated-pools/{tokenId}', answer: 'array', schema: 'Pool' },
  { path: '/tokens/prices/{tokenId}', answer: 'array', schema: 'TokenCandlestickData', query: HISTORY },
  { path: '/tokens/prices/latest/{tokenId}', answer: 'array', schema: 'TokenCandlestickData', query: ['interval'] },
  { path: '/tokens/ohlcv/latest', answer: 'array', schema: 'TokenCandlestickData', query: ['interval'] },
  { path: '/pools', answer: 'array', schema: 'PoolCompact' },
  { path: '/pools/full', answer: 'array', schema: 'Pool' },
  { path: '/pools/{poolId}', answer: 'object', schema: 'Pool' },
  { path: '/pools/known', answer: 'array', schema: 'Pool' },
  ...periodPaths('/pools', '{poolId}', 'PoolVL'),
  { path: '/pools/conversionRates/{poolId}', answer: 'array', schema: 'CandlestickData', query: HISTORY },
  { path: '/pools/conversionRates/latest/{poolId}', answer: 'object', schema: 'CandlestickData', query: ['interval'] },
  { path: '/v2/pools', answer: 'array', schema: 'PoolV2Compact' },
  { path: '/v2/pools/full', answer: 'array', schema: 'PoolV2' },
  { path: '/v2/pools/{poolId}', answer: 'object', schema: 'PoolV2' },
  { path: '/v2/pools/conversionRates/{poolId}', answer: 'array', schema: 'CandlestickData', query: HISTORY },
  { path: '/v2/nfts/{accountId}/positions', answer: 'array', schema: 'PositionV2' },
  { path: '/v2/rewards/account/{accountId}', answer: 'array', schema: 'LariData' },
];

/** The paths the docs' own samples call with a trailing slash. */
export const SLASHED_SAMPLES: readonly string[] = ['/pools/', '/farms/', '/tokens/', '/v2/pools/'];
