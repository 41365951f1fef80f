import type { DoneFuncWithErrOrRes, FastifyReply, FastifyRequest } from 'fastify';

/** A JSON API answer loads nothing and may be framed by nothing. */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";
/** A year, the span browsers' preload lists ask for. */
const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers every answer carries whatever it is, set in one go. */
const FIXED_HEADERS = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' };

/**
 * Sets the headers every answer carries: no sniffing, no framing, no referrer, a CSP for what has
 * none of its own (the page and `/docs` set theirs), and HSTS when the client reached a TLS proxy
 * in front (`trustProxy`: the forwarded protocol is believed). Called from the app's one `onSend`
 * hook, which is synchronous: a hook per header group, each a promise, cost every answer more than
 * the headers.
 */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply, trustProxy: boolean): void {
  reply.headers(FIXED_HEADERS);
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', API_CONTENT_SECURITY_POLICY);
  if (trustProxy && request.protocol === 'https') reply.header('strict-transport-security', HSTS);
}

/** For routes whose answers carry an account's data or a login secret: no cache, shared or private, keeps them. */
export function noStore(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: DoneFuncWithErrOrRes): void {
  reply.header('cache-control', 'no-store');
  done(null, payload);
}
