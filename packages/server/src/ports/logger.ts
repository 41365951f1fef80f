/** One level of a structured logger: an object of fields and a message, or a message alone. */
export interface LogFunction {
  (fields: object, message?: string): void;
  (message: string): void;
}

/**
 * The logger the inner layers write to. pino's (which Fastify's request loggers are) fits it, so
 * composition hands in the process's logger and tests a captured one.
 */
export interface Logger {
  readonly fatal: LogFunction;
  readonly error: LogFunction;
  readonly warn: LogFunction;
  readonly info: LogFunction;
  readonly debug: LogFunction;
}
