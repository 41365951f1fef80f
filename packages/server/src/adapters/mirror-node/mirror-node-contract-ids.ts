import { isLedgerId, ledgerIdOfAddress } from '@dex/core';
import type { CreatedPairRef, PairLedgerIds } from '../../ports/pair-ledger-ids.js';
import { MirrorNodeClient, type MirrorNodeClientOptions, MirrorNodeError } from './mirror-node-client.js';

const ADDRESS = /^0x[0-9a-f]{40}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Production pair ids: `GET /api/v1/contracts/{address}` on the ledger's mirror node. A pair the
 * mirror node does not know yet (it trails consensus by seconds) is an error, so the indexer reads
 * the block again rather than record a pool without its id.
 */
export class MirrorNodeContractIds implements PairLedgerIds {
  private readonly mirror: MirrorNodeClient;

  constructor(options: MirrorNodeClientOptions) {
    this.mirror = new MirrorNodeClient(options);
  }

  async idOf({ address }: CreatedPairRef): Promise<string> {
    const evmAddress = address.toLowerCase();
    // The address becomes part of a URL path: only the strict form goes out.
    if (!ADDRESS.test(evmAddress)) throw new MirrorNodeError(`${address} is not an EVM address`);
    const longZero = ledgerIdOfAddress(evmAddress);
    if (longZero !== undefined) return longZero;
    const what = `contract ${evmAddress}`;
    const body = await this.mirror.get(`contracts/${evmAddress}`, what);
    if (body === undefined) throw new MirrorNodeError(`the mirror node does not know ${what} yet`);
    if (!isRecord(body) || !isLedgerId(body.contract_id) || typeof body.evm_address !== 'string') {
      throw new MirrorNodeError(`the mirror node sent a body that is not a contract for ${what}`);
    }
    if (body.evm_address.toLowerCase() !== evmAddress) {
      throw new MirrorNodeError(`the mirror node answered for another contract than ${what}`);
    }
    return String(body.contract_id);
  }
}
