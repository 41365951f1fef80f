/** Processes and CPU time from Linux /proc: undefined or none elsewhere, so a benchmark prints "n/a" rather than failing. */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc times: USER_HZ, 100 on every Linux architecture Node.js supports. */
const USER_HZ = 100;

/** The fields of a /proc stat file after "pid (comm) ": state first (field 3), ppid, ..., utime (14), stime (15). */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds a process (all its threads) or, with `thread`, one of its threads has used so far. */
export function processCpu(pid: number | undefined, thread?: number): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = statFields(
      readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8'),
    );
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  } catch {
    return undefined;
  }
}

/** The child processes of `parent`, or only those whose command is `name` (e.g. the server's anvil). */
export function childProcesses(parent: number | undefined, name?: string): number[] {
  if (parent === undefined) return [];
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const matches = Number(statFields(stat)[1]) === parent && (name === undefined || stat.includes(`(${name})`));
      return matches ? [Number(entry)] : [];
    } catch {
      return []; // the process ended while we looked
    }
  });
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

/** CPU seconds used so far by some processes (by name), by this process and by the whole machine. */
export interface CpuMark<Name extends string> {
  /** Wall clock, ms since the epoch (a server's store uses the same clock). */
  readonly at: number;
  readonly processes: Record<Name, number | undefined>;
  readonly client: number;
  readonly machine: number | undefined;
}

export function cpuMark<Name extends string>(pids: Record<Name, number | undefined>): CpuMark<Name> {
  const own = process.cpuUsage();
  const processes = Object.fromEntries(
    Object.entries<number | undefined>(pids).map(([name, pid]) => [name, processCpu(pid)]),
  ) as Record<Name, number | undefined>;
  return { at: Date.now(), processes, client: (own.user + own.system) / 1e6, machine: machineBusy() };
}

/** Wall seconds between two marks and the CPU seconds each process used, everything else on the machine as `others`. */
export interface CpuUse<Name extends string> {
  readonly wall: number;
  readonly processes: Record<Name, number | undefined>;
  readonly client: number;
  readonly others: number | undefined;
}

export function cpuUse<Name extends string>(before: CpuMark<Name>, after: CpuMark<Name>): CpuUse<Name> {
  const used = (start: number | undefined, end: number | undefined) =>
    start === undefined || end === undefined ? undefined : end - start;
  const names = Object.keys(after.processes) as Name[];
  const processes = Object.fromEntries(
    names.map((name) => [name, used(before.processes[name], after.processes[name])]),
  ) as Record<Name, number | undefined>;
  const client = after.client - before.client;
  const machine = used(before.machine, after.machine);
  const measured = names.reduce((sum, name) => sum + (processes[name] ?? 0), client);
  return {
    wall: (after.at - before.at) / 1000,
    processes,
    client,
    others: machine === undefined ? undefined : Math.max(0, machine - measured),
  };
}
