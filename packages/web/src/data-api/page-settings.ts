/** What the service tells the page at load, in `<meta name="dex-page-settings">` (see the server's web-page routes). */
export interface PageSettings {
  /** The data API on this origin and the key the operator gave the page; absent: no pools or farms pages. */
  readonly dataApi?: { readonly path: string; readonly apiKey: string };
  /** The network asks a logged-in account to accept the operator's texts before the page offers trading. */
  readonly terms?: true;
}

function dataApiOf(dataApi: unknown): Pick<PageSettings, 'dataApi'> {
  if (typeof dataApi !== 'object' || dataApi === null) return {};
  const { path, apiKey } = dataApi as { path?: unknown; apiKey?: unknown };
  return typeof path === 'string' && typeof apiKey === 'string' && apiKey !== '' ? { dataApi: { path, apiKey } } : {};
}

/** The settings of a meta tag's content; anything malformed reads as none, so the page still shows its markets. */
export function parsePageSettings(content: string | null | undefined): PageSettings {
  if (content === null || content === undefined || content === '') return {};
  try {
    const parsed: unknown = JSON.parse(content);
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { dataApi, terms } = parsed as { dataApi?: unknown; terms?: unknown };
    return { ...dataApiOf(dataApi), ...(terms === true ? { terms } : {}) };
  } catch {
    return {};
  }
}
