import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SELL } from '@dex/core';
import { generatePrivateKey } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader, tempDataDir } from '../../../test-support/harness.js';
import { writeBuiltPage } from '../../../test-support/web-page.js';

interface TermsText {
  document: string;
  version: string;
  sha256: string;
  text: string;
}

let harness: Harness | undefined;
let folder: { dir: string; remove: () => void };

/** The operator's texts, written into the test's folder, and the environment that names them. */
function texts(termsVersion: string, termsText: string): Record<string, string> {
  writeFileSync(join(folder.dir, `terms-${termsVersion}.txt`), termsText);
  writeFileSync(join(folder.dir, 'risk.txt'), 'Orders may fill at once, in part or not at all.\n');
  return {
    WEB_TERMS: 'true',
    TERMS_OF_SERVICE_FILE: join(folder.dir, `terms-${termsVersion}.txt`),
    TERMS_OF_SERVICE_VERSION: termsVersion,
    RISK_NOTICE_FILE: join(folder.dir, 'risk.txt'),
    RISK_NOTICE_VERSION: 'r1',
  };
}

/** The service on the test's own DATA_DIR (kept across services) with the page built and these texts. */
async function serve(env: Record<string, string>): Promise<Harness> {
  await harness?.close();
  harness = await startHarness({
    DATA_DIR: join(folder.dir, 'data'),
    WEB_ROOT: writeBuiltPage(join(folder.dir, 'page')),
    ...env,
  });
  return harness;
}

async function current(host: Harness): Promise<TermsText[]> {
  return (await host.app.inject({ method: 'GET', url: '/web/terms' })).json<{ texts: TermsText[] }>().texts;
}

const accepting = (items: readonly TermsText[]) => ({
  accept: items.map(({ document, version, sha256 }) => ({ document, version, sha256 })),
});

beforeEach(() => {
  folder = tempDataDir();
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  folder.remove();
});

