import { expect } from 'vitest';
import type { Reply, Trader } from './trader.js';

/** A 503 with exactly the common error body, and one of the storage codes. */
export function expectStorageRefusal(reply: Pick<Reply, 'status' | 'body'>, codes: readonly string[]): void {
  expect(reply.status).toBe(503);
  expect(Object.keys(reply.body).sort()).toEqual(['code', 'error']);
  expect(typeof reply.body.error).toBe('string');
  expect(codes).toContain(reply.body.code);
}

/** The trader's orders and their status, as GET /orders lists them. */
export async function ordersOf(trader: Trader): Promise<Map<number, string>> {
  const reply = await trader.request<{ orders: { id: number; status: string }[] }>('GET', '/orders?limit=500');
  if (reply.status !== 200) throw new Error(`GET /orders answered ${reply.status}`);
  return new Map(reply.body.orders.map((order) => [Number(order.id), order.status]));
}
