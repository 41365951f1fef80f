import { randomUUID } from 'node:crypto';
import { FORM } from '@dex/protocol';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors.js';
import { answerClientError, answerFrameworkError } from './client-errors.js';
import { installErrorHandling } from './error-handler.js';
import { lazyRequestLogger, RequestLog } from './request-log.js';
import { SHARED_SCHEMA_COMPILERS } from './schema-compilers.js';
import { describeSchemaErrors } from './schema-errors.js';
import { setSecurityHeaders } from './security-headers.js';

/** Incoming request ids are kept when they are short and plain; anything else gets a fresh UUID. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

const ERROR_NOTE = 'Errors always answer `{ "error": message, "code": CODE }`.';

export interface BaseAppOptions {
  /** Title and description of the OpenAPI document served at /docs. */
  readonly title: string;
  readonly description: string;
  /** false: unknown paths are left to a handler a plugin sets. */
  readonly notFound: boolean;
}

/**
 * A Fastify app with what every listener of the service shares: request ids, the error catalogue's
 * bodies, the 503 while draining, JSON-only bodies and the OpenAPI document at /docs. It never
 * listens by itself.
 */
export async function createBaseApp(
  config: { readonly bodyLimitBytes: number; readonly trustProxy: boolean; readonly slowRequestMs: number },
  logger: FastifyBaseLogger,
  options: BaseAppOptions,
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // verbose: each complaint carries its schema and value, from which schema-errors.ts writes its words; FORM is those words.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false, verbose: true, keywords: [FORM] } },
    schemaController: { compilersFactory: SHARED_SCHEMA_COMPILERS },
    // A field and its form in words, never a regular expression or a union's summary.
    schemaErrorFormatter: (errors, dataVar) => new Error(describeSchemaErrors(errors, dataVar)),
    // The data API docs' own samples call `/pools/` and `/farms/`: a trailing slash names the same route.
    routerOptions: { maxParamLength: 128, ignoreTrailingSlash: true },
    // Our own hook answers 503 in the catalogue's shape while the server drains.
    return503OnClosing: false,
    logController: new RequestLog(config.slowRequestMs),
    childLoggerFactory: lazyRequestLogger,
    // Requests the parser or the router refuse get the catalogue's bodies too.
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  });

  // Hooks every request passes are synchronous: an async hook costs a promise per request.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? new AppError('SHUTTING_DOWN') : undefined);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    setSecurityHeaders(request, reply, config.trustProxy);
    done(null, payload);
  });
  installErrorHandling(app, options.notFound);
  // JSON is the only body this API reads; anything else is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');

  await app.register(swagger, {
    openapi: {
      info: { title: options.title, version: '1', description: `${options.description} ${ERROR_NOTE}` },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        },
      },
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The UI's own scripts and styles and nothing else: never framed, nothing fetched from elsewhere.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(' validator.swagger.io', '')
        .replaceAll(' https:', '')
        .replace(' upgrade-insecure-requests;', ''),
  });
  return app;
}
