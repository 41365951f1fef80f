import { processLives } from '@dex/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUpServiceProcesses } from '../../packages/server/src/test-support/service-process.js';
import { type HostileRequest, hostileRequests } from './hostile-requests.js';
import { deepJson, MALFORMED_JSON } from './hostile-values.js';
import { problemWith, send, sendRaw } from './http-probe.js';
import { type Route, servedRoutes } from './openapi-routes.js';
import { RAW_REQUESTS } from './raw-requests.js';
import { residentMiB, type ServiceUnderAttack, startServiceUnderAttack } from './service-under-attack.js';
import { type AbuseTally, abuseFrames, abuseHandshakes } from './ws-abuse.js';

/** Generated requests per documented route (about 60 routes): a few thousand in all. */
const RUNS_PER_ROUTE = 80;
const BODY_LIMIT_BYTES = 65_536;
const WS_MAX_PAYLOAD_BYTES = 4_096;
const CONCURRENCY = 8;
/** Resident memory the service may gain over the whole run, and may hold at its end. */
const MAX_RSS_GROWTH_MIB = 150;
const MAX_RSS_MIB = 512;

let service: ServiceUnderAttack;
let routes: Route[];
let baselineMiB = 0;
/** HOSTILE_SEED replays a run whose seed a failure printed. */
const seed = Number(process.env.HOSTILE_SEED ?? Date.now() % 2 ** 31);
const tally = { requests: 0, frames: 0, handshakes: 0, started: Date.now() };
/** How many answers of each status the HTTP requests got. */
const statuses = new Map<number, number>();

beforeAll(async () => {
  service = await startServiceUnderAttack({
    CHAIN: 'off',
    OPEN_MARKET_DATA: 'true',
    BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES),
    WS_MAX_PAYLOAD_BYTES: String(WS_MAX_PAYLOAD_BYTES),
  });
  routes = await servedRoutes(service.url);
  baselineMiB = residentMiB(service.process.pid);
}, 90_000);

afterAll(() => {
  const seconds = ((Date.now() - tally.started) / 1_000).toFixed(1);
  const byStatus = [...statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  console.log(
    `hostile input: ${tally.requests} HTTP requests over ${routes?.length ?? 0} routes (${byStatus}), ${tally.handshakes} stream handshakes and ${tally.frames} frames in ${seconds} s (seed ${seed})`,
  );
  cleanUpServiceProcesses();
});

/** The request as a line to reproduce it from, without the suite's real token and key. */
function reproduction(request: HostileRequest): string {
  const { jwt, apiKey } = service.credentials;
  const body =
    request.body === undefined ? '' : ` body(${Buffer.byteLength(request.body)} B)=${request.body.toString().slice(0, 200)}`;
  const line = `${request.method} ${request.path.slice(0, 300)} headers=${JSON.stringify(request.headers).slice(0, 400)}${body}`;
  return line.replaceAll(jwt, '<jwt>').replaceAll(apiKey, '<api-key>');
}

/** Requests every body-reading route meets for sure, beside the generated ones. */
function classics(route: Route): HostileRequest[] {
  if (route.method === 'GET') return [];
  const json = { 'content-type': 'application/json', authorization: `Bearer ${service.credentials.jwt}` };
  const deep = fc.sample(deepJson, { numRuns: 3, seed });
  return [
    ...MALFORMED_JSON.map((body) => ({ method: route.method, path: route.path, headers: json, body })),
    ...deep.map((body) => ({ method: route.method, path: route.path, headers: json, body })),
    { method: route.method, path: route.path, headers: json, body: `{"a":"${'x'.repeat(BODY_LIMIT_BYTES)}"}` },
    { method: route.method, path: route.path, headers: { ...json, 'content-type': 'text/plain' }, body: '{}' },
    {
      method: route.method,
      path: route.path,
      headers: { ...json, 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x--',
    },
    { method: route.method, path: route.path, headers: { authorization: json.authorization }, body: '{}' },
  ];
}

async function sendAll(requests: readonly HostileRequest[], problems: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++] as HostileRequest;
      const answer = await send(service.url, request);
      tally.requests++;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const problem = answer.status === 0 ? `no answer (${answer.text})` : problemWith(answer);
      if (problem !== undefined) problems.push(`${problem}\n    from ${reproduction(request)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

describe('hostile input', () => {
  it('answers generated requests on every documented route with no 5xx and only catalogue error bodies', async () => {
    expect(routes.length).toBeGreaterThan(50);
    // Every example names a documented route (a renamed route would silently lose its real body).
    const documented = new Set(routes.map((route) => `${route.method} ${route.path}`));
    expect(Object.keys(service.examples).filter((key) => !documented.has(key))).toEqual([]);
    const problems: string[] = [];
    for (const [index, route] of routes.entries()) {
      const example = service.examples[`${route.method} ${route.path}`];
      const generated = fc.sample(hostileRequests(route, service.credentials, BODY_LIMIT_BYTES, example), {
        numRuns: RUNS_PER_ROUTE,
        seed: seed + index,
      });
      await sendAll([...classics(route), ...generated], problems);
    }
    for (const raw of RAW_REQUESTS) {
      const answer = await sendRaw(service.url, raw.bytes);
      tally.requests++;
      // A request too broken to parse may be dropped, but whatever comes back is a catalogue error.
      const problem = answer.status === 0 ? undefined : problemWith(answer);
      if (problem !== undefined) problems.push(`${problem}\n    from raw request "${raw.name}"`);
    }
    expect(problems.slice(0, 30), `${problems.length} problems (seed ${seed})`).toEqual([]);
  }, 150_000);

  it('refuses hostile stream handshakes with catalogue errors, survives frame abuse and keeps serving other streams', async () => {
    const abuse: AbuseTally = { frames: 0, handshakes: 0, problems: [] };
    await abuseHandshakes(service.url, service.credentials.jwt, abuse);
    // A new depth level on book 1 once the abuse is over: the bystander stream must be sent it.
    let ticks = 100;
    await abuseFrames(service.url, service.credentials.jwt, WS_MAX_PAYLOAD_BYTES, abuse, () => service.orders.place(ticks++));
    tally.frames += abuse.frames;
    tally.handshakes += abuse.handshakes;
    expect(abuse.problems).toEqual([]);
  }, 60_000);

  it('is still alive and healthy afterwards, its memory within bounds', async () => {
    expect(processLives(service.process.pid)).toBe(true);
    const health = await fetch(`${service.url}/health`);
    expect(health.status).toBe(200);
    const rss = residentMiB(service.process.pid);
    console.log(`service memory: ${baselineMiB.toFixed(0)} MiB at start, ${rss.toFixed(0)} MiB after the run`);
    expect(rss - baselineMiB).toBeLessThan(MAX_RSS_GROWTH_MIB);
    expect(rss).toBeLessThan(MAX_RSS_MIB);
    // Nothing the suite sent made the service log an error (a 5xx or a stream handshake that failed inside).
    const errors = service.process
      .output()
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line));
    expect(errors.map((line) => line.slice(0, 2_000))).toEqual([]);
  });
});
