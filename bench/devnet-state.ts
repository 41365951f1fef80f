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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ChainSampler, flatness, flatVerdict, printSamples, sampleFor } from './support/chain-samples.js';
import { readCount } from './support/options.js';
import { tenths } from './support/report.js';

const MAIN = new URL('../packages/devnet/dist/main.js', import.meta.url).pathname;

/** One live devnet: `npm start`'s entry in a temp folder, and its chain's samples. */
class LiveDevnet {
  private constructor(
    readonly sampler: ChainSampler,
    private readonly dataDir: string,
    private readonly child: ChildProcess,
  ) {}

  static start(name: string, env: Record<string, string>): LiveDevnet {
    const dataDir = mkdtempSync(join(tmpdir(), `bench-devnet-state-${name}-`));
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return new LiveDevnet(new ChainSampler(name, dataDir), dataDir, child);
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGINT');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

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
    // Ctrl-C ends the run early: what was sampled is reported and the devnets are stopped.
    const rows = await sampleFor(
      devnets.map((devnet) => devnet.sampler),
      minutes,
      every,
    );
    const [bounded, baseline] = devnets.map((devnet) => flatness(devnet.sampler));
    if (bounded === undefined || baseline === undefined) return 1;
    printSamples(rows, [bounded, baseline]);
    console.log();
    console.log(flatVerdict(bounded));
    console.log(
      `against the whole-history baseline: largest state file in the 2nd half ${tenths.format(bounded.bytes.late / baseline.bytes.late)}x, ` +
        `anvil CPU per transaction in the last quarter ${tenths.format(bounded.cpu.late / baseline.cpu.late)}x`,
    );
    return bounded.cpuFlat && bounded.sizeFlat ? 0 : 1;
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
