import type { SdkError } from '../errors.js';
import type { StreamHandle, StreamOptions } from '../streams/reliable-stream.js';
import type { TraderIo } from './trader-io.js';

/**
 * Runs a stream of the SDK until SIGINT, or until it gives up (an unknown book, a refused login).
 * The stream retries by itself; each reconnect says on stderr why the output stands still
 * meanwhile. Returns 0 after SIGINT (the stream is closed cleanly); throws the error it gave up on.
 */
export async function followUntilInterrupted(
  io: TraderIo,
  what: string,
  start: (options: Pick<StreamOptions, 'onError' | 'onStatus'>) => StreamHandle,
): Promise<number> {
  let lastError: SdkError | undefined;
  const stream = start({
    onError: (error) => {
      lastError = error;
    },
    onStatus: (status) => {
      if (status === 'reconnecting' && io.signal?.aborted !== true)
        io.err(`dex-trade: ${lastError?.message ?? `the ${what} stopped`}; reconnecting`);
    },
  });
  const interrupted = new Promise<undefined>((resolve) => {
    if (io.signal?.aborted === true) resolve(undefined);
    io.signal?.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  const failure = await Promise.race([stream.closed, interrupted]);
  await stream.close();
  if (failure !== undefined) throw failure;
  return 0;
}
