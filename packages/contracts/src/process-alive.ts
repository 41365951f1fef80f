import { readFileSync } from 'node:fs';

/**
 * Whether process `pid` runs, by signal 0. A process of another user answers EPERM: it runs, but
 * counts only with `othersToo` (this process could not signal it).
 */
export function processLives(pid: number, { othersToo = true } = {}): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as somebody else.
    return othersToo && (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When process `pid` started (clock ticks after boot, from /proc), which tells it from a later
 * process given the same id; null where that cannot be read (no such process, no /proc) and for a
 * zombie (dead, not yet reaped by its parent).
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (in parentheses, which may hold spaces): state is field 3, starttime 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? null : (fields[19] ?? null);
  } catch {
    return null;
  }
}
