import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Challenge, ChallengeBounds } from '../../ports/login-challenges.js';
import { CHALLENGE_ACCOUNTS, CHALLENGE_REQUESTERS, challengeRuns } from '../../test-support/challenge-runs.js';
import { REDIS_AVAILABLE, useTestRedis } from '../../test-support/redis.js';
import { ChallengeBook } from '../memory/challenge-book.js';
import { RedisLoginChallenges } from './redis-login-challenges.js';

function compose(nonce: string, expiresAt: number): string {
  return `sign in\nwith nonce ${nonce}\nbefore ${expiresAt}`;
}

describe.skipIf(!REDIS_AVAILABLE)('RedisLoginChallenges', () => {
  const redis = useTestRedis();
  const open = (options: Partial<ChallengeBounds> = {}) =>
    new RedisLoginChallenges(redis.redis(), redis.prefix(), {
      ttlMs: 60_000,
      perAccount: 5,
      perRequester: 10,
      total: 1_000,
      ...options,
    });

  it('lets a challenge issued by one gateway be answered at another, once', async () => {
    const [first, second] = [open(), open()];
    const challenge = await first.issue('0.0.1001', '192.0.2.1', 5_000, compose);
    expect(challenge).toEqual({ nonce: challenge.nonce, message: compose(challenge.nonce, 65_000), expiresAt: 65_000 });
    expect(await second.pending('0.0.1001', 5_001)).toEqual([challenge]);
    expect(await second.consume('0.0.2002', challenge.nonce, 5_001)).toBe(false);
    expect(await second.consume('0.0.1001', challenge.nonce, 5_001)).toBe(true);
    expect(await first.consume('0.0.1001', challenge.nonce, 5_002)).toBe(false);
    expect(await first.pending('0.0.1001', 5_002)).toEqual([]);
  });

  it('answers no more than one of many concurrent consumes of a challenge', async () => {
    const gateways = [open(), open(), open()];
    const { nonce } = await open().issue('0.0.1001', '192.0.2.1', 0, compose);
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (gateways[i % 3] as RedisLoginChallenges).consume('0.0.1001', nonce, 1)),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });

  const ACCOUNTS = CHALLENGE_ACCOUNTS;
  const run = challengeRuns(60);

  it('behaves as the in-process book: single use, expiry, every bound, refusals and pending, step by step', async () => {
    await fc.assert(
      fc.asyncProperty(run, async ({ actions, ...options }) => {
        await redis.forget();
        const book = new ChallengeBook(options);
        const shared = open(options);
        // The n-th challenge each issued, and to whom: their nonces differ, their places do not.
        const issued: { account: string; own: Challenge; theirs: Challenge }[] = [];
        const place = (challenges: readonly Challenge[], side: 'own' | 'theirs') =>
          challenges.map((challenge) => issued.findIndex((entry) => entry[side].nonce === challenge.nonce));
        let now = 1_000;
        for (const step of actions) {
          if (step.kind === 'issue') {
            const account = ACCOUNTS[step.account] ?? '';
            const requester = CHALLENGE_REQUESTERS[step.requester] ?? '';
            const [own, theirs] = await Promise.all([
              Promise.resolve()
                .then(() => book.issue(account, requester, now, compose))
                .catch(() => undefined),
              shared.issue(account, requester, now, compose).catch(() => undefined),
            ]);
            expect(theirs === undefined).toBe(own === undefined);
            if (own !== undefined && theirs !== undefined) issued.push({ account, own, theirs });
          } else if (step.kind === 'consume' && issued.length > 0) {
            const { account: owner, own, theirs } = issued[step.pick % issued.length] as (typeof issued)[number];
            // Usually the owner answers; sometimes another account tries the nonce.
            const account = step.stranger === null ? owner : (ACCOUNTS[step.stranger] ?? owner);
            expect(await shared.consume(account, theirs.nonce, now)).toBe(book.consume(account, own.nonce, now));
          } else if (step.kind === 'pending') {
            const account = ACCOUNTS[step.account] ?? '';
            expect(place(await shared.pending(account, now), 'theirs')).toEqual(place(book.pending(account, now), 'own'));
          } else if (step.kind === 'advance') {
            now += step.ms;
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
