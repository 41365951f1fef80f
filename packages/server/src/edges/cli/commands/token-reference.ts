import { isLedgerId } from '@dex/core';
import type { TokenRecord } from '../../../domain/markets/market-records.js';
import { UsageError } from '../operator-options.js';

/** The registry token an operator names by id (0.0.X) or symbol; `label` names the argument in errors. */
export function findToken(tokens: readonly TokenRecord[], reference: string, label: string): TokenRecord {
  const matches = isLedgerId(reference)
    ? tokens.filter((token) => token.id === reference)
    : tokens.filter((token) => token.symbol.toLowerCase() === reference.toLowerCase());
  if (matches.length > 1) throw new UsageError(`${label} ${reference} matches several tokens; use the token id`);
  const [token] = matches;
  if (token === undefined) throw new UsageError(`${label}: no token ${reference}`);
  return token;
}
