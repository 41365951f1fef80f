import { type Static, Type } from 'typebox';

const Hex = (description: string) => Type.String({ description, pattern: '^0x[0-9a-f]*$' });

export const SettlementEvent = Type.Object({
  logIndex: Type.Integer({ description: "The log's position in its block" }),
  name: Type.String({
    description: "The reactor's event: MakerFill, TakerFill, Filled, PoolFilled, FillRejected, OrderCancelled, ...",
  }),
  args: Type.Record(Type.String(), Type.String(), {
    description: 'The decoded arguments; integers as decimal strings, addresses and hashes as 0x hex',
  }),
  topics: Type.Array(Hex('A 32-byte topic'), { description: 'The log as the chain has it: its topics (the signature first)...' }),
  data: Hex('...and its data'),
});

export const SettlementProofResponse = Type.Object({
  chainId: Type.Integer(),
  reactor: Type.String({ description: 'The reactor that emitted the events (0x address, checksummed)' }),
  transactionHash: Hex('The settlement transaction, as the tape and the histories name it'),
  blockNumber: Type.String({ description: 'Its block, a decimal string' }),
  blockHash: Hex('The hash of that block'),
  transactionIndex: Type.Integer({ description: "The transaction's position in its block" }),
  fillIds: Type.Array(Type.String(), {
    description: 'The trades this transaction settled (their tradeId), from its Filled and PoolFilled events',
  }),
  events: Type.Array(SettlementEvent, { description: 'Every event of the reactor in the transaction, in log order' }),
});

export const SettlementParams = Type.Object({ transactionHash: Type.String({ maxLength: 80 }) });

/** One reactor event of a settlement proof. */
export type SettlementEvent = Static<typeof SettlementEvent>;
/** `GET /settlements/:transactionHash`: the reactor's events of a settlement transaction, kept by the service. */
export type SettlementProof = Static<typeof SettlementProofResponse>;
