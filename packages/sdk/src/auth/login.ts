import type { Hex } from '@dex/core';
import { SdkError } from '../errors.js';
import type { Signer } from '../signing/signer.js';
import { type Endpoint, send } from '../transport.js';

/** `POST /auth/challenge`: the single-use message the account signs to log in. */
export async function postChallenge(endpoint: Endpoint, accountId: string): Promise<{ message: string }> {
  return (await send<{ message: string }>(endpoint, { method: 'POST', path: ['auth', 'challenge'], body: { accountId } })).body;
}

/** `POST /auth/verify`: the signed challenge exchanged for an access token. */
export async function postVerify(endpoint: Endpoint, accountId: string, signature: Hex): Promise<{ token: string }> {
  return (await send<{ token: string }>(endpoint, { method: 'POST', path: ['auth', 'verify'], body: { accountId, signature } }))
    .body;
}

/**
 * The wallet challenge flow: asks for a challenge, checks that it is a login of this very account
 * (a signer never signs a message about someone else), signs it and exchanges it for a token.
 */
export async function login(endpoint: Endpoint, signer: Signer): Promise<string> {
  const { message } = await postChallenge(endpoint, signer.account);
  if (typeof message !== 'string' || !message.split('\n').some((line) => line.trim() === `Account: ${signer.account}`)) {
    throw new SdkError('The login challenge does not name this account; it was not signed', {
      details: `expected a line "Account: ${signer.account}"`,
    });
  }
  const { token } = await postVerify(endpoint, signer.account, await signer.signMessage(message));
  if (!isBearerToken(token)) throw new SdkError('The login answer carried no usable access token');
  return token;
}

/** A token is sent verbatim in a header: visible ASCII only, so it cannot split or corrupt the header. */
export function isBearerToken(token: unknown): token is string {
  return typeof token === 'string' && /^[\x21-\x7e]+$/.test(token);
}

/** The `exp` of a JWT in unix ms, read without verifying it (the server does that); undefined if unreadable. */
export function tokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(new TextDecoder().decode(base64UrlDecode(payload))) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

function base64UrlDecode(text: string): Uint8Array {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
