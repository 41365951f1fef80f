import { createClient } from '@dex/sdk';

/**
 * The one SDK client of the page: the service serves this page itself, so its API is this origin.
 * A short timeout, because a poll that hangs would hold back every later one.
 */
export const client = createClient({ baseUrl: location.origin, timeoutMs: 10_000 });
