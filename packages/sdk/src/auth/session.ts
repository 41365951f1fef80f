import { NotAuthenticatedError } from '../errors.js';
import type { Signer } from '../signing/signer.js';
import type { Endpoint } from '../transport.js';
import { login, tokenExpiry } from './login.js';

/** A token this close to its expiry is renewed before use rather than sent to be refused. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * The access token of a client and the signer that renews it. The token lives in a private field:
 * logging a client or a session never shows it. Concurrent renewals share one login.
 */
export class Session {
  #signer: Signer | undefined;
  #token: string | undefined;
  #expiresAt: number | undefined;
  #login: Promise<string> | undefined;
  readonly #now: () => number;

  constructor(signer: Signer | undefined, token: string | undefined, now: () => number = Date.now) {
    this.#signer = signer;
    this.#now = now;
    if (token !== undefined) this.set(token);
  }

  /** The key logins are made with. */
  get signer(): Signer | undefined {
    return this.#signer;
  }

  /** Logs in as another signer from the next login on; the held token is dropped. */
  use(signer: Signer): void {
    if (signer === this.#signer) return;
    this.#signer = signer;
    this.#token = undefined;
    this.#expiresAt = undefined;
  }

  /** The held token unless it is known to expire within the margin. */
  current(): string | undefined {
    if (this.#token === undefined) return undefined;
    if (this.#expiresAt !== undefined && this.#now() >= this.#expiresAt - EXPIRY_MARGIN_MS) return undefined;
    return this.#token;
  }

  /** Unix ms at which the held token expires, when the token says. */
  get expiresAt(): number | undefined {
    return this.#expiresAt;
  }

  /** A token to send: the held one, or a fresh login. */
  async ensure(endpoint: Endpoint): Promise<string> {
    return this.current() ?? this.renew(endpoint);
  }

  /**
   * Logs in again. With `stale` (the token a refused request carried), a token renewed since by
   * another request is used instead of logging in once more.
   */
  renew(endpoint: Endpoint, stale?: string): Promise<string> {
    if (stale !== undefined && this.#token !== stale) {
      const current = this.current();
      if (current !== undefined) return Promise.resolve(current);
    }
    const { signer } = this;
    if (signer === undefined) return Promise.reject(new NotAuthenticatedError());
    this.#login ??= login(endpoint, signer)
      .then((token) => {
        this.set(token);
        return token;
      })
      .finally(() => {
        this.#login = undefined;
      });
    return this.#login;
  }

  set(token: string): void {
    this.#token = token;
    this.#expiresAt = tokenExpiry(token);
  }
}
