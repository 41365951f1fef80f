import type { FastifyRequest } from 'fastify';
import type { AccessTokens, Principal } from '../../application/auth/access-tokens.js';
import { AppError } from '../../domain/errors.js';

/** The scheme name is case-insensitive (RFC 7235); the token is a compact JWS. */
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i;

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined || header === '') return undefined;
  const match = BEARER.exec(header);
  if (!match) throw new AppError('INVALID_TOKEN', 'Authorization must be "Bearer <access token>"');
  return match[1];
}

/** The caller's principal, or a 401: for account routes, and for every route while open access is off. */
export async function requirePrincipal(request: FastifyRequest, tokens: AccessTokens): Promise<Principal> {
  const token = bearerToken(request);
  if (token === undefined) throw new AppError('MISSING_AUTHORIZATION');
  return tokens.verify(token);
}

/**
 * The caller's principal, or null when no token came with the request. A token that is present
 * but bad or expired is a 401 even here (RFC 6750): silently serving it as anonymous would hide
 * from the client that it must re-authenticate.
 */
export async function optionalPrincipal(request: FastifyRequest, tokens: AccessTokens): Promise<Principal | null> {
  const token = bearerToken(request);
  return token === undefined ? null : tokens.verify(token);
}

/** Resolves who calls a public route: optional while open access is live, required otherwise. */
export type PublicCaller = (request: FastifyRequest) => Promise<Principal | null>;

export function publicCaller(openMarketData: boolean, tokens: AccessTokens): PublicCaller {
  return openMarketData ? (request) => optionalPrincipal(request, tokens) : (request) => requirePrincipal(request, tokens);
}
