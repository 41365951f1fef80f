/** Wall-clock time in unix milliseconds; injected so tests can move time. */
export interface Clock {
  now(): number;
}
