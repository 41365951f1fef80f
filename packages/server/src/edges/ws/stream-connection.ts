import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import { type EncodedBody, numberedFrame, type StreamName } from './protocol.js';

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
 *
 * Messages go to `wire`, the socket `ws` took over, as whole frames: `ws` writes each of its own
 * frames (pings, the close) at once and in one piece, since the streams use no compression, so
 * frames never interleave; its `bufferedAmount` still counts what waits in the socket.
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
    private readonly wire: Duplex,
    readonly subscription: StreamSubscription,
    private readonly sendBufferBytes: number,
    private readonly onSlow: (connection: StreamConnection) => void,
  ) {}

  follows(bookId: number): boolean {
    return this.subscription.books === null || this.subscription.books.has(bookId);
  }

  /** Sends an encoded message body with the next sequence number; false when it was not sent. */
  send(body: EncodedBody): boolean {
    if (this.socket.readyState !== WebSocket.OPEN) return false;
    const frame = numberedFrame(body, this.seq + 1);
    if (this.socket.bufferedAmount + frame.length > this.sendBufferBytes) {
      this.onSlow(this);
      return false;
    }
    this.seq++;
    this.wire.write(frame);
    return true;
  }
}
