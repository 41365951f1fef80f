/** CPU time from Linux /proc: undefined elsewhere, so a benchmark prints "n/a" rather than failing. */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc times: USER_HZ, 100 on every Linux architecture Node.js supports. */
const USER_HZ = 100;

/** CPU seconds a process (all its threads) or, with `thread`, one of its threads has used so far. */
export function processCpu(pid: number | undefined, thread?: number): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    // Fields after "pid (comm) ": state is field 3, utime field 14, stime field 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  } catch {
    return undefined;
  }
}

/** CPU seconds the whole machine has spent busy (not idle, not waiting for I/O), over all cores. */
export function machineBusy(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return (ticks.reduce((sum, value) => sum + value, 0) - idle) / USER_HZ;
  } catch {
    return undefined;
  }
}
