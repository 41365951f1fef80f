import { type Static, Type } from 'typebox';
import { LedgerId, Raw, Token, TokenCompact } from './data-api.js';

/** A concentrated-liquidity (V2) pool's fields beside its tokens. */
const v2PoolFields = {
  id: Type.Integer(),
  contractId: LedgerId,
  amountA: Raw,
  amountB: Raw,
  fee: Type.Integer({ description: 'Swap fee tier (3000: 0.3%)' }),
  sqrtRatioX96: Type.String({ description: 'Square root of the price as a Q64.96 number, an integer string' }),
  tickCurrent: Type.Integer(),
  liquidity: Raw,
};

export const PoolV2Compact = Type.Object(
  { ...v2PoolFields, tokenA: TokenCompact, tokenB: TokenCompact },
  { additionalProperties: false },
);

export const PoolV2 = Type.Object({ ...v2PoolFields, tokenA: Token, tokenB: Token }, { additionalProperties: false });

export const PositionV2 = Type.Object(
  {
    tokenSN: Type.Integer({ description: 'Serial number of the position NFT' }),
    accountId: LedgerId,
    deleted: Type.Boolean(),
    createdAt: Type.String({ description: '"seconds.nanoseconds"' }),
    updatedAt: Type.String({ description: '"seconds.nanoseconds"' }),
    token0: Token,
    token1: Token,
    fee: Type.Integer(),
    tickUpper: Type.Integer(),
    tickLower: Type.Integer(),
    liquidity: Raw,
    feeGrowthInside0LastX128: Raw,
    feeGrowthInside1LastX128: Raw,
    tokensOwed0: Raw,
    tokensOwed1: Raw,
  },
  { additionalProperties: false },
);

export const LariData = Type.Object(
  {
    poolId: Type.Integer(),
    tokenId: LedgerId,
    reward: Type.Number({ description: 'Whole tokens accrued this epoch' }),
    timestampSeconds: Type.Integer({ description: 'Unix seconds' }),
    isFinal: Type.Boolean({ description: 'The epoch has ended' }),
  },
  { additionalProperties: false },
);

export type PoolV2Compact = Static<typeof PoolV2Compact>;
export type PoolV2 = Static<typeof PoolV2>;
export type PositionV2 = Static<typeof PositionV2>;
export type LariData = Static<typeof LariData>;
