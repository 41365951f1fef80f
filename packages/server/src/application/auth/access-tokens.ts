import { createSecretKey, type KeyObject } from 'node:crypto';
import { AppError } from '../../domain/errors.js';
import type { Network } from '../../domain/network.js';
import type { Clock } from '../../ports/clock.js';
import { type JwtClaims, signHs256, verifyHs256 } from './hs256-jwt.js';

/** The authenticated wallet behind a request. */
export interface Principal {
  /** Account the token was issued to: `0.0.X` or a lower-case 0x address. */
  readonly account: string;
  readonly expiresAt: number;
}

/** Clock skew tolerated between the issuing and the verifying host. */
const CLOCK_TOLERANCE_SECONDS = 5;
/**
 * How far ahead of the verifying clock a token's `iat` may be: the service's own clock stepping
 * back (an NTP correction of a few minutes) must not log out everyone who just logged in. A token
 * issued further ahead (by a clock that ran far ahead) is refused, so it cannot outlive its TTL by
 * more than this.
 */
export const MAX_ISSUED_AHEAD_SECONDS = 300;

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Short-lived access tokens: HS256 only, issuer and audience bound to the network, `sub`, `iat`
 * and `exp` required, and a lifetime no longer than the configured TTL (a token minted with a
 * longer one, even with the right key, is refused).
 */
export class AccessTokens {
  private readonly key: KeyObject;
  readonly issuer: string;
  readonly audience: string;

  constructor(
    secret: string,
    network: Network,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
    /**
     * The name an account trades under (AccountDirectory.canonical), asked at every verify: a token
     * issued to a 0x address before it became a ledger account's alias acts as that account.
     */
    private readonly canonical: (account: string) => Promise<string> = async (account) => account,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
    this.issuer = `dex-exchange/${network}`;
    this.audience = `dex-exchange/${network}/api`;
  }

  async issue(account: string): Promise<string> {
    const now = Math.floor(this.clock.now() / 1000);
    const claims = { sub: account, iss: this.issuer, aud: this.audience, iat: now, exp: now + this.ttlSeconds };
    return signHs256(claims, this.key);
  }

  /** Verifies a token; any defect answers the same 401 so callers learn nothing about why. */
  async verify(token: string): Promise<Principal> {
    const claims = verifyHs256(token, this.key);
    if (claims === null || !this.valid(claims)) throw new AppError('INVALID_TOKEN');
    return { account: await this.canonical(claims.sub), expiresAt: claims.exp * 1000 };
  }

  /**
   * The claims' rules: this network's issuer and audience (one of several audiences is enough),
   * a non-empty `sub`, numeric `iat` and `exp` (and `nbf` when present), not expired and already
   * valid within the clock tolerance, issued at most {@link MAX_ISSUED_AHEAD_SECONDS} ahead, and
   * living no longer than the TTL.
   */
  private valid(claims: JwtClaims): claims is JwtClaims & { readonly sub: string; readonly exp: number } {
    const { sub, iss, aud, iat, exp, nbf } = claims;
    const now = this.clock.now() / 1000;
    const whole = Math.floor(now);
    const audiences = Array.isArray(aud) ? aud : [aud];
    return (
      iss === this.issuer &&
      audiences.includes(this.audience) &&
      typeof sub === 'string' &&
      sub !== '' &&
      isTime(iat) &&
      isTime(exp) &&
      (nbf === undefined || (isTime(nbf) && nbf <= whole + CLOCK_TOLERANCE_SECONDS)) &&
      exp > whole - CLOCK_TOLERANCE_SECONDS &&
      exp - iat <= this.ttlSeconds &&
      iat <= now + MAX_ISSUED_AHEAD_SECONDS
    );
  }
}
