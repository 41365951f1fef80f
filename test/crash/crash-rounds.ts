import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BookForOrders, getBooks } from '@dex/sdk';
import { backlog, checkRound, type RoundFindings } from './round-checks.js';
import { ServiceUnderTest, sleep, until } from './service-under-test.js';
import { random, tradeUntil, Wallet } from './trading-load.js';

/** What a round kills: the service's process group (its node lives on), the node alone, or both. */
export type CrashKind = 'service' | 'node' | 'both';

export interface CrashRoundsOptions {
  readonly rounds: number;
  /** Cycled through, round by round. */
  readonly kinds?: readonly CrashKind[];
  readonly seed?: number;
  /** Each wallet's funding, in whole units of every token. */
  readonly funding?: number;
  readonly log?: (line: string) => void;
}

export interface CrashReport {
  readonly rounds: number;
  readonly acknowledgedOrders: number;
  readonly acknowledgedCancels: number;
  readonly acknowledgedFloors: number;
  readonly trades: number;
  readonly swaps: number;
  readonly lost: number;
  readonly doubleSettled: number;
  readonly stalled: number;
  readonly reverted: number;
  /**
   * Faults besides the counts above: inconsistent orders, settlement mismatches, cancels and floors,
   * depth, records naming a transaction that does not hold them, fills settled without one.
   */
  readonly otherFaults: number;
  /** From the kill to a healthy service (or an answering node), per round. */
  readonly recoveryMs: readonly number[];
  /** From the end of the load to an empty settlement and cancellation backlog, per round. */
  readonly drainMs: readonly number[];
  readonly problems: readonly string[];
}

/** How long the backlog may take to drain after a round's load ends. */
const DRAIN_BOUND_MS = 30_000;

async function crash(service: ServiceUnderTest, kind: CrashKind): Promise<void> {
  if (kind === 'node') {
    const gone = await service.killNode();
    await service.nodeBack(gone);
    return;
  }
  await service.killService();
  if (kind === 'both') await service.killNode();
  await service.start();
}

/**
 * Rounds of kill -9 under a mixed load, as an operator tries it: `npm start` (market maker off) on
 * one DATA_DIR; four wallets from the operator CLI's faucet (two secp256k1, two Ed25519 ledger
 * accounts) trade on book 1 with limit and market orders, cancels and cancel/all; in each round the
 * service, the devnet node or both are killed at a random moment while the load goes on, the
 * service is started again (a node alone is restarted by the running service), the load goes on
 * for a moment, then stops, and the service must drain its backlog within 30 s and pass
 * {@link checkRound}.
 */
