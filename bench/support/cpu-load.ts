import { type ChildProcess, spawn } from 'node:child_process';

/** Period of the load's duty cycle: short against a settlement batch, so the load is even over one. */
const PERIOD_MS = 20;

/**
 * Other work on the machine, for a benchmark's "under load" figures: a process that keeps `share`
 * of one core busy (busy for that share of every 20 ms). Null when `share` is 0. Kill it to stop.
 */
export function startCpuLoad(share: number): ChildProcess | null {
  if (share === 0) return null;
  const busyMs = share * PERIOD_MS;
  const spin = `setInterval(() => { const end = performance.now() + ${busyMs}; while (performance.now() < end); }, ${PERIOD_MS});`;
  return spawn(process.execPath, ['-e', spin], { stdio: 'ignore' });
}
