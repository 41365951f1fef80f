import { type DevnetClients, PERMIT2_ADDRESS, permit2Approvals, WEI_PER_TINYBAR, WrappedNative } from '@dex/contracts';
import { BUY, SELL } from '@dex/core';
import { type Address, BaseError, ContractFunctionRevertedError, getAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVNET_ADDRESS, type Harness, ManualClock, startHarness, Trader } from '../../../test-support/harness.js';
import { DevnetIssuer } from '../devnet/devnet-issuer.js';

/** Book 4 of the devnet seed: HBAR (the native coin, 0.0.0) against USDC, settled as WHBAR. */
const NATIVE_BOOK = 4;
const HBAR = 100_000_000n; // tinybar
const { WHBAR, USDC, SAUCE } = DEVNET_ADDRESS;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new ManualClock(Date.now()) });
});

afterAll(async () => {
  await h?.close();
});

function chain() {
  const { chain } = h.services;
  if (chain === null) throw new Error('settlement is off');
  return chain;
}

function devnet(): DevnetClients {
  const clients = chain().devnet;
  if (clients === null) throw new Error('not the embedded devnet');
  return clients;
}

/** A secp256k1 trader with its own wallet on the chain, as a client that sends its own transactions. */
async function walletTrader(): Promise<{ trader: Trader; send: (call: object) => Promise<bigint> }> {
  const key: Hex = generatePrivateKey();
  const trader = await Trader.secp256k1(h, key);
  const wallet = devnet().wallet(privateKeyToAccount(key));
  // Sends a contract call and returns the native coin its gas cost.
  const send = async (call: object) => {
    const hash = await wallet.writeContract(call as Parameters<typeof wallet.writeContract>[0]);
    const receipt = await devnet().public.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return receipt.gasUsed * receipt.effectiveGasPrice;
  };
  return { trader, send };
}

const whbarOf = (owner: string) =>
  devnet().public.readContract({
    address: WHBAR as Address,
    abi: WrappedNative.abi,
    functionName: 'balanceOf',
    args: [owner as Address],
  });
const usdcOf = (owner: string) =>
  devnet().public.readContract({
    address: USDC as Address,
    abi: WrappedNative.abi,
    functionName: 'balanceOf',
    args: [owner as Address],
  });
const nativeOf = (owner: string) => devnet().public.getBalance({ address: owner as Address });

