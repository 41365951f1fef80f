import type { Logger } from '../ports/logger.js';

/** What a role opened, closed in reverse order; a part that fails to close is logged and the rest still close. */
export class Closers {
  private readonly closers: (() => Promise<void>)[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly role: string,
  ) {}

  add(closer: () => Promise<void>): void {
    this.closers.push(closer);
  }

  async closeAll(): Promise<void> {
    for (const closer of this.closers.splice(0).reverse()) {
      await closer().catch((error: unknown) =>
        this.logger.warn({ err: error }, `a part of the ${this.role} did not stop cleanly`),
      );
    }
  }
}
