import { generateKeyPairSync, sign } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DevnetAccountKeys } from '../../../adapters/accounts/devnet-account-keys.js';
import { type Harness, startHarness } from '../../../test-support/harness.js';

let harness: Harness;

beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

async function post(url: string, payload: unknown) {
  const response = await harness.app.inject({ method: 'POST', url, payload: payload as object });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

async function challenge(accountId: string): Promise<string> {
  const { status, body } = await post('/auth/challenge', { accountId });
  expect(status).toBe(200);
  return body.message as string;
}

/** A fresh Ed25519 ledger account in the devnet registry, and a function that signs with its key. */
async function ed25519Account() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  const record = await new DevnetAccountKeys(harness.services.store.accountKeys).registerNew('ED25519', raw, harness.clock.now());
  return {
    id: record.accountId,
    publicKeyHex: raw.toString('hex'),
    sign: (message: string) => `0x${sign(null, Buffer.from(message), privateKey).toString('hex')}`,
  };
}

/** A fresh ECDSA ledger account in the devnet registry, and its wallet (which signs as the key's EVM address). */
async function ecdsaAccount() {
  const privateKey = generatePrivateKey();
  const compressed = secp256k1.getPublicKey(Buffer.from(privateKey.slice(2), 'hex'), true);
  const record = await new DevnetAccountKeys(harness.services.store.accountKeys).registerNew(
    'ECDSA_SECP256K1',
    compressed,
    harness.clock.now(),
  );
  return { record, wallet: privateKeyToAccount(privateKey) };
}

/** The 401 of a login with no challenge left to answer. */
function noOpenChallenge(account: string) {
  return {
    status: 401,
    body: {
      code: 'LOGIN_FAILED',
      error: `${account} has no open challenge: a challenge is answered once and expires within minutes; ask POST /auth/challenge for a new one and sign its message`,
    },
  };
}

async function expectTokenFor(account: string, body: Record<string, unknown>): Promise<void> {
  expect(typeof body.token).toBe('string');
  const principal = await harness.services.tokens.verify(body.token as string);
  expect(principal.account).toBe(account);
}

describe('POST /auth/challenge', () => {
  it('names the service, the network, the account and a nonce', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(wallet.address);
    expect(message).toContain('Service: dex-exchange');
    expect(message).toContain('Network: devnet (chain 298)');
    expect(message).toContain(`Account: ${wallet.address.toLowerCase()}`);
    expect(message).toMatch(/Nonce: [A-Za-z0-9_-]{22}/);
    expect(message).toContain(`Expiration Time: ${new Date(harness.clock.now() + 300_000).toISOString()}`);
  });

  it('gives a new nonce every time', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    expect(await challenge(wallet.address)).not.toBe(await challenge(wallet.address));
  });

  it.each([['0.0'], ['0x1234'], ['alice'], ['0.0.1 '], ['']])('answers 400 INVALID_ACCOUNT for %j', async (accountId) => {
    const { status, body } = await post('/auth/challenge', { accountId });
    expect(status).toBe(400);
    expect(body.code).toBe('INVALID_ACCOUNT');
  });

  it('answers 400 UNKNOWN_ACCOUNT for a ledger id the registry does not know', async () => {
    expect(await post('/auth/challenge', { accountId: '0.0.987654' })).toMatchObject({
      status: 400,
      body: { code: 'UNKNOWN_ACCOUNT' },
    });
  });

  it('answers 400 for a body with other fields', async () => {
    expect((await post('/auth/challenge', { accountId: '0.0.5', extra: 1 })).status).toBe(400);
  });
});

