import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { SerialisedAnswers, TimestampedAnswers } from './serialised-answers.js';

/** A reply whose route serializer is JSON.stringify, counting its calls. */
function fakeReply() {
  const counted = { calls: 0 };
  const reply = {
    serialize: (payload: unknown) => {
      counted.calls++;
      return JSON.stringify(payload);
    },
  } as unknown as FastifyReply;
  return { reply, counted };
}

describe('TimestampedAnswers', () => {
  it("writes the serializer's bytes with each answer's own timestamp, serialising each body once", () => {
    const { reply, counted } = fakeReply();
    const answers = new TimestampedAnswers<{ id: string; lastUpdateId: number; levels: string[] }>();
    // Zeros and ones elsewhere in the body must not move the cut.
    const body = { id: '10', lastUpdateId: 0, levels: ['0.1', '1.0'] };
    for (const timestamp of [1_795_000_000_000, 0, 7, 1_795_000_000_001]) {
      expect(answers.text(body, timestamp, reply)).toBe(JSON.stringify({ ...body, timestamp }));
    }
    expect(counted.calls).toBe(2);
  });

  it('serialises a new body object afresh, and a timestamp that is not a safe integer whole', () => {
    const { reply, counted } = fakeReply();
    const answers = new TimestampedAnswers<{ id: string }>();
    expect(answers.text({ id: 'a' }, 5, reply)).toBe('{"id":"a","timestamp":5}');
    expect(answers.text({ id: 'b' }, 5, reply)).toBe('{"id":"b","timestamp":5}');
    expect(answers.text({ id: 'b' }, 1.5, reply)).toBe('{"id":"b","timestamp":1.5}');
    expect(counted.calls).toBe(5);
  });
});

describe('SerialisedAnswers', () => {
  it('serialises a body object once and answers its bytes after', () => {
    const { reply, counted } = fakeReply();
    const answers = new SerialisedAnswers<{ total: number }>();
    const body = { total: 4 };
    expect(answers.text(body, reply).toString('utf8')).toBe('{"total":4}');
    expect(answers.text(body, reply).toString('utf8')).toBe('{"total":4}');
    expect(counted.calls).toBe(1);
  });
});
