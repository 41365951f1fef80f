import { describe, expect, it } from 'vitest';
import { json, useFakeMirror } from '../../test-support/fake-mirror-node.js';
import { MirrorNodeError } from './mirror-node-client.js';
import { MirrorNodeContractIds } from './mirror-node-contract-ids.js';

const PAIR = '0xc5b707348da504e9be1bd4e21525459830e7b11d';

/** A contract body with the fields and shapes of `GET /api/v1/contracts/{address}`. */
function contractBody(contractId: string, evmAddress: string) {
  return {
    admin_key: null,
    auto_renew_account: null,
    auto_renew_period: 7_776_000,
    contract_id: contractId,
    created_timestamp: '1700000000.123456789',
    deleted: false,
    evm_address: evmAddress,
    expiration_timestamp: null,
    file_id: null,
    max_automatic_token_associations: 0,
    memo: '',
    nonce: 1,
    obtainer_id: null,
    permanent_removal: null,
    proxy_account_id: null,
    timestamp: { from: '1700000000.123456789', to: null },
    bytecode: '0x6080',
    runtime_bytecode: '0x6080',
  };
}

describe('MirrorNodeContractIds', () => {
  const mirror = useFakeMirror();

  const ids = () => new MirrorNodeContractIds({ baseUrl: mirror.url, timeoutMs: 500 });

  it('names a pair by the contract id the mirror node gives its address', async () => {
    mirror.routes.set(`/api/v1/contracts/${PAIR}`, json(200, contractBody('0.0.1465865', PAIR)));
    expect(await ids().idOf({ address: PAIR.toUpperCase().replace('0X', '0x'), poolId: 1 })).toBe('0.0.1465865');
    expect(mirror.requests).toEqual([`/api/v1/contracts/${PAIR}`]);
  });

  it('reads the id of a long-zero address without asking', async () => {
    expect(await ids().idOf({ address: '0x0000000000000000000000000000000000165e89', poolId: 1 })).toBe('0.0.1465993');
    expect(mirror.requests).toEqual([]);
  });

  it.each([
    ['a contract it does not know yet (404)', undefined, /does not know contract/],
    ['a body for another contract', contractBody('0.0.9', `0x${'11'.repeat(20)}`), /another contract/],
    ['a contract id that is not a ledger id', contractBody('0.0.x', PAIR), /not a contract/],
    ['a JSON array', [], /not a contract/],
  ])('throws for %s, so the block is read again later', async (_name, body, message) => {
    if (body !== undefined) mirror.routes.set(`/api/v1/contracts/${PAIR}`, json(200, body));
    await expect(ids().idOf({ address: PAIR, poolId: 1 })).rejects.toThrow(message);
    await expect(ids().idOf({ address: PAIR, poolId: 1 })).rejects.toThrow(MirrorNodeError);
  });

  it('throws on a server error and sends nothing for text that is not an address', async () => {
    mirror.routes.set(`/api/v1/contracts/${PAIR}`, json(503, {}));
    await expect(ids().idOf({ address: PAIR, poolId: 1 })).rejects.toThrow(/answered 503/);
    await expect(ids().idOf({ address: `${PAIR}/../accounts`, poolId: 1 })).rejects.toThrow(/not an EVM address/);
    expect(mirror.requests).toHaveLength(1);
  });
});