describe('POST /auth/verify', () => {
  it('logs a 0x wallet in with an EIP-191 signature made by viem', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(wallet.address);
    const { status, body } = await post('/auth/verify', {
      accountId: wallet.address,
      signature: await wallet.signMessage({ message }),
    });
    expect(status).toBe(200);
    await expectTokenFor(wallet.address.toLowerCase(), body);
  });

  it('logs an Ed25519 ledger account in with a signature of the message bytes', async () => {
    const account = await ed25519Account();
    const message = await challenge(account.id);
    const { status, body } = await post('/auth/verify', { accountId: account.id, signature: account.sign(message) });
    expect(status).toBe(200);
    await expectTokenFor(account.id, body);
  });

  it('logs an ECDSA ledger account in with a personal-sign signature of its key', async () => {
    const { record, wallet } = await ecdsaAccount();
    expect(record.evmAddress).toBe(wallet.address.toLowerCase());
    const message = await challenge(record.accountId);
    const { status, body } = await post('/auth/verify', {
      accountId: record.accountId,
      signature: await wallet.signMessage({ message }),
    });
    expect(status).toBe(200);
    // It trades under its key's address, as a login with the address itself does: one key, one account.
    await expectTokenFor(record.evmAddress, body);
  });

  it('accepts each challenge once', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(wallet.address);
    const signature = await wallet.signMessage({ message });
    expect((await post('/auth/verify', { accountId: wallet.address, signature })).status).toBe(200);
    expect(await post('/auth/verify', { accountId: wallet.address, signature })).toEqual(
      noOpenChallenge(wallet.address.toLowerCase()),
    );
  });

  it('refuses an answer after the challenge expired, saying there is no open challenge', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(wallet.address);
    harness.clock.advance(300_000);
    const signature = await wallet.signMessage({ message });
    expect(await post('/auth/verify', { accountId: wallet.address, signature })).toEqual(
      noOpenChallenge(wallet.address.toLowerCase()),
    );
  });

  it("refuses another wallet's signature of the account's challenge, naming the key it was made by", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const intruder = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(wallet.address);
    const signature = await intruder.signMessage({ message });
    const account = wallet.address.toLowerCase();
    expect(await post('/auth/verify', { accountId: wallet.address, signature })).toEqual({
      status: 401,
      body: {
        code: 'LOGIN_FAILED',
        error: `The signature was made by a key that is not the key of ${account}: over its open challenge it recovers to ${intruder.address.toLowerCase()}, and ${account} signs as its own address. Sign the challenge's exact message with that key`,
      },
    });
  });

  it("refuses another key's signature of an ECDSA ledger account's challenge, naming the account's key address", async () => {
    const { record } = await ecdsaAccount();
    const intruder = privateKeyToAccount(generatePrivateKey());
    const signature = await intruder.signMessage({ message: await challenge(record.accountId) });
    expect(await post('/auth/verify', { accountId: record.accountId, signature })).toEqual({
      status: 401,
      body: {
        code: 'LOGIN_FAILED',
        error: `The signature was made by a key that is not the key of ${record.accountId}: over its open challenge it recovers to ${intruder.address.toLowerCase()}, and ${record.accountId} signs as address ${record.evmAddress}. Sign the challenge's exact message with that key`,
      },
    });
  });

  it('refuses an Ed25519 signature of a different message, naming the public key it does not verify with', async () => {
    const account = await ed25519Account();
    const message = await challenge(account.id);
    const signature = account.sign(`${message} `);
    expect(await post('/auth/verify', { accountId: account.id, signature })).toEqual({
      status: 401,
      body: {
        code: 'LOGIN_FAILED',
        error: `The signature does not verify with the key of ${account.id} (ED25519 public key 0x${account.publicKeyHex}) over its open challenge: it was made by another key, or over other text than the challenge's exact message`,
      },
    });
  });

  it('refuses a signature of the wrong length for the key type, saying which length the key makes', async () => {
    const ed25519 = await ed25519Account();
    const wallet = privateKeyToAccount(generatePrivateKey());
    const secp256k1Signature = await wallet.signMessage({ message: await challenge(ed25519.id) });
    expect((await post('/auth/verify', { accountId: ed25519.id, signature: secp256k1Signature })).body).toEqual({
      code: 'LOGIN_FAILED',
      error: `${ed25519.id} has an ED25519 public key 0x${ed25519.publicKeyHex}, whose signatures are 64 bytes; this one has 65`,
    });
    const { record } = await ecdsaAccount();
    const ed25519Signature = ed25519.sign(await challenge(record.accountId));
    expect((await post('/auth/verify', { accountId: record.accountId, signature: ed25519Signature })).body).toEqual({
      code: 'LOGIN_FAILED',
      error: `${record.accountId} has an ECDSA_SECP256K1 key (address ${record.evmAddress}), which logs in with a 65-byte personal-sign signature; this one has 64 bytes`,
    });
  });

  it('refuses a high-s secp256k1 signature of the right message as not a valid signature', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(wallet.address);
    const signature = await wallet.signMessage({ message });
    const s = BigInt(`0x${signature.slice(66, 130)}`);
    const highS = (secp256k1.Point.CURVE().n - s).toString(16).padStart(64, '0');
    const v = Number.parseInt(signature.slice(130), 16) === 27 ? '1c' : '1b';
    const malleated = `${signature.slice(0, 66)}${highS}${v}`;
    expect(await post('/auth/verify', { accountId: wallet.address, signature: malleated })).toEqual({
      status: 401,
      body: {
        code: 'LOGIN_FAILED',
        error: `The signature is not a valid personal-sign signature (r, s, v with a low s) of the open challenge of ${wallet.address.toLowerCase()}; sign its exact message with the account's key`,
      },
    });
    expect((await post('/auth/verify', { accountId: wallet.address, signature })).status).toBe(200);
  });

  it('answers 401 for an account that never asked for a challenge, saying it has none open', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const signature = await wallet.signMessage({ message: 'anything' });
    expect(await post('/auth/verify', { accountId: wallet.address, signature })).toEqual(
      noOpenChallenge(wallet.address.toLowerCase()),
    );
  });

  it.each([['0x'], ['0x1234'], ['deadbeef'], [`0x${'ab'.repeat(66)}`]])('answers 400 for the signature %s', async (signature) => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    await challenge(wallet.address);
    expect((await post('/auth/verify', { accountId: wallet.address, signature })).status).toBe(400);
  });

  it('issues a token the protected routes accept', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = await challenge(wallet.address);
    const { body } = await post('/auth/verify', { accountId: wallet.address, signature: await wallet.signMessage({ message }) });
    const orders = await harness.app.inject({
      method: 'GET',
      url: '/orders',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(orders.statusCode).toBe(200);
  });
});
