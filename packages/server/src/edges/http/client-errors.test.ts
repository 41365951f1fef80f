import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, until } from '../../test-support/harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({}, { listen: true });
});
afterAll(async () => {
  await harness.close();
});

/** Writes bytes on a socket of its own and reads until the server closes it: status line and body. */
function raw(bytes: string): Promise<{ status: number; body: unknown }> {
  const url = new URL(harness.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) });
    });
    socket.write(bytes);
  });
}

describe('requests refused before any route', () => {
  it('answers headers past the size limit with 431 HEADERS_TOO_LARGE in the catalogue body', async () => {
    const answer = await raw(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toEqual({ status: 431, body: { error: 'The request headers are too large', code: 'HEADERS_TOO_LARGE' } });
  });

  it('answers a request Node cannot parse with 400 VALIDATION_FAILED', async () => {
    const answer = await raw('POST /auth/challenge HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}');
    expect(answer).toEqual({ status: 400, body: { error: 'The request is not valid HTTP', code: 'VALIDATION_FAILED' } });
  });

  it('answers a path it cannot decode, and a path parameter past 128 characters, with 400 VALIDATION_FAILED', async () => {
    const undecodable = await harness.app.inject({ method: 'GET', url: '/depth/%ZZ' });
    expect(undecodable.statusCode).toBe(400);
    expect(undecodable.json()).toEqual({ error: 'The path is not a valid URL', code: 'VALIDATION_FAILED' });
    const long = await harness.app.inject({ method: 'GET', url: `/depth/${'1'.repeat(129)}` });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ error: 'A path parameter is too long', code: 'VALIDATION_FAILED' });
  });

  it('takes a body the client cut off for a client error, not a server error', async () => {
    const url = new URL(harness.url);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      'POST /auth/challenge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"accountId"',
    );
    // Nothing is logged when a request arrives: give it a moment on loopback before cutting it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    const line = await until(
      () =>
        harness
          .logs()
          .split('\n')
          .find((text) => text.includes('"code":"VALIDATION_FAILED"') || text.includes('"level":50')),
      'the cut request to be refused',
      5_000,
      10,
    );
    expect(line).toContain('"level":30');
    expect(harness.logs()).not.toContain('"level":50');
  });
});
