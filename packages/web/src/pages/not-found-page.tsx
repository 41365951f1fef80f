import { MARKETS_HREF } from '../router.js';

export function NotFoundPage({ path }: { readonly path: string }) {
  return (
    <section class="page not-found" data-testid="not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>
        There is no page at <code>{path}</code>.
      </p>
      <p>
        <a href={MARKETS_HREF}>See all markets</a>
      </p>
    </section>
  );
}
