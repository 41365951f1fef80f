import type { IncomingHttpHeaders } from 'node:http';
import { type ClientOptions, WebSocket } from 'ws';
import type { ServerMessage, StreamName } from '../edges/ws/protocol.js';

/** A stream the server refused to open: the HTTP status and JSON body of its answer. */
export class UpgradeRefused extends Error {
  override readonly name = 'UpgradeRefused';

  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`upgrade refused with ${status}: ${JSON.stringify(body)}`);
  }
}

/** The query of a stream URL, as text (a test may send what the server must refuse). */
export interface StreamQuery {
  readonly token?: string;
  readonly books?: string;
  readonly welcome?: string;
  readonly cancelOnDisconnect?: string;
}

/** `ws://host:port/ws/<stream>?token=...&books=...` for a server at `base` (`http://host:port`). */
export function streamUrl(base: string, stream: StreamName, query: StreamQuery): string {
  const url = new URL(`/ws/${stream}`, base.replace(/^http/, 'ws'));
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

const WAIT_MS = 5_000;

interface Waiter {
  readonly predicate: (message: ServerMessage) => boolean;
  readonly resolve: (message: ServerMessage) => void;
}

/**
 * A real WebSocket client for tests and the benchmark. It keeps every message it receives unless
 * told not to (the benchmark's thousand clients only listen).
 */
export class StreamClient {
  readonly messages: ServerMessage[] = [];
  /** Messages whose `seq` did not follow the previous one's: loss the client would have to resync from. */
  seqGaps = 0;
  /** The headers of the server's 101 answer (the connection's metadata). */
  headers: IncomingHttpHeaders = {};
  /** Resolves when the connection closes, with the close code the client saw. */
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly waiters = new Set<Waiter>();
  private readonly listeners = new Set<(message: ServerMessage) => void>();
  private lastSeq = 0;

  private constructor(
    readonly socket: WebSocket,
    keepMessages: boolean,
  ) {
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    socket.once('upgrade', (response) => {
      this.headers = response.headers;
    });
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as ServerMessage;
      if (message.seq !== this.lastSeq + 1) this.seqGaps++;
      this.lastSeq = message.seq;
      if (keepMessages) this.messages.push(message);
      for (const listener of this.listeners) listener(message);
      for (const waiter of this.waiters) {
        if (waiter.predicate(message)) {
          this.waiters.delete(waiter);
          waiter.resolve(message);
        }
      }
    });
  }

  /**
   * Opens a stream; rejects with UpgradeRefused when the server answers the upgrade with an error.
   * Once it resolves the server follows the connection: whatever changes after reaches it.
   */
  static open(url: string, options: ClientOptions = {}, keepMessages = true): Promise<StreamClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false, ...options });
      const client = new StreamClient(socket, keepMessages);
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON: the refusal test will say so.
          }
          reject(new UpgradeRefused(response.statusCode ?? 0, body));
        });
      });
    });
  }

  /** Calls `listener` with every later message (the benchmark's replicas follow the stream this way). */
  onMessage(listener: (message: ServerMessage) => void): void {
    this.listeners.add(listener);
  }

  /** The first message so far, or the next to come, that satisfies the predicate; rejects after `timeoutMs`. */
  waitFor<M extends ServerMessage>(predicate: (message: ServerMessage) => message is M, timeoutMs?: number): Promise<M>;
  waitFor(predicate: (message: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
  waitFor(predicate: (message: ServerMessage) => boolean, timeoutMs = WAIT_MS): Promise<ServerMessage> {
    const seen = this.messages.find(predicate);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no matching stream message within ${timeoutMs} ms (${this.messages.length} received)`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Closes the connection and waits until it is closed. */
  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) this.socket.close();
    await this.closed;
  }
}

/** Anything that looks like a compact JWS (a JWT): what no log line may contain. */
export const JWT_PATTERN = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/;
