import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './env-values.js';
import { webTermsConfig } from './terms-config.js';

const dir = mkdtempSync(join(tmpdir(), 'terms-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'terms.txt'), 'Terms of the operator, version 3.\n');
writeFileSync(join(dir, 'risk.txt'), 'Order books carry risks.\n');
writeFileSync(join(dir, 'blank.txt'), ' \n');
const FILES = {
  TERMS_OF_SERVICE_FILE: 'terms.txt',
  TERMS_OF_SERVICE_VERSION: '2026-03',
  RISK_NOTICE_FILE: join(dir, 'risk.txt'),
  RISK_NOTICE_VERSION: 'r7',
};
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function refusal(env: Record<string, string>, network: 'devnet' | 'testnet' = 'testnet'): string {
  try {
    webTermsConfig(env, network, dir);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('the web terms configuration (WEB_TERMS)', () => {
  it('is off on the devnet unless asked for, and then shows the placeholders that say what they are', () => {
    expect(webTermsConfig({}, 'devnet', dir)).toBeNull();
    const config = webTermsConfig({ WEB_TERMS: 'true' }, 'devnet', dir);
    expect(config?.texts.map((text) => [text.document, text.title, text.version])).toEqual([
      ['terms-of-service', 'Terms of service', 'placeholder-1'],
      ['risk-notice', 'Order book risk notice', 'placeholder-1'],
    ]);
    for (const text of config?.texts ?? []) {
      expect(text.text).toMatch(/^PLACEHOLDER .*\n\nThis is a placeholder/);
      expect(text.sha256).toBe(sha256(text.text));
    }
    expect(config?.clientAddress).toBe('full');
  });

  it("is on by default off the devnet, with the operator's files (relative to the working folder) and versions", () => {
    const config = webTermsConfig({ ...FILES, TERMS_CLIENT_ADDRESS: 'masked' }, 'testnet', dir);
    expect(config).toEqual({
      texts: [
        {
          document: 'terms-of-service',
          title: 'Terms of service',
          version: '2026-03',
          text: 'Terms of the operator, version 3.\n',
          sha256: sha256('Terms of the operator, version 3.\n'),
        },
        {
          document: 'risk-notice',
          title: 'Order book risk notice',
          version: 'r7',
          text: 'Order books carry risks.\n',
          sha256: sha256('Order books carry risks.\n'),
        },
      ],
      clientAddress: 'masked',
    });
    expect(webTermsConfig({ WEB_TERMS: 'false' }, 'testnet', dir)).toBeNull();
  });

  it('refuses a missing text, a file without its version, an unreadable or empty file and an unknown address policy', () => {
    expect(refusal({ ...FILES, TERMS_OF_SERVICE_FILE: '' })).toBe('TERMS_OF_SERVICE_FILE is required with WEB_TERMS on testnet');
    expect(refusal({ ...FILES, RISK_NOTICE_VERSION: '' })).toMatch(
      /^RISK_NOTICE_VERSION must be .*required with RISK_NOTICE_FILE/,
    );
    expect(refusal({ ...FILES, RISK_NOTICE_VERSION: 'two words' })).toMatch(/^RISK_NOTICE_VERSION must be/);
    expect(refusal({ ...FILES, RISK_NOTICE_FILE: 'missing.txt' })).toBe(
      `RISK_NOTICE_FILE: cannot read ${join(dir, 'missing.txt')}`,
    );
    expect(refusal({ ...FILES, TERMS_OF_SERVICE_FILE: 'blank.txt' })).toBe(
      `TERMS_OF_SERVICE_FILE: ${join(dir, 'blank.txt')} is empty`,
    );
    expect(refusal({ ...FILES, TERMS_CLIENT_ADDRESS: 'some' })).toMatch(
      /^TERMS_CLIENT_ADDRESS must be one of full, masked, none/,
    );
  });
});
