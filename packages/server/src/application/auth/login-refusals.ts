import { AppError } from '../../domain/errors.js';
import { recoverPersonalSigner } from '../../domain/signatures/personal-sign.js';
import type { TradingIdentity } from './trading-identity.js';

/** Bytes of a secp256k1 personal-sign signature (r, s, v) and of an Ed25519 one. */
const SECP256K1_BYTES = 65;
const ED25519_BYTES = 64;

/**
 * Why a login is refused, in words a person can act on; all are LOGIN_FAILED, so that clients keep
 * one code to branch on. The account's key is public (the ledger shows it), so naming it gives
 * nothing away; the signature's own signer is named only as the text it recovers to.
 */
export const LoginRefusal = {
  /** The ledger gives the account no key this service logs in with. */
  noUsableKey(account: string): AppError {
    return new AppError(
      'LOGIN_FAILED',
      `${account} has no single ED25519 or ECDSA_SECP256K1 key on the ledger, so it cannot log in`,
    );
  },

  /** Never asked, expired, pushed out or already answered. */
  noOpenChallenge(account: string): AppError {
    return new AppError(
      'LOGIN_FAILED',
      `${account} has no open challenge: a challenge is answered once and expires within minutes; ask POST /auth/challenge for a new one and sign its message`,
    );
  },

  /** A challenge is open, and the signature is not the account's key's signature of it. */
  wrongKey(identity: TradingIdentity, account: string, challenge: string, signature: Uint8Array): AppError {
    return new AppError('LOGIN_FAILED', wrongKeyText(identity, account, challenge, signature));
  },
};

function wrongKeyText(identity: TradingIdentity, account: string, challenge: string, signature: Uint8Array): string {
  const { signer } = identity;
  if (signer.type === 'ed25519') {
    const key = `ED25519 public key 0x${Buffer.from(signer.publicKey).toString('hex')}`;
    if (signature.length !== ED25519_BYTES)
      return `${account} has an ${key}, whose signatures are ${ED25519_BYTES} bytes; this one has ${signature.length}`;
    return `The signature does not verify with the key of ${account} (${key}) over its open challenge: it was made by another key, or over other text than the challenge's exact message`;
  }
  if (signer.type !== 'secp256k1-address') return `The signature does not verify with the key of ${account}`;
  const key = account === signer.address ? 'its own address' : `address ${signer.address}`;
  if (signature.length !== SECP256K1_BYTES)
    return `${account} has an ECDSA_SECP256K1 key (${key}), which logs in with a ${SECP256K1_BYTES}-byte personal-sign signature; this one has ${signature.length} bytes`;
  const recovered = recoverPersonalSigner(challenge, signature);
  if (recovered === null)
    return `The signature is not a valid personal-sign signature (r, s, v with a low s) of the open challenge of ${account}; sign its exact message with the account's key`;
  return `The signature was made by a key that is not the key of ${account}: over its open challenge it recovers to ${recovered}, and ${account} signs as ${key}. Sign the challenge's exact message with that key`;
}
