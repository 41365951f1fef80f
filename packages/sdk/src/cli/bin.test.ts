import { type ChildProcessByStdio, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { builtEntry, until } from '@dex/server/test-support';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelOrders } from '../actions/cancel-orders.js';
import { getBooks } from '../actions/get-books.js';
import { getOpenOrders } from '../actions/get-open-orders.js';
import { getOrderHistory } from '../actions/get-order-history.js';
import { placeOrders } from '../actions/place-orders.js';
import { limitOrderRequest } from '../amounts.js';
import { type Client, createClient } from '../client.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { startTestServer, type TestServer } from '../test-support/server.js';
import type { OrderbookItem } from '../types.js';
import { sessionFile } from './session-store.js';

const SDK = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', SDK), 'utf8')) as { bin: Record<string, string> };
/** The file npm links as `dex-trade`: a launcher of the built CLI, there before the first build. */
const launcher = new URL(manifest.bin['dex-trade'] ?? '', SDK);

/** The CLI's process entry, built (vitest's global setup builds what changed first), as npm installs it. */
const entry = builtEntry(new URL('src/cli/main.ts', SDK));

let api: TestServer;

beforeAll(async () => {
  api = await startTestServer();
});

afterAll(async () => {
  await api?.close();
});

const nodeArguments = (args: readonly string[]) => [fileURLToPath(entry), ...args];

/** Only what the CLI needs (nothing here is stored): no key of the machine's own environment leaks in. */
const environment = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  DEX_API_URL: api.url,
  DEX_STATE_DIR: join(tmpdir(), 'dex-trade-bin-test'),
  ...extra,
});

function dexTrade(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return dexTradeWith({}, ...args);
}

/** {@link dexTrade} with these variables added to its environment. */
function dexTradeWith(
  extra: Record<string, string>,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, nodeArguments(args), { env: environment(extra), timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
  });
}

/** GET /orders, a route that needs a login, with this Authorization header (none: undefined): its status and the ids of the orders. */
async function ordersWith(authorization?: string): Promise<{ status: number; ids: number[] }> {
  const response = await fetch(`${api.url}/orders`, { headers: authorization === undefined ? {} : { authorization } });
  const body = (await response.json()) as { orders?: { id: number | string }[] };
  return { status: response.status, ids: (body.orders ?? []).map((order) => Number(order.id)) };
}

/** A watching command in a process of its own: its lines of stdout so far, and how it exits. */
interface Watching {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly lines: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function watching(args: readonly string[], key: string): Watching {
  const child = spawn(process.execPath, nodeArguments(args), {
    env: environment({ DEX_PRIVATE_KEY: key }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    lines.splice(0, lines.length, ...stdout.split('\n').filter((line) => line !== ''));
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, lines, exited };
}

/** Waits for the first line; `nudge` runs between looks (to make something happen). */
async function firstLine(watch: Watching, nudge: () => Promise<unknown> = async () => {}): Promise<string> {
  let exit: unknown;
  void watch.exited.then((value) => {
    exit = value;
  });
  return until(
    async () => {
      if (exit !== undefined) throw new Error(`dex-trade exited early: ${JSON.stringify(exit)}`);
      if (watch.lines[0] !== undefined) return watch.lines[0];
      await nudge();
      return undefined;
    },
    'the first line',
    30_000,
    200,
  );
}

async function bidOnBookOne(client: Client): Promise<number> {
  const book = (await getBooks(client)).orderbooks[0] as OrderbookItem;
  const { orders } = await placeOrders(client, { orders: [limitOrderRequest(book, { side: 'buy', price: '0.1', size: '1' })] });
  return Number(orders[0]?.meta.id);
}

/**
 * Runs `order events --cancel-on-disconnect` in a process of its own, places bids until it prints
 * one (it follows live from then on), then sends it `signal`. Returns that bid and how it exited.
 */
async function followArmedThen(signal: NodeJS.Signals) {
  const key = generatePrivateKey();
  const client = createClient({ baseUrl: api.url, signer: secp256k1Signer(key) });
  const watch = watching(['order', 'events', '--cancel-on-disconnect', '--json'], key);
  try {
    let id = 0;
    await firstLine(watch, async () => {
      id = await bidOnBookOne(client);
    });
    watch.child.kill(signal);
    return { client, id, exit: await watch.exited };
  } finally {
    watch.child.kill('SIGKILL');
  }
}

describe('the dex-trade bin', () => {
  it('is a launcher of the built CLI, which npm can link before the first build', async () => {
    expect(readFileSync(launcher, 'utf8')).toContain("import('../dist/cli/main.js')");
    // npm test builds before it tests, so the launcher finds the CLI built from this source.
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [fileURLToPath(launcher), 'books', '--json'],
        { env: environment(), timeout: 60_000 },
        (error, out, err) =>
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout: out, stderr: err }),
      );
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual(await getBooks(createClient({ baseUrl: api.url })));
  });

