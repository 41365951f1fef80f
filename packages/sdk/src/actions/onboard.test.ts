import { PERMIT2_ADDRESS as CONTRACTS_PERMIT2, Permit2, permit2Approvals, TestToken } from '@dex/contracts';
import type { Eip712Domain } from '@dex/core';
import { encodeFunctionData, getAddress, type Hex, parseAbi, toFunctionSelector } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitOrderRequest } from '../amounts.js';
import { type Client, createClient } from '../client.js';
import { ApiError, InvalidParameterError, OnboardingMismatchError, OnboardingTransactionError } from '../errors.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { fundWithoutApprovals, walletSender } from '../test-support/onboarding.js';
import { startRewritingProxy, startTestServer, type TestServer } from '../test-support/server.js';
import type { OrderbookItem } from '../types.js';
import { getBooks } from './get-books.js';
import { getOnboardingStatus } from './get-onboarding-status.js';
import { getSignatureDomain } from './get-signature-domain.js';
import { onboard } from './onboard.js';
import {
  onboardingTransactions,
  PERMIT2_ADDRESS,
  PERMIT2_MAX_AMOUNT,
  PERMIT2_MAX_EXPIRATION,
} from './onboarding-transactions.js';
import { placeOrders } from './place-orders.js';

const BASE = '0x00000000000000000000000000000000000003e9';
const QUOTE = '0x00000000000000000000000000000000000003ea';
const REACTOR = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const PERMIT2_STEPS = ['approveBaseTokenPermit2', 'approveQuoteTokenPermit2'] as const;
const REACTOR_STEPS = ['approveBaseTokenReactor', 'approveQuoteTokenReactor'] as const;
const ASSOCIATION_STEPS = ['associateBaseToken', 'associateQuoteToken'] as const;

describe('onboardingTransactions', () => {
  it('encodes each step as the contracts package and viem encode it: the token approves Permit2, Permit2 the reactor', () => {
    const transactions = onboardingTransactions({
      // Given out of order: they come back in the order the steps are taken.
      steps: [...REACTOR_STEPS, ...PERMIT2_STEPS, ...ASSOCIATION_STEPS],
      baseToken: BASE,
      quoteToken: getAddress(QUOTE),
      reactor: REACTOR,
    });
    expect(transactions.map(({ step }) => step)).toEqual([...ASSOCIATION_STEPS, ...PERMIT2_STEPS, ...REACTOR_STEPS]);
    const expected = (token: string) => {
      const [toPermit2, toReactor] = permit2Approvals(getAddress(token), CONTRACTS_PERMIT2, getAddress(REACTOR));
      return {
        associate: { to: token, data: toFunctionSelector('associate()') },
        permit2: { to: token, data: encodeFunctionData(toPermit2) },
        reactor: { to: CONTRACTS_PERMIT2.toLowerCase(), data: encodeFunctionData(toReactor) },
      };
    };
    const [base, quote] = [expected(BASE), expected(QUOTE)];
    expect(transactions.map(({ to, data }) => ({ to, data }))).toEqual([
      base.associate,
      quote.associate,
      base.permit2,
      quote.permit2,
      base.reactor,
      quote.reactor,
    ]);
    expect(transactions.map(({ token }) => token)).toEqual([BASE, QUOTE, BASE, QUOTE, BASE, QUOTE]);
    // HIP-719's association call on the token facade.
    expect(toFunctionSelector('associate()')).toBe(
      encodeFunctionData({ abi: parseAbi(['function associate() returns (uint256)']), functionName: 'associate' }),
    );
  });

  it("uses the contracts package's Permit2 address and limits", () => {
    expect(PERMIT2_ADDRESS).toBe(CONTRACTS_PERMIT2.toLowerCase());
    const [, toReactor] = permit2Approvals(BASE, CONTRACTS_PERMIT2, REACTOR);
    expect(toReactor.args.slice(2)).toEqual([PERMIT2_MAX_AMOUNT, PERMIT2_MAX_EXPIRATION]);
    expect(Permit2.abi.some((item) => item.type === 'function' && item.name === 'approve')).toBe(true);
    expect(TestToken.abi.some((item) => item.type === 'function' && item.name === 'approve')).toBe(true);
  });

  it('sends to another Permit2 when given one, and nothing for no steps', () => {
    const other = '0x1111111111111111111111111111111111111111';
    const [toPermit2, toReactor] = onboardingTransactions({
      steps: ['approveBaseTokenPermit2', 'approveBaseTokenReactor'],
      baseToken: BASE,
      quoteToken: QUOTE,
      reactor: REACTOR,
      permit2: other,
    });
    expect(toPermit2?.data).toContain(other.slice(2));
    expect(toReactor?.to).toBe(other);
    expect(onboardingTransactions({ steps: [], baseToken: BASE, quoteToken: QUOTE, reactor: REACTOR })).toEqual([]);
  });

  it('refuses an address that is not one and a step it does not know, naming the parameter', () => {
    const good = { steps: [...PERMIT2_STEPS], baseToken: BASE, quoteToken: QUOTE, reactor: REACTOR };
    expect(() => onboardingTransactions({ ...good, reactor: '0x1234' })).toThrow(
      expect.objectContaining({ name: 'InvalidParameterError', parameter: 'reactor' }),
    );
    expect(() => onboardingTransactions({ ...good, baseToken: '0.0.1001' })).toThrow(InvalidParameterError);
    const unknown = { ...good, steps: ['approveEverything'] } as unknown as Parameters<typeof onboardingTransactions>[0];
    expect(() => onboardingTransactions(unknown)).toThrow(expect.objectContaining({ parameter: 'steps' }));
  });
});

