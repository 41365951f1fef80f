import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHALLENGE_ACCOUNTS, challengeRuns } from '../../test-support/challenge-runs.js';
import { type Challenge, ChallengeBook, type ChallengeBookOptions } from './challenge-book.js';

const TTL = 60_000;

function compose(nonce: string, expiresAt: number): string {
  return `sign in with nonce ${nonce} before ${expiresAt}`;
}

function book(options: Partial<ChallengeBookOptions> = {}): ChallengeBook {
  return new ChallengeBook({ ttlMs: TTL, perAccount: 5, total: 1_000, ...options });
}

function nonces(challenges: readonly Challenge[]): string[] {
  return challenges.map((challenge) => challenge.nonce);
}

describe('ChallengeBook', () => {
  it('issues a challenge that expires one ttl later, with the message composed around its nonce', () => {
    const challenges = book();
    const challenge = challenges.issue('0.0.1001', 5_000, compose);
    expect(challenge.expiresAt).toBe(5_000 + TTL);
    expect(challenge.message).toBe(`sign in with nonce ${challenge.nonce} before ${5_000 + TTL}`);
    expect(challenges.pending('0.0.1001', 5_000)).toEqual([challenge]);
    expect(challenges.size).toBe(1);
  });

  it('lets a challenge be consumed once only', () => {
    const challenges = book();
    const { nonce } = challenges.issue('0.0.1001', 0, compose);
    expect(challenges.consume('0.0.1001', nonce, 1)).toBe(true);
    expect(challenges.consume('0.0.1001', nonce, 2)).toBe(false);
    expect(challenges.pending('0.0.1001', 2)).toEqual([]);
    expect(challenges.size).toBe(0);
  });

  it("does not let one account consume another account's challenge", () => {
    const challenges = book();
    const { nonce } = challenges.issue('0.0.1001', 0, compose);
    expect(challenges.consume('0.0.2002', nonce, 1)).toBe(false);
    expect(challenges.consume('0.0.1001', 'not-a-nonce', 1)).toBe(false);
    expect(challenges.consume('0.0.1001', nonce, 1)).toBe(true);
  });

  it('expires a challenge exactly at expiresAt and not a millisecond before', () => {
    const challenges = book();
    const first = challenges.issue('0.0.1001', 1_000, compose);
    const second = challenges.issue('0.0.1001', 1_000, compose);
    expect(nonces(challenges.pending('0.0.1001', first.expiresAt - 1))).toEqual([first.nonce, second.nonce]);
    expect(challenges.consume('0.0.1001', first.nonce, first.expiresAt - 1)).toBe(true);
    expect(challenges.pending('0.0.1001', second.expiresAt)).toEqual([]);
    expect(challenges.consume('0.0.1001', second.nonce, second.expiresAt)).toBe(false);
    expect(challenges.size).toBe(0);
  });

  it("keeps at most perAccount challenges per account, pushing out the account's oldest", () => {
    const challenges = book({ perAccount: 3 });
    const other = challenges.issue('0.0.2002', 0, compose);
    const issued = [1, 2, 3, 4].map((now) => challenges.issue('0.0.1001', now, compose));
    expect(nonces(challenges.pending('0.0.1001', 5))).toEqual(nonces(issued.slice(1)));
    expect(challenges.consume('0.0.1001', issued[0]?.nonce ?? '', 5)).toBe(false);
    expect(challenges.pending('0.0.2002', 5)).toEqual([other]);
    expect(challenges.size).toBe(4);
  });

  it('keeps at most total challenges, pushing out the one that would expire first', () => {
    const challenges = book({ total: 3 });
    const a1 = challenges.issue('a', 1, compose);
    const b2 = challenges.issue('b', 2, compose);
    const a3 = challenges.issue('a', 3, compose);
    const c4 = challenges.issue('c', 4, compose);
    expect(challenges.size).toBe(3);
    expect(nonces(challenges.pending('a', 5))).toEqual([a3.nonce]);
    expect(nonces(challenges.pending('b', 5))).toEqual([b2.nonce]);
    const c6 = challenges.issue('c', 6, compose);
    expect(challenges.pending('b', 7)).toEqual([]);
    expect(nonces(challenges.pending('c', 7))).toEqual([c4.nonce, c6.nonce]);
    expect(challenges.consume('a', a1.nonce, 7)).toBe(false);
    expect(challenges.size).toBe(3);
  });

  it('evicts an expired challenge before a live one', () => {
    const challenges = book({ ttlMs: 10, total: 3 });
    challenges.issue('y', 0, compose);
    const x1 = challenges.issue('x', 1, compose);
    challenges.issue('y', 2, compose);
    challenges.issue('z', 10, compose);
    expect(nonces(challenges.pending('x', 10))).toEqual([x1.nonce]);
  });

  it('returns pending challenges as a snapshot that later issues do not change', () => {
    const challenges = book({ ttlMs: 10, total: 2 });
    challenges.issue('a', 0, compose);
    const seen = challenges.pending('a', 1);
    challenges.issue('b', 1, compose);
    challenges.issue('b', 2, compose);
    expect(seen).toHaveLength(1);
  });

  it('issues unique nonces of at least 128 bits in base64url', () => {
    const challenges = book({ perAccount: 10_000, total: 10_000 });
    const seen = new Set<string>();
    for (let index = 0; index < 5_000; index++) {
      const { nonce } = challenges.issue('0.0.1001', 0, compose);
      expect(nonce).toMatch(/^[A-Za-z0-9_-]+$/);
      const bytes = Buffer.from(nonce, 'base64url');
      expect(bytes.length).toBeGreaterThanOrEqual(16);
      expect(bytes.toString('base64url')).toBe(nonce);
      seen.add(nonce);
    }
    expect(seen.size).toBe(5_000);
  });

  describe('against a model', () => {
    interface Held {
      readonly account: string;
      readonly nonce: string;
      readonly expiresAt: number;
    }

    /**
     * The rules written plainly: every challenge held, oldest first. Every operation first drops
     * the expired ones; the per-account bound drops the account's oldest, the total bound the
     * oldest of all.
     */
    class Model {
      held: Held[] = [];

      constructor(private readonly options: ChallengeBookOptions) {}

      expire(now: number): void {
        this.held = this.held.filter((entry) => entry.expiresAt > now);
      }

      touch(account: string, now: number): Held[] {
        this.expire(now);
        return this.held.filter((entry) => entry.account === account);
      }

      issue(account: string, now: number, nonce: string): void {
        this.expire(now);
        this.held.push({ account, nonce, expiresAt: now + this.options.ttlMs });
        const own = this.held.filter((entry) => entry.account === account);
        if (own.length > this.options.perAccount) this.drop(own[0]);
        while (this.held.length > this.options.total) this.drop(this.held[0]);
      }

      consume(account: string, nonce: string, now: number): boolean {
        const found = this.touch(account, now).find((entry) => entry.nonce === nonce);
        this.drop(found);
        return found !== undefined;
      }

      private drop(entry: Held | undefined): void {
        this.held = this.held.filter((candidate) => candidate !== entry);
      }
    }

    const ACCOUNTS = CHALLENGE_ACCOUNTS;
    const run = challengeRuns(120);

    it('behaves like the model: single use, expiry, both caps, pending and an exact size throughout', () => {
      fc.assert(
        fc.property(run, ({ actions, ...options }) => {
          const challenges = new ChallengeBook(options);
          const model = new Model(options);
          const issued: Challenge[] = [];
          const owner = new Map<string, string>();
          let now = 1_000;
          for (const step of actions) {
            if (step.kind === 'issue') {
              const account = ACCOUNTS[step.account] ?? '';
              const challenge = challenges.issue(account, now, compose);
              expect(challenge.expiresAt).toBe(now + options.ttlMs);
              issued.push(challenge);
              owner.set(challenge.nonce, account);
              model.issue(account, now, challenge.nonce);
            } else if (step.kind === 'consume') {
              const challenge = issued.length > 0 ? issued[step.pick % issued.length] : undefined;
              const nonce = challenge?.nonce ?? 'never-issued';
              const account = step.stranger === null ? (owner.get(nonce) ?? '0.0.1') : (ACCOUNTS[step.stranger] ?? '');
              expect(challenges.consume(account, nonce, now)).toBe(model.consume(account, nonce, now));
            } else if (step.kind === 'pending') {
              const account = ACCOUNTS[step.account] ?? '';
              const pending = challenges.pending(account, now);
              expect(nonces(pending)).toEqual(model.touch(account, now).map((entry) => entry.nonce));
              for (const challenge of pending) expect(challenge.expiresAt).toBeGreaterThan(now);
            } else {
              now += step.ms;
              challenges.pending(ACCOUNTS[0] ?? '', now);
              model.expire(now);
            }
            expect(challenges.size).toBe(model.held.length);
            expect(challenges.size).toBeLessThanOrEqual(options.total);
          }
          // Once every account has been looked at, size is exactly the number of live challenges.
          let live = 0;
          for (const account of ACCOUNTS) {
            const pending = challenges.pending(account, now);
            expect(pending.length).toBeLessThanOrEqual(options.perAccount);
            expect(nonces(pending)).toEqual(model.touch(account, now).map((entry) => entry.nonce));
            live += pending.length;
          }
          expect(challenges.size).toBe(live);
        }),
        { numRuns: 500 },
      );
    });
  });
});