/** Waits until every trade was settled (or refused) on the chain. */
async function settled(): Promise<void> {
  const { store } = h.services;
  for (let attempt = 0; attempt < 200; attempt++) {
    h.services.settlement?.settler.wake();
    if ((await store.settlements.pending(1)).length === 0 && (await store.settlements.submitted()).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('trades were not settled in time');
}

describe('a native-coin book on the devnet chain', () => {
  it('lists HBAR as 0.0.0 at the zero address, after the three books before it', async () => {
    const reply = await h.app.inject({ method: 'GET', url: '/books' });
    const books = (reply.json() as { orderbooks: Record<string, unknown>[] }).orderbooks;
    expect(books.map((book) => [book.id, book.baseTokenSymbol, book.quoteTokenSymbol])).toEqual([
      [1, 'WHBAR', 'USDC'],
      [2, 'SAUCE', 'USDC'],
      [3, 'SAUCE', 'WHBAR'],
      [4, 'HBAR', 'USDC'],
    ]);
    expect(books[3]).toMatchObject({ baseTokenId: '0.0.0', baseTokenEvmAddress: ZERO_ADDRESS, baseTokenDecimals: 8 });
  });

  it('settles a sale of wrapped native coin to a buyer tinybar-exactly, and the buyer unwraps it to native coin', async () => {
    const issuer = DevnetIssuer.of(chain());
    const seller = await walletTrader();
    const buyer = await walletTrader();
    // The seller holds native coin only (and gas); the buyer USDC.
    await issuer.fund(seller.trader.swapper, [{ token: ZERO_ADDRESS, amount: 10n * HBAR }], { approve: false });
    await issuer.fund(buyer.trader.swapper, [{ token: USDC, amount: 1_000n * 1_000_000n }]);

    // Onboarding names the wrapped token, a token of the ledger: its association and approvals are pending.
    const pending = await seller.trader.request<Record<string, unknown>>('GET', `/onboarding/${NATIVE_BOOK}/status`);
    expect(pending.body).toMatchObject({
      baseToken: WHBAR,
      steps: { associateBaseToken: false, approveBaseTokenPermit2: false, approveBaseTokenReactor: false },
    });

    // The seller associates WHBAR, wraps 3 HBAR and approves WHBAR as onboarding asks.
    const nativeBefore = await nativeOf(seller.trader.swapper);
    let gas = await seller.send({ address: WHBAR, abi: WrappedNative.abi, functionName: 'associate' });
    // It is paid in USDC, which it must have associated too.
    gas += await seller.send({ address: USDC, abi: WrappedNative.abi, functionName: 'associate' });
    gas += await seller.send({
      address: WHBAR,
      abi: WrappedNative.abi,
      functionName: 'deposit',
      value: 3n * HBAR * WEI_PER_TINYBAR,
    });
    for (const approval of permit2Approvals(getAddress(WHBAR), PERMIT2_ADDRESS, chain().reactor))
      gas += await seller.send(approval);
    expect(await whbarOf(seller.trader.swapper)).toBe(3n * HBAR);
    expect(nativeBefore - (await nativeOf(seller.trader.swapper))).toBe(3n * HBAR * WEI_PER_TINYBAR + gas);
    const ready = await seller.trader.request<Record<string, unknown>>('GET', `/onboarding/${NATIVE_BOOK}/status`);
    expect(ready.body).toMatchObject({
      steps: { associateBaseToken: true, approveBaseTokenPermit2: true, approveBaseTokenReactor: true },
    });

    // Built from the book's listed base (the zero address), the order is signed for WHBAR.
    const [built] = await seller.trader.build([seller.trader.limitRequest(NATIVE_BOOK, SELL, 25_000, 20)]);
    expect(built?.input).toEqual({ token: WHBAR, amount: (2n * HBAR).toString() });

    // The buyer receives WHBAR: it associates it first, as onboarding asks of both sides.
    await buyer.send({ address: WHBAR, abi: WrappedNative.abi, functionName: 'associate' });
    const usdcBefore = [await usdcOf(seller.trader.swapper), await usdcOf(buyer.trader.swapper)];
    await seller.trader.limit(NATIVE_BOOK, SELL, 25_000, 20); // 2 HBAR at 0.25
    const bid = await buyer.trader.limit(NATIVE_BOOK, BUY, 25_000, 20);
    expect(bid.status).toBe('FILLED');
    await settled();

    const market = h.services.registry.get(NATIVE_BOOK);
    if (market === undefined) throw new Error('no native book');
    const sold = 2n * HBAR;
    const paid = 500_000n; // 0.5 USDC
    const takerFee = (sold * BigInt(market.book.takerFeePips) + 999_999n) / 1_000_000n;
    const makerFee = (paid * BigInt(market.book.makerFeePips)) / 1_000_000n;
    expect(await whbarOf(seller.trader.swapper)).toBe(3n * HBAR - sold);
    expect(await usdcOf(seller.trader.swapper)).toBe((usdcBefore[0] as bigint) + paid - makerFee);
    expect(await usdcOf(buyer.trader.swapper)).toBe((usdcBefore[1] as bigint) - paid);
    const received = await whbarOf(buyer.trader.swapper);
    expect(received).toBe(sold - takerFee);

    // The buyer unwraps all of it: native coin arrives at exactly 1e10 wei a tinybar.
    const buyerNative = await nativeOf(buyer.trader.swapper);
    const unwrapGas = await buyer.send({ address: WHBAR, abi: WrappedNative.abi, functionName: 'withdraw', args: [received] });
    expect(await whbarOf(buyer.trader.swapper)).toBe(0n);
    expect((await nativeOf(buyer.trader.swapper)) - buyerNative).toBe(received * WEI_PER_TINYBAR - unwrapGas);

    // Every WHBAR on the devnet was deposited: its supply is backed exactly by the native coin it holds.
    const supply = await devnet().public.readContract({
      address: WHBAR as Address,
      abi: WrappedNative.abi,
      functionName: 'totalSupply',
    });
    expect(await nativeOf(WHBAR)).toBe(supply * WEI_PER_TINYBAR);
  });

  it('refuses a deposit that is not whole tinybars', async () => {
    const { trader, send } = await walletTrader();
    await DevnetIssuer.of(chain()).fund(trader.swapper, [], { approve: false });
    const refusal = await send({
      address: WHBAR,
      abi: WrappedNative.abi,
      functionName: 'deposit',
      value: WEI_PER_TINYBAR + 1n,
    }).catch((error: unknown) => error);
    const reverted =
      refusal instanceof BaseError ? refusal.walk((cause) => cause instanceof ContractFunctionRevertedError) : null;
    expect((reverted as ContractFunctionRevertedError | null)?.data?.errorName).toBe('NotWholeUnits');
  });

  it('refuses a token outside the book, and a signed order that carries the zero address instead of WHBAR', async () => {
    const { trader } = await walletTrader();
    const wrongToken = await trader.request<{ code: string }>('POST', '/orders/build', {
      orderRequests: [{ ...trader.limitRequest(NATIVE_BOOK, SELL, 25_000, 20), inputToken: SAUCE }],
    });
    expect(wrongToken).toMatchObject({ status: 400, body: { code: 'TOKEN_NOT_IN_BOOK' } });

    // Naming the wrapped token itself builds the same order as naming the native coin.
    const [byWrapper] = await trader.build([{ ...trader.limitRequest(NATIVE_BOOK, SELL, 25_000, 20), inputToken: WHBAR }]);
    expect(byWrapper?.input.token).toBe(WHBAR);

    const [built] = await trader.build([trader.limitRequest(NATIVE_BOOK, SELL, 25_000, 20)]);
    if (built === undefined) throw new Error('nothing built');
    const unwrapped = { ...built, input: { ...built.input, token: ZERO_ADDRESS } };
    const reply = await trader.save([unwrapped]);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'TOKEN_NOT_IN_BOOK', error: expect.stringContaining(`wrapped token ${WHBAR}`) });
  });
});
