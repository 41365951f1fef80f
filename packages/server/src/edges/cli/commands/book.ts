import { MarketGrid } from '@dex/core';
import { DEFAULT_FEES } from '../../../domain/markets/default-fees.js';
import type { BookRecord, BookStatus } from '../../../domain/markets/market-records.js';
import { listCommand, type OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { MAX_PIPS, need, optional, UsageError, type Values, wholeNumber } from '../operator-options.js';
import { findToken } from './token-reference.js';

function describeBook(book: BookRecord): string {
  const flags = [book.status, book.isHalted ? 'HALTED' : '', book.isAmmEnabled ? 'AMM' : ''].filter(Boolean).join(' ');
  return `${book.id}\t${book.baseTokenId}/${book.quoteTokenId}\t${flags}\ttick ${book.tickStep} size ${book.sizeStep} lot ${book.lotSize} minNotional ${book.minNotional}\tfees taker ${book.takerFeePips} maker ${book.makerFeePips} pips`;
}

async function addBook(values: Values, io: OperatorIo): Promise<BookRecord> {
  const tokens = await io.store.tokens.list();
  const base = findToken(tokens, need(values, 'base'), '--base');
  const quote = findToken(tokens, need(values, 'quote'), '--quote');
  if (base.id === quote.id) throw new UsageError('--base and --quote must be different tokens');
  const grid = {
    tickStep: need(values, 'tick-step'),
    sizeStep: need(values, 'size-step'),
    lotSize: need(values, 'lot-size'),
    minNotional: need(values, 'min-notional'),
  };
  // Refuse a grid on which fills would need rounding, before it reaches the store.
  new MarketGrid({ ...grid, baseDecimals: base.decimals, quoteDecimals: quote.decimals });
  return io.store.books.insert(
    {
      baseTokenId: base.id,
      quoteTokenId: quote.id,
      isAmmEnabled: values.amm === true,
      ...grid,
      takerFeePips: wholeNumber(
        optional(values, 'taker-fee-pips') ?? String(DEFAULT_FEES.takerFeePips),
        'taker-fee-pips',
        MAX_PIPS,
      ),
      makerFeePips: wholeNumber(
        optional(values, 'maker-fee-pips') ?? String(DEFAULT_FEES.makerFeePips),
        'maker-fee-pips',
        MAX_PIPS,
      ),
    },
    io.clock.now(),
  );
}

export const bookAddCommand: OperatorCommand = {
  group: 'book',
  actions: ['add'],
  synopsis: ` --base <token id|symbol> --quote <token id|symbol> --tick-step D --size-step D
           --lot-size D --min-notional D [--taker-fee-pips N] [--maker-fee-pips N] [--amm]`,
  async run({ values, print }, io) {
    const book = await addBook(values, io);
    print(book, `added book ${describeBook(book)}`);
    return 0;
  },
};

export const bookListCommand = listCommand('book', (io) => io.store.books.list(), describeBook);

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
    const book = await io.store.books.update(Number(argument), change, io.clock.now());
    if (book === undefined) throw new UsageError(`no book ${argument}`);
    print(book, `book ${describeBook(book)}`);
    return 0;
  },
};
