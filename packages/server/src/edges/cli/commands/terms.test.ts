import { expect, it } from 'vitest';
import type { TermsAcceptance } from '../../../domain/web-terms/terms.js';
import { ManualClock } from '../../../test-support/manual-clock.js';
import { operator } from '../../../test-support/operator-cli.js';
import { describeEachEngine } from '../../../test-support/store-engines.js';

const WALLET = '0xAbCdEf0123456789aBcDeF0123456789abCDef01';

function acceptance(account: string, acceptedAt: number, document: TermsAcceptance['document']): TermsAcceptance {
  return { account, document, version: 'v1', textSha256: 'c'.repeat(64), acceptedAt, clientAddress: '203.0.113.0' };
}

describeEachEngine('operator CLI terms list', ({ open }) => {
  it("lists who accepted which text and when, all or one account's, as text or JSON", async () => {
    const store = await open();
    const cli = operator(store, new ManualClock());
    expect(await cli('terms', 'list')).toMatchObject({ code: 0, out: 'no acceptances recorded' });
    const wallet = WALLET.toLowerCase();
    await store.termsAcceptances.record([acceptance(wallet, Date.UTC(2026, 0, 2), 'terms-of-service')]);
    await store.termsAcceptances.record([acceptance('0.0.5001', Date.UTC(2026, 0, 1), 'risk-notice')]);
    const all = await cli('terms', 'list');
    expect(all.out.split('\n')).toEqual([
      `2026-01-01T00:00:00.000Z\t0.0.5001\trisk-notice v1\tsha256 ${'c'.repeat(64)}\tfrom 203.0.113.0`,
      `2026-01-02T00:00:00.000Z\t${wallet}\tterms-of-service v1\tsha256 ${'c'.repeat(64)}\tfrom 203.0.113.0`,
    ]);
    // The account as the API names it: a 0x address in any case.
    const mine = await cli('terms', 'list', '--account', WALLET, '--json');
    expect(JSON.parse(mine.out)).toEqual([acceptance(wallet, Date.UTC(2026, 0, 2), 'terms-of-service')]);
    expect(await cli('terms', 'list', '--account', 'alice')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--account'),
    });
  });
});
