import { AmmFactory, AmmPair, AmmRouter, Farm, TestToken, TokenTransfers } from '@dex/contracts';
import { type Abi, decodeErrorResult } from 'viem';
import { contractRevertOf } from '../contract-revert.js';

/** Every error the AMM's contracts and the tokens under them revert with: a router call passes its pair's or token's on. */
const AMM_ERRORS: Abi = [AmmFactory, AmmRouter, AmmPair, Farm, TestToken, TokenTransfers].flatMap((artifact) =>
  (artifact.abi as Abi).filter((item) => item.type === 'error'),
);

/** The contract error a call reverted with, as `Name(arg, ...)`; null when the error is no revert. */
export function ammRevertOf(error: unknown): string | null {
  const revert = contractRevertOf(error);
  if (revert === null) return null;
  const described = (name: string, args: readonly unknown[] = []) => `${name}(${args.map(String).join(', ')})`;
  if (revert.data !== undefined) return described(revert.data.errorName, revert.data.args);
  if (revert.raw === undefined) return revert.reason ?? 'a revert without a reason';
  try {
    const decoded = decodeErrorResult({ abi: AMM_ERRORS, data: revert.raw });
    return described(decoded.errorName, decoded.args);
  } catch {
    return `an unknown error ${revert.raw}`;
  }
}
