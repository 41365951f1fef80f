import { parentPort } from 'node:worker_threads';
import { unpackChecks } from '../../domain/signatures/check-packing.js';
import { verifyOrderSignature } from '../../domain/signatures/order-signatures.js';

/** One packed batch (see check-packing.ts), transferred, not copied. */
export interface VerifyRequest {
  id: number;
  buffer: ArrayBuffer;
}

/** `ready` once the module (and what it imports) has loaded; then per batch one byte per check (1 = valid), or why it could not be read. */
export type VerifyResponse = { ready: true } | { id: number; results: Uint8Array } | { id: number; error: string };

if (parentPort === null) throw new Error('verify-worker.js runs as a worker thread of SignatureVerifier');
const port = parentPort;

port.on('message', ({ id, buffer }: VerifyRequest) => {
  try {
    const checks = unpackChecks(buffer);
    const results = new Uint8Array(checks.length);
    checks.forEach((check, index) => {
      results[index] = verifyOrderSignature(check) ? 1 : 0;
    });
    port.postMessage({ id, results } satisfies VerifyResponse, [results.buffer]);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies VerifyResponse);
  }
});

port.postMessage({ ready: true } satisfies VerifyResponse);
