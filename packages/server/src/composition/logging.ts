import type { FastifyRequest } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';
import { redactJwts, redactUrl } from '../edges/redact-url.js';
import type { LogLevel } from './config.js';

/**
 * Structured JSON logs. Requests are logged by method, redacted URL, request id and client
 * address only; headers never reach a log line, so neither do Authorization or x-api-key, and any
 * JWT in any line is replaced as the line is written.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'dex-exchange' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'headers.authorization',
          'headers["x-api-key"]',
          'token',
          'jwt',
          'apiKey',
          '*.token',
          '*.jwt',
          '*.apiKey',
        ],
        censor: '[redacted]',
      },
      // Whatever a line holds (an error message that echoes a path, a client's request id), no JWT
      // leaves the process in it.
      hooks: { streamWrite: redactJwts },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        }),
      },
    },
    destination,
  );
}
