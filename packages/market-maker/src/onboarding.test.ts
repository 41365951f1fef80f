import { createClient, getBooks, getOnboardingStatus, type SendOnboardingTransaction, type Signer } from '@dex/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MarketMaker } from './market-maker.js';
import type { MarketMakerOptions } from './options.js';
import { type BotServer, eventually, quickBotOptions, recordingLogger, startBotServer } from './test-support/bot-server.js';

let h: BotServer;
let bot: MarketMaker | undefined;

beforeEach(async () => {
  // Both accounts get gas and tokens on the devnet chain, and no approval: they start where a live account starts.
  h = await startBotServer({ CHAIN: 'devnet' }, { funding: 'without-approvals' });
});

afterEach(async () => {
  await bot?.stop();
  bot = undefined;
  await h.harness.close();
});

/**
 * Sends an account's onboarding transactions on the devnet chain through anvil's impersonation, as
 * the devnet faucet does (the Ed25519 maker cannot sign EVM transactions here; on the ledger it
 * would send the same calls with the ledger's SDK), each waited for until mined.
 */
function devnetSender(signer: Signer, sent: string[]): SendOnboardingTransaction {
  const devnet = h.harness.services.chain?.devnet;
  if (devnet === null || devnet === undefined) throw new Error('the test needs the embedded devnet chain');
  const from = signer.swapper;
  return async ({ step, to, data }) => {
    await devnet.test.impersonateAccount({ address: from });
    const hash = await devnet.wallet(from).sendTransaction({ to, data });
    const receipt = await devnet.public.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${step} reverted`);
    sent.push(step);
    return hash;
  };
}

async function pendingSteps(signer: Signer, orderbookId: number): Promise<string[]> {
  const client = createClient({ baseUrl: h.harness.url, signer });
  return (await getOnboardingStatus(client, { orderbookId })).pendingSteps;
}

function startBot(logger: ReturnType<typeof recordingLogger>, onboarding?: MarketMakerOptions['onboarding']): MarketMaker {
  bot = new MarketMaker(quickBotOptions(h, { logger, onboarding }));
  bot.start();
  return bot;
}

describe('market maker onboarding on the devnet chain', () => {
  it('onboards both accounts on every book whose status shows pending steps, then quotes them', async () => {
    const books = (await getBooks(createClient({ baseUrl: h.harness.url }))).orderbooks.map((book) => book.id);
    for (const id of books) expect(await pendingSteps(h.maker, id)).toHaveLength(4);
    const sent = { maker: [] as string[], taker: [] as string[] };
    const logger = recordingLogger();
    const running = startBot(logger, { maker: devnetSender(h.maker, sent.maker), taker: devnetSender(h.taker, sent.taker) });

    await eventually(() => (running.stats.placed > 0 ? true : undefined), 'the bot to save quotes', 30_000);
    for (const id of books) {
      expect(await pendingSteps(h.maker, id)).toEqual([]);
      expect(await pendingSteps(h.taker, id)).toEqual([]);
    }
    // Three tokens over the three books, two steps each, sent once: a token onboarded on one book is done on the next.
    expect(sent.maker).toHaveLength(6);
    expect(sent.taker).toHaveLength(6);
    const onboarded = logger.lines.filter((line) => line.message === 'market maker onboarded an account on a book');
    expect(onboarded.map(({ fields }) => fields.account)).toContain(h.maker.account);
    expect(onboarded.map(({ fields }) => fields.account)).toContain(h.taker.account);
    // Onboarded before its first quote: no order was refused for want of the approvals.
    expect(logger.lines.filter((line) => line.fields.code === 'INSUFFICIENT_FUNDS')).toEqual([]);
  });

  it('without a sender, reports the pending steps once per book and sends nothing', async () => {
    const logger = recordingLogger();
    const running = startBot(logger);
    const warned = (account: string) =>
      logger.lines.filter((line) => line.message.includes('is not onboarded') && line.fields.account === account);
    await eventually(
      () => (warned(h.maker.account).length === 3 && running.stats.cycles >= 3 ? true : undefined),
      'the warnings',
    );
    expect(warned(h.maker.account)[0]?.fields.pendingSteps).toEqual([
      'approveBaseTokenPermit2',
      'approveQuoteTokenPermit2',
      'approveBaseTokenReactor',
      'approveQuoteTokenReactor',
    ]);
    expect(warned(h.taker.account)).toHaveLength(3);
    // The reactor could pull nothing: every quote is refused.
    await eventually(
      () => (logger.lines.some((line) => line.fields.code === 'INSUFFICIENT_FUNDS') ? true : undefined),
      'a refused quote',
    );
    expect(running.stats.placed).toBe(0);
    expect(await pendingSteps(h.maker, 1)).toHaveLength(4);
  });
});
