import { CoreError } from '@dex/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../../domain/errors.js';
import { StoreUnavailableError } from '../../ports/store-errors.js';
import { redactUrl } from '../redact-url.js';
import { noteAnsweredError } from './request-log.js';

/** Longest request path echoed back in a 404 message. */
const MAX_ECHOED_PATH = 128;

/** Fastify's own client errors, mapped onto the catalogue. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
};

/** Any thrown value as the catalogue error the client sees. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof StoreUnavailableError) return new AppError('STORAGE_UNAVAILABLE', undefined, { cause: error });
  if (error instanceof CoreError) {
    return new AppError(error.code === 'INVALID_AMOUNT' ? 'INVALID_AMOUNT' : 'VALIDATION_FAILED', error.shortMessage, {
      cause: error,
    });
  }
  const fastifyError = error as Partial<FastifyError> | undefined;
  if (fastifyError?.validation) {
    return new AppError('VALIDATION_FAILED', fastifyError.message, { cause: error });
  }
  const mapped = fastifyError?.code === undefined ? undefined : FASTIFY_CODES[fastifyError.code];
  if (mapped !== undefined) return new AppError(mapped, undefined, { cause: error });
  // Fastify marks what the client did wrong with a 4xx, e.g. a body the client cut off ("aborted").
  const status = fastifyError?.statusCode;
  if (status !== undefined && status >= 400 && status < 500)
    return new AppError('VALIDATION_FAILED', undefined, { cause: error });
  return new AppError('INTERNAL', undefined, { cause: error });
}

/** 404 for a path no route serves, naming the path (shortened). */
export function answerNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // The path may hold a credential sent in the wrong place: the message is logged.
  const path = redactUrl(request.url.split('?')[0] ?? '');
  const shown = path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
  const notFound = new AppError('NOT_FOUND', `No route ${request.method} ${shown}`);
  noteAnsweredError(request, { code: notFound.code, message: notFound.message });
  return reply.status(404).send(notFound.toBody());
}

/**
 * One error body everywhere: `{ error, code }`; a 5xx says nothing about internals. `notFound`
 * false leaves unknown paths to a handler a plugin sets (the data API on its own port does).
 */
export function installErrorHandling(app: FastifyInstance, notFound = true): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    const answer = { code: appError.code, message: appError.message, ...(appError.status >= 500 ? { err: error } : {}) };
    // A request whose client went away gets no answer, hence no request line: log it here.
    if (reply.raw.destroyed)
      request.log[appError.status >= 500 ? 'error' : 'info']({ req: request, ...answer }, 'request abandoned by the client');
    else noteAnsweredError(request, answer);
    return reply.status(appError.status).send(appError.toBody());
  });
  if (notFound) app.setNotFoundHandler(answerNotFound);
}
