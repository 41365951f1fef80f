import type { Client, RequestErrorType } from '../client.js';
import type { NotAuthenticatedError, SdkError } from '../errors.js';
import type { Signer } from '../signing/signer.js';

export interface AuthenticateParameters {
  /** Log in as this signer from now on; the client's own signer when absent. */
  readonly signer?: Signer | undefined;
}

export interface AuthenticateReturnType {
  readonly account: string;
  /** The access token, also kept by the client for later calls. A credential: never log it. */
  readonly token: string;
  /** Unix ms at which the token expires, as the token says. */
  readonly expiresAt: number | undefined;
}

export type AuthenticateErrorType = NotAuthenticatedError | SdkError | RequestErrorType;

/**
 * Logs in with the wallet challenge flow: asks for a challenge, checks that it names the signer's
 * account, signs it on this side and exchanges it for an access token, which the client then
 * sends on every call. Account routes do this by themselves when needed; call it to log in early
 * or to switch accounts.
 *
 * @example
 * const client = createClient({ baseUrl, signer: ed25519Signer(key, { account: '0.0.5001' }) });
 * const { account, expiresAt } = await authenticate(client);
 */
export async function authenticate(client: Client, parameters: AuthenticateParameters = {}): Promise<AuthenticateReturnType> {
  const { session } = client;
  if (parameters.signer !== undefined) session.use(parameters.signer);
  const token = await session.renew(client);
  return { account: session.signer?.account ?? '', token, expiresAt: session.expiresAt };
}
