import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** What the error handler answered a request with, for its log line. */
interface Answered {
  readonly code: string;
  readonly message: string;
  /** The thrown value behind a 5xx, whose stack the log line carries. */
  readonly err?: unknown;
}

const answered = new WeakMap<FastifyRequest, Answered>();

/** Records the catalogue error a request is answered with; its one log line names it. */
export function noteAnsweredError(request: FastifyRequest, error: Answered): void {
  answered.set(request, error);
}

/**
 * One log line per answered request, instead of Fastify's two and the error handler's own: at
 * `error` for a 5xx (with the cause's stack), at `info` for other failures (status 400 and up, or
 * the response stream broke; with the error code) and for requests that took at least `slowMs`,
 * else at `debug`, so a busy but healthy service stays quiet at the default level. The request
 * serializer keeps headers, and with them credentials, out of the line.
 */
export class RequestLog extends LogController {
  constructor(private readonly slowMs: number) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTimeMs = Math.round(reply.elapsedTime * 10) / 10;
    const answer = answered.get(request);
    const line = {
      req: request,
      statusCode: reply.statusCode,
      responseTimeMs,
      ...(answer === undefined ? {} : { code: answer.code, error: answer.message }),
      ...(error ? { err: error } : answer?.err === undefined ? {} : { err: answer.err }),
    };
    if (reply.statusCode >= 500) request.log.error(line, 'request answered');
    else if (error || reply.statusCode >= 400 || responseTimeMs >= this.slowMs) request.log.info(line, 'request answered');
    else request.log.debug(line, 'request answered');
  }
}
