import type { FastifyRequest } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { LogLevel } from './config.js';

/** Query parameters that carry credentials (WebSocket URLs put the JWT in `token`). */
const SECRET_QUERY = /([?&](?:token|access_token|api_key|apiKey)=)[^&#]*/gi;

/** A URL with every credential-bearing query value replaced, safe to log. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * Structured JSON logs. Requests are logged by method, redacted URL, request id and client
 * address only; headers never reach a log line, so neither do Authorization or x-api-key.
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
          '*.token',
          '*.jwt',
        ],
        censor: '[redacted]',
      },
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
