import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createBaseApp } from './base-app.js';

const BODY = {
  type: 'object',
  required: ['amount'],
  additionalProperties: false,
  properties: { amount: { type: 'string', pattern: '^[0-9]+$' } },
} as const;
const ANSWER = { type: 'object', properties: { amount: { type: 'string' } } } as const;
const OTHER_ANSWER = { type: 'object', properties: { total: { type: 'string' } } } as const;

interface Compiled {
  readonly validate: unknown;
  readonly serialize: unknown;
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A base app with one route on the given schemas; each answer reports the functions Fastify compiled for it. */
async function appWith(answer: object): Promise<{ app: FastifyInstance; compiled: () => Promise<Compiled> }> {
  const app = await createBaseApp({ bodyLimitBytes: 1_024, trustProxy: false, slowRequestMs: 1_000 }, pino({ level: 'silent' }), {
    title: 'test',
    description: 'test',
    notFound: true,
  });
  let seen: Compiled | undefined;
  app.post('/echo', { schema: { body: BODY, response: { 200: answer } } }, async (request, reply) => {
    seen = { validate: request.getValidationFunction('body'), serialize: reply.getSerializationFunction('200') };
    return { amount: (request.body as { amount: string }).amount, total: '7' };
  });
  await app.ready();
  apps.push(app);
  return {
    app,
    compiled: async () => {
      const reply = await app.inject({ method: 'POST', url: '/echo', payload: { amount: '42' } });
      expect(reply.statusCode).toBe(200);
      if (seen === undefined) throw new Error('the route did not run');
      return seen;
    },
  };
}

describe('the schema compilers every app shares', () => {
  it('compile a schema object once for all the apps of the process', async () => {
    const first = await appWith(ANSWER);
    const second = await appWith(ANSWER);
    const [a, b] = [await first.compiled(), await second.compiled()];
    expect(b.validate).toBe(a.validate);
    expect(b.serialize).toBe(a.serialize);
  });

  it('compile another schema on its own, and each app answers by its own', async () => {
    const first = await appWith(ANSWER);
    const second = await appWith(OTHER_ANSWER);
    expect((await second.compiled()).serialize).not.toBe((await first.compiled()).serialize);
    const answers = await Promise.all(
      [first.app, second.app].map((app) => app.inject({ method: 'POST', url: '/echo', payload: { amount: '42' } })),
    );
    expect(answers.map((reply) => reply.json())).toEqual([{ amount: '42' }, { total: '7' }]);
  });

  it('still refuse a bad body in every app, in words', async () => {
    for (const { app } of [await appWith(ANSWER), await appWith(ANSWER)]) {
      const reply = await app.inject({ method: 'POST', url: '/echo', payload: { amount: '4.2' } });
      expect(reply.statusCode).toBe(400);
      expect(reply.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(reply.json().error).toMatch(/body\.amount/);
    }
  });
});
