import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { JsonRpcFetch } from '../adapters/chain/keep-alive-fetch.js';
import { NodeRestartingError, RestartCount, RestartGate } from './restart-gate.js';

/** A JSON-RPC fetch that records what reached the node. */
function recordingFetch(reached: string[]): JsonRpcFetch {
  return async (input) => {
    reached.push(String(input));
    return new Response('{}');
  };
}

describe('the restart gate between the service and its settlement thread', () => {
  it('fails calls from the moment a restart begins until the thread is told of it, and lets them through after', async () => {
    const count = new RestartCount();
    const gate = new RestartGate(count.memory);
    const reached: string[] = [];
    const send = gate.guard(recordingFetch(reached));
    await send('http://node/before');
    count.begin();
    await expect(send('http://node/while')).rejects.toBeInstanceOf(NodeRestartingError);
    gate.toldUpTo(count.begun);
    await send('http://node/after');
    expect(reached).toEqual(['http://node/before', 'http://node/after']);
  });

  it('stays shut when another restart began before the first was told', async () => {
    const count = new RestartCount();
    const gate = new RestartGate(count.memory);
    const send = gate.guard(recordingFetch([]));
    count.begin();
    const firstDone = count.begun;
    count.begin();
    gate.toldUpTo(firstDone);
    await expect(send('http://node/')).rejects.toBeInstanceOf(NodeRestartingError);
    gate.toldUpTo(count.begun);
    await expect(send('http://node/')).resolves.toBeInstanceOf(Response);
  });

  it('lets every call through once released, for the closing thread', async () => {
    const count = new RestartCount();
    const gate = new RestartGate(count.memory);
    count.begin();
    gate.release();
    await expect(gate.guard(recordingFetch([]))('http://node/')).resolves.toBeInstanceOf(Response);
  });

  it('is shut by a restart counted on another thread, with no message between them', async () => {
    const count = new RestartCount();
    const gate = new RestartGate(count.memory);
    const counter = new Worker(
      `const { workerData } = require('node:worker_threads'); Atomics.add(new Int32Array(workerData), 0, 1);`,
      { eval: true, workerData: count.memory },
    );
    await new Promise((resolve) => counter.once('exit', resolve));
    await expect(gate.guard(recordingFetch([]))('http://node/')).rejects.toBeInstanceOf(NodeRestartingError);
  });
});
