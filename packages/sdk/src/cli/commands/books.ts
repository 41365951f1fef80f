import { getBooks } from '../../actions/get-books.js';
import { bookGrid } from '../../amounts.js';
import type { OrderbookItem } from '../../types.js';
import { countOption } from '../arguments.js';
import type { Command } from '../command.js';
import { pairOf, tableWithFooter, yesNo } from '../output.js';

/** `+0.4000 %`, `-1.2500 %`: the API's 24-hour change, a decimal string, signed. */
function change(percent: string | null): string {
  if (percent === null) return '-';
  return `${percent.startsWith('-') || /^[0.]+$/.test(percent) ? '' : '+'}${percent} %`;
}

/** The lot and minimum notional in whole tokens (the API gives them in raw units); raw if the book lacks decimals. */
function limitsOf(book: OrderbookItem): [lot: string, minNotional: string] {
  if (book.baseTokenDecimals === null || book.quoteTokenDecimals === null) return [book.lotSize, book.minNotional];
  const grid = bookGrid(book);
  return [grid.formatBase(grid.spec.lotSize), grid.formatQuote(grid.minNotionalRaw)];
}

function row(book: OrderbookItem): string[] {
  return [
    String(book.id),
    pairOf(book),
    book.status,
    yesNo(book.isMarketHalted),
    /^0(\.0*)?$/.test(book.quotePrice) ? '-' : book.quotePrice,
    change(book.quotePrice24hPct),
    book.baseVol24h,
    book.quoteVol24h,
    book.tickStep,
    book.sizeStep,
    ...limitsOf(book),
  ];
}

export const booksCommand: Command = {
  name: 'books',
  synopsis: '[--page N] [--limit N]',
  summary: 'the order books: pair, status, last price, 24 h change and volumes, grid',
  help: '  --page N, --limit N   a page of the list (the server gives 100 books a page, at most 500)',
  options: ['page', 'limit'],
  arguments: [0, 0],
  async run(context) {
    const { values } = context;
    const page = await getBooks(context.publicClient(), {
      page: countOption(values, 'page'),
      limit: countOption(values, 'limit'),
    });
    const columns = [
      { title: 'ID', align: 'right' },
      { title: 'PAIR', align: 'left' },
      { title: 'STATUS', align: 'left' },
      { title: 'HALTED', align: 'left' },
      { title: 'LAST', align: 'decimal' },
      { title: '24H', align: 'right' },
      { title: 'BASE VOL', align: 'decimal' },
      { title: 'QUOTE VOL', align: 'decimal' },
      { title: 'TICK', align: 'decimal' },
      { title: 'SIZE STEP', align: 'decimal' },
      { title: 'LOT', align: 'decimal' },
      { title: 'MIN NOTIONAL', align: 'decimal' },
    ] as const;
    const shown = page.orderbooks.length;
    const first = (page.page - 1) * page.limit + 1;
    const footer = shown === 0 ? `no books (${page.total} in all)` : `books ${first}-${first + shown - 1} of ${page.total}`;
    context.print(page, tableWithFooter(columns, page.orderbooks.map(row), footer));
    return 0;
  },
};
