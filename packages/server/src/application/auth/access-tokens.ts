import { webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../../domain/errors.js';
import type { Network } from '../../domain/network.js';
import type { Clock } from '../../ports/clock.js';

/** The authenticated wallet behind a request. */
export interface Principal {
  /** Account the token was issued to: `0.0.X` or a lower-case 0x address. */
  readonly account: string;
  readonly expiresAt: number;
}

const ALGORITHM = 'HS256';
/** Clock skew tolerated between the issuing and the verifying host. */
const CLOCK_TOLERANCE_SECONDS = 5;
/**
 * How far ahead of the verifying clock a token's `iat` may be: the service's own clock stepping
 * back (an NTP correction of a few minutes) must not log out everyone who just logged in. A token
 * issued further ahead (by a clock that ran far ahead) is refused, so it cannot outlive its TTL by
 * more than this.
 */
export const MAX_ISSUED_AHEAD_SECONDS = 300;

/**
 * Short-lived access tokens: HS256 only, issuer and audience bound to the network, `sub`, `iat`
 * and `exp` required, and a lifetime no longer than the configured TTL (a token minted with a
 * longer one, even with the right key, is refused).
 */
export class AccessTokens {
  /** Imported once: jose imports a raw key again on every sign and verify. */
  private readonly key: Promise<webcrypto.CryptoKey>;
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
    this.key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    this.issuer = `dex-exchange/${network}`;
    this.audience = `dex-exchange/${network}/api`;
  }

  async issue(account: string): Promise<string> {
    const now = Math.floor(this.clock.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(account)
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttlSeconds)
      .sign(await this.key);
  }

  /** Verifies a token; any defect answers the same 401 so callers learn nothing about why. */
  async verify(token: string): Promise<Principal> {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: [ALGORITHM],
        issuer: this.issuer,
        audience: this.audience,
        requiredClaims: ['sub', 'iat', 'exp'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(this.clock.now()),
      });
      const { sub, iat, exp } = payload;
      if (typeof sub !== 'string' || sub === '' || iat === undefined || exp === undefined) throw new AppError('INVALID_TOKEN');
      if (exp - iat > this.ttlSeconds || iat > this.clock.now() / 1000 + MAX_ISSUED_AHEAD_SECONDS)
        throw new AppError('INVALID_TOKEN');
      return { account: await this.canonical(sub), expiresAt: exp * 1000 };
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof errors.JOSEError) throw new AppError('INVALID_TOKEN', undefined, { cause: error });
      throw error;
    }
  }
}
