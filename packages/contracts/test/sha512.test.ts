import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { type Address, bytesToHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ed25519Harness } from '../src/generated/artifacts.js';
import { mapInBatches } from './support/batches.js';
import { startTestDevnet, type TestDevnet } from './support/devnet.js';

let devnet: TestDevnet;
let harness: Address;

beforeAll(async () => {
  devnet = await startTestDevnet();
  harness = await devnet.deploy(await devnet.newWallet(), Ed25519Harness, []);
});
afterAll(() => devnet?.stop());

const onChain = (message: Uint8Array) =>
  devnet.public.readContract({ address: harness, abi: Ed25519Harness.abi, functionName: 'sha512', args: [bytesToHex(message)] });
const expected = (message: Uint8Array) => bytesToHex(createHash('sha512').update(message).digest());

describe('Sha512 (Solidity)', () => {
  it('hashes every length from 0 to 300 bytes as node:crypto does (one to three blocks, every padding edge)', async () => {
    const data = Uint8Array.from({ length: 300 }, (_, index) => (index * 131 + 7) & 0xff);
    const lengths = Array.from({ length: 301 }, (_, length) => length);
    const digests = await mapInBatches(lengths, 32, (length) => onChain(data.subarray(0, length)));
    expect(digests).toEqual(lengths.map((length) => expected(data.subarray(0, length))));
  });

  it('hashes random data as node:crypto does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 1_200 }), async (message) => {
        expect(await onChain(message)).toBe(expected(message));
      }),
      { numRuns: 60 },
    );
  });
});
