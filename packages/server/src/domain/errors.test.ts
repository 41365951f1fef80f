import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CATALOGUE } from './errors.js';

const docs = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../../docs/errors.md'), 'utf8');

/** Rows of the markdown table: | CODE | status | message | */
function documented(): Record<string, { status: number; message: string }> {
  const rows = docs.split('\n').filter((line) => /^\| [A-Z_]+ +\| \d{3} +\|/.test(line));
  return Object.fromEntries(
    rows.map((line) => {
      const [code, status, message] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim());
      return [code as string, { status: Number(status), message: message as string }];
    }),
  );
}

describe('error catalogue', () => {
  it('is documented in docs/errors.md, code for code, with the same status and message', () => {
    expect(documented()).toEqual(ERROR_CATALOGUE);
  });

  it('gives every code a client or server status', () => {
    for (const { status } of Object.values(ERROR_CATALOGUE))
      expect(status === 500 || status === 503 || (status >= 400 && status < 500)).toBe(true);
  });

  it('renders the wire body with the catalogue message unless a precise one is given', () => {
    expect(new AppError('INVALID_SORT').toBody()).toEqual({ error: 'sort must be asc or desc', code: 'INVALID_SORT' });
    expect(new AppError('INVALID_AMOUNT', 'inputAmount must be greater than zero').toBody()).toEqual({
      error: 'inputAmount must be greater than zero',
      code: 'INVALID_AMOUNT',
    });
    expect(new AppError('NOT_FOUND').status).toBe(404);
  });
});
