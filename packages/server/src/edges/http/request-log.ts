import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

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

/** pino's levels by name; a level it does not know counts as enabled. */
const LEVEL_VALUES: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

type LineLevel = 'error' | 'info' | 'debug';

/** Whether a logger at `loggerLevel` writes lines of `level`. */
function writes(loggerLevel: string, level: string): boolean {
  return (LEVEL_VALUES[loggerLevel] ?? 0) <= (LEVEL_VALUES[level] ?? 0);
}

/**
 * A request's logger, made only when it writes: Fastify asks for a child logger on every request,
 * and pino's child serialises (and redacts) its bindings as it is made, though a healthy request
 * at the default level writes no line. The first line written makes the child, with the same
 * bindings and options, and everything later goes to it.
 */
class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  private write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    if (writes(this.level, level)) Reflect.apply(this.logger[level], this.logger, args);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** The app's `childLoggerFactory`: request loggers made when first written to. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}

/**
 * One log line per answered request, instead of Fastify's two and the error handler's own: at
 * `error` for a 5xx (with the cause's stack), at `info` for other failures (status 400 and up, or
 * the response stream broke; with the error code) and for requests that took at least `slowMs`,
 * else at `debug`, so a busy but healthy service stays quiet at the default level. The line is
 * built only when its level is logged: a quiet request costs a comparison. The request serializer
 * keeps headers, and with them credentials, out of the line.
 */
export class RequestLog extends LogController {
  constructor(private readonly slowMs: number) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTimeMs = Math.round(reply.elapsedTime * 10) / 10;
    const level: LineLevel =
      reply.statusCode >= 500 ? 'error' : error || reply.statusCode >= 400 || responseTimeMs >= this.slowMs ? 'info' : 'debug';
    const { log } = request;
    if (!writes(log.level, level)) return;
    const answer = answered.get(request);
    const line = {
      req: request,
      statusCode: reply.statusCode,
      responseTimeMs,
      ...(answer === undefined ? {} : { code: answer.code, error: answer.message }),
      ...(error ? { err: error } : answer?.err === undefined ? {} : { err: answer.err }),
    };
    log[level](line, 'request answered');
  }
}
