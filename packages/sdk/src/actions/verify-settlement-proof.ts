import { encodeFunctionData, type Hex, hexToBigInt, parseAbi, toEventSelector } from 'viem';
import { SettlementProofMismatchError } from '../errors.js';
import type { SettlementProof } from '../types.js';

/** A JSON-RPC connection to the settlement chain as EIP-1193 has it: a browser wallet's provider. */
export interface ChainRequester {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>;
}

export interface VerifySettlementProofParameters {
  readonly proof: SettlementProof;
  /**
   * A node of the chain the proof names, of the caller's choosing (the check trusts it, not the
   * service): its JSON-RPC URL, or an EIP-1193 provider.
   */
  readonly chain: string | ChainRequester;
}

/** Plain JSON-RPC over fetch, for a node given by its URL. */
function urlRequester(url: string): ChainRequester {
  let id = 0;
  return {
    async request({ method, params = [] }) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      });
      const answer = (await response.json()) as { result?: unknown; error?: { message?: string } };
      if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message ?? 'the node refused it'}`);
      return answer.result ?? null;
    },
  };
}

export interface VerifySettlementProofReturnType {
  /**
   * `receipt`: the node's receipt of the transaction holds every event of the proof, in its block.
   * `reactorState`: the node no longer serves the receipt (past its horizon), and the reactor holds
   * every fill of the proof settled.
   */
  readonly checkedBy: 'receipt' | 'reactorState';
  /** The fills (trade ids) found settled. */
  readonly fillIds: readonly bigint[];
}

export type VerifySettlementProofErrorType = SettlementProofMismatchError | Error;

const SETTLED_ABI = parseAbi(['function isFillSettled(uint64 fillId) view returns (bool)']);
/** The reactor's events that settle a fill, by their signature (topic 0): the fill id is their first indexed argument. */
const FILL_TOPICS = [
  toEventSelector(
    'Filled(uint64 indexed fillId, bytes32 indexed makerHash, bytes32 indexed takerHash, address maker, address taker, uint256 makerAmount, uint256 takerAmount, uint256 makerFee, uint256 takerFee)',
  ),
  toEventSelector(
    'PoolFilled(uint64 indexed fillId, bytes32 indexed takerHash, address indexed pair, address taker, uint256 amountIn, uint256 amountOut, uint256 takerFee, uint256 feeCollected)',
  ),
];

interface ReceiptLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
  readonly logIndex: string;
}

interface Receipt {
  readonly status: string;
  readonly blockHash: string;
  readonly logs: readonly ReceiptLog[];
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The fills the proof's raw logs settle: read from the topics, not from the names the service gave them. */
function fillIdsOf(proof: SettlementProof): bigint[] {
  return proof.events
    .filter((event) => FILL_TOPICS.some((topic) => same(topic, event.topics[0] ?? '')))
    .map((event) => hexToBigInt(event.topics[1] as Hex));
}

function checkReceipt(proof: SettlementProof, receipt: Receipt): void {
  const mismatch = (details: string) =>
    new SettlementProofMismatchError(
      'receipt',
      `The chain's receipt of ${proof.transactionHash} differs from the proof`,
      details,
    );
  if (!same(receipt.blockHash, proof.blockHash)) throw mismatch(`block ${receipt.blockHash}, the proof says ${proof.blockHash}`);
  if (receipt.status !== '0x1') throw mismatch('the transaction reverted');
  for (const event of proof.events) {
    const log = receipt.logs.find((candidate) => Number(candidate.logIndex) === event.logIndex);
    const matches =
      log !== undefined &&
      same(log.address, proof.reactor) &&
      log.topics.length === event.topics.length &&
      log.topics.every((topic, i) => same(topic, event.topics[i] ?? '')) &&
      same(log.data, event.data);
    if (!matches) {
      throw new SettlementProofMismatchError(
        'event',
        `The chain has no such ${event.name} event`,
        `log ${event.logIndex} of ${proof.transactionHash}`,
      );
    }
  }
}

/**
 * Checks a settlement proof ({@link getSettlementProof}) against a node of the caller's choosing:
 * its receipt while the node keeps it, else the reactor's own record of each fill, which a chain
 * never forgets. Throws SettlementProofMismatchError when the chain says otherwise.
 *
 * @example
 * const proof = await getSettlementProof(client, { transactionHash });
 * const { checkedBy } = await verifySettlementProof({ proof, chain: 'https://testnet.hashio.io/api' });
 */
export async function verifySettlementProof(
  parameters: VerifySettlementProofParameters,
): Promise<VerifySettlementProofReturnType> {
  const { proof } = parameters;
  const chain = typeof parameters.chain === 'string' ? urlRequester(parameters.chain) : parameters.chain;
  const chainId = Number(await chain.request({ method: 'eth_chainId' }));
  if (chainId !== proof.chainId) {
    throw new SettlementProofMismatchError(
      'chainId',
      'The node serves another chain than the proof',
      `node ${chainId}, proof ${proof.chainId}`,
    );
  }
  const fillIds = fillIdsOf(proof);
  const receipt = (await chain.request({
    method: 'eth_getTransactionReceipt',
    params: [proof.transactionHash],
  })) as Receipt | null;
  if (receipt !== null) {
    checkReceipt(proof, receipt);
    return { checkedBy: 'receipt', fillIds };
  }
  for (const fillId of fillIds) {
    const data = encodeFunctionData({ abi: SETTLED_ABI, functionName: 'isFillSettled', args: [fillId] });
    const answer = (await chain.request({ method: 'eth_call', params: [{ to: proof.reactor, data }, 'latest'] })) as Hex;
    if (hexToBigInt(answer) !== 1n) {
      throw new SettlementProofMismatchError(
        'fill',
        `The reactor does not hold fill ${fillId} settled`,
        `reactor ${proof.reactor}`,
      );
    }
  }
  return { checkedBy: 'reactorState', fillIds };
}
