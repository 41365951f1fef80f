/**
 * Readings of a devnet chain over time, from the data folder the embedded devnet writes: the state
 * file's size, the head block (one transaction per block: the node mines on arrival) and anvil's
 * CPU seconds from /proc (a node restarted to compact its file starts a new count, which is carried
 * over, and is counted as a restart). And how "flat" they stayed: anvil's CPU per transaction in
 * the last quarter of a run against the second (the first is a warm-up), the largest state file of
 * the second half against the first's.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { processCpu } from './cpu.js';
import { printTable, tenths, verdict, whole } from './report.js';

/** Flat: the later figure at most this many times the earlier one. */
export const FLAT = 1.5;

export interface ChainSample {
  readonly at: number;
  readonly bytes: number;
  readonly blocks: number;
  readonly cpu: number;
}

/** Samples one devnet chain by its data folder. */
export class ChainSampler {
  readonly samples: ChainSample[] = [];
  /** Node restarts seen (a new pid): compactions, or a node found gone. */
  restarts = 0;
  private carried = 0;
  private lastPid = 0;
  private lastCpu = 0;

  constructor(
    readonly name: string,
    private readonly dataDir: string,
  ) {}

  /** Reads the chain's figures now; undefined until the node and its record exist. */
  async sample(): Promise<ChainSample | undefined> {
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
function cpuPerTransaction(from: ChainSample, to: ChainSample): number {
  const transactions = to.blocks - from.blocks;
  return transactions > 0 ? ((to.cpu - from.cpu) * 1000) / transactions : Number.NaN;
}

const megabytes = (bytes: number): string => tenths.format(bytes / 1e6);

/**
 * Samples every chain each `everySeconds` for `minutes`, printing a line per sample as it comes;
 * Ctrl-C ends it early. Returns the rows of the samples table.
 */
export async function sampleFor(samplers: readonly ChainSampler[], minutes: number, everySeconds: number): Promise<string[][]> {
  const started = Date.now();
  const rows: string[][] = [];
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
  };
  process.once('SIGINT', interrupt);
  try {
    const ends = started + minutes * 60_000;
    while (!interrupted && Date.now() < ends) {
      const next = Math.min(ends, Date.now() + everySeconds * 1000);
      while (!interrupted && Date.now() < next) await new Promise((resolve) => setTimeout(resolve, 250));
      for (const sampler of samplers) {
        const sample = await sampler.sample();
        const previous = sampler.samples.at(-2);
        if (sample === undefined) continue;
        const perTx = previous === undefined ? Number.NaN : cpuPerTransaction(previous, sample);
        rows.push([
          sampler.name,
          tenths.format((sample.at - started) / 60_000),
          whole.format(sample.blocks),
          megabytes(sample.bytes),
          Number.isNaN(perTx) ? '-' : tenths.format(perTx),
        ]);
        console.log(rows.at(-1)?.join('  '));
      }
    }
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
  return rows;
}

/** How flat one chain stayed over its samples. */
export interface Flatness {
  readonly name: string;
  readonly restarts: number;
  /** Anvil's CPU ms per transaction in the second and the last quarter. */
  readonly cpu: { readonly early: number; readonly late: number };
  /** The largest state file in the first and the second half. */
  readonly bytes: { readonly early: number; readonly late: number };
  readonly cpuFlat: boolean;
  readonly sizeFlat: boolean;
}

export function flatness(sampler: ChainSampler): Flatness {
  const { samples } = sampler;
  const quarter = Math.max(1, Math.floor((samples.length - 1) / 4));
  const at = (index: number): ChainSample => samples[Math.max(0, Math.min(samples.length - 1, index))] as ChainSample;
  const last = samples.length - 1;
  const half = Math.ceil(samples.length / 2);
  const largest = (part: readonly ChainSample[]): number => Math.max(...part.map((sample) => sample.bytes));
  const cpu = { early: cpuPerTransaction(at(quarter), at(2 * quarter)), late: cpuPerTransaction(at(last - quarter), at(last)) };
  const bytes = { early: largest(samples.slice(0, half)), late: largest(samples.slice(half)) };
  return {
    name: sampler.name,
    restarts: sampler.restarts,
    cpu,
    bytes,
    cpuFlat: cpu.late / cpu.early <= FLAT,
    sizeFlat: bytes.late / bytes.early <= FLAT,
  };
}

/** The samples table, then each chain's quarters and halves with their ratios. */
export function printSamples(rows: readonly string[][], flat: readonly Flatness[]): void {
  console.log();
  printTable(['devnet', 'minute', 'blocks', 'state MB', 'anvil CPU ms/tx'], rows);
  console.log();
  printTable(
    ['devnet', 'CPU ms/tx 2nd quarter', 'last quarter', 'ratio', 'largest MB 1st half', '2nd half', 'ratio', 'node restarts'],
    flat.map(({ name, cpu, bytes, restarts }) => [
      name,
      tenths.format(cpu.early),
      tenths.format(cpu.late),
      tenths.format(cpu.late / cpu.early),
      megabytes(bytes.early),
      megabytes(bytes.late),
      tenths.format(bytes.late / bytes.early),
      whole.format(restarts),
    ]),
  );
}

/** The verdict line of one chain that should stay flat. */
export function flatVerdict(flat: Flatness): string {
  return `${flat.name}: anvil CPU per transaction flat (<= ${FLAT}x): ${verdict(flat.cpuFlat)}; state file flat: ${verdict(flat.sizeFlat)}`;
}
