/**
 * Answers serialised once and sent as text many times. Public market data is read far more often
 * than it changes, and the service hands out the same body object while nothing changed; the text
 * is made by the route's own serializer (`reply.serialize`), so the bytes are those the route
 * would have written for the object.
 */
import type { FastifyReply } from 'fastify';

/** What Fastify sends a serialised JSON answer as; set by hand, a string payload is sent as it is. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Sends JSON serialised here as the answer it is. */
export function sendJsonText(reply: FastifyReply, text: string | Buffer): FastifyReply {
  return reply.type(JSON_CONTENT_TYPE).send(text);
}

/** The route's serializer for its 200 answer. */
function serialise(reply: FastifyReply, body: object): string {
  const text = reply.serialize(body);
  if (typeof text !== 'string') throw new Error('the route serialised its answer to bytes, not text');
  return text;
}

/**
 * The serialised text of each body object, for as long as the object lives, as bytes: a string
 * would be encoded again into the socket on every answer.
 */
export class SerialisedAnswers<T extends object> {
  private readonly texts = new WeakMap<T, Buffer>();

  text(body: T, reply: FastifyReply): Buffer {
    let text = this.texts.get(body);
    if (text === undefined) {
      text = Buffer.from(serialise(reply, body));
      this.texts.set(body, text);
    }
    return text;
  }
}

/**
 * Bodies whose only field that changes per answer is an integer `timestamp`: each body object is
 * serialised once, with two timestamps, and cut where the two differ, around the timestamp's
 * digits; an answer is the two cuts with its own timestamp between them.
 */
export class TimestampedAnswers<T extends object> {
  private readonly cuts = new WeakMap<T, readonly [string, string]>();

  text(body: T, timestamp: number, reply: FastifyReply): string {
    // What the serializer would write for any other number is not a plain run of digits.
    if (!Number.isSafeInteger(timestamp)) return serialise(reply, { ...body, timestamp });
    let cut = this.cuts.get(body);
    if (cut === undefined) {
      cut = cutAtTimestamp(body, reply);
      this.cuts.set(body, cut);
    }
    return `${cut[0]}${timestamp}${cut[1]}`;
  }
}

function cutAtTimestamp<T extends object>(body: T, reply: FastifyReply): readonly [string, string] {
  const zero = serialise(reply, { ...body, timestamp: 0 });
  const one = serialise(reply, { ...body, timestamp: 1 });
  let at = 0;
  while (at < zero.length && zero[at] === one[at]) at++;
  const cut = [zero.slice(0, at), zero.slice(at + 1)] as const;
  if (zero !== `${cut[0]}0${cut[1]}` || one !== `${cut[0]}1${cut[1]}`)
    throw new Error('the serialised answer differs in more than its timestamp');
  return cut;
}
