import { BUY } from '@dex/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader, until } from '../../test-support/harness.js';
import { StreamClient, type StreamQuery, streamUrl, UpgradeRefused } from '../../test-support/stream-client.js';
import type { ServerMessage, UserEventMessage } from './protocol.js';

/** Short enough to see a silent peer go within a test, long enough that a busy test process still answers in time. */
const HEARTBEAT_MS = 250;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ WS_HEARTBEAT_MS: String(HEARTBEAT_MS) }, { listen: true });
});
afterAll(async () => {
  await harness.close();
});

function userEvents(trader: Trader, query: Omit<StreamQuery, 'token'> = {}, autoPong = true): Promise<StreamClient> {
  return StreamClient.open(streamUrl(harness.url, 'user-events', { token: trader.token, ...query }), { autoPong });
}

/** A trader with a resting bid on each of the three devnet books; returns its order ids by book. */
async function restingOnEveryBook(): Promise<{ trader: Trader; byBook: Record<1 | 2 | 3, number> }> {
  const trader = await Trader.secp256k1(harness);
  const [one, two, three] = await trader.place([
    trader.limitRequest(1, BUY, 15_000, 10),
    trader.limitRequest(2, BUY, 50_000, 10),
    trader.limitRequest(3, BUY, 2_000, 20),
  ]);
  if (one === undefined || two === undefined || three === undefined) throw new Error('not saved');
  return { trader, byBook: { 1: one.id, 2: two.id, 3: three.id } };
}

/** Status and reason of each of the trader's orders, by id, once the desk has stored all it was asked to do. */
async function ordersOf(trader: Trader): Promise<Record<number, string>> {
  await harness.services.desk.expireDue();
  const reply = await trader.request<{ orders: { id: number; status: string; reason: string | null }[] }>(
    'GET',
    '/orders?limit=500',
  );
  return Object.fromEntries(reply.body.orders.map((order) => [order.id, `${order.status} ${order.reason ?? ''}`.trim()]));
}

function untilOrders(trader: Trader, expected: Record<number, string>): Promise<true> {
  return until(
    async () => (JSON.stringify(await ordersOf(trader)) === JSON.stringify(expected) ? true : undefined),
    `orders ${JSON.stringify(expected)}`,
    10_000,
  );
}

/** The server's log lines about one connection. */
function logsOf(client: StreamClient): string[] {
  const id = String(client.headers['x-stream-connection-id']);
  return harness
    .logs()
    .split('\n')
    .filter((line) => line.includes(id));
}

/** Waits until the server has seen the connection end (its `stream closed` line). */
function serverSawEnd(client: StreamClient): Promise<true> {
  return until(() => (logsOf(client).some((line) => line.includes('"stream closed"')) ? true : undefined), 'the close');
}

describe('cancel-on-disconnect', () => {
  it('tells the connection it is armed, in the headers and the welcome', async () => {
    const trader = await Trader.secp256k1(harness);
    const client = await userEvents(trader, { cancelOnDisconnect: '1', welcome: 'true', books: '2' });
    expect(client.headers['x-stream-cancel-on-disconnect']).toBe('true');
    expect(await client.waitFor((message) => message.type === 'WELCOME')).toMatchObject({ cancelOnDisconnect: true, books: [2] });
    await client.close();
  });

  it("cancels the account's open orders on the followed books when the socket is cut; other books and accounts keep theirs", async () => {
    const { trader: alice, byBook } = await restingOnEveryBook();
    const bob = await Trader.ed25519(harness);
    const bobs = await bob.limit(1, BUY, 15_000, 10);
    const watcher = await userEvents(alice);
    const armed = await userEvents(alice, { books: '1,2', cancelOnDisconnect: 'true' });

    armed.socket.terminate(); // no close frame: the peer vanished
    expect((await armed.closed).code).toBe(1006);
    await untilOrders(alice, {
      [byBook[3]]: 'ACTIVE',
      [byBook[2]]: 'CANCELED DISCONNECT',
      [byBook[1]]: 'CANCELED DISCONNECT',
    });
    expect(await ordersOf(bob)).toEqual({ [bobs.id]: 'ACTIVE' });
    for (const orderId of [byBook[1], byBook[2]]) {
      await watcher.waitFor(
        (message: ServerMessage): message is UserEventMessage =>
          message.type === 'ORDER_CANCELED' && message.orderId === String(orderId) && message.reason === 'DISCONNECT',
      );
    }
    await watcher.close();
  });

  it('cancels nothing when the client closes the connection cleanly, whatever its close code', async () => {
    const { trader, byBook } = await restingOnEveryBook();
    for (const code of [1000, 4000]) {
      const client = await userEvents(trader, { cancelOnDisconnect: 'true' });
      client.socket.close(code);
      await client.closed;
      await serverSawEnd(client);
      expect(logsOf(client).some((line) => line.includes('stream lost'))).toBe(false);
    }
    expect(await ordersOf(trader)).toEqual({ [byBook[1]]: 'ACTIVE', [byBook[2]]: 'ACTIVE', [byBook[3]]: 'ACTIVE' });
  });

  it('cancels the orders on every book when a connection without books misses its heartbeats', async () => {
    const { trader, byBook } = await restingOnEveryBook();
    const silent = await userEvents(trader, { cancelOnDisconnect: 'true' }, false);
    expect((await silent.closed).code).toBe(1006);
    await untilOrders(trader, {
      [byBook[3]]: 'CANCELED DISCONNECT',
      [byBook[2]]: 'CANCELED DISCONNECT',
      [byBook[1]]: 'CANCELED DISCONNECT',
    });
    expect(logsOf(silent).join('\n')).toContain('"endedBy":"heartbeat"');
  });

  it('cancels nothing when the server shuts down', async () => {
    const { trader, byBook } = await restingOnEveryBook();
    const client = await userEvents(trader, { cancelOnDisconnect: 'true' });
    await harness.restart();
    expect((await client.closed).code).toBe(1001);
    expect(await ordersOf(trader)).toEqual({ [byBook[1]]: 'ACTIVE', [byBook[2]]: 'ACTIVE', [byBook[3]]: 'ACTIVE' });
    expect(logsOf(client).some((line) => line.includes('stream lost'))).toBe(false);
  });

  it('is refused on /ws/depth and for a value other than true, 1, false or 0, with 400', async () => {
    const trader = await Trader.secp256k1(harness);
    const refusals = await Promise.all(
      [
        streamUrl(harness.url, 'depth', { token: trader.token, books: '1', cancelOnDisconnect: 'true' }),
        streamUrl(harness.url, 'user-events', { token: trader.token, cancelOnDisconnect: 'always' }),
      ].map((url) =>
        StreamClient.open(url).then(
          () => undefined,
          (error: unknown) => error,
        ),
      ),
    );
    expect(refusals[0]).toBeInstanceOf(UpgradeRefused);
    expect(refusals).toMatchObject([
      {
        status: 400,
        body: { error: 'cancelOnDisconnect is an option of /ws/user-events, not /ws/depth', code: 'VALIDATION_FAILED' },
      },
      { status: 400, body: { error: 'cancelOnDisconnect must be true, 1, false or 0', code: 'VALIDATION_FAILED' } },
    ]);
  });
});
