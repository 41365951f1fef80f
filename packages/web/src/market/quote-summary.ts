import { type ExactInputQuote, type ExactOutputQuote, toDisplay } from '@dex/sdk';
import { divideToDecimal, scaleOf } from '../decimal.js';
import { type QuoteBook, type QuoteSide, receivedToken, spentToken, type TokenRole, tokenDecimals } from './quote-request.js';

export type QuoteAnswer =
  | { readonly mode: 'exact-input'; readonly quote: ExactInputQuote }
  | { readonly mode: 'exact-output'; readonly quote: ExactOutputQuote };

export interface QuoteAmount {
  /** The answer's field name, e.g. `expectedOutputAmount`. */
  readonly field: string;
  readonly label: string;
  readonly token: TokenRole;
  /** The raw integer string as the API sent it. */
  readonly raw: string;
  /** The same amount in whole tokens; undefined when the book does not say the token's decimals. */
  readonly display: string | undefined;
}

export interface QuoteSummary {
  readonly amounts: readonly QuoteAmount[];
  /** Quote per base of the expected fill, rounded down; undefined for an empty fill or unknown decimals. */
  readonly averagePrice: string | undefined;
  readonly fillable: boolean;
  readonly slippageBps: number;
}

/** Digits of the average price beyond the book's tick, so it shows how the fill sits between ticks. */
const EXTRA_PRICE_DIGITS = 4;

type AmountSpec = readonly [field: string, label: string, token: TokenRole, raw: string];

function amountSpecs(answer: QuoteAnswer, side: QuoteSide): AmountSpec[] {
  const spent = spentToken(side);
  const received = receivedToken(side);
  if (answer.mode === 'exact-input') {
    const q = answer.quote;
    const unspent = BigInt(q.snappedInputAmount) - BigInt(q.consumedInputAmount);
    return [
      ['snappedInputAmount', 'To spend (on the size grid)', spent, q.snappedInputAmount],
      ['consumedInputAmount', 'Taken by the book', spent, q.consumedInputAmount],
      // Grid rounding of what is bought, or a book thinner than the amount, leaves some of it unused.
      ...(unspent > 0n ? [['unspentInputAmount', 'Left unspent', spent, unspent.toString()] as const] : []),
      ['expectedOutputAmount', 'Expected to receive', received, q.expectedOutputAmount],
      ['suggestedOutputAmount', 'Suggested minimum to receive', received, q.suggestedOutputAmount],
    ];
  }
  const q = answer.quote;
  return [
    ['requestedOutputAmount', 'Requested', received, q.requestedOutputAmount],
    ['snappedOutputAmount', 'To receive (on the size grid)', received, q.snappedOutputAmount],
    ['expectedInputAmount', 'Expected to spend', spent, q.expectedInputAmount],
    ['suggestedInputAmount', 'Suggested maximum to spend', spent, q.suggestedInputAmount],
  ];
}

/** The raw amounts that actually trade: what is spent and what is received for it. */
function filledAmounts(answer: QuoteAnswer): { spent: string; received: string } {
  return answer.mode === 'exact-input'
    ? { spent: answer.quote.consumedInputAmount, received: answer.quote.expectedOutputAmount }
    : { spent: answer.quote.expectedInputAmount, received: answer.quote.snappedOutputAmount };
}

/** (quote / 10^quoteDecimals) / (base / 10^baseDecimals), exact to `digits` decimals. */
export function averagePrice(book: QuoteBook, baseRaw: string, quoteRaw: string, digits: number): string | undefined {
  const { baseTokenDecimals, quoteTokenDecimals } = book;
  if (baseTokenDecimals === null || quoteTokenDecimals === null) return undefined;
  const base = BigInt(baseRaw);
  if (base === 0n) return undefined;
  return divideToDecimal(BigInt(quoteRaw) * 10n ** BigInt(baseTokenDecimals), base * 10n ** BigInt(quoteTokenDecimals), digits);
}

/** What the quote form shows of an answer: each amount raw and in tokens, the average price, fillability. */
export function summariseQuote(book: QuoteBook, side: QuoteSide, answer: QuoteAnswer): QuoteSummary {
  const amounts = amountSpecs(answer, side).map(([field, label, token, raw]): QuoteAmount => {
    const decimals = tokenDecimals(book, token);
    return { field, label, token, raw, display: decimals === null ? undefined : toDisplay(raw, decimals) };
  });
  const { spent, received } = filledAmounts(answer);
  const [baseRaw, quoteRaw] = side === 'sell' ? [spent, received] : [received, spent];
  return {
    amounts,
    averagePrice: averagePrice(book, baseRaw, quoteRaw, scaleOf(book.tickStep) + EXTRA_PRICE_DIGITS),
    fillable: answer.quote.fillable,
    slippageBps: answer.quote.slippageBps,
  };
}
