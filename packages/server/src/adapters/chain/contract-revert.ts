import { BaseError, ContractFunctionRevertedError } from 'viem';

/** The contract's revert behind a failed call, wherever viem wrapped it; null when the call failed otherwise (the node, the transport). */
export function contractRevertOf(error: unknown): ContractFunctionRevertedError | null {
  if (!(error instanceof BaseError)) return null;
  const revert = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  return revert instanceof ContractFunctionRevertedError ? revert : null;
}
