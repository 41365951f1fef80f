import type { FetchFn, SendOnboardingTransaction, Signer } from '@dex/sdk';
import type { ReferencePrices } from './initial-mid.js';
import type { BotLogger } from './logger.js';

export interface MarketMakerOptions {
  /** Base URL of the order book API, e.g. `http://127.0.0.1:3000`. */
  readonly baseUrl: string;
  /** The account that quotes. */
  readonly maker: Signer;
  /** The account that takes liquidity now and then; without it the bot only quotes. */
  readonly taker?: Signer | undefined;
  readonly logger?: BotLogger | undefined;
  /**
   * Senders of each account's onboarding transactions (the SDK's `onboard`): with one, the bot
   * onboards that account on each book it quotes whose onboarding status shows pending steps (the
   * tokens approve Permit2, Permit2 the reactor), before quoting it. Without one, pending steps are
   * logged once per book: the book's orders are refused until someone else onboards the account.
   */
  readonly onboarding?: { readonly maker?: SendOnboardingTransaction; readonly taker?: SendOnboardingTransaction } | undefined;
  /** Defaults to the global fetch; every request is bounded by `requestTimeoutMs`. */
  readonly fetch?: FetchFn | undefined;
  /** Ids of the books to quote; default: every open book of `GET /books`. */
  readonly books?: readonly number[] | undefined;
  /** Where books without trades start (see ReferencePrices); a book with neither is left alone. */
  readonly referencePrices?: ReferencePrices | undefined;
  /** Price levels on each side; default 5. */
  readonly levels?: number | undefined;
  /** Best bid to best ask, basis points of the mid; default 20. */
  readonly spreadBps?: number | undefined;
  /** Between two levels of a side, basis points of the mid; default 10. */
  readonly levelGapBps?: number | undefined;
  /** Level 0's size in multiples of the book's smallest order; default 10. */
  readonly sizeMultiple?: number | undefined;
  /** Time between refreshes of the quotes; default 2,000 ms. */
  readonly intervalMs?: number | undefined;
  /** Chance that the taker trades on a book at a refresh, 0 to 1; default 0.2. */
  readonly takeProbability?: number | undefined;
  /** Largest move of the mid per refresh, basis points; default 8. */
  readonly stepBps?: number | undefined;
  /** How far the mid may wander from its start, basis points; default 2,000 (20 %). */
  readonly bandBps?: number | undefined;
  /** Seed of the prices, sizes and takes; default: from the clock. */
  readonly seed?: number | undefined;
  /** Signed lifetime of a quote; it is replaced after half of it. Default 600 s. */
  readonly quoteLifetimeSeconds?: number | undefined;
  /** How often the book list is read again (new, closed and halted books); default 30,000 ms. */
  readonly booksRefreshMs?: number | undefined;
  /** Bound of every request; default 10,000 ms. */
  readonly requestTimeoutMs?: number | undefined;
  /** Longest wait after failures in a row; default 30,000 ms. */
  readonly maxBackoffMs?: number | undefined;
}

/** The options with every default filled in. */
export type MarketMakerSettings = {
  readonly [K in keyof Omit<MarketMakerOptions, 'taker' | 'fetch' | 'books' | 'onboarding'>]-?: Exclude<
    MarketMakerOptions[K],
    undefined
  >;
} & Pick<MarketMakerOptions, 'taker' | 'fetch' | 'books' | 'onboarding'>;

function whole(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < min || chosen > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}, got ${chosen}`);
  }
  return chosen;
}

/** The options with their defaults, checked; a bad one is a RangeError at construction, never later. */
export function settingsOf(options: MarketMakerOptions, silent: BotLogger): MarketMakerSettings {
  const takeProbability = options.takeProbability ?? 0.2;
  if (!(takeProbability >= 0 && takeProbability <= 1)) {
    throw new RangeError(`takeProbability must be from 0 to 1, got ${takeProbability}`);
  }
  return {
    baseUrl: options.baseUrl,
    maker: options.maker,
    taker: options.taker,
    logger: options.logger ?? silent,
    fetch: options.fetch,
    books: options.books,
    onboarding: options.onboarding,
    referencePrices: options.referencePrices ?? {},
    levels: whole('levels', options.levels, 5, 1, 100),
    spreadBps: whole('spreadBps', options.spreadBps, 20, 1, 5_000),
    levelGapBps: whole('levelGapBps', options.levelGapBps, 10, 1, 5_000),
    sizeMultiple: whole('sizeMultiple', options.sizeMultiple, 10, 1, 1_000_000),
    intervalMs: whole('intervalMs', options.intervalMs, 2_000, 10, 3_600_000),
    takeProbability,
    stepBps: whole('stepBps', options.stepBps, 8, 0, 5_000),
    bandBps: whole('bandBps', options.bandBps, 2_000, 0, 9_000),
    seed: whole('seed', options.seed, Date.now() % 2 ** 32, 0, 2 ** 32 - 1),
    quoteLifetimeSeconds: whole('quoteLifetimeSeconds', options.quoteLifetimeSeconds, 600, 120, 90 * 86_400),
    booksRefreshMs: whole('booksRefreshMs', options.booksRefreshMs, 30_000, 10, 86_400_000),
    requestTimeoutMs: whole('requestTimeoutMs', options.requestTimeoutMs, 10_000, 100, 600_000),
    maxBackoffMs: whole('maxBackoffMs', options.maxBackoffMs, 30_000, 10, 3_600_000),
  };
}
