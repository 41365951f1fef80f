import type { Logger } from '../../../ports/logger.js';

/** Wait between checks while nothing wakes the loop. */
const IDLE_MS = 250;
const MAX_BACKOFF_MS = 5_000;

/**
 * Runs `step` over and over in the background: again at once while it finds work, after a short
 * idle wait (or a wake-up) when it finds none, and after a growing back-off when it fails.
 */
export class WorkLoop {
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly step: () => Promise<boolean>,
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Tells the loop there is work now. */
  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    let backoff = 0;
    while (this.running) {
      try {
        const worked = await this.step();
        backoff = 0;
        if (!worked) await this.sleep(IDLE_MS);
      } catch (error) {
        backoff = Math.min(MAX_BACKOFF_MS, backoff === 0 ? 100 : backoff * 2);
        this.logger.warn({ err: error, retryInMs: backoff }, `${this.what} failed; retrying`);
        await this.sleep(backoff);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }
}
