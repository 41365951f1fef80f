import { readdirSync, readFileSync } from 'node:fs';

/** The state letter of each thread of `pid` (`T`: stopped), from /proc; none where it cannot be read. */
function threadStates(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map((task) => {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      // The command name, in parentheses, may hold spaces: the state follows its closing one.
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    });
  } catch {
    return [];
  }
}

/**
 * Stops a process as an unreachable server stops answering (SIGSTOP: it keeps its state and its
 * sockets) and waits, at most 2 s, until every one of its threads has stopped: `kill` returns
 * before a thread busy on another core has, and it could still answer a request sent at once.
 */
export async function freezeProcess(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP');
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    const states = threadStates(pid);
    if (states.length === 0 || states.every((state) => state === 'T' || state === 't')) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`process ${pid} did not stop within 2 s`);
}

/** Lets a frozen process run again. */
export function thawProcess(pid: number): void {
  process.kill(pid, 'SIGCONT');
}
