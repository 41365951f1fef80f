import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { afterEach, beforeEach } from 'vitest';
import { closeNats, openNats } from '../adapters/nats/nats-connection.js';
import { createLogger } from '../composition/logging.js';

/** The server the NATS runs use: TEST_NATS_URL, or the local one every machine of ours has. */
export const NATS_TEST_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

async function natsAnswers(): Promise<boolean> {
  try {
    const connection = await openNats(NATS_TEST_URL, 'probe', createLogger('silent'));
    const jetStream = await connection
      .jetstreamManager()
      .then(() => true)
      .catch(() => false);
    await closeNats(connection);
    return jetStream;
  } catch {
    return false;
  }
}

/** Whether the server answers with JetStream on; asked once per test file. */
export const NATS_AVAILABLE = await natsAnswers();
if (!NATS_AVAILABLE)
  console.warn(`NOTICE: no NATS with JetStream at ${NATS_TEST_URL}; the NATS runs are skipped (set TEST_NATS_URL)`);

export interface TestNats {
  readonly connection: () => NatsConnection;
  /** A stream name and subject prefix of the test's own, so that tests (and runs) sharing the server never meet. */
  readonly names: () => { stream: string; subjectPrefix: string };
}

/** A connection and names per test; the test's stream is deleted after it. */
export function useTestNats(): TestNats {
  let connection: NatsConnection | undefined;
  let names = { stream: '', subjectPrefix: '' };
  beforeEach(async () => {
    connection = await openNats(NATS_TEST_URL, 'test', createLogger('silent'));
    const token = randomUUID().replaceAll('-', '');
    names = { stream: `TEST_${token}`, subjectPrefix: `test.${token}` };
  });
  afterEach(async () => {
    if (connection === undefined) return;
    const manager = await connection.jetstreamManager();
    await manager.streams.delete(names.stream).catch(() => false);
    await closeNats(connection);
    connection = undefined;
  });
  return { connection: () => connection as NatsConnection, names: () => names };
}
