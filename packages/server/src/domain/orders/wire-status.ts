import type { OrderState } from './order-records.js';

/**
 * Order statuses as the live API words them: a resting order without fills is `ACTIVE` (the store
 * and the engine call it OPEN). The other words are the same on both sides.
 */
export type WireOrderStatus = 'ACTIVE' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED' | 'REJECTED';

export function wireStatus(state: OrderState): WireOrderStatus {
  return state === 'OPEN' ? 'ACTIVE' : state;
}

/** Filter words, case-insensitive: the live words, and the older OPEN and the CANCELLED spelling clients also send. */
const FILTER_WORDS: ReadonlyMap<string, OrderState> = new Map<string, OrderState>([
  ['ACTIVE', 'OPEN'],
  ['OPEN', 'OPEN'],
  ['PARTIALLY_FILLED', 'PARTIALLY_FILLED'],
  ['FILLED', 'FILLED'],
  ['CANCELED', 'CANCELED'],
  ['CANCELLED', 'CANCELED'],
  ['EXPIRED', 'EXPIRED'],
  ['REJECTED', 'REJECTED'],
]);

/** The state a status filter word names, or undefined for a word no client means. */
export function stateOfStatusWord(word: string): OrderState | undefined {
  return FILTER_WORDS.get(word.trim().toUpperCase());
}

export const STATUS_FILTER_WORDS: readonly string[] = [...FILTER_WORDS.keys()];
