import type { Token, TokenCompact } from '@dex/protocol';
import type { Static } from 'typebox';
import { percentChange } from '../../domain/data-api/percent-change.js';
import { DEFAULT_TOKEN_ICON } from '../../domain/data-api/token-icon.js';
import { AppError } from '../../domain/errors.js';
import type { TokenRecord } from '../../domain/markets/market-records.js';
import type { Clock } from '../../ports/clock.js';
import { type MarketPrices, type PriceSnapshot, tinybarPrice, usdPrice } from './market-prices.js';

export type TokenCompactBody = Static<typeof TokenCompact>;
export type TokenBody = Static<typeof Token>;

const DAY_MS = 24 * 60 * 60 * 1000;

export function compactView(token: TokenRecord, prices: PriceSnapshot): TokenCompactBody {
  return {
    id: token.id,
    name: token.name,
    icon: token.icon ?? DEFAULT_TOKEN_ICON,
    symbol: token.symbol,
    decimals: token.decimals,
    price: tinybarPrice(prices, token).toString(),
    priceUsd: usdPrice(prices, token),
    dueDiligenceComplete: token.dueDiligenceComplete,
    isFeeOnTransferToken: token.isFeeOnTransfer,
    timestampSecondsLastListingChange: Math.floor(token.updatedAt / 1_000),
  };
}

export function fullView(token: TokenRecord, prices: PriceSnapshot): TokenBody {
  return {
    ...compactView(token, prices),
    description: token.description,
    website: token.website,
    sentinelReport: token.sentinelReport,
    twitterHandle: token.twitterHandle,
  };
}

/** The token registry as the data API lists it, with prices from the exchange's trades. */
export class TokenCatalogue {
  constructor(
    private readonly tokens: () => readonly TokenRecord[],
    private readonly prices: MarketPrices,
    private readonly clock: Clock,
  ) {}

  async compact(): Promise<TokenCompactBody[]> {
    const prices = await this.prices.now();
    return this.tokens().map((token) => compactView(token, prices));
  }

  /** Every token, or those on the known list. */
  async full(knownOnly = false): Promise<TokenBody[]> {
    const prices = await this.prices.now();
    const tokens = knownOnly ? this.tokens().filter((token) => token.isKnown) : this.tokens();
    return tokens.map((token) => fullView(token, prices));
  }

  /** Every listed token. */
  all(): readonly TokenRecord[] {
    return this.tokens();
  }

  async one(tokenId: string): Promise<TokenBody> {
    return fullView(this.find(tokenId), await this.prices.now());
  }

  /** The token an id names; 404 for an unknown or malformed id. */
  find(tokenId: string): TokenRecord {
    const token = this.tokens().find((candidate) => candidate.id === tokenId);
    if (token === undefined) throw new AppError('TOKEN_NOT_FOUND', `No token ${tokenId.slice(0, 64)}`);
    return token;
  }

  /**
   * Percent change of each token's tinybar price over 24 hours (four decimals), for the tokens
   * priced both now and then. "Then" is the 5-minute candle that holds the moment 24 hours ago.
   */
  async priceChange(): Promise<Record<string, number>> {
    const now = await this.prices.now();
    const then = await this.prices.at(this.clock.now() - DAY_MS + 1);
    const changes: Record<string, number> = {};
    for (const token of this.tokens()) {
      const change = percentChange(now.rates.get(token.id)?.rate, then.rates.get(token.id)?.rate);
      if (change !== undefined) changes[token.id] = change;
    }
    return changes;
  }
}
