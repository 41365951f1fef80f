import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, issueApiKey, startHarness } from '../../../test-support/harness.js';
import { forgetKeys, REDIS_AVAILABLE, REDIS_TEST_URL, testKeyPrefix } from '../../../test-support/redis.js';

const REQUESTS = 2_000;
const QUOTA = 1_000;
/** Sockets open at once: requests overlap in the server, many of them in each commit group. */
const SOCKETS = 64;

let harness: Harness | undefined;

afterEach(async () => {
  const redis = harness?.config.redis;
  await harness?.close();
  harness = undefined;
  if (redis !== null && redis !== undefined) await forgetKeys(redis.keyPrefix);
});

interface Answer {
  readonly status: number;
  readonly remaining: number;
  readonly additional: number;
}

/** Sends `count` GETs at once over keep-alive sockets to a real listening server. */
async function burst(base: string, path: string, key: string, count: number): Promise<Answer[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: SOCKETS });
  const url = new URL(path, base);
  try {
    return await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<Answer>((resolve, reject) => {
            const outgoing = request(url, { agent, headers: { 'x-api-key': key } }, (incoming) => {
              incoming.resume();
              incoming.on('end', () =>
                resolve({
                  status: incoming.statusCode ?? 0,
                  remaining: Number(incoming.headers['x-ratelimit-remaining']),
                  additional: Number(incoming.headers['x-ratelimit-additional-total']),
                }),
              );
              incoming.on('error', reject);
            });
            outgoing.setTimeout(20_000, () => outgoing.destroy(new Error('request timed out')));
            outgoing.on('error', reject);
            outgoing.end();
          }),
      ),
    );
  } finally {
    agent.destroy();
  }
}

async function listening(env: Record<string, string>): Promise<{ host: Harness; base: string }> {
  harness = await startHarness({ LOG_LEVEL: 'silent', ...env });
  const base = await harness.app.listen({ host: '127.0.0.1', port: 0 });
  return { host: harness, base };
}

/** The numbers 0..n-1. */
function upTo(n: number): number[] {
  return Array.from({ length: n }, (_, index) => index);
}

/** The counters of the process, and Redis's (each run under keys of its own, deleted afterwards). */
const COUNTERS = [
  { counters: "the process's", env: () => ({}), skip: false },
  {
    counters: "Redis's",
    env: () => ({ REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: testKeyPrefix() }),
    skip: !REDIS_AVAILABLE,
  },
];

for (const { counters, env, skip } of COUNTERS) {
  describe.skipIf(skip)(`quota counting under concurrency on ${counters} counters`, () => {
    it(`admits exactly ${QUOTA} of ${REQUESTS} concurrent requests against a quota of ${QUOTA}`, async () => {
      const { host, base } = await listening(env());
      const { id, key } = await issueApiKey(host, QUOTA);
      const answers = await burst(base, '/data/tokens', key, REQUESTS);
      const served = answers.filter((answer) => answer.status === 200);
      expect(served).toHaveLength(QUOTA);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(REQUESTS - QUOTA);
      // Each admitted request took its own unit: the remaining counts are 999 down to 0, each once.
      expect(served.map((answer) => answer.remaining).sort((a, b) => a - b)).toEqual(upTo(QUOTA));
      expect(await host.services.store.apiKeys.requests(id, Date.UTC(2026, 10, 1))).toBe(QUOTA);
    });

    it(`serves all ${REQUESTS} concurrent requests of an overage key and counts exactly ${REQUESTS - QUOTA} as additional`, async () => {
      const { host, base } = await listening(env());
      const { id, key } = await issueApiKey(host, QUOTA, { overage: true });
      const answers = await burst(base, '/data/tokens', key, REQUESTS);
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      const additional = answers.map((answer) => answer.additional).sort((a, b) => a - b);
      expect(additional.at(-1)).toBe(REQUESTS - QUOTA);
      // The first QUOTA requests saw 0 additional, the others 1..1000, each number once.
      expect(additional).toEqual([...upTo(QUOTA).map(() => 0), ...upTo(REQUESTS - QUOTA).map((n) => n + 1)]);
      expect(await host.services.store.apiKeys.requests(id, Date.UTC(2026, 10, 1))).toBe(REQUESTS);
    });
  });
}
