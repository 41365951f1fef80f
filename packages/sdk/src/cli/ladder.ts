import { type Decimal, formatDecimal, parseDecimal } from '@dex/core';
import type { DepthLevel } from '../types.js';
import { table } from './output.js';

/** What a ladder is drawn from: a `GET /depth` snapshot, or a book a depth stream keeps. */
export interface LadderBook {
  readonly lastUpdateId: number;
  /** Best (highest) first. */
  readonly bids: readonly DepthLevel[];
  /** Best (lowest) first. */
  readonly asks: readonly DepthLevel[];
}

export interface LadderOptions {
  /** Levels shown on each side, best first. */
  readonly levels: number;
  /** First line, before the update id: the pair and the book id. */
  readonly title?: string | undefined;
}

/** Both decimals at the larger of their scales. */
function common(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * 10n ** BigInt(scale - a.scale), b.units * 10n ** BigInt(scale - b.scale), scale];
}

function sum(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = common(a, b);
  return { units: x + y, scale };
}

/** Running totals of the sizes, best level first: the size a taker meets down to each level. */
function cumulative(levels: readonly DepthLevel[]): string[] {
  let total: Decimal = { units: 0n, scale: 0 };
  return levels.map(([, size]) => {
    total = sum(total, parseDecimal(size, 'size'));
    return formatDecimal(total.units, total.scale);
  });
}

/** `spread 0.002 (0.8 %)`: best ask less best bid, and that relative to the mid price in percent. */
function spreadLine(bestBid: DepthLevel | undefined, bestAsk: DepthLevel | undefined): string {
  if (bestBid === undefined || bestAsk === undefined) return 'spread -';
  const [ask, bid, scale] = common(parseDecimal(bestAsk[0], 'price'), parseDecimal(bestBid[0], 'price'));
  const spread = ask - bid;
  // Percent of the mid price, (ask - bid) / ((ask + bid) / 2) * 100, in hundredths, rounded half up.
  const hundredths = (spread * 20_000n * 2n + (ask + bid)) / (2n * (ask + bid));
  return `spread ${formatDecimal(spread, scale)} (${formatDecimal(hundredths, 2)} %)`;
}

/**
 * The depth ladder as text: asks above (worst at the top, best just above the spread), bids below
 * (best first), each level with its price, size and the cumulative size from the best level, the
 * columns aligned on the decimal point. A pure function of the book, shared by `depth` and
 * `depth --watch`.
 *
 * @example
 * WHBAR/USDC (book 1)  update 17
 * SIDE  PRICE  SIZE  TOTAL
 * ask   0.251     2      2
 *       spread 0.002 (0.8 %)
 * bid   0.249     5      5
 */
export function renderLadder(book: LadderBook, options: LadderOptions): string {
  const asks = book.asks.slice(0, options.levels);
  const bids = book.bids.slice(0, options.levels);
  const askTotals = cumulative(asks);
  const bidTotals = cumulative(bids);
  const rows = [
    ...asks.map(([price, size], index) => ['ask', price, size, askTotals[index] ?? '']).reverse(),
    ...bids.map(([price, size], index) => ['bid', price, size, bidTotals[index] ?? '']),
  ];
  const [header = '', ...lines] = table(
    [
      { title: 'SIDE', align: 'left' },
      { title: 'PRICE', align: 'decimal' },
      { title: 'SIZE', align: 'decimal' },
      { title: 'TOTAL', align: 'decimal' },
    ],
    rows,
  ).split('\n');
  const indent = ' '.repeat('SIDE  '.length);
  const hidden = book.asks.length - asks.length + book.bids.length - bids.length;
  return [
    `${options.title === undefined ? '' : `${options.title}  `}update ${book.lastUpdateId}`,
    header,
    ...(asks.length === 0 ? [`${indent}no asks`] : lines.slice(0, asks.length)),
    `${indent}${spreadLine(book.bids[0], book.asks[0])}`,
    ...(bids.length === 0 ? [`${indent}no bids`] : lines.slice(asks.length)),
    ...(hidden === 0
      ? []
      : [`${asks.length} of ${book.asks.length} asks and ${bids.length} of ${book.bids.length} bids shown (--levels)`]),
  ].join('\n');
}
