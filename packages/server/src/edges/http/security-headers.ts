import type { FastifyReply, FastifyRequest } from 'fastify';

/** A JSON API answer loads nothing and may be framed by nothing. */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";
/** A year, the span browsers' preload lists ask for. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The headers every answer carries: no sniffing, no framing, no referrer, a CSP for what has none
 * of its own (the page and `/docs` set theirs), and HSTS when the client reached a TLS proxy in
 * front (`trustProxy`: the forwarded protocol is believed).
 */
export function securityHeaders(trustProxy: boolean) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', API_CONTENT_SECURITY_POLICY);
    if (trustProxy && request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  };
}

/** For routes whose answers carry an account's data or a login secret: no cache, shared or private, keeps them. */
export async function noStore(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('cache-control', 'no-store');
}
