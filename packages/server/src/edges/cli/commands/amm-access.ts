import { CoreError, fromDisplayAmount, toDisplayAmount } from '@dex/core';
import type { TokenRecord } from '../../../domain/markets/market-records.js';
import type { DevnetAmm } from '../../../ports/devnet-amm.js';
import { DevnetNotRunningError } from '../../../ports/devnet-funding.js';
import type { OperatorIo } from '../operator-io.js';
import { UsageError } from '../operator-options.js';

/** The running devnet chain's AMM; a usage error where there is none (another network, or no service running). */
export async function connectAmm(io: OperatorIo): Promise<DevnetAmm> {
  if (io.network !== 'devnet' || io.amm === undefined) throw new UsageError('pools and farms are worked on the devnet only');
  try {
    return await io.amm();
  } catch (error) {
    if (error instanceof DevnetNotRunningError) throw new UsageError(error.message);
    throw error;
  }
}

/** A decimal amount in whole units (`"1.5"`) as raw units of `decimals`, exactly: more digits than that is refused, never rounded. */
export function rawAmount(text: string | undefined, decimals: number, label: string): bigint {
  if (text === undefined) throw new UsageError(`${label} is required`);
  try {
    return fromDisplayAmount(text, decimals, label);
  } catch (error) {
    if (error instanceof CoreError) throw new UsageError(`${label} must be a decimal amount such as 1.5: ${error.message}`);
    throw error;
  }
}

/** A whole number operand (a pool id, a farm pid, allocation points). */
export function wholeOperand(text: string | undefined, label: string): bigint {
  if (text === undefined || !/^[0-9]{1,18}$/.test(text)) throw new UsageError(`${label} must be a whole number`);
  return BigInt(text);
}

/** The registry's tokens by lower-case EVM address, to name the chain's tokens. */
export async function tokensByAddress(io: OperatorIo): Promise<Map<string, TokenRecord>> {
  return new Map((await io.store.tokens.list()).map((token) => [token.evmAddress.toLowerCase(), token]));
}

/** A raw amount of a token for people: in whole units with its symbol, or raw with its address when the registry does not know it. */
export function describeAmount(raw: bigint, address: string, tokens: ReadonlyMap<string, TokenRecord>): string {
  const token = tokens.get(address.toLowerCase());
  return token === undefined ? `${raw} (raw) of ${address}` : `${toDisplayAmount(raw, token.decimals)} ${token.symbol}`;
}

export function symbolOf(address: string, tokens: ReadonlyMap<string, TokenRecord>): string {
  return tokens.get(address.toLowerCase())?.symbol ?? address;
}
