import { isLedgerId } from '@dex/core';
import { AppError } from '../../../domain/errors.js';

/** An account id of a data API path: a ledger id `0.0.X`, else 400 INVALID_ACCOUNT. */
export function ledgerAccount(accountId: string): string {
  if (!isLedgerId(accountId)) throw new AppError('INVALID_ACCOUNT', 'accountId must be a ledger id (0.0.X)');
  return accountId;
}
