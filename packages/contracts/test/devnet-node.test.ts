import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileAtomic, removeStrayTemps, writeFileAtomic } from '../src/atomic-file.js';
import { devnetClients, fund } from '../src/devnet-chain.js';
import { DevnetNode } from '../src/devnet-node.js';
import { type DevnetLog, goodStateFile } from '../src/devnet-state.js';

const dir = mkdtempSync(join(tmpdir(), 'devnet-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const address = '0x00000000000000000000000000000000000a11ce';

function capture(): DevnetLog & { lines: { level: string; fields: object; message: string }[] } {
  const lines: { level: string; fields: object; message: string }[] = [];
  const at = (level: string) => (fields: object, message: string) => lines.push({ level, fields, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

/** Whether process `pid` lives, given a moment to be reaped if it just exited. */
async function alive(pid: number): Promise<boolean> {
  for (let tries = 0; tries < 20; tries += 1) {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/** A chain whose state file holds a balance of 12,345 at `address`, stopped cleanly. */
async function chainWithBalance(folder: string): Promise<string> {
  const stateFile = join(folder, 'chain.json');
  const node = await DevnetNode.start({ chainId: 298, stateFile, logFile: join(folder, 'anvil.log') });
  await fund(devnetClients(node.rpcUrl, 298), address, 12_345n);
  await node.stop();
  return stateFile;
}

describe('DevnetNode', () => {
  it('starts a supervised node found gone again on the same port, from its saved state, and says so', async () => {
    const folder = mkdtempSync(join(dir, 'supervised-'));
    const stateFile = await chainWithBalance(folder);
    const log = capture();
    let restarts = 0;
    const node = await DevnetNode.start({ chainId: 298, stateFile, superviseMs: 50, log, onRestart: () => restarts++ });
    try {
      const gone = node.pid;
      process.kill(gone, 'SIGKILL');
      for (let tries = 0; tries < 200 && restarts === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(restarts).toBe(1);
      expect(node.pid).not.toBe(gone);
      expect(await alive(node.pid)).toBe(true);
      expect(await devnetClients(node.rpcUrl, 298).public.getBalance({ address })).toBe(12_345n);
      expect(log.lines.find((line) => line.level === 'warn')?.message).toMatch(/started it again from its saved state/);
    } finally {
      await node.stop();
    }
    expect(await alive(node.pid)).toBe(false);
  });

  it('serves the configured chain id on a loopback port', async () => {
    const node = await DevnetNode.start({ chainId: 298, stateFile: null });
    try {
      expect(node.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await devnetClients(node.rpcUrl, 298).public.getChainId()).toBe(298);
    } finally {
      await node.stop();
    }
  });

  it('keeps its state across a clean stop and start, and a clean stop keeps a last good snapshot', async () => {
    const stateFile = await chainWithBalance(mkdtempSync(join(dir, 'clean-')));
    expect(readFileSync(goodStateFile(stateFile))).toEqual(readFileSync(stateFile));

    const second = await DevnetNode.start({ chainId: 298, stateFile });
    try {
      expect(await devnetClients(second.rpcUrl, 298).public.getBalance({ address })).toBe(12_345n);
    } finally {
      await second.stop();
    }
  });

  it('falls back to the last good snapshot when the state file was cut short, warns, and keeps the damaged file', async () => {
    const folder = mkdtempSync(join(dir, 'cut-'));
    const stateFile = await chainWithBalance(folder);
    const whole = readFileSync(stateFile);
    writeFileSync(stateFile, whole.subarray(0, Math.floor(whole.length / 2)));
    const log = capture();

    const node = await DevnetNode.start({ chainId: 298, stateFile, log });
    try {
      expect(await devnetClients(node.rpcUrl, 298).public.getBalance({ address })).toBe(12_345n);
    } finally {
      await node.stop();
    }
    expect(log.lines.map((line) => line.level)).toEqual(['warn']);
    expect(log.lines[0]?.message).toMatch(/cut short \(\d+ bytes, written .*\); restored the last good snapshot of /);
    const damaged = readdirSync(folder).filter((name) => name.startsWith('chain.damaged-'));
    expect(damaged).toHaveLength(1);
    expect(readFileSync(join(folder, damaged[0] as string))).toEqual(whole.subarray(0, Math.floor(whole.length / 2)));
  });

  it('starts a fresh chain, logged as an error, when the state file was cut short and there is no good snapshot', async () => {
    const folder = mkdtempSync(join(dir, 'fresh-'));
    const stateFile = await chainWithBalance(folder);
    rmSync(goodStateFile(stateFile));
    writeFileSync(stateFile, readFileSync(stateFile).subarray(0, 100));
    const log = capture();

    const node = await DevnetNode.start({ chainId: 298, stateFile, log });
    try {
      expect(await devnetClients(node.rpcUrl, 298).public.getBalance({ address })).toBe(0n);
    } finally {
      await node.stop();
    }
    expect(log.lines.map((line) => line.level)).toEqual(['error']);
    expect(log.lines[0]?.message).toMatch(/no good snapshot: starting a FRESH chain/);
    expect(readdirSync(folder).some((name) => name.startsWith('chain.damaged-'))).toBe(true);
  });

  it('reattaches to the node a previous run left running, and stops it by its pid', async () => {
    const folder = mkdtempSync(join(dir, 'reattach-'));
    const options = { chainId: 298, stateFile: join(folder, 'chain.json'), pidFile: join(folder, 'node.pid') };
    const first = await DevnetNode.start(options);
    try {
      await fund(devnetClients(first.rpcUrl, 298), address, 777n);
      const log = capture();
      // The first run "crashed": it never stops its node. The second finds it through the pid file.
      const second = await DevnetNode.start({ ...options, rpcUrl: first.rpcUrl, log });
      expect(second.reattached).toBe(true);
      expect(second.pid).toBe(first.pid);
      expect(log.lines.map((line) => line.message)).toEqual(['reattached to the devnet node a previous run left running']);
      expect(await devnetClients(second.rpcUrl, 298).public.getBalance({ address })).toBe(777n);
      await second.stop();
      expect(await alive(first.pid)).toBe(false);
      expect(existsSync(options.pidFile)).toBe(false);
    } finally {
      await first.kill();
    }
  });

  it('stops a node left running that does not answer where it was recorded, and starts a new one', async () => {
    const folder = mkdtempSync(join(dir, 'orphan-'));
    const options = { chainId: 298, stateFile: join(folder, 'chain.json'), pidFile: join(folder, 'node.pid') };
    const first = await DevnetNode.start(options);
    const second = await DevnetNode.start({ ...options, rpcUrl: 'http://127.0.0.1:1' });
    try {
      expect(second.reattached).toBe(false);
      expect(second.pid).not.toBe(first.pid);
      expect(await alive(first.pid)).toBe(false);
      expect(readFileSync(options.pidFile, 'utf8')).toBe(String(second.pid));
    } finally {
      await second.stop();
      await first.kill();
    }
  });
});

describe('writing a file whole or not at all', () => {
  it('replaces the file by renaming a temp file over it, leaving nothing else behind', () => {
    const folder = mkdtempSync(join(dir, 'atomic-'));
    const file = join(folder, 'record.json');
    writeFileAtomic(file, '{"a":1}');
    writeFileAtomic(file, '{"a":2}');
    expect(readFileSync(file, 'utf8')).toBe('{"a":2}');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder)).toEqual(['record.json']);
  });

  it('creates a file once and never replaces it', () => {
    const folder = mkdtempSync(join(dir, 'create-'));
    const file = join(folder, 'secret');
    expect(createFileAtomic(file, 'first')).toBe(true);
    expect(createFileAtomic(file, 'second')).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('first');
    expect(readdirSync(folder)).toEqual(['secret']);
  });

  it('removes the temp files a crashed writer left, and not those of a writer still running', () => {
    const folder = mkdtempSync(join(dir, 'stray-'));
    writeFileSync(join(folder, 'record.json'), '{}');
    // Process ids are below 2^22 on Linux: this one never runs.
    writeFileSync(join(folder, 'record.json.4194999.1.tmp'), '{"cut');
    writeFileSync(join(folder, `record.json.${process.pid}.7.tmp`), '{"writing');
    expect(removeStrayTemps(folder)).toEqual(['record.json.4194999.1.tmp']);
    expect(readdirSync(folder).sort()).toEqual(['record.json', `record.json.${process.pid}.7.tmp`]);
  });
});
