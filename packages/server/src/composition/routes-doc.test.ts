import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_PATHS } from '../edges/ws/protocol.js';
import { type Harness, startHarness, tempDataDir } from '../test-support/harness.js';
import { codeSpans, readDoc, tableRowsOf } from '../test-support/markdown-doc.js';

/**
 * docs/routes.md against the app: its tables of the order book API and the data API list exactly
 * the operations of the OpenAPI document the app serves, each with its authentication, and its
 * tables of the routes outside that document name routes the app registers, all of them.
 */

interface DocumentedRoute {
  readonly method: string;
  readonly path: string;
  readonly auth: string;
}

const rows = tableRowsOf(readDoc('docs/routes.md'));

function documented(heading: string): DocumentedRoute[] {
  return rows
    .filter((row) => row.heading === heading)
    .map(({ cells: [method = '', path = '', auth = ''] }) => ({ method, path: codeSpans(path)[0] ?? path, auth }));
}

const OPENAPI_SECTIONS = ['The order book API', 'The data API'];
const openApiRows = () => OPENAPI_SECTIONS.flatMap(documented);
const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** How the doc's Auth column names an operation's security scheme. */
const AUTH_OF_SCHEME: Record<string, string> = { bearer: 'JWT', apiKey: 'API key' };

interface OpenApiDocument {
  readonly paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
}

function served(document: OpenApiDocument): DocumentedRoute[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const scheme = Object.keys(operation.security?.[0] ?? {})[0];
      return {
        method: method.toUpperCase(),
        path,
        auth: scheme === undefined ? 'public or none' : (AUTH_OF_SCHEME[scheme] ?? scheme),
      };
    }),
  );
}

/** `/depth/{orderbookId}` as Fastify registers it, `/depth/:orderbookId`. */
const fastifyPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/**
 * Every route the app registers, HEAD left out (Fastify adds one per GET), read from its route
 * tree. The tree loses the static part before a wildcard, so a wildcard route reads as a bare `*`.
 */
function registered(app: FastifyInstance): string[] {
  const paths: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const path = stack.join('').replace(/^\/\//, '/');
    for (const method of (match[3] ?? '').split(', ').filter((name) => name !== '' && name !== 'HEAD')) {
      paths.push(`${method} ${path.includes('*') ? '*' : path}`);
    }
  }
  return paths;
}

let open: Harness;
let closed: Harness;
const webRoot = tempDataDir();

beforeAll(async () => {
  writeFileSync(join(webRoot.dir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  // Every optional route mounted: the web page and its terms step.
  open = await startHarness({ WEB_ROOT: webRoot.dir, WEB_TERMS: 'true' });
  closed = await startHarness({ OPEN_MARKET_DATA: 'false' });
});

afterAll(async () => {
  await open?.close();
  await closed?.close();
  webRoot.remove();
});

describe('docs/routes.md', () => {
  it('lists every operation of the OpenAPI document once, with its authentication', async () => {
    const document = (await open.app.inject({ method: 'GET', url: '/docs/json' })).json() as OpenApiDocument;
    const inDoc = openApiRows().map((route) => ({
      ...route,
      auth: route.auth === 'public' || route.auth === 'none' ? 'public or none' : route.auth,
    }));
    expect(new Set(inDoc.map(key)).size).toBe(inDoc.length);
    expect(inDoc.map((route) => `${key(route)} ${route.auth}`).sort()).toEqual(
      served(document)
        .map((route) => `${key(route)} ${route.auth}`)
        .sort(),
    );
  });

  it('calls public exactly the routes a JWT guards, or that are not mounted, while OPEN_MARKET_DATA is off', async () => {
    const unauthenticated = openApiRows().filter((route) => route.auth === 'public' || route.auth === 'none');
    const answers = await Promise.all(
      unauthenticated.map(async (route) => {
        const url = route.path.replace(/\{[^}]+\}/g, '1');
        const response = await closed.app.inject({ method: route.method as 'GET' | 'POST', url });
        const guarded = response.statusCode === 401 || response.json<{ code?: string }>().code === 'NOT_FOUND';
        return `${key(route)} ${guarded ? 'public' : 'none'}`;
      }),
    );
    expect(answers).toEqual(unauthenticated.map((route) => `${key(route)} ${route.auth}`));
  });

  it('lists the WebSocket streams the gateway upgrades', () => {
    expect(documented('WebSocket streams').map(key).sort()).toEqual([...STREAM_PATHS.keys()].map((path) => `GET ${path}`).sort());
  });

  it('lists routes outside the OpenAPI document that the app registers', () => {
    const missing = documented('Other HTTP routes').filter(
      (route) => !open.app.hasRoute({ method: route.method as HTTPMethods, url: fastifyPath(route.path) }),
    );
    expect(missing).toEqual([]);
  });

  it('leaves no registered route out', () => {
    const inDoc = [...openApiRows(), ...documented('Other HTTP routes')].map((route) =>
      route.path.includes('*') ? `${route.method} *` : `${route.method} ${fastifyPath(route.path)}`,
    );
    expect(registered(open.app).sort()).toEqual(inDoc.sort());
  });
});
