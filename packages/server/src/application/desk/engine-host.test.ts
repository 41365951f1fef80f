import { BUY, SELL } from '@dex/core';
import { limit } from '@dex/core/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test-support/harness.js';

let harness: Harness;

beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

describe('EngineHost', () => {
  it('returns the events of the executed commands only', () => {
    const { engines } = harness.services;
    const events = engines.execute(2, [{ type: 'place', ...limit(900_001, BUY, 100, 10) }]);
    expect(events.map((event) => event.type)).toEqual(['order', 'depth']);
    expect(engines.execute(2, [])).toEqual([]);
  });

  it('refuses a book it has no engine for', () => {
    expect(() => harness.services.engines.execute(99, [])).toThrow(/no engine for book 99/);
  });

  it('follows halts and resumptions of the registry', async () => {
    const { store, registry, engines } = harness.services;
    await store.books.update(3, { isHalted: true }, harness.clock.now());
    await registry.load();
    const [rejected] = engines.execute(3, [{ type: 'place', ...limit(900_002, BUY, 100, 10) }]);
    expect(rejected).toMatchObject({ status: 'REJECTED', reason: 'MARKET_HALTED' });
    await store.books.update(3, { isHalted: false }, harness.clock.now());
    await registry.load();
    expect(engines.engine(3)?.isHalted).toBe(false);
  });

  it('puts recovered orders back in their priority and continues the update ids', () => {
    const { engines } = harness.services;
    const original = engines.engine(2);
    original?.restore({ id: 1, side: SELL, price: 120n, quantity: 10, remaining: 4 });
    original?.restore({ id: 2, side: SELL, price: 120n, quantity: 5, remaining: 5 });
    expect(original?.depth().asks).toEqual([[120n, 9]]);
    const [fill] = engines.execute(2, [{ type: 'place', ...limit(3, BUY, 120, 6) }]).filter((event) => event.type === 'fill');
    expect(fill).toMatchObject({ makerId: 1, quantity: 4 });
  });
});
