import { DEVNET_TOKENS } from '../application/markets/seed.js';

/** EVM addresses of the devnet seed's tokens, by symbol. */
export const DEVNET_ADDRESS = Object.fromEntries(DEVNET_TOKENS.map((token) => [token.symbol, token.evmAddress])) as Record<
  'WHBAR' | 'USDC' | 'SAUCE' | 'HBAR',
  string
>;
