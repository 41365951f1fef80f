import type { Redis } from 'ioredis';
import { newLoginNonce } from '../../domain/accounts/login-nonce.js';
import { failingAs } from '../../domain/errors.js';
import type { Challenge, LoginChallenges } from '../../ports/login-challenges.js';

export interface RedisChallengeOptions {
  /** How long a challenge can be answered. */
  readonly ttlMs: number;
  /** Open challenges kept per account; a new one pushes out the account's oldest. */
  readonly perAccount: number;
  /** Open challenges kept in all; bounds memory against floods of challenge requests. */
  readonly total: number;
}

/**
 * What every script shares. KEYS[1]: every open challenge, scored by issue order; KEYS[2]: the
 * challenges by nonce, each `account \n expiresAt \n message`; ARGV[1]: the prefix of an account's
 * own set of nonces. Every challenge lives equally long, so issue order is expiry order: expired
 * ones are at the front, as in the in-process book. Times are the service's clock, passed in.
 */
const SHARED = `
local all, data, own = KEYS[1], KEYS[2], ARGV[1]
local function drop(nonce)
  local entry = redis.call('HGET', data, nonce)
  if entry then
    redis.call('ZREM', own .. string.match(entry, '^[^\\n]*'), nonce)
    redis.call('HDEL', data, nonce)
  end
  redis.call('ZREM', all, nonce)
end
local function expire(now)
  while true do
    local first = redis.call('ZRANGE', all, 0, 0)[1]
    if not first then return end
    local entry = redis.call('HGET', data, first)
    if entry and tonumber(string.match(entry, '^[^\\n]*\\n([^\\n]*)')) > now then return end
    drop(first)
  end
end
`;

/** KEYS[3]: the issue counter. ARGV: prefix, account, nonce, entry, now, per account, total, keep ms. */
const ISSUE = `${SHARED}
local account, nonce = ARGV[2], ARGV[3]
expire(tonumber(ARGV[5]))
local order = redis.call('INCR', KEYS[3])
local mine = own .. account
redis.call('HSET', data, nonce, ARGV[4])
redis.call('ZADD', all, order, nonce)
redis.call('ZADD', mine, order, nonce)
if redis.call('ZCARD', mine) > tonumber(ARGV[6]) then drop(redis.call('ZRANGE', mine, 0, 0)[1]) end
while redis.call('ZCARD', all) > tonumber(ARGV[7]) do drop(redis.call('ZRANGE', all, 0, 0)[1]) end
for _, name in ipairs({all, data, KEYS[3], mine}) do redis.call('PEXPIRE', name, ARGV[8]) end
return 1
`;

/** ARGV: prefix, account, now. Answers the account's open challenges, oldest first: nonce, entry, nonce, entry... */
const PENDING = `${SHARED}
expire(tonumber(ARGV[3]))
local out = {}
for _, nonce in ipairs(redis.call('ZRANGE', own .. ARGV[2], 0, -1)) do
  out[#out + 1] = nonce
  out[#out + 1] = redis.call('HGET', data, nonce)
end
return out
`;

/** ARGV: prefix, account, nonce, now. Answers 1 when the account's challenge was open and is now used. */
const CONSUME = `${SHARED}
expire(tonumber(ARGV[4]))
local entry = redis.call('HGET', data, ARGV[3])
if not entry or string.match(entry, '^[^\\n]*') ~= ARGV[2] then return 0 end
drop(ARGV[3])
return 1
`;

/**
 * Keys outlive their last challenge by this long, so that Redis forgets a deployment's challenges
 * once nobody asks for them (the service's own clock decides expiry; this is only for cleanup).
 */
const KEPT_AFTER_TTL_MS = 3_600_000;

interface Scripts {
  challengeIssue(...args: (string | number)[]): Promise<number>;
  challengePending(...args: (string | number)[]): Promise<string[]>;
  challengeConsume(...args: (string | number)[]): Promise<number>;
}

/**
 * Login challenges in Redis, shared by every gateway: a challenge one issues, another can consume,
 * once. The same rules as the in-process book (expiry, single use, both bounds), each operation
 * one atomic script.
 */
export class RedisLoginChallenges implements LoginChallenges {
  private readonly scripts: Scripts;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly options: RedisChallengeOptions,
  ) {
    redis.defineCommand('challengeIssue', { numberOfKeys: 3, lua: ISSUE });
    redis.defineCommand('challengePending', { numberOfKeys: 2, lua: PENDING });
    redis.defineCommand('challengeConsume', { numberOfKeys: 2, lua: CONSUME });
    this.scripts = redis as unknown as Scripts;
  }

  async issue(account: string, now: number, compose: (nonce: string, expiresAt: number) => string): Promise<Challenge> {
    const nonce = newLoginNonce();
    const expiresAt = now + this.options.ttlMs;
    const message = compose(nonce, expiresAt);
    const { perAccount, total, ttlMs } = this.options;
    const entry = `${account}\n${expiresAt}\n${message}`;
    await failingAs(
      'STORAGE_UNAVAILABLE',
      this.scripts.challengeIssue(
        ...this.keys(),
        `${this.prefix}challenges:issued`,
        this.ownPrefix,
        account,
        nonce,
        entry,
        now,
        perAccount,
        total,
        ttlMs + KEPT_AFTER_TTL_MS,
      ),
    );
    return { nonce, message, expiresAt };
  }

  async pending(account: string, now: number): Promise<Challenge[]> {
    const reply = await failingAs(
      'STORAGE_UNAVAILABLE',
      this.scripts.challengePending(...this.keys(), this.ownPrefix, account, now),
    );
    const challenges: Challenge[] = [];
    for (let at = 0; at + 1 < reply.length; at += 2) challenges.push(challengeOf(reply[at] as string, reply[at + 1] as string));
    return challenges;
  }

  async consume(account: string, nonce: string, now: number): Promise<boolean> {
    return (
      (await failingAs(
        'STORAGE_UNAVAILABLE',
        this.scripts.challengeConsume(...this.keys(), this.ownPrefix, account, nonce, now),
      )) === 1
    );
  }

  private keys(): [string, string] {
    return [`${this.prefix}challenges:open`, `${this.prefix}challenges:entries`];
  }

  private get ownPrefix(): string {
    return `${this.prefix}challenges:of:`;
  }
}

/** A challenge from its nonce and entry: `account \n expiresAt \n message` (the message may hold newlines). */
function challengeOf(nonce: string, entry: string): Challenge {
  const first = entry.indexOf('\n');
  const second = entry.indexOf('\n', first + 1);
  return { nonce, message: entry.slice(second + 1), expiresAt: Number(entry.slice(first + 1, second)) };
}