describe('onboard on the devnet chain', () => {
  let api: TestServer;
  let book: OrderbookItem;

  beforeAll(async () => {
    api = await startTestServer({ CHAIN: 'devnet' });
    book = (await getBooks(createClient({ baseUrl: api.url }))).orderbooks[0] as OrderbookItem;
  });

  afterAll(async () => {
    await api?.close();
  });

  /** A fresh key with gas and tokens on the devnet chain, not onboarded; its client and a sender for its wallet. */
  async function freshAccount(baseUrl = api.url) {
    const key = generatePrivateKey();
    const signer = secp256k1Signer(key);
    await fundWithoutApprovals(api.server, signer.account);
    return { client: createClient({ baseUrl, signer }), wallet: walletSender(api.server, key) };
  }

  const buy = (client: Client) =>
    placeOrders(client, { orders: [limitOrderRequest(book, { side: 'buy', price: '0.2', size: '10' })] });

  it('takes a funded account from pending steps to trading: status, onboard, status complete, order saved', async () => {
    const { client, wallet } = await freshAccount();
    const before = await getOnboardingStatus(client, { orderbookId: 1 });
    expect(before).toMatchObject({
      pendingSteps: [...PERMIT2_STEPS, ...REACTOR_STEPS],
      completedSteps: [...ASSOCIATION_STEPS],
      isComplete: false,
      baseToken: book.baseTokenEvmAddress.toLowerCase(),
      quoteToken: book.quoteTokenEvmAddress.toLowerCase(),
      reactor: (await getSignatureDomain(client)).verifyingContract.toLowerCase(),
      permit2: PERMIT2_ADDRESS,
    });
    // Funded but not onboarded: the reactor could not pull the order's input.
    await expect(buy(client)).rejects.toMatchObject({ name: 'ApiError', code: 'INSUFFICIENT_FUNDS' });

    const result = await onboard(client, { orderbookId: 1, sendTransaction: wallet.send });
    expect(result.skipped).toEqual([...ASSOCIATION_STEPS]);
    expect(result.sent.map(({ step }) => step)).toEqual([...PERMIT2_STEPS, ...REACTOR_STEPS]);
    expect(result.sent.map(({ hash }) => hash)).toEqual(wallet.sent);
    expect(result.sent.slice(2).every(({ to }) => to === PERMIT2_ADDRESS)).toBe(true);

    expect(await getOnboardingStatus(client, { orderbookId: 1 })).toMatchObject({ pendingSteps: [], isComplete: true });
    const { orders } = await buy(client);
    expect(orders[0]?.meta.status).toBe('ACTIVE');
    // Onboarded already: nothing is sent again.
    expect(await onboard(client, { orderbookId: 1, sendTransaction: wallet.send })).toEqual({
      sent: [],
      skipped: [...ASSOCIATION_STEPS, ...PERMIT2_STEPS, ...REACTOR_STEPS],
    });
    expect(wallet.sent).toHaveLength(4);
  });

  it('associates an account the faucet left unassociated (--no-associate): funded once associated, it trades', async () => {
    const key = generatePrivateKey();
    const signer = secp256k1Signer(key);
    const client = createClient({ baseUrl: api.url, signer });
    const wallet = walletSender(api.server, key);
    // Gas only: the ledger's tokens pay no account that has not associated with them.
    await fundWithoutApprovals(api.server, signer.account, { associate: false });
    expect(await getOnboardingStatus(client, { orderbookId: 1 })).toMatchObject({
      pendingSteps: [...ASSOCIATION_STEPS, ...PERMIT2_STEPS, ...REACTOR_STEPS],
    });
    const result = await onboard(client, { orderbookId: 1, sendTransaction: wallet.send });
    expect(result.sent.map(({ step }) => step)).toEqual([...ASSOCIATION_STEPS, ...PERMIT2_STEPS, ...REACTOR_STEPS]);
    expect(result.sent.slice(0, 2).map(({ to }) => to)).toEqual([
      book.baseTokenEvmAddress.toLowerCase(),
      book.quoteTokenEvmAddress.toLowerCase(),
    ]);
    await fundWithoutApprovals(api.server, signer.account, { associate: false });
    expect(await getOnboardingStatus(client, { orderbookId: 1 })).toMatchObject({ isComplete: true });
    const { orders } = await buy(client);
    expect(orders[0]?.meta.status).toBe('ACTIVE');
  });

  it('names the step a failed send stopped at and those sent before it; onboarding again takes up the rest', async () => {
    const { client, wallet } = await freshAccount();
    let calls = 0;
    const failing = await onboard(client, {
      orderbookId: 1,
      sendTransaction: async (transaction) => {
        if (++calls === 2) throw new Error('the user refused in the wallet');
        return wallet.send(transaction);
      },
    }).catch((error: unknown) => error);
    expect(failing).toBeInstanceOf(OnboardingTransactionError);
    expect(failing).toMatchObject({
      step: 'approveQuoteTokenPermit2',
      token: book.quoteTokenEvmAddress.toLowerCase(),
      sentSteps: ['approveBaseTokenPermit2'],
      cause: expect.objectContaining({ message: 'the user refused in the wallet' }),
    });
    const rest = await onboard(client, { orderbookId: 1, sendTransaction: wallet.send });
    expect(rest.sent.map(({ step }) => step)).toEqual(['approveQuoteTokenPermit2', ...REACTOR_STEPS]);
    expect((await getOnboardingStatus(client, { orderbookId: 1 })).isComplete).toBe(true);
  });

  it('sends nothing when the status names another reactor or Permit2 than the client trusts', async () => {
    const { client, wallet } = await freshAccount();
    const domain = (await getSignatureDomain(client)) as Eip712Domain;
    const other = '0x2222222222222222222222222222222222222222';
    const attempt = (parameters: { domain?: Eip712Domain; permit2?: string }) =>
      onboard(client, { orderbookId: 1, sendTransaction: wallet.send, ...parameters }).catch((error: unknown) => error);
    expect(await attempt({ permit2: other })).toMatchObject({
      name: 'OnboardingMismatchError',
      field: 'permit2',
      expected: other,
    });
    const reactorMismatch = await attempt({ domain: { ...domain, verifyingContract: other } });
    expect(reactorMismatch).toBeInstanceOf(OnboardingMismatchError);
    expect(reactorMismatch).toMatchObject({ field: 'reactor', received: domain.verifyingContract.toLowerCase() });
    expect(wallet.sent).toEqual([]);
  });

  it("onboards through a server whose status has the live fields only: the domain's reactor, canonical Permit2, the book's tokens", async () => {
    const proxy = await startRewritingProxy(api.url, (path, body) => {
      if (!path.startsWith('/onboarding/')) return body;
      const { baseToken, quoteToken, reactor, permit2, ...live } = body as Record<string, unknown>;
      return live;
    });
    try {
      const { client, wallet } = await freshAccount(proxy.url);
      expect(await getOnboardingStatus(client, { orderbookId: 1 })).not.toHaveProperty('permit2');
      const { sent } = await onboard(client, { orderbookId: 1, sendTransaction: wallet.send });
      expect(sent.map(({ token }) => token)).toEqual([
        book.baseTokenEvmAddress.toLowerCase(),
        book.quoteTokenEvmAddress.toLowerCase(),
        book.baseTokenEvmAddress.toLowerCase(),
        book.quoteTokenEvmAddress.toLowerCase(),
      ]);
      expect((await getOnboardingStatus(client, { orderbookId: 1 })).isComplete).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a sendTransaction that is not a function before reading anything', async () => {
    const { client } = await freshAccount();
    const parameters = { orderbookId: 1, sendTransaction: 'yes' } as unknown as Parameters<typeof onboard>[1];
    await expect(onboard(client, parameters)).rejects.toMatchObject({ parameter: 'sendTransaction' });
    await expect(onboard(client, { orderbookId: 99, sendTransaction: async () => '0x' as Hex })).rejects.toBeInstanceOf(ApiError);
  });
});
