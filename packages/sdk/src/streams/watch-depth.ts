import { getDepth } from '../actions/get-depth.js';
import type { Client } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import { type OrderbookId, orderbookIdsParameter } from '../utils/parameters.js';
import { DepthBook, type OrderBookView } from './depth-book.js';
import { type DepthDiff, isDepthDiff } from './messages.js';
import { type ConnectionHandler, ReliableStream, type StreamHandle, type StreamOptions } from './reliable-stream.js';

/** What changed a book: a snapshot it was rebuilt from (after every sync), or one diff. */
export type DepthChange = { readonly kind: 'snapshot' } | { readonly kind: 'diff'; readonly diff: DepthDiff };

export interface WatchDepthParameters extends StreamOptions {
  /** The books to follow, one connection for all (the server allows `WS_MAX_BOOKS`, 20 by default). */
  readonly books: readonly OrderbookId[];
  /**
   * Called with a book each time it changes: with `snapshot` when it was rebuilt (at the start and
   * after every reconnect), then with each diff applied. Read the book inside the call: it keeps
   * changing afterwards.
   */
  readonly onBook?: ((book: OrderBookView, change: DepthChange) => void) | undefined;
}

export interface DepthStream extends StreamHandle {
  /** The book as it stands; undefined until it is in sync, and again while the stream resyncs. */
  book(orderbookId: OrderbookId): OrderBookView | undefined;
}

export type WatchDepthReturnType = DepthStream;

/**
 * Thrown at once: InvalidParameterError for `books`. Reported through `onError` and `closed`: ApiError
 * (a refused handshake or snapshot: 400 `UNKNOWN_ORDERBOOK`, `MARKET_CLOSED`, `TOO_MANY_BOOKS` stop the
 * stream; 401, 429 and 5xx are retried), NetworkError, StreamError, NotAuthenticatedError. In a
 * browser a refused handshake is a NetworkError, retried (see {@link StreamOptions.onError}).
 */
export type WatchDepthErrorType = InvalidParameterError;

/**
 * Follows the depth of order books the reliable way (`/ws/depth`): opens the stream and buffers its
 * diffs, fetches each book's snapshot (`GET /depth`), drops the diffs the snapshot already holds,
 * replays the rest and applies every later diff. A gap in update ids or in the stream's `seq`, a
 * connection lost, or a server gone silent past two heartbeats makes it reconnect (logging in again
 * first when the token is no longer good) and rebuild the books from fresh snapshots.
 *
 * @example
 * const depth = watchDepth(client, {
 *   books: [1],
 *   onBook: (book) => console.log(book.bestBid(), book.bestAsk()),
 *   onError: (error) => console.warn(error.message),
 * });
 * await depth.waitUntilLive();
 * // ...
 * await depth.close();
 */
export function watchDepth(client: Client, parameters: WatchDepthParameters): WatchDepthReturnType {
  const { onBook } = parameters;
  // The stream names each book by its numeric id: a book asked for as "1" is found as 1.
  const books = orderbookIdsParameter(parameters.books, 'books');
  const synced = new Map<number, DepthBook>();

  const connect = (signal: AbortSignal): ConnectionHandler => {
    /** Diffs of each book whose snapshot is still on its way. */
    const pending = new Map<number, DepthDiff[]>(books.map((id) => [id, []]));
    // A lost connection makes every book stale at once; nobody should read one until it is rebuilt.
    signal.addEventListener('abort', () => synced.clear());
    const changed = (book: DepthBook, change: DepthChange) => {
      if (onBook !== undefined) stream.deliver(() => onBook(book, change));
    };
    return {
      sync: async () => {
        await Promise.all(
          books.map(async (orderbookId) => {
            const snapshot = await getDepth(client, { orderbookId });
            if (signal.aborted) return;
            const book = new DepthBook(snapshot);
            for (const diff of pending.get(orderbookId) ?? []) book.apply(diff);
            pending.delete(orderbookId);
            synced.set(orderbookId, book);
            changed(book, { kind: 'snapshot' });
          }),
        );
      },
      message: (message) => {
        if (!isDepthDiff(message)) return;
        const bookId = Number(message.orderbookId);
        const buffer = pending.get(bookId);
        if (buffer !== undefined) {
          buffer.push(message);
          return;
        }
        const book = synced.get(bookId);
        if (book?.apply(message)) changed(book, { kind: 'diff', diff: message });
      },
    };
  };

  const stream = new ReliableStream(client, { stream: 'depth', books, connect }, parameters);
  return Object.assign(stream, {
    book: (orderbookId: OrderbookId) => synced.get(Number(orderbookId)),
  });
}
