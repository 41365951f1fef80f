import type { TSchema } from 'typebox';
import { errorResponses } from '../schemas.js';

/** What every data API route documents about its authentication. */
export interface DataRouteDocs {
  /** Keys and quotas apply (false only on a devnet benchmark or development setup). */
  readonly requireKeys: boolean;
}

const QUOTA_NOTE =
  ' Needs `x-api-key`; every answer to a known key carries x-ratelimit-limit, -remaining, -additional-total and -reset (unix ms).';

/** The OpenAPI schema of a data API route: its summary, 200 body and error statuses (the key statuses included). */
export function dataRouteSchema(docs: DataRouteDocs, tag: string) {
  return (summary: string, description: string, body: TSchema, ...errors: number[]) => ({
    tags: [`data API: ${tag}`],
    summary,
    description: docs.requireKeys ? `${description}${QUOTA_NOTE}` : description,
    ...(docs.requireKeys ? { security: [{ apiKey: [] }] } : {}),
    response: { 200: body, ...errorResponses(...errors, ...(docs.requireKeys ? [401, 403, 429, 503] : [])) },
  });
}
