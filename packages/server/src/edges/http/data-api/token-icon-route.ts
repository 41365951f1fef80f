import type { FastifyInstance } from 'fastify';
import { DEFAULT_TOKEN_ICON } from '../../../domain/data-api/token-icon.js';

/** A plain grey coin, 64 by 64. */
const DEFAULT_ICON_SVG = Buffer.from(
  [
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">',
    '<circle cx="32" cy="32" r="31" fill="#7b8494"/>',
    '<circle cx="32" cy="32" r="22" fill="none" stroke="#e6e9ee" stroke-width="4"/>',
    '<path d="M32 19 L43 32 L32 45 L21 32 Z" fill="#e6e9ee"/>',
    '</svg>',
  ].join(''),
);

/** Serves the default token icon, without a key: `base + icon` must load in a plain <img>. */
export async function tokenIconRoutes(app: FastifyInstance): Promise<void> {
  app.get(DEFAULT_TOKEN_ICON, { schema: { hide: true } }, (_request, reply) =>
    reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=86400').send(DEFAULT_ICON_SVG),
  );
}