describe('the web application terms and risk notice', () => {
  it('serves the current texts with version and SHA-256, and tells the page it must ask', async () => {
    const host = await serve(texts('v1', 'Terms, first version.\n'));
    const served = await current(host);
    expect(served.map(({ document, version }) => [document, version])).toEqual([
      ['terms-of-service', 'v1'],
      ['risk-notice', 'r1'],
    ]);
    expect(served[0]?.text).toBe('Terms, first version.\n');
    expect(served[0]?.sha256).toBe(createHash('sha256').update('Terms, first version.\n').digest('hex'));
    const page = (await host.app.inject({ method: 'GET', url: '/' })).body;
    expect(page).toContain('content="{&quot;terms&quot;:true}"');
  });

  it("records the logged-in account's acceptance durably, across a restart, and asks again for a new version only", async () => {
    const host = await serve(texts('v1', 'Terms, first version.\n'));
    const key = generatePrivateKey();
    const trader = await Trader.secp256k1(host, key);
    expect((await trader.request('GET', '/web/terms/acceptance')).body).toEqual({
      account: trader.account,
      pending: ['terms-of-service', 'risk-notice'],
    });
    const reply = await trader.request<{ pending: string[]; accepted: { acceptedAt: number }[] }>(
      'POST',
      '/web/terms/acceptance',
      accepting(await current(host)),
    );
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.body.pending).toEqual([]);
    expect(reply.body.accepted).toHaveLength(2);
    // Acknowledged means committed: a store opened after the service stops holds it.
    await host.restart();
    const kept = await host.services.store.termsAcceptances.list(trader.account);
    expect(kept.map((item) => [item.document, item.version, item.acceptedAt, item.clientAddress])).toEqual([
      ['risk-notice', 'r1', host.clock.now(), '127.0.0.1'],
      ['terms-of-service', 'v1', host.clock.now(), '127.0.0.1'],
    ]);
    await trader.login();
    expect((await trader.request('GET', '/web/terms/acceptance')).body).toMatchObject({ pending: [] });

    const next = await serve(texts('v2', 'Terms, second version.\n'));
    const again = await Trader.secp256k1(next, key);
    expect((await again.request('GET', '/web/terms/acceptance')).body).toMatchObject({ pending: ['terms-of-service'] });
  });

  it('refuses an unknown text, a version that is not current, the hash of another text and an account in the body, recording nothing', async () => {
    const host = await serve(texts('v1', 'Terms, first version.\n'));
    const trader = await Trader.secp256k1(host);
    const [terms, risk] = await current(host);
    if (terms === undefined || risk === undefined) throw new Error('two texts expected');
    // The service's own checks name the item at fault; the body's schema refuses the rest.
    const refusals: [unknown, string, boolean][] = [
      [{ accept: [{ document: 'privacy-policy', version: 'v1', sha256: terms.sha256 }] }, 'VALIDATION_FAILED', true],
      [{ accept: [{ document: 'terms-of-service', version: 'v0', sha256: terms.sha256 }] }, 'TERMS_VERSION_NOT_CURRENT', true],
      [{ accept: [{ document: 'terms-of-service', version: 'v1', sha256: risk.sha256 }] }, 'TERMS_TEXT_MISMATCH', true],
      [{ ...accepting([terms]), account: '0.0.5001' }, 'VALIDATION_FAILED', false],
      [{ accept: [] }, 'VALIDATION_FAILED', false],
    ];
    for (const [body, code, indexed] of refusals) {
      const reply = await trader.request<{ code: string; error: string }>('POST', '/web/terms/acceptance', body);
      expect(reply.status, code).toBe(400);
      expect(reply.body).toEqual({ code, error: expect.any(String), ...(indexed ? { index: 0 } : {}) });
    }
    const badHash = { accept: [{ document: 'terms-of-service', version: 'v1', sha256: 'abc' }] };
    expect((await trader.request('POST', '/web/terms/acceptance', badHash)).body).toEqual({
      code: 'VALIDATION_FAILED',
      error: 'body.accept[0].sha256 must be the SHA-256 of the text as 64 hex digits, as GET /web/terms gives it',
    });
    const anonymous = await host.app.inject({ method: 'POST', url: '/web/terms/acceptance', payload: accepting([terms]) });
    expect(anonymous.statusCode).toBe(401);
    expect(await host.services.store.termsAcceptances.list()).toEqual([]);
  });

  it("records one account's acceptance under that account alone: its token names it", async () => {
    const host = await serve(texts('v1', 'Terms, first version.\n'));
    const [alice, bob] = [await Trader.secp256k1(host), await Trader.secp256k1(host)];
    await alice.request('POST', '/web/terms/acceptance', accepting(await current(host)));
    expect((await bob.request('GET', '/web/terms/acceptance')).body).toMatchObject({
      pending: ['terms-of-service', 'risk-notice'],
    });
    expect(new Set((await host.services.store.termsAcceptances.list()).map((item) => item.account))).toEqual(
      new Set([alice.account]),
    );
  });

  it('is no order book route: not in the OpenAPI document, and a plain API client trades without it', async () => {
    const host = await serve(texts('v1', 'Terms, first version.\n'));
    const paths = Object.keys((await host.app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: object }>().paths);
    expect(paths.filter((path) => path.includes('terms'))).toEqual([]);
    const trader = await Trader.secp256k1(host);
    const saved = await trader.limit(1, SELL, 25_000, 10);
    expect(saved.status).toBe('ACTIVE');
    expect(await host.services.store.termsAcceptances.list()).toEqual([]);
  });

  it('is not served where the network does not ask for it (the devnet by default)', async () => {
    const host = await serve({});
    expect((await host.app.inject({ method: 'GET', url: '/web/terms' })).statusCode).toBe(404);
    expect((await host.app.inject({ method: 'GET', url: '/' })).body).not.toContain('dex-page-settings');
  });
});
