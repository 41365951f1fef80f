import { describe, expect, it } from 'vitest';
import { compileStatement } from './placeholders.js';

describe("the store's parameters in PostgreSQL's form", () => {
  it('numbers ? parameters in order and passes their values as given, bigints as text', () => {
    const compiled = compileStatement('SELECT * FROM t WHERE a = ? AND b IN (?, ?)');
    expect(compiled.text).toBe('SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)');
    expect(compiled.bind([1, 'x', 2n ** 70n])).toEqual([1, 'x', '1180591620717411303424']);
  });

  it('numbers @name parameters once each, however often a name is used', () => {
    const compiled = compileStatement('INSERT INTO t (a, b, c) VALUES (@now, @id, @now)');
    expect(compiled.text).toBe('INSERT INTO t (a, b, c) VALUES ($1, $2, $1)');
    expect(compiled.bind([{ id: 7, now: 1_000, unused: 'ignored' }])).toEqual([1_000, 7]);
  });

  it('leaves quoted text and identifiers alone, question marks and at signs included', () => {
    const compiled = compileStatement(`SELECT '?@x', "odd?name" FROM t WHERE a = ? AND b = 'it''s'`);
    expect(compiled.text).toBe(`SELECT '?@x', "odd?name" FROM t WHERE a = $1 AND b = 'it''s'`);
  });

  it('refuses a wrong number of values, a missing name, and a statement that mixes both styles', () => {
    expect(() => compileStatement('SELECT ?, ?').bind([1])).toThrow(RangeError);
    expect(() => compileStatement('SELECT @a, @b').bind([{ a: 1 }])).toThrow(/missing parameter @b/);
    expect(() => compileStatement('SELECT ?, @a')).toThrow(/mixes/);
    expect(() => compileStatement("SELECT 'open")).toThrow(/unterminated/);
  });

  it('keeps null as a value: a name bound to null is given, not missing', () => {
    expect(compileStatement('UPDATE t SET a = @a').bind([{ a: null }])).toEqual([null]);
  });
});
