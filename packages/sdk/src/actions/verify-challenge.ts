import type { Hex } from '@dex/core';
import { postVerify } from '../auth/login.js';
import type { Client, RequestErrorType } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import { accountIdParameter } from '../utils/parameters.js';

export interface VerifyChallengeParameters {
  readonly accountId: string;
  /** 0x-hex: EIP-191 (65 bytes) for secp256k1 keys, Ed25519 over the message bytes (64 bytes). */
  readonly signature: Hex;
}

export type VerifyChallengeReturnType = { token: string };

/** A signature that answers no open challenge is an ApiError 401 `LOGIN_FAILED`. */
export type VerifyChallengeErrorType = InvalidParameterError | RequestErrorType;

/**
 * Exchanges a signed challenge for an access token (`POST /auth/verify`). The token is returned,
 * not kept: {@link authenticate} keeps it in the client. Never log it.
 */
export async function verifyChallenge(client: Client, parameters: VerifyChallengeParameters): Promise<VerifyChallengeReturnType> {
  return postVerify(client, accountIdParameter(parameters.accountId), parameters.signature);
}
