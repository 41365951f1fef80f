/**
 * Devnet state benchmark: does a long-running `npm start` stay small? Two live devnets (the service
 * with its bot, as `npm start` runs them) side by side in temp folders, for the same minutes on the
 * same machine: one with the defaults (a bounded history: DEVNET_CHAIN_HISTORY_BLOCKS,
 * DEVNET_CHAIN_COMPACT_BLOCKS, DEVNET_CHAIN_PAST_STATES, and the reactor's record of expired orders
 * freed) and, as the baseline, one keeping the whole chain history and every block's state, as
 * anvil does by default, and every order's record (SETTLEMENT_FORGET_EXPIRED=false).
 *
 *   npm run bench:devnet-state -- [--minutes 60] [--sample-seconds 60] [--compact-blocks N]
 *
 * Ctrl-C ends the run early with the report of what was sampled.
 *
 * Every sample reads each chain's state file size, head block (one transaction per block: the
 * node mines on arrival) and anvil's CPU seconds from /proc (a node restarted to compact its file
 * starts a new count, which is carried over, and is counted as a compaction). `--compact-blocks`
 * sets the bounded devnet's DEVNET_CHAIN_COMPACT_BLOCKS, to see compactions within a short run.
 * Printed per sample and, at the end: anvil's CPU per transaction in the second and the last
 * quarter of the run (the first is the bot's warm-up), and the state file's largest size in the
 * first and the second half. Targets for the bounded devnet, both "flat": the last quarter's CPU
 * per transaction at most 1.5 x the second quarter's, the second half's largest file at most 1.5 x
 * the first half's. The baseline shows what they would be without the bound.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { processCpu } from './support/cpu.js';
import { readCount } from './support/options.js';
import { printTable, tenths, verdict, whole } from './support/report.js';

const MAIN = new URL('../packages/devnet/dist/main.js', import.meta.url).pathname;
/** Flat: the last quarter's figure at most this many times the second quarter's. */
const FLAT = 1.5;

interface Sample {
  readonly at: number;
  readonly bytes: number;
  readonly blocks: number;
  readonly cpu: number;
}

/** One live devnet and what has been read of it. */
class LiveDevnet {
  readonly samples: Sample[] = [];
  private carried = 0;
  /** Node restarts seen (a new pid): compactions, or a node found gone. */
  restarts = 0;
  private lastPid = 0;
  private lastCpu = 0;

  private constructor(
    readonly name: string,
    readonly dataDir: string,
    readonly child: ChildProcess,
  ) {}

  static start(name: string, env: Record<string, string>): LiveDevnet {
    const dataDir = mkdtempSync(join(tmpdir(), `bench-devnet-state-${name}-`));
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return new LiveDevnet(name, dataDir, child);
  }

  /** Reads the chain's figures now; undefined until the node and its record exist. */
  async sample(): Promise<Sample | undefined> {
    const stateFile = join(this.dataDir, 'devnet-chain-state.json');
    const pidFile = join(this.dataDir, 'devnet-chain.pid');
    const recordFile = join(this.dataDir, 'devnet-chain.json');
    if (!existsSync(stateFile) || !existsSync(pidFile) || !existsSync(recordFile)) return undefined;
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const cpu = processCpu(pid);
    const { rpcUrl } = JSON.parse(readFileSync(recordFile, 'utf8')) as { rpcUrl: string };
    const blocks = await headOf(rpcUrl);
    if (cpu === undefined || blocks === undefined) return undefined;
    if (pid !== this.lastPid) {
      if (this.lastPid !== 0) this.restarts += 1;
      this.carried += this.lastCpu;
      this.lastPid = pid;
    }
    this.lastCpu = cpu;
    const sample = { at: Date.now(), bytes: statSync(stateFile).size, blocks, cpu: this.carried + cpu };
    this.samples.push(sample);
    return sample;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGINT');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

async function headOf(rpcUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      signal: AbortSignal.timeout(5_000),
    });
    return Number(((await response.json()) as { result: string }).result);
  } catch {
    return undefined;
  }
}

/** Anvil's CPU milliseconds per transaction between two samples. */
function cpuPerTransaction(from: Sample, to: Sample): number {
  const transactions = to.blocks - from.blocks;
  return transactions > 0 ? ((to.cpu - from.cpu) * 1000) / transactions : Number.NaN;
}

/**
 * The figures of the second and the last quarter of a run: the first is the bot's warm-up (its
 * books fill and its batches grow), which would make any later figure look like growth.
 */
