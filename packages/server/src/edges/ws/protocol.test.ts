import { describe, expect, it } from 'vitest';
import { encodeBody, type MessageBody, numberedFrame } from './protocol.js';

/** A body padded so that, numbered `seq`, it is `payload` bytes long; the encoder reads nothing of its shape. */
function bodyOf(payload: number, seq: number): MessageBody {
  const fixed = JSON.stringify({ seq, type: 'WELCOME', account: '' }).length;
  return { type: 'WELCOME', account: 'a'.repeat(payload - fixed) } as unknown as MessageBody;
}

/** The payload length field and where the payload starts (RFC 6455 section 5.2). */
function lengthOf(frame: Buffer): { length: number; start: number } {
  const marker = (frame[1] ?? 0) & 0x7f;
  if (marker === 126) return { length: frame.readUInt16BE(2), start: 4 };
  if (marker === 127) return { length: Number(frame.readBigUInt64BE(2)), start: 10 };
  return { length: marker, start: 2 };
}

describe('numberedFrame', () => {
  it.each([
    [125, 2],
    [126, 4],
    [65_535, 4],
    [65_536, 10],
  ])('frames a %i-byte message as one unmasked final text frame with a %i-byte header', (payload, header) => {
    const seq = 7;
    const body = bodyOf(payload, seq);
    const frame = numberedFrame(encodeBody(body), seq);
    expect(frame[0]).toBe(0x81);
    expect(lengthOf(frame)).toEqual({ length: payload, start: header });
    expect(frame.length).toBe(header + payload);
    const text = frame.subarray(header).toString('utf8');
    expect(text).toBe(JSON.stringify({ seq, ...body }));
  });

  it('numbers the same encoded body for each connection', () => {
    const encoded = encodeBody(bodyOf(200, 1));
    const seqs = [1, 42, 123_456].map((seq) => JSON.parse(numberedFrame(encoded, seq).subarray(4).toString('utf8')).seq);
    expect(seqs).toEqual([1, 42, 123_456]);
  });
});
