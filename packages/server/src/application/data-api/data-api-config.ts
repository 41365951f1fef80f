/** Where and how the key-authenticated data API is served, and what it prices with. */
export interface DataApiConfig {
  /** Its own port, or null: served on `port` under `prefix`. */
  readonly port: number | null;
  /** Path prefix of every data API route: '' or '/segment...'. */
  readonly prefix: string;
  /** API keys and monthly quotas; false (devnet only) serves without keys, for benchmarks and development. */
  readonly requireKeys: boolean;
  /** The wrapped native coin (priced at exactly one coin); null: nothing is priced in the native coin. */
  readonly nativeTokenId: string | null;
  /** The USD stablecoin whose book with the native token gives the native coin's USD price; null: no USD figures. */
  readonly usdTokenId: string | null;
  /** The protocol token of `/stats` (circulatingSauce); null: none. */
  readonly protocolTokenId: string | null;
  /** Lifetime of cached token lists, prices and stats. */
  readonly cacheMs: number;
}
