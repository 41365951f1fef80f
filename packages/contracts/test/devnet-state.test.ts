import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { devnetClients, fund } from '../src/devnet-chain.js';
import { checkDump } from '../src/devnet-dump.js';
import { DevnetNode } from '../src/devnet-node.js';
import { type DevnetLog, goodStateFile, keepGoodState } from '../src/devnet-state.js';
import { prepareStateFile, prepareStateFileOffThread } from '../src/state-file-preparation.js';

const dir = mkdtempSync(join(tmpdir(), 'devnet-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const receiver: Address = '0x00000000000000000000000000000000000b0b00';

function capture(): DevnetLog & { lines: { level: string; fields: object; message: string }[] } {
  const lines: { level: string; fields: object; message: string }[] = [];
  const at = (level: string) => (fields: object, message: string) => lines.push({ level, fields, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

/** The parts of anvil's dump these tests change. */
interface Dump {
  block: { number: string };
  best_block_number: number;
  blocks: { header: { number: string } }[];
  transactions: { block_number: number }[];
}

const readDump = (file: string): Dump => JSON.parse(readFileSync(file, 'utf8')) as Dump;

/**
 * Sends `count` transfers of 1 wei each, signed by a fresh key, to `receiver` on the node of
 * `stateFile` (started and stopped cleanly: a whole dump, consistent); answers the sender.
 */
async function transfer(stateFile: string, count: number, from = privateKeyToAccount(generatePrivateKey())) {
  const node = await DevnetNode.start({ chainId: 298, stateFile });
  try {
    const clients = devnetClients(node.rpcUrl, 298);
    await fund(clients, from.address);
    const wallet = clients.wallet(from);
    for (let sent = 0; sent < count; sent++) {
      const hash = await wallet.sendTransaction({ to: receiver, value: 1n });
      await clients.public.waitForTransactionReceipt({ hash });
    }
  } finally {
    await node.stop();
  }
  return from;
}

/**
 * What anvil writes when its periodic dump runs while it mines a block: the accounts with the
 * block's effects, the blocks and transactions without it.
 */
function dropLastBlock(stateFile: string): void {
  const dump = readDump(stateFile);
  const top = dump.best_block_number;
  dump.blocks = dump.blocks.filter((block) => Number(block.header.number) !== top);
  dump.transactions = dump.transactions.filter((transaction) => transaction.block_number !== top);
  headAt(dump, top - 1);
  writeFileSync(stateFile, JSON.stringify(dump));
}

/** Sets the dump's best block and block environment to block `number`. */
function headAt(dump: Dump, number: number): void {
  dump.best_block_number = number;
  dump.block.number = `0x${number.toString(16)}`;
}

async function balanceAndNonce(stateFile: string, sender: Address, log?: DevnetLog): Promise<[bigint, number]> {
  const node = await DevnetNode.start({ chainId: 298, stateFile, ...(log === undefined ? {} : { log }) });
  try {
    const clients = devnetClients(node.rpcUrl, 298);
    return [
      await clients.public.getBalance({ address: receiver }),
      await clients.public.getTransactionCount({ address: sender }),
    ];
  } finally {
    await node.stop();
  }
}

describe('a state file ahead of its saved history', () => {
  it('is refused at launch: the node starts from the last good snapshot, says why, and keeps the file aside', async () => {
    const folder = mkdtempSync(join(dir, 'ahead-'));
    const stateFile = join(folder, 'chain.json');
    const sender = await transfer(stateFile, 2);
    const earlier = join(folder, 'earlier.json');
    copyFileSync(goodStateFile(stateFile), earlier);
    await transfer(stateFile, 2, sender);
    // The last good snapshot is the one of two transfers; the file holds four, the last without its block.
    copyFileSync(earlier, goodStateFile(stateFile));
    dropLastBlock(stateFile);
    const ahead = readFileSync(stateFile);
    const log = capture();

    expect(await balanceAndNonce(stateFile, sender.address, log)).toEqual([2n, 2]);
    expect(log.lines.map((line) => line.level)).toEqual(['warn']);
    expect(log.lines[0]?.message).toMatch(
      new RegExp(
        `holds state ahead of its saved blocks \\(account ${sender.address.toLowerCase()} is at nonce 4 after saved ` +
          'transactions up to nonce 2\\); restored the last good snapshot of ',
      ),
    );
    const aside = readdirSync(folder).filter((name) => name.startsWith('chain.ahead-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(folder, aside[0] as string))).toEqual(ahead);
  });

  it('is prepared on a worker thread exactly as on the calling one: the same head, file and log', async () => {
    const folder = mkdtempSync(join(dir, 'threads-'));
    const stateFile = join(folder, 'chain.json');
    const sender = await transfer(stateFile, 2);
    await transfer(stateFile, 1, sender);
    dropLastBlock(stateFile);
    // Two copies of the same folder, one prepared here and one on a worker.
    const copies = ['here', 'worker'].map((name) => {
      const copy = mkdtempSync(join(folder, `${name}-`));
      copyFileSync(stateFile, join(copy, 'chain.json'));
      copyFileSync(goodStateFile(stateFile), goodStateFile(join(copy, 'chain.json')));
      return { file: join(copy, 'chain.json'), log: capture() };
    });
    const [here, worker] = copies as [(typeof copies)[0], (typeof copies)[0]];
    const heads = [prepareStateFile(here.file, 64, here.log), await prepareStateFileOffThread(worker.file, 64, worker.log)];

    expect(heads[1]).toBe(heads[0]);
    expect(readFileSync(worker.file)).toEqual(readFileSync(here.file));
    const lines = (log: ReturnType<typeof capture>, file: string) =>
      log.lines.map(
        ({ level, message }) =>
          `${level} ${message.replaceAll(dirname(file), '<folder>').replace(/\d{4}-\d\d-\d\dT[\d:.-]+Z/g, '<time>')}`,
      );
    expect(lines(worker.log, worker.file)).toEqual(lines(here.log, here.file));
    expect(lines(here.log, here.file)[0]).toMatch(/^warn .*restored the last good snapshot/);
  });

  it('is loaded as it is, logged as an error, when there is no good snapshot: its chain beats none', async () => {
    const folder = mkdtempSync(join(dir, 'alone-'));
    const stateFile = join(folder, 'chain.json');
    const sender = await transfer(stateFile, 3);
    rmSync(goodStateFile(stateFile));
    dropLastBlock(stateFile);
    const log = capture();

    expect(await balanceAndNonce(stateFile, sender.address, log)).toEqual([3n, 3]);
    expect(log.lines[0]?.level).toBe('error');
    expect(log.lines[0]?.message).toMatch(/ahead of its saved blocks .* no good snapshot: loading it as it is/);
  });

  it('is never kept as the last good snapshot; a consistent one is, and starts as before', async () => {
    const folder = mkdtempSync(join(dir, 'snapshot-'));
    const stateFile = join(folder, 'chain.json');
    const sender = await transfer(stateFile, 2);
    const snapshot = readFileSync(goodStateFile(stateFile));
    expect(snapshot).toEqual(readFileSync(stateFile));
    dropLastBlock(stateFile);
    const log = capture();

    expect(await keepGoodState(stateFile, log)).toBe(false);
    expect(readFileSync(goodStateFile(stateFile))).toEqual(snapshot);
    expect(log.lines.map((line) => line.level)).toEqual(['info']);
    expect(log.lines[0]?.message).toMatch(/kept the previous snapshot of the devnet chain: its state file holds state ahead/);
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    copyFileSync(goodStateFile(stateFile), stateFile);
    const quiet = capture();
    expect(await balanceAndNonce(stateFile, sender.address, quiet)).toEqual([2n, 2]);
    expect(quiet.lines).toEqual([]);
    expect(await keepGoodState(stateFile, quiet)).toBe(true);
  });

  it('is told apart by each part anvil may have read after a block was mined', async () => {
    const stateFile = join(mkdtempSync(join(dir, 'parts-')), 'chain.json');
    await transfer(stateFile, 2);
    const variant = (change: (dump: Dump) => void): readonly string[] => {
      const dump = readDump(stateFile);
      change(dump);
      const file = `${stateFile}.variant.json`;
      writeFileSync(file, JSON.stringify(dump));
      return checkDump(file).ahead;
    };
    const top = readDump(stateFile).best_block_number;
    expect(checkDump(stateFile)).toEqual({ whole: true, ahead: [], head: BigInt(top) });
    expect(
      variant((dump) => {
        dump.block.number = `0x${(top - 1).toString(16)}`;
      }),
    ).toEqual([`its block environment is at block ${top - 1} but its best block is ${top}`]);
    expect(variant((dump) => headAt(dump, top - 1))).toEqual([`its best block is ${top - 1} but its blocks go up to ${top}`]);
    expect(
      variant((dump) => {
        dump.blocks = dump.blocks.filter((block) => Number(block.header.number) !== top);
        headAt(dump, top - 1);
      }),
    ).toEqual([`it holds a transaction of block ${top} but its blocks go up to ${top - 1}`]);
  });
});
