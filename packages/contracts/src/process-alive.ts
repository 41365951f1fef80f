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
