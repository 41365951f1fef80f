/** Said instead of a pools or farms page when the operator gave the page no data API key. */
export function DataApiAbsent({ what }: { readonly what: string }) {
  return (
    <p class="notice" data-testid="data-api-absent">
      No {what} here: the operator has not given this page a data API key (WEB_DATA_API_KEY).
    </p>
  );
}
