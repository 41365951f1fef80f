import type { OrderBookView } from '../../streams/depth-book.js';
import { watchDepth } from '../../streams/watch-depth.js';
import { findBook } from '../book-lookup.js';
import type { CommandContext } from '../context.js';
import { followUntilInterrupted } from '../follow.js';
import { renderLadder } from '../ladder.js';
import { jsonLine, pairOf } from '../output.js';

/** Cursor to the top left, then clear the screen: each frame replaces the last one. */
const CLEAR_SCREEN = '\x1b[H\x1b[2J';

/**
 * `depth <book> --watch`: the ladder redrawn each time the book changes, until SIGINT. Built on
 * the SDK's reliable depth stream (snapshot, buffered diffs, resync on any gap), which needs a
 * login because `/ws/depth` does. On a terminal each frame replaces the last; otherwise (a pipe, a
 * file) every frame is printed in turn, and with `--json` one book per line.
 */
export async function watchLadder(context: CommandContext, orderbookId: number, levels: number): Promise<number> {
  const { io } = context;
  const client = await context.accountClient('depth --watch');
  const title = context.json ? '' : `${pairOf(await findBook(client, orderbookId))} (book ${orderbookId})`;
  const draw = (book: OrderBookView) => {
    const bids = book.bids();
    const asks = book.asks();
    if (context.json) {
      io.out(jsonLine({ orderbookId, timestamp: book.timestamp, lastUpdateId: book.lastUpdateId, bids, asks }));
      return;
    }
    const frame = renderLadder({ lastUpdateId: book.lastUpdateId, bids, asks }, { levels, title });
    io.out(io.isTerminal === true ? `${CLEAR_SCREEN}${frame}` : frame);
  };
  return followUntilInterrupted(io, 'depth stream', (options) =>
    watchDepth(client, { books: [orderbookId], onBook: draw, ...options }),
  );
}