export async function runCrashRounds(options: CrashRoundsOptions): Promise<CrashReport> {
  const log = options.log ?? (() => {});
  const kinds = options.kinds ?? ['service', 'node', 'both'];
  const next = random(options.seed ?? 14);
  const dataDir = mkdtempSync(join(tmpdir(), 'crash-rounds-'));
  const service = await ServiceUnderTest.open(dataDir);
  const recoveryMs: number[] = [];
  const drainMs: number[] = [];
  const problems: string[] = [];
  let last: RoundFindings | null = null;
  const totals = { lost: 0, doubleSettled: 0, otherFaults: 0 };
  try {
    const funding = options.funding ?? 100_000;
    const accounts = [
      await service.createAccount('secp256k1', 'wallet-1', funding),
      await service.createAccount('ed25519', 'wallet-2', funding),
      await service.createAccount('secp256k1', 'wallet-3', funding),
      await service.createAccount('ed25519', 'wallet-4', funding),
    ];
    const wallets = accounts.map((account) => new Wallet(account, service.url));
    const book = (await getBooks(wallets[0]?.client as Wallet['client'])).orderbooks.find((each) => each.id === 1) as
      | BookForOrders
      | undefined;
    if (book === undefined) throw new Error('the devnet has no book 1');
    // Book 1 routes into its pool: 4,000 WHBAR and 1,000 USDC, at the load's mid of 0.25.
    await service.addLiquidity('WHBAR', 'USDC', '4000', '1000');
    // The funding must be in the node's last good snapshot (taken every 30 s) before a round can
    // kill the node: a state file cut short falls back to it.
    const funded = Date.now();
    const good = join(dataDir, 'devnet-chain-state.good.json');
    await until(
      async () => ((statSync(good, { throwIfNoEntry: false })?.mtimeMs ?? 0) > funded + 1_000 ? true : undefined),
      'a good chain snapshot with the funding',
      60_000,
      250,
    );

    for (let round = 1; round <= options.rounds; round++) {
      const kind = kinds[(round - 1) % kinds.length] as CrashKind;
      let stopped = false;
      const load = wallets.map((wallet) => tradeUntil(wallet, book, random(Math.floor(next() * 2 ** 32)), () => stopped));
      await sleep(1_500 + next() * 2_500);
      const killedAt = Date.now();
      await crash(service, kind);
      recoveryMs.push(Date.now() - killedAt);
      await sleep(1_500);
      stopped = true;
      await Promise.all(load);

      const quiet = Date.now();
      const left = await until(
        async () => ((await backlog(service, wallets)) === 0 ? 0 : Date.now() - quiet > DRAIN_BOUND_MS ? 1 : undefined),
        'the backlog to drain',
        DRAIN_BOUND_MS + 30_000,
        100,
      );
      drainMs.push(Date.now() - quiet);
      last = await checkRound(service, wallets);
      totals.lost = Math.max(totals.lost, last.lost);
      totals.doubleSettled = Math.max(totals.doubleSettled, last.doubleSettled);
      const other =
        last.inconsistent +
        last.settlementMismatches +
        last.cancelsNotFinal +
        last.floorsNotOnChain +
        last.tradedBelowFloor +
        last.staleRecords +
        last.settledWithoutTransaction +
        last.cancelsWithoutRecord +
        (last.depthMismatch ? 1 : 0) +
        (left > 0 && last.stalled === 0 ? 1 : 0);
      totals.otherFaults = Math.max(totals.otherFaults, other);
      for (const problem of last.problems) problems.push(`round ${round} (${kind}): ${problem}`);
      log(
        `round ${round} (${kind}): recovered in ${recoveryMs.at(-1)} ms, drained in ${drainMs.at(-1)} ms; ` +
          `${last.trades} fills, ${last.reverted} reverted, ${last.problems.length} problems`,
      );
    }
    const sum = (count: (wallet: Wallet) => number) => wallets.reduce((total, wallet) => total + count(wallet), 0);
    return {
      rounds: options.rounds,
      acknowledgedOrders: sum((wallet) => wallet.orders.size),
      acknowledgedCancels: sum((wallet) => wallet.cancels.size),
      acknowledgedFloors: sum((wallet) => wallet.floors.length),
      trades: last?.trades ?? 0,
      swaps: last?.swaps ?? 0,
      lost: totals.lost,
      doubleSettled: totals.doubleSettled,
      stalled: last?.stalled ?? 0,
      reverted: last?.reverted ?? 0,
      otherFaults: totals.otherFaults,
      recoveryMs,
      drainMs,
      problems,
    };
  } catch (error) {
    log(`the run failed; the service's log is in ${dataDir}/service.log`);
    throw error;
  } finally {
    await service.stop();
    if (problems.length === 0) rmSync(dataDir, { recursive: true, force: true });
  }
}

const percentile = (values: readonly number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
};

/** The report as the npm script prints it. */
export function formatReport(report: CrashReport): string {
  return [
    `rounds                ${report.rounds}`,
    `acknowledged orders   ${report.acknowledgedOrders} (cancels ${report.acknowledgedCancels}, floors ${report.acknowledgedFloors})`,
    `fills                 ${report.trades} (${report.swaps} with the pool)`,
    `lost                  ${report.lost}`,
    `double-settled        ${report.doubleSettled}`,
    `stalled               ${report.stalled}`,
    `reverted              ${report.reverted}`,
    `other faults          ${report.otherFaults}`,
    `recovery p50/max      ${percentile(report.recoveryMs, 0.5)} / ${Math.max(0, ...report.recoveryMs)} ms`,
    `backlog drained p50/max ${percentile(report.drainMs, 0.5)} / ${Math.max(0, ...report.drainMs)} ms (bound 30000)`,
    ...report.problems.slice(0, 40).map((problem) => `  ${problem}`),
  ].join('\n');
}
