import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withFreshStore } from '../../../test-support/operator-cli.js';

describe('operator CLI API keys', () => {
  const cli = withFreshStore();

  const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('issues a UUID v4 key, prints it once and stores only its SHA-256', async () => {
    const issued = await cli.run('apikey', 'issue', '--name', 'Acme bot', '--quota', '100000');
    expect(issued.code).toBe(0);
    const key = /^key {2}(\S+)$/m.exec(issued.out)?.[1] ?? '';
    expect(key).toMatch(UUID_V4);
    expect(issued.out).toContain('only time the key is shown');
    const [stored] = await cli.store.apiKeys.list();
    expect(stored).toMatchObject({
      id: 1,
      name: 'Acme bot',
      monthlyQuota: 100000,
      overageAllowed: false,
      environment: 'devnet',
      status: 'ACTIVE',
    });
    expect(stored?.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    const listed = await cli.run('apikey', 'list', '--json');
    expect(listed.out).not.toContain(key);
    expect(listed.out).not.toContain(stored?.keyHash);
    expect(JSON.parse(listed.out)).toEqual([expect.objectContaining({ id: 1, name: 'Acme bot', status: 'ACTIVE' })]);
  });

  it('issues keys with overage and for another environment', async () => {
    const issued = JSON.parse(
      (await cli.run('apikey', 'issue', '--name', 'b', '--quota', '5', '--overage', '--environment', 'mainnet', '--json')).out,
    );
    expect(issued).toMatchObject({
      id: 1,
      monthlyQuota: 5,
      overageAllowed: true,
      environment: 'mainnet',
      key: expect.stringMatching(UUID_V4),
    });
    expect(issued.keyHash).toBeUndefined();
  });

  it.each([
    [['--quota', '10'], /--name is required/],
    [['--name', 'x'], /--quota is required/],
    [['--name', 'x', '--quota', '0'], /--quota must be/],
    [['--name', 'x', '--quota', '1.5'], /--quota must be/],
    [['--name', 'x', '--quota', '10000000000000'], /--quota must be/],
    [['--name', 'x', '--quota', '10', '--environment', 'prod'], /--environment/],
  ])('refuses apikey issue %j (exit 2)', async (args, message) => {
    const result = await cli.run('apikey', 'issue', ...args);
    expect(result).toMatchObject({ code: 2, err: expect.stringMatching(message) });
    expect(await cli.store.apiKeys.list()).toEqual([]);
  });

  it('suspends, resumes and revokes a key by id or by the key itself; revoking is final', async () => {
    const { key } = JSON.parse((await cli.run('apikey', 'issue', '--name', 'x', '--quota', '10', '--json')).out) as {
      key: string;
    };
    expect(JSON.parse((await cli.run('apikey', 'suspend', '1', '--json')).out)).toMatchObject({ status: 'SUSPENDED' });
    expect((await cli.run('apikey', 'suspend', '1')).code).toBe(1);
    expect(JSON.parse((await cli.run('apikey', 'resume', key, '--json')).out)).toMatchObject({ status: 'ACTIVE' });
    expect((await cli.run('apikey', 'revoke', '1')).code).toBe(0);
    const resumed = await cli.run('apikey', 'resume', '1');
    expect(resumed).toMatchObject({ code: 1, err: expect.stringMatching(/REVOKED/) });
    expect((await cli.run('apikey', 'revoke', '2')).err).toMatch(/no API key 2/);
    expect((await cli.run('apikey', 'revoke')).code).toBe(2);
  });

  it("shows a key's usage this month and in every month", async () => {
    await cli.run('apikey', 'issue', '--name', 'x', '--quota', '10', '--overage');
    await cli.store.apiKeys.addRequests([
      { keyId: 1, monthStart: Date.UTC(2026, 9, 1), requests: 4 },
      { keyId: 1, monthStart: Date.UTC(2026, 10, 1), requests: 12 },
    ]);
    const usage = JSON.parse((await cli.run('apikey', 'usage', '1', '--json')).out);
    expect(usage).toMatchObject({
      month: '2026-11',
      requests: 12,
      limit: 10,
      remaining: 0,
      additional: 2,
      resetsAt: Date.UTC(2026, 11, 1),
    });
    expect(usage.months).toEqual([
      { month: '2026-10', requests: 4 },
      { month: '2026-11', requests: 12 },
    ]);
    expect((await cli.run('apikey', 'usage', '1')).out).toContain('2026-11: 12 requests, 0 of 10 left, 2 additional');
  });
});
