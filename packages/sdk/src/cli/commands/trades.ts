import { getTrades, type TradeSort } from '../../actions/get-trades.js';
import { choiceOption, countOption, wholeNumber } from '../arguments.js';
import type { Command } from '../command.js';
import { isoTime, tableWithFooter } from '../output.js';

export const tradesCommand: Command = {
  name: 'trades',
  synopsis: '<book> [--limit N] [--page N] [--sort asc|desc]',
  summary: "a book's trade tape, newest first",
  help: [
    '  --limit N          trades per page (the server gives 10, at most 100)',
    '  --page N           1-based page',
    '  --sort asc|desc    oldest or newest first (default desc)',
  ].join('\n'),
  options: ['limit', 'page', 'sort'],
  arguments: [1, 1],
  async run(context, [book = '']) {
    const { values } = context;
    const tape = await getTrades(context.publicClient(), {
      orderbookId: wholeNumber(book, 'The book id'),
      sort: choiceOption<TradeSort>(values, 'sort', ['asc', 'desc']),
      limit: countOption(values, 'limit'),
      page: countOption(values, 'page'),
    });
    const rows = tape.trades.map((trade) => [
      isoTime(trade.timestamp),
      trade.direction,
      trade.price,
      trade.amountBase,
      trade.transactionHash === '' ? 'unsettled' : trade.transactionHash,
    ]);
    const columns = [
      { title: 'TIME', align: 'left' },
      { title: 'TAKER', align: 'left' },
      { title: 'PRICE', align: 'decimal' },
      { title: 'SIZE', align: 'decimal' },
      { title: 'TRANSACTION', align: 'left' },
    ] as const;
    const footer = `page ${tape.page}: ${tape.trades.length} of ${tape.total} trades`;
    context.print(tape, tableWithFooter(columns, rows, footer));
    return 0;
  },
};
