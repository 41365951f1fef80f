import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { BUY, SELL } from '@dex/core';
import { describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { monthOf } from '../../src/domain/data-api/utc-month.js';
import { startTestCluster, storedDepths, type TestCluster } from '../../src/test-support/cluster.js';
import { expectStorageRefusal } from '../../src/test-support/fault-replies.js';
import {
  type BuiltOrder,
  type DataApiHost,
  dataGet,
  issueApiKey,
  type Reply,
  Trader,
  until,
} from '../../src/test-support/harness.js';
import { NATS_AVAILABLE } from '../../src/test-support/nats.js';
import { PRIVATE_NATS, PRIVATE_REDIS, startPrivateNats, startPrivateRedis } from '../../src/test-support/private-servers.js';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../../src/test-support/store-engines.js';
import { startTcpProxy } from '../../src/test-support/tcp-proxy.js';

/**
 * Fault suite: a server the whole cluster (engines and two gateways in this process) shares goes
 * away and comes back: its NATS server killed with SIGKILL and started again on the same store
 * folder, twice, and its PostgreSQL cut off behind a TCP proxy for 10 s, under a load of signed
 * orders; its Redis killed and started again empty under data API requests counted against a
 * quota. Bound: 4 traders of at most 120 saves each, 3,400 data API requests; each test takes
 * 15 to 25 s.
 */
const MAX_ROUNDS = 120;
const PACE_MS = 100;
const BACKOFF_MS = 500;
const NATS_DOWN_MS = 3_000;
const POSTGRES_DOWN_MS = 10_000;
/** The data API key's monthly quota, and how many requests are in flight at once, over both gateways. */
const QUOTA = 1_200;
const IN_FLIGHT = 50;

interface Save {
  readonly trader: Trader;
  readonly built: BuiltOrder[];
  /** performance.now() when it was sent. */
  readonly sentAt: number;
  status: number;
  body: Record<string, unknown>;
  ids: number[];
}

/** A round's orders: a buy or a sell on book 1 (shard 1's) and a sell on book 2 (shard 0's). */
function roundRequests(trader: Trader, n: number) {
  return [
    trader.limitRequest(1, n % 2 === 0 ? SELL : BUY, 25_000 + (n % 3) * 10, 10),
    trader.limitRequest(2, SELL, 100_000 + n, 10),
  ];
}

/** Builds a round's orders; a refused build (the store out of reach) is kept, to check its answer. */
async function buildRound(trader: Trader, n: number, refused: Reply[]): Promise<BuiltOrder[] | null> {
  const orderRequests = roundRequests(trader, n);
  const reply = await trader.request<{ orders: BuiltOrder[] }>('POST', '/orders/build', { orderRequests });
  if (reply.status === 200) return reply.body.orders;
  refused.push(reply);
  return null;
}

/**
 * Each trader saves a round every PACE_MS (backing off to BACKOFF_MS after a refusal), at most
 * MAX_ROUNDS; when a build is refused it saves one of its batches built beforehand instead.
 */
function startLoad(traders: readonly Trader[], reserves: Map<Trader, BuiltOrder[][]> = new Map()) {
  const saves: Save[] = [];
  const refusedBuilds: Reply[] = [];
  let stopping = false;
  const run = async (trader: Trader) => {
    for (let n = 0; n < MAX_ROUNDS && !stopping; n++) {
      const built = (await buildRound(trader, n, refusedBuilds)) ?? reserves.get(trader)?.shift() ?? null;
      let status = 0;
      if (built !== null) {
        const sentAt = performance.now();
        const reply = await trader.save(built);
        status = reply.status;
        const ids = reply.status === 200 ? reply.body.orders.map((order) => Number(order.meta.id)) : [];
        saves.push({ trader, built, sentAt, status: reply.status, body: reply.body, ids });
      }
      await sleep(status === 200 ? PACE_MS : BACKOFF_MS);
    }
  };
  const running = Promise.all(traders.map(run));
  return {
    saves,
    refusedBuilds,
    /** Stops the traders after their current round and waits for them. */
    stop: async () => {
      stopping = true;
      await running;
    },
  };
}

/** Waits until a save sent after `since` is answered 200; resolves with the time that took from `since`. */
async function recovery(saves: readonly Save[], since: number, what: string): Promise<number> {
  await until(() => (saves.some((save) => save.sentAt >= since && save.status === 200) ? true : undefined), what, 30_000, 50);
  return performance.now() - since;
}

/** How often each value occurs. */
function tally(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** How many refused saves the store holds anyway before they are sent again, by the code of their refusal. */
async function storedAnyway(databaseUrl: string, saves: readonly Save[]): Promise<Record<string, number>> {
  const store = await openPostgresStore({ url: databaseUrl });
  try {
    const held: string[] = [];
    for (const save of saves.filter((candidate) => candidate.status !== 200)) {
      const stored = await store.orders.byHashes(save.built.map((order) => order.meta.orderHash));
      if (stored.length > 0) held.push(String(save.body.code));
    }
    return tally(held);
  } finally {
    await store.close();
  }
}

/** Sends every unanswered save again, as a client would, until it is answered 200 (retries are answered by order hash). */
async function resendUnanswered(saves: readonly Save[]): Promise<void> {
  for (const save of saves.filter((candidate) => candidate.status !== 200)) {
    const answered = async () => {
      const again = await save.trader.save(save.built);
      return again.status === 200 ? again : undefined;
    };
    const reply = await until(answered, 'a refused save to be answered 200 when sent again', 15_000, 200);
    save.ids = reply.body.orders.map((order) => Number(order.meta.id));
  }
}

/** Every acknowledged order is stored under the id its save answered, created once; and every gateway shows the stored books. */
async function expectStoredAndServed(databaseUrl: string, cluster: TestCluster, saves: readonly Save[]): Promise<void> {
  const store = await openPostgresStore({ url: databaseUrl });
  try {
    const ids = saves.flatMap((save) => save.ids);
    expect(new Set(ids).size).toBe(ids.length);
    const created = async (id: number) => (await store.orders.history(id)).filter((event) => event.type === 'CREATED').length;
    for (const id of ids) expect(await created(id)).toBe(1);
    expect((await Promise.all(ids.map((id) => store.orders.get(id)))).every((record) => record !== undefined)).toBe(true);
  } finally {
    await store.close();
  }
  const stored = await storedDepths(databaseUrl, [1, 2]);
  for (const [index, gateway] of cluster.gateways.entries()) {
    for (const [bookId, depth] of stored) {
      const served = () => {
        try {
          return isDeepStrictEqual(gateway.services.books.view(bookId)?.depth(), depth) ? true : undefined;
        } catch {
          return undefined;
        }
      };
      await until(served, `book ${bookId} on gateway ${index} to match the store`, 10_000);
    }
  }
}

/** GET /health and /ready of every gateway: alive throughout, not ready while a dependency is away. */
/** One outage under the load: how long the server was down, the gateways' answers halfway, and the time to a save answered after. */
interface Outage {
  readonly downMs: number;
  readonly recoveryMs: number;
  readonly probe: Awaited<ReturnType<typeof probeGateways>>;
}

/** After a second of load, takes a server down for `down.ms`, probes the gateways halfway, and brings it back. */
async function outage(
  cluster: TestCluster,
  saves: readonly Save[],
  down: { take: () => Promise<unknown>; bring: () => Promise<unknown>; ms: number },
  what: string,
): Promise<Outage> {
  await sleep(1_000);
  await down.take();
  const tookAt = performance.now();
  await sleep(down.ms / 2);
  const probe = await probeGateways(cluster);
  await sleep(Math.max(0, down.ms - (performance.now() - tookAt)));
  await down.bring();
  const broughtAt = performance.now();
  return { downMs: broughtAt - tookAt, recoveryMs: await recovery(saves, broughtAt, what), probe };
}

async function probeGateways(cluster: TestCluster): Promise<{ health: number[]; ready: number[] }> {
  const health: number[] = [];
  const ready: number[] = [];
  for (const gateway of cluster.gateways) {
    health.push((await gateway.app.inject({ url: '/health' })).statusCode);
    ready.push((await gateway.app.inject({ url: '/ready' })).statusCode);
  }
  return { health, ready };
}

describe.skipIf(!POSTGRES_AVAILABLE || !NATS_AVAILABLE || !PRIVATE_NATS)("kill -9 of the cluster's NATS server", () => {
  const database = usePostgresDatabase('each', 'nats_restart');

  it('answers saves 503 ENGINE_UNAVAILABLE while it is down, recovers by itself, and loses no acknowledged order', async () => {
    const nats = await startPrivateNats();
    const cluster = await startTestCluster(database.url(), { shards: 2, gateways: 2, env: { NATS_URL: nats.url } });
    try {
      const traders = await Promise.all([0, 1, 0, 1].map((gateway) => Trader.secp256k1(cluster.host(gateway))));
      // No role may fail: an engine's lost command log would show here.
      const failures: string[] = [];
      for (const [shard, engine] of cluster.engines.entries())
        void engine?.failed.then((error) => failures.push(`${shard}: ${error}`));
      const load = startLoad(traders);
      const outages: Outage[] = [];
      for (let kill = 0; kill < 2; kill++) {
        const down = { take: () => nats.kill(), bring: () => nats.start(), ms: NATS_DOWN_MS };
        outages.push(await outage(cluster, load.saves, down, 'a save answered 200 after NATS restarted'));
      }
      await sleep(1_000);
      await load.stop();
      const refused = load.saves.filter((save) => save.status !== 200);
      const anyway = await storedAnyway(database.url(), load.saves);
      console.log(
        `NATS restart: ${load.saves.length} saves, ${refused.length} answered 503 (${JSON.stringify(anyway)} of them stored anyway); NATS down ${outages.map((o) => Math.round(o.downMs)).join(' and ')} ms, a save answered 200 again ${outages.map((o) => Math.round(o.recoveryMs)).join(' and ')} ms after the restarts`,
      );
      for (const save of refused) expectStorageRefusal(save, ['ENGINE_UNAVAILABLE']);
      expect(refused.length).toBeGreaterThan(0);
      expect(load.refusedBuilds).toEqual([]);
      for (const { probe } of outages) expect(probe).toEqual({ health: [200, 200], ready: [503, 503] });
      expect(outages.every((outage) => outage.recoveryMs < 10_000)).toBe(true);
      expect(failures).toEqual([]);
      expect((await probeGateways(cluster)).ready).toEqual([200, 200]);
      await resendUnanswered(load.saves);
      await expectStoredAndServed(database.url(), cluster, load.saves);
    } finally {
      await cluster.close();
      await nats.close();
    }
  }, 90_000);
});

/** Plays the engines' supervisor: an engine that fails is closed (its process would exit) and started again until it starts. */
function superviseEngines(cluster: TestCluster, failures: string[]) {
  const restartMs: number[] = [];
  const restarting = new Set<Promise<void>>();
  let stopped = false;
  const watch = (shard: number) => {
    void cluster.engines[shard]?.failed.then((error) => {
      if (stopped) return;
      failures.push(`engine ${shard}: ${error.message}`);
      const failedAt = performance.now();
      const restart = (async () => {
        await cluster.stopEngine(shard);
        const started = async () =>
          stopped ||
          (await cluster
            .startEngine(shard)
            .then(() => true)
            .catch(() => undefined));
        await until(started, `engine ${shard} to start again`, 60_000, 500);
        restartMs.push(performance.now() - failedAt);
        watch(shard);
      })();
      restarting.add(restart);
      void restart.finally(() => restarting.delete(restart));
    });
  };
  for (const shard of cluster.engines.keys()) watch(shard);
  return {
    restartMs,
    /** Waits for the restarts under way, and restarts nothing after. */
    stop: async () => {
      await Promise.all(restarting);
      stopped = true;
    },
  };
}

describe.skipIf(!POSTGRES_AVAILABLE || !NATS_AVAILABLE)('PostgreSQL out of reach of the whole cluster for 10 s', () => {
  const database = usePostgresDatabase('each', 'cluster_pg_outage');

  it('answers 503 with the common error body meanwhile, the engines stop on their lost leases, and no acknowledged order is lost', async () => {
    const target = new URL(database.url());
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    target.host = `127.0.0.1:${proxy.port}`;
    const cluster = await startTestCluster(database.url(), { shards: 2, gateways: 2, env: { DATABASE_URL: target.toString() } });
    try {
      const traders = await Promise.all([0, 1, 0, 1].map((gateway) => Trader.secp256k1(cluster.host(gateway))));
      // Building needs the store: batches built beforehand are saved while it is away.
      const reserve = (trader: Trader) => Promise.all([...Array(20).keys()].map((n) => trader.build(roundRequests(trader, n))));
      const reserves = new Map(await Promise.all(traders.map(async (trader) => [trader, await reserve(trader)] as const)));
      const failures: string[] = [];
      const supervisor = superviseEngines(cluster, failures);
      const load = startLoad(traders, reserves);
      const down = { take: () => proxy.cut(), bring: () => proxy.restore(), ms: POSTGRES_DOWN_MS };
      const { probe, recoveryMs } = await outage(cluster, load.saves, down, 'a save answered 200 after PostgreSQL came back');
      await sleep(1_000);
      await load.stop();
      await supervisor.stop();
      const refused = load.saves.filter((save) => save.status !== 200);
      const codes = [...refused, ...load.refusedBuilds].map((reply) => String(reply.body.code));
      const anyway = await storedAnyway(database.url(), load.saves);
      console.log(
        `PostgreSQL outage: ${load.saves.length} saves, ${refused.length} answered 503 and ${load.refusedBuilds.length} builds refused (${JSON.stringify(tally(codes))}); refused saves stored anyway: ${JSON.stringify(anyway)}; engines failed: ${failures.join('; ')}; restarted ${supervisor.restartMs.map(Math.round).join(', ')} ms after failing; a save answered 200 ${Math.round(recoveryMs)} ms after the store came back`,
      );
      for (const reply of [...refused, ...load.refusedBuilds]) {
        expectStorageRefusal(reply, ['STORAGE_UNAVAILABLE', 'TRADING_UNAVAILABLE', 'ENGINE_UNAVAILABLE']);
      }
      expect(refused.length).toBeGreaterThan(0);
      // Only ENGINE_UNAVAILABLE promises nothing: a save refused with any other code was not stored.
      expect(Object.keys(anyway).filter((code) => code !== 'ENGINE_UNAVAILABLE')).toEqual([]);
      expect(probe).toEqual({ health: [200, 200], ready: [503, 503] });
      expect(recoveryMs).toBeLessThan(15_000);
      expect((await probeGateways(cluster)).ready).toEqual([200, 200]);
      await resendUnanswered(load.saves);
      await expectStoredAndServed(database.url(), cluster, load.saves);
    } finally {
      await cluster.close();
      await proxy.close();
    }
  }, 90_000);
});

/** `keys.length` data API requests, `IN_FLIGHT` at a time, the n-th to gateway n mod 2; the replies in order. */
async function burst(hosts: readonly DataApiHost[], keys: readonly string[]): Promise<Reply[]> {
  const replies: Reply[] = [];
  let next = 0;
  const worker = async () => {
    for (let n = next++; n < keys.length; n = next++)
      replies[n] = await dataGet(hosts[n % hosts.length] as DataApiHost, '/tokens', keys[n]);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return replies;
}

/** As many as the quota leaves are admitted, counting down from `left` each figure once; the others are 429 QUOTA_EXCEEDED at 0. */
function expectExactCount(replies: readonly Reply[], left: number): void {
  const admittable = Math.min(left, replies.length);
  const refusable = replies.length - admittable;
  const expected = refusable > 0 ? { 200: admittable, 429: refusable } : { 200: admittable };
  expect(tally(replies.map((reply) => String(reply.status)))).toEqual(expected);
  const admitted = replies.filter((reply) => reply.status === 200);
  const remaining = admitted.map((reply) => Number(reply.headers['x-ratelimit-remaining'])).sort((a, b) => a - b);
  expect(remaining).toEqual([...Array(admittable).keys()].map((n) => left - admittable + n));
  for (const reply of replies.filter((candidate) => candidate.status === 429)) {
    expect(reply.body).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(Object.keys(reply.body).sort()).toEqual(['code', 'error']);
    expect(reply.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
  }
  expect(new Set(replies.map((reply) => reply.headers['x-ratelimit-limit']))).toEqual(new Set([String(QUOTA)]));
  expect(new Set(replies.map((reply) => reply.headers['x-ratelimit-reset'])).size).toBe(1);
}

describe.skipIf(!POSTGRES_AVAILABLE || !NATS_AVAILABLE || !PRIVATE_REDIS)('kill -9 of the Redis both gateways share', () => {
  const database = usePostgresDatabase('each', 'cluster_redis_restart');

  it('admits exactly the quota over both gateways, answers 503 while Redis is down, then counts on exactly from the store', async () => {
    const redis = await startPrivateRedis();
    const cluster = await startTestCluster(database.url(), { shards: 1, gateways: 2, env: { REDIS_URL: redis.url } });
    try {
      const hosts = cluster.gateways.map((gateway) => ({ dataApi: gateway.app, config: gateway.services.config }));
      const { store } = cluster.host(0).services;
      const month = monthOf(Date.now()).start;
      // One key used up before the restart, one used in part before it and up after it.
      const spent = await issueApiKey(cluster.host(0), QUOTA, { name: 'spent' });
      const kept = await issueApiKey(cluster.host(0), QUOTA, { name: 'kept' });
      const started = performance.now();
      // 2,000 requests of the spent key, and 400 of the kept one among them.
      const keys = [...Array(2_400).keys()].map((n) => (n % 6 === 5 ? kept.key : spent.key));
      const first = await burst(hosts, keys);
      const burstMs = performance.now() - started;
      const ofKey = (key: string) => first.filter((_, n) => keys[n] === key);
      for (const key of [spent.key, kept.key]) expectExactCount(ofKey(key), QUOTA);
      expect(await store.apiKeys.requests(spent.id, month)).toBe(QUOTA);
      expect(await store.apiKeys.requests(kept.id, month)).toBe(400);

      await redis.kill();
      const refused = await burst(hosts, [spent.key, kept.key, spent.key, kept.key]);
      for (const reply of refused) expectStorageRefusal(reply, ['USAGE_UNAVAILABLE']);
      expect((await probeGateways(cluster)).ready).toEqual([503, 503]);
      await redis.start();
      const restartedAt = performance.now();
      // Seeded again from the store on each gateway, as its client reconnects: the spent key stays spent.
      for (const host of hosts) {
        const answered = () => dataGet(host, '/tokens', spent.key).then(({ status }) => (status === 503 ? undefined : status));
        expect(await until(answered, 'the data API to answer again', 10_000, 50)).toBe(429);
      }
      const recoveryMs = performance.now() - restartedAt;
      // The other counts on from the 400 stored.
      const again = await dataGet(hosts[1] as DataApiHost, '/tokens', kept.key);
      expect(again.headers['x-ratelimit-remaining']).toBe(String(QUOTA - 401));
      const rest = await burst(hosts, Array(1_000).fill(kept.key));
      expectExactCount(rest, QUOTA - 401);
      expect(await store.apiKeys.requests(spent.id, month)).toBe(QUOTA);
      expect(await store.apiKeys.requests(kept.id, month)).toBe(QUOTA);
      console.log(
        `Redis restart: 2,400 requests over 2 gateways in ${Math.round(burstMs)} ms, ${first.filter((reply) => reply.status === 200).length} admitted (quota ${QUOTA} + 400 of ${QUOTA}); 4 answered 503 while Redis was down; both gateways answered again ${Math.round(recoveryMs)} ms after the restart; ${rest.filter((reply) => reply.status === 200).length} of 1,000 more admitted, as the store's count left`,
      );
    } finally {
      await cluster.close();
      await redis.close();
    }
  }, 90_000);
});
