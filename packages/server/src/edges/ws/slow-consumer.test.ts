import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { BUY } from '@dex/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader, until } from '../../test-support/harness.js';
import { JWT_PATTERN, StreamClient, streamUrl } from '../../test-support/stream-client.js';
import type { UserEventMessage } from './protocol.js';

const SEND_BUFFER = 16_384;
/** Save-and-cancel rounds the test may run before it gives up; the kernel's socket buffers (a few MB) fill first. */
const MAX_ROUNDS = 80;
const BATCH = 250;

let harness: Harness;

beforeAll(async () => {
  // The default heartbeat (30 s) stays out of the way: the stalled client must be dropped for its buffer alone.
  harness = await startHarness({ WS_SEND_BUFFER_BYTES: String(SEND_BUFFER), METRICS_PORT: '0' }, { listen: true });
});
afterAll(async () => {
  await harness.close();
});

/** A WebSocket client that completes the handshake and then never reads another byte. */
async function neverReading(url: string): Promise<Socket> {
  const target = new URL(url);
  const socket = connect(Number(target.port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write(
    `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const [head] = (await once(socket, 'data')) as [Buffer];
  expect(head.toString('latin1')).toMatch(/^HTTP\/1\.1 101 /);
  socket.pause();
  return socket;
}

describe('slow consumers', () => {
  it('disconnects a client that never reads while a reading client of the same stream gets every message', async () => {
    const flooder = await Trader.ed25519(harness);
    const resting = await flooder.limit(2, BUY, 50_000, 10);
    // Dropped for not reading, the client has lost its view of the orders: cancel-on-disconnect cancels them.
    const stalled = await neverReading(
      streamUrl(harness.url, 'user-events', { token: flooder.token, books: '1,2', cancelOnDisconnect: 'true' }),
    );
    const reader = await StreamClient.open(streamUrl(harness.url, 'user-events', { token: flooder.token, books: '1' }));
    const dropped = () => harness.logs().includes('slow stream consumer disconnected');

    let expected = 0;
    for (let round = 0; round < MAX_ROUNDS && !dropped(); round++) {
      const requests = Array.from({ length: BATCH }, (_, index) => flooder.limitRequest(1, BUY, 10_000 + index, 10));
      const saved = await flooder.place(requests);
      const cancel = await flooder.request('POST', '/cancel', { orderIds: saved.map((meta) => meta.id) });
      expect(cancel.status).toBe(202);
      expected += 2 * saved.length;
    }
    expect(dropped()).toBe(true);

    const last = await reader.waitFor((message) => message.seq === expected);
    const events = reader.messages as UserEventMessage[];
    expect(last.seq).toBe(expected);
    expect(events.map((message) => message.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.filter((event) => event.type === 'ORDER_CANCELED')).toHaveLength(expected / 2);
    await until(async () => {
      const history = await flooder.request<{ events: { type: string; reason: string | null }[] }>(
        'GET',
        `/orders/${resting.id}/history`,
      );
      return history.body.events.find((event) => event.type === 'CANCELED' && event.reason === 'DISCONNECT');
    }, 'the cancellation of the resting order');

    // Whatever the stalled client still finds in its buffers, its connection has ended.
    stalled.resume();
    await Promise.race([
      once(stalled, 'close'),
      new Promise((_, reject) => setTimeout(() => reject(new Error('still open')), 10_000)),
    ]);
    await reader.close();
    expect(harness.logs()).not.toMatch(JWT_PATTERN);
    const metrics = await (await fetch(`${harness.metricsUrl}/metrics`)).text();
    expect(metrics).toContain('dex_ws_slow_consumers_dropped_total{stream="user-events"} 1\n');
  });
});
