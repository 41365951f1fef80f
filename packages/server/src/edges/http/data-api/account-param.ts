import { isEvmAddress, isLedgerId } from '@dex/core';
import { AppError } from '../../../domain/errors.js';

/** An account id of a data API path: a ledger id `0.0.X`, else 400 INVALID_ACCOUNT. */
export function ledgerAccount(accountId: string): string {
  if (!isLedgerId(accountId)) throw new AppError('INVALID_ACCOUNT', 'accountId must be a ledger id (0.0.X)');
  return accountId;
}

/** The account of `/farms/totals/{accountId}`: a ledger id `0.0.X`, or the 0x address a staker acts from; else 400 INVALID_ACCOUNT. */
export function stakerAccount(accountId: string): string {
  if (!isLedgerId(accountId) && !isEvmAddress(accountId)) {
    throw new AppError('INVALID_ACCOUNT', 'accountId must be a ledger id (0.0.X) or an EVM address');
  }
  return accountId;
}