function quarters(samples: readonly Sample[]): { early: { cpu: number; bytes: number }; late: { cpu: number; bytes: number } } {
  const quarter = Math.max(1, Math.floor((samples.length - 1) / 4));
  const at = (index: number): Sample => samples[Math.max(0, Math.min(samples.length - 1, index))] as Sample;
  const last = samples.length - 1;
  return {
    early: { cpu: cpuPerTransaction(at(quarter), at(2 * quarter)), bytes: at(2 * quarter).bytes },
    late: { cpu: cpuPerTransaction(at(last - quarter), at(last)), bytes: at(last).bytes },
  };
}

const megabytes = (bytes: number): string => tenths.format(bytes / 1e6);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { minutes: { type: 'string' }, 'sample-seconds': { type: 'string' }, 'compact-blocks': { type: 'string' } },
  });
  const minutes = readCount('--minutes', values.minutes, 60, 1, 24 * 60);
  const every = readCount('--sample-seconds', values['sample-seconds'], 60, 5, 3_600);
  const compactBlocks = values['compact-blocks'];
  if (compactBlocks !== undefined) readCount('--compact-blocks', compactBlocks, 0, 64, 1_000_000_000);
  const devnets = [
    LiveDevnet.start('bounded', compactBlocks === undefined ? {} : { DEVNET_CHAIN_COMPACT_BLOCKS: compactBlocks }),
    LiveDevnet.start('baseline', {
      DEVNET_CHAIN_HISTORY_BLOCKS: '100000000',
      DEVNET_CHAIN_COMPACT_BLOCKS: '1000000000',
      DEVNET_CHAIN_PAST_STATES: '0',
      SETTLEMENT_FORGET_EXPIRED: 'false',
    }),
  ];
  try {
    console.log(`bench:devnet-state: ${minutes} min of the live devnet (service and bot), sampled every ${every} s`);
    const started = Date.now();
    const rows: string[][] = [];
    // Ctrl-C ends the run early: what was sampled is reported and the devnets are stopped.
    let interrupted = false;
    process.once('SIGINT', () => {
      interrupted = true;
    });
    const ends = started + minutes * 60_000;
    while (!interrupted && Date.now() < ends) {
      const next = Math.min(ends, Date.now() + every * 1000);
      while (!interrupted && Date.now() < next) await new Promise((resolve) => setTimeout(resolve, 250));
      for (const devnet of devnets) {
        const sample = await devnet.sample();
        const previous = devnet.samples.at(-2);
        if (sample === undefined) continue;
        const perTx = previous === undefined ? Number.NaN : cpuPerTransaction(previous, sample);
        const row = [
          devnet.name,
          tenths.format((sample.at - started) / 60_000),
          whole.format(sample.blocks),
          megabytes(sample.bytes),
        ];
        rows.push([...row, Number.isNaN(perTx) ? '-' : tenths.format(perTx)]);
        console.log(rows.at(-1)?.join('  '));
      }
    }
    console.log();
    printTable(['devnet', 'minute', 'blocks', 'state MB', 'anvil CPU ms/tx'], rows);
    console.log();
    const largest = (samples: readonly Sample[]): number => Math.max(...samples.map((sample) => sample.bytes));
    const summary = devnets.map((devnet) => {
      const half = Math.ceil(devnet.samples.length / 2);
      return {
        name: devnet.name,
        restarts: devnet.restarts,
        firstHalf: largest(devnet.samples.slice(0, half)),
        secondHalf: largest(devnet.samples.slice(half)),
        ...quarters(devnet.samples),
      };
    });
    printTable(
      ['devnet', 'CPU ms/tx 2nd quarter', 'last quarter', 'ratio', 'largest MB 1st half', '2nd half', 'ratio', 'node restarts'],
      summary.map(({ name, early, late, firstHalf, secondHalf, restarts }) => [
        name,
        tenths.format(early.cpu),
        tenths.format(late.cpu),
        tenths.format(late.cpu / early.cpu),
        megabytes(firstHalf),
        megabytes(secondHalf),
        tenths.format(secondHalf / firstHalf),
        whole.format(restarts),
      ]),
    );
    const [bounded, baseline] = summary;
    if (bounded === undefined || baseline === undefined) return 1;
    const cpuFlat = bounded.late.cpu / bounded.early.cpu <= FLAT;
    const sizeFlat = bounded.secondHalf / bounded.firstHalf <= FLAT;
    console.log();
    console.log(
      `bounded devnet: anvil CPU per transaction flat (<= ${FLAT}x): ${verdict(cpuFlat)}; state file flat: ${verdict(sizeFlat)}`,
    );
    console.log(
      `against the whole-history baseline: largest state file in the 2nd half ${tenths.format(bounded.secondHalf / baseline.secondHalf)}x, ` +
        `anvil CPU per transaction in the last quarter ${tenths.format(bounded.late.cpu / baseline.late.cpu)}x`,
    );
    return cpuFlat && sizeFlat ? 0 : 1;
  } finally {
    await Promise.all(devnets.map((devnet) => devnet.stop()));
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
