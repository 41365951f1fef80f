import type { StreamedUserEvent } from '../../streams/watch-user-events.js';
import { watchUserEvents } from '../../streams/watch-user-events.js';
import { wholeNumber } from '../arguments.js';
import type { Command } from '../command.js';
import { followUntilInterrupted } from '../follow.js';
import { isoTime, jsonLine } from '../output.js';

/** One event as a line: time, type, order, book, the order's state after it. */
function eventLine(event: StreamedUserEvent): string {
  const status = event.reason == null ? event.status : `${event.status} (${event.reason})`;
  const recovered = event.recovered ? '  (missed while reconnecting)' : '';
  // A server that does not send the filled amount (the live service): the order's listing has it.
  const filled = event.filledAmount === undefined ? '' : `  filled ${event.filledAmount}`;
  return `${isoTime(event.timestamp)}  ${event.type.padEnd(22)}  order ${event.orderId}  book ${event.orderbookId}  ${status}${filled}${recovered}`;
}

export const orderEventsCommand: Command = {
  name: 'order events',
  synopsis: '[--book N] [--cancel-on-disconnect]',
  summary: "follow the account's order events live, until Ctrl-C",
  help: [
    "  Prints each event of the account's orders as it happens (created, filled, cancelled, expired,",
    '  rejected), over the user-event stream; after a reconnect, the events missed meanwhile first.',
    '  --book N                 only the orders of this book',
    "  --cancel-on-disconnect   the server cancels the account's open orders (of --book, else all) if this",
    '                           connection is lost: the process is killed, the network drops, it stops',
    '                           answering. Ctrl-C closes it cleanly and keeps them.',
    '  --json                   one event a line, as the SDK tells it',
  ].join('\n'),
  options: ['book', 'cancel-on-disconnect'],
  arguments: [0, 0],
  async run(context) {
    const { io, values } = context;
    const books = values.book === undefined ? undefined : [wholeNumber(values.book, '--book')];
    const cancelOnDisconnect = values['cancel-on-disconnect'] === true;
    const client = await context.accountClient('order events');
    if (cancelOnDisconnect) {
      io.err('dex-trade: cancel-on-disconnect: the open orders are cancelled if this connection is lost; Ctrl-C keeps them');
    }
    return followUntilInterrupted(io, 'user-event stream', (options) =>
      watchUserEvents(client, {
        books,
        cancelOnDisconnect,
        onEvent: (event) => io.out(context.json ? jsonLine(event) : eventLine(event)),
        ...options,
      }),
    );
  },
};
