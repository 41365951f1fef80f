import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { devnetClients, PartialFillLimitOrderReactor, processLives } from '@dex/contracts';
import { getAddress, parseEventLogs } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceChildMessage, ServiceParentMessage } from '../../../test-support/service-child.js';
import { tempDataDir } from '../../../test-support/temp-data-dir.js';
import { until as pollUntil } from '../../../test-support/until.js';
import { openDatabase } from '../../sqlite/driver.js';
import { DEVNET_RECORD_FILE } from '../devnet-record.js';

const CHILD = new URL('../../../test-support/service-child.ts', import.meta.url);
const TRADES = 60;
const children = new Set<ChildProcess>();
const folders: { dir: string; remove: () => void }[] = [];

afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  // A failed test may leave the killed service's chain node running.
  for (const folder of folders.splice(0)) {
    const pidFile = join(folder.dir, 'devnet-chain.pid');
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8'));
      if (processLives(pid)) process.kill(pid, 'SIGKILL');
    }
    folder.remove();
  }
});

/** The service in a child process; with `ownGroup`, the leader of a process group of its own. */
function startService(dataDir: string, ownGroup = false): ChildProcess {
  const child = fork(CHILD, [], {
    detached: ownGroup,
    execArgv: ['--import', 'tsx', '--conditions', 'source'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      CHAIN: 'devnet',
      LOG_LEVEL: 'silent',
      VERIFY_WORKERS: '0',
      // Small batches: settling the trades takes many transactions, so the kill lands mid-way.
      SETTLEMENT_BATCH_FILLS: '2',
      DEVNET_CHAIN_STATE_INTERVAL_SECONDS: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  return child;
}

function next<T extends ServiceChildMessage['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<ServiceChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} from the service in time`)), 60_000);
    const onMessage = (message: ServiceChildMessage) => {
      if (message.type === 'failed') reject(new Error(message.message));
      if (message.type !== type) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message as Extract<ServiceChildMessage, { type: T }>);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
}

function send(child: ChildProcess, message: ServiceParentMessage): void {
  child.send(message);
}

/** Settlement states of the trades, read from the service's store file while it runs. */
async function statuses(dataDir: string): Promise<Map<number, { status: string; txHash: string | null }>> {
  const db = await openDatabase(join(dataDir, 'devnet.sqlite'));
  try {
    const rows = db
      .prepare<{ trade_id: number; status: string; tx_hash: string | null }>('SELECT trade_id, status, tx_hash FROM settlements')
      .all();
    return new Map(rows.map((row) => [row.trade_id, { status: row.status, txHash: row.tx_hash }]));
  } finally {
    db.close();
  }
}

function exited(child: ChildProcess): Promise<unknown> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', resolve));
}

function recordOf(dataDir: string): { rpcUrl: string; reactor: `0x${string}` } {
  return JSON.parse(readFileSync(join(dataDir, DEVNET_RECORD_FILE), 'utf8')) as { rpcUrl: string; reactor: `0x${string}` };
}

/** Polls every 20 ms, as a crash test wants to catch the moment settlement starts. */
function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  return pollUntil(check, what, timeoutMs, 20);
}

/**
 * Funds two traders, makes the trades and kills the service mid-settlement, then starts it again
 * and checks that every fill settled exactly once on the chain. With `loseNodeState`, the chain
 * node is killed too and its state file is put back to a snapshot taken after the funding and
 * before any trade: the node has lost every settlement the store recorded. With `'cut'`, the
 * state file is instead cut short (a crash while the node wrote it) and that snapshot is the last
 * good copy, which the restart falls back to. With `serviceSurvives`, only the node is killed: the
 * running service starts it again and reconciles with the chain it finds.
 */
async function crashDuringSettlement(loseNodeState: boolean | 'cut', { serviceSurvives = false } = {}): Promise<void> {
  const data = tempDataDir();
  folders.push(data);
  const stateFile = join(data.dir, 'devnet-chain-state.json');
  const first = startService(data.dir);
  await next(first, 'ready');
  send(first, { type: 'fund' });
  await next(first, 'funded');
  // The head once the funding is mined: a snapshot must hold it. The node rewrites its state file
  // in place, so a read can catch it half-written, and a dump can lag its write time on a busy
  // machine: only a whole dump whose best block is that head or later will do.
  const fundedHead = await devnetClients(recordOf(data.dir).rpcUrl, 298).public.getBlockNumber({ cacheTime: 0 });
  const snapshot = await until(async () => {
    try {
      const bytes = readFileSync(stateFile);
      const dump = JSON.parse(bytes.toString('utf8')) as { best_block_number?: number | string };
      return BigInt(dump.best_block_number ?? 0) >= fundedHead ? bytes : undefined;
    } catch {
      return undefined;
    }
  }, 'a whole state dump after the funding');
  send(first, { type: 'trade', count: TRADES });
  const { tradeIds } = await next(first, 'traded');
  expect(tradeIds).toHaveLength(TRADES);

  const settledBefore = await until(async () => {
    const settled = [...(await statuses(data.dir)).values()].filter((row) => row.status === 'settled').length;
    return settled > 0 && settled < TRADES / 2 ? settled : undefined;
  }, 'settlement to be under way');
  const pidFile = join(data.dir, 'devnet-chain.pid');
  const nodePid = Number(readFileSync(pidFile, 'utf8'));
  if (!serviceSurvives) {
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
  }
  if (loseNodeState) {
    process.kill(nodePid, 'SIGKILL');
    await until(async () => (processLives(nodePid) ? undefined : true), 'the node to die');
    if (loseNodeState === 'cut') {
      writeFileSync(join(data.dir, 'devnet-chain-state.good.json'), snapshot);
      const last = readFileSync(stateFile);
      writeFileSync(stateFile, last.subarray(0, Math.floor(last.length / 2)));
    } else {
      writeFileSync(stateFile, snapshot);
    }
  }

  let second = first;
  if (serviceSurvives) {
    await until(async () => {
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : nodePid;
      return pid !== nodePid && processLives(pid) ? true : undefined;
    }, 'the service to start its node again');
  } else {
    second = startService(data.dir);
    await next(second, 'ready');
  }
  // On the chain as it is now: one Filled event per trade, in the transaction the store names. A
  // running service finds the lost blocks at its next look at the chain, so this is awaited too.
  // A correctness bound, not a timing target: settling the 60 trades again in batches of 2 takes
  // about 5 s alone, many times that beside the rest of the suite on 2 cores.
  const record = recordOf(data.dir);
  const clients = devnetClients(record.rpcUrl, 298);
  const settledOnChain = async () => {
    const rows = await statuses(data.dir);
    if (!tradeIds.every((id) => rows.get(id)?.status === 'settled')) return undefined;
    const logs = await clients.public.getLogs({ address: getAddress(record.reactor), fromBlock: 0n });
    const filled = parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs, eventName: 'Filled' });
    const byTrade = new Map<number, string[]>();
    for (const event of filled) {
      const id = Number(event.args.fillId);
      byTrade.set(id, [...(byTrade.get(id) ?? []), event.transactionHash]);
    }
    return { rows, byTrade };
  };
  const { rows: final, byTrade } = await until(
    async () => {
      const seen = await settledOnChain().catch(() => undefined);
      // A fill recorded without a transaction is one the node's state holds but no block does.
      const agreed = (id: number) => (seen?.byTrade.get(id) ?? []).join() === (seen?.rows.get(id)?.txHash ?? '');
      return seen !== undefined && tradeIds.every(agreed) ? seen : undefined;
    },
    'every trade to be settled on the chain after the restart',
    180_000,
  );
  for (const id of tradeIds) {
    const txHash = final.get(id)?.txHash ?? null;
    expect(byTrade.get(id) ?? [], `trade ${id}`).toEqual(txHash === null ? [] : [txHash]);
    if (txHash === null) {
      const settled = await clients.public.readContract({
        address: getAddress(record.reactor),
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'isFillSettled',
        args: [BigInt(id)],
      });
      expect(settled, `trade ${id} settled in the reactor's state`).toBe(true);
    }
  }
  expect(settledBefore).toBeGreaterThan(0);
  send(second, { type: 'stop' });
  await new Promise((resolve) => second.once('exit', resolve));
}

