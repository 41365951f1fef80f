import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AmmFactory, DevnetAccountKeyService, TestToken } from '@dex/contracts';
import { createClient, ed25519Signer, getOrderHistory, getOrders, getTrades, secp256k1Signer } from '@dex/sdk';
import { createLogger, devnetIssuer, isNativeCoin } from '@dex/server';
import { type Harness, RealTimeClock, startHarness, until } from '@dex/server/test-support';
import { type Address, getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { startLiveDevnet } from './live-devnet.js';
import { BOT_FUNDING_UNITS, type BotAccounts, provisionBotAccounts, topUpBotAccounts } from './market-maker-accounts.js';

const harnesses: Harness[] = [];

afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** The real service listening on loopback in a fresh folder. */
async function startService(env: Record<string, string>): Promise<Harness> {
  const harness = await startHarness(env, { listen: true, clock: new RealTimeClock() });
  harnesses.push(harness);
  return harness;
}

const signers = (accounts: BotAccounts) => ({
  maker: ed25519Signer(accounts.maker.secretKey, { account: accounts.maker.record.accountId }),
  taker: secp256k1Signer(accounts.taker.secretKey, { account: accounts.taker.record.accountId }),
});

describe('bot accounts', () => {
  it('are made once: keys in DATA_DIR readable by the owner only, found again by their keys after a restart', async () => {
    const server = await startService({ CHAIN: 'off' });
    const { config } = server;
    const first = await provisionBotAccounts(server.services, devnetIssuer(server.services));
    expect(first.maker.record).toMatchObject({ keyType: 'ED25519' });
    expect(first.taker.record).toMatchObject({ keyType: 'ECDSA_SECP256K1' });
    for (const file of ['market-maker-maker.key', 'market-maker-taker.key']) {
      expect(statSync(join(config.dataDir, file)).mode & 0o777).toBe(0o600);
    }
    const again = await provisionBotAccounts(server.services, null);
    expect(again.maker.record.accountId).toBe(first.maker.record.accountId);
    expect(again.taker.record.accountId).toBe(first.taker.record.accountId);
    expect(await server.services.store.accountKeys.list()).toHaveLength(2);
    // The signers log in as the registered ledger accounts.
    const { maker, taker } = signers(again);
    expect(maker.swapper).toBe(first.maker.record.evmAddress);
    expect(taker.swapper).toBe(first.taker.record.evmAddress);
  });
});

describe('live devnet', () => {
  it('logs a bot that cannot start and leaves the API serving, without quoting the bad key file', async () => {
    const server = await startService({ CHAIN: 'off' });
    const garbage = 'not-a-key-but-a-secret-looking-value';
    writeFileSync(join(server.config.dataDir, 'market-maker-maker.key'), garbage, { mode: 0o600 });
    const live = startLiveDevnet(server, { intervalMs: 100 }, server.services.logger);
    expect(await live.started).toBeUndefined();
    await live.stop();
    expect(server.logs()).toMatch(/the market maker could not start; the API runs without it/);
    expect(server.logs()).not.toContain(garbage);
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
  });
});

describe('live devnet on the embedded chain', () => {
  it('funds the bot accounts, publishes the Ed25519 key at 0x16a, and the bot’s trades settle on the chain', async () => {
    const server = await startService({ CHAIN: 'devnet' });
    const live = startLiveDevnet(server, { intervalMs: 200 }, createLogger('silent'));
    try {
      const bot = await live.started;
      if (bot === undefined) throw new Error(`the bot did not start: ${server.logs()}`);
      const { chain } = server.services;
      if (chain === null) throw new Error('no settlement chain');
      const issuer = devnetIssuer(server.services);
      if (issuer === null) throw new Error('no issuer');
      const accounts = await provisionBotAccounts(server.services, issuer);
      // The native coin is held as WHBAR, funded as a token of its own.
      const tokens = (await server.services.store.tokens.list()).filter((token) => !isNativeCoin(token));

      // Funded: a million of every token (less what trading moved since) and an unlimited reactor allowance.
      for (const { record } of [accounts.maker, accounts.taker]) {
        const holdings = await server.services.funds?.holdings(
          record.evmAddress,
          tokens.map((token) => token.evmAddress),
        );
        for (const token of tokens) {
          const holding = holdings?.get(token.evmAddress.toLowerCase());
          const funding = BOT_FUNDING_UNITS * 10n ** BigInt(token.decimals);
          expect(holding?.balance).toBeGreaterThan(funding / 2n);
          expect(holding?.allowance).toBeGreaterThan(funding * 1_000n);
        }
      }
      const published = await chain.public.readContract({
        address: '0x000000000000000000000000000000000000016a',
        abi: DevnetAccountKeyService.abi,
        functionName: 'ed25519KeyOf',
        args: [getAddress(accounts.maker.record.evmAddress)],
      });
      expect(published.toLowerCase()).toBe(`0x${accounts.maker.record.publicKey}`);

      // Trades of the Ed25519 maker and the secp256k1 taker settle: the tape carries their transaction.
      const client = createClient({ baseUrl: server.url });
      for (const orderbookId of [1, 2, 3]) {
        await until(async () => {
          const { trades } = await getTrades(client, { orderbookId, limit: 100 });
          return trades.some((trade) => /^0x[0-9a-f]{64}$/.test(trade.transactionHash)) ? true : undefined;
        }, `a settled trade on book ${orderbookId}`);
      }
      const taker = createClient({ baseUrl: server.url, signer: signers(accounts).taker });
      const filled = await until(async () => {
        const { orders } = await getOrders(taker, { status: 'FILLED', limit: 500 });
        for (const order of orders) {
          const history = await getOrderHistory(taker, { orderId: order.id });
          const settled = history.events.filter((event) => event.fill !== null && event.txHash !== null);
          if (settled.length > 0) return settled;
        }
        return undefined;
      }, 'a taker fill with its settlement transaction');
      expect(filled[0]?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(bot.stats.errors).toBe(0);

      // Beside the books, the liquidity account seeded the pools, which drift.
      expect(await live.pools).toBeDefined();
      const factory = chain.amm?.factory;
      if (factory === undefined) throw new Error('no AMM on the devnet chain');
      expect(await chain.public.readContract({ address: factory, abi: AmmFactory.abi, functionName: 'allPairsLength' })).toBe(3n);

      // A balance that ran low is topped up; a full one is left alone.
      expect(await topUpBotAccounts(server.services, accounts, issuer)).toBe(0);
      const usdc = getAddress(tokens.find((token) => token.symbol === 'USDC')?.evmAddress ?? '') as Address;
      const holder = getAddress(accounts.taker.record.evmAddress);
      const balance = () =>
        chain.public.readContract({ address: usdc, abi: TestToken.abi, functionName: 'balanceOf', args: [holder] });
      const devnet = chain.devnet;
      if (devnet === null) throw new Error('no devnet clients');
      await devnet.test.impersonateAccount({ address: holder });
      // 95 %, not all: the bot keeps trading, and a fill settling meanwhile must not make the transfer overdraw.
      // Sent to the token's own address: a contract, which needs no association.
      const sent = await devnet.wallet(holder).writeContract({
        address: usdc,
        abi: TestToken.abi,
        functionName: 'transfer',
        args: [usdc, ((await balance()) * 95n) / 100n],
      });
      expect((await chain.public.waitForTransactionReceipt({ hash: sent })).status).toBe('success');
      await devnet.test.stopImpersonatingAccount({ address: holder });
      expect(await topUpBotAccounts(server.services, accounts, issuer)).toBe(1);
      expect(await balance()).toBeGreaterThan(BOT_FUNDING_UNITS * 1_000_000n);
    } finally {
      await live.stop();
    }
  }, 180_000);
});
