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
  /** What the page is told at load (the data API's path and key), as a meta tag; null: nothing. */
  readonly settings: Readonly<Record<string, unknown>> | null;
}

const escapeAttribute = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The page's HTML with its settings in `<meta name="dex-page-settings">`, read by the page's script. */
function withSettings(index: WebAsset, settings: Readonly<Record<string, unknown>> | null): WebAsset {
  if (settings === null) return index;
  const html = index.body.toString('utf8');
  const meta = `<meta name="dex-page-settings" content="${escapeAttribute(JSON.stringify(settings))}" />`;
  if (!html.includes('</head>')) throw new Error('the web page has no </head> to put its settings in');
  return { ...index, body: Buffer.from(html.replace('</head>', `${meta}</head>`)) };
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
  const built = options.assets.get('/index.html');
  if (built === undefined) throw new Error('the web page has no index.html');
  const index = withSettings(built, options.settings);
  app.get('/', { schema: { hide: true } }, (_request, reply) => send(reply, index));
  app.get('/assets/*', { schema: { hide: true } }, (request, reply) => {
    const asset = options.assets.get(request.url.split('?')[0] ?? '');
    if (asset === undefined) throw new AppError('NOT_FOUND');
    return send(reply, asset);
  });
}
