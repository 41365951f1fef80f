/** The routes of a served OpenAPI document, as the hostile-input suite generates requests for them. */

/** A JSON schema as the document carries it (the parts the generators read). */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly enum?: readonly unknown[];
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
}

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly schema: JsonSchema;
}

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The templated path, `/depth/{orderbookId}`. */
  readonly path: string;
  readonly pathParams: readonly Parameter[];
  readonly query: readonly Parameter[];
  /** The JSON body's schema, when the route reads one. */
  readonly body: JsonSchema | undefined;
  readonly auth: 'bearer' | 'apiKey' | 'none';
}

interface OpenApiOperation {
  readonly parameters?: readonly { name: string; in: string; schema?: JsonSchema }[];
  readonly requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  readonly security?: readonly Record<string, unknown>[];
}

export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, OpenApiOperation>>;
}

function authOf(operation: OpenApiOperation): Route['auth'] {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('bearer')) return 'bearer';
  if (schemes.includes('apiKey')) return 'apiKey';
  return 'none';
}

/** Every path and method of the document. */
export function routesOf(document: OpenApiDocument): Route[] {
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = (operation.parameters ?? []).map((parameter) => ({
        name: parameter.name,
        in: parameter.in as Parameter['in'],
        schema: parameter.schema ?? {},
      }));
      routes.push({
        method: method.toUpperCase() as Route['method'],
        path,
        pathParams: parameters.filter((parameter) => parameter.in === 'path'),
        query: parameters.filter((parameter) => parameter.in === 'query'),
        body: operation.requestBody?.content?.['application/json']?.schema,
        auth: authOf(operation),
      });
    }
  }
  return routes;
}

/** Fetches and reads the document a service serves at `/docs/json`. */
export async function servedRoutes(baseUrl: string): Promise<Route[]> {
  const response = await fetch(`${baseUrl}/docs/json`);
  if (response.status !== 200) throw new Error(`GET /docs/json answered ${response.status}`);
  return routesOf((await response.json()) as OpenApiDocument);
}
