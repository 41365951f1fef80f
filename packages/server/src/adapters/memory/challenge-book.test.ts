import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors.js';
import type { ChallengeBounds } from '../../ports/login-challenges.js';
import { CHALLENGE_ACCOUNTS, CHALLENGE_REQUESTERS, challengeRuns } from '../../test-support/challenge-runs.js';
import { type Challenge, ChallengeBook } from './challenge-book.js';

const TTL = 60_000;

function compose(nonce: string, expiresAt: number): string {
  return `sign in with nonce ${nonce} before ${expiresAt}`;
}

function book(options: Partial<ChallengeBounds> = {}): ChallengeBook {
  return new ChallengeBook({ ttlMs: TTL, perAccount: 5, perRequester: 10, total: 1_000, ...options });
}

/** The requester of most tests. */
const ME = '192.0.2.1';

function nonces(challenges: readonly Challenge[]): string[] {
  return challenges.map((challenge) => challenge.nonce);
}

describe('ChallengeBook', () => {
  it('issues a challenge that expires one ttl later, with the message composed around its nonce', () => {
    const challenges = book();
    const challenge = challenges.issue('0.0.1001', ME, 5_000, compose);
    expect(challenge.expiresAt).toBe(5_000 + TTL);
    expect(challenge.message).toBe(`sign in with nonce ${challenge.nonce} before ${5_000 + TTL}`);
    expect(challenges.pending('0.0.1001', 5_000)).toEqual([challenge]);
    expect(challenges.size).toBe(1);
  });

  it('lets a challenge be consumed once only', () => {
    const challenges = book();
    const { nonce } = challenges.issue('0.0.1001', ME, 0, compose);
    expect(challenges.consume('0.0.1001', nonce, 1)).toBe(true);
    expect(challenges.consume('0.0.1001', nonce, 2)).toBe(false);
    expect(challenges.pending('0.0.1001', 2)).toEqual([]);
    expect(challenges.size).toBe(0);
  });

  it("does not let one account consume another account's challenge", () => {
    const challenges = book();
    const { nonce } = challenges.issue('0.0.1001', ME, 0, compose);
    expect(challenges.consume('0.0.2002', nonce, 1)).toBe(false);
    expect(challenges.consume('0.0.1001', 'not-a-nonce', 1)).toBe(false);
    expect(challenges.consume('0.0.1001', nonce, 1)).toBe(true);
  });

  it('expires a challenge exactly at expiresAt and not a millisecond before', () => {
    const challenges = book();
    const first = challenges.issue('0.0.1001', ME, 1_000, compose);
    const second = challenges.issue('0.0.1001', ME, 1_000, compose);
    expect(nonces(challenges.pending('0.0.1001', first.expiresAt - 1))).toEqual([first.nonce, second.nonce]);
    expect(challenges.consume('0.0.1001', first.nonce, first.expiresAt - 1)).toBe(true);
    expect(challenges.pending('0.0.1001', second.expiresAt)).toEqual([]);
    expect(challenges.consume('0.0.1001', second.nonce, second.expiresAt)).toBe(false);
    expect(challenges.size).toBe(0);
  });

  it("keeps at most perAccount challenges per account, pushing out the account's oldest of the one requester", () => {
    const challenges = book({ perAccount: 3 });
    const other = challenges.issue('0.0.2002', ME, 0, compose);
    const issued = [1, 2, 3, 4].map((now) => challenges.issue('0.0.1001', ME, now, compose));
    expect(nonces(challenges.pending('0.0.1001', 5))).toEqual(nonces(issued.slice(1)));
    expect(challenges.consume('0.0.1001', issued[0]?.nonce ?? '', 5)).toBe(false);
    expect(challenges.pending('0.0.2002', 5)).toEqual([other]);
    expect(challenges.size).toBe(4);
  });

  it("never lets a requester push out another's challenge while it holds as many of the account's", () => {
    const challenges = book({ perAccount: 3 });
    const victims = challenges.issue('0.0.1001', '198.51.100.7', 0, compose);
    for (let now = 1; now <= 50; now++) challenges.issue('0.0.1001', ME, now, compose);
    expect(nonces(challenges.pending('0.0.1001', 51))[0]).toBe(victims.nonce);
    // Only as many other addresses as the bound (this one and two more), each holding one, push it out.
    challenges.issue('0.0.1001', '203.0.113.1', 52, compose);
    expect(nonces(challenges.pending('0.0.1001', 53))).toContain(victims.nonce);
    challenges.issue('0.0.1001', '203.0.113.2', 53, compose);
    expect(nonces(challenges.pending('0.0.1001', 54))).not.toContain(victims.nonce);
  });

  it('keeps at most perRequester challenges of one requester, pushing out its own oldest', () => {
    const challenges = book({ perRequester: 2 });
    const kept = challenges.issue('0.0.9', '198.51.100.7', 0, compose);
    const [, second, third] = ['0.0.1', '0.0.2', '0.0.3'].map((account, index) =>
      challenges.issue(account, ME, index + 1, compose),
    );
    expect(challenges.pending('0.0.1', 4)).toEqual([]);
    expect(challenges.pending('0.0.2', 4)).toEqual([second]);
    expect(challenges.pending('0.0.3', 4)).toEqual([third]);
    expect(challenges.pending('0.0.9', 4)).toEqual([kept]);
  });

  it('refuses a new challenge while total are open, and pushes out none of them', () => {
    const challenges = book({ total: 3 });
    const open = ['10.0.0.1', '10.0.0.2', '10.0.0.3'].map((requester, now) => challenges.issue('a', requester, now, compose));
    expect(() => challenges.issue('b', '10.0.0.4', 4, compose)).toThrow(AppError);
    expect(nonces(challenges.pending('a', 5))).toEqual(nonces(open));
    // Its own oldest makes room for a requester's next one, so a requester of the full book still logs in.
    const again = challenges.issue('a', '10.0.0.1', 6, compose);
    expect(nonces(challenges.pending('a', 7))).toEqual([...nonces(open.slice(1)), again.nonce]);
    expect(challenges.size).toBe(3);
  });

  it('evicts an expired challenge before a live one', () => {
    const challenges = book({ ttlMs: 10, total: 3 });
    challenges.issue('y', ME, 0, compose);
    const x1 = challenges.issue('x', ME, 1, compose);
    challenges.issue('y', ME, 2, compose);
    challenges.issue('z', ME, 10, compose);
    expect(nonces(challenges.pending('x', 10))).toEqual([x1.nonce]);
  });

  it('returns pending challenges as a snapshot that later issues do not change', () => {
    const challenges = book({ ttlMs: 10, perRequester: 1 });
    challenges.issue('a', ME, 0, compose);
    const seen = challenges.pending('a', 1);
    challenges.issue('b', ME, 1, compose);
    expect(challenges.pending('a', 2)).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('issues unique nonces of at least 128 bits in base64url', () => {
    const challenges = book({ perAccount: 10_000, total: 10_000 });
    const seen = new Set<string>();
    for (let index = 0; index < 5_000; index++) {
      const { nonce } = challenges.issue('0.0.1001', ME, 0, compose);
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
      readonly requester: string;
      readonly nonce: string;
      readonly expiresAt: number;
    }

    /**
     * The rules written plainly: every challenge held, oldest first. Every operation first drops
     * the expired ones. An issue drops the requester's oldest when it holds perRequester or total
     * are held, is refused when total are still held, and drops the oldest of the account's challenges whose
     * requester holds the most of them (the asker counted with its new one) when the account
     * holds perAccount.
     */
    class Model {
      held: Held[] = [];

      constructor(private readonly options: ChallengeBounds) {}

      expire(now: number): void {
        this.held = this.held.filter((entry) => entry.expiresAt > now);
      }

      touch(account: string, now: number): Held[] {
        this.expire(now);
        return this.held.filter((entry) => entry.account === account);
      }

      issue(account: string, requester: string, now: number, nonce: string): boolean {
        this.expire(now);
        const asked = this.held.filter((entry) => entry.requester === requester);
        const full = this.held.length >= this.options.total;
        if (asked.length >= this.options.perRequester || (asked.length > 0 && full)) this.drop(asked[0]);
        if (this.held.length >= this.options.total) return false;
        const own = this.held.filter((entry) => entry.account === account);
        if (own.length >= this.options.perAccount) {
          const count = (who: string) => own.filter((entry) => entry.requester === who).length + (who === requester ? 1 : 0);
          const most = Math.max(count(requester), ...own.map((entry) => count(entry.requester)));
          this.drop(own.find((entry) => count(entry.requester) === most));
        }
        this.held.push({ account, requester, nonce, expiresAt: now + this.options.ttlMs });
        return true;
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

    it('behaves like the model: single use, expiry, every bound, pending and an exact size throughout', () => {
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
              const requester = CHALLENGE_REQUESTERS[step.requester] ?? '';
              let challenge: Challenge | undefined;
              try {
                challenge = challenges.issue(account, requester, now, compose);
              } catch (error) {
                expect(error).toBeInstanceOf(AppError);
              }
              const nonce = challenge?.nonce ?? `refused-${issued.length}`;
              expect(model.issue(account, requester, now, nonce)).toBe(challenge !== undefined);
              if (challenge !== undefined) {
                expect(challenge.expiresAt).toBe(now + options.ttlMs);
                issued.push(challenge);
                owner.set(challenge.nonce, account);
              }
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
