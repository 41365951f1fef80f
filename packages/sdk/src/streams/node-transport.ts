import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { refusalError } from './refused-upgrade.js';
import { HANDSHAKE_TIMEOUT_MS, type OpenTransport, stateOf } from './socket-transport.js';

/**
 * The stream transport on Node: the `ws` package, because it lets a refused upgrade be read, so a
 * 401 (log in again) can be told from a 400 (unknown book: stop) and a 503's `Retry-After` honoured.
 */
export const openTransport: OpenTransport = (address, events) => {
  const socket = new WebSocket(address.url, { perMessageDeflate: false, handshakeTimeout: HANDSHAKE_TIMEOUT_MS });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));

  socket.on('unexpected-response', (_request, response: IncomingMessage) => {
    // It never rejects: an unreadable refusal is a network error.
    void refusalError(response, address.shownUrl).then(events.refused);
  });
  socket.on('open', events.open);
  socket.on('error', events.error);
  socket.on('close', (code, reason) => events.close(code, reason.toString('utf8')));
  socket.on('ping', events.ping);
  socket.on('message', (data, isBinary) => events.message(isBinary ? undefined : data.toString()));

  return {
    seesPings: true,
    get state() {
      return stateOf(socket.readyState);
    },
    close: (code) => socket.close(code),
    terminate: () => socket.terminate(),
    closed,
  };
};
