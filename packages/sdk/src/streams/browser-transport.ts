import { SdkError } from '../errors.js';
import { type OpenTransport, stateOf } from './socket-transport.js';

/**
 * The part of the WHATWG WebSocket used here, declared so that the file typechecks without the
 * DOM library (the repository's checks run on Node's types).
 */
interface WhatwgWebSocket {
  readonly readyState: number;
  binaryType: string;
  close(code?: number): void;
  addEventListener(type: 'open' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { readonly code: number; readonly reason: string }) => void): void;
}

type WhatwgWebSocketClass = new (url: string) => WhatwgWebSocket;

/**
 * Why a handshake failed, as far as a browser lets a page know: it hides the answer of a refused
 * upgrade, so a 401, a 400 and an unreachable server all look alike.
 */
const HANDSHAKE_FAILED =
  'the WebSocket handshake failed; a browser does not tell a refusal (401, 400, 429, 503) from an unreachable server';

/**
 * The stream transport in a browser: `globalThis.WebSocket`. The stream token travels in the URL,
 * so no header is needed. Unlike Node's (`ws`), it cannot read a refused handshake, so every
 * failed handshake is a `NetworkError` that the reliable stream retries with its backoff, and it
 * cannot see the server's heartbeat pings (the browser answers them itself).
 */
export const openTransport: OpenTransport = (address, events) => {
  const Socket = (globalThis as { WebSocket?: WhatwgWebSocketClass }).WebSocket;
  if (Socket === undefined) throw new SdkError('This platform has no WebSocket', { details: 'Node has one from version 22' });
  const socket = new Socket(address.url);
  // Binary frames are refused unread: an ArrayBuffer spares the browser making a Blob of one.
  socket.binaryType = 'arraybuffer';
  let opened = false;
  let gone = false;
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const end = (): void => {
    gone = true;
    resolveClosed();
  };

  socket.addEventListener('open', () => {
    opened = true;
    events.open();
  });
  // After the handshake an error event carries nothing and a close event with its code follows.
  socket.addEventListener('error', () => {
    if (!opened && !gone) events.error(new Error(HANDSHAKE_FAILED));
  });
  socket.addEventListener('close', ({ code, reason }) => {
    if (gone) return;
    end();
    if (opened) events.close(code, reason);
    else events.error(new Error(HANDSHAKE_FAILED));
  });
  socket.addEventListener('message', ({ data }) => {
    if (!gone) events.message(typeof data === 'string' ? data : undefined);
  });

  return {
    seesPings: false,
    get state() {
      return stateOf(socket.readyState);
    },
    close: (code) => socket.close(code),
    // A page cannot drop a connection without a close frame; it stops listening instead.
    terminate: () => {
      const state = stateOf(socket.readyState);
      if (state === 'connecting' || state === 'open') socket.close();
      end();
    },
    closed,
  };
};
