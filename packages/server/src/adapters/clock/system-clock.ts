import type { Clock } from '../../ports/clock.js';

/** The machine's wall clock: what the service runs on outside tests. */
export const systemClock: Clock = { now: () => Date.now() };
