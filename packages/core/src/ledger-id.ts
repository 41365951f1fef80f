import { CoreError } from './errors.js';

/** A ledger entity id `shard.realm.num`. */
export interface LedgerId {
  readonly shard: bigint;
  readonly realm: bigint;
  readonly num: bigint;
}

const LEDGER_ID = /^(0|[1-9][0-9]{0,9})\.(0|[1-9][0-9]{0,19})\.(0|[1-9][0-9]{0,19})$/;
const MAX_SHARD = 0xffff_ffffn;
const MAX_LONG = 0xffff_ffff_ffff_ffffn;

export function parseLedgerId(text: unknown, field = 'id'): LedgerId {
  const match = typeof text === 'string' ? LEDGER_ID.exec(text) : null;
  if (!match) throw new CoreError('INVALID_LEDGER_ID', `${field} must be a ledger id such as 0.0.123456`);
  const id = { shard: BigInt(match[1] as string), realm: BigInt(match[2] as string), num: BigInt(match[3] as string) };
  if (id.shard > MAX_SHARD || id.realm > MAX_LONG || id.num > MAX_LONG) {
    throw new CoreError('INVALID_LEDGER_ID', `${field} is out of the ledger id range`);
  }
  return id;
}

export function isLedgerId(text: unknown): boolean {
  return typeof text === 'string' && LEDGER_ID.test(text);
}

/**
 * The "long-zero" EVM address of a ledger entity: 4 bytes of shard, 8 of realm, 8 of num. Tokens
 * created natively on the ledger are reachable at this address from the EVM.
 */
export function longZeroAddress(text: string): string {
  const { shard, realm, num } = parseLedgerId(text);
  return `0x${shard.toString(16).padStart(8, '0')}${realm.toString(16).padStart(16, '0')}${num.toString(16).padStart(16, '0')}`;
}

/**
 * The ledger id a long-zero address encodes, or undefined for any other address: the inverse of
 * {@link longZeroAddress}. Contracts deployed through the EVM have addresses of their own.
 */
export function ledgerIdOfAddress(address: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return undefined;
  const hex = address.slice(2).toLowerCase();
  const shard = BigInt(`0x${hex.slice(0, 8)}`);
  const realm = BigInt(`0x${hex.slice(8, 24)}`);
  const num = BigInt(`0x${hex.slice(24)}`);
  // Only the small shard and realm numbers ledgers use: a random address is not mistaken for one.
  if (shard > 0xffffn || realm > 0xffff_ffffn) return undefined;
  return `${shard}.${realm}.${num}`;
}
