import { CoreError, parseDecimal } from '@dex/core';
import { getExactInputQuote } from '../../actions/get-exact-input-quote.js';
import { placeOrders } from '../../actions/place-orders.js';
import { limitOrderRequest, marketOrderRequest, snapSizeDown, toDisplay } from '../../amounts.js';
import type { Client } from '../../client.js';
import type { OrderRequest, OrderSide, SavedOrder } from '../../order-types.js';
import type { OrderbookItem } from '../../types.js';
import {
  amountOption,
  choiceOption,
  countOption,
  type OptionValues,
  requiredOption,
  UsageError,
  wholeNumber,
} from '../arguments.js';
import { type BookToken, findBook, poolOptIn, tokenAmount, tokensOf } from '../book-lookup.js';
import { type Command, CommandError } from '../command.js';
import type { CommandContext } from '../context.js';
import { fields, isoTime, pairOf, yesNo } from '../output.js';

/** The server's window for a limit order's deadline: now + 60 s to now + 90 days. */
const MIN_DEADLINE_SECONDS = 60;
const MAX_DEADLINE_SECONDS = 90 * 86_400;

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * The least a market order may receive so that its price is never worse than `price` (quote per
 * base): a sell gets at least price × size of the quote token, a buy at least spend / price of the
 * base token. Rounded up, so the rounding never loosens the limit.
 */
function minOutputAtPrice(side: OrderSide, inputRaw: bigint, priceText: string, base: BookToken, quote: BookToken): bigint {
  let price: { units: bigint; scale: number };
  try {
    price = parseDecimal(priceText, '--price');
  } catch (error) {
    if (error instanceof CoreError) throw new UsageError(error.shortMessage);
    throw error;
  }
  if (price.units === 0n) throw new UsageError('--price must be more than zero');
  const priceScale = 10n ** BigInt(price.scale);
  const [baseUnit, quoteUnit] = [10n ** BigInt(base.decimals), 10n ** BigInt(quote.decimals)];
  return side === 'sell'
    ? ceilDiv(inputRaw * price.units * quoteUnit, priceScale * baseUnit)
    : ceilDiv(inputRaw * baseUnit * priceScale, price.units * quoteUnit);
}

function refuse(values: OptionValues, names: readonly ('spend' | 'size' | 'deadline' | 'maker-only')[], why: string): void {
  const given = names.find((name) => values[name] !== undefined);
  if (given !== undefined) throw new UsageError(`--${given}: ${why}`);
}

function limitRequest(context: CommandContext, book: OrderbookItem, side: OrderSide, amm: boolean): OrderRequest {
  const { values } = context;
  refuse(values, ['spend'], '--spend is for market buys; a limit order takes --price and --size');
  const seconds = countOption(values, 'deadline', MAX_DEADLINE_SECONDS);
  if (seconds !== undefined && seconds < MIN_DEADLINE_SECONDS) {
    throw new UsageError(`--deadline must be at least ${MIN_DEADLINE_SECONDS} seconds (the server's minimum)`);
  }
  return limitOrderRequest(book, {
    side,
    price: requiredOption(values, 'price'),
    size: requiredOption(values, 'size'),
    deadline: seconds === undefined ? undefined : Math.floor(context.io.now() / 1000) + seconds,
    makerOnly: values['maker-only'],
    takerOnce: values['taker-once'],
    isAMMEnabled: amm ? true : undefined,
  });
}

/**
 * A market (immediate-or-cancel) order: a sell spends `--size` of the base token, a buy `--spend`
 * of the quote token. Its price limit is `--price` when given, else the slippage bound of the quote
 * the order will meet: book and pool with `--amm`, the book alone without.
 */
