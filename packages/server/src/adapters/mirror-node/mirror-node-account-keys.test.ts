import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { privateKeyToAddress } from 'viem/accounts';
import { beforeEach, describe, expect, it } from 'vitest';
import { AccountKeyLookupError } from '../../ports/account-keys.js';
import { json, type MirrorHandler, startMirror, stopMirror, useFakeMirror } from '../../test-support/fake-mirror-node.js';
import { ManualClock } from '../../test-support/manual-clock.js';
import { MirrorNodeAccountKeys, type MirrorNodeAccountKeysOptions } from './mirror-node-account-keys.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** RFC 4648 base32 without padding, as the mirror node shows aliases. */
function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...bytes].map((byte) => byte.toString(2).padStart(8, '0')).join('');
  return (bits.match(/.{1,5}/g) ?? []).map((chunk) => alphabet[Number.parseInt(chunk.padEnd(5, '0'), 2)]).join('');
}

/** An account body with the fields and shapes of `GET /api/v1/accounts/{id}?transactions=false`. */
function accountBody(id: string, key: { _type: string; key: string } | null, overrides: Record<string, unknown> = {}) {
  const num = BigInt(id.split('.')[2] ?? '0');
  return {
    account: id,
    alias: null,
    auto_renew_period: 7_776_000,
    balance: {
      balance: 1_250_000_000,
      timestamp: '1763812800.000123456',
      tokens: [{ token_id: '0.0.456858', balance: 5_000_000 }],
    },
    created_timestamp: '1700000000.123456789',
    decline_reward: false,
    deleted: false,
    ethereum_nonce: 0,
    evm_address: `0x${num.toString(16).padStart(40, '0')}`,
    expiry_timestamp: '1771776000.123456789',
    key,
    max_automatic_token_associations: 0,
    memo: '',
    pending_reward: 0,
    receiver_sig_required: false,
    staked_account_id: null,
    staked_node_id: null,
    stake_period_start: null,
    transactions: [],
    links: { next: null },
    ...overrides,
  };
}

const ED25519_KEY = ed25519.keygen().publicKey;
const SECP256K1_SECRET = secp256k1.utils.randomSecretKey();
const SECP256K1_KEY = secp256k1.getPublicKey(SECP256K1_SECRET, true);
const SECP256K1_ADDRESS = privateKeyToAddress(`0x${hex(SECP256K1_SECRET)}`).toLowerCase();

