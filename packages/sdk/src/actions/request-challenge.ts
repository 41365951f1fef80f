import { postChallenge } from '../auth/login.js';
import type { Client, RequestErrorType } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import { accountIdParameter } from '../utils/parameters.js';

export interface RequestChallengeParameters {
  /** `0.0.X` or a `0x` address. */
  readonly accountId: string;
}

export type RequestChallengeReturnType = { message: string };

/** An account the ledger does not know is an ApiError 400 `UNKNOWN_ACCOUNT`. */
export type RequestChallengeErrorType = InvalidParameterError | RequestErrorType;

/**
 * A single-use login challenge for an account (`POST /auth/challenge`). Most callers want
 * {@link authenticate}, which asks, signs and verifies in one go.
 */
export async function requestChallenge(
  client: Client,
  parameters: RequestChallengeParameters,
): Promise<RequestChallengeReturnType> {
  return postChallenge(client, accountIdParameter(parameters.accountId));
}