describe('a kill -9 during settlement', () => {
  it('of the service: the restart settles every fill exactly once', async () => {
    await crashDuringSettlement(false);
  }, 300_000);

  it('of the service and its chain node, which loses its latest state: still every fill exactly once', async () => {
    await crashDuringSettlement(true);
  }, 300_000);

  it('of the service and its chain node, which was writing its state file: the restart falls back to the last good snapshot, and still every fill exactly once', async () => {
    await crashDuringSettlement('cut');
    const { dir } = folders[folders.length - 1] as { dir: string };
    expect(readdirSync(dir).some((name) => name.startsWith('devnet-chain-state.damaged-'))).toBe(true);
  }, 300_000);

  it('of the chain node alone, which loses its latest state: the service starts it again, reconciles, and still every fill exactly once', async () => {
    await crashDuringSettlement(true, { serviceSurvives: true });
  }, 300_000);
});

describe('the devnet node outlives a crash of the service', () => {
  it("a kill -9 of the service's process group leaves the node running; the restart reattaches to it and its chain, and a clean stop stops it", async () => {
    const data = tempDataDir();
    folders.push(data);
    const pidFile = join(data.dir, 'devnet-chain.pid');
    const first = startService(data.dir, true);
    await next(first, 'ready');
    send(first, { type: 'fund' });
    await next(first, 'funded');
    const nodePid = Number(readFileSync(pidFile, 'utf8'));
    const { rpcUrl } = recordOf(data.dir);
    const head = await devnetClients(rpcUrl, 298).public.getBlockNumber();
    expect(head).toBeGreaterThan(0n);
    process.kill(-(first.pid as number), 'SIGKILL');
    await exited(first);
    expect(processLives(nodePid)).toBe(true);

    const second = startService(data.dir, true);
    await next(second, 'ready');
    expect(Number(readFileSync(pidFile, 'utf8'))).toBe(nodePid);
    expect(recordOf(data.dir).rpcUrl).toBe(rpcUrl);
    expect(await devnetClients(rpcUrl, 298).public.getBlockNumber()).toBeGreaterThanOrEqual(head);

    send(second, { type: 'stop' });
    await exited(second);
    await until(async () => (processLives(nodePid) ? undefined : true), 'the node to stop', 15_000);
    expect(existsSync(pidFile)).toBe(false);
    expect(existsSync(join(data.dir, 'devnet-chain-state.good.json'))).toBe(true);
  }, 300_000);
});
