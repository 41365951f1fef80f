import fc from 'fast-check';
import { bytesToHex, hashMessage, hexToBytes } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { personalSignDigest, recoverPersonalSigner } from './personal-sign.js';

describe('personal-sign', () => {
  it('hashes messages like viem, counting UTF-8 bytes rather than characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (message) => {
        expect(bytesToHex(personalSignDigest(message))).toBe(hashMessage(message));
      }),
    );
    expect(bytesToHex(personalSignDigest('héllo ✓'))).toBe(hashMessage('héllo ✓'));
  });

  it('recovers the signer of a message signed with viem', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (message) => {
        const account = privateKeyToAccount(generatePrivateKey());
        const signature = hexToBytes(await account.signMessage({ message }));
        expect(recoverPersonalSigner(message, signature)).toBe(account.address.toLowerCase());
      }),
      { numRuns: 20 },
    );
  });

  it('does not recover the signer for another message or a damaged signature', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signature = hexToBytes(await account.signMessage({ message: 'Sign in to the exchange: nonce 1' }));
    expect(recoverPersonalSigner('Sign in to the exchange: nonce 2', signature)).not.toBe(account.address.toLowerCase());
    const badV = signature.slice();
    badV[64] = 30;
    expect(recoverPersonalSigner('Sign in to the exchange: nonce 1', badV)).toBeNull();
    expect(recoverPersonalSigner('Sign in to the exchange: nonce 1', signature.subarray(0, 64))).toBeNull();
  });
});
