import { AppError } from './errors.js';

export type SortOrder = 'asc' | 'desc';

/** A query value given once; a repeated parameter is ambiguous and refused. */
export function single(value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) {
    if (value.length === 1) return value[0];
    throw new AppError('VALIDATION_FAILED', `${name} must be given once`);
  }
  return value;
}

/** A yes/no query flag: true or 1, false or 0 (any letter case); absent or empty is false. */
export function parseFlag(value: string | string[] | undefined, name: string): boolean {
  const text = single(value, name)?.toLowerCase();
  if (text === undefined || text === '' || text === 'false' || text === '0') return false;
  if (text === 'true' || text === '1') return true;
  throw new AppError('VALIDATION_FAILED', `${name} must be true or false`);
}

/** `sort`: asc or desc, desc when absent or empty; anything else is a 400. */
export function parseSort(value: unknown): SortOrder {
  if (value === undefined || value === '') return 'desc';
  if (value === 'asc' || value === 'desc') return value;
  throw new AppError('INVALID_SORT');
}

/**
 * `page` and `limit` as the trade tape rules say: a negative number is a 400; zero, a missing value
 * or anything that is not a whole number gives the default; limits above `max` are capped.
 */
export function parseCount(value: unknown, fallback: number, max: number = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'string') return fallback;
  if (/^[0-9]+$/.test(value)) {
    const count = Number(value);
    if (count === 0) return fallback;
    return Math.min(count, max);
  }
  const numeric = Number(value);
  if (value.trim() !== '' && numeric < 0) throw new AppError('NEGATIVE_PAGINATION');
  return fallback;
}

/** Row offset of a 1-based page, saturating instead of losing precision. */
export function offsetOf(page: number, limit: number): number {
  return Math.min((page - 1) * limit, Number.MAX_SAFE_INTEGER);
}
