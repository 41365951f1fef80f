/**
 * Why the reactor skipped a fill: the `Reject` enum of PartialFillLimitOrderReactor.sol in
 * declaration order (index = the value in `settle`'s outcomes and `FillRejected` events).
 */
export const REJECT_REASONS = [
  'None',
  'AlreadySettled',
  'BadIndex',
  'SameOrder',
  'WrongReactor',
  'Expired',
  'NonceBelowFloor',
  'Cancelled',
  'BadSignature',
  'ValidationContract',
  'AmountTooLarge',
  'TokenMismatch',
  'MakerOnly',
  'TakerOnce',
  'ZeroAmount',
  'MakerOverfill',
  'TakerOverfill',
  'MakerPrice',
  'TakerPrice',
  'MakerFeeCap',
  'TakerFeeCap',
  'MakerTransfer',
  'TakerTransfer',
  'TransferReverted',
  'NoPool',
  'PoolMoved',
  'MakerRefused',
  'TakerRefused',
  'FeeRefused',
  'PoolFailed',
  'KeyServiceFailed',
  'BadRebate',
] as const;

export type RejectReason = (typeof REJECT_REASONS)[number];

export function rejectReason(code: number): RejectReason {
  const reason = REJECT_REASONS[code];
  if (reason === undefined) throw new RangeError(`unknown reactor reject code ${code}`);
  return reason;
}

/** Whose order a rejected fill is blamed on: the `Party` enum of the reactor. */
export const PARTIES = ['None', 'Maker', 'Taker'] as const;

export type Party = (typeof PARTIES)[number];

/** A `settle` outcome as the reactor returns it, with names for its enum values. */
export function outcomeOf(raw: { reason: number; party: number }): { reason: RejectReason; party: Party } {
  const party = PARTIES[raw.party];
  if (party === undefined) throw new RangeError(`unknown reactor party ${raw.party}`);
  return { reason: rejectReason(raw.reason), party };
}
