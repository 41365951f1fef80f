import { CoreError, fromDisplayAmount, toDisplayAmount } from '@dex/core';
import type { TokenRecord } from '../../../domain/markets/market-records.js';
import type { AmmAdmin } from '../../../ports/amm-admin.js';
import { DevnetNotRunningError } from '../../../ports/devnet-funding.js';
import type { OperatorIo } from '../operator-io.js';
import { optional, UsageError, type Values } from '../operator-options.js';
import { privateKeyFile } from './key-file.js';

/**
 * The AMM, as its administrator: the running devnet chain's, or on a chain the service did not
 * start (CHAIN_DEPLOYMENT) through the wallet of `--key-file`, which `writes` (the command, for
 * its message) needs; reads (`writes` null) need no key. A usage error where there is no AMM.
 */
export async function connectAmm(io: OperatorIo, values: Values, writes: string | null): Promise<AmmAdmin> {
  if (io.amm === undefined) {
    throw new UsageError(
      'pools and farms are worked on the devnet chain, or on CHAIN=rpc with CHAIN_DEPLOYMENT naming a record with an AMM (chain deploy --with-amm)',
    );
  }
  const keyFile = optional(values, 'key-file');
  const ownerKey = keyFile === null ? null : privateKeyFile(keyFile);
  let amm: AmmAdmin;
  try {
    amm = await io.amm(ownerKey);
  } catch (error) {
    if (error instanceof DevnetNotRunningError) throw new UsageError(error.message);
    throw error;
  }
  if (ownerKey !== null && amm.sender.kind === 'devnet-issuer') {
    throw new UsageError("--key-file is for a chain the service did not start: the devnet's AMM is worked by its issuer");
  }
  if (writes !== null && amm.sender.kind === 'key' && amm.sender.address === null) {
    throw new UsageError(`${writes} needs --key-file FILE: the private key of the AMM's owner on this chain`);
  }
  return amm;
}

/**
 * A decimal amount in whole units (`"1.5"`) as raw units of `decimals`, exactly: more digits than
 * that is refused, never rounded. `unit` (" of HBAR, ...") says in the refusal what the amount is in.
 */
export function rawAmount(text: string | undefined, decimals: number, label: string, unit = ''): bigint {
  if (text === undefined) throw new UsageError(`${label} is required`);
  try {
    return fromDisplayAmount(text, decimals, label);
  } catch (error) {
    if (error instanceof CoreError)
      throw new UsageError(`${label} must be a decimal amount such as 1.5${unit}: ${error.message}`);
    throw error;
  }
}

/** A whole number operand (a pool id, a farm pid, allocation points). */
export function wholeOperand(text: string | undefined, label: string): bigint {
  if (text === undefined || !/^[0-9]{1,18}$/.test(text)) throw new UsageError(`${label} must be a whole number`);
  return BigInt(text);
}

/**
 * The item of `items` an id names (pools count from 1, farm pools from 0, as the data API shows
 * them), or a refusal naming the ids there are and the command (`list`) that shows them.
 */
export function pickById<T>(
  items: readonly T[],
  idOf: (item: T) => number,
  text: string | undefined,
  what: string,
  list: string,
): T {
  const id = wholeOperand(text, `the ${what} id`);
  const found = items.find((item) => BigInt(idOf(item)) === id);
  if (found !== undefined) return found;
  const ids = items.map(idOf);
  const range =
    ids.length === 0
      ? `there is no ${what} yet`
      : ids.length === 1
        ? `the only ${what} id is ${ids[0]}`
        : `${what} ids run from ${Math.min(...ids)} to ${Math.max(...ids)}`;
  throw new UsageError(`no ${what} ${id}: ${range} (${list} shows them)`);
}

/** The registry's tokens by lower-case EVM address, to name the chain's tokens. */
export async function tokensByAddress(io: OperatorIo): Promise<Map<string, TokenRecord>> {
  return new Map((await io.markets.tokens()).map((token) => [token.evmAddress.toLowerCase(), token]));
}

/** A raw amount of a token for people: in whole units with its symbol, or raw with its address when the registry does not know it. */
export function describeAmount(raw: bigint, address: string, tokens: ReadonlyMap<string, TokenRecord>): string {
  const token = tokens.get(address.toLowerCase());
  return token === undefined ? `${raw} (raw) of ${address}` : `${toDisplayAmount(raw, token.decimals)} ${token.symbol}`;
}

export function symbolOf(address: string, tokens: ReadonlyMap<string, TokenRecord>): string {
  return tokens.get(address.toLowerCase())?.symbol ?? address;
}
