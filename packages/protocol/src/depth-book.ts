import { formatDecimal, fromDisplayAmount, MAX_TOKEN_DECIMALS } from '@dex/core';
import type { DepthLevel, DepthSnapshot } from './market-data.js';
import type { DepthDiff } from './streams.js';

/** Levels as a snapshot or diff carries them; the book copies what it keeps. */
type Levels = readonly (readonly [price: string, size: string])[];

/** Why a stream's data was refused: a depth diff skipped updates, or a price or size is not a decimal. */
export type StreamFault = 'update-gap' | 'malformed';

/** Makes the error thrown for a fault, so that each client throws its own kind (the SDK its `StreamError`). */
export type StreamFaultFactory = (
  failure: StreamFault,
  message: string,
  options: { readonly details: string; readonly cause?: unknown },
) => Error;

/** The error thrown for a fault when the caller names no other. */
export class StreamFaultError extends Error {
  override readonly name: string = 'StreamFaultError';

  constructor(
    readonly failure: StreamFault,
    message: string,
    options: { readonly details: string; readonly cause?: unknown },
  ) {
    super(`${message} (${options.details})`, { cause: options.cause });
  }
}

const defaultError: StreamFaultFactory = (failure, message, options) => new StreamFaultError(failure, message, options);

/**
 * A display decimal of the stream (price, size, filled amount) as an integer count of 10^-36: two
 * spellings of one number get one key, and keys compare and add exactly. A value that is not a
 * plain decimal is a malformed message.
 */
export function decimalKey(text: string, what: string, fail: StreamFaultFactory = defaultError): bigint {
  try {
    return fromDisplayAmount(text, MAX_TOKEN_DECIMALS, what);
  } catch (cause) {
    throw fail('malformed', `The stream sent a ${what} that is not a decimal`, {
      details: JSON.stringify(String(text).slice(0, 40)),
      cause,
    });
  }
}

/** The display decimal of a key. */
export function decimalOfKey(key: bigint): string {
  return formatDecimal(key, MAX_TOKEN_DECIMALS);
}

/** A book as a depth stream keeps it; every method answers from memory. */
export interface OrderBookView {
  readonly orderbookId: number;
  /** The last update the book reflects; the next diff continues from `lastUpdateId + 1`. */
  readonly lastUpdateId: number;
  /** Server time, unix ms, of the snapshot or of the last diff applied. */
  readonly timestamp: number;
  /** Bid levels, best (highest) first; `limit` keeps the best ones only. A fresh array each call. */
  bids(limit?: number): DepthLevel[];
  /** Ask levels, best (lowest) first. */
  asks(limit?: number): DepthLevel[];
  bestBid(): DepthLevel | undefined;
  bestAsk(): DepthLevel | undefined;
}

interface Entry {
  /** The price in units of 10^-36: prices compare as numbers, whatever their spelling. */
  readonly key: bigint;
  level: DepthLevel;
}

/** One side of a book: levels kept sorted best first, found by binary search. */
class BookSide {
  private readonly entries: Entry[] = [];

  constructor(
    private readonly descending: boolean,
    private readonly fail: StreamFaultFactory,
  ) {}

  set([price, size]: readonly [string, string]): void {
    const key = decimalKey(price, 'price', this.fail);
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const other = (this.entries[middle] as Entry).key;
      if (this.descending ? other > key : other < key) low = middle + 1;
      else high = middle;
    }
    const found = this.entries[low];
    const zero = decimalKey(size, 'size', this.fail) === 0n;
    if (found !== undefined && found.key === key) {
      if (zero) this.entries.splice(low, 1);
      else found.level = [price, size];
    } else if (!zero) {
      this.entries.splice(low, 0, { key, level: [price, size] });
    }
  }

  levels(limit: number | undefined): DepthLevel[] {
    return this.entries.slice(0, limit).map(({ level: [price, size] }) => [price, size]);
  }

  best(): DepthLevel | undefined {
    const first = this.entries[0];
    return first === undefined ? undefined : [first.level[0], first.level[1]];
  }
}

/**
 * A book rebuilt from `GET /depth` and kept current by depth diffs. A diff that ends at or before
 * the book's update id changes nothing (sizes are absolute); one that starts past `lastUpdateId + 1`
 * is a gap: the book throws an `update-gap` error and stays as it was.
 */
export class DepthBook implements OrderBookView {
  private readonly bidSide: BookSide;
  private readonly askSide: BookSide;
  readonly orderbookId: number;
  #lastUpdateId: number;
  #timestamp: number;

  constructor(
    snapshot: Pick<DepthSnapshot, 'lastUpdateId' | 'timestamp'> & {
      /** A decimal string as the API sends it, or the number of `GET /books`. */
      readonly orderbookId: string | number;
      readonly bids: Levels;
      readonly asks: Levels;
    },
    private readonly fail: StreamFaultFactory = defaultError,
  ) {
    this.bidSide = new BookSide(true, fail);
    this.askSide = new BookSide(false, fail);
    this.orderbookId = Number(snapshot.orderbookId);
    this.#lastUpdateId = snapshot.lastUpdateId;
    this.#timestamp = snapshot.timestamp;
    for (const level of snapshot.bids) this.bidSide.set(level);
    for (const level of snapshot.asks) this.askSide.set(level);
  }

  get lastUpdateId(): number {
    return this.#lastUpdateId;
  }

  get timestamp(): number {
    return this.#timestamp;
  }

  /** Applies a diff of this book; false when the book already had it. */
  apply(
    diff: Pick<DepthDiff, 'firstUpdateId' | 'finalUpdateId' | 'timestamp'> & { readonly bids: Levels; readonly asks: Levels },
  ): boolean {
    if (diff.finalUpdateId <= this.#lastUpdateId) return false;
    if (diff.firstUpdateId > this.#lastUpdateId + 1) {
      throw this.fail('update-gap', `Book ${this.orderbookId} missed updates`, {
        details: `it holds update ${this.#lastUpdateId}, the next diff covers ${diff.firstUpdateId}..${diff.finalUpdateId}`,
      });
    }
    // Check every price and size before touching the book, so a bad diff leaves it whole.
    for (const [price, size] of [...diff.bids, ...diff.asks]) {
      decimalKey(price, 'price', this.fail);
      decimalKey(size, 'size', this.fail);
    }
    for (const level of diff.bids) this.bidSide.set(level);
    for (const level of diff.asks) this.askSide.set(level);
    this.#lastUpdateId = diff.finalUpdateId;
    this.#timestamp = diff.timestamp;
    return true;
  }

  bids(limit?: number): DepthLevel[] {
    return this.bidSide.levels(limit);
  }

  asks(limit?: number): DepthLevel[] {
    return this.askSide.levels(limit);
  }

  bestBid(): DepthLevel | undefined {
    return this.bidSide.best();
  }

  bestAsk(): DepthLevel | undefined {
    return this.askSide.best();
  }
}
