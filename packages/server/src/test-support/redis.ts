import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach } from 'vitest';
import { closeRedis, openRedis } from '../adapters/redis/redis-connection.js';
import { createLogger } from '../composition/logging.js';

/** The server the Redis runs use: TEST_REDIS_URL, or the local one every machine of ours has. */
export const REDIS_TEST_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  try {
    await closeRedis(await openRedis(REDIS_TEST_URL, createLogger('silent')));
    return true;
  } catch {
    return false;
  }
}

/** Whether the server answers; asked once per test file. */
export const REDIS_AVAILABLE = await redisAnswers();
if (!REDIS_AVAILABLE) console.warn(`NOTICE: no Redis at ${REDIS_TEST_URL}; the Redis runs are skipped (set TEST_REDIS_URL)`);

/** A key prefix of a test's own, so that tests (and runs) sharing the server never meet. */
export function testKeyPrefix(): string {
  return `test:${randomUUID()}:`;
}

/** Deletes every key under `prefix` on the test server. */
export async function forgetKeys(prefix: string, connection?: Redis): Promise<void> {
  const redis = connection ?? (await openRedis(REDIS_TEST_URL, createLogger('silent')));
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    if (connection === undefined) await closeRedis(redis);
  }
}

export interface TestRedis {
  /** The connection of the running test. */
  readonly redis: () => Redis;
  /** A prefix of the test's own, so that tests (and runs) sharing the server never meet. */
  readonly prefix: () => string;
  /** Deletes every key of the test, as a restart of a Redis that keeps nothing on disk does. */
  readonly forget: () => Promise<void>;
}

/** A connection and a key prefix per test; the test's keys are deleted after it. */
export function useTestRedis(): TestRedis {
  let redis: Redis | undefined;
  let prefix = '';
  const forget = (): Promise<void> => forgetKeys(prefix, redis);
  beforeEach(async () => {
    redis = await openRedis(REDIS_TEST_URL, createLogger('silent'));
    prefix = testKeyPrefix();
  });
  afterEach(async () => {
    if (redis === undefined) return;
    await forget();
    await closeRedis(redis);
    redis = undefined;
  });
  return { redis: () => redis as Redis, prefix: () => prefix, forget };
}
