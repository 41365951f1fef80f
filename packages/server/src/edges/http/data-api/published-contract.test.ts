import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dataGet,
  type Harness,
  issueApiKey,
  type Reply,
  seedBookOneDepth,
  startHarness,
  tradeOnBookOne,
} from '../../../test-support/harness.js';
import { recordPool, STAKER } from '../../../test-support/pools.js';
import {
  type FieldType,
  PUBLISHED_PATHS,
  PUBLISHED_SCHEMAS,
  type PublishedPath,
  SLASHED_SAMPLES,
} from '../../../test-support/published-schemas.js';
import { answerProblems, isSchemaName, valueProblems } from '../../../test-support/published-shapes.js';

/**
 * Walks every path of the data API's published OpenAPI document against the real app with a real
 * key, real trades on the devnet books and a pool, farm and stake in the run's own store, and
 * checks each answer's container and every field's JSON type against the published schemas
 * (published-schemas.ts); the OpenAPI document the app serves must declare the same types, which
 * covers the lists that are empty until the AMM exists.
 */

const START_S = Date.UTC(2026, 10, 22, 12, 0, 0) / 1_000;
const PARAMETERS: Record<string, string> = { tokenId: '0.0.1002', poolId: '1', accountId: STAKER };
const QUERY: Record<string, string> = {
  from: String(START_S - 86_400),
  to: String(START_S + 60),
  interval: 'HOUR',
  field: 'VOLUME',
};

/** Published paths that answer an error here, and why. */
const REFUSED: Record<string, { status: number; code: string }> = {
  // The exchange has no V2 pools.
  '/v2/pools/{poolId}': { status: 404, code: 'POOL_NOT_FOUND' },
  '/v2/pools/conversionRates/{poolId}': { status: 404, code: 'POOL_NOT_FOUND' },
};

/** Lists that stay empty here: the hand-recorded pool has no history from the chain, and V2 pools do not exist (amm-data-api.test.ts walks them with chain data). */
const EMPTY_UNTIL_AMM = /^\/(pools\/(daily|weekly|monthly|yearly|conversionRates)|v2\/)/;

interface JsonSchema {
  readonly type?: string;
  readonly nullable?: boolean;
  readonly properties?: Record<string, JsonSchema>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly additionalProperties?: JsonSchema | boolean;
}

/** Where a schema of the served OpenAPI document differs from a published type. */
function schemaProblems(schema: JsonSchema | undefined, type: FieldType, at: string): string[] {
  if (schema === undefined) return [`${at}: not declared`];
  if (isSchemaName(type)) {
    if (schema.type !== 'object') return [`${at}: declared ${schema.type}, not a ${type} object`];
    return Object.entries(PUBLISHED_SCHEMAS[type]).flatMap(([name, field]) => [
      ...(schema.required?.includes(name) ? [] : [`${at}.${name}: not required`]),
      ...schemaProblems(schema.properties?.[name], field, `${at}.${name}`),
    ]);
  }
  const declared = schema.type === 'integer' && type === 'number' ? 'number' : schema.type;
  const nullable = schema.nullable === true;
  const fits = type === 'string|null' ? declared === 'string' : declared === type && !nullable;
  return fits ? [] : [`${at}: declared ${schema.type}${nullable ? ' or null' : ''}, published ${type}`];
}

function declaredProblems(schema: JsonSchema | undefined, published: PublishedPath): string[] {
  const { answer, schema: type } = published;
  if (answer === 'array') return schema?.type === 'array' ? schemaProblems(schema.items, type, '[]') : ['not declared an array'];
  if (answer === 'map') {
    const values = schema?.additionalProperties;
    return typeof values === 'object' ? schemaProblems(values, type, '{}') : ['not declared a map'];
  }
  return schemaProblems(schema, type, '');
}

/** A published path with its parameters filled and its required query. */
function urlOf(published: PublishedPath): string {
  const path = published.path.replace(/\{(\w+)\}/g, (_match, name: string) => PARAMETERS[name] ?? name);
  const query = (published.query ?? []).map((name) => `${name}=${QUERY[name]}`).join('&');
  return query === '' ? path : `${path}?${query}`;
}

let harness: Harness;
let key: string;
let paths: Record<string, { get: { responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }> } }>;

beforeAll(async () => {
  harness = await startHarness();
  await seedBookOneDepth(harness);
  await tradeOnBookOne(harness, () => harness.clock.advance(1_000));
  await recordPool(harness);
  key = (await issueApiKey(harness, 10_000)).key;
  paths = (await harness.app.inject({ url: '/docs/json' })).json().paths;
});

afterAll(async () => {
  await harness.close();
});

function get(url: string): Promise<Reply<unknown>> {
  return dataGet<unknown>(harness, url, key);
}

describe('the published data API', () => {
  it('has 44 paths, each encoded once', () => {
    expect(new Set(PUBLISHED_PATHS.map((published) => published.path)).size).toBe(44);
  });

  it.each(PUBLISHED_PATHS.map((published) => [published.path, published] as const))(
    '%s answers the published shape with real data behind it',
    async (path, published) => {
      const reply = await get(urlOf(published));
      const refused = REFUSED[path];
      if (refused !== undefined) {
        expect(reply).toMatchObject({ status: refused.status, body: { error: expect.any(String), code: refused.code } });
        return;
      }
      expect(reply.status).toBe(200);
      expect(answerProblems(reply.body, published)).toEqual([]);
      if (published.answer !== 'object' && !EMPTY_UNTIL_AMM.test(path)) {
        expect(Object.keys(reply.body as object).length, 'a list with data behind it').toBeGreaterThan(0);
      }
    },
  );

  it.each(PUBLISHED_PATHS.map((published) => [published.path, published] as const))(
    '%s is declared with the published types in the served OpenAPI document',
    (path, published) => {
      const declared = paths[`${harness.config.dataApi.prefix}${path}`]?.get.responses['200']?.content?.['application/json'];
      expect(declaredProblems(declared?.schema, published)).toEqual([]);
    },
  );

  it.each(SLASHED_SAMPLES)('answers the docs sample %s like the path without its slash', async (slashed) => {
    const reply = await get(slashed);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual((await get(slashed.slice(0, -1))).body);
  });
});

describe('the shape check', () => {
  it('fails on a field of another type, a missing field and a wrong container', async () => {
    const tokens = PUBLISHED_PATHS.find((published) => published.path === '/tokens/full') as PublishedPath;
    const body = (await get('/tokens/full')).body as Record<string, unknown>[];
    expect(answerProblems(body, tokens)).toEqual([]);
    const [first, ...rest] = body;
    expect(answerProblems([{ ...first, decimals: '8' }, ...rest], tokens)).toEqual(['[0].decimals: expected integer, got "8"']);
    expect(answerProblems([{ ...first, price: 100000000 }], tokens)).toEqual(['[0].price: expected string, got 100000000']);
    const { icon: _icon, ...withoutIcon } = first as Record<string, unknown>;
    expect(answerProblems([withoutIcon], tokens)).toEqual(['[0].icon: missing']);
    expect(answerProblems(first, tokens)).toEqual(['expected an array']);
    expect(valueProblems(1.5, 'integer', 'open')).toEqual(['open: expected integer, got 1.5']);
    expect(schemaProblems({ type: 'string' }, 'integer', 'open')).toEqual(['open: declared string, published integer']);
    expect(schemaProblems({ type: 'string', nullable: true }, 'string', 'icon')).toEqual([
      'icon: declared string or null, published string',
    ]);
  });
});