async function marketRequest(
  context: CommandContext,
  client: Client,
  book: OrderbookItem,
  side: OrderSide,
  amm: boolean,
): Promise<OrderRequest> {
  const { values } = context;
  refuse(values, ['deadline', 'maker-only'], 'a market order is immediate-or-cancel; use a limit order');
  const { base, quote } = tokensOf(book);
  let inputAmount: bigint;
  if (side === 'sell') {
    refuse(values, ['spend'], 'a market sell spends --size of the base token');
    inputAmount = amountOption(values, 'size', base.decimals);
    if (snapSizeDown(book, inputAmount) !== inputAmount) throw new UsageError(`--size must be a multiple of ${book.sizeStep}`);
  } else {
    refuse(
      values,
      ['size'],
      `a market buy spends --spend of ${quote.symbol}; \`dex-trade quote --buy\` tells the cost of a size`,
    );
    inputAmount = amountOption(values, 'spend', quote.decimals);
  }
  const [input, output] = side === 'sell' ? [base, quote] : [quote, base];
  let minOutputAmount: bigint;
  if (values.price !== undefined) {
    minOutputAmount = minOutputAtPrice(side, inputAmount, values.price, base, quote);
  } else {
    const quoted = await getExactInputQuote(client, {
      orderbookId: book.id,
      inputToken: input.address,
      inputAmount,
      isAMMEnabled: amm,
    });
    if (!quoted.fillable) {
      const what = `${side === 'sell' ? 'bids' : 'asks'}${amm ? ' and no pool liquidity' : ''}`;
      throw new CommandError(`Book ${book.id} has no ${what} to trade with`);
    }
    minOutputAmount = BigInt(quoted.suggestedOutputAmount);
  }
  if (minOutputAmount === 0n) throw new UsageError(`The order would receive less than one raw unit of ${output.symbol}`);
  return marketOrderRequest(book, {
    side,
    inputAmount,
    minOutputAmount,
    takerOnce: values['taker-once'],
    isAMMEnabled: amm ? true : undefined,
  });
}

function describe(order: SavedOrder, book: OrderbookItem, side: OrderSide): string {
  const { base, quote } = tokensOf(book);
  const [input, output] = side === 'sell' ? [base, quote] : [quote, base];
  const { meta } = order;
  return fields([
    ['order', String(meta.id)],
    ['book', `${pairOf(book)} (book ${book.id})`],
    ['type', `${meta.type} ${side}`],
    // Whether the server honoured the opt-in: the order may take part of its size from the pool.
    ['pool', yesNo(meta.isAMMEnabled)],
    ['spends', tokenAmount(order.input.amount, input)],
    ['receives at least', tokenAmount(order.output.amount, output)],
    ['status', meta.reason === null ? meta.status : `${meta.status} (${meta.reason})`],
    ['filled', `${toDisplay(meta.filledAmount, input.decimals)} of ${tokenAmount(order.input.amount, input)}`],
    ['deadline', isoTime(Number(order.info.deadline) * 1000)],
  ]);
}

export const orderPlaceCommand: Command = {
  name: 'order place',
  synopsis:
    '<book> --side buy|sell --price P --size S [--deadline SECONDS] [--maker-only] [--taker-once] [--amm]\n' +
    '  order place <book> --type market --side sell --size S [--price WORST] [--taker-once] [--amm]\n' +
    '  order place <book> --type market --side buy --spend Q [--price WORST] [--taker-once] [--amm]',
  summary: 'sign and place an order: a limit order, or an immediate-or-cancel market order',
  help: [
    '  --side buy|sell      buy or sell the base token',
    '  --type limit|market  default limit',
    '  --price P            limit price, quote per base, on the tick grid; for a market order the worst',
    '                       price accepted (default: the slippage bound of the quote it will meet,',
    '                       with the pool only with --amm)',
    '  --size S             base amount, on the size grid (a limit order, or a market sell)',
    '  --spend Q            quote amount a market buy spends',
    '  --deadline SECONDS   a limit order lives SECONDS from now (60 to 7776000; default 90 days)',
    '  --maker-only         refused rather than trade at once (limit orders)',
    '  --taker-once         take at most one fill',
    "  --amm                may take part of its size from the book's pool (books with isAMMEnabled 1),",
    "                       never at a worse price than its limit; the output's pool line says if it may",
    '  --json               the POST /orders/save answer',
    '  Exit code 1 when the book rejects the saved order (status REJECTED).',
  ].join('\n'),
  options: ['side', 'type', 'price', 'size', 'spend', 'deadline', 'maker-only', 'taker-once', 'amm'],
  arguments: [1, 1],
  async run(context, [bookArgument = '']) {
    const { values } = context;
    const orderbookId = wholeNumber(bookArgument, 'The book id');
    const side = choiceOption<OrderSide>(values, 'side', ['buy', 'sell']);
    if (side === undefined) throw new UsageError('--side is required');
    const type = choiceOption(values, 'type', ['limit', 'market']) ?? 'limit';
    const client = await context.accountClient('order place', { signs: true });
    const book = await findBook(client, orderbookId);
    const amm = poolOptIn(book, values.amm);
    const request =
      type === 'limit' ? limitRequest(context, book, side, amm) : await marketRequest(context, client, book, side, amm);
    const result = await placeOrders(client, { orders: [request] });
    const [order] = result.orders;
    context.print(result, order === undefined ? 'no order saved' : describe(order, book, side));
    // Saved, but the book refused it (WOULD_TAKE, MARKET_HALTED): a script must not take it for placed.
    return order?.meta.status === 'REJECTED' ? 1 : 0;
  },
};
