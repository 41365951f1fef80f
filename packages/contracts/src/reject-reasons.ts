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
] as const;

export type RejectReason = (typeof REJECT_REASONS)[number];

export function rejectReason(code: number): RejectReason {
  const reason = REJECT_REASONS[code];
  if (reason === undefined) throw new RangeError(`unknown reactor reject code ${code}`);
  return reason;
}
