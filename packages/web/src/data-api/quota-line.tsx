import type { Quota } from '@dex/sdk';

/** The page key's monthly quota as the last answer stated it: the operator sizes it for every visitor. */
export function QuotaLine({ quota }: { readonly quota: Quota | null | undefined }) {
  if (quota === null || quota === undefined) return null;
  return (
    <p class="muted" data-testid="quota">
      Data API quota of this page: {quota.remaining} of {quota.limit} requests left this month.
    </p>
  );
}
