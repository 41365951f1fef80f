import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { packChecks, unpackChecks } from '../../domain/signatures/check-packing.js';
import { keccak256 } from '../../domain/signatures/keccak.js';
import { type SignatureCheck, verifyOrderSignature } from '../../domain/signatures/order-signatures.js';
import { addressOfPublicKey } from '../../domain/signatures/secp256k1.js';
import { createVerifyWorker, VerifyPool } from './verify-pool.js';

const here = dirname(fileURLToPath(import.meta.url));

/** 65-byte r ‖ s ‖ v signature of a digest. */
function signSecp256k1(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const recovered = secp256k1.sign(digest, privateKey, { prehash: false, format: 'recovered' });
  const signature = new Uint8Array(65);
  signature.set(recovered.subarray(1), 0);
  signature[64] = 27 + (recovered[0] as number);
  return signature;
}

const secpKey = new Uint8Array(32).fill(0x11);
const secpPublic = secp256k1.getPublicKey(secpKey, true);
const edSeed = new Uint8Array(32).fill(0x22);
const edPublic = ed25519.getPublicKey(edSeed);

/** A valid check of each signer type (kinds 0-2) and an Ed25519 one with a truncated signature (kind 3). */
function checkOfKind(kind: number, digest: Uint8Array): SignatureCheck {
  switch (kind) {
    case 0:
      return {
        digest,
        signature: signSecp256k1(digest, secpKey),
        signer: { type: 'secp256k1-address', address: addressOfPublicKey(secpPublic) },
      };
    case 1:
      return { digest, signature: signSecp256k1(digest, secpKey), signer: { type: 'secp256k1-key', publicKey: secpPublic } };
    case 2:
      return { digest, signature: ed25519.sign(digest, edSeed), signer: { type: 'ed25519', publicKey: edPublic } };
    default:
      return { digest, signature: ed25519.sign(digest, edSeed).subarray(1), signer: { type: 'ed25519', publicKey: edPublic } };
  }
}

/** Valid and broken checks of every signer type, in a fixed order; `expected` is what a correct verifier answers. */
function mixedBatch(size: number): { checks: SignatureCheck[]; expected: boolean[] } {
  const checks: SignatureCheck[] = [];
  const expected: boolean[] = [];
  for (let index = 0; index < size; index++) {
    const digest = keccak256(Uint8Array.of(index & 0xff, index >> 8));
    const kind = index % 4;
    // Every third check is verified against another digest than the one signed.
    const broken = index % 3 === 0;
    const check = checkOfKind(kind, digest);
    checks.push(broken ? { ...check, digest: keccak256(digest) } : check);
    expected.push(!broken && kind !== 3);
  }
  return { checks, expected };
}

/** Speaks just enough of the worker protocol to start, then dies on its first batch. */
const crashOnFirstBatch = (): Worker =>
  new Worker(
    "const { parentPort } = require('node:worker_threads'); parentPort.once('message', () => process.exit(3)); parentPort.postMessage({ ready: true });",
    { eval: true },
  );

const open: VerifyPool[] = [];
async function start(options: Parameters<typeof VerifyPool.start>[0]): Promise<VerifyPool> {
  const verifier = await VerifyPool.start(options);
  open.push(verifier);
  return verifier;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((verifier) => verifier.close()));
});

describe('check packing', () => {
  it('round-trips checks of every signer type, including an address that cannot match', () => {
    const { checks } = mixedBatch(12);
    checks.push({
      digest: new Uint8Array(32),
      signature: new Uint8Array(65),
      signer: { type: 'secp256k1-address', address: '0xnot-hex' },
    });
    const unpacked = unpackChecks(packChecks(checks));
    expect(unpacked.slice(0, 12)).toEqual(
      checks.slice(0, 12).map((check) => ({ ...check, digest: new Uint8Array(check.digest) })),
    );
    expect(unpacked[12]?.signer).toEqual({ type: 'secp256k1-address', address: '0x' });
  });
});

describe('VerifyPool', () => {
  it.each([0, 1, 2])('answers a mixed batch like the in-process verifier with %i workers', async (workers) => {
    const verifier = await start({ workers });
    for (const size of [1, 3, 9, 250]) {
      const { checks, expected } = mixedBatch(size);
      expect(checks.map(verifyOrderSignature)).toEqual(expected);
      expect(await verifier.verifyBatch(checks)).toEqual(expected);
    }
    expect(await verifier.verifyBatch([])).toEqual([]);
  });

  it('keeps answers apart when batches overlap on the workers', async () => {
    const verifier = await start({ workers: 2 });
    const batches = [mixedBatch(40), mixedBatch(17), mixedBatch(100)];
    const answers = await Promise.all(batches.map(({ checks }) => verifier.verifyBatch(checks)));
    expect(answers).toEqual(batches.map(({ expected }) => expected));
  });

  it('terminates its workers on close and refuses work afterwards', async () => {
    const workers: Worker[] = [];
    const verifier = await VerifyPool.start({
      workers: 2,
      createWorker: () => {
        const worker = createVerifyWorker();
        workers.push(worker);
        return worker;
      },
    });
    const exits = workers.map((worker) => new Promise((resolve) => worker.once('exit', resolve)));
    await verifier.close();
    await expect(Promise.all(exits)).resolves.toHaveLength(2);
    await expect(verifier.verifyBatch(mixedBatch(10).checks)).rejects.toThrow(/closed/);
  });

  it('rejects the pending batches of a crashed worker and replaces it', async () => {
    let created = 0;
    const verifier = await start({
      workers: 1,
      createWorker: () => (created++ === 0 ? crashOnFirstBatch() : createVerifyWorker()),
    });
    const { checks, expected } = mixedBatch(20);
    const results = await Promise.allSettled([verifier.verifyBatch(checks), verifier.verifyBatch(checks)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/exited with code 3/);
    expect(await verifier.verifyBatch(checks)).toEqual(expected);
    expect(created).toBe(2);
  });

  it('fails to start when a worker cannot load its module', async () => {
    const broken = () => new Worker('throw new Error("cannot load")', { eval: true });
    await expect(VerifyPool.start({ workers: 2, createWorker: broken })).rejects.toThrow(/cannot load/);
  });

  it('runs its worker from compiled JavaScript as it will from dist/', async () => {
    // Transpile this folder as `tsc -b` would, into a scratch folder inside the repository so
    // that `keccak` and `secp256k1` still resolve from node_modules.
    const src = resolve(here, '../..');
    const cache = join(resolve(src, '../../..'), 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    const out = mkdtempSync(join(cache, 'verify-pool-dist-'));
    try {
      // The pool and the signature rules it loads, in the same layout as under src/.
      for (const folder of ['adapters/crypto', 'domain/signatures']) {
        mkdirSync(join(out, folder), { recursive: true });
        for (const file of readdirSync(join(src, folder)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
          const { outputText } = ts.transpileModule(readFileSync(join(src, folder, file), 'utf8'), {
            compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, verbatimModuleSyntax: true },
            fileName: file,
          });
          writeFileSync(join(out, folder, file.replace(/\.ts$/, '.js')), outputText);
        }
      }
      writeFileSync(join(out, 'package.json'), '{ "type": "module" }');
      const compiled = (await import(
        pathToFileURL(join(out, 'adapters/crypto/verify-pool.js')).href
      )) as typeof import('./verify-pool.js');
      const verifier = await compiled.VerifyPool.start({ workers: 1 });
      try {
        const { checks, expected } = mixedBatch(30);
        expect(await verifier.verifyBatch(checks)).toEqual(expected);
      } finally {
        await verifier.close();
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
