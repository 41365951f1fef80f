import { Redis } from 'ioredis';
import type { Logger } from '../../ports/logger.js';

/** A command Redis does not answer within this fails: a request waits no longer for its quota. */
const COMMAND_TIMEOUT_MS = 2_000;
/** Longest pause between two attempts to reconnect: Redis back is Redis used at once. */
const MAX_RECONNECT_DELAY_MS = 500;

/**
 * Connects to Redis at `url` and resolves once it answers. While the connection is down, commands
 * fail at once instead of waiting in a queue (the callers answer 503), and the client reconnects
 * on its own; the outage is logged once, as is the recovery.
 */
export async function openRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 50, MAX_RECONNECT_DELAY_MS),
  });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: error }, 'Redis is out of reach; requests that need it answer 503 until it is back');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info('Redis answers again');
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}

/** Closes the connection, waiting at most a second for the commands under way. */
export async function closeRedis(redis: Redis): Promise<void> {
  await Promise.race([redis.quit().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  redis.disconnect();
}
