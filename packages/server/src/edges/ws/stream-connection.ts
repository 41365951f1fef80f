import { WebSocket } from 'ws';
import { type Metrics, noMetrics } from '../../ports/metrics.js';
import { numbered, type StreamName } from './protocol.js';

/** Who is on the other end of a stream and what it follows, as the handshake established it. */
export interface StreamSubscription {
  readonly stream: StreamName;
  readonly account: string;
  /** Books followed; null: every book (user events only). */
  readonly books: ReadonlySet<number> | null;
  /** Client address, counted against the per-address limit. */
  readonly ip: string;
  /** Cancel the account's open orders on `books` when the connection is lost. */
  readonly cancelOnDisconnect: boolean;
}

/** Why the server ended a connection, when it was the server. */
export type ServerEnding = 'shutdown' | 'heartbeat' | 'slow-consumer' | 'protocol-error';

/**
 * One open stream: numbers its messages and enforces the send-buffer cap. A message that would take
 * the unsent bytes of the connection past the cap is not queued; the connection is handed to
 * `onSlow` instead, which drops it, so a client that stops reading never grows the server's memory
 * or holds up the others.
 */
export class StreamConnection {
  /** Cleared when a ping goes out, set by the pong; still clear at the next heartbeat: the peer is gone. */
  alive = true;
  /** Set when the server ends the connection, before it does. */
  endedBy: ServerEnding | undefined;
  private seq = 0;

  constructor(
    readonly id: string,
    readonly socket: WebSocket,
    readonly subscription: StreamSubscription,
    private readonly sendBufferBytes: number,
    private readonly onSlow: (connection: StreamConnection) => void,
    private readonly metrics: Metrics = noMetrics,
  ) {}

  follows(bookId: number): boolean {
    return this.subscription.books === null || this.subscription.books.has(bookId);
  }

  /** Sends an encoded message body with the next sequence number; false when it was not sent. */
  send(encoded: string): boolean {
    if (this.socket.readyState !== WebSocket.OPEN) return false;
    // Bodies are ASCII JSON (numbers, ids, decimal strings), so their length is their size in bytes.
    if (this.socket.bufferedAmount + encoded.length > this.sendBufferBytes) {
      this.onSlow(this);
      return false;
    }
    this.seq++;
    this.socket.send(numbered(encoded, this.seq));
    this.metrics.streamMessageSent(this.subscription.stream);
    return true;
  }
}
