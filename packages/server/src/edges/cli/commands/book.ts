import { gridSpecOfDisplay, MarketGrid } from '@dex/core';
import { DEFAULT_FEES } from '../../../domain/markets/default-fees.js';
import type { BookRecord, BookStatus, TokenRecord } from '../../../domain/markets/market-records.js';
import type { OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { MAX_PIPS, makerFeePips, need, optional, UsageError, type Values, wholeNumber } from '../operator-options.js';
import { describeFees } from './fee-text.js';
import { findToken } from './token-reference.js';

/** A book as the operator sees it: its grid as entered, and the lot and minimum notional in raw units, as `GET /books` serves them. */
interface BookView extends BookRecord {
  readonly lotSizeRaw: string;
  readonly minNotionalRaw: string;
}

function viewOf(book: BookRecord, tokens: readonly TokenRecord[]): BookView {
  const decimals = (id: string) => tokens.find((token) => token.id === id)?.decimals ?? 0;
  const spec = gridSpecOfDisplay({
    baseDecimals: decimals(book.baseTokenId),
    quoteDecimals: decimals(book.quoteTokenId),
    tickStep: book.tickStep,
    sizeStep: book.sizeStep,
    lotSize: book.lotSize,
    minNotional: book.minNotional,
  });
  return { ...book, lotSizeRaw: spec.lotSize.toString(), minNotionalRaw: spec.minNotional.toString() };
}

function describeBook(book: BookView): string {
  const flags = [book.status, book.isHalted ? 'HALTED' : '', book.isAmmEnabled ? 'AMM' : ''].filter(Boolean).join(' ');
  const grid = `tick ${book.tickStep} size ${book.sizeStep} lot ${book.lotSize} (${book.lotSizeRaw} raw) minNotional ${book.minNotional} (${book.minNotionalRaw} raw)`;
  return `${book.id}\t${book.baseTokenId}/${book.quoteTokenId}\t${flags}\t${grid}\tfees ${describeFees(book)}`;
}

/** Prints a book of the store with its raw units. */
async function printBook(book: BookRecord, io: OperatorIo, print: (value: unknown, text: string) => void, verb: string) {
  const view = viewOf(book, await io.markets.tokens());
  print(view, `${verb}${describeBook(view)}`);
}

async function addBook(values: Values, io: OperatorIo): Promise<BookRecord> {
  const tokens = await io.markets.tokens();
  const base = findToken(tokens, need(values, 'base'), '--base');
  const quote = findToken(tokens, need(values, 'quote'), '--quote');
  if (base.id === quote.id) throw new UsageError('--base and --quote must be different tokens');
  // Display decimals of the tokens: the lot in the base token, the minimum notional in the quote token.
  const grid = {
    tickStep: need(values, 'tick-step'),
    sizeStep: need(values, 'size-step'),
    lotSize: need(values, 'lot-size'),
    minNotional: need(values, 'min-notional'),
  };
  // Refuse a grid the tokens cannot have (a step or lot finer than their decimals) before it reaches the store.
  new MarketGrid(gridSpecOfDisplay({ ...grid, baseDecimals: base.decimals, quoteDecimals: quote.decimals }));
  return io.markets.addBook({
    baseTokenId: base.id,
    quoteTokenId: quote.id,
    isAmmEnabled: values.amm === true,
    ...grid,
    takerFeePips: wholeNumber(
      optional(values, 'taker-fee-pips') ?? String(DEFAULT_FEES.takerFeePips),
      'taker-fee-pips',
      MAX_PIPS,
    ),
    makerFeePips: makerFeePips(optional(values, 'maker-fee-pips') ?? String(DEFAULT_FEES.makerFeePips), 'maker-fee-pips'),
    capFractionPips: wholeNumber(
      optional(values, 'cap-fraction-pips') ?? String(DEFAULT_FEES.capFractionPips),
      'cap-fraction-pips',
      MAX_PIPS,
    ),
  });
}

export const bookAddCommand: OperatorCommand = {
  group: 'book',
  actions: ['add'],
  synopsis: ` --base <token id|symbol> --quote <token id|symbol> --tick-step D --size-step D
           --lot-size D --min-notional D [--taker-fee-pips N] [--maker-fee-pips N] [--cap-fraction-pips N] [--amm]
           (decimals: the lot in base tokens, the minimum notional in quote tokens)`,
  async run({ values, print }, io) {
    await printBook(await addBook(values, io), io, print, 'added book ');
    return 0;
  },
};

export const bookListCommand: OperatorCommand = {
  group: 'book',
  actions: ['list'],
  synopsis: '',
  async run({ print }, io) {
    const [books, tokens] = await Promise.all([io.markets.books(), io.markets.tokens()]);
    const views = books.map((book) => viewOf(book, tokens));
    print(views, views.map(describeBook).join('\n'));
    return 0;
  },
};

const BOOK_CHANGES = new Map<string, { status?: BookStatus; isHalted?: boolean }>([
  ['open', { status: 'OPEN' }],
  ['close', { status: 'CLOSED' }],
  ['halt', { isHalted: true }],
  ['resume', { isHalted: false }],
]);

export const bookChangeCommand: OperatorCommand = {
  group: 'book',
  actions: [...BOOK_CHANGES.keys()],
  synopsis: ' <book id>',
  async run({ action, argument, print }, io) {
    const change = BOOK_CHANGES.get(action);
    if (change === undefined) throw new UsageError(`unknown book command "${action}"`);
    if (argument === undefined || !/^[0-9]{1,15}$/.test(argument)) throw new UsageError(`book ${action} needs a book id`);
    const book = await io.markets.changeBook(Number(argument), change);
    if (book === undefined) throw new UsageError(`no book ${argument}`);
    await printBook(book, io, print, 'book ');
    return 0;
  },
};
