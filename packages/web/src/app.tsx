import { AccountPanel } from './account/account-panel.js';
import { FarmsPage } from './pages/farms-page.js';
import { MarketPage } from './pages/market-page.js';
import { MarketsPage } from './pages/markets-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { PoolsPage } from './pages/pools-page.js';
import { FARMS_HREF, MARKETS_HREF, POOLS_HREF, type Route } from './router.js';
import { useRoute } from './use-route.js';

function Header({ route }: { readonly route: Route }) {
  return (
    <header class="site-header">
      <a class="brand" href={MARKETS_HREF}>
        DEX Exchange
      </a>
      <nav aria-label="Main">
        <ul>
          <li>
            <a href={MARKETS_HREF} aria-current={route.name === 'markets' ? 'page' : undefined}>
              Markets
            </a>
          </li>
          <li>
            <a href={POOLS_HREF} aria-current={route.name === 'pools' ? 'page' : undefined}>
              Pools
            </a>
          </li>
          <li>
            <a href={FARMS_HREF} aria-current={route.name === 'farms' ? 'page' : undefined}>
              Farms
            </a>
          </li>
        </ul>
      </nav>
    </header>
  );
}

function Page({ route }: { readonly route: Route }) {
  switch (route.name) {
    case 'markets':
      return <MarketsPage />;
    case 'market':
      // A fresh page per book: no state of one market survives into another.
      return <MarketPage key={route.orderbookId} orderbookId={route.orderbookId} />;
    case 'pools':
      return <PoolsPage />;
    case 'farms':
      return <FarmsPage />;
    case 'not-found':
      return <NotFoundPage path={route.path} />;
  }
}

/** The fragment holds the route, so skipping moves focus itself rather than linking to `#main`. */
function skipToContent() {
  document.getElementById('main')?.focus();
}

export function App() {
  const route = useRoute();
  return (
    <>
      <button type="button" class="skip-link" onClick={skipToContent}>
        Skip to content
      </button>
      <Header route={route} />
      <AccountPanel />
      <main id="main" tabIndex={-1}>
        <Page route={route} />
      </main>
    </>
  );
}
