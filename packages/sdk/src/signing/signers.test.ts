import { createPublicKey, verify } from 'node:crypto';
import { inspect } from 'node:util';
import { bytesToHex, type Eip712Domain, longZeroAddress, orderTypedData, type PartialFillLimitOrder } from '@dex/core';
import { orderArbitrary } from '@dex/core/test-support/order-arbitraries';
import { PrivateKey } from '@hashgraph/sdk';
import fc from 'fast-check';
import { hashTypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { InvalidKeyError, InvalidParameterError } from '../errors.js';
import { ed25519Signer } from './ed25519-signer.js';
import { secp256k1Signer } from './secp256k1-signer.js';
import { orderDigest } from './signer.js';

const DOMAIN: Eip712Domain = {
  name: 'PartialFillLimitOrderReactor',
  version: '1',
  chainId: 298,
  verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
};

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Verifies an Ed25519 signature with node:crypto, an implementation independent of the signer's. */
function ed25519Verifies(publicKey: Uint8Array, message: Uint8Array, signature: string): boolean {
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') },
    format: 'jwk',
  });
  return verify(null, message, key, Buffer.from(signature.slice(2), 'hex'));
}

const orders = orderArbitrary(64);

describe('secp256k1Signer', () => {
  it('signs logins and orders exactly as viem does, for a hex key', async () => {
    await fc.assert(
      fc.asyncProperty(orders, fc.string(), async (order, message) => {
        const key = generatePrivateKey();
        const account = privateKeyToAccount(key);
        const signer = secp256k1Signer(key);
        expect(signer.account).toBe(account.address.toLowerCase());
        expect(signer.swapper).toBe(account.address.toLowerCase());
        expect(await signer.signMessage(message)).toBe(await account.signMessage({ message }));
        const typed = await account.signTypedData(orderTypedData(DOMAIN, order));
        expect(await signer.signOrder(order, DOMAIN)).toBe(`0x00${typed.slice(2)}`);
      }),
      { numRuns: 40 },
    );
  });

  it('signs through a viem account without touching its key', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signer = secp256k1Signer(account);
    const order = fc.sample(orders, 1)[0] as PartialFillLimitOrder;
    const typed = await account.signTypedData(orderTypedData(DOMAIN, order));
    expect(await signer.signOrder(order, DOMAIN)).toBe(`0x00${typed.slice(2)}`);
    expect(await signer.signMessage('hi')).toBe(await account.signMessage({ message: 'hi' }));
  });

  it('takes the key as bytes, bare hex, 0x hex with a newline, or the ledger DER hex, all alike', () => {
    const key = generatePrivateKey();
    const bare = key.slice(2);
    const address = privateKeyToAccount(key).address.toLowerCase();
    for (const source of [key, bare, `${key}\n`, Buffer.from(bare, 'hex'), `3030020100300706052b8104000a04220420${bare}`]) {
      expect(secp256k1Signer(source).swapper).toBe(address);
    }
  });

  it('accepts the ledger SDK ECDSA key and trades as its EVM address', async () => {
    const key = PrivateKey.generateECDSA();
    const signer = secp256k1Signer(key, { account: '0.0.7001' });
    expect(signer.account).toBe('0.0.7001');
    expect(signer.swapper).toBe(`0x${key.publicKey.toEvmAddress()}`);
    const viem = privateKeyToAccount(`0x${key.toStringRaw()}`);
    expect(await signer.signMessage('login')).toBe(await viem.signMessage({ message: 'login' }));
  });

  it.each([
    ['31 bytes', 'ab'.repeat(31)],
    ['33 bytes', 'ab'.repeat(33)],
    ['not hex', 'zz'.repeat(32)],
    ['zero', '00'.repeat(32)],
    ['the curve order', 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'],
    ['an Ed25519 DER key', `302e020100300506032b657004220420${'11'.repeat(32)}`],
  ])('refuses a key of %s without quoting it', (_name, source) => {
    let error: unknown;
    try {
      secp256k1Signer(source);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidKeyError);
    expect(String(error)).not.toContain(source.slice(8, 40));
  });

  it('refuses the ledger SDK Ed25519 key and an account that is not a ledger id', () => {
    expect(() => secp256k1Signer(PrivateKey.generateED25519())).toThrow(InvalidKeyError);
    expect(() => secp256k1Signer(generatePrivateKey(), { account: '0x12' })).toThrow(InvalidParameterError);
  });
});

describe('ed25519Signer', () => {
  it('signs the message bytes and the EIP-712 digest, verifiable by node:crypto', async () => {
    const key = PrivateKey.generateED25519();
    const publicKey = key.publicKey.toBytesRaw();
    const signer = ed25519Signer(key.toStringRaw(), { account: '0.0.7002' });
    expect(signer).toMatchObject({ account: '0.0.7002', keyType: 'ed25519', swapper: longZeroAddress('0.0.7002') });
    await fc.assert(
      fc.asyncProperty(orders, fc.string(), async (order, message) => {
        expect(ed25519Verifies(publicKey, new TextEncoder().encode(message), await signer.signMessage(message))).toBe(true);
        const digest = orderDigest(order, DOMAIN);
        expect(bytesToHex(digest)).toBe(hashTypedData(orderTypedData(DOMAIN, order)));
        const signature = await signer.signOrder(order, DOMAIN);
        expect(signature.slice(0, 4)).toBe('0x00');
        expect(ed25519Verifies(publicKey, digest, `0x${signature.slice(4)}`)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('signs with the ledger SDK key itself exactly as with its raw bytes', async () => {
    const key = PrivateKey.generateED25519();
    const fromLedgerKey = ed25519Signer(key, { account: '0.0.7003' });
    const fromBytes = ed25519Signer(key.toBytesRaw(), { account: '0.0.7003' });
    const fromDer = ed25519Signer(key.toStringDer(), { account: '0.0.7003' });
    const order = fc.sample(orders, 1)[0] as PartialFillLimitOrder;
    const expected = await fromBytes.signOrder(order, DOMAIN);
    expect(await fromLedgerKey.signOrder(order, DOMAIN)).toBe(expected);
    expect(await fromDer.signOrder(order, DOMAIN)).toBe(expected);
    expect(await fromLedgerKey.signMessage('x')).toBe(await fromBytes.signMessage('x'));
  });

  it('needs the ledger account id and an Ed25519 key', () => {
    const raw = PrivateKey.generateED25519().toStringRaw();
    expect(() => ed25519Signer(raw, { account: '0xabc' })).toThrow(InvalidParameterError);
    expect(() => ed25519Signer(raw, undefined as unknown as { account: string })).toThrow(InvalidParameterError);
    expect(() => ed25519Signer(PrivateKey.generateECDSA(), { account: '0.0.1' })).toThrow(InvalidKeyError);
    expect(() => ed25519Signer(raw.slice(2), { account: '0.0.1' })).toThrow(InvalidKeyError);
  });
});

describe('signers keep their keys to themselves', () => {
  it.each([
    ['secp256k1', () => generatePrivateKey().slice(2), (key: string) => secp256k1Signer(key)],
    ['ed25519', () => hex(PrivateKey.generateED25519().toBytesRaw()), (key: string) => ed25519Signer(key, { account: '0.0.9' })],
  ])('a %s signer shows no key when logged, inspected or serialised', (_name, makeKey, makeSigner) => {
    const key = makeKey();
    const signer = makeSigner(key);
    expect(inspect(signer, { depth: 10, showHidden: true })).not.toContain(key);
    expect(JSON.stringify(signer)).not.toContain(key);
    expect(Object.isFrozen(signer)).toBe(true);
  });
});
