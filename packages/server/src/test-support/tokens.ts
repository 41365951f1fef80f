import type { NewToken } from '../domain/markets/market-records.js';

/** A plain token `0.0.<num>` (6 decimals, no listing fields) for store tests; `overrides` change any field. */
export function testToken(num: number, overrides: Partial<NewToken> = {}): NewToken {
  return {
    id: `0.0.${num}`,
    evmAddress: `0x${num.toString(16).padStart(40, '0')}`,
    symbol: `T${num}`,
    name: `Token ${num}`,
    decimals: 6,
    icon: null,
    description: null,
    website: null,
    dueDiligenceComplete: false,
    isFeeOnTransfer: false,
    sentinelReport: null,
    twitterHandle: null,
    circulatingSupply: null,
    isKnown: false,
    isDefault: false,
    ...overrides,
  };
}
