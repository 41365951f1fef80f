import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>;
type SerializerCompiler = ReturnType<SerializerFactory>;
type Serializer = ReturnType<SerializerCompiler>;

const compileSerializersWith = SerializerSelector();
/** One memoising compiler per set of shared schemas and options, as @fastify/ajv-compiler pools its Ajv instances. */
const serializerPool = new Map<string, SerializerCompiler>();

/** A response serializer compiler that compiles each schema object once, whichever app asks. */
function buildSerializer(...[externalSchemas, options]: Parameters<SerializerFactory>): SerializerCompiler {
  const key = JSON.stringify([externalSchemas, options]);
  const pooled = serializerPool.get(key);
  if (pooled !== undefined) return pooled;
  const compile = compileSerializersWith(externalSchemas, options);
  const compiled = new WeakMap<object, Serializer>();
  const memoised: SerializerCompiler = (route) => {
    const schema = route.schema;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let serializer = compiled.get(schema);
    if (serializer === undefined) {
      serializer = compile(route);
      compiled.set(schema, serializer);
    }
    return serializer;
  };
  serializerPool.set(key, memoised);
  return memoised;
}

/**
 * The compilers of every app this process builds. Fastify compiles each route's validators and
 * serializers as an app becomes ready, and that is most of the time it takes to start: the route
 * schemas are module constants, so a process that builds apps again (ROLE=all's listeners, a
 * restart in place, the test harness) compiles each of them once. Validators share one pooled Ajv,
 * which keeps what it compiled by schema object.
 */
export const SHARED_SCHEMA_COMPILERS: CompilersFactory = {
  buildValidator: AjvCompiler(),
  buildSerializer,
};