describe('MirrorNodeAccountKeys', () => {
  const mirror = useFakeMirror();
  let clock: ManualClock;

  beforeEach(() => {
    clock = new ManualClock();
  });

  function registry(options: Partial<MirrorNodeAccountKeysOptions> = {}): MirrorNodeAccountKeys {
    return new MirrorNodeAccountKeys({ baseUrl: mirror.url, clock, ...options });
  }

  function serve(id: string, handler: MirrorHandler): void {
    mirror.routes.set(`/api/v1/accounts/${id}`, handler);
  }

  it('reads an ED25519 account: its key and its long-zero address, without the transaction list', async () => {
    serve('0.0.5001', json(200, accountBody('0.0.5001', { _type: 'ED25519', key: hex(ED25519_KEY) })));
    expect(await registry().lookup('0.0.5001')).toEqual({
      accountId: '0.0.5001',
      keyType: 'ED25519',
      publicKey: ED25519_KEY,
      evmAddress: '0x0000000000000000000000000000000000001389',
    });
    expect(mirror.requests).toEqual(['/api/v1/accounts/0.0.5001?transactions=false']);
  });

  it('accepts an ED25519 key that carries its DER header', async () => {
    serve(
      '0.0.5001',
      json(200, accountBody('0.0.5001', { _type: 'ED25519', key: `302a300506032b6570032100${hex(ED25519_KEY)}` })),
    );
    expect((await registry().lookup('0.0.5001'))?.publicKey).toEqual(ED25519_KEY);
  });

  it('reads an ECDSA account under the EVM address the mirror node names', async () => {
    const body = accountBody(
      '0.0.5002',
      { _type: 'ECDSA_SECP256K1', key: hex(SECP256K1_KEY) },
      {
        alias: base32(Buffer.from(SECP256K1_ADDRESS.slice(2), 'hex')),
        evm_address: SECP256K1_ADDRESS.toUpperCase().replace('0X', '0x'),
      },
    );
    serve('0.0.5002', json(200, body));
    expect(await registry().lookup('0.0.5002')).toEqual({
      accountId: '0.0.5002',
      keyType: 'ECDSA_SECP256K1',
      publicKey: SECP256K1_KEY,
      evmAddress: SECP256K1_ADDRESS,
    });
  });

  it('keeps the long-zero address of an ECDSA account created without an alias, and derives one when none is named', async () => {
    serve('0.0.5003', json(200, accountBody('0.0.5003', { _type: 'ECDSA_SECP256K1', key: hex(SECP256K1_KEY) })));
    serve(
      '0.0.5004',
      json(200, accountBody('0.0.5004', { _type: 'ECDSA_SECP256K1', key: hex(SECP256K1_KEY) }, { evm_address: null })),
    );
    const keys = registry();
    expect((await keys.lookup('0.0.5003'))?.evmAddress).toBe('0x000000000000000000000000000000000000138b');
    expect((await keys.lookup('0.0.5004'))?.evmAddress).toBe(SECP256K1_ADDRESS);
  });

  it.each([
    ['an unknown account (404)', undefined],
    ['a deleted account', accountBody('0.0.5001', { _type: 'ED25519', key: hex(ED25519_KEY) }, { deleted: true })],
    [
      'a key list or threshold key',
      accountBody('0.0.5001', { _type: 'ProtobufEncoded', key: `32240a221220${hex(ED25519_KEY)}` }),
    ],
    ['a hollow account without a key', accountBody('0.0.5001', null)],
    ['a key that is no curve point', accountBody('0.0.5001', { _type: 'ECDSA_SECP256K1', key: `02${'ff'.repeat(32)}` })],
  ])('answers undefined for %s and remembers it briefly', async (_name, body) => {
    if (body !== undefined) serve('0.0.5001', json(200, body));
    const keys = registry();
    expect(await keys.lookup('0.0.5001')).toBeUndefined();
    expect(await keys.lookup('0.0.5001')).toBeUndefined();
    expect(mirror.requests).toHaveLength(1);
    clock.advance(5_000);
    expect(await keys.lookup('0.0.5001')).toBeUndefined();
    expect(mirror.requests).toHaveLength(2);
  });

  it('serves a found key from the cache until its time is up, and hands out copies', async () => {
    serve('0.0.5001', json(200, accountBody('0.0.5001', { _type: 'ED25519', key: hex(ED25519_KEY) })));
    const keys = registry();
    const first = await keys.lookup('0.0.5001');
    first?.publicKey.fill(0);
    clock.advance(59_999);
    expect((await keys.lookup('0.0.5001'))?.publicKey).toEqual(ED25519_KEY);
    expect(mirror.requests).toHaveLength(1);
    clock.advance(1);
    await keys.lookup('0.0.5001');
    expect(mirror.requests).toHaveLength(2);
  });

  it('drops the oldest entry when the cache is full', async () => {
    for (const id of ['0.0.5001', '0.0.5002', '0.0.5003']) {
      serve(id, json(200, accountBody(id, { _type: 'ED25519', key: hex(ED25519_KEY) })));
    }
    const keys = registry({ maxEntries: 2 });
    for (const id of ['0.0.5001', '0.0.5002', '0.0.5003', '0.0.5003', '0.0.5001']) await keys.lookup(id);
    expect(mirror.requests.map((url) => url.split('?')[0]?.split('/').pop())).toEqual([
      '0.0.5001',
      '0.0.5002',
      '0.0.5003',
      '0.0.5001',
    ]);
  });

  it('sends one request for concurrent lookups of one account', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const body = accountBody('0.0.5001', { _type: 'ED25519', key: hex(ED25519_KEY) });
    serve('0.0.5001', (request, response) => {
      void released.then(() => json(200, body)(request, response));
    });
    const keys = registry();
    const lookups = Array.from({ length: 5 }, () => keys.lookup('0.0.5001'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const results = await Promise.all(lookups);
    expect(results.every((key) => key?.accountId === '0.0.5001')).toBe(true);
    expect(mirror.requests).toHaveLength(1);
  });

  it('throws a lookup error on a server error and asks again next time', async () => {
    serve('0.0.5001', json(500, { _status: { messages: [{ message: 'Internal error' }] } }));
    const keys = registry();
    await expect(keys.lookup('0.0.5001')).rejects.toThrow(AccountKeyLookupError);
    serve('0.0.5001', json(200, accountBody('0.0.5001', { _type: 'ED25519', key: hex(ED25519_KEY) })));
    expect((await keys.lookup('0.0.5001'))?.keyType).toBe('ED25519');
    expect(mirror.requests).toHaveLength(2);
  });

  it('gives up after the timeout', async () => {
    serve('0.0.5001', () => {});
    await expect(registry({ timeoutMs: 100 }).lookup('0.0.5001')).rejects.toThrow(/no answer within 100 ms/);
  });

  it.each([
    ['a body that is not JSON', '<html>Bad gateway</html>', /not JSON/],
    [
      'another account',
      JSON.stringify(accountBody('0.0.5009', { _type: 'ED25519', key: hex(ED25519_KEY) })),
      /not account 0\.0\.5001/,
    ],
    ['a key without its type', JSON.stringify(accountBody('0.0.5001', { key: hex(ED25519_KEY) } as never)), /malformed key/],
    ['a JSON array', '[]', /not account/],
    ['an endless body', `{"account":"0.0.5001","memo":"${'x'.repeat(300 * 1024)}"}`, /more than/],
  ])('throws a lookup error for %s and does not remember it', async (_name, body, message) => {
    serve('0.0.5001', json(200, body));
    const keys = registry();
    await expect(keys.lookup('0.0.5001')).rejects.toThrow(message);
    await expect(keys.lookup('0.0.5001')).rejects.toThrow(AccountKeyLookupError);
    expect(mirror.requests).toHaveLength(2);
  });

  it('follows a redirect on its own host but never to another host', async () => {
    const elsewhere = await startMirror();
    try {
      const body = accountBody('0.0.5001', { _type: 'ED25519', key: hex(ED25519_KEY) });
      elsewhere.routes.set('/api/v1/accounts/0.0.5001', json(200, body));
      mirror.routes.set('/v2/0.0.5001', json(200, body));
      serve('0.0.5001', (_request, response) => {
        response.writeHead(302, { location: '/v2/0.0.5001' }).end();
      });
      serve('0.0.5002', (_request, response) => {
        response.writeHead(307, { location: `${elsewhere.url}/api/v1/accounts/0.0.5001` }).end();
      });
      const keys = registry();
      expect((await keys.lookup('0.0.5001'))?.accountId).toBe('0.0.5001');
      await expect(keys.lookup('0.0.5002')).rejects.toThrow(/another host/);
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await stopMirror(elsewhere);
    }
  });

  it('sends nothing for text that is not a ledger id', async () => {
    const keys = registry();
    for (const id of ['0.0.5001/../../tokens', '0.0.5001?x=1', '0x0000000000000000000000000000000000001389', '5001', '']) {
      expect(await keys.lookup(id)).toBeUndefined();
    }
    expect(mirror.requests).toEqual([]);
  });

  it('keeps a path prefix and query of the base URL', async () => {
    mirror.routes.set(
      '/mirror/api/v1/accounts/0.0.5001',
      json(200, accountBody('0.0.5001', { _type: 'ED25519', key: hex(ED25519_KEY) })),
    );
    expect(await registry({ baseUrl: `${mirror.url}/mirror/?tenant=dex` }).lookup('0.0.5001')).toBeDefined();
    expect(mirror.requests).toEqual(['/mirror/api/v1/accounts/0.0.5001?tenant=dex&transactions=false']);
  });

  it('refuses a base URL that is not http or https', () => {
    expect(() => registry({ baseUrl: 'file:///etc/passwd' })).toThrow(/http or https/);
  });
});
