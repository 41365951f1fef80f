import { type FieldType, PUBLISHED_SCHEMAS, type PublishedPath, type SchemaName } from './published-schemas.js';

/** Checks JSON answers against the data API's published schemas (published-schemas.ts). */

export function isSchemaName(type: string): type is SchemaName {
  return Object.hasOwn(PUBLISHED_SCHEMAS, type);
}

/** Where a JSON value differs from a published type, as readable lines; none when it fits. */
export function valueProblems(value: unknown, type: FieldType, at: string): string[] {
  if (isSchemaName(type)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: expected a ${type} object`];
    const fields = Object.entries(PUBLISHED_SCHEMAS[type]);
    return fields.flatMap(([name, field]) =>
      name in value
        ? valueProblems((value as Record<string, unknown>)[name], field, `${at}.${name}`)
        : [`${at}.${name}: missing`],
    );
  }
  const fits =
    type === 'string|null'
      ? value === null || typeof value === 'string'
      : type === 'integer'
        ? Number.isInteger(value)
        : type === 'number'
          ? typeof value === 'number' && Number.isFinite(value)
          : typeof value === type;
  return fits ? [] : [`${at}: expected ${type}, got ${JSON.stringify(value)}`];
}

export function answerProblems(body: unknown, published: PublishedPath): string[] {
  const { answer, schema } = published;
  if (answer === 'array') {
    if (!Array.isArray(body)) return ['expected an array'];
    return body.flatMap((item, index) => valueProblems(item, schema, `[${index}]`));
  }
  if (answer === 'map') {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return ['expected an object'];
    return Object.entries(body).flatMap(([key, value]) => valueProblems(value, schema, key));
  }
  return valueProblems(body, schema, '');
}
