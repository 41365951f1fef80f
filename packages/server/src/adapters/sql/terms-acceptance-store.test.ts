import { expect, it } from 'vitest';
import type { TermsAcceptance } from '../../domain/web-terms/terms.js';
import { describeEachEngine } from '../../test-support/store-engines.js';

const HASH_1 = 'a'.repeat(64);
const HASH_2 = 'b'.repeat(64);

function acceptance(account: string, acceptedAt: number, change: Partial<TermsAcceptance> = {}): TermsAcceptance {
  return {
    account,
    document: 'terms-of-service',
    version: '2026-01',
    textSha256: HASH_1,
    acceptedAt,
    clientAddress: '203.0.113.7',
    ...change,
  };
}

describeEachEngine('terms acceptances', ({ open }) => {
  it('keeps every acceptance with its text hash, time and address, listed oldest first, all or of one account', async () => {
    const store = await open();
    const alice = '0x00000000000000000000000000000000000a11ce';
    await store.termsAcceptances.record([
      acceptance(alice, 2_000),
      acceptance(alice, 2_000, { document: 'risk-notice', version: 'r1', textSha256: HASH_2, clientAddress: null }),
    ]);
    await store.termsAcceptances.record([acceptance('0.0.5001', 1_000)]);
    expect(await store.termsAcceptances.list(alice)).toEqual([
      acceptance(alice, 2_000, { document: 'risk-notice', version: 'r1', textSha256: HASH_2, clientAddress: null }),
      acceptance(alice, 2_000),
    ]);
    expect((await store.termsAcceptances.list()).map((item) => item.account)).toEqual(['0.0.5001', alice, alice]);
    expect(await store.termsAcceptances.list('0.0.404')).toEqual([]);
  });

  it('keeps the first record of an acceptance given twice, and a new one for a new version or text', async () => {
    const store = await open();
    await store.termsAcceptances.record([acceptance('0.0.5001', 1_000)]);
    await store.termsAcceptances.record([acceptance('0.0.5001', 5_000, { clientAddress: '198.51.100.1' })]);
    await store.termsAcceptances.record([acceptance('0.0.5001', 6_000, { version: '2026-02' })]);
    await store.termsAcceptances.record([acceptance('0.0.5001', 7_000, { version: '2026-02', textSha256: HASH_2 })]);
    expect((await store.termsAcceptances.list('0.0.5001')).map((item) => [item.version, item.acceptedAt])).toEqual([
      ['2026-01', 1_000],
      ['2026-02', 6_000],
      ['2026-02', 7_000],
    ]);
  });

  it('is read by another connection to the same store once recorded (it outlives the writer)', async () => {
    const writer = await open();
    await writer.termsAcceptances.record([acceptance('0.0.5001', 1_000)]);
    await writer.close();
    const reader = await open();
    expect(await reader.termsAcceptances.list()).toEqual([acceptance('0.0.5001', 1_000)]);
  });
});

describeEachEngine(
  'terms acceptances in a database whose locale orders text as people read it',
  ({ open }) => {
    it('lists the acceptances of one millisecond in byte order of their text, as on either engine', async () => {
      const store = await open();
      // A locale puts 'v2' before 'V3'; bytes put the capital first.
      await store.termsAcceptances.record([acceptance('0.0.5001', 1_000, { version: 'v2' })]);
      await store.termsAcceptances.record([acceptance('0.0.5001', 1_000, { version: 'V3' })]);
      expect((await store.termsAcceptances.list()).map((item) => item.version)).toEqual(['V3', 'v2']);
      expect((await store.termsAcceptances.list('0.0.5001')).map((item) => item.version)).toEqual(['V3', 'v2']);
    });
  },
  { postgres: { icuLocale: 'en-US' } },
);
