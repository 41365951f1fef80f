/**
 * Load as autocannon drives it: `connections` keep-alive connections, each sending the next GET as
 * soon as the answer before it is read, for a fixed time, from this process (one thread), by
 * autocannon itself or by the leaner generator of lean-load.ts. Every answer's latency is kept to
 * the microsecond (autocannon's own histogram keeps whole milliseconds), and the CPU the server,
 * this process (the load generator) and everything else on the machine used meanwhile.
 */
import autocannon from 'autocannon';
import { type CpuUse, cpuMark, cpuUse } from './cpu.js';
import { leanLoad } from './lean-load.js';

export type Generator = 'lean' | 'autocannon';

/** autocannon's own cut-off for one answer; a run that hits it is reported as failed. */
const ANSWER_TIMEOUT_S = 10;
/** Past its duration a run is stopped by force after this much more. */
const OVERRUN_MS = 5_000;

export interface LoadRun {
  readonly url: URL;
  readonly path: string;
  readonly connections: number;
  readonly seconds: number;
  /** The server under load, for its CPU. */
  readonly serverPid: number | undefined;
  readonly generator: Generator;
}

export interface LoadFigures {
  /** Answers with status 2xx. */
  readonly answers: number;
  readonly seconds: number;
  /** Latency of each 2xx answer, ms, ascending. */
  readonly latencies: Float64Array;
  /** Byte counts of whole answers (headers and body) seen: one for a server that answers the same each time. */
  readonly answerBytes: ReadonlySet<number>;
  /** Connection errors, timeouts and answers that were not 2xx. */
  readonly failures: number;
  readonly cpu: CpuUse<'server'>;
}

/** A growable list of latencies, so a long run does not allocate per answer. */
class Samples {
  private values = new Float64Array(1 << 16);
  private count = 0;

  add(value: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = value;
  }

  sorted(): Float64Array {
    return this.values.slice(0, this.count).sort();
  }
}

type OnAnswer = (status: number, bytes: number, ms: number) => void;

/** autocannon's run; its connection errors, timeouts and non-2xx answers. */
function autocannonLoad(run: LoadRun, onAnswer: OnAnswer): Promise<number> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: new URL(run.path, run.url).toString(),
        connections: run.connections,
        pipelining: 1,
        duration: run.seconds,
        timeout: ANSWER_TIMEOUT_S,
      },
      (error: unknown, done: autocannon.Result) => {
        clearTimeout(guard);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(done.errors + done.timeouts + done.non2xx);
      },
    );
    const guard = setTimeout(() => instance.stop(), run.seconds * 1000 + OVERRUN_MS);
    instance.on('response', (_client, status, bytes, ms) => onAnswer(status, bytes, ms));
  });
}

/** One run of load on one path; resolves when it is over (bounded by its duration). */
export async function driveLoad(run: LoadRun): Promise<LoadFigures> {
  const samples = new Samples();
  const answerBytes = new Set<number>();
  let answers = 0;
  let refused = 0;
  const onAnswer: OnAnswer = (status, bytes, ms) => {
    if (status < 200 || status >= 300) {
      refused++;
      return;
    }
    answers++;
    samples.add(ms);
    answerBytes.add(bytes);
  };
  const before = cpuMark({ server: run.serverPid });
  const failures =
    run.generator === 'autocannon'
      ? await autocannonLoad(run, onAnswer)
      : (await leanLoad({ ...run, onAnswer })).errors + refused;
  const cpu = cpuUse(before, cpuMark({ server: run.serverPid }));
  return { answers, seconds: cpu.wall, latencies: samples.sorted(), answerBytes, failures, cpu };
}
