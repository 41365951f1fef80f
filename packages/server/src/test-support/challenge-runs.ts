import fc from 'fast-check';

/** The accounts the generated runs of login challenges use. */
export const CHALLENGE_ACCOUNTS = ['0.0.1', '0.0.2', '0.0.3', '0.0.4'];
/** The client addresses that ask for them. */
export const CHALLENGE_REQUESTERS = ['10.0.0.1', '10.0.0.2', '2001:db8::3'];

const action = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('issue' as const),
      account: fc.nat(CHALLENGE_ACCOUNTS.length - 1),
      requester: fc.nat(CHALLENGE_REQUESTERS.length - 1),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('consume' as const),
      pick: fc.nat(),
      // Usually the owner answers; sometimes another account tries the nonce.
      stranger: fc.option(fc.nat(CHALLENGE_ACCOUNTS.length - 1), { freq: 5 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pending' as const), account: fc.nat(CHALLENGE_ACCOUNTS.length - 1) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 6 }) }) },
);

/** Runs of issues, consumes, pending lists and clock steps, with small bounds so that every cap and expiry are met often. */
export function challengeRuns(maxActions: number) {
  return fc.record({
    ttlMs: fc.integer({ min: 1, max: 12 }),
    perAccount: fc.integer({ min: 1, max: 4 }),
    perRequester: fc.integer({ min: 1, max: 5 }),
    total: fc.integer({ min: 1, max: 8 }),
    actions: fc.array(action, { minLength: 1, maxLength: maxActions }),
  });
}
