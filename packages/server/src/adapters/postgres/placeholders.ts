import type { SqlParameters, SqlValue } from '../sql/sql-client.js';

/** A statement in PostgreSQL's `$n` form, and how to order its parameters for it. */
export interface CompiledStatement {
  readonly text: string;
  readonly bind: (parameters: SqlParameters) => SqlValue[];
}

/** bigint parameters as decimal text: the server casts them to the column's type. */
const wire = (value: SqlValue): SqlValue => (typeof value === 'bigint' ? value.toString() : value);

/**
 * Turns the store's `?` (in order) or `@name` parameters into `$1`, `$2`, ...: a name used twice
 * is one parameter. Quoted text and identifiers are left as they are; a statement uses one
 * style, as SQLite requires too.
 */
export function compileStatement(source: string): CompiledStatement {
  const names: string[] = [];
  let positional = 0;
  let text = '';
  for (let index = 0; index < source.length; index++) {
    const char = source[index] as string;
    if (char === "'" || char === '"') {
      const end = source.indexOf(char, index + 1);
      if (end < 0) throw new Error(`unterminated quote in statement: ${source}`);
      text += source.slice(index, end + 1);
      index = end;
    } else if (char === '?') {
      positional++;
      text += `$${positional}`;
    } else if (char === '@' && /[A-Za-z_]/.test(source[index + 1] ?? '')) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(index + 1))?.[0] as string;
      let number = names.indexOf(name) + 1;
      if (number === 0) number = names.push(name);
      text += `$${number}`;
      index += name.length;
    } else {
      text += char;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error(`a statement mixes ? and @name parameters: ${source}`);
  if (names.length === 0) {
    return {
      text,
      bind: (parameters) => {
        if (parameters.length !== positional) {
          throw new RangeError(`the statement takes ${positional} parameters, given ${parameters.length}: ${source}`);
        }
        return (parameters as readonly SqlValue[]).map(wire);
      },
    };
  }
  return {
    text,
    bind: (parameters) => {
      const [values] = parameters as [Readonly<Record<string, SqlValue>>];
      return names.map((name) => {
        const value = values?.[name];
        if (value === undefined) throw new RangeError(`missing parameter @${name} of: ${source}`);
        return wire(value);
      });
    },
  };
}
