import { describe, expect, it } from 'vitest';
import { marketHref, parseRoute } from './router.js';

describe('parseRoute', () => {
  it('shows the markets list for an empty fragment or "#/"', () => {
    expect(parseRoute('')).toEqual({ name: 'markets' });
    expect(parseRoute('#')).toEqual({ name: 'markets' });
    expect(parseRoute('#/')).toEqual({ name: 'markets' });
  });

  it('reads a market id, with or without a trailing slash', () => {
    expect(parseRoute('#/market/3')).toEqual({ name: 'market', orderbookId: '3' });
    expect(parseRoute('#/market/12/')).toEqual({ name: 'market', orderbookId: '12' });
  });

  it('reads the pools and farms pages, with or without a trailing slash', () => {
    expect(parseRoute('#/pools')).toEqual({ name: 'pools' });
    expect(parseRoute('#/farms/')).toEqual({ name: 'farms' });
  });

  it('calls anything else not found, keeping the path to show', () => {
    expect(parseRoute('#/market/')).toEqual({ name: 'not-found', path: '/market/' });
    expect(parseRoute('#/market/abc')).toEqual({ name: 'not-found', path: '/market/abc' });
    expect(parseRoute('#/market/1/trades')).toEqual({ name: 'not-found', path: '/market/1/trades' });
    expect(parseRoute('#/nowhere')).toEqual({ name: 'not-found', path: '/nowhere' });
    expect(parseRoute('#/pools/1')).toEqual({ name: 'not-found', path: '/pools/1' });
  });

  it('reads back the links it makes', () => {
    expect(parseRoute(marketHref(7))).toEqual({ name: 'market', orderbookId: '7' });
  });
});
