import { amountIn as poolAmountIn, amountOut as poolAmountOut } from '@dex/core';
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  getAddress,
  type Hex,
  maxUint256,
  type TransactionReceipt,
} from 'viem';
import { expect } from 'vitest';
import { associateToken } from '../../src/devnet-chain.js';
import {
  AmmFactory,
  AmmMathHarness,
  AmmPair,
  AmmRouter,
  Farm,
  RefusingStaker,
  SauceStaking,
  TestToken,
  TokenTransfers,
} from '../../src/generated/artifacts.js';
import type { TestDevnet, Wallet } from './devnet.js';

/** Every error the AMM contracts (and the tokens under them) can revert with, to name a revert by. */
const ERRORS = [
  AmmFactory,
  AmmMathHarness,
  AmmPair,
  AmmRouter,
  Farm,
  RefusingStaker,
  SauceStaking,
  TestToken,
  TokenTransfers,
].flatMap((artifact) => (artifact.abi as Abi).filter((item) => item.type === 'error'));

/** Waits for the transaction and expects it to have succeeded. */
export async function mined(devnet: TestDevnet, hash: Promise<Hex>): Promise<TransactionReceipt> {
  const receipt = await devnet.public.waitForTransactionReceipt({ hash: await hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

/** The custom error (name and arguments) a call reverted with; fails when it did not revert. */
export async function revertOf(call: Promise<unknown>): Promise<{ name: string; args: readonly unknown[] }> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BaseError)) throw new Error(`expected a revert, got ${String(error)}`);
  const revert = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  if (!(revert instanceof ContractFunctionRevertedError)) throw error;
  if (revert.data) return { name: revert.data.errorName, args: revert.data.args ?? [] };
  // A revert passed up from a contract called by the one called: decode by all known errors.
  if (!revert.raw) throw error;
  const decoded = decodeErrorResult({ abi: ERRORS, data: revert.raw });
  return { name: decoded.errorName, args: decoded.args ?? [] };
}

/** A fresh TestToken with `operator` as its minter. */
export async function newToken(devnet: TestDevnet, operator: Wallet, symbol: string, decimals: number): Promise<Address> {
  const address = getAddress(await devnet.deploy(operator, TestToken, []));
  await mined(
    devnet,
    operator.writeContract({
      address,
      abi: TestToken.abi,
      functionName: 'initialize',
      args: [symbol, symbol, decimals, operator.account.address],
    }),
  );
  return address;
}

/** Mints to `to`, which first associates with the token (as the account, impersonated) when it is not yet. */
export async function mintTo(devnet: TestDevnet, minter: Wallet, token: Address, to: Address, amount: bigint): Promise<void> {
  await associateAs(devnet, to, token);
  await mined(devnet, minter.writeContract({ address: token, abi: TestToken.abi, functionName: 'mint', args: [to, amount] }));
}

/** Associates `account` with a devnet token unless it is already, sending as the account through impersonation. */
export async function associateAs(devnet: TestDevnet, account: Address, token: Address): Promise<void> {
  await devnet.test.impersonateAccount({ address: account });
  try {
    await associateToken(devnet, devnet.wallet(account), token);
  } finally {
    await devnet.test.stopImpersonatingAccount({ address: account });
  }
}

export async function approveMax(devnet: TestDevnet, owner: Wallet, token: Address, spender: Address): Promise<void> {
  await mined(
    devnet,
    owner.writeContract({ address: token, abi: TestToken.abi, functionName: 'approve', args: [spender, maxUint256] }),
  );
}

export const balanceOf = (devnet: TestDevnet, token: Address, owner: Address): Promise<bigint> =>
  devnet.public.readContract({ address: token, abi: TestToken.abi, functionName: 'balanceOf', args: [owner] });

/** Timestamp of the latest block. */
export async function latestTime(devnet: TestDevnet): Promise<bigint> {
  return (await devnet.public.getBlock()).timestamp;
}

/** Sends a transaction mined in a block of timestamp `time` (automine: one block per transaction). */
export async function minedAt(devnet: TestDevnet, time: bigint, send: () => Promise<Hex>): Promise<TransactionReceipt> {
  await devnet.test.setNextBlockTimestamp({ timestamp: time });
  return mined(devnet, send());
}

/** Mines an empty block of timestamp `time`: views then read the chain as of that time. */
export async function mineAt(devnet: TestDevnet, time: bigint): Promise<void> {
  await devnet.test.setNextBlockTimestamp({ timestamp: time });
  await devnet.test.mine({ blocks: 1 });
}

/** Reads a pair's reserves. */
export async function reservesOf(devnet: TestDevnet, pair: Address): Promise<{ reserve0: bigint; reserve1: bigint }> {
  const [reserve0, reserve1] = await devnet.public.readContract({ address: pair, abi: AmmPair.abi, functionName: 'getReserves' });
  return { reserve0, reserve1 };
}

// The formulas the contracts implement. The pair's are the engine's own (@dex/core), so these tests
// also show that the engine prices a swap exactly as the pair settles it.

export const amountOut = poolAmountOut;

export function amountIn(bought: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const paid = poolAmountIn(bought, reserveIn, reserveOut);
  if (paid === undefined) throw new Error(`a pool of ${reserveOut} cannot pay ${bought}`);
  return paid;
}

export function quote(amountA: bigint, reserveA: bigint, reserveB: bigint): bigint {
  return (amountA * reserveB) / reserveA;
}

/** floor(sqrt(x)) bit by bit (a different method from the contract's Newton steps). */
export function sqrt(x: bigint): bigint {
  let root = 0n;
  for (let bit = BigInt(x.toString(2).length >> 1) + 1n; bit >= 0n; bit--) {
    const candidate = root | (1n << bit);
    if (candidate * candidate <= x) root = candidate;
  }
  return root;
}

/** LP minted to feeTo at a liquidity event: the Uniswap V2 rule, 1/6 of the growth of sqrt(k). */
export function protocolFee(supply: bigint, reserve0: bigint, reserve1: bigint, kLast: bigint): bigint {
  if (kLast === 0n) return 0n;
  const root = sqrt(reserve0 * reserve1);
  const rootLast = sqrt(kLast);
  return root > rootLast ? (supply * (root - rootLast)) / (root * 5n + rootLast) : 0n;
}

/** A small seeded generator (mulberry32), so a failing random case can be run again. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform 32-bit integer. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A uniform bigint in [low, high]. */
  between(low: bigint, high: bigint): bigint {
    const span = high - low + 1n;
    let value = 0n;
    for (let i = 0; i < 4; i++) value = (value << 32n) | BigInt(this.next());
    return low + (value % span);
  }

  chance(p: number): boolean {
    return this.next() / 2 ** 32 < p;
  }
}

export { AmmFactory, AmmPair, AmmRouter, Farm, SauceStaking, TestToken };
