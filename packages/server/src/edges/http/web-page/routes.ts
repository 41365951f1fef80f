import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../../domain/errors.js';
import type { WebAsset, WebAssets } from '../../../ports/web-assets.js';

/**
 * The page talks only to this origin (REST and its WebSocket streams); styles may be set inline by
 * the page's own script (bar widths of the ladder); nothing may frame it.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export interface WebPageRoutesOptions {
  readonly assets: WebAssets;
}

function send(reply: FastifyReply, asset: WebAsset): FastifyReply {
  return reply
    .header('content-type', asset.contentType)
    .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('referrer-policy', 'no-referrer')
    .send(asset.body);
}

/**
 * The market web page: `/` is its HTML, `/assets/*` its hashed scripts and styles, and a few
 * files beside them (an icon). Served from memory; a path the build did not make is the
 * catalogue's 404. The API's own routes keep their paths: none of them is `/` or under `/assets/`.
 */
export async function webPageRoutes(app: FastifyInstance, options: WebPageRoutesOptions): Promise<void> {
  const index = options.assets.get('/index.html');
  if (index === undefined) throw new Error('the web page has no index.html');
  app.get('/', { schema: { hide: true } }, (_request, reply) => send(reply, index));
  app.get('/assets/*', { schema: { hide: true } }, (request, reply) => {
    const asset = options.assets.get(request.url.split('?')[0] ?? '');
    if (asset === undefined) throw new AppError('NOT_FOUND');
    return send(reply, asset);
  });
}
