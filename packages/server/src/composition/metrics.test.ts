import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUY, SELL } from '@dex/core';
import { afterEach, describe, expect, it } from 'vitest';
import { fund } from '../test-support/funded-trader.js';
import {
  dataGet,
  type Harness,
  issueApiKey,
  ManualClock,
  seedBookOneDepth,
  startHarness,
  Trader,
  tradeOnBookOne,
  until,
} from '../test-support/harness.js';
import { StreamClient, streamUrl } from '../test-support/stream-client.js';

const DASHBOARD = join(dirname(fileURLToPath(import.meta.url)), '../../../../docs/grafana-dashboard.json');

const harnesses: Harness[] = [];
const clients: StreamClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(harnesses.splice(0).map((harness) => harness.close()));
});

async function start(env: Record<string, string> = {}, clock?: ManualClock): Promise<Harness> {
  const harness = await startHarness({ METRICS_PORT: '0', ...env }, { listen: true, ...(clock ? { clock } : {}) });
  harnesses.push(harness);
  return harness;
}

/** One sample line: `name{label="value",...} value`. */
interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Values as Prometheus reads them (Go's ParseFloat: NaN in any case, which prom-client writes as `Nan`). */
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? ([-+]?(?:[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?|[Nn]a[Nn]|Inf))$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:\\.|[^"\\])*)"/g;

/** The text format parsed strictly: every line a HELP or TYPE comment or a sample; throws on anything else. */
function parse(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1] as string, type[2] as string);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    const body = match[2] ?? '';
    for (const label of body.matchAll(LABEL)) labels[label[1] as string] = label[2] as string;
    expect(body.replace(LABEL, '').replace(/,/g, '')).toBe('');
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return { samples, types };
}

async function scrape(harness: Harness): Promise<{ samples: Sample[]; types: Map<string, string> }> {
  const response = await fetch(`${harness.metricsUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await response.text());
}

/** The value of one sample (0 when the labelled series has not appeared yet). */
function value(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const sample = samples.find(
    (candidate) =>
      candidate.name === name && Object.entries(labels).every(([label, wanted]) => candidate.labels[label] === wanted),
  );
  return sample?.value ?? 0;
}

describe('metrics on METRICS_PORT', () => {
  it('counts order intake, fills, commits, matching and open streams, in the Prometheus text format', async () => {
    const harness = await start();
    const before = (await scrape(harness)).samples;
    expect(value(before, 'dex_order_intake_total', { outcome: 'accepted' })).toBe(0);

    const maker = await seedBookOneDepth(harness);
    const depth = await StreamClient.open(streamUrl(harness.url, 'depth', { token: maker.token, books: '1', welcome: 'true' }));
    clients.push(depth);
    const taker = await tradeOnBookOne(harness);
    const [again] = await taker.build([taker.limitRequest(1, SELL, 30_000, 10)]);
    if (again === undefined) throw new Error('nothing built');
    expect((await taker.save([again])).status).toBe(200);
    expect((await taker.save([again])).status).toBe(200);
    const [item] = await maker.items(await maker.build([maker.limitRequest(1, SELL, 30_100, 10)]));
    if (item === undefined) throw new Error('nothing built');
    // One hex digit of r changed: the signature no longer verifies.
    const flipped = item.signature[10] === 'a' ? 'b' : 'a';
    const forged = { ...item, signature: `${item.signature.slice(0, 10)}${flipped}${item.signature.slice(11)}` };
    expect((await maker.request('POST', '/orders/save', { items: [forged] })).status).toBe(400);

    const { samples } = await scrape(harness);
    // 3 resting orders, 2 takers, then one order saved and saved again (replayed); the stream saw the trades.
    expect(value(samples, 'dex_order_intake_total', { outcome: 'accepted' })).toBe(6);
    expect(value(samples, 'dex_order_intake_total', { outcome: 'replayed' })).toBe(1);
    expect(value(samples, 'dex_order_intake_total', { outcome: 'INVALID_SIGNATURE' })).toBe(1);
    // tradeOnBookOne makes three trades on book 1, against resting orders.
    expect(value(samples, 'dex_fills_total', { book: '1', venue: 'book' })).toBe(3);
    expect(value(samples, 'dex_matching_seconds_count')).toBeGreaterThanOrEqual(6);
    expect(value(samples, 'dex_store_commit_seconds_count')).toBeGreaterThan(0);
    // One turn per batch that reached the desk: the replayed save never did.
    expect(value(samples, 'dex_store_commit_turns_total')).toBe(4);
    // Where a save's time went: every batch was checked, the forged one stopped at its signature,
    // the replayed one before the desk.
    expect(value(samples, 'dex_order_save_stage_seconds_count', { stage: 'check' })).toBe(6);
    expect(value(samples, 'dex_order_save_stage_seconds_count', { stage: 'verify' })).toBe(5);
    expect(value(samples, 'dex_order_save_stage_seconds_count', { stage: 'desk' })).toBe(4);
    expect(value(samples, 'dex_desk_turn_seconds_count', { phase: 'stored' })).toBeGreaterThanOrEqual(4);
    expect(value(samples, 'dex_ws_connections', { stream: 'depth' })).toBe(1);
    expect(value(samples, 'dex_ws_messages_sent_total', { stream: 'depth' })).toBeGreaterThan(1);
    expect(value(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);

    await depth.close();
    await until(
      async () => (value((await scrape(harness)).samples, 'dex_ws_connections', { stream: 'depth' }) === 0 ? true : undefined),
      'the closed stream to leave the connections gauge',
      5_000,
    );
  });

  it('counts data API answers by route pattern and the refusals of a used-up quota', async () => {
    const harness = await start();
    const { key } = await issueApiKey(harness, 1);
    expect((await dataGet(harness, '/tokens', key)).status).toBe(200);
    expect((await dataGet(harness, '/tokens', key)).status).toBe(429);
    expect((await dataGet(harness, '/tokens')).status).toBe(401);
    expect((await dataGet(harness, '/no-such-route', key)).status).toBe(429);

    const { samples } = await scrape(harness);
    expect(value(samples, 'dex_data_api_requests_total', { route: '/data/tokens', status: '200' })).toBe(1);
    expect(value(samples, 'dex_data_api_requests_total', { route: '/data/tokens', status: '429' })).toBe(1);
    expect(value(samples, 'dex_data_api_requests_total', { route: '/data/tokens', status: '401' })).toBe(1);
    expect(value(samples, 'dex_data_api_requests_total', { route: 'unmatched', status: '429' })).toBe(1);
    expect(value(samples, 'dex_data_api_quota_refusals_total')).toBe(2);
  });

  it('never labels a series with an account, an order or a key, and is not served on the public API', async () => {
    const harness = await start();
    await tradeOnBookOne(harness, () => {});
    await seedBookOneDepth(harness);
    const { key } = await issueApiKey(harness, 5);
    await dataGet(harness, '/tokens', key);
    const { samples } = await scrape(harness);
    for (const sample of samples) {
      for (const [label, text] of Object.entries(sample.labels)) {
        expect(['account', 'order', 'key', 'orderId', 'orderHash', 'swapper']).not.toContain(label);
        expect(text).not.toMatch(/^0\.0\.[0-9]+$|^0x[0-9a-fA-F]{8,}|[0-9a-f]{8}-[0-9a-f]{4}-/);
        expect(text).not.toContain(key);
      }
    }
    expect((await fetch(`${harness.url}/metrics`)).status).toBe(404);
    expect((await harness.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });

  it('counts settlement batches, the lag from match to settlement and the indexer lag on the devnet chain', async () => {
    // The chain's blocks carry the real time, so the clock follows it.
    const harness = await start({ CHAIN: 'devnet' }, new ManualClock(Date.now()));
    const maker = await fund(harness, await Trader.secp256k1(harness));
    const taker = await fund(harness, await Trader.secp256k1(harness));
    await maker.place([maker.limitRequest(1, SELL, 25_000, 20), maker.limitRequest(1, SELL, 25_100, 30)]);
    await taker.limit(1, BUY, 25_200, 40);
    const samples = await until(
      async () => {
        const { samples } = await scrape(harness);
        return value(samples, 'dex_settlement_lag_seconds_count') === 2 ? samples : undefined;
      },
      'both trades to settle',
      30_000,
    );
    expect(value(samples, 'dex_fills_total', { book: '1', venue: 'book' })).toBe(2);
    expect(value(samples, 'dex_settlement_batches_total', { outcome: 'mined' })).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'dex_settlement_batch_fills_total', { outcome: 'mined' })).toBe(2);
    expect(value(samples, 'dex_fill_reverts_total')).toBe(0);
    await until(
      async () => ((await scrape(harness)).samples.some((sample) => sample.name === 'dex_indexer_lag_blocks') ? true : undefined),
      'the indexer to report its lag',
      10_000,
    );
  });

  it('records nothing and serves nothing without METRICS_PORT', async () => {
    const harness = await startHarness();
    harnesses.push(harness);
    expect(harness.services.metricsExposition).toBeNull();
    expect(() => harness.metricsUrl).toThrow(/METRICS_PORT/);
  });
});

describe('the Grafana dashboard (docs/grafana-dashboard.json)', () => {
  it('charts only metrics the service exports', async () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { targets?: { expr: string }[] }[] };
    const expressions = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
    expect(expressions.length).toBeGreaterThan(10);
    const harness = await start();
    const { types } = await scrape(harness);
    const exported = new Set<string>();
    for (const [name, type] of types) {
      exported.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exported.add(`${name}${suffix}`);
    }
    const referenced = new Set(expressions.flatMap((expr) => expr.match(/\b(?:dex|nodejs|process)_[a-z0-9_]+/g) ?? []));
    expect([...referenced].filter((name) => !exported.has(name))).toEqual([]);
    // Every dex_ metric appears on the dashboard.
    const charted = [...types.keys()].filter((name) => name.startsWith('dex_'));
    expect(charted.filter((name) => ![...referenced].some((used) => used.startsWith(name)))).toEqual([]);
  });
});
