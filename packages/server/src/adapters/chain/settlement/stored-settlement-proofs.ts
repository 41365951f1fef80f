import { PartialFillLimitOrderReactor } from '@dex/contracts';
import type { SettlementProof } from '@dex/protocol';
import { type Address, decodeEventLog, getAddress, type Hex } from 'viem';
import type { SettlementProofs } from '../../../ports/settlement-proofs.js';
import type { ProofLog, SettlementProofStore } from '../../../ports/store/settlement-proof-ports.js';

/** Decoded arguments as the wire gives them: integers as decimal text, the rest as the chain's hex. */
function wireArgs(args: unknown): Record<string, string> {
  const entries = Object.entries((args ?? {}) as Record<string, unknown>);
  return Object.fromEntries(entries.map(([name, value]) => [name, String(value)]));
}

function eventOf(log: ProofLog): SettlementProof['events'][number] {
  const topics = log.topics as [Hex, ...Hex[]];
  const decoded = decodeEventLog({ abi: PartialFillLimitOrderReactor.abi, topics, data: log.data as Hex });
  return {
    logIndex: log.logIndex,
    name: decoded.eventName,
    args: wireArgs(decoded.args),
    topics: [...log.topics],
    data: log.data,
  };
}

/** The reactor's events the indexer kept (store.settlementProofs), decoded with the reactor's ABI. */
export class StoredSettlementProofs implements SettlementProofs {
  private readonly reactor: Address;

  constructor(
    private readonly logs: SettlementProofStore,
    private readonly chainId: number,
    reactor: string,
  ) {
    this.reactor = getAddress(reactor);
  }

  async ofTransaction(txHash: string): Promise<SettlementProof | null> {
    const logs = await this.logs.ofTransaction(txHash);
    const [first] = logs;
    if (first === undefined) return null;
    const events = logs.map(eventOf);
    const fillIds = events
      .filter((event) => event.name === 'Filled' || event.name === 'PoolFilled')
      .map((event) => event.args.fillId ?? '');
    return {
      chainId: this.chainId,
      reactor: this.reactor,
      transactionHash: first.txHash,
      blockNumber: first.blockNumber.toString(),
      blockHash: first.blockHash,
      transactionIndex: first.transactionIndex,
      fillIds,
      events,
    };
  }
}
