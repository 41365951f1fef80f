import { describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../test-support/store-engines.js';

describe.skipIf(!POSTGRES_AVAILABLE)('the service on a PostgreSQL store', () => {
  const database = usePostgresDatabase('each', 'writer_test');

  it('refuses a second process that would write the same store, and lets it start once the first is gone', async () => {
    const env = { DATABASE_URL: database.url() };
    const first: Harness = await startHarness(env);
    try {
      await expect(startHarness(env)).rejects.toThrow(/another process already writes the store at DATABASE_URL/);
    } finally {
      await first.close();
    }
    const second = await startHarness(env);
    try {
      expect((await second.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });
});