  it('prints the books as JSON in a process of its own', async () => {
    const { code, stdout, stderr } = await dexTrade('books', '--json');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.endsWith('\n')).toBe(true);
    expect(JSON.parse(stdout)).toEqual(await getBooks(createClient({ baseUrl: api.url })));
  });

  it('exits with code 1 on an API refusal and 2 on a usage error', async () => {
    const [refused, usage] = await Promise.all([dexTrade('depth', '99'), dexTrade('depth', '1', '--private-key', 'x')]);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain('ORDERBOOK_NOT_FOUND');
    expect(usage).toMatchObject({ code: 2, stdout: '' });
  });

  it('prints the access token alone on stdout, as TOKEN=$(dex-trade token) takes it, and the server takes it as a Bearer token', async () => {
    const key = generatePrivateKey();
    const client = createClient({ baseUrl: api.url, signer: secp256k1Signer(key) });
    const id = await bidOnBookOne(client);
    try {
      const { code, stdout, stderr } = await dexTradeWith({ DEX_PRIVATE_KEY: key }, 'token');
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
      // The account's own orders: the token is of the key's account.
      expect(await ordersWith(`Bearer ${stdout.trimEnd()}`)).toEqual({ status: 200, ids: [id] });
      expect((await ordersWith()).status).toBe(401);
    } finally {
      // The book stays empty for the tests after this one.
      await cancelOrders(client, { orderIds: [id] });
    }
  });

  it("prints the stored session's token without a key, and refuses with nothing on stdout when there is neither", async () => {
    const key = generatePrivateKey();
    const account = privateKeyToAddress(key).toLowerCase();
    expect((await dexTradeWith({ DEX_PRIVATE_KEY: key }, 'login')).code).toBe(0);
    const stored = JSON.parse(readFileSync(sessionFile(environment().DEX_STATE_DIR, api.url, account), 'utf8')) as {
      token: string;
    };
    expect(await dexTradeWith({ DEX_ACCOUNT: account }, 'token')).toEqual({ code: 0, stdout: `${stored.token}\n`, stderr: '' });
    expect((await ordersWith(`Bearer ${stored.token}`)).status).toBe(200);
    const json = await dexTradeWith({ DEX_ACCOUNT: account }, 'token', '--json');
    expect(JSON.parse(json.stdout)).toEqual({ account, token: stored.token, expiresAt: expect.any(Number) });
    const stranger = privateKeyToAddress(generatePrivateKey()).toLowerCase();
    const refused = await dexTradeWith({ DEX_ACCOUNT: stranger }, 'token');
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain(`token: no stored session of ${stranger}`);
  });

  it('watches the depth until SIGINT, then exits with code 0', async () => {
    const watch = watching(['depth', '1', '--watch', '--json'], generatePrivateKey());
    try {
      expect(JSON.parse(await firstLine(watch))).toMatchObject({ orderbookId: 1, bids: [], asks: [] });
      watch.child.kill('SIGINT');
      expect(await watch.exited).toEqual({ code: 0, signal: null });
    } finally {
      watch.child.kill('SIGKILL');
    }
  });

  it("follows the account's events with --cancel-on-disconnect: a process killed has its open orders cancelled", async () => {
    const { client, id, exit } = await followArmedThen('SIGKILL');
    expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
    const canceled = await until(async () => {
      const last = (await getOrderHistory(client, { orderId: id })).events.at(-1);
      return last?.type === 'CANCELED' ? last : undefined;
    }, 'the order to be cancelled');
    expect(canceled.reason).toBe('DISCONNECT');
  });

  it('keeps the open orders when Ctrl-C stops it with --cancel-on-disconnect', async () => {
    const { client, id, exit } = await followArmedThen('SIGINT');
    expect(exit).toEqual({ code: 0, signal: null });
    // Long enough for the server to have cancelled it, had it taken the close for a loss.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await getOpenOrders(client)).map((order) => order.id)).toContain(id);
  });
});
