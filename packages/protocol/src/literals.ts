import { type TLiteral, type TSchemaOptions, type TUnion, Type } from 'typebox';

/**
 * A union of string literals from a constant list, so that the list code iterates and the schema
 * cannot disagree. `Type.Union` over a plain mapped array would lose the literals in its static type.
 */
export function literalUnion<const Values extends readonly string[]>(
  values: Values,
  options?: TSchemaOptions,
): TUnion<{ -readonly [Index in keyof Values]: TLiteral<Values[Index]> }> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as unknown as TUnion<{ -readonly [Index in keyof Values]: TLiteral<Values[Index]> }>;
}
