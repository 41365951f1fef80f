import type { EngineEvent, FillEvent, OrderEvent } from '../book/events.js';
import { MatchingEngine, type MatchingEngineOptions } from '../book/matching-engine.js';
import type { PlaceOrder, Side } from '../book/types.js';
import type { GridSpec } from '../grid.js';

/** Builder-style order fixture: a GTC limit order unless told otherwise; the price in ticks. */
export function limit(
  id: number,
  side: Side,
  price: number | bigint,
  quantity: number,
  extra: Partial<PlaceOrder> = {},
): PlaceOrder {
  return {
    id,
    side,
    price: BigInt(price),
    quantity,
    timeInForce: 'GTC',
    makerOnly: false,
    takerOnce: false,
    time: 1_000 + id,
    ...extra,
  };
}

/** An engine whose events are recorded in order. */
export function recordingEngine(options: MatchingEngineOptions = {}): { engine: MatchingEngine; events: EngineEvent[] } {
  const events: EngineEvent[] = [];
  const engine = new MatchingEngine((event) => events.push(event), options);
  return { engine, events };
}

export function fillsOf(events: readonly EngineEvent[]): FillEvent[] {
  return events.filter((event): event is FillEvent => event.type === 'fill');
}

export function statusesOf(events: readonly EngineEvent[], orderId: number): string[] {
  return events
    .filter((event): event is OrderEvent => event.type === 'order' && event.orderId === orderId)
    .map((event) => (event.reason ? `${event.status}:${event.reason}` : event.status));
}

/** WHBAR (8 decimals) priced in USDC (6 decimals): one tick times one size step is exactly 1 raw USDC. */
export const HBAR_USDC_GRID: GridSpec = {
  baseDecimals: 8,
  quoteDecimals: 6,
  tickStep: '0.00001',
  sizeStep: '0.1',
  lotSize: 100_000_000n,
  minNotional: 1_000_000n,
};
