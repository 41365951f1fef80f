import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/errors.js';

/** Writes a catalogue error as a whole HTTP/1.1 answer on a raw socket, then closes it. */
export function writeRawError(socket: Duplex, error: AppError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(error.toBody());
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** Node's parser errors (before any route sees the request) as catalogue errors. */
function clientErrorOf(code: string | undefined): AppError {
  if (code === 'HPE_HEADER_OVERFLOW') return new AppError('HEADERS_TOO_LARGE');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new AppError('REQUEST_TIMEOUT');
  return new AppError('VALIDATION_FAILED', 'The request is not valid HTTP');
}

/**
 * The HTTP server's `clientError` answer: a request Node could not parse (oversized headers, a
 * malformed request line or framing) gets the catalogue's body, not Fastify's own.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  writeRawError(socket, clientErrorOf(error.code));
}

/** Fastify's router errors (a path it cannot decode, a path parameter past its length limit) in the catalogue's shape. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('VALIDATION_FAILED', 'A path parameter is too long')
      : error.code === 'FST_ERR_BAD_URL'
        ? new AppError('VALIDATION_FAILED', 'The path is not a valid URL')
        : new AppError('VALIDATION_FAILED');
  void reply.status(appError.status).send(appError.toBody());
}
