import { ApiError, SdkError } from '@dex/sdk';

/** Where the bot reports what it does: pino's and Fastify's loggers fit, as does `console`-like glue. */
export interface BotLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export const silentLogger: BotLogger = { debug() {}, info() {}, warn() {} };

/**
 * What is worth logging of a failure: status, code and message of an API error, the message of
 * anything else. Never the error itself: its cause chain or headers are no business of a log.
 */
export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof ApiError) {
    return { status: error.status, code: error.code, error: error.shortMessage, requestId: error.requestId };
  }
  if (error instanceof SdkError) return { error: error.message, kind: error.name };
  return { error: error instanceof Error ? error.message : String(error) };
}
