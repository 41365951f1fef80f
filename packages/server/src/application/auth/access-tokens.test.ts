import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { generateKeyPair, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors.js';
import type { Network } from '../../domain/network.js';
import { optionalPrincipal, publicCaller, requirePrincipal } from '../../edges/http/access.js';
import { AccessTokens, MAX_ISSUED_AHEAD_SECONDS } from './access-tokens.js';

const SECRET = 'a-test-secret-of-more-than-32-bytes-long!';
const KEY = new TextEncoder().encode(SECRET);
const TTL = 900;
/** 2026-11-22T12:00:00.250Z: not on a whole second, so the issuer has to round. */
const START = Date.UTC(2026, 10, 22, 12, 0, 0) + 250;
const NOW_S = Math.floor(START / 1000);
const ISSUER = 'dex-exchange/devnet';
const AUDIENCE = 'dex-exchange/devnet/api';

/** A clock the test moves by hand. */
function manualClock(time = START) {
  const clock = { time, now: () => clock.time };
  return clock;
}

function verifier(network: Network = 'devnet', clock = manualClock()) {
  return new AccessTokens(SECRET, network, TTL, clock);
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Claims as the service issues them, with `overrides` applied; `undefined` removes a claim. */
function claims(overrides: Record<string, unknown> = {}): JWTPayload {
  const all: Record<string, unknown> = { sub: '0.0.5', iss: ISSUER, aud: AUDIENCE, iat: NOW_S, exp: NOW_S + TTL, ...overrides };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}

/** Signs arbitrary claims with the service's secret (or another key) and algorithm. */
async function forge(payload: JWTPayload, options: { alg?: string; key?: Parameters<SignJWT['sign']>[0] } = {}): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' }).sign(options.key ?? KEY);
}

/** The AppError that verifying `token` rejects with; fails the test when it verifies. */
async function rejection(token: string, tokens = verifier()): Promise<AppError> {
  const outcome = await tokens.verify(token).then(
    (principal) => ({ principal }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`token was accepted as ${JSON.stringify(outcome.principal)}`);
  expect(outcome.error).toBeInstanceOf(AppError);
  return outcome.error as AppError;
}

async function expectInvalid(token: string, tokens = verifier()): Promise<void> {
  const error = await rejection(token, tokens);
  expect(error.code).toBe('INVALID_TOKEN');
  expect(error.status).toBe(401);
}

describe('AccessTokens', () => {
  describe('accepts', () => {
    it('a token it issued, returning the account and the expiry in unix ms', async () => {
      const tokens = verifier();
      const token = await tokens.issue('0.0.5');
      expect(await tokens.verify(token)).toEqual({ account: '0.0.5', expiresAt: (NOW_S + TTL) * 1000 });
    });

    it('its own token until just before it expires', async () => {
      const clock = manualClock();
      const tokens = verifier('devnet', clock);
      const token = await tokens.issue('0x00000000000000000000000000000000000003e9');
      clock.time = (NOW_S + TTL) * 1000 - 1;
      expect((await tokens.verify(token)).account).toBe('0x00000000000000000000000000000000000003e9');
    });

    it('a token issued by another instance with the same secret and network', async () => {
      const token = await verifier().issue('0.0.7');
      expect((await verifier().verify(token)).account).toBe('0.0.7');
    });

    it('round-trips any account for any TTL within its lifetime', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.string({ minLength: 1, maxLength: 64 }),
          fc.integer({ min: 60, max: 86_400 }),
          fc.double({ min: 0, max: 1, noNaN: true }),
          async (account, ttl, elapsed) => {
            const clock = manualClock();
            const tokens = new AccessTokens(SECRET, 'testnet', ttl, clock);
            const token = await tokens.issue(account);
            clock.time = START + Math.floor(elapsed * (ttl - 1) * 1000);
            expect(await tokens.verify(token)).toEqual({ account, expiresAt: (NOW_S + ttl) * 1000 });
          },
        ),
        { numRuns: 50 },
      );
    });

    it('a token from another JWT library signed with the secret', async () => {
      expect((await verifier().verify(await forge(claims({ sub: '0.0.9' })))).account).toBe('0.0.9');
    });

    it('a token that names this audience among others, as RFC 7519 allows', async () => {
      expect((await verifier().verify(await forge(claims({ aud: ['someone-else', AUDIENCE] })))).account).toBe('0.0.5');
    });
  });

  it('issues tokens another JWT library verifies, with the claims it promises', async () => {
    const token = await verifier().issue('0.0.5');
    const { payload, protectedHeader } = await jwtVerify(token, KEY, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: new Date(START),
    });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toEqual({ sub: '0.0.5', iss: ISSUER, aud: AUDIENCE, iat: NOW_S, exp: NOW_S + TTL });
  });

  describe('rejects with INVALID_TOKEN', () => {
    it('rejects a token signed with alg none', async () => {
      const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims())}.`;
      await expectInvalid(token);
    });

    it('rejects an alg none token that carries a copied signature', async () => {
      const genuine = await verifier().issue('0.0.5');
      const signature = genuine.split('.')[2];
      await expectInvalid(`${base64url({ alg: 'none' })}.${base64url(claims())}.${signature}`);
    });

    it.each(['HS384', 'HS512'])('rejects a token signed with %s and the same secret', async (alg) => {
      await expectInvalid(await forge(claims(), { alg }));
    });

    it.each(['RS256', 'ES256', 'EdDSA'])('rejects a token signed with %s by a key pair', async (alg) => {
      const { privateKey } = await generateKeyPair(alg);
      await expectInvalid(await forge(claims(), { alg, key: privateKey }));
    });

    it('rejects a token signed with a different secret', async () => {
      await expectInvalid(await forge(claims(), { key: new TextEncoder().encode(`${SECRET}-other`) }));
    });

    it('rejects an HS256 token with the header alg rewritten', async () => {
      const [, payload, signature] = (await verifier().issue('0.0.5')).split('.');
      await expectInvalid(`${base64url({ alg: 'HS512', typ: 'JWT' })}.${payload}.${signature}`);
    });

    it('rejects a token whose payload was changed after signing', async () => {
      const [header, , signature] = (await verifier().issue('0.0.5')).split('.');
      await expectInvalid(`${header}.${base64url(claims({ sub: '0.0.6' }))}.${signature}`);
    });

    it('rejects any change of the claims under the original signature', async () => {
      const [header, , signature] = (await verifier().issue('0.0.5')).split('.');
      await fc.assert(
        fc.asyncProperty(
          fc.record({ sub: fc.string({ minLength: 1 }), exp: fc.integer({ min: NOW_S + 1, max: NOW_S + TTL }) }),
          async (change) => {
            fc.pre(change.sub !== '0.0.5' || change.exp !== NOW_S + TTL);
            await expectInvalid(`${header}.${base64url(claims(change))}.${signature}`);
          },
        ),
        { numRuns: 50 },
      );
    });

    it('rejects a token without a signature part', async () => {
      const [header, payload] = (await verifier().issue('0.0.5')).split('.');
      await expectInvalid(`${header}.${payload}.`);
      await expectInvalid(`${header}.${payload}`);
    });

    it('rejects an expired token', async () => {
      const clock = manualClock();
      const tokens = verifier('devnet', clock);
      const token = await tokens.issue('0.0.5');
      clock.time = (NOW_S + TTL + 6) * 1000;
      await expectInvalid(token, tokens);
    });

    it('rejects an expired token long after expiry', async () => {
      const clock = manualClock();
      const tokens = verifier('devnet', clock);
      const token = await tokens.issue('0.0.5');
      clock.time += 365 * 24 * 3600 * 1000;
      await expectInvalid(token, tokens);
    });

    it('rejects a token that is not valid before a future nbf', async () => {
      await expectInvalid(await forge(claims({ nbf: NOW_S + 60 })));
    });

    it(`rejects a token issued more than ${MAX_ISSUED_AHEAD_SECONDS} s in the future`, async () => {
      const iat = NOW_S + MAX_ISSUED_AHEAD_SECONDS + 1;
      await expectInvalid(await forge(claims({ iat, exp: iat + TTL })));
    });

    it('rejects a lifetime longer than the TTL even when correctly signed', async () => {
      await expectInvalid(await forge(claims({ exp: NOW_S + TTL + 1 })));
      await expectInvalid(await forge(claims({ iat: NOW_S - 10, exp: NOW_S - 10 + TTL + 1 })));
    });

    it('rejects a token minted by a verifier with a longer TTL', async () => {
      const long = new AccessTokens(SECRET, 'devnet', TTL * 2, manualClock());
      await expectInvalid(await long.issue('0.0.5'));
    });

    it.each(['sub', 'exp', 'iat'])('rejects a token without %s', async (claim) => {
      await expectInvalid(await forge(claims({ [claim]: undefined })));
    });

    it('rejects an empty sub', async () => {
      await expectInvalid(await forge(claims({ sub: '' })));
    });

    it.each([
      ['sub', 5],
      ['exp', String(NOW_S + TTL)],
      ['iat', String(NOW_S)],
    ])('rejects a %s of the wrong type', async (claim, value) => {
      await expectInvalid(await forge(claims({ [claim]: value })));
    });

    it('rejects a wrong issuer', async () => {
      await expectInvalid(await forge(claims({ iss: 'someone-else' })));
      await expectInvalid(await forge(claims({ iss: undefined })));
    });

    it('rejects a wrong audience', async () => {
      await expectInvalid(await forge(claims({ aud: 'dex-exchange/devnet' })));
      await expectInvalid(await forge(claims({ aud: undefined })));
    });

    it('rejects the testnet token on a mainnet verifier', async () => {
      const token = await verifier('testnet').issue('0.0.5');
      await expectInvalid(token, verifier('mainnet'));
    });

    it('rejects a header with critical extensions, none of which it understands', async () => {
      const input = `${base64url({ alg: 'HS256', crit: ['exp'] })}.${base64url(claims())}`;
      await expectInvalid(`${input}.${createHmac('sha256', KEY).update(input).digest('base64url')}`);
    });

    it('rejects a signature written with padding or in the other base64 alphabet', async () => {
      const tokens = verifier();
      // The first of the service's tokens whose signature has a character the alphabets write differently.
      let account = 0;
      let token = await tokens.issue('0.0.0');
      while (!/[-_]/.test(token.split('.')[2] as string)) token = await tokens.issue(`0.0.${++account}`);
      const [header, payload, signature] = token.split('.') as [string, string, string];
      await expectInvalid(`${header}.${payload}.${signature}=`);
      await expectInvalid(`${header}.${payload}.${signature.replaceAll('-', '+').replaceAll('_', '/')}`);
    });

    it('rejects a token whose nbf is not a number', async () => {
      await expectInvalid(await forge(claims({ nbf: String(NOW_S) })));
    });

    it.each(['', 'abc', 'a.b.c', '...', 'eyJ.eyJ.x'])('rejects the malformed token %j', async (token) => {
      await expectInvalid(token);
    });

    it('rejects any random three-part token with an AppError, never another error', async () => {
      const segment = fc.oneof(
        fc.json().map((json) => Buffer.from(json).toString('base64url')),
        fc.string({ unit: fc.constantFrom(...'ABCabc019-_=+/'), maxLength: 40 }),
      );
      await fc.assert(
        fc.asyncProperty(segment, segment, segment, async (header, payload, signature) => {
          await expectInvalid(`${header}.${payload}.${signature}`);
        }),
      );
    });
  });
});

/** A request with only the headers that access control reads. */
function request(authorization?: string): FastifyRequest {
  return { headers: authorization === undefined ? {} : { authorization } } as unknown as FastifyRequest;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

describe('requirePrincipal', () => {
  it('returns the principal for a valid bearer token', async () => {
    const tokens = verifier();
    const token = await tokens.issue('0.0.5');
    expect(await requirePrincipal(request(`Bearer ${token}`), tokens)).toEqual({
      account: '0.0.5',
      expiresAt: (NOW_S + TTL) * 1000,
    });
  });

  it('answers MISSING_AUTHORIZATION without an Authorization header', async () => {
    expect(await codeOf(requirePrincipal(request(), verifier()))).toBe('MISSING_AUTHORIZATION');
    expect(await codeOf(requirePrincipal(request(''), verifier()))).toBe('MISSING_AUTHORIZATION');
  });

  it.each(['Bearer', 'Bearer ', 'Basic x', 'Bearer a.b', 'Bearer a.b.c.d', 'Token a.b.c'])(
    'answers INVALID_TOKEN for the malformed header %j',
    async (header) => {
      expect(await codeOf(requirePrincipal(request(header), verifier()))).toBe('INVALID_TOKEN');
    },
  );

  it('accepts the scheme name in any case, as RFC 7235 says', async () => {
    const tokens = verifier();
    const token = await tokens.issue('0.0.5');
    for (const header of [`bearer ${token}`, `BEARER ${token}`]) {
      expect((await requirePrincipal(request(header), tokens)).account).toBe('0.0.5');
    }
  });

  it('answers INVALID_TOKEN for a valid token under a padded scheme', async () => {
    const tokens = verifier();
    const token = await tokens.issue('0.0.5');
    for (const header of [`Bearer  ${token}`, ` Bearer ${token}`, `Bearer ${token} `]) {
      expect(await codeOf(requirePrincipal(request(header), tokens))).toBe('INVALID_TOKEN');
    }
  });

  it('answers INVALID_TOKEN for a well-formed header with a bad token', async () => {
    const tokens = verifier();
    const token = await tokens.issue('0.0.5');
    expect(await codeOf(requirePrincipal(request(`Bearer ${token}x`), tokens))).toBe('INVALID_TOKEN');
    const none = `${base64url({ alg: 'none' })}.${base64url(claims())}.`;
    expect(await codeOf(requirePrincipal(request(`Bearer ${none}`), tokens))).toBe('INVALID_TOKEN');
  });
});

describe('optionalPrincipal', () => {
  it('returns the principal for a valid bearer token', async () => {
    const tokens = verifier();
    const token = await tokens.issue('0.0.9');
    expect((await optionalPrincipal(request(`Bearer ${token}`), tokens))?.account).toBe('0.0.9');
  });

  it('returns null without a header', async () => {
    expect(await optionalPrincipal(request(), verifier())).toBeNull();
  });

  it('answers INVALID_TOKEN for malformed headers and bad tokens, so a client learns to re-authenticate (RFC 6750)', async () => {
    const clock = manualClock();
    const tokens = verifier('devnet', clock);
    const token = await tokens.issue('0.0.5');
    const hs512 = await forge(claims(), { alg: 'HS512' });
    for (const header of ['Bearer', 'Basic x', 'Bearer a.b', `Bearer ${token}x`, `Bearer ${hs512}`]) {
      expect(await codeOf(optionalPrincipal(request(header), tokens))).toBe('INVALID_TOKEN');
    }
    clock.time += (TTL + 60) * 1000;
    expect(await codeOf(optionalPrincipal(request(`Bearer ${token}`), tokens))).toBe('INVALID_TOKEN');
  });

  it('treats an empty Authorization header like none', async () => {
    expect(await optionalPrincipal(request(''), verifier())).toBeNull();
  });
});

describe('publicCaller', () => {
  it('lets anonymous callers through while open market data is on', async () => {
    expect(await publicCaller(true, verifier())(request())).toBeNull();
  });

  it('demands a valid token while open market data is off', async () => {
    const tokens = verifier();
    const caller = publicCaller(false, tokens);
    expect(await codeOf(caller(request()))).toBe('MISSING_AUTHORIZATION');
    expect(await codeOf(caller(request('Basic x')))).toBe('INVALID_TOKEN');
    expect((await caller(request(`Bearer ${await tokens.issue('0.0.5')}`)))?.account).toBe('0.0.5');
  });
});
