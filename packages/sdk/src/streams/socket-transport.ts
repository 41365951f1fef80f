import type { SdkError } from '../errors.js';
import type { StreamAddress } from './stream-url.js';

/**
 * The platform half of a stream connection: a WebSocket and nothing else. The protocol (seq
 * checks, heartbeat watchdog, WELCOME, close grace, error mapping) is `openStreamSocket`'s, the
 * same on every platform; `#stream-transport` (the package's `imports`) picks the transport: the
 * `ws` package on Node, the WHATWG `WebSocket` under the `browser` condition.
 */
export interface SocketTransport {
  /**
   * Whether the server's heartbeat pings reach {@link TransportEvents.ping}. A browser answers
   * them without telling the page, so there a quiet open connection cannot be told from a dead one.
   */
  readonly seesPings: boolean;
  readonly state: TransportState;
  /** Sends a close frame with `code`; the connection is gone once `closed` resolves. */
  close(code: number): void;
  /**
   * Drops the connection without a close frame where the platform can (a browser can only close
   * it); `closed` resolves soon after, and nothing more is reported.
   */
  terminate(): void;
  /** Resolves once the connection is gone. */
  readonly closed: Promise<void>;
}

/** What a transport reports of its connection. */
export interface TransportEvents {
  /** The handshake succeeded. */
  open(): void;
  /** One frame: its text, or undefined for a binary frame (the streams send none). */
  message(text: string | undefined): void;
  /** A heartbeat ping from the server. */
  ping(): void;
  /** The handshake was refused and the transport could read why (an `ApiError`, or a `NetworkError` if not). */
  refused(error: SdkError): void;
  /** The connection failed: before the handshake completed, or after. */
  error(cause: Error): void;
  /** The connection closed; `close` follows `error` too. */
  close(code: number, reason: string): void;
}

export type TransportState = 'connecting' | 'open' | 'closing' | 'closed';

/** Opens a connection to `address.url`; errors name `address.shownUrl`, which holds no token. */
export type OpenTransport = (address: StreamAddress, events: TransportEvents) => SocketTransport;

/** How long the handshake may take before the attempt counts as failed. */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

const STATES: readonly TransportState[] = ['connecting', 'open', 'closing', 'closed'];

/** The state of a `readyState`, numbered alike by `ws` and the WHATWG WebSocket. */
export function stateOf(readyState: number): TransportState {
  return STATES[readyState] ?? 'closed';
}
