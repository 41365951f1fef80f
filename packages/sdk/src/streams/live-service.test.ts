import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIVE_DEPTH_DIFF, LIVE_ORDER_CANCELED, LIVE_ORDER_CREATED } from '@dex/protocol/test-support/live-captures';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createClient } from '../client.js';
import type { SdkError } from '../errors.js';
import { eventually } from '../test-support/eventually.js';
import { watchDepth } from './watch-depth.js';
import { type StreamedUserEvent, watchUserEvents } from './watch-user-events.js';

/**
 * The SDK's streams against a server that answers as the live service does (its captured
 * shapes): no WELCOME, no `seq` or `type` on depth diffs, user events with a `sequence` and no
 * event id, status or filled amount. It stands in for the live service, which a test cannot reach.
 */
interface LiveLike {
  readonly url: string;
  close(): Promise<void>;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((each) => each.close()));
});

/** A token the SDK takes as good for an hour (the server does not check it). */
function token(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: '0.0.7', exp: Math.floor(Date.now() / 1000) + 3600 })}.c2lnbmF0dXJl`;
}

async function startLiveLike(): Promise<LiveLike> {
  const http: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const body =
      url.pathname === '/depth/3'
        ? { orderbookId: '3', timestamp: 1_757_000_000_000, bids: [['101.9', '2']], asks: [['102.2', '1']], lastUpdateId: 40 }
        : url.pathname === '/orders'
          ? { orders: [], total: 0, page: 1, limit: 20, lastUpdateId: 0 }
          : undefined;
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json', date: new Date().toUTCString() });
    response.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  const sockets = new WebSocketServer({ noServer: true });
  http.on('upgrade', (request, socket, head) => {
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const stream = new URL(request.url ?? '/', 'http://localhost').pathname;
      // Sent a moment after the handshake, as a live server sends what happens next.
      setTimeout(() => {
        if (stream === '/ws/depth') ws.send(JSON.stringify(LIVE_DEPTH_DIFF));
        else for (const event of [LIVE_ORDER_CREATED, LIVE_ORDER_CANCELED]) ws.send(JSON.stringify(event));
      }, 100);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const server = {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  open.push(server);
  return server;
}

describe("the SDK's streams against a server that answers as the live service does", () => {
  it('keeps a depth book from bare diffs that carry no envelope', async () => {
    const server = await startLiveLike();
    const errors: SdkError[] = [];
    const stream = watchDepth(createClient({ baseUrl: server.url, accessToken: token() }), {
      books: [3],
      onError: (error) => errors.push(error),
    });
    open.push(stream);
    const book = await eventually('the diff applied', () => {
      const current = stream.book(3);
      return current !== undefined && current.lastUpdateId === 43 ? current : undefined;
    });
    expect(book.asks()).toEqual([
      ['102.1', '3.696778'],
      ['102.2', '1'],
    ]);
    expect(book.bids()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("follows an order's events by their sequence, with the status their type leaves", async () => {
    const server = await startLiveLike();
    const events: StreamedUserEvent[] = [];
    const errors: SdkError[] = [];
    const stream = watchUserEvents(createClient({ baseUrl: server.url, accessToken: token() }), {
      onEvent: (event) => events.push(event),
      onError: (error) => errors.push(error),
    });
    open.push(stream);
    await eventually('both events', () => (events.length === 2 ? true : undefined));
    expect(events.map(({ type, orderId, sequence, status, recovered }) => [type, orderId, sequence, status, recovered])).toEqual([
      ['ORDER_CREATED', '3494124', 1, 'ACTIVE', false],
      ['ORDER_CANCELED', '3494124', 2, 'CANCELED', false],
    ]);
    expect(stream.orders().size).toBe(0);
    expect(errors).toEqual([]);
  });
});
