import { Type } from 'typebox';
import { ERROR_CATALOGUE } from '../../domain/errors.js';

export const ErrorBodySchema = Type.Object(
  {
    error: Type.String({ description: 'Human-readable message' }),
    code: Type.Union(
      Object.keys(ERROR_CATALOGUE).map((code) => Type.Literal(code)),
      { description: 'Stable machine code (see docs/errors.md)' },
    ),
    index: Type.Optional(Type.Integer({ minimum: 0, description: 'Position of the offending item in a batch request' })),
  },
  { description: 'The error body of every route and status' },
);

/** Error responses to document on a route, by status. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBodySchema]));
}
