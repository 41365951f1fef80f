import { Type } from 'typebox';

/** Query values are kept as strings and interpreted by the route (defaults and 400s need that). */
export const QueryValue = Type.Union([Type.String(), Type.Array(Type.String())]);
