/** One file of the built web page, read once at start and served from memory. */
export interface WebAsset {
  readonly body: Buffer;
  readonly contentType: string;
  /** Its name carries a hash of its content (Vite's `assets/`): cacheable for good. */
  readonly immutable: boolean;
}

/** The built web page by URL path (`/index.html`, `/assets/index-3f2a.js`). */
export type WebAssets = ReadonlyMap<string, WebAsset>;
