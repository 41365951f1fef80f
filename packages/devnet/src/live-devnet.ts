import { MarketMaker, type ReferencePrices } from '@dex/market-maker';
import { ed25519Signer, secp256k1Signer } from '@dex/sdk';
import {
  type Companion,
  DEVNET_NATIVE_TOKEN_ID,
  DEVNET_PROTOCOL_TOKEN_ID,
  DEVNET_USD_TOKEN_ID,
  type DevnetHost,
  devnetIssuer,
  type MarketMakerConfig,
  type ServiceLogger,
} from '@dex/server';
import { provisionBotAccounts, topUpBotAccounts } from './market-maker-accounts.js';
import type { PoolDrift } from './pool-drift.js';
import { type PoolLiquidity, startPoolLiquidity } from './pool-liquidity.js';

/**
 * Where the seeded books start before their first trade, in USD: WHBAR/USDC 0.25, SAUCE/USDC 0.05,
 * SAUCE/WHBAR 0.2. The native coin has none: the bot leaves HBAR/USDC alone, since the SDK's check
 * of a built order does not yet accept the wrapped token for a request that names the native coin.
 */
export const DEVNET_REFERENCE_PRICES: ReferencePrices = {
  [DEVNET_NATIVE_TOKEN_ID]: '0.25',
  [DEVNET_USD_TOKEN_ID]: '1',
  [DEVNET_PROTOCOL_TOKEN_ID]: '0.05',
};

/** How often the bot accounts' balances are checked against the top-up mark. */
const TOP_UP_CHECK_MS = 60_000;

export interface LiveDevnet extends Companion {
  /** Resolves once the bot runs (or could not start, which is logged); for tests. */
  readonly started: Promise<MarketMaker | undefined>;
  /** Resolves once the pools are seeded and drift (or with undefined: no AMM, or a failure, logged); for tests. */
  readonly pools: Promise<PoolDrift | undefined>;
  /** Stops the bot (cancelling its resting orders), the pool drift and the top-ups; call before the server closes. */
  stop(): Promise<void>;
}

/** A loopback URL for a server bound to every interface (`0.0.0.0`, `::`). */
function loopbackUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
  if (parsed.hostname === '[::]') parsed.hostname = '[::1]';
  return parsed.origin;
}

/**
 * The live devnet of `npm start`: provisions the bot's accounts, then runs the market maker
 * against the listening API over HTTP, like any integrator, in this process (its signing costs
 * well under a millisecond per order). It never delays the API and never stops it: a failure to
 * start is logged, and the bot itself only logs its errors.
 */
export function startLiveDevnet(
  server: { readonly services: DevnetHost; readonly url: string },
  config: MarketMakerConfig,
  logger: ServiceLogger,
): LiveDevnet {
  const log = logger.child({ component: 'market-maker' });
  let stopped = false;
  let topUps: NodeJS.Timeout | undefined;
  let pools: PoolLiquidity | undefined;
  const started = (async () => {
    const issuer = devnetIssuer(server.services);
    const accounts = await provisionBotAccounts(server.services, issuer);
    if (stopped) return undefined;
    const bot = new MarketMaker({
      baseUrl: loopbackUrl(server.url),
      maker: ed25519Signer(accounts.maker.secretKey, { account: accounts.maker.record.accountId }),
      taker: secp256k1Signer(accounts.taker.secretKey, { account: accounts.taker.record.accountId }),
      logger: log,
      intervalMs: config.intervalMs,
      referencePrices: DEVNET_REFERENCE_PRICES,
    });
    bot.start();
    // After the bot's accounts, so theirs keep the first devnet ids.
    pools = startPoolLiquidity(server.services, issuer, DEVNET_REFERENCE_PRICES, logger.child({ component: 'liquidity' }));
    if (issuer !== null) {
      let topping = false;
      topUps = setInterval(() => {
        if (topping) return;
        topping = true;
        topUpBotAccounts(server.services, accounts, issuer)
          .then((count) => count > 0 && log.info({ accounts: count }, 'market maker accounts topped up'))
          .catch((error: unknown) => log.warn({ err: error }, 'topping up the market maker accounts failed'))
          .finally(() => {
            topping = false;
          });
      }, TOP_UP_CHECK_MS);
      topUps.unref();
    }
    return bot;
  })().catch((error: unknown) => {
    log.error({ err: error }, 'the market maker could not start; the API runs without it');
    return undefined;
  });
  return {
    name: 'market maker',
    started,
    // Without a bot there are no pools either.
    pools: started.then(() => pools?.started),
    stop: async () => {
      stopped = true;
      clearInterval(topUps);
      const bot = await started;
      await Promise.all([bot?.stop(), pools?.stop()]);
    },
  };
}
