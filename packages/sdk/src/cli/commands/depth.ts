import { getDepth } from '../../actions/get-depth.js';
import { countOption, wholeNumber } from '../arguments.js';
import { findBook } from '../book-lookup.js';
import type { Command } from '../command.js';
import { renderLadder } from '../ladder.js';
import { pairOf } from '../output.js';
import { watchLadder } from './depth-watch.js';

const DEFAULT_LEVELS = 10;
const MAX_LEVELS = 10_000;

export const depthCommand: Command = {
  name: 'depth',
  synopsis: '<book> [--levels N] [--watch]',
  summary: 'the depth ladder of a book: asks above, bids below, cumulative sizes, the spread',
  help: [
    `  --levels N   levels shown on each side, best first (default ${DEFAULT_LEVELS})`,
    '  --json       the GET /depth snapshot as the API gives it',
    '  --watch      a live ladder, redrawn as the book changes, until Ctrl-C; it follows the depth stream,',
    '               which needs a login (a key, or dex-trade login). Not on a terminal, every frame is',
    '               printed in turn; with --json, one {orderbookId, timestamp, lastUpdateId, bids, asks} a line',
  ].join('\n'),
  options: ['levels', 'watch'],
  arguments: [1, 1],
  async run(context, [book = '']) {
    const orderbookId = wholeNumber(book, 'The book id');
    const levels = countOption(context.values, 'levels', MAX_LEVELS) ?? DEFAULT_LEVELS;
    if (context.values.watch === true) return watchLadder(context, orderbookId, levels);
    const client = context.publicClient();
    if (context.json) {
      context.print(await getDepth(client, { orderbookId }), '');
      return 0;
    }
    const [snapshot, item] = await Promise.all([getDepth(client, { orderbookId }), findBook(client, orderbookId)]);
    context.io.out(renderLadder(snapshot, { levels, title: `${pairOf(item)} (book ${orderbookId})` }));
    return 0;
  },
};
