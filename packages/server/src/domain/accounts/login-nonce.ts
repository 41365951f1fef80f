import { randomBytes } from 'node:crypto';

/** A fresh login challenge nonce: 128 random bits in base64url. */
export function newLoginNonce(): string {
  return randomBytes(16).toString('base64url');
}
