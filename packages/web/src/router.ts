/** The page's routes, kept in the URL fragment so the service only ever serves `/`. */
export type Route =
  | { readonly name: 'markets' }
  | { readonly name: 'market'; readonly orderbookId: string }
  | { readonly name: 'pools' }
  | { readonly name: 'farms' }
  | { readonly name: 'not-found'; readonly path: string };

const MARKET_PATH = /^\/market\/(\d+)\/?$/;
const DATA_PAGES = /^\/(pools|farms)\/?$/;

/** The route of a `location.hash` such as "#/market/3"; an empty fragment is the markets list. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  if (path === '' || path === '/') return { name: 'markets' };
  const market = MARKET_PATH.exec(path);
  if (market?.[1] !== undefined) return { name: 'market', orderbookId: market[1] };
  const dataPage = DATA_PAGES.exec(path)?.[1];
  if (dataPage === 'pools' || dataPage === 'farms') return { name: dataPage };
  return { name: 'not-found', path };
}

export const MARKETS_HREF = '#/';
export const POOLS_HREF = '#/pools';
export const FARMS_HREF = '#/farms';

export function marketHref(orderbookId: string | number): string {
  return `#/market/${encodeURIComponent(String(orderbookId))}`;
}
